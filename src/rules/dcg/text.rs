//! The match in words: the question a seat is asked with its answers, and
//! every event as a line for a log or a terminal.

use super::flow::{Proc, target_of};
use super::{Action, Event, Match};
use crate::cards::{CardNumber, CardSet, DcgKind};
use crate::effects::dcg::{Count, Keyword};
use crate::rules::{Outcome, Prompt, Question, Reply, Seat};

/// Seconds a person has to answer (the rules set none; bterm's own, the
/// same at the terminal, on the LAN and in the arena).
pub const ANSWER_SECONDS: f32 = 300.0;

/// The kinds of question the game asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Ask {
    /// Keep the opening hand or take the mulligan.
    Mulligan,
    /// Hatch, move out or stay (the breeding phase).
    Breeding,
    /// A main-phase action.
    Main,
    /// Block with a <Blocker>, or not.
    Block,
    /// Use an optional ("you may") effect.
    Optional,
    /// Choose a Digimon for the effect resolving ("N of" / "up to N of").
    Choose(Count),
    /// Save a Digimon about to be deleted (<Evade>, <Armor Purge>, <Decoy>).
    Prevent,
    /// Use <Alliance> or <Raid> as the attack is declared.
    Offer(Keyword),
    /// Attack with a <Blitz>, or not.
    Blitz,
    /// Which of your waiting effects resolves next.
    Order,
    /// Switch the Target Opponent just after or just before your turn, or
    /// keep it (DCG-LAN-13).
    Target,
    /// Gain 1 Corruption and put a Player card into the Offline Area
    /// instead of the trash or a deck (DCG-LAN-33).
    Corrupt,
}

impl Ask {
    /// The question in a few words.
    pub fn what(self) -> &'static str {
        match self {
            Ask::Mulligan => "keep the opening hand or mulligan",
            Ask::Breeding => "the breeding phase",
            Ask::Main => "a main-phase action",
            Ask::Block => "whether to block",
            Ask::Optional => "whether to use an optional effect",
            Ask::Choose(_) => "a Digimon for the effect",
            Ask::Prevent => "whether to save a Digimon from deletion",
            Ask::Offer(_) => "whether to use a keyword as the attack is declared",
            Ask::Blitz => "whether to attack with <Blitz>",
            Ask::Order => "which waiting effect resolves next",
            Ask::Target => "whether to switch the Target Opponent",
            Ask::Corrupt => "whether to gain 1 Corruption and keep a Player card",
        }
    }
}

fn name(cards: &CardSet, n: CardNumber) -> String {
    cards
        .get(&n)
        .map_or_else(|| n.to_string(), |c| c.name().to_string())
}

