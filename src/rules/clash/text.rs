//! Alpha Clash in words: the questions a seat is asked (with the keys that
//! answer them and their timeout defaults), events as log lines, and why an
//! action is refused, naming the rule (docs/clash-rules.md).

use super::flow::{self, Blocked, Place, Unplayable};
use super::{Action, Ask, Cid, Event, Match, What};
use crate::cards::{CardSet, ClashKind};
use crate::effects::clash::{Keyword, When};
use crate::rules::{Outcome, Prompt, Question, Reply, Seat};

/// How long a person has to answer, in seconds.
pub const ANSWER_SECONDS: f32 = 60.0;

/// A card's name with its seat ("P2's Torque").
fn whose(m: &Match, c: Cid) -> String {
    format!("{}'s {}", m.owner(c), m.name(c))
}

/// A card in play with its figures ("Menacing Magnate 2/1").
fn figures(m: &Match, c: Cid) -> String {
    match m.place(c) {
        Some(Place::Contender(s)) => format!(
            "{}'s Contender {} ({}/{}, {} health)",
            s,
            m.name(c),
            m.attack_of(c),
            m.defense_of(c),
            m.health(s)
        ),
        Some(Place::Clash(..)) => format!("{} {}/{}", whose(m, c), m.attack_of(c), m.defense_of(c)),
        _ => whose(m, c),
    }
}

fn cost_of(m: &Match, c: Cid) -> String {
    let i = m.info(c);
    if i.specific.is_empty() {
        format!("cost {}", i.cost)
    } else {
        let s: Vec<&str> = i.specific.iter().map(|h| h.name()).collect();
        format!("cost {}, {}", i.cost, s.join(" and "))
    }
}

/// An action in words, for a list of answers.
pub fn action_words(m: &Match, seat: Seat, a: Action) -> String {
    match a {
        Action::Return(c) => format!("return {} to shuffle back", m.name(c)),
        Action::Keep => {
            let n = m.side(seat).returning.len();
            if n == 0 {
                "keep this hand".into()
            } else {
                format!("done: shuffle the {n} back and draw {n}")
            }
        }
        Action::Resource(c) => format!("resource {} ({})", m.name(c), colours(m, c)),
        Action::NoResource => "no resource this turn".into(),
        Action::Play(c) => {
            let i = m.info(c);
            match i.kind {
                ClashKind::Clash => format!(
                    "play {} ({}, {}/{}{})",
                    i.name,
                    cost_of(m, c),
                    i.attack,
                    i.defense,
                    keywords(m, c)
                ),
                _ => format!("play {} ({}, {})", i.name, i.kind.words(), cost_of(m, c)),
            }
        }
        Action::Set(c) => format!("set the Trap {} face down", m.name(c)),
        Action::Activate(c) => format!("activate the Trap {} ({})", m.name(c), cost_of(m, c)),
        Action::Use(c, i) => {
            let words = m
                .info(c)
                .effects
                .get(usize::from(i))
                .map(|a| a.words())
                .unwrap_or_default();
            format!("use {}: {words}", m.name(c))
        }
        Action::Attach(w, u) => format!("attach {} to {}", m.name(w), figures(m, u)),
        Action::Unattach(w) => format!("unattach {}", m.name(w)),
        Action::Portal => format!("open the Portal (pay {})", super::PORTAL_COST),
        Action::Attack(x, t) => format!("{} attacks {}", figures(m, x), figures(m, t)),
        Action::Obstruct(u) => format!("obstruct with {}", figures(m, u)),
        Action::Target(c) => format!("target {}", figures(m, c)),
        Action::Pass => match m.waiting().map(|w| w.1) {
            Some(Ask::Obstruct) => "no more obstructors".into(),
            Some(Ask::Barrage) => "no more Barrage damage".into(),
            Some(Ask::Buff) => "no Clash Buff".into(),
            Some(Ask::Counter) => "no more responses: on to the Obstruct Step".into(),
            _ => "pass".into(),
        },
        Action::EndTurn => "end the turn".into(),
        Action::Concede => "concede".into(),
        Action::PayWith(r) => format!("pay with {} first", m.name(r)),
    }
}

fn colours(m: &Match, c: Cid) -> String {
    m.info(c)
        .colors
        .iter()
        .map(|h| h.name())
        .collect::<Vec<_>>()
        .join("/")
}

fn keywords(m: &Match, c: Cid) -> String {
    let k = &m.info(c).keywords;
    if k.is_empty() {
        String::new()
    } else {
        format!(
            ", {}",
            k.iter().map(|k| k.words()).collect::<Vec<_>>().join(", ")
        )
    }
}

