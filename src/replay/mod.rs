//! Replays, for any ruleset: the rules version, the setup, every action in
//! order, and a hash of the final state. A replay plays the same game on
//! every machine, and says so when it does not. The file names its ruleset
//! (`rules: (ruleset: Terminal, …)`), so [`ruleset_of`] can tell which
//! rules to play it by before reading the rest.

pub mod code;
pub mod gallery;

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::cards::CardSet;
use crate::rules::{IllegalAction, RulesVersion, Ruleset, RulesetId, Seat};
use crate::session::Table;

/// A recorded game of ruleset `R`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(bound = "", deny_unknown_fields)]
pub struct Replay<R: Ruleset> {
    /// The rules it was played by.
    pub rules: RulesVersion,
    /// What the game started from (teams or decks, numbers, seed).
    pub setup: R::Setup,
    /// Every action, in order.
    pub actions: Vec<(Seat, R::Action)>,
    /// The state hash after the last action.
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
    #[error("the replay's setup is refused: {0}")]
    Setup(String),
    /// An action the rules refuse.
    #[error("action {number} ({seat} {action}) is refused: {error}")]
    Illegal {
        /// 1-based.
        number: usize,
        /// Who.
        seat: Seat,
        /// What, as written in the file.
        action: String,
        /// The rules' reason.
        error: IllegalAction,
    },
    /// The game did not end in the same state.
    #[error(
        "the replay does not reproduce the recorded game: final state hash {found:016x}, recorded {expected:016x} (different card data or rules)"
    )]
    Mismatch {
        /// Replayed.
        found: u64,
        /// Recorded.
        expected: u64,
    },
}

/// Saves a replay's text in `dir` as `STEM.ron` (numbered `STEM-N.ron` if
/// taken), never over a file.
pub fn save_text_in(dir: &Path, stem: &str, text: &str) -> Result<PathBuf, ReplayError> {
    std::fs::create_dir_all(dir).map_err(|e| ReplayError::Io {
        path: dir.display().to_string(),
        error: format!("cannot create the folder: {e}"),
    })?;
    for n in 0..10_000u32 {
        let path = match n {
            0 => dir.join(format!("{stem}.ron")),
            n => dir.join(format!("{stem}-{n}.ron")),
        };
        match crate::save::write_new(&path, text.as_bytes()) {
            Ok(()) => return Ok(path),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(e) => {
                return Err(ReplayError::Io {
                    path: path.display().to_string(),
                    error: e.to_string(),
                });
            }
        }
    }
    Err(ReplayError::Io {
        path: dir.display().to_string(),
        error: "no free file name for the replay".to_string(),
    })
}

/// Only the part of a replay file that names its rules.
#[derive(Deserialize)]
struct Header {
    rules: RulesVersion,
}

fn malformed(name: &str, e: &ron::error::SpannedError) -> ReplayError {
    ReplayError::Malformed {
        path: name.to_string(),
        line: e.span.start.line,
        column: e.span.start.col,
        message: e.code.to_string(),
    }
}

/// The largest replay file read (64 MiB; a long battle is a few KiB).
pub const MAX_REPLAY_BYTES: u64 = 64 << 20;

/// Reads a replay file's text: a regular file of at most
/// [`MAX_REPLAY_BYTES`].
pub fn read(path: &Path) -> Result<String, ReplayError> {
    crate::save::read_text(path, MAX_REPLAY_BYTES).map_err(|e| ReplayError::Io {
        path: path.display().to_string(),
        error: e.to_string(),
    })
}

/// Which ruleset a replay's text names (`name` is used in messages).
pub fn ruleset_of(text: &str, name: &str) -> Result<RulesetId, ReplayError> {
    crate::cards::read_ron::<Header>(text)
        .map(|h| h.rules.ruleset)
        .map_err(|e| malformed(name, &e))
}

impl<R: Ruleset> Replay<R> {
    /// A replay of a table's game so far.
    pub fn of(table: &Table<R>) -> Replay<R> {
        Replay {
            rules: R::version(table.setup()),
            setup: table.setup().clone(),
            actions: table.actions().to_vec(),
            final_hash: table.game().state_hash(),
        }
    }

    /// Reads a replay file.
    pub fn load(path: &Path) -> Result<Replay<R>, ReplayError> {
        Replay::parse(&read(path)?, &path.display().to_string())
    }

    /// Parses a replay's text (`name` is used in messages).
    pub fn parse(text: &str, name: &str) -> Result<Replay<R>, ReplayError> {
        let mut replay: Replay<R> =
            crate::cards::read_ron(text).map_err(|e| malformed(name, &e))?;
        // Played by the engine it was recorded by, where this build has it.
        R::adopt_engine(&mut replay.setup, replay.rules.engine);
        Ok(replay)
    }

    fn text(&self, path: &Path) -> Result<String, ReplayError> {
        crate::cards::write_ron(self).map_err(|e| ReplayError::Io {
            path: path.display().to_string(),
            error: e.to_string(),
        })
    }

    /// Writes the replay as RON to a new file; an existing file (even one
    /// that appeared a moment ago) is never replaced.
    pub fn save_new(&self, path: &Path) -> Result<(), ReplayError> {
        let text = self.text(path)?;
        crate::save::write_new(path, text.as_bytes()).map_err(|e| ReplayError::Io {
            path: path.display().to_string(),
            error: if e.kind() == std::io::ErrorKind::AlreadyExists {
                "the file already exists; it is left as it is".to_string()
            } else {
                e.to_string()
            },
        })
    }

    /// Saves the replay in `dir` under a new name made from the time and
    /// the seed (`battle-<seconds>-<seed>.ron`, numbered if taken).
    pub fn save_in(&self, dir: &Path) -> Result<PathBuf, ReplayError> {
        let stamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let seed = R::seed(&self.setup);
        let text = self.text(dir)?;
        save_text_in(dir, &format!("battle-{stamp}-{seed:x}"), &text)
    }

    /// Plays the replay back, handing every event to `on_event`, and checks
    /// the final state hash.
    pub fn play(
        &self,
        cards: &CardSet,
        mut on_event: impl FnMut(&R::Event),
    ) -> Result<R, ReplayError> {
        let expected = R::version(&self.setup);
        if self.rules != expected {
            return Err(ReplayError::WrongRules {
                found: self.rules,
                expected,
            });
        }
        let mut m =
            R::from_setup(&self.setup, cards).map_err(|e| ReplayError::Setup(e.to_string()))?;
        m.opening_events().iter().for_each(&mut on_event);
        for (i, &(seat, action)) in self.actions.iter().enumerate() {
            let events = m
                .apply(seat, action)
                .map_err(|error| ReplayError::Illegal {
                    number: i + 1,
                    seat,
                    action: format!("{action:?}"),
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

#[cfg(test)]
mod clash_tests;
#[cfg(test)]
mod dcg_tests;