/// An event in plain words.
pub fn describe(e: &Event, cards: &CardSet) -> String {
    let n = |c: &CardNumber| name(cards, *c);
    match e {
        Event::First(s) => format!("{s} goes first."),
        Event::Settled { seat, mulligan } => {
            if *mulligan {
                format!("{seat} takes the mulligan: a new hand of 5.")
            } else {
                format!("{seat} keeps the opening hand.")
            }
        }
        Event::SecuritySet => "Each player sets 5 security cards face down.".into(),
        Event::SecurityOf(k) => format!("Each player sets {k} security cards face down."),
        Event::Targeted { seat, target } => format!("{seat} targets {target}."),
        Event::Banks { seat, banks } => format!(
            "{seat}'s memory banks: {}.",
            banks
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Event::MegaDamage { seat, total } => {
            format!("{seat} takes 1 Mega Damage ({total} in all).")
        }
        Event::Defeated { seat, why } => format!("{seat} is defeated: {why}."),
        Event::TookOffline { seat, card, cost } => format!(
            "{seat} takes {} from the Offline Area (cost {cost}).",
            n(card)
        ),
        Event::Corrupted { seat, card, total } => format!(
            "{seat} gains 1 Corruption ({total} in all): {} goes to the Offline Area.",
            n(card)
        ),
        Event::TurnBegan { seat, turn, memory } => {
            format!("— Turn {turn}: {seat}'s turn, memory {memory}. —")
        }
        Event::Drew { seat, count } => {
            format!(
                "{seat} draws {count} card{}.",
                if *count == 1 { "" } else { "s" }
            )
        }
        Event::DeckedOut(s) => format!("{s} must draw and has no cards left in the deck."),
        Event::Hatched { seat, card } => format!("{seat} hatches {}.", n(card)),
        Event::MovedOut { seat, card } => {
            format!("{seat} moves {} out of the breeding area.", n(card))
        }
        Event::Played { seat, card, cost } => format!("{seat} plays {} (cost {cost}).", n(card)),
        Event::Digivolved {
            seat,
            from,
            to,
            cost,
        } => format!(
            "{seat}'s {} digivolves into {} (cost {cost}).",
            n(from),
            n(to)
        ),
        Event::UsedOption { seat, card, cost } => {
            format!("{seat} uses {} (cost {cost}).", n(card))
        }
        Event::Memory {
            seat,
            memory,
            banked: true,
        } => format!("{seat}'s memory: {memory}."),
        Event::Memory { seat, memory, .. } => {
            if *memory >= 0 {
                format!("Memory: {memory} on {seat}'s side.")
            } else {
                format!("Memory: {} on the opponent's side of {seat}.", -memory)
            }
        }
        Event::Effect { seat, card, text } => format!("{seat}'s {}: {text}", n(card)),
        Event::Declined { seat, card } => format!("{seat} does not use {}'s effect.", n(card)),
        Event::Attacked {
            seat,
            attacker,
            target,
            player,
        } => match (target, player) {
            (Some(t), _) => format!("{seat}'s {} attacks {}!", n(attacker), n(t)),
            (None, Some(p)) => format!("{seat}'s {} attacks the player {p}!", n(attacker)),
            (None, None) => format!("{seat}'s {} attacks the player!", n(attacker)),
        },
        Event::Redirected { target } => format!("<Raid>: the attack now targets {}.", n(target)),
        Event::Blocked { seat, blocker } => format!("{seat}'s {} blocks!", n(blocker)),
        // The higher DP wins (DCG-BTL-1, DCG-SEC-6); who is deleted for it
        // comes next (a Security Digimon never is, <Jamming> may save one).
        Event::Battle { attacker, defender } => format!(
            "Battle: {} ({} DP) against {} ({} DP). {}",
            n(&attacker.0),
            attacker.1,
            n(&defender.0),
            defender.1,
            match attacker.1.cmp(&defender.1) {
                std::cmp::Ordering::Greater => format!("{} wins.", n(&attacker.0)),
                std::cmp::Ordering::Less => format!("{} wins.", n(&defender.0)),
                std::cmp::Ordering::Equal => "A tie.".to_string(),
            }
        ),
        Event::Revealed { seat, card } => {
            format!("Security check: {seat}'s {} is revealed.", n(card))
        }
        Event::Deleted { seat, card } => format!("{seat}'s {} is deleted.", n(card)),
        Event::Saved { seat, card, by } => match by {
            Keyword::Evade => format!(
                "{seat}'s {} is suspended instead of deleted (<Evade>).",
                n(card)
            ),
            Keyword::ArmorPurge => format!(
                "{seat}'s {} goes to the trash instead, and the Digimon stays with the card under it on top (<Armor Purge>).",
                n(card)
            ),
            k => format!(
                "{seat}'s {} is saved: the {} Digimon is deleted instead.",
                n(card),
                k.words()
            ),
        },
        Event::Suspended {
            seat,
            card,
            suspended,
        } => format!(
            "{seat}'s {} is {}.",
            n(card),
            if *suspended {
                "suspended"
            } else {
                "unsuspended"
            }
        ),
        Event::Bounced { seat, card, hand } => format!(
            "{seat}'s {} returns to {}.",
            n(card),
            if *hand {
                "the hand"
            } else {
                "the bottom of the deck"
            }
        ),
        Event::DeDigivolved { seat, card, count } => format!(
            "{seat}'s Digimon loses its top {count} card{}: it is {} now.",
            if *count == 1 { "" } else { "s" },
            n(card)
        ),
        Event::DpChanged { seat, card, by } => {
            format!("{seat}'s {} gets {by:+} DP for the turn.", n(card))
        }
        Event::Gained {
            seat,
            card,
            keyword,
        } => format!(
            "{seat}'s {} gains {} for the turn.",
            n(card),
            keyword.words()
        ),
        Event::Forbidden { seat, card, deed } => {
            format!("{seat}'s {} can't {} this turn.", n(card), deed.words())
        }
        Event::SecurityChanged { seat, by } => {
            if *by > 0 {
                format!(
                    "{by} card{} added to {seat}'s security.",
                    if *by == 1 { "" } else { "s" }
                )
            } else {
                format!(
                    "{} card{} of {seat}'s security trashed.",
                    -by,
                    if *by == -1 { "" } else { "s" }
                )
            }
        }
        Event::ToHand { seat, card } => format!("{} goes to {seat}'s hand.", n(card)),
        Event::Passed(s) => format!("{s} passes."),
        Event::TurnEnded(s) => format!("{s}'s turn ends."),
        Event::Over { outcome, why } => match outcome {
            Outcome::Win(s) => format!("{s} WINS: {why}."),
            Outcome::Draw => format!("DRAW: {why}."),
        },
    }
}

/// An action in words, for the seat that may take it.
pub fn action_words(m: &Match, seat: Seat, a: Action, cards: &CardSet) -> String {
    let perm = |id: u16| {
        m.find(id).map_or("?".to_string(), |(s, p)| {
            let info = m.info(p.top());
            if m.is_digimon(p) {
                format!("{s}'s {} ({} DP)", info.name, m.dp(s, p))
            } else {
                format!("{s}'s {}", info.name)
            }
        })
    };
    let _ = cards;
    match a {
        Action::Keep => "keep this hand".into(),
        Action::Mulligan => "mulligan: shuffle the hand back and draw 5 new cards".into(),
        Action::Hatch => "hatch a Digi-Egg".into(),
        Action::MoveOut => "move the breeding area's Digimon to the battle area".into(),
        Action::StayBreeding => "do nothing in the breeding area".into(),
        Action::Play { card } => {
            let c = m.hand(seat).get(usize::from(card)).map(|&c| m.info(c));
            match c {
                Some(i) if i.kind == DcgKind::Tamer => {
                    format!("play the Tamer {} (cost {})", i.name, i.cost)
                }
                Some(i) => format!("play {} (cost {}, {} DP)", i.name, i.cost, i.dp),
                None => "play ?".into(),
            }
        }
        Action::Digivolve { card, onto } => {
            let c = m.hand(seat).get(usize::from(card)).copied();
            let on = m
                .z(seat)
                .breeding
                .iter()
                .chain(&m.z(seat).field)
                .find(|p| p.id == onto);
            match (c, on) {
                (Some(c), Some(p)) => format!(
                    "digivolve {}{} into {} (cost {})",
                    m.info(p.top()).name,
                    if m.z(seat).breeding.as_ref().is_some_and(|b| b.id == onto) {
                        " in the breeding area"
                    } else {
                        ""
                    },
                    m.info(c).name,
                    m.digivolve_cost(c, p).unwrap_or(0)
                ),
                _ => "digivolve ?".into(),
            }
        }
        Action::UseOption { card } => {
            let c = m.hand(seat).get(usize::from(card)).map(|&c| m.info(c));
            c.map_or("use ?".into(), |i| {
                format!("use {} (cost {})", i.name, i.cost)
            })
        }
        Action::Attack { attacker, target } => match target {
            None => format!("attack the player with {}", perm(attacker)),
            Some(t) => format!("attack {} with {}", perm(t), perm(attacker)),
        },
        Action::TrashDelay { id } => format!("trash {} for its <Delay> effect", perm(id)),
        Action::Pass if m.lan() => {
            "pass: end the turn (memory -3: 3 into the others' lowest banks)".into()
        }
        Action::Pass => "pass: end the turn (memory 3 to the opponent)".into(),
        Action::Block { blocker } => format!("block with {}", perm(blocker)),
        Action::NoBlock => "do not block".into(),
        Action::Evade => "suspend it to save it (<Evade>)".into(),
        Action::Concede => "concede the game".into(),
        Action::ArmorPurge => "trash its top card to save it (<Armor Purge>)".into(),
        Action::Decoy { id } => format!("delete {} instead (<Decoy>)", perm(id)),
        Action::Choose { id } => format!("choose {}", perm(id)),
        Action::Done => "choose no more".into(),
        Action::Yes => "yes".into(),
        Action::No => "no".into(),
        Action::Order { index } => {
            let t = m
                .next_waiting()
                .get(usize::from(index))
                .map(|&i| &m.pending[i]);
            t.map_or("?".into(), |t| {
                format!(
                    "{}: {}",
                    m.info(t.card).name,
                    crate::effects::dcg::render(m.ability(t))
                )
            })
        }
        Action::Target { seat: t } => format!(
            "target {t} ({} security, {} Mega Damage)",
            m.z(t).security.len(),
            m.z(t).mega
        ),
        Action::KeepTarget => format!("keep targeting {}", m.opponent(seat)),
        Action::TakeOffline { card } => {
            let c = m.z(seat).offline.get(usize::from(card)).map(|&c| m.info(c));
            c.map_or("take ?".into(), |i| {
                format!(
                    "take {} from the Offline Area (cost {})",
                    i.name,
                    m.offline_cost(seat)
                )
            })
        }
    }
}

/// The question `seat` must answer now, if any.
pub fn question(m: &Match, seat: Seat, cards: &CardSet) -> Option<Question<Ask, Action>> {
    let (s, ask) = m.asked()?;
    if s != seat {
        return None;
    }
    let answers = m.legal_actions(seat);
    if answers.is_empty() {
        return None;
    }
    let on_timeout = match ask {
        Ask::Mulligan => Some(Action::Keep),
        Ask::Breeding => Some(Action::StayBreeding),
        Ask::Main => Some(Action::Pass),
        Ask::Block => Some(Action::NoBlock),
        Ask::Optional | Ask::Prevent | Ask::Offer(_) | Ask::Blitz => Some(Action::No),
        Ask::Choose(_) | Ask::Order => answers.first().copied(),
        Ask::Target => Some(Action::KeepTarget),
        Ask::Corrupt => Some(Action::No),
    };
    let mut lines = Vec::new();
    let text = match ask {
        Ask::Optional | Ask::Choose(_) => {
            if let Some(Proc::Resolve(r)) = m.procs.last() {
                let a = m.ability(&r.trig);
                lines.push(format!(
                    "{}: {}",
                    m.info(r.trig.card).name,
                    crate::effects::dcg::render(a)
                ));
                if let (Ask::Choose(c), Some(t)) =
                    (ask, a.effects.get(usize::from(r.at)).and_then(target_of))
                {
                    format!(
                        "Choose {} ({}):",
                        crate::effects::dcg::target_words(t),
                        match c {
                            // DCG-EFF-22: "up to N" picks at least one
                            // when there is one to pick.
                            Count::UpTo(_) if r.chosen.is_empty() => {
                                "at least 1, then \"done\" to stop"
                            }
                            Count::UpTo(_) => "or \"done\" to stop",
                            _ => "as many as it says",
                        }
                    )
                } else {
                    "Use this effect? (yes / no)".into()
                }
            } else {
                "Choose:".into()
            }
        }
        Ask::Prevent => "A Digimon of yours is about to be deleted. Save it?".into(),
        Ask::Offer(k) => format!("{} — {}. Use it?", k.words(), k.reminder()),
        Ask::Blitz => format!("<Blitz> — {}. Attack?", Keyword::Blitz.reminder()),
        Ask::Block => {
            if let Some(Proc::Attack(a)) = m.procs.last() {
                let attacker = m.find(a.attacker).map_or("?".into(), |(s, p)| {
                    format!("{s}'s {}", m.info(p.top()).name)
                });
                format!("{attacker} attacks. Block with a <Blocker>?")
            } else {
                "Block?".into()
            }
        }
        Ask::Order => "Several of your effects wait. Which resolves first?".into(),
        Ask::Mulligan => "Keep this hand, or mulligan (once)?".into(),
        Ask::Breeding => "Breeding phase:".into(),
        Ask::Main if m.lan() => format!(
            "Main phase — memory {}, targeting {} (a number, or the words: play NAME, digivolve NAME into NAME, NAME attacks player, target P3, take NAME, pass):",
            m.memory_of(seat),
            m.opponent(seat)
        ),
        Ask::Main => format!(
            "Main phase — memory {} (a number, or the words: play NAME, digivolve NAME into NAME, NAME attacks player, pass):",
            m.memory_of(seat)
        ),
        Ask::Target => format!(
            "{} your turn: switch your Target Opponent (now {})?",
            if m.turn_player() == seat && m.is_before_turn() {
                "Before"
            } else {
                "After"
            },
            m.opponent(seat)
        ),
        Ask::Corrupt => {
            let card = m.offered().map_or("?".into(), |c| m.info(c).name.clone());
            format!(
                "Your Player card {card} is going to the trash or a deck. Gain 1 Corruption (now {}) and put it in the Offline Area instead?",
                m.z(seat).corruption
            )
        }
    };
    let mut keys = Vec::new();
    for (i, a) in answers.iter().enumerate() {
        lines.push(format!(
            "  {:>2}. {}",
            i + 1,
            action_words(m, seat, *a, cards)
        ));
        keys.push(((i + 1).to_string(), Reply::Act(*a)));
        // The words the list shows, typed as shown ("keep this hand").
        Prompt::add_key(&mut keys, &action_words(m, seat, *a, cards), Reply::Act(*a));
        let word = match a {
            Action::Pass => Some("pass"),
            Action::Keep => Some("keep"),
            Action::Mulligan => Some("mulligan"),
            Action::Yes => Some("yes"),
            Action::No | Action::NoBlock => Some("no"),
            Action::Done => Some("done"),
            Action::Hatch => Some("hatch"),
            Action::StayBreeding => Some("stay"),
            Action::MoveOut => Some("move"),
            Action::KeepTarget => Some("keep"),
            _ => None,
        };
        if let Some(w) = word {
            keys.push((w.to_string(), Reply::Act(*a)));
        }
        // The words a script uses work at the prompt too ("play agumon").
        for w in super::script::step_words(m, seat, *a) {
            Prompt::add_key(&mut keys, &w, Reply::Act(*a));
        }
    }
    // A player may concede at any prompt (DCG-WIN-5); never a listed answer.
    keys.push(("concede".to_string(), Reply::Act(Action::Concede)));
    Some(Question {
        ask,
        answers,
        seconds: ANSWER_SECONDS,
        on_timeout,
        prompt: Prompt { lines, text, keys },
    })
}
