//! A person's turn at the table: the question, its answers in words, the
//! buttons and the mouse, the curtain and leaving.

use super::*;

/// A person's turn: the hot-seat curtain first (with two or more persons,
/// when the table passes to another), then A / B move through the legal
/// answers and C takes one. A question left alone takes the rules' own
/// default after the rules' own seconds (`Match::question`: Done, no
/// block, pass), as at the terminal and on the LAN; a table nobody has
/// pressed anything at for `Timeouts::table_idle` is left (a kiosk's
/// abandoned game goes back to attract).
pub(super) fn person_turn<R: Tabled>(
    time: Res<Time>,
    mut moves: Moves,
    (clicks, mut pointer): (AnswerClicks, crate::arena::ui::input::Pointer),
    (cards, settings): (Res<Cards>, Res<Settings>),
    game: Option<ResMut<TableGame<R>>>,
    mut next: ResMut<NextState<Screen>>,
) {
    let Some(mut res) = game else { return };
    // Moving through the answers is no change to the table.
    let mut changed = false;
    let game = res.bypass_change_detection();
    let Moved {
        up,
        down,
        mut choose,
        back,
    } = moves.read();
    // The mouse: an answer hovered is the one chosen, clicked it is taken;
    // the prompt clicked is C (it takes the table at the curtain).
    let mut pointed = None;
    let mut prompt_clicked = false;
    let moved = pointer.moved();
    for (i, line) in &clicks {
        let answer = line.and_then(|l| l.answer);
        match i {
            Interaction::Pressed => {
                pointed = answer.or(pointed);
                choose |= answer.is_some();
                prompt_clicked |= line.is_none();
            }
            Interaction::Hovered if moved => pointed = answer.or(pointed),
            Interaction::Hovered | Interaction::None => {}
        }
    }
    if game.ended() || game.wait > 0.0 {
        return;
    }
    // At a LAN table: the host's question for this machine's seat (the
    // host's clock settles a question left alone). Here: the rules' time
    // and default.
    let (seat, legal) = match (&game.remote, game.host.as_mut()) {
        (Some(r), _) => match (r.seat, &r.asked) {
            (Some(seat), Some((a, _))) => (seat, a.answers.clone()),
            _ => return,
        },
        (None, Some(host)) => {
            let Some(seat) = host.game().waiting_for() else {
                return;
            };
            let Some(q) = host.question(seat, &cards.0) else {
                return;
            };
            (seat, q.answers.clone())
        }
        (None, None) => return,
    };
    let Some(live) = game.live.as_mut() else {
        return;
    };
    if !live.pilots.get(seat.index()).is_some_and(|p| p.is_person()) || legal.is_empty() {
        return;
    }
    if up || down || choose || back || pointed.is_some() || prompt_clicked {
        live.idle = 0.0;
    } else {
        live.idle += time.delta_secs();
    }
    if game.remote.is_none() && live.idle > settings.timeouts.table_idle {
        next.set(Screen::Attract);
        return;
    }
    // C held: leave the table? A / B between stay and leave, C settles it.
    if let Some(at) = live.leaving.as_mut() {
        if up || down {
            *at = 1 - *at;
        }
        if let Some(p) = pointed {
            *at = p.min(1);
        }
        live.leaving_for += time.delta_secs();
        if choose && *at == 1 {
            next.set(Screen::Attract);
        } else if choose || back || live.leaving_for > LEAVING_SECONDS {
            live.leaving = None;
            live.leaving_for = 0.0;
        }
        res.set_changed();
        return;
    }
    if back && live.curtain.is_none() {
        live.leaving = Some(0);
        live.leaving_for = 0.0;
        res.set_changed();
        return;
    }
    if live.persons() > 1 && live.last_person != Some(seat) && live.curtain.is_none() {
        // The hands go face down until the next person takes the table.
        live.curtain = Some(seat);
        changed = true;
    }
    if live.curtain == Some(seat) {
        if choose || prompt_clicked {
            live.curtain = None;
            live.last_person = Some(seat);
            live.chosen = 0;
            // Shown: the hand changes hands.
            changed = true;
        }
        if changed {
            res.set_changed();
        }
        return;
    }
    live.last_person = Some(seat);
    if let Some(p) = pointed {
        live.chosen = p;
    }
    live.chosen = live.chosen.min(legal.len() - 1);
    if up {
        live.chosen = (live.chosen + legal.len() - 1) % legal.len();
    }
    if down {
        live.chosen = (live.chosen + 1) % legal.len();
    }
    if choose {
        let action = legal[live.chosen];
        live.chosen = 0;
        match game.remote.as_mut() {
            Some(r) => r.reply(Reply::Act(action)),
            None => game.wait = game.answer(seat, Reply::Act(action), &cards.0),
        }
        changed = true;
    } else if game.remote.is_none()
        && let Some(host) = game.host.as_mut()
        && let Clocked::TimedOut(events) = host.clock(seat, time.delta_secs(), &cards.0)
    {
        // Left alone: the host took the question's default (or passed an
        // offer), as at the terminal and on the LAN.
        live.chosen = 0;
        game.wait = game.staged(&events, &cards.0);
        changed = true;
    }
    if changed {
        res.set_changed();
    }
}