/// The question `seat` must answer now.
pub fn question(m: &Match, seat: Seat, _cards: &CardSet) -> Option<Question<Ask, Action>> {
    let (s, ask) = m.waiting()?;
    if s != seat {
        return None;
    }
    let answers = m.legal_actions(seat);
    if answers.is_empty() {
        return None;
    }
    let on_timeout = match ask {
        Ask::Mulligan => Some(Action::Keep),
        Ask::Resource => Some(Action::NoResource),
        Ask::Primary => Some(Action::EndTurn),
        Ask::Respond | Ask::Counter | Ask::Obstruct | Ask::Buff | Ask::Barrage => {
            Some(Action::Pass)
        }
        Ask::Target => answers.first().copied(),
    };
    let mut lines = Vec::new();
    let text = match ask {
        Ask::Mulligan => {
            "Opening hand: return cards to shuffle back (one at a time), then keep:".to_string()
        }
        Ask::Resource => "Resource Step: put a card from your hand into the Resource Zone?".into(),
        Ask::Primary => format!(
            "Primary Phase — {} ready resource{} (a number, or the words: play NAME, set NAME, use NAME, attach NAME to NAME, NAME attacks NAME, open portal, end turn):",
            ready(m, seat),
            if ready(m, seat) == 1 { "" } else { "s" }
        ),
        Ask::Respond => {
            if let Some(w) = m.windows.last()
                && let Some(e) = m.standby.get(usize::from(w.entry))
            {
                let what = match e.what {
                    What::Trap => "activated the Trap",
                    _ => "played",
                };
                format!(
                    "{} {what} {} (in Standby). You have priority: respond, or pass?",
                    e.seat,
                    m.name(e.source)
                )
            } else {
                "Respond, or pass?".into()
            }
        }
        Ask::Counter => match m.fight() {
            Some(f) => format!(
                "C2 Counter Step: {} attacks {}. Play Counter - Attack cards, or pass:",
                figures(m, f.attacker),
                figures(m, f.target)
            ),
            None => "Counter Step:".into(),
        },
        Ask::Obstruct => match m.fight() {
            Some(f) => format!(
                "C3 Obstruct Step: {} attacks {}. Obstruct with ready Clash cards (one at a time), or pass:",
                figures(m, f.attacker),
                figures(m, f.target)
            ),
            None => "Obstruct Step:".into(),
        },
        Ask::Buff => {
            let step = m.fight().map_or("Clash Buff Step", |f| f.step.words());
            format!("{step}: play one Clash Buff, or pass:")
        }
        Ask::Target => {
            if let Some(ch) = &m.choosing {
                let t = ch.need.first().map_or("", |t| t.words());
                lines.push(format!(
                    "{}: {}",
                    m.name(ch.entry.source),
                    m.info(ch.entry.source)
                        .effects
                        .iter()
                        .map(|a| a.words())
                        .collect::<Vec<_>>()
                        .join(" ")
                ));
                if t.is_empty() {
                    "Choose a target:".to_string()
                } else {
                    format!("Choose the {t}:")
                }
            } else {
                "Choose a target:".into()
            }
        }
        Ask::Barrage => match &m.choosing {
            Some(ch) => {
                // What is dealt so far, since the list keeps only those once
                // the most cards are chosen (the numbers move).
                let mut so_far: Vec<(Cid, usize)> = Vec::new();
                for &c in &ch.entry.targets {
                    match so_far.iter_mut().find(|(x, _)| *x == c) {
                        Some((_, n)) => *n += 1,
                        None => so_far.push((c, 1)),
                    }
                }
                if !so_far.is_empty() {
                    lines.push(format!(
                        "  Barrage so far: {}",
                        so_far
                            .iter()
                            .map(|(c, n)| format!("{n} to {}", figures(m, *c)))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ));
                }
                format!(
                    "Barrage: deal {} more damage, one at a time, among up to {} Clash cards (or pass):",
                    ch.barrage.map_or(0, |b| b.0),
                    ch.barrage.map_or(0, |b| b.1)
                )
            }
            None => "Barrage:".into(),
        },
    };
    let mut keys = Vec::new();
    for (i, a) in answers.iter().enumerate() {
        lines.push(format!("  {:>2}. {}", i + 1, action_words(m, seat, *a)));
        keys.push(((i + 1).to_string(), Reply::Act(*a)));
        // The words the list shows, typed as shown ("keep this hand").
        Prompt::add_key(&mut keys, &action_words(m, seat, *a), Reply::Act(*a));
        for w in step_words(m, seat, *a) {
            Prompt::add_key(&mut keys, &w, Reply::Act(*a));
        }
    }
    keys.push(("concede".to_string(), Reply::Act(Action::Concede)));
    // CL-D30: "pay with NAME" chooses a ready resource to pay with first.
    let mut chosen = Vec::new();
    for &(r, engaged) in &m.side(seat).resources {
        if engaged {
            continue;
        }
        if m.prefer.contains(&r) {
            // The next ready resource of the same name takes the words.
            chosen.push(m.name(r).to_string());
            continue;
        }
        let key: String = format!("paywith{}", norm(m.name(r)))
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        if !keys.iter().any(|(k, _)| *k == key) {
            keys.push((key, Reply::Act(Action::PayWith(r))));
        }
    }
    // The seat's own ready resources by name: only their colour shows on
    // the table (CL-RES-4), but `pay with NAME` needs the name (CL-D30).
    let paying = matches!(ask, Ask::Primary | Ask::Respond | Ask::Counter | Ask::Buff);
    if paying && answers.len() > 1 {
        let ready_names: Vec<String> = m
            .side(seat)
            .resources
            .iter()
            .filter(|(r, engaged)| !engaged && !m.prefer.contains(r))
            .map(|&(r, _)| format!("{} ({})", m.name(r), colours(m, r)))
            .collect();
        if !ready_names.is_empty() {
            lines.push(format!(
                "  Your ready resources (`pay with NAME` engages one first): {}",
                ready_names.join(", ")
            ));
        }
    }
    if !chosen.is_empty() {
        lines.push(format!(
            "  (you chose to pay with {} first)",
            chosen.join(", ")
        ));
    }
    Some(Question {
        ask,
        answers,
        seconds: ANSWER_SECONDS,
        on_timeout,
        prompt: Prompt { lines, text, keys },
    })
}

