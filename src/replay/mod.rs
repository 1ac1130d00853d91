//! Replays: the rules version, the setup (both teams, tunables, seed), every
//! action in order, and a hash of the final state. A replay plays the same
//! battle on every machine, and says so when it does not.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::cards::CardSet;
use crate::rules::terminal::{Action, ENGINE_VERSION, Event, Match, Setup, SetupError};
use crate::rules::{IllegalAction, Side};

/// Which rules a replay was played by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RulesVersion {
    /// The ruleset.
    pub ruleset: Ruleset,
    /// The engine's code version.
    pub engine: u32,
    /// The tunables' version.
    pub tunables: u32,
}

/// The rulesets a replay can name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Ruleset {
    /// The arcade Terminal Battle.
    Terminal,
}

impl std::fmt::Display for RulesVersion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{:?} rules, engine {} with tunables {}",
            self.ruleset, self.engine, self.tunables
        )
    }
}

/// A recorded battle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Replay {
    /// The rules it was played by.
    pub rules: RulesVersion,
    /// Both teams, the tunables and the seed.
    pub setup: Setup,
    /// Every action, in order.
    pub actions: Vec<(Side, Action)>,
    /// `Match::state_hash` after the last action.
    pub final_hash: u64,
}

/// Why a replay cannot be played back, or did not play back the same.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// The file could not be read or written.
    #[error("{path}: {error}")]
    Io {
        /// The file.
        path: String,
        /// What went wrong.
        error: String,
    },
    /// The file is not a replay.
    #[error("{path}:{line}:{column}: not a bterm replay: {message}")]
    Malformed {
        /// The file.
        path: String,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What the parser said.
        message: String,
    },
    /// Played by other rules.
    #[error(
        "this replay was played by {found}; this bterm plays {expected}, so it cannot replay it faithfully"
    )]
    WrongRules {
        /// In the file.
        found: RulesVersion,
        /// This build.
        expected: RulesVersion,
    },
    /// Its setup is refused by the card set at hand.
    #[error("the replay's teams are refused: {0}")]
    Setup(#[from] SetupError),
    /// An action the rules refuse.
    #[error("action {number} ({side} {action:?}) is refused: {error}")]
    Illegal {
        /// 1-based.
        number: usize,
        /// Who.
        side: Side,
        /// What.
        action: Action,
        /// The rules' reason.
        error: IllegalAction,
    },
    /// The battle did not end in the same state.
    #[error(
        "the replay does not reproduce the recorded battle: final state hash {found:016x}, recorded {expected:016x} (different card data or rules)"
    )]
    Mismatch {
        /// Replayed.
        found: u64,
        /// Recorded.
        expected: u64,
    },
}

/// The rules version of this build for a setup.
pub fn rules_version(setup: &Setup) -> RulesVersion {
    RulesVersion {
        ruleset: Ruleset::Terminal,
        engine: ENGINE_VERSION,
        tunables: setup.tunables.version,
    }
}

impl Replay {
    /// A replay of a finished (or stopped) match.
    pub fn new(setup: Setup, actions: Vec<(Side, Action)>, final_state: &Match) -> Replay {
        Replay {
            rules: rules_version(&setup),
            setup,
            actions,
            final_hash: final_state.state_hash(),
        }
    }

    /// Reads a replay file.
    pub fn load(path: &Path) -> Result<Replay, ReplayError> {
        let text = std::fs::read_to_string(path).map_err(|e| ReplayError::Io {
            path: path.display().to_string(),
            error: e.to_string(),
        })?;
        Replay::parse(&text, &path.display().to_string())
    }

    /// Parses a replay's text (`name` is used in messages).
    pub fn parse(text: &str, name: &str) -> Result<Replay, ReplayError> {
        crate::cards::read_ron(text).map_err(|e| ReplayError::Malformed {
            path: name.to_string(),
            line: e.span.start.line,
            column: e.span.start.col,
            message: e.code.to_string(),
        })
    }

    /// Writes the replay as RON.
    pub fn save(&self, path: &Path) -> Result<(), ReplayError> {
        let io = |e: String| ReplayError::Io {
            path: path.display().to_string(),
            error: e,
        };
        let text = crate::cards::write_ron(self).map_err(|e| io(e.to_string()))?;
        crate::save::write_atomic(path, text.as_bytes()).map_err(|e| io(e.to_string()))
    }

    /// Plays the replay back, handing every event to `on_event`, and checks
    /// the final state hash.
    pub fn play(
        &self,
        cards: &CardSet,
        mut on_event: impl FnMut(&Event),
    ) -> Result<Match, ReplayError> {
        let expected = rules_version(&self.setup);
        if self.rules != expected {
            return Err(ReplayError::WrongRules {
                found: self.rules,
                expected,
            });
        }
        let mut m = Match::from_setup(&self.setup, cards)?;
        m.opening_events().iter().for_each(&mut on_event);
        for (i, &(side, action)) in self.actions.iter().enumerate() {
            let events = m
                .apply(side, action)
                .map_err(|error| ReplayError::Illegal {
                    number: i + 1,
                    side,
                    action,
                    error,
                })?;
            events.iter().for_each(&mut on_event);
        }
        let found = m.state_hash();
        if found != self.final_hash {
            return Err(ReplayError::Mismatch {
                found,
                expected: self.final_hash,
            });
        }
        Ok(m)
    }
}
