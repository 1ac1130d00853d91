//! Scripted Digimon Card Game scenarios: decks in a fixed order (top card
//! first, no shuffle), the first seat, and the steps in words
//! ([`step_words`]); `bterm script` plays them and checks what they
//! expect. The format is in `docs/scripts.md`.

use serde::{Deserialize, Serialize};

use super::{Action, Format, Match, Setup, WhyNot};
use crate::cards::{CardNumber, CardSet};
use crate::rules::script::Unread;
use crate::rules::script::{
    Report, SETUP_ACCEPTED, Scripted, failures, in_order, play_steps, report_events,
};
use crate::rules::{Outcome, Reply, Ruleset, RulesetId, Seat};

/// A scripted game, as written in a `.ron` file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Script {
    /// `Dcg`.
    pub ruleset: RulesetId,
    /// Each seat's cards, top of the deck first (Digi-Eggs among them, in
    /// their own deck's order): names or numbers, each optionally counted
    /// (`"4x Agumon"`).
    pub decks: Vec<Vec<String>>,
    /// Who goes first.
    #[serde(default = "p1")]
    pub first: Seat,
    /// The seed for shuffles during play (a mulligan).
    #[serde(default)]
    pub seed: u64,
    /// Seats whose decks the deck rules do not hold, each with the reason.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub exempt: Vec<(Seat, String)>,
    /// The deck format of a 3 or 4 seat game (DCG-LAN-29).
    #[serde(default, skip_serializing_if = "Format::is_standard")]
    pub format: Format,
    /// The Players Format: each seat's Player Tamer and Player Digimon,
    /// not listed in `decks` (they start in the Offline Area).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub player_cards: Vec<(Seat, String, String)>,
    /// The steps, in order: who, and what in words.
    pub steps: Vec<(Seat, String)>,
    /// What must hold when the steps are done.
    #[serde(default)]
    pub expect: Vec<Expect>,
}

fn p1() -> Seat {
    Seat::P1
}

/// One thing a script expects at its end.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Expect {
    /// The game is over and this seat won.
    Winner(Seat),
    /// A draw.
    Draw,
    /// Not over.
    Ongoing,
    /// The turn number.
    Turn(u32),
    /// Whose turn it is.
    TurnPlayer(Seat),
    /// This step (1-based) was refused and the script stopped there.
    Refused(usize),
    /// A refused step's reason contains this.
    RefusedBecause(String),
    /// Some event's text contains this.
    Event(String),
    /// No event's text contains this.
    NoEvent(String),
    /// Each text is in some event's words, each after the one before.
    EventsInOrder(Vec<String>),
    /// The rules refuse the setup (a deck) with words containing this; no
    /// game begins.
    SetupRefused(String),
    /// A seat's memory.
    Memory(Seat, i8),
    /// Security cards.
    Security(Seat, usize),
    /// Cards in hand.
    Hand(Seat, usize),
    /// Cards in the deck.
    Deck(Seat, usize),
    /// Cards in the trash.
    Trash(Seat, usize),
    /// The hand holds a card of this name.
    HandHas(Seat, String),
    /// The trash holds a card of this name.
    TrashHas(Seat, String),
    /// A card of this name is on top of something in the battle area.
    InPlay(Seat, String),
    /// No card of this name is on top of anything in the battle area.
    NotInPlay(Seat, String),
    /// The breeding area's top card, or empty.
    Breeding(Seat, Option<String>),
    /// The first in play of this name has this DP (or, when none is in
    /// play, the breeding area's Digimon of this name).
    Dp(Seat, String, u32),
    /// The first in play of this name is suspended (true) or not.
    Suspended(Seat, String, bool),
    /// This seat is asked next.
    Waiting(Seat),
    /// A seat's memory banks, in any order (DCG-LAN-4).
    Banks(Seat, Vec<u8>),
    /// The Target Opponent a seat has set (DCG-LAN-11).
    Target(Seat, Seat),
    /// A seat's opponent now (DCG-LAN-14).
    Opponent(Seat, Seat),
    /// A seat's Mega Damage (DCG-LAN-19).
    MegaDamage(Seat, u8),
    /// A seat's Corruption (DCG-LAN-33).
    Corruption(Seat, u8),
    /// The Offline Area holds a card of this name (DCG-LAN-31).
    OfflineHas(Seat, String),
    /// This seat is defeated (DCG-LAN-22).
    Defeated(Seat),
}