fn ready(m: &Match, s: Seat) -> usize {
    m.side(s).resources.iter().filter(|r| !r.1).count()
}

/// Why `seat` may not take `action` now, naming the rule.
pub fn why_not(m: &Match, seat: Seat, action: Action) -> String {
    let Some((asked, ask)) = m.waiting() else {
        return match m.outcome() {
            Some(_) => "the game is over".into(),
            None => "nobody is asked anything now".into(),
        };
    };
    if asked != seat {
        return format!("{asked} is asked {} now, not {seat}", ask.what());
    }
    let known = |c: Cid| usize::from(c) < m.cards.len();
    let cids: Vec<Cid> = match action {
        Action::Return(c)
        | Action::Resource(c)
        | Action::Play(c)
        | Action::Set(c)
        | Action::Activate(c)
        | Action::Use(c, _)
        | Action::Unattach(c)
        | Action::Obstruct(c)
        | Action::Target(c)
        | Action::PayWith(c) => vec![c],
        Action::Attach(a, b) | Action::Attack(a, b) => vec![a, b],
        _ => Vec::new(),
    };
    if let Some(c) = cids.into_iter().find(|c| !known(*c)) {
        return format!("there is no card {c} in this game");
    }
    let in_hand = |c: Cid| m.side(seat).hand.contains(&c);
    let card = |c: Cid| {
        m.cards
            .get(usize::from(c))
            .map(|i| i.name.clone())
            .unwrap_or_else(|| format!("card {c}"))
    };
    match action {
        Action::PayWith(r) => match m.side(seat).resources.iter().find(|x| x.0 == r) {
            None => format!(
                "{} is not in your Resource Zone: only your own resources pay your costs (CL-RES-6)",
                card(r)
            ),
            Some((_, true)) => format!(
                "{} is engaged: only ready resources are engaged to pay (CL-RES-6)",
                card(r)
            ),
            Some(_) => format!("{} is already chosen to pay with first", card(r)),
        },
        Action::Return(_) | Action::Keep if ask != Ask::Mulligan => {
            "the opening hands are settled: a mulligan is only at the start (CL-START-4, CL-D16)"
                .into()
        }
        Action::Return(c) if !in_hand(c) => format!("{} is not in your hand", card(c)),
        Action::Resource(_) | Action::NoResource if ask != Ask::Resource => {
            "resources go in only in your Resource Step (E3), one at most (CL-RES-1)".into()
        }
        Action::Resource(c) if !in_hand(c) => format!("{} is not in your hand", card(c)),
        Action::Play(c) if !in_hand(c) => format!("{} is not in your hand", card(c)),
        Action::Play(c) => {
            let kind = m.info(c).kind;
            match (kind, ask) {
                (ClashKind::Trap, _) => format!(
                    "{} is a Trap: it is set face down (\"set {}\"), not played (CL-TRAP-2)",
                    card(c),
                    card(c)
                ),
                (ClashKind::ClashBuff, Ask::Buff) if m.buff_step_used => {
                    "one Clash Buff a step: this step's is played (CL-BUFF-2, CL-TURN-C4, CL-TURN-C5)".into()
                }
                (ClashKind::ClashBuff, Ask::Buff) => playable_reason(m, seat, c)
                    .unwrap_or_else(|| format!("{} cannot be played now", card(c))),
                (ClashKind::ClashBuff, a) if a != Ask::Buff => format!(
                    "{} is a Clash Buff: it is played only in step C4 of a Clash while you attack, or C5 while you defend (CL-BUFF-2)",
                    card(c)
                ),
                (ClashKind::QuickAction, Ask::Respond | Ask::Counter) => {
                    if let Some(r) = irrefutable_reason(m, c) {
                        return r;
                    }
                    let answers = format!("{} answers only {} (CL-QUICK-2)", card(c), counter_tags(m, c));
                    match playable_reason(m, seat, c) {
                        Some(why) => format!("{answers}: {why}"),
                        None => answers,
                    }
                }
                (ClashKind::QuickAction, _) => format!(
                    "{} is a Quick Action: it is played only in response, when you have priority, to {} (CL-QUICK-2, CL-QUICK-3, CL-TURN-C2, CL-D39)",
                    card(c),
                    counter_tags(m, c)
                ),
                (_, Ask::Primary) => playable_reason(m, seat, c)
                    .unwrap_or_else(|| format!("{} cannot be played now", card(c))),
                (ClashKind::BasicAction, _) => format!(
                    "{} is a Basic Action: only in your own Primary Phase (CL-BASIC-2)",
                    card(c)
                ),
                (ClashKind::Clashground, _) => {
                    "Clashgrounds are played only during your Primary Phase (CL-GROUND-3)"
                        .to_string()
                }
                (ClashKind::Weapon | ClashKind::Relic, _) => format!(
                    "{} is played only during your own Primary Phase (CL-WEAPON-2, CL-RELIC-2)",
                    card(c)
                ),
                _ => format!(
                    "Clash cards are played only during your Primary Phase (CL-CLASH-1), and you are asked {}",
                    ask.what()
                ),
            }
        }
        Action::Set(c) if !in_hand(c) => format!("{} is not in your hand", card(c)),
        Action::Set(c) if m.info(c).kind != ClashKind::Trap => {
            format!("only Traps are set; {} is played", card(c))
        }
        Action::Set(_) => "Traps are set only during your Primary Phase (CL-TRAP-2)".into(),
        Action::Activate(c) => {
            let set = m.side(seat).accessories.iter().find(|a| a.card == c);
            match set.and_then(|a| a.set_on) {
                None => format!("{} is not a Trap you have set", card(c)),
                Some(t) if t >= m.turn() => format!(
                    "{} was set this turn: a Trap can't be activated on the turn it was set (CL-TRAP-6)",
                    card(c)
                ),
                Some(_) if !matches!(ask, Ask::Respond | Ask::Counter) => format!(
                    "Traps are activated only when you have priority to respond (CL-TRAP-5), to {} (CL-TRAP-7)",
                    counter_tags(m, c)
                ),
                Some(_) if irrefutable_reason(m, c).is_some() => {
                    irrefutable_reason(m, c).unwrap_or_default()
                }
                Some(_) => match flow::trap_blocked(m, seat, c, ask) {
                    Some(Blocked::Cost) => format!(
                        "{}'s cost must be paid to activate it (CL-TRAP-4), and your ready resources can't pay {}",
                        card(c),
                        cost_of(m, c)
                    ),
                    Some(Blocked::NoTarget) => format!(
                        "{} has no card it could target now (Safeguard keeps a card from an opponent's effects, CL-KW-12)",
                        card(c)
                    ),
                    _ => format!(
                        "{} answers only {} (CL-TRAP-7), and that is not what is in Standby now",
                        card(c),
                        counter_tags(m, c)
                    ),
                },
            }
        }
        Action::Attack(a, t) => attack_reason(m, seat, a, t, ask),
        Action::Obstruct(u) => {
            if ask != Ask::Obstruct {
                return "obstructors are declared only by the defending player in the Obstruct Step (C3, CL-CLASH-12)".into();
            }
            if m.place(u) == Some(Place::Contender(seat)) {
                return "Contenders are not eligible to obstruct attacks (CL-CONT-3)".into();
            }
            match m.unit(u) {
                None => format!("{} is not a Clash card of yours in play", card(u)),
                Some(x) if x.engaged => format!(
                    "{} is engaged: only ready Clash cards obstruct (CL-CLASH-12)",
                    card(u)
                ),
                Some(_) => {
                    if m.fight()
                        .is_some_and(|f| m.has_keyword(f.attacker, Keyword::Flight))
                    {
                        format!(
                            "the attacker has Flight: only Clash cards with Flight or Interception obstruct it (CL-KW-7, CL-KW-8); {} has neither",
                            card(u)
                        )
                    } else {
                        format!("{} already obstructs", card(u))
                    }
                }
            }
        }
        Action::Attach(w, u) => {
            if ask != Ask::Primary {
                return "Weapons are attached only during your own Primary Phase (CL-WEAPON-2)"
                    .into();
            }
            let info = m.info(w);
            if info.kind != ClashKind::Weapon {
                return format!("{} is not a Weapon", card(w));
            }
            if !m.side(seat).accessories.iter().any(|a| a.card == w) {
                return format!(
                    "{} is not in play: the attach cost can only be paid for a Weapon in play (CL-WEAPON-4)",
                    card(w)
                );
            }
            if m.owner(u) != seat || !matches!(m.place(u), Some(Place::Clash(..))) {
                return "a Weapon is attached to a Clash card you control (CL-WEAPON-3)".into();
            }
            if flow::weapon_on(m, u).is_some() {
                return format!(
                    "{} already has a Weapon attached: only one Weapon per Clash card (CL-WEAPON-8, CL-WEAPON-9)",
                    card(u)
                );
            }
            if let Some(aff) = info.attach_to {
                return format!(
                    "{} can only be attached to {} Clash cards",
                    card(w),
                    aff.words()
                );
            }
            let spec: Vec<_> = info.attach.clone();
            format!(
                "the attach cost is {} (CL-WEAPON-3): {}",
                spec.iter().map(|h| h.name()).collect::<Vec<_>>().join(", "),
                "your ready resources cannot pay it"
            )
        }
        Action::Unattach(w) => format!(
            "{} is not attached, or its attach cost cannot be paid (CL-WEAPON-7)",
            card(w)
        ),
        Action::Portal => {
            if ask != Ask::Primary {
                "the Portal is opened only during your Primary Phase (CL-ZONE-9)".into()
            } else if m.portal_open(seat) {
                "your Portal is already open: it opens once (CL-ZONE-9, CL-D1)".into()
            } else {
                format!(
                    "opening the Portal costs {} resources of any colour (CL-ZONE-9)",
                    super::PORTAL_COST
                )
            }
        }
        Action::Use(c, i) => {
            let Some(a) = m.info(c).effects.get(usize::from(i)) else {
                return format!("{} has no such ability", card(c));
            };
            if m.owner(c) != seat || m.place(c).is_none() {
                return format!("{} is not a card of yours in play", card(c));
            }
            if !m.active_ability(c, a) {
                return format!(
                    "that ability of {} is active only at {} or less health (CL-CONT-2)",
                    card(c),
                    a.at_most.unwrap_or(0)
                );
            }
            match a.when {
                When::Engage if ask != Ask::Primary => {
                    "an Engage ability is used during your Primary Phase (CL-CONT-9)".into()
                }
                When::Engage => match flow::use_blocked(m, seat, c, a) {
                    Some(Blocked::Engaged) => format!(
                        "{} is engaged: an Engage ability engages its card, so the card must be ready",
                        card(c)
                    ),
                    Some(Blocked::Cost) => format!(
                        "the ability's cost ({}) can't be paid: you have {} ready resources (CL-RES-5)",
                        a.cost,
                        m.side(seat).resources.iter().filter(|r| !r.1).count()
                    ),
                    Some(Blocked::NoTarget) => format!(
                        "that ability of {} has no card it could target now (Safeguard keeps a card from an opponent's effects, CL-KW-12)",
                        card(c)
                    ),
                    _ => format!(
                        "{} must be ready to engage it, and the cost ({}) paid",
                        card(c),
                        a.cost
                    ),
                },
                w if w.is_counter() => format!(
                    "that ability answers only {} when you have priority",
                    w.words()
                ),
                _ => "that ability is not used: it works by itself".into(),
            }
        }
        Action::Target(c) => {
            let source = m.choosing.as_ref().map(|ch| ch.entry.source);
            if m.owner(c) != seat && m.place(c).is_some() && m.has_keyword(c, Keyword::Safeguard) {
                format!(
                    "{} has Safeguard: it can't be the target of card effects or abilities your opponents control (CL-KW-12)",
                    card(c)
                )
            } else if source.is_some_and(|s| m.info(s).kind == ClashKind::ClashBuff)
                && m.buffed.contains(&c)
            {
                format!(
                    "{} was already the target of a Clash Buff this turn: only one Clash Buff can target a card per turn (CL-BUFF-4)",
                    card(c)
                )
            } else if source.is_some_and(|s| m.info(s).kind == ClashKind::ClashBuff) {
                "a Clash Buff targets a Contender or Clash card you control (CL-BUFF-6)".into()
            } else {
                format!("{} is not a target this effect may choose", card(c))
            }
        }
        Action::EndTurn if ask != Ask::Primary => format!(
            "the turn ends from the Primary Phase; you are asked {} now",
            ask.what()
        ),
        Action::Pass if ask == Ask::Primary => {
            "in the Primary Phase, end the turn instead (\"end turn\")".into()
        }
        _ => format!("that is not an answer now: you are asked {}", ask.what()),
    }
}

