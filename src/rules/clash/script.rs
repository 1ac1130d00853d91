//! Scripted Alpha Clash scenarios: decks in a fixed order (top card first,
//! no shuffle), the first seat, and the steps in words ([`step_words`]);
//! `bterm script` plays them and checks what they expect. The format is in
//! `docs/scripts.md`.

use serde::{Deserialize, Serialize};

use super::text::{norm, step_words};
use super::{Action, Match, Setup};
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
    /// `Clash`.
    pub ruleset: RulesetId,
    /// Each seat's cards: its Contender anywhere in the list, the Main
    /// Deck top card first: names or numbers, each optionally counted
    /// (`"4x Cinder Whelp"`).
    pub decks: Vec<Vec<String>>,
    /// Each seat's Sideboard, in seat order (the deck list's rules count
    /// it: CL-DECK-2, -4..7); none when left out. It never enters play.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sideboards: Vec<Vec<String>>,
    /// Who goes first.
    #[serde(default = "p1")]
    pub first: Seat,
    /// The seed for shuffles during play (a mulligan, a random discard).
    #[serde(default)]
    pub seed: u64,
    /// Seats whose decks the deck rules do not hold, each with the reason.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub exempt: Vec<(Seat, String)>,
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
    /// A Contender's health.
    Health(Seat, i16),
    /// Cards in hand.
    Hand(Seat, usize),
    /// Cards in the deck.
    Deck(Seat, usize),
    /// Cards in Oblivion.
    Oblivion(Seat, usize),
    /// Cards in the Resource Zone.
    Resources(Seat, usize),
    /// The hand holds a card of this name.
    HandHas(Seat, String),
    /// Oblivion holds a card of this name.
    OblivionHas(Seat, String),
    /// A card of this name is in play (Clash Zone, Accessory Zone,
    /// Clashground Zone).
    InPlay(Seat, String),
    /// No card of this name is in play.
    NotInPlay(Seat, String),
    /// The first of this name in play (or the Contender) has this
    /// attack/defence now.
    Stats(Seat, String, i16, i16),
    /// The first of this name in play (or the Contender) is engaged (true)
    /// or ready.
    Engaged(Seat, String, bool),
    /// The Clashground in play among all players, or none.
    Clashground(Option<String>),
    /// Cards in Standby.
    Standby(usize),
    /// This seat is asked next.
    Waiting(Seat),
    /// A seat's Portal is open.
    PortalOpen(Seat, bool),
    /// Traps a seat has set face down (`InPlay` names only face-up cards).
    SetTraps(Seat, usize),
    /// This seat is out.
    Lost(Seat),
}

impl Script {
    /// The match setup: decks resolved in order, not shuffled.
    pub fn setup(&self, cards: &CardSet) -> Result<Setup, String> {
        let mut decks = Vec::new();
        for (i, list) in self.decks.iter().enumerate() {
            let mut deck: Vec<CardNumber> = Vec::new();
            for entry in list {
                let (n, name) = counted(entry);
                let c = resolve(cards, name).map_err(|e| format!("P{} deck: {e}", i + 1))?;
                deck.extend(std::iter::repeat_n(c.number(), n));
            }
            decks.push(deck);
        }
        Ok(Setup {
            decks,
            seed: self.seed,
            exempt: self.exempt.clone(),
            stacked: Some(self.first),
            engine: super::ENGINE_VERSION,
        })
    }
}

impl Script {
    /// Each seat's whole deck list, its Sideboard with it, as the deck
    /// rules hold it (a seat exempt from them is not checked); the words
    /// are those of a refused setup.
    fn check_sideboards(&self, setup: &Setup, cards: &CardSet) -> Result<(), String> {
        if self.sideboards.len() > self.decks.len() {
            return Err(format!(
                "{} sideboards for {} decks: give one list a seat, in seat order",
                self.sideboards.len(),
                self.decks.len()
            ));
        }
        for (i, list) in self.sideboards.iter().enumerate() {
            let seat = Seat::new(i).ok_or("too many sideboards")?;
            let mut side: Vec<CardNumber> = Vec::new();
            for entry in list {
                let (n, name) = counted(entry);
                let c = resolve(cards, name).map_err(|e| format!("{seat} sideboard: {e}"))?;
                side.extend(std::iter::repeat_n(c.number(), n));
            }
            if self.exempt.iter().any(|(s, _)| *s == seat) {
                continue;
            }
            super::deck::check(&setup.decks[i], &side, cards)
                .map_err(|error| super::SetupError::Deck { seat, error }.to_string())?;
        }
        Ok(())
    }
}