impl Script {
    /// The match setup: decks resolved in order, not shuffled.
    pub fn setup(&self, cards: &CardSet) -> Result<Setup, String> {
        let mut decks = Vec::new();
        if self.format == Format::Players {
            for (s, _, _) in &self.player_cards {
                if s.index() >= self.decks.len() {
                    return Err(format!(
                        "player_cards names {s}, and the script has {} decks",
                        self.decks.len()
                    ));
                }
            }
        } else if !self.player_cards.is_empty() {
            return Err("player_cards is for format: Players".into());
        }
        for (i, list) in self.decks.iter().enumerate() {
            let mut deck: Vec<CardNumber> = Vec::new();
            if self.format == Format::Players {
                let Some((_, tamer, digimon)) =
                    self.player_cards.iter().find(|(s, _, _)| s.index() == i)
                else {
                    return Err(format!(
                        "P{}: format: Players needs its Player Tamer and Player Digimon in player_cards",
                        i + 1
                    ));
                };
                for name in [tamer, digimon] {
                    let card = resolve(cards, name)
                        .map_err(|e| format!("P{}'s player card: {e}", i + 1))?;
                    deck.push(card.number());
                }
            }
            for entry in list {
                let (count, name) = counted(entry);
                let card = resolve(cards, name).map_err(|e| format!("P{}'s deck: {e}", i + 1))?;
                deck.extend(std::iter::repeat_n(card.number(), count));
            }
            decks.push(deck);
        }
        Ok(Setup {
            decks,
            seed: self.seed,
            exempt: self.exempt.clone(),
            stacked: Some(self.first),
            format: self.format,
            engine: super::ENGINE_VERSION,
        })
    }
}

/// A card of this game by number or name (a name the older games share,
/// such as Agumon, means this game's card).
pub fn resolve<'a>(cards: &'a CardSet, name: &str) -> Result<&'a crate::cards::Card, String> {
    cards
        .resolve_preferring(name, <Match as Ruleset>::own_card)
        .map_err(|e| e.to_string())
}

/// `"4x Agumon"` → (4, "Agumon").
fn counted(entry: &str) -> (usize, &str) {
    let t = entry.trim();
    if let Some((n, rest)) = t.split_once(['x', '×'])
        && let Ok(n) = n.trim().parse::<usize>()
        && n <= 60
    {
        return (n, rest.trim());
    }
    (1, t)
}