/// Why a Counter may not answer the card in Standby: it is Irrefutable
/// and the Counter would stop it entering play (engine 1's reading of
/// CL-KW-9; from engine 2 the Counter is played and the card enters play
/// anyway, CL-D10).
fn irrefutable_reason(m: &Match, c: Cid) -> Option<String> {
    use crate::effects::clash::{Effect, Target};
    if m.engine >= 2 {
        return None;
    }
    let e = m
        .windows
        .last()
        .and_then(|w| m.standby.get(usize::from(w.entry)))?;
    let stops = m.info(c).effects.iter().any(|a| {
        a.effects.iter().any(|x| {
            matches!(
                x,
                Effect::Negate
                    | Effect::Bounce(Target::Answered)
                    | Effect::Oblivion(Target::Answered)
            )
        })
    });
    (e.what == What::Play && stops && m.info(e.source).has(Keyword::Irrefutable)).then(|| {
        format!(
            "{} is Irrefutable: it can't be prevented from entering play, so {} may not answer it (CL-KW-9, CL-D10)",
            m.name(e.source),
            m.name(c)
        )
    })
}

fn counter_tags(m: &Match, c: Cid) -> String {
    let tags: Vec<&str> = m
        .info(c)
        .effects
        .iter()
        .filter(|a| a.when.is_counter())
        .map(|a| match a.when {
            When::CounterAttack => "an opponent attacking you (Counter - Attack)",
            When::CounterPlay => "an opponent playing a card (Counter - Play)",
            _ => "an opponent activating a Trap (Counter - Trap)",
        })
        .collect();
    tags.join(" or ")
}

