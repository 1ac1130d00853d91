//! The session layer: what every ruleset shares between its rules and the
//! front ends that present it (the text commands, the arena, replays and,
//! later, LAN play). [`Player`] says who plays a seat; a [`Table`] holds a
//! match with its players, asks each seat the rules' [`Question`] and
//! applies answers, timeouts and CPU moves in one place; [`drive`] runs a
//! match to its end with any mix of people and CPUs.
//!
//! [`Question`]: crate::rules::Question

mod driver;
mod launch;
mod player;
mod table;

pub use driver::{People, Watch, drive, drive_cpus, watch_cpus};
pub use launch::{ClipOptions, ClipReport, GameOptions, LaunchError, Window};
pub use player::{ParsePlayerError, Player};
pub use table::{QuestionOf, Table, TableError};

pub use crate::rules::Seat;

/// A seed from the clock, for games nobody asked to repeat.
pub fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(1, |d| d.as_nanos() as u64)
}
