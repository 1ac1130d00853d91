//! Enrolments: barcodes a collector bound to a card with `bterm enroll`
//! (cards whose printed code is proprietary). Kept in one RON file in the
//! data folder, written atomically, with the previous version kept as a
//! `.bak`; a file that cannot be read is never overwritten.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::code::{Format, Symbol};
use crate::cards::{CardNumber, read_ron, write_ron};

/// The file name of the enrolments in the data folder.
pub const FILE_NAME: &str = "enrolled.ron";

/// The largest enrolments file read (16 MiB: a binding is about 80 bytes).
const MAX_BYTES: u64 = 16 << 20;

pub use crate::save::data_dir;

/// One enrolment as stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    format: Format,
    text: String,
    card: CardNumber,
}

/// Why the enrolments cannot be read or written.
#[derive(Debug, thiserror::Error)]
pub enum EnrollError {
    /// No data folder could be found.
    #[error("no data folder: set BTERM_DATA_DIR (or HOME) to where bterm may keep its files")]
    NoDataDir,
    /// The file exists but is not readable as enrolments.
    #[error(
        "{path}: cannot read the enrolments ({why}); fix or move the file away (it is left untouched)"
    )]
    Corrupt {
        /// The file.
        path: String,
        /// The parser's or the system's answer.
        why: String,
    },
    /// Writing failed.
    #[error("{path}: cannot save the enrolments: {why}")]
    Write {
        /// The file.
        path: String,
        /// The system's answer.
        why: String,
    },
}

/// The enrolments, keyed by (symbology, text).
#[derive(Debug, Clone, Default)]
pub struct Enrolments {
    path: Option<PathBuf>,
    map: BTreeMap<(Format, String), CardNumber>,
}

impl Enrolments {
    /// The enrolments in the data folder (none yet is fine).
    pub fn open_default() -> Result<Enrolments, EnrollError> {
        let dir = data_dir().ok_or(EnrollError::NoDataDir)?;
        Enrolments::open(&dir.join(FILE_NAME))
    }

    /// The enrolments in `path` (a missing file is an empty list).
    pub fn open(path: &Path) -> Result<Enrolments, EnrollError> {
        let corrupt = |why: String| EnrollError::Corrupt {
            path: path.display().to_string(),
            why,
        };
        let mut map = BTreeMap::new();
        match crate::save::read_text(path, MAX_BYTES) {
            Ok(text) => {
                let entries: Vec<Entry> = read_ron(&text).map_err(|e| {
                    corrupt(format!(
                        "line {}, column {}: {}",
                        e.span.start.line, e.span.start.col, e.code
                    ))
                })?;
                for e in entries {
                    map.insert((e.format, e.text), e.card);
                }
            }
            // No file, or no folder it could be in: no enrolments yet.
            Err(crate::save::ReadFileError::Io(e))
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
                ) => {}
            Err(e) => return Err(corrupt(e.to_string())),
        }
        Ok(Enrolments {
            path: Some(path.to_path_buf()),
            map,
        })
    }

    /// Binds a symbol to a card in the file at `path` and saves it, holding
    /// a lock on `path.lock` from reading to writing, so that processes
    /// enrolling at the same time each keep their binding. Returns the card
    /// the symbol was bound to before. A file that cannot be read is left
    /// as it is.
    pub fn bind(
        path: &Path,
        symbol: &Symbol,
        card: CardNumber,
    ) -> Result<Option<CardNumber>, EnrollError> {
        let mut lock = path.as_os_str().to_owned();
        lock.push(".lock");
        let locked = crate::save::with_lock(Path::new(&lock), || {
            if let Some(dir) = path.parent() {
                crate::save::clean_stale_temps(dir);
            }
            let mut enrolments = Enrolments::open(path)?;
            let before = enrolments.insert(symbol, card);
            enrolments.save()?;
            Ok(before)
        });
        locked.map_err(|e| EnrollError::Write {
            path: path.display().to_string(),
            why: format!("cannot lock {}: {e}", Path::new(&lock).display()),
        })?
    }

    /// [`Enrolments::bind`] in the data folder's file.
    pub fn bind_default(
        symbol: &Symbol,
        card: CardNumber,
    ) -> Result<(Option<CardNumber>, PathBuf), EnrollError> {
        let path = data_dir().ok_or(EnrollError::NoDataDir)?.join(FILE_NAME);
        Ok((Enrolments::bind(&path, symbol, card)?, path))
    }

    /// Enrolments from (symbology, text, card) triples, kept elsewhere (the
    /// collection's database); a later triple for the same barcode wins.
    pub fn from_entries(
        entries: impl IntoIterator<Item = (Format, String, CardNumber)>,
    ) -> Enrolments {
        Enrolments {
            path: None,
            map: entries.into_iter().map(|(f, t, c)| ((f, t), c)).collect(),
        }
    }

    /// Every binding: (symbology, text, card).
    pub fn entries(&self) -> Vec<(Format, String, CardNumber)> {
        self.map
            .iter()
            .map(|((f, t), c)| (*f, t.clone(), *c))
            .collect()
    }

    /// The card a symbol was bound to.
    pub fn get(&self, symbol: &Symbol) -> Option<CardNumber> {
        self.map.get(&(symbol.format, symbol.text.clone())).copied()
    }

    /// Binds a symbol to a card; returns the card it was bound to before.
    pub fn insert(&mut self, symbol: &Symbol, card: CardNumber) -> Option<CardNumber> {
        self.map.insert((symbol.format, symbol.text.clone()), card)
    }

    /// How many barcodes are bound.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// Whether none is.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// The file they live in.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// Saves atomically; the previous file is kept as `enrolled.ron.bak`.
    pub fn save(&self) -> Result<(), EnrollError> {
        let Some(path) = &self.path else {
            return Err(EnrollError::NoDataDir);
        };
        let err = |why: String| EnrollError::Write {
            path: path.display().to_string(),
            why,
        };
        let entries: Vec<Entry> = self
            .map
            .iter()
            .map(|((format, text), card)| Entry {
                format: *format,
                text: text.clone(),
                card: *card,
            })
            .collect();
        let text = write_ron(&entries).map_err(|e| err(e.to_string()))?;
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| err(e.to_string()))?;
        }
        if path.exists() {
            let mut bak = path.as_os_str().to_owned();
            bak.push(".bak");
            std::fs::copy(path, PathBuf::from(bak)).map_err(|e| err(e.to_string()))?;
        }
        let body =
            format!("// bterm enrolments: barcodes bound to cards with `bterm enroll`.\n{text}\n");
        crate::save::write_atomic(path, body.as_bytes()).map_err(|e| err(e.to_string()))
    }
}
