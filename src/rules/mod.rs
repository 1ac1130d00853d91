//! Pure game rules, one module per ruleset, all in one shape (the
//! [`Ruleset`] trait): `Setup` (plain serde data) → `from_setup` →
//! `Result`; a small `Copy` `Action`; `legal_actions(seat)`, `apply` →
//! `Result<Vec<Event>, IllegalAction>` (an illegal action changes nothing),
//! `outcome`, and the [`Question`] a seat must answer now. The rules know
//! nothing of who plays a seat, of CPU players or of screens.

pub mod alpha;
pub mod terminal;

use std::fmt;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::cards::CardSet;
pub use crate::fingerprint::fnv1a;

/// A seat at the table, 0-based, named P1, P2, … for people. A ruleset
/// says how many seats it has; the Terminal Battle has two.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "SeatName", into = "SeatName")]
pub struct Seat(u8);

impl Seat {
    /// The most seats any ruleset may have.
    pub const MAX: usize = 8;
    /// The first seat.
    pub const P1: Seat = Seat(0);
    /// The second seat.
    pub const P2: Seat = Seat(1);

    /// The seat with this 0-based index, if there can be one.
    pub fn new(index: usize) -> Option<Seat> {
        (index < Seat::MAX).then_some(Seat(index as u8))
    }

    /// The 0-based index.
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// The first `n` seats, in order.
    pub fn all(n: usize) -> impl Iterator<Item = Seat> {
        (0..n.min(Seat::MAX)).map(|i| Seat(i as u8))
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "P{}", self.0 + 1)
    }
}

/// Why a typed seat is not one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown seat \"{0}\": seats are P1 to P8 (or 1 to 8)")]
pub struct ParseSeatError(String);

impl std::str::FromStr for Seat {
    type Err = ParseSeatError;
    fn from_str(s: &str) -> Result<Seat, ParseSeatError> {
        let t = s.trim();
        let digits = t.strip_prefix(['P', 'p']).unwrap_or(t);
        digits
            .parse::<usize>()
            .ok()
            .and_then(|n| n.checked_sub(1))
            .and_then(Seat::new)
            .ok_or_else(|| ParseSeatError(s.to_string()))
    }
}

/// How a seat is written in files: `P1`, `P2`, … (the two-seat Terminal
/// Battle's replays wrote the same words before seats were numbered, so
/// they still read).
#[derive(Clone, Copy, Serialize, Deserialize)]
enum SeatName {
    P1,
    P2,
    P3,
    P4,
    P5,
    P6,
    P7,
    P8,
}

impl From<Seat> for SeatName {
    fn from(s: Seat) -> SeatName {
        [
            SeatName::P1,
            SeatName::P2,
            SeatName::P3,
            SeatName::P4,
            SeatName::P5,
            SeatName::P6,
            SeatName::P7,
            SeatName::P8,
        ][s.index().min(Seat::MAX - 1)]
    }
}

impl TryFrom<SeatName> for Seat {
    type Error = ParseSeatError;
    fn try_from(n: SeatName) -> Result<Seat, ParseSeatError> {
        Ok(Seat(n as u8))
    }
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Outcome {
    /// One seat won.
    Win(Seat),
    /// Nobody won.
    Draw,
}

/// An action that the rules refuse; the game is left as it was.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{seat} cannot do that now: {reason}")]
pub struct IllegalAction {
    /// Who tried.
    pub seat: Seat,
    /// Why not.
    pub reason: String,
}

/// The rulesets bterm plays, as a replay file names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RulesetId {
    /// The arcade Terminal Battle.
    Terminal,
    /// The tabletop Card Game Alpha.
    Alpha,
}

/// Which rules, in which version, a game was played by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RulesVersion {
    /// The ruleset.
    pub ruleset: RulesetId,
    /// The engine's code version.
    pub engine: u32,
    /// The version of the ruleset's numbers (its tunables).
    pub tunables: u32,
}

impl fmt::Display for RulesVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:?} rules, engine {} with tunables {}",
            self.ruleset, self.engine, self.tunables
        )
    }
}

/// What a seat is asked now: the ruleset's kind of question, its legal
/// answers, and what happens when nobody answers in time. Every front end
/// (the text battle, the arena, a LAN host) asks this same question and
/// applies this same default.
#[derive(Debug, Clone, PartialEq)]
pub struct Question<Ask, Action> {
    /// Which question, in the ruleset's own words (a stance, an evolution…).
    pub ask: Ask,
    /// The legal answers.
    pub answers: Vec<Action>,
    /// How long a person has to answer, in seconds.
    pub seconds: f32,
    /// The answer when the time runs out; `None` when no answer passes the
    /// question (an offer that may be declined).
    pub on_timeout: Option<Action>,
    /// The question and its answers for a person at a terminal.
    pub prompt: Prompt<Action>,
}

/// A question in plain words, with the keys that answer it.
#[derive(Debug, Clone, PartialEq)]
pub struct Prompt<Action> {
    /// Lines to show before the question (the choices explained).
    pub lines: Vec<String>,
    /// The question itself.
    pub text: String,
    /// Each accepted key (lowercase, no spaces) and what it answers.
    pub keys: Vec<(String, Reply<Action>)>,
}

