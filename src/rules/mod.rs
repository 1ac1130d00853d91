//! Pure game rules, one module per ruleset, all in one shape:
//! `Setup` (plain serde data) → `Match::from_setup` → `Result`; a small
//! `Copy` `Action`; `legal_actions`, `apply` → `Result<Vec<Event>,
//! IllegalAction>` (an illegal action changes nothing) and `outcome`.

pub mod terminal;

use std::fmt;

use serde::{Deserialize, Serialize};

/// A player's seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Side {
    /// Player 1.
    P1,
    /// Player 2.
    P2,
}

impl Side {
    /// Both seats, in order.
    pub const BOTH: [Side; 2] = [Side::P1, Side::P2];

    /// The other seat.
    pub fn other(self) -> Side {
        match self {
            Side::P1 => Side::P2,
            Side::P2 => Side::P1,
        }
    }

    /// 0 for P1, 1 for P2.
    pub fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::P1 => "P1",
            Side::P2 => "P2",
        })
    }
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Outcome {
    /// One player won.
    Win(Side),
    /// Nobody won.
    Draw,
}

/// An action that the rules refuse; the game is left as it was.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{side} cannot do that now: {reason}")]
pub struct IllegalAction {
    /// Who tried.
    pub side: Side,
    /// Why not.
    pub reason: String,
}

/// The shape every ruleset has, so presenters, CPU players and replays can
/// work with any of them.
pub trait Rules: Sized + Clone {
    /// Plain data a game starts from.
    type Setup;
    /// Why a setup is refused.
    type SetupError;
    /// The card data a setup is resolved against.
    type Cards: ?Sized;
    /// A player's move.
    type Action: Copy + Eq;
    /// What happened, in order, for a presenter.
    type Event;

    /// Checks a setup and starts the game.
    fn from_setup(setup: &Self::Setup, cards: &Self::Cards) -> Result<Self, Self::SetupError>;
    /// Every action `side` may take now.
    fn legal_actions(&self, side: Side) -> Vec<Self::Action>;
    /// Applies an action; an illegal one changes nothing.
    fn apply(
        &mut self,
        side: Side,
        action: Self::Action,
    ) -> Result<Vec<Self::Event>, IllegalAction>;
    /// The result, once the game is over.
    fn outcome(&self) -> Option<Outcome>;
}

/// FNV-1a, 64 bits: a small stable hash for state fingerprints (the same on
/// every platform and Rust version, unlike `std`'s hasher).
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}