pub use super::deck::card as resolve;

/// `"4x Cinder Whelp"` → (4, "Cinder Whelp").
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

/// Every action a seat's words could name now, legal or not (to say why
/// one is refused).
fn every_action(m: &Match, seat: Seat) -> Vec<Action> {
    let z = m.side(seat);
    let mut out = Vec::new();
    let mut all_units = Vec::new();
    for s in Seat::all(m.seat_count()) {
        let o = m.side(s);
        all_units.push(o.contender.card);
        all_units.extend(o.clash.iter().map(|u| u.card));
    }
    for &c in &z.hand {
        out.extend([
            Action::Play(c),
            Action::Set(c),
            Action::Resource(c),
            Action::Return(c),
        ]);
    }
    for r in &z.resources {
        out.push(Action::PayWith(r.0));
    }
    for a in &z.accessories {
        out.push(Action::Activate(a.card));
        for &u in &all_units {
            out.push(Action::Attach(a.card, u));
        }
        out.push(Action::Unattach(a.card));
    }
    for &x in &all_units {
        for &t in &all_units {
            out.push(Action::Attack(x, t));
        }
        out.push(Action::Obstruct(x));
        out.push(Action::Target(x));
        for i in 0..m.info(x).effects.len() {
            out.push(Action::Use(x, i as u8));
        }
    }
    out.extend([
        Action::Keep,
        Action::NoResource,
        Action::Portal,
        Action::EndTurn,
        Action::Pass,
    ]);
    out
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
    let legal = m.legal_actions(seat);
    if legal.is_empty() {
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
    if let Some(a) = every_action(m, seat)
        .into_iter()
        .find(|a| step_words(m, seat, *a).contains(&want))
    {
        return Err(Unread::Refused(super::text::why_not(m, seat, a)));
    }
    let mut words: Vec<String> = legal
        .iter()
        .filter_map(|a| step_words(m, seat, *a).into_iter().next())
        .collect();
    words.dedup();
    Err(Unread::NotAnAction(format!(
        "\"{}\"{}; the legal ones: {}",
        text.trim(),
        crate::rules::script::NOT_AN_ACTION,
        words.join(" | ")
    )))
}

/// What a keyboard at `seat` refuses without the match ([`Ruleset::refusals`],
/// for a LAN seat): the words of each move of `seat`'s that is not legal
/// now, with the rule that stops it, as [`read_step`] says it. Only moves
/// that name `seat`'s own cards or cards in play, so nothing hidden from
/// `seat`.
pub fn refusals(m: &Match, seat: Seat) -> Vec<(String, String)> {
    crate::rules::script::refusals_of(
        m,
        seat,
        || every_action(m, seat),
        |a| step_words(m, seat, a),
        |a, _| super::text::why_not(m, seat, a),
    )
}

/// The first card of this name a seat has in play, or its Contender.
fn find_in_play(m: &Match, seat: Seat, name: &str) -> Option<super::Cid> {
    let z = m.side(seat);
    let is = |c: super::Cid| m.name(c).eq_ignore_ascii_case(name.trim());
    std::iter::once(z.contender.card)
        .chain(z.clash.iter().map(|u| u.card))
        .chain(
            z.accessories
                .iter()
                .filter(|a| a.set_on.is_none())
                .map(|a| a.card),
        )
        .chain(z.clashground)
        .find(|&c| is(c))
}

fn state(m: &Match, cards: &CardSet) -> serde_json::Map<String, serde_json::Value> {
    let mut out = serde_json::Map::new();
    out.insert("turn".into(), m.turn().into());
    out.insert("active".into(), m.active().to_string().into());
    let seats: Vec<serde_json::Value> = Seat::all(m.seat_count())
        .map(|s| {
            let z = m.side(s);
            let names = |v: &[super::Cid]| -> Vec<String> { v.iter().map(|&c| m.name(c).to_string()).collect() };
            serde_json::json!({
                "seat": s.to_string(),
                "contender": m.name(z.contender.card),
                "health": z.health,
                "hand": names(&z.hand),
                "deck": z.deck.len(),
                "oblivion": names(&z.oblivion),
                "resources": z.resources.len(),
                "clash": z.clash.iter().map(|u| serde_json::json!({
                    "name": m.name(u.card),
                    "attack": m.attack_of(u.card),
                    "defense": m.defense_of(u.card),
                    "engaged": u.engaged,
                })).collect::<Vec<_>>(),
                "accessories": z.accessories.iter().map(|a| m.name(a.card).to_string()).collect::<Vec<_>>(),
                "clashground": z.clashground.map(|c| m.name(c).to_string()),
                "portal": z.portal,
                "lost": z.lost,
            })
        })
        .collect();
    out.insert("seats".into(), seats.into());
    let _ = cards;
    out
}

fn check(
    m: &Match,
    e: &Expect,
    refused: Option<&crate::rules::script::StepError>,
    texts: &[String],
) -> Option<String> {
    let count_in_play = |s: Seat, name: &str| find_in_play(m, s, name).is_some();
    let got: String = match e {
        Expect::Winner(s) => {
            if m.outcome() == Some(Outcome::Win(*s)) {
                return None;
            }
            format!("{:?}", m.outcome())
        }
        Expect::Draw => {
            if m.outcome() == Some(Outcome::Draw) {
                return None;
            }
            format!("{:?}", m.outcome())
        }
        Expect::Ongoing => match m.outcome() {
            None => return None,
            Some(o) => format!("{o:?}"),
        },
        Expect::Turn(t) => {
            if m.turn() == *t {
                return None;
            }
            m.turn().to_string()
        }
        Expect::TurnPlayer(s) => {
            if m.active() == *s {
                return None;
            }
            m.active().to_string()
        }
        Expect::Refused(i) => {
            if refused.is_some_and(|r| r.index == *i) {
                return None;
            }
            format!("{:?}", refused.map(|r| r.index))
        }
        Expect::RefusedBecause(w) => {
            if refused.is_some_and(|r| r.reason.contains(w.as_str())) {
                return None;
            }
            format!("{:?}", refused.map(|r| r.reason.clone()))
        }
        Expect::Event(w) => {
            if texts.iter().any(|t| t.contains(w.as_str())) {
                return None;
            }
            crate::rules::script::event_words(texts, w, true)
        }
        Expect::NoEvent(w) => match texts.iter().find(|t| t.contains(w.as_str())) {
            None => return None,
            Some(t) => t.clone(),
        },
        Expect::EventsInOrder(v) => in_order(texts, v).err()?,
        Expect::SetupRefused(_) => SETUP_ACCEPTED.to_string(),
        Expect::Health(s, h) => {
            if m.health(*s) == *h {
                return None;
            }
            m.health(*s).to_string()
        }
        Expect::Hand(s, n) => {
            if m.hand(*s).len() == *n {
                return None;
            }
            m.hand(*s).len().to_string()
        }
        Expect::Deck(s, n) => {
            if m.deck(*s).len() == *n {
                return None;
            }
            m.deck(*s).len().to_string()
        }
        Expect::Oblivion(s, n) => {
            if m.oblivion(*s).len() == *n {
                return None;
            }
            m.oblivion(*s).len().to_string()
        }
        Expect::Resources(s, n) => {
            if m.resources(*s).len() == *n {
                return None;
            }
            m.resources(*s).len().to_string()
        }
        Expect::HandHas(s, name) => {
            if m.hand(*s)
                .iter()
                .any(|&c| m.name(c).eq_ignore_ascii_case(name))
            {
                return None;
            }
            "not in the hand".into()
        }
        Expect::OblivionHas(s, name) => {
            if m.oblivion(*s)
                .iter()
                .any(|&c| m.name(c).eq_ignore_ascii_case(name))
            {
                return None;
            }
            "not in Oblivion".into()
        }
        Expect::InPlay(s, name) => {
            if count_in_play(*s, name) {
                return None;
            }
            "not in play".into()
        }
        Expect::NotInPlay(s, name) => {
            if !count_in_play(*s, name) {
                return None;
            }
            "in play".into()
        }
        Expect::Stats(s, name, a, d) => match find_in_play(m, *s, name) {
            Some(c) if m.attack_of(c) == *a && m.defense_of(c) == *d => return None,
            Some(c) => format!("{}/{}", m.attack_of(c), m.defense_of(c)),
            None => "not in play".into(),
        },
        Expect::Engaged(s, name, want) => match find_in_play(m, *s, name) {
            Some(c) => {
                let on = m
                    .unit(c)
                    .map(|u| u.engaged)
                    .or_else(|| {
                        m.accessories(*s)
                            .iter()
                            .find(|a| a.card == c)
                            .map(|a| a.engaged)
                    })
                    .unwrap_or(false);
                if on == *want {
                    return None;
                }
                on.to_string()
            }
            None => "not in play".into(),
        },
        Expect::Clashground(want) => {
            let now = Seat::all(m.seat_count())
                .find_map(|s| m.clashground(s))
                .map(|c| m.name(c).to_string());
            if now.as_deref().map(str::to_lowercase) == want.as_deref().map(str::to_lowercase) {
                return None;
            }
            format!("{now:?}")
        }
        Expect::Standby(n) => {
            if m.standby().len() == *n {
                return None;
            }
            m.standby().len().to_string()
        }
        Expect::Waiting(s) => {
            if m.waiting().map(|w| w.0) == Some(*s) {
                return None;
            }
            format!("{:?}", m.waiting().map(|w| w.0))
        }
        Expect::SetTraps(s, want) => {
            let set = m
                .side(*s)
                .accessories
                .iter()
                .filter(|a| a.set_on.is_some())
                .count();
            if set == *want {
                return None;
            }
            format!("{set} set")
        }
        Expect::PortalOpen(s, want) => {
            if m.portal_open(*s) == *want {
                return None;
            }
            m.portal_open(*s).to_string()
        }
        Expect::Lost(s) => {
            if m.lost(*s) {
                return None;
            }
            "still in".into()
        }
    };
    Some(got)
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
        script.check_sideboards(&setup, cards)?;
        let mut m = Match::from_setup(&setup, cards).map_err(|e| e.to_string())?;
        let (events, refused) = play_steps(&mut m, &script.steps, cards, |g, s, text, _| {
            read_step(g, s, text, cards).map_err(|e| e.to_string())
        });
        let events = report_events::<Match>(&events, cards);
        let texts: Vec<String> = events.iter().map(|e| e.text.clone()).collect();
        let checked = script.expect.iter().map(|e| {
            (
                e.clone(),
                check(&m, e, refused.as_ref(), &texts).map_or(Ok(()), Err),
            )
        });
        let refusal_expected = script
            .expect
            .iter()
            .any(|e| matches!(e, Expect::Refused(_) | Expect::RefusedBecause(_)));
        let failures = failures(checked, refused.as_ref(), refusal_expected);
        let mut state_lines = vec![format!("--- final state (turn {}) ---", m.turn())];
        state_lines.extend(m.view(None).lines(cards));
        for s in Seat::all(m.seat_count()) {
            let hand: Vec<&str> = m.hand(s).iter().map(|&c| m.name(c)).collect();
            state_lines.push(format!("{s}'s hand: {}", hand.join(", ")));
        }
        Ok(Report {
            ruleset: RulesetId::Clash,
            events,
            state_lines,
            state: state(&m, cards),
            outcome: m.outcome(),
            waiting: m.waiting().map(|w| w.0).into_iter().collect(),
            expectations: script.expect.len(),
            failures,
            refused,
        })
    }
}