/// How long the "leave the table?" question waits before it closes and
/// the game goes on.
pub(super) const LEAVING_SECONDS: f32 = 60.0;

/// A person's question as the HUD shows it: the prompt (or the curtain, a
/// CPU thinking, where the game was saved), the answers in view with their
/// index, the one chosen, and the keys.
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct Choice {
    pub(super) prompt: String,
    pub(super) answers: Vec<(usize, String)>,
    pub(super) chosen: usize,
    pub(super) hint: String,
}

/// How many answers are in view at once.
pub(super) const ANSWERS_SHOWN: usize = 7;

/// The person's question and answers (or the curtain), for the HUD.
pub(super) fn choice<R: Tabled>(game: &TableGame<R>, cards: &CardSet) -> Choice {
    let said = |prompt: String| Choice {
        prompt,
        ..Choice::default()
    };
    let Some(live) = &game.live else {
        return Choice::default();
    };
    if game.ended() {
        return said(match game.host.as_ref().and_then(Hosted::saved) {
            Some(Ok(p)) => format!("Game saved: {}", p.display()),
            Some(Err(e)) => format!("Game not saved: {e}"),
            None => String::new(),
        });
    }
    // At a LAN table: this machine's question, when the host asked it.
    let asked = game
        .remote
        .as_ref()
        .and_then(|r| r.asked.as_ref().map(|(a, _)| (r.seat, a, r.seconds_left())));
    let seat = match (&game.remote, asked) {
        (Some(_), Some((Some(seat), _, _))) => seat,
        _ => {
            let Some(seat) = game.waiting() else {
                return Choice::default();
            };
            seat
        }
    };
    match (live.pilots.get(seat.index()), &game.remote) {
        (Some(Player::Person), Some(_)) if asked.is_none() => {
            return said(format!("{seat} (you): the table is on its way…"));
        }
        (Some(Player::Person), _) => {}
        (Some(Player::Cpu(_)), _) => return said(format!("{seat} (CPU) is thinking…")),
        (Some(Player::Remote), Some(r)) => {
            return said(format!(
                "{seat} ({}) is thinking…",
                r.who(seat).to_lowercase()
            ));
        }
        (Some(Player::Remote), None) => {
            return said(format!("{seat} plays from another machine…"));
        }
        (None, _) => return Choice::default(),
    }
    if live.curtain == Some(seat) {
        return said(format!(
            "PASS THE TABLE TO {seat}\n{seat}: press C (or click here) when the others look away"
        ));
    }
    if let Some(at) = live.leaving {
        return Choice {
            prompt: if game.remote.is_some() {
                "LEAVE THE LAN TABLE? The CPU takes your seat (a table you host closes)."
                    .to_string()
            } else {
                "LEAVE THE TABLE? The game is not saved.".to_string()
            },
            answers: vec![
                (0, "Keep playing".to_string()),
                (1, "Leave the table".to_string()),
            ],
            chosen: at,
            hint: "A / B move · C chooses".to_string(),
        };
    }
    // The answers in words: the match's, or (a LAN table that holds no
    // match) the host's own lines for them.
    let labels = answer_labels(game, seat, cards);
    let (text, legal, left) = match (asked, &game.host) {
        (Some((_, a, left)), _) => (a.text.clone(), a.answers.clone(), left),
        (None, Some(host)) => {
            let Some(q) = host.asked(seat, cards) else {
                return Choice::default();
            };
            let left = host.seconds_left(seat).unwrap_or(q.seconds);
            (q.prompt.text.clone(), q.answers.clone(), left)
        }
        (None, None) => return Choice::default(),
    };
    let first = live
        .chosen
        .saturating_sub(ANSWERS_SHOWN / 2)
        .min(legal.len().saturating_sub(ANSWERS_SHOWN));
    let left = left.max(0.0).ceil();
    Choice {
        prompt: R::prompt_text(&text)
            .trim_end_matches([' ', '>', ':'])
            .to_string(),
        answers: labels
            .into_iter()
            .enumerate()
            .skip(first)
            .take(ANSWERS_SHOWN)
            .collect(),
        chosen: live.chosen,
        hint: format!(
            "A/B move · C picks · hold C: leave · Tab: read · {}/{} · {left:.0} s",
            live.chosen + 1,
            legal.len()
        ),
    }
}