/// Why the card `c` in `seat`'s hand cannot be played, in the rules'
/// words (`None` when nothing in the card or the player's resources stops
/// it: the moment is what refuses it).
fn playable_reason(m: &Match, seat: Seat, c: Cid) -> Option<String> {
    let info = m.info(c);
    let why = flow::playable(m, seat, c).err()?;
    Some(match why {
        Unplayable::Contender(h) => format!(
            "{} may only be played if your Contender is {} (CL-CARD-2)",
            info.name,
            h.name().to_lowercase()
        ),
        Unplayable::Exclusive => format!(
            "{} is Exclusive: only one copy of it can be in your control (CL-KW-6)",
            info.name
        ),
        Unplayable::SameClashground => format!(
            "you control a Clashground named {}: you may not play another of that name (CL-GROUND-6)",
            info.name
        ),
        Unplayable::Cost => {
            let r = ready(m, seat);
            let spec = if info.specific.is_empty() {
                String::new()
            } else {
                format!(
                    " ({} of it {})",
                    info.specific.len(),
                    info.specific
                        .iter()
                        .map(|h| h.name())
                        .collect::<Vec<_>>()
                        .join(" and ")
                )
            };
            format!(
                "{} costs {}{spec}; your {r} ready resource{} cannot pay it (CL-RES-5, CL-RES-6)",
                info.name,
                info.cost,
                if r == 1 { "" } else { "s" }
            )
        }
        Unplayable::NoTarget => format!("{} has no target it may choose now", info.name),
    })
}

