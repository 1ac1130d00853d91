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
    /// The engine the rules are played by ([`super::ENGINE_VERSION`]; a
    /// replay of an earlier engine this build still plays keeps its own,
    /// [`super::ENGINES`]). Not a number to tune: it travels with them.
    #[serde(
        default = "super::current_engine",
        skip_serializing_if = "super::is_first_engine"
    )]
    pub engine: u32,
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

    /// Checks every number is in a range the rules can play by (tunables
    /// come from files: the shipped one, and every replay's setup). Names
    /// the first number out of range and its range.
    pub fn check(&self) -> Result<(), String> {
        let ranges: [(&str, i64, i64, i64); 19] = [
            ("max_digimon", self.max_digimon as i64, 1, 20),
            ("max_options", self.max_options as i64, 0, 20),
            ("max_lines", self.max_lines as i64, 1, 20),
            ("max_copies", self.max_copies as i64, 1, 20),
            ("cost_cap", i64::from(self.cost_cap), 0, 1000),
            (
                "burst_points_per_cost",
                i64::from(self.burst_points_per_cost),
                0,
                1000,
            ),
            ("start_points", i64::from(self.start_points), 1, 1_000_000),
            ("max_points", i64::from(self.max_points), 1, 1_000_000),
            ("loss_points", i64::from(self.loss_points), 0, 1_000_000),
            (
                "deletion_points",
                i64::from(self.deletion_points),
                0,
                1_000_000,
            ),
            ("max_rounds", i64::from(self.max_rounds), 1, 1000),
            ("stance_seconds", i64::from(self.stance_seconds), 1, 600),
            (
                "read_bonus_percent",
                i64::from(self.read_bonus_percent),
                0,
                1000,
            ),
            ("gauge_full", i64::from(self.gauge_full), 1, 1000),
            ("gauge_front", i64::from(self.gauge_front), 0, 1000),
            ("gauge_loser", i64::from(self.gauge_loser), 0, 1000),
            ("gauge_bench", i64::from(self.gauge_bench), 0, 1000),
            ("alpha_group", self.alpha_group as i64, 1, 20),
            (
                "start_points ≤ max_points",
                i64::from(self.start_points),
                1,
                i64::from(self.max_points),
            ),
        ];
        for (name, value, low, high) in ranges {
            if !(low..=high).contains(&value) {
                return Err(format!(
                    "tunable {name} is {value}; it must be {low} to {high}"
                ));
            }
        }
        Ok(())
    }
}