/// The answers `seat` is asked for now, in words: the match's, or (a LAN
/// table that holds no match) the host's own lines for them.
pub(super) fn answer_labels<R: Tabled>(
    game: &TableGame<R>,
    seat: Seat,
    cards: &CardSet,
) -> Vec<String> {
    let asked = game
        .remote
        .as_ref()
        .and_then(|r| r.asked.as_ref().map(|(a, _)| a));
    match (asked, game.m()) {
        (Some(a), Some(m)) => a
            .answers
            .iter()
            .map(|x| m.answer_text(seat, *x, cards))
            .collect(),
        (Some(a), None) => host_labels(&a.lines, a.answers.len()),
        (None, Some(m)) => game
            .host
            .as_ref()
            .and_then(|h| h.asked(seat, cards))
            .map_or_else(Vec::new, |q| {
                q.answers
                    .iter()
                    .map(|x| m.answer_text(seat, *x, cards))
                    .collect()
            }),
        (None, None) => Vec::new(),
    }
}

/// A LAN question's answers in words from the lines the host sent with it
/// (its last lines, one per answer, "  3. play Agumon"), or numbered when
/// the lines do not hold them.
pub(super) fn host_labels(lines: &[String], n: usize) -> Vec<String> {
    let tail = lines.len().checked_sub(n).map(|at| &lines[at..]);
    (0..n)
        .map(|i| {
            let line = tail.and_then(|t| t.get(i)).map(|l| l.trim());
            let prefix = format!("{}.", i + 1);
            match line.and_then(|l| l.strip_prefix(&prefix)) {
                Some(words) => words.trim().to_string(),
                None => format!("answer {}", i + 1),
            }
        })
        .collect()
}

/// The answers and the prompt the mouse clicked or hovered this frame.
pub(super) type AnswerClicks<'w, 's> = Query<
    'w,
    's,
    (&'static Interaction, Option<&'static ChoiceLine>),
    (
        Changed<Interaction>,
        Or<(With<ChoiceLine>, With<ChoicePrompt>)>,
    ),
>;

/// One answer of a person's choice in the HUD; the mouse chooses it too.
#[derive(Component, Debug, Clone, Copy, Default)]
pub struct ChoiceLine {
    /// Its place in the list.
    pub(super) slot: usize,
    /// The answer it shows now (an index into the legal actions, or into
    /// "keep playing / leave").
    pub answer: Option<usize>,
}

/// The question over a person's answers (clicked at the curtain: C).
#[derive(Component)]
pub(super) struct ChoicePrompt;

/// The keys under a person's answers.
#[derive(Component)]
pub(super) struct ChoiceHint;

/// The question and the keys round a person's answers, and the panel.
pub(super) type PromptTexts<'w, 's> = Query<
    'w,
    's,
    (
        &'static mut Text,
        &'static mut Node,
        Has<ChoiceHint>,
        &'static ChildOf,
    ),
    (
        Or<(With<ChoicePrompt>, With<ChoiceHint>)>,
        Without<ChoiceLine>,
    ),
>;

/// Shows a person's question, the answers in view and the keys (the
/// panel only when there is a question or word to show).
pub(super) fn draw_choice<R: Tabled>(
    game: Option<Res<TableGame<R>>>,
    cards: Res<Cards>,
    mut lines: Query<(&mut ChoiceLine, &mut Text, &mut TextColor, &mut Node)>,
    mut texts: PromptTexts,
    mut panels: Query<&mut Visibility>,
) {
    let Some(game) = game else { return };
    let c = choice(&game, &cards.0);
    let show = |text: &mut Text, node: &mut Node, want: &str| {
        if text.0 != want {
            want.clone_into(&mut text.0);
        }
        let display = if want.is_empty() {
            Display::None
        } else {
            Display::Flex
        };
        if node.display != display {
            node.display = display;
        }
    };
    for (mut line, mut text, mut colour, mut node) in &mut lines {
        let shown = c.answers.get(line.slot);
        line.answer = shown.map(|(i, _)| *i);
        let (t, ink) = match shown {
            Some((i, a)) if *i == c.chosen => (format!("▶ {a}"), palette::WHITE),
            Some((_, a)) => (format!("   {a}"), palette::GOLD),
            None => (String::new(), palette::GOLD),
        };
        show(&mut text, &mut node, &t);
        if colour.0 != ink {
            colour.0 = ink;
        }
    }
    for (mut text, mut node, is_hint, parent) in &mut texts {
        if is_hint {
            show(&mut text, &mut node, &c.hint);
        } else {
            show(&mut text, &mut node, &c.prompt);
            // A panel with nothing to say is not drawn at all.
            if let Ok(mut v) = panels.get_mut(parent.parent()) {
                v.set_if_neq(if c.prompt.is_empty() {
                    Visibility::Hidden
                } else {
                    Visibility::Inherited
                });
            }
        }
    }
}