/// The words a step may use for an action (lower case).
pub fn step_words(m: &Match, seat: Seat, a: Action) -> Vec<String> {
    let hand = |i: u8| {
        m.hand(seat)
            .get(usize::from(i))
            .map_or(String::new(), |&c| m.info(c).name.clone())
    };
    let perm = |id: u16| {
        let z = m.z(seat);
        z.breeding
            .iter()
            .chain(&z.field)
            .find(|p| p.id == id)
            .map(|p| (seat, p))
            .or_else(|| m.find(id))
            .map_or(String::new(), |(_, p)| m.info(p.top()).name.clone())
    };
    let words: Vec<String> = match a {
        Action::Keep => vec!["keep".into()],
        Action::Mulligan => vec!["mulligan".into()],
        Action::Hatch => vec!["hatch".into()],
        Action::MoveOut => vec!["move".into(), "move out".into()],
        Action::StayBreeding => vec!["stay".into()],
        Action::Pass => vec!["pass".into()],
        Action::NoBlock => vec!["no block".into(), "no".into()],
        Action::Yes => vec!["yes".into()],
        Action::No => vec!["no".into()],
        Action::Done => vec!["done".into()],
        Action::Evade => vec!["evade".into()],
        Action::ArmorPurge => vec!["armor purge".into()],
        Action::Concede => vec!["concede".into()],
        Action::Play { card } => vec![format!("play {}", hand(card))],
        Action::UseOption { card } => vec![format!("use {}", hand(card))],
        Action::Digivolve { card, onto } => {
            vec![format!("digivolve {} into {}", perm(onto), hand(card))]
        }
        Action::Attack { attacker, target } => match target {
            None => vec![format!("{} attacks player", perm(attacker))],
            Some(t) => vec![format!("{} attacks {}", perm(attacker), perm(t))],
        },
        Action::TrashDelay { id } => vec![format!("delay {}", perm(id))],
        Action::Block { blocker } => vec![format!("block with {}", perm(blocker))],
        Action::Choose { id } => vec![format!("choose {}", perm(id))],
        Action::Decoy { id } => vec![format!("decoy {}", perm(id))],
        Action::Order { index } => {
            let t = m
                .next_waiting()
                .get(usize::from(index))
                .map(|&i| &m.pending[i]);
            vec![
                format!("order {}", u16::from(index) + 1),
                t.map_or(String::new(), |t| format!("order {}", m.info(t.card).name)),
            ]
        }
        Action::Target { seat: t } => vec![format!("target {t}")],
        Action::KeepTarget => vec!["keep target".into(), "keep".into()],
        Action::TakeOffline { card } => {
            let name = m
                .z(seat)
                .offline
                .get(usize::from(card))
                .map_or(String::new(), |&c| m.info(c).name.clone());
            vec![format!("take {name}")]
        }
    };
    words.into_iter().map(|w| norm(&w)).collect()
}