fn attack_reason(m: &Match, seat: Seat, a: Cid, t: Cid, ask: Ask) -> String {
    if ask != Ask::Primary {
        return "attacks are declared from your Primary Phase, one Clash at a time (CL-TURN-C1)"
            .into();
    }
    if m.turn() == 1 {
        return "the first player may not declare an attack on their first turn (CL-START-6b)"
            .into();
    }
    if m.owner(a) != seat || m.unit(a).is_none() {
        return format!(
            "{} is not your Contender or a Clash card of yours in play",
            m.name(a)
        );
    }
    if m.owner(t) == seat {
        return "your Contender and Clash cards may not attack your Contender or Clash cards you control (CL-CONT-4, CL-CLASH-10)".into();
    }
    let u = m.unit(a).cloned();
    if u.as_ref().is_some_and(|u| u.engaged) {
        return format!(
            "{} is engaged: an attacker must be ready to engage as it attacks (CL-CLASH-9, CL-D5)",
            m.name(a)
        );
    }
    if u.as_ref().is_some_and(|u| u.entered == m.turn()) && m.has_keyword(a, Keyword::Observant) {
        return format!(
            "{} is Observant: it can't attack the turn it enters play (CL-KW-11)",
            m.name(a)
        );
    }
    match m.unit(t) {
        None => format!("{} is not in play", m.name(t)),
        Some(x) if !x.engaged && matches!(m.place(t), Some(Place::Clash(..))) => format!(
            "{} is ready: Clash cards in the ready position may not be attacked (CL-CLASH-11) unless the attacker has Close Combat (CL-KW-4)",
            m.name(t)
        ),
        _ => "that attack is not possible now".into(),
    }
}

