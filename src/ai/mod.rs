//! CPU players, one per ruleset: given the match and a seat, choose an
//! action. The strengths a kiosk offers are the same for every ruleset.

pub mod alpha;
pub mod clash;
pub mod dcg;
pub mod search;
pub mod terminal;

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::rules::{Ruleset, Seat};

/// How hard a CPU player plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Strength {
    /// Plays any legal action, at random.
    Easy,
    /// Plays well for this turn.
    Normal,
    /// Plays the best it can find, looking ahead.
    Hard,
}

impl Strength {
    /// Every strength, weakest first.
    pub const ALL: [Strength; 3] = [Strength::Easy, Strength::Normal, Strength::Hard];

    /// The name people type and read: `easy`, `normal`, `hard`.
    pub fn name(self) -> &'static str {
        match self {
            Strength::Easy => "easy",
            Strength::Normal => "normal",
            Strength::Hard => "hard",
        }
    }
}

impl fmt::Display for Strength {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a typed CPU strength is not one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown CPU strength \"{0}\": use easy, normal or hard")]
pub struct ParseStrengthError(pub String);

impl FromStr for Strength {
    type Err = ParseStrengthError;
    fn from_str(s: &str) -> Result<Strength, ParseStrengthError> {
        Strength::ALL
            .into_iter()
            .find(|l| l.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| ParseStrengthError(s.to_string()))
    }
}

/// A ruleset's CPU player.
pub trait Cpu: Ruleset {
    /// Chooses `seat`'s next action, or `None` when it has nothing to do.
    /// The same match and seat give the same choice on every machine.
    fn choose(&self, seat: Seat, strength: Strength) -> Option<Self::Action>;

    /// A CPU client's choice for `seat` from what it may see (its view,
    /// sent over the LAN), or `None` when it is not asked anything.
    fn choose_from_view(view: &Self::View, seat: Seat, strength: Strength) -> Option<Self::Action>;

    /// Whether the hard CPU searches from a seat's view alone, and so plays
    /// hard at a LAN client too. Where it needs the whole table (the worlds
    /// it searches are dealt again from the match's hidden cards), a client
    /// holds only its view and plays `hard` as `normal` does.
    const HARD_FROM_VIEW: bool = true;
}
