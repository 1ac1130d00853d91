//! The two sides of a Terminal Battle, and how they sit at the session's
//! numbered seats (P1 is seat 0, P2 seat 1).

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::rules::Seat;

/// A player's side of the arcade cabinet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Side {
    /// Player 1.
    P1,
    /// Player 2.
    P2,
}

impl Side {
    /// Both sides, in order.
    pub const BOTH: [Side; 2] = [Side::P1, Side::P2];

    /// The other side.
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

    /// The seat this side sits at.
    pub fn seat(self) -> Seat {
        match self {
            Side::P1 => Seat::P1,
            Side::P2 => Seat::P2,
        }
    }

    /// The side at a seat; `None` for a seat the Terminal Battle does not have.
    pub fn of(seat: Seat) -> Option<Side> {
        match seat.index() {
            0 => Some(Side::P1),
            1 => Some(Side::P2),
            _ => None,
        }
    }
}

impl From<Side> for Seat {
    fn from(side: Side) -> Seat {
        side.seat()
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