/// An event in plain words.
pub fn describe(e: &Event, cards: &CardSet) -> String {
    let name = |n: &super::Named| {
        cards
            .get(&n.number)
            .map_or_else(|| n.number.to_string(), |c| c.name().to_string())
    };
    match e {
        Event::Revealed(s, c) => format!("{s} reveals their Contender, {}.", name(c)),
        Event::First(s) => format!("{s} goes first."),
        Event::Mulligan { seat, returned } => match returned {
            0 => format!("{seat} keeps their opening hand."),
            n => format!(
                "{seat} shuffles {n} card{} back and draws {n}.",
                if *n == 1 { "" } else { "s" }
            ),
        },
        Event::TurnBegan { seat, turn } => format!("Turn {turn}: {seat}'s turn begins."),
        Event::Readied(s) => format!("{s} readies their cards."),
        Event::Drew { seat, count } => format!(
            "{seat} draws {count} card{}.",
            if *count == 1 { "" } else { "s" }
        ),
        Event::Resourced { seat, colors } => format!(
            "{seat} puts a {} card into the Resource Zone, face down.",
            colors
                .iter()
                .map(|h| h.name())
                .collect::<Vec<_>>()
                .join("/")
        ),
        Event::Paid { seat, amount } => format!(
            "{seat} engages {amount} resource{}.",
            if *amount == 1 { "" } else { "s" }
        ),
        Event::Played { seat, card } => format!("{seat} plays {} into Standby.", name(card)),
        Event::Set { seat } => format!("{seat} sets a Trap face down."),
        Event::Activated { seat, card } => format!("{seat} activates the Trap {}.", name(card)),
        Event::Triggered { seat, card, words } => {
            format!("{seat}'s {} goes into Standby: {words}", name(card))
        }
        Event::Priority(s) => format!("{s} has priority."),
        Event::Passed(s) => format!("{s} passes."),
        Event::Resolved(c) => format!("{} resolves.", name(c)),
        Event::Negated(c) => format!("{} does not resolve.", name(c)),
        Event::Entered { seat, card } => format!("{seat}'s {} enters play.", name(card)),
        Event::Replaced(c) => format!("The Clashground {} is replaced.", name(c)),
        Event::Attached { weapon, to } => format!("{} is attached to {}.", name(weapon), name(to)),
        Event::Unattached(w) => format!("{} returns to the Accessory Zone.", name(w)),
        Event::PortalOpened(s) => format!("{s} opens the Portal."),
        Event::Step(st) => format!("{}.", st.words()),
        Event::Attack {
            seat,
            attacker,
            target,
            ..
        } => {
            format!("{seat}'s {} attacks {}.", name(attacker), name(target))
        }
        Event::Obstructed(c) => format!("{} obstructs.", name(c)),
        Event::ClashDamage { to, amount } => format!("{} takes {amount} clash damage.", name(to)),
        Event::Damage { to, amount } => format!("{} takes {amount} damage.", name(to)),
        Event::Prevented { to, amount } => format!("{amount} damage to {} is prevented.", name(to)),
        Event::Health { seat, health } => format!("{seat}'s Contender is at {health} health."),
        Event::Stats {
            card,
            attack,
            defense,
        } => {
            format!(
                "{} gets {attack:+}/{defense:+} until end of turn.",
                name(card)
            )
        }
        Event::Granted { card, keyword } => {
            format!(
                "{} gains {} until end of turn.",
                name(card),
                keyword.words()
            )
        }
        Event::Engaged { card, engaged } => format!(
            "{} is {}.",
            name(card),
            if *engaged { "engaged" } else { "readied" }
        ),
        Event::Defeated(c) => format!("{} is defeated.", name(c)),
        Event::ToOblivion(c) => format!("{} goes to Oblivion.", name(c)),
        Event::ToHand(c) => format!("{} returns to its owner's hand.", name(c)),
        Event::Discarded { seat, card } => format!("{seat} discards {}.", name(card)),
        Event::ClashOver => "The Clash is over; defences reset.".into(),
        Event::TurnEnded(s) => format!("{s}'s turn ends."),
        Event::DeckedOut(s) => format!("{s} must draw from an empty deck."),
        Event::Lost { seat, why } => format!("{seat} loses: {why}."),
        Event::Over(Outcome::Win(s)) => format!("{s} wins the game."),
        Event::Over(Outcome::Draw) => "The game is a draw.".into(),
    }
}