/// An answer to a question.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Reply<Action> {
    /// Take this action.
    Act(Action),
    /// Decline an offer (only where the question may be passed).
    Pass,
}

impl<Action: Copy> Prompt<Action> {
    /// The reply a typed line stands for, if any (case and spaces ignored).
    pub fn reply(&self, typed: &str) -> Option<Reply<Action>> {
        let key: String = typed
            .chars()
            .filter(|c| !c.is_whitespace())
            .flat_map(char::to_lowercase)
            .collect();
        self.keys.iter().find(|(k, _)| *k == key).map(|(_, r)| *r)
    }
}

/// The shape every ruleset has, so the session layer, CPU players, replays
/// and front ends work with any of them.
pub trait Ruleset: Clone + Sized + 'static {
    /// Which ruleset this is, as files name it.
    const ID: RulesetId;
    /// Plain data a game starts from.
    type Setup: Clone + fmt::Debug + PartialEq + Serialize + DeserializeOwned;
    /// Why a setup is refused.
    type SetupError: std::error::Error + Send + Sync + 'static;
    /// A seat's move.
    type Action: Copy + Eq + fmt::Debug + Serialize + DeserializeOwned;
    /// What happened, in order, for a presenter.
    type Event: Clone + fmt::Debug;
    /// The kinds of question the ruleset asks.
    type Ask: Clone + Copy + PartialEq + fmt::Debug;

    /// The rules version a setup is played by (recorded in replays).
    fn version(setup: &Self::Setup) -> RulesVersion;
    /// The seed a setup starts from.
    fn seed(setup: &Self::Setup) -> u64;
    /// The cards each seat brought (a team, a deck), in seat order.
    fn seat_cards(setup: &Self::Setup) -> Vec<Vec<crate::cards::CardNumber>>;
    /// Checks a setup against the card set and starts the game.
    fn from_setup(setup: &Self::Setup, cards: &CardSet) -> Result<Self, Self::SetupError>;
    /// How many seats play.
    fn seats(&self) -> usize;
    /// What happened before the first action.
    fn opening_events(&self) -> &[Self::Event];
    /// Every action `seat` may take now.
    fn legal_actions(&self, seat: Seat) -> Vec<Self::Action>;
    /// Applies an action; an illegal one changes nothing.
    fn apply(
        &mut self,
        seat: Seat,
        action: Self::Action,
    ) -> Result<Vec<Self::Event>, IllegalAction>;
    /// The result, once the game is over.
    fn outcome(&self) -> Option<Outcome>;
    /// A fingerprint of the whole state, the same on every machine.
    fn state_hash(&self) -> u64;
    /// The question `seat` must answer now, if any. `passed` are the offers
    /// the seat has declined since its last action; they are not asked again.
    fn question(
        &self,
        seat: Seat,
        passed: &[Self::Action],
        cards: &CardSet,
    ) -> Option<Question<Self::Ask, Self::Action>>;
    /// An event in plain words, for a log or a terminal.
    fn describe(event: &Self::Event, cards: &CardSet) -> String;
}

/// Something to do with a ruleset chosen at run time (from a replay file,
/// say): [`dispatch`] calls `visit` with the ruleset's type.
pub trait RulesetVisitor {
    /// What the visit returns.
    type Output;
    /// Does the work with ruleset `R`.
    fn visit<R: Ruleset>(self) -> Self::Output;
}

/// Calls the visitor with the ruleset `id` names. The one place that lists
/// every ruleset's type.
pub fn dispatch<V: RulesetVisitor>(id: RulesetId, visitor: V) -> V::Output {
    match id {
        RulesetId::Terminal => visitor.visit::<terminal::Match>(),
        RulesetId::Alpha => visitor.visit::<alpha::Match>(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_are_written_as_the_two_sides_were() {
        let json = serde_json::to_string(&[Seat::P1, Seat::P2, Seat::new(3).unwrap()]).unwrap();
        assert_eq!(json, r#"["P1","P2","P4"]"#);
        let back: Vec<Seat> = crate::cards::read_ron("[P1, P2, P4]").unwrap();
        assert_eq!(back, vec![Seat::P1, Seat::P2, Seat(3)]);
        assert!(crate::cards::read_ron::<Seat>("P9").is_err());
    }

    #[test]
    fn seats_parse_as_people_type_them() {
        assert_eq!("p2".parse::<Seat>(), Ok(Seat::P2));
        assert_eq!(" 3 ".parse::<Seat>(), Ok(Seat(2)));
        assert!("P0".parse::<Seat>().is_err());
        assert!("P9".parse::<Seat>().is_err());
        assert_eq!(Seat(3).to_string(), "P4");
    }

    #[test]
    fn a_prompt_reads_keys_whatever_the_case_and_spaces() {
        let p = Prompt {
            lines: Vec::new(),
            text: String::new(),
            keys: vec![("xa".to_string(), Reply::Act(1)), ("n".into(), Reply::Pass)],
        };
        assert_eq!(p.reply(" X a\n"), Some(Reply::Act(1)));
        assert_eq!(p.reply("N"), Some(Reply::Pass));
        assert_eq!(p.reply("q"), None);
    }
}