fn norm(s: &str) -> String {
    s.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// Reads a step: the words of a legal action, or a key of the question.
pub fn read_step(
    m: &Match,
    seat: Seat,
    text: &str,
    cards: &CardSet,
) -> Result<Reply<Action>, Unread> {
    let want = norm(text);
    if want == "concede" && m.outcome().is_none() {
        return Ok(Reply::Act(Action::Concede));
    }
    // "NAME attacks P3" at 3 and 4 seats: the player attacked must be the
    // Target Opponent (DCG-LAN-16).
    if m.lan()
        && let Some((who, target)) = want.rsplit_once(" attacks ")
        && let Ok(p) = target.parse::<Seat>()
        && p.index() < m.z_count()
    {
        let opp = m.opponent(seat);
        if p != opp {
            return Err(Unread::Refused(format!(
                "{p} is not your Target Opponent ({opp}): you may attack only your Target Opponent and its suspended Digimon (DCG-LAN-16); switch first with \"target {p}\" in your main phase"
            )));
        }
        return read_step(m, seat, &format!("{who} attacks player"), cards);
    }
    let legal = m.legal_actions(seat);
    if legal.is_empty() {
        // Words that name a move the rules can say more of (a block by a
        // suspended Digimon) than whose move it is.
        if let Some(a) = every_action(m, seat)
            .into_iter()
            .find(|a| step_words(m, seat, *a).contains(&want))
            && m.waiting().is_some()
            && let WhyNot::Rule(why) = m.why_not(seat, a)
        {
            return Err(Unread::Refused(why));
        }
        return Err(Unread::Refused(match m.waiting() {
            Some((s, ask)) => format!("{seat} is asked nothing now; {s} is asked {}", ask.what()),
            None => format!("{seat} is asked nothing now (the game is over)"),
        }));
    }
    if let Some(a) = legal
        .iter()
        .find(|a| step_words(m, seat, **a).contains(&want))
    {
        return Ok(Reply::Act(*a));
    }
    if let Some(q) = Ruleset::question(m, seat, &[], cards)
        && let Some(r) = q.prompt.reply(text)
    {
        return Ok(r);
    }
    // Not a legal action: when the words name one, the rules say why not.
    if let Some(a) = every_action(m, seat)
        .into_iter()
        .find(|a| step_words(m, seat, *a).contains(&want))
    {
        return Err(Unread::Refused(refused(m, seat, a, &legal)));
    }
    Err(Unread::NotAnAction(format!(
        "\"{}\"{}; the legal ones: {}",
        text.trim(),
        crate::rules::script::NOT_AN_ACTION,
        answer_words(m, seat, &legal)
    )))
}

/// Why `a` (not one of the `legal` answers) is refused: the rules' words,
/// and where only what is asked stops it, the answers it takes.
fn refused(m: &Match, seat: Seat, a: Action, legal: &[Action]) -> String {
    match m.why_not(seat, a) {
        WhyNot::OtherQuestion(why) => {
            format!("{why}; the answers now: {}", answer_words(m, seat, legal))
        }
        why => why.to_string(),
    }
}

/// What a keyboard at `seat` refuses without the match ([`Ruleset::refusals`],
/// for a LAN seat): the words of each move of `seat`'s that is not legal
/// now, with what [`read_step`] says of it. Only moves that name `seat`'s
/// own cards or cards in play, so nothing hidden from `seat`.
pub fn refusals(m: &Match, seat: Seat) -> Vec<(String, String)> {
    crate::rules::script::refusals_of(
        m,
        seat,
        || every_action(m, seat),
        |a| step_words(m, seat, a),
        |a, legal| refused(m, seat, a, legal),
    )
}

/// The first words of each legal answer, as a step would write them.
fn answer_words(m: &Match, seat: Seat, legal: &[Action]) -> String {
    let mut words: Vec<String> = legal
        .iter()
        .filter_map(|a| step_words(m, seat, *a).into_iter().next())
        .collect();
    words.dedup();
    words.join(" | ")
}

/// Every action a seat's words could name now, legal or not (to say why
/// one is refused).
fn every_action(m: &Match, seat: Seat) -> Vec<Action> {
    let z = m.z(seat);
    let mine: Vec<u16> = z.breeding.iter().chain(&z.field).map(|p| p.id).collect();
    let theirs: Vec<u16> = Seat::all(m.z_count())
        .filter(|s| *s != seat)
        .flat_map(|s| m.z(s).field.iter().map(|p| p.id))
        .collect();
    let mut v = vec![
        Action::Keep,
        Action::Mulligan,
        Action::Hatch,
        Action::MoveOut,
        Action::StayBreeding,
        Action::Pass,
        Action::NoBlock,
        Action::Yes,
        Action::No,
        Action::Done,
        Action::Evade,
        Action::ArmorPurge,
    ];
    for card in 0..z.hand.len().min(250) as u8 {
        v.push(Action::Play { card });
        v.push(Action::UseOption { card });
        for &onto in &mine {
            v.push(Action::Digivolve { card, onto });
        }
    }
    for &attacker in &mine {
        v.push(Action::Attack {
            attacker,
            target: None,
        });
        for &t in &theirs {
            v.push(Action::Attack {
                attacker,
                target: Some(t),
            });
        }
        v.push(Action::Block { blocker: attacker });
        v.push(Action::TrashDelay { id: attacker });
    }
    for id in mine.iter().chain(&theirs) {
        v.push(Action::Choose { id: *id });
    }
    v.extend(Seat::all(m.z_count()).map(|seat| Action::Target { seat }));
    v
}

impl Scripted for Match {
    type Script = Script;

    fn expects_refused_setup(script: &Script) -> Option<(&str, usize)> {
        script.expect.iter().find_map(|e| match e {
            Expect::SetupRefused(t) => Some((t.as_str(), script.expect.len())),
            _ => None,
        })
    }

    fn play_script(script: &Script, cards: &CardSet) -> Result<Report, String> {
        let setup = script.setup(cards)?;
        let mut game = Match::from_setup(&setup, cards).map_err(|e| e.to_string())?;
        let (events, refused) = play_steps(&mut game, &script.steps, cards, |m, seat, text, _| {
            read_step(m, seat, text, cards).map_err(|e| e.to_string())
        });
        let texts: Vec<String> = events
            .iter()
            .map(|(_, e)| <Match as Ruleset>::describe(e, cards))
            .collect();
        let name_of = |n: CardNumber| {
            cards
                .get(&n)
                .map_or(String::new(), |c| c.name().to_string())
        };
        let names = |s: Seat, zone: &[super::Cid]| -> Vec<String> {
            let _ = s;
            zone.iter().map(|&c| game.info(c).name.clone()).collect()
        };
        let in_play = |s: Seat, name: &str| {
            game.field(s)
                .iter()
                .find(|p| game.info(p.top()).name.eq_ignore_ascii_case(name))
                .cloned()
        };
        let checked = script.expect.iter().map(|e| {
            let z = |s: Seat| game.z(s);
            let (ok, found) = match e {
                Expect::Winner(s) => (
                    game.outcome() == Some(Outcome::Win(*s)),
                    crate::rules::script::outcome_words(game.outcome()),
                ),
                Expect::Draw => (
                    game.outcome() == Some(Outcome::Draw),
                    crate::rules::script::outcome_words(game.outcome()),
                ),
                Expect::Ongoing => (
                    game.outcome().is_none(),
                    crate::rules::script::outcome_words(game.outcome()),
                ),
                Expect::Turn(t) => (game.turn() == *t, format!("turn {}", game.turn())),
                Expect::TurnPlayer(s) => (
                    game.turn_player() == *s,
                    format!("{}'s turn", game.turn_player()),
                ),
                Expect::Refused(i) => (
                    refused.as_ref().map(|r| r.index) == Some(*i),
                    refused
                        .as_ref()
                        .map_or("no step refused".into(), ToString::to_string),
                ),
                Expect::RefusedBecause(t) => (
                    refused
                        .as_ref()
                        .is_some_and(|r| r.reason.contains(t.as_str())),
                    refused
                        .as_ref()
                        .map_or("no step refused".into(), ToString::to_string),
                ),
                Expect::Event(t) => (
                    texts.iter().any(|x| x.contains(t.as_str())),
                    crate::rules::script::event_words(&texts, t, true),
                ),
                Expect::NoEvent(t) => (
                    !texts.iter().any(|x| x.contains(t.as_str())),
                    crate::rules::script::event_words(&texts, t, false),
                ),
                Expect::EventsInOrder(v) => match in_order(&texts, v) {
                    Ok(()) => (true, String::new()),
                    Err(found) => (false, found),
                },
                Expect::SetupRefused(_) => (false, SETUP_ACCEPTED.to_string()),
                Expect::Memory(s, n) => (
                    game.memory_of(*s) == *n,
                    format!("memory {}", game.memory_of(*s)),
                ),
                Expect::Security(s, n) => (
                    z(*s).security.len() == *n,
                    format!("{} security cards", z(*s).security.len()),
                ),
                Expect::Hand(s, n) => (
                    z(*s).hand.len() == *n,
                    format!("{} cards in hand", z(*s).hand.len()),
                ),
                Expect::Deck(s, n) => (
                    z(*s).deck.len() == *n,
                    format!("{} cards in the deck", z(*s).deck.len()),
                ),
                Expect::Trash(s, n) => (
                    z(*s).trash.len() == *n,
                    format!("{} cards in the trash", z(*s).trash.len()),
                ),
                Expect::HandHas(s, name) => (
                    names(*s, &z(*s).hand)
                        .iter()
                        .any(|n| n.eq_ignore_ascii_case(name)),
                    format!("hand {:?}", names(*s, &z(*s).hand)),
                ),
                Expect::TrashHas(s, name) => (
                    names(*s, &z(*s).trash)
                        .iter()
                        .any(|n| n.eq_ignore_ascii_case(name)),
                    format!("trash {:?}", names(*s, &z(*s).trash)),
                ),
                Expect::InPlay(s, name) => (
                    in_play(*s, name).is_some(),
                    format!(
                        "in play {:?}",
                        game.field(*s)
                            .iter()
                            .map(|p| game.info(p.top()).name.clone())
                            .collect::<Vec<_>>()
                    ),
                ),
                Expect::NotInPlay(s, name) => {
                    (in_play(*s, name).is_none(), format!("{name} is in play"))
                }
                Expect::Breeding(s, name) => {
                    let top = z(*s)
                        .breeding
                        .as_ref()
                        .map(|p| game.info(p.top()).name.clone());
                    (
                        top.as_deref().map(str::to_lowercase)
                            == name.as_deref().map(str::to_lowercase),
                        format!("breeding area {top:?}"),
                    )
                }
                Expect::Dp(s, name, dp) => {
                    // The battle area's first of that name, else the
                    // breeding area's Digimon (DCG-BREED-4: effects do not
                    // reach its DP).
                    let found = in_play(*s, name).map(|p| game.dp(*s, &p)).or_else(|| {
                        z(*s)
                            .breeding
                            .as_ref()
                            .filter(|p| game.info(p.top()).name.eq_ignore_ascii_case(name))
                            .map(|p| game.dp(*s, p))
                    });
                    (found == Some(*dp), format!("DP {found:?}"))
                }
                Expect::Suspended(s, name, want) => {
                    let found = in_play(*s, name).map(|p| p.suspended);
                    (found == Some(*want), format!("suspended {found:?}"))
                }
                Expect::Waiting(s) => (
                    game.waiting().map(|w| w.0) == Some(*s),
                    format!("waiting {:?}", game.waiting()),
                ),
                Expect::Banks(s, want) => {
                    let mut have = z(*s).banks.clone();
                    let mut want = want.clone();
                    have.sort_unstable_by(|a, b| b.cmp(a));
                    want.sort_unstable_by(|a, b| b.cmp(a));
                    (have == want, format!("banks {have:?}"))
                }
                Expect::Target(s, t) => (
                    usize::from(z(*s).target) == t.index(),
                    format!("target P{}", z(*s).target + 1),
                ),
                Expect::Opponent(s, t) => (
                    game.opponent(*s) == *t,
                    format!("opponent {}", game.opponent(*s)),
                ),
                Expect::MegaDamage(s, k) => {
                    (z(*s).mega == *k, format!("{} Mega Damage", z(*s).mega))
                }
                Expect::Corruption(s, k) => (
                    z(*s).corruption == *k,
                    format!("{} Corruption", z(*s).corruption),
                ),
                Expect::OfflineHas(s, name) => (
                    names(*s, &z(*s).offline)
                        .iter()
                        .any(|n| n.eq_ignore_ascii_case(name)),
                    format!("offline {:?}", names(*s, &z(*s).offline)),
                ),
                Expect::Defeated(s) => (z(*s).defeated, "not defeated".into()),
            };
            (e.clone(), if ok { Ok(()) } else { Err(found) })
        });
        let refusal_expected = script
            .expect
            .iter()
            .any(|e| matches!(e, Expect::Refused(_) | Expect::RefusedBecause(_)));
        let failures = failures(checked, refused.as_ref(), refusal_expected);
        let mut state_lines = vec![format!("--- final state (turn {}) ---", game.turn())];
        state_lines.extend(game.view(None).lines(cards));
        for s in Seat::all(game.z_count()) {
            let hand: Vec<String> = game
                .hand(s)
                .iter()
                .map(|&c| name_of(game.number(c)))
                .collect();
            state_lines.push(format!("{s}'s hand: {}", hand.join(", ")));
        }
        Ok(Report {
            ruleset: Match::ID,
            events: report_events::<Match>(&events, cards),
            state_lines,
            state: serde_json::Map::from_iter([
                ("turn".to_string(), serde_json::json!(game.turn())),
                (
                    "view".to_string(),
                    serde_json::to_value(game.view(None)).unwrap_or_default(),
                ),
            ]),
            outcome: game.outcome(),
            waiting: game.waiting().map(|w| w.0).into_iter().collect(),
            refused,
            expectations: script.expect.len(),
            failures,
        })
    }
}