pub(crate) fn norm(s: &str) -> String {
    s.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// The words a step may use for an action (lower case): the plain form
/// names cards, a second form names a card's seat too ("p2 torque").
pub fn step_words(m: &Match, seat: Seat, a: Action) -> Vec<String> {
    let n = |c| m.name(c).to_string();
    let q = |c| format!("{} {}", m.owner(c), m.name(c));
    let contender = |c| matches!(m.place(c), Some(Place::Contender(_)));
    let words: Vec<String> = match a {
        Action::Return(c) => vec![format!("return {}", n(c))],
        Action::Keep => vec!["keep".into(), "done".into()],
        Action::Resource(c) => vec![format!("resource {}", n(c))],
        Action::NoResource => vec!["no resource".into(), "pass".into()],
        Action::Play(c) => vec![format!("play {}", n(c))],
        Action::Set(c) => vec![format!("set {}", n(c))],
        Action::Activate(c) => vec![format!("activate {}", n(c))],
        Action::Use(c, i) => {
            let several = m
                .info(c)
                .effects
                .iter()
                .filter(|a| !matches!(a.when, crate::effects::clash::When::Always))
                .count()
                > 1;
            if several {
                vec![format!("use {} {}", n(c), u16::from(i) + 1)]
            } else {
                vec![
                    format!("use {}", n(c)),
                    format!("use {} {}", n(c), u16::from(i) + 1),
                ]
            }
        }
        Action::Attach(w, u) => vec![format!("attach {} to {}", n(w), n(u))],
        Action::Unattach(w) => vec![format!("unattach {}", n(w))],
        Action::Portal => vec!["open portal".into(), "portal".into()],
        Action::Attack(x, t) => {
            let mut v = vec![
                format!("{} attacks {}", n(x), n(t)),
                format!("{} attacks {}", n(x), q(t)),
            ];
            if contender(t) {
                v.push(format!("{} attacks {}", n(x), m.owner(t)));
            }
            v
        }
        Action::Obstruct(u) => vec![
            format!("obstruct with {}", n(u)),
            format!("obstruct {}", n(u)),
        ],
        Action::Target(c) => {
            let mut v = vec![format!("target {}", n(c)), format!("target {}", q(c))];
            if contender(c) {
                v.push(format!("target {}", m.owner(c)));
            }
            v
        }
        Action::Pass => vec!["pass".into(), "done".into(), "no".into()],
        Action::EndTurn => vec!["end turn".into(), "end".into()],
        Action::Concede => vec!["concede".into()],
        Action::PayWith(r) => vec![format!("pay with {}", n(r))],
    };
    let _ = seat;
    words.into_iter().map(|w| norm(&w)).collect()
}
