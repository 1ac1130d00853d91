//! The Terminal Battle's numbers, read from `assets/rules/terminal.ron`.

use serde::{Deserialize, Serialize};

/// The shipped tunables, compiled in.
pub const TERMINAL_RON: &str = include_str!("../../../assets/rules/terminal.ron");

/// Every number the arcade rules use.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tunables {
    /// Changes whenever a number here changes.
    pub version: u32,
    /// Digimon cards a player may scan.
    pub max_digimon: usize,
    /// Option cards a player may scan.
    pub max_options: usize,
    /// Evolution lines a team may have.
    pub max_lines: usize,
    /// Copies of one (base) name a team may have.
    pub max_copies: usize,
    /// The team's total Cost above which Burst applies.
    pub cost_cap: u32,
    /// Points lost at the start per Cost point above the cap.
    pub burst_points_per_cost: i32,
    /// Points at the start.
    pub start_points: i32,
    /// The most points a player can have.
    pub max_points: i32,
    /// Points lost by the loser of a clash.
    pub loss_points: i32,
    /// Further points lost when a Digimon is deleted.
    pub deletion_points: i32,
    /// Rounds before the battle is decided on points.
    pub max_rounds: u32,
    /// Seconds to press a stance (kept here for presenters).
    pub stance_seconds: u32,
    /// Attack power bonus, percent, for the stance that beats the other.
    pub read_bonus_percent: u32,
    /// Gauge at which a line may digivolve.
    pub gauge_full: u32,
    /// Gauge the front line gains each round.
    pub gauge_front: u32,
    /// Gauge the front line gains instead when it lost the clash.
    pub gauge_loser: u32,
    /// Gauge each line on the bench gains each round.
    pub gauge_bench: u32,
    /// Digimon of one battle type and Field, attacker included, for an Alpha Strike.
    pub alpha_group: usize,
}

impl Default for Tunables {
    fn default() -> Self {
        crate::cards::read_ron(TERMINAL_RON).expect("the shipped terminal.ron is valid (tested)")
    }
}

impl Tunables {
    /// Reads tunables from a RON file's text.
    pub fn from_ron(text: &str) -> Result<Tunables, ron::error::SpannedError> {
        crate::cards::read_ron(text)
    }
}
