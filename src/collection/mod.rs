//! The collector's store: every scan that gave a card, owned counts, the
//! condition and note of each copy, enrolled barcodes, battles for the
//! rankings, and the history of every change, in one SQLite database
//! (`collection.sqlite` in the data folder, or `--db FILE`).
//!
//! - Counts are never overwritten: each change is a row of `scans` in a
//!   batch (one command), and a count is the sum of the rows of batches not
//!   undone. Undo marks the last batch undone; history lists the batches.
//! - WAL mode, `synchronous=FULL`, writes in `BEGIN IMMEDIATE`
//!   transactions with a busy timeout and retries, so processes scanning at
//!   once each keep their scans and a killed process leaves every committed
//!   scan in place.
//! - A file that is not a bterm collection (another program's database, a
//!   damaged file, a newer schema) is reported with its path and never
//!   written to.

pub mod csv;
pub mod enrol;
pub mod rankings;
mod schema;
pub mod sets;
pub mod time;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{
    Connection, ErrorCode, OpenFlags, OptionalExtension as _, TransactionBehavior, params,
};

use crate::cards::{CardNumber, CardSet};

/// The database's file name in the data folder.
pub const FILE_NAME: &str = "collection.sqlite";
/// The schema version this build writes (see `schema::MIGRATIONS`).
pub const SCHEMA_VERSION: u32 = schema::MIGRATIONS.len() as u32;
/// `PRAGMA application_id` of a bterm collection: "btrm".
const APP_ID: i32 = 0x6274_726d;
/// How long a write waits for another process's write to finish.
const BUSY_WAIT: Duration = Duration::from_secs(10);

/// Why the collection cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StoreError {
    /// No data folder could be found.
    #[error(
        "no data folder for the collection: set BTERM_DATA_DIR (or HOME), or name a file with --db FILE"
    )]
    NoDataDir,
    /// The file is not a bterm collection.
    #[error(
        "{path}: not a bterm collection ({why}); it is left untouched: move it away, or name another file with --db FILE"
    )]
    Foreign {
        /// The file.
        path: String,
        /// What it is instead.
        why: String,
    },
    /// The file is a damaged database.
    #[error(
        "{path}: the collection is damaged ({why}); it is left untouched: restore a backup with `bterm collection restore FILE`, or move it away"
    )]
    Corrupt {
        /// The file.
        path: String,
        /// SQLite's answer.
        why: String,
    },
    /// A newer bterm wrote it.
    #[error(
        "{path}: written by a newer bterm (schema {found}; this one knows up to {known}); update bterm to use it"
    )]
    Newer {
        /// The file.
        path: String,
        /// Its schema version.
        found: u32,
        /// Ours.
        known: u32,
    },
    /// It cannot be written (a read-only folder or file).
    #[error(
        "{path}: cannot write the collection ({why}); check the folder's permissions, or name another file with --db FILE"
    )]
    ReadOnly {
        /// The file.
        path: String,
        /// The system's answer.
        why: String,
    },
    /// Another process held the collection too long.
    #[error(
        "{path}: the collection stayed busy (another bterm is writing to it); try again when it is done"
    )]
    Busy {
        /// The file.
        path: String,
    },
    /// Anything else SQLite or the system said.
    #[error("{path}: {why}")]
    Other {
        /// The file.
        path: String,
        /// The answer.
        why: String,
    },
    /// A request the collection refuses (an unknown scan, nothing to undo).
    #[error("{0}")]
    Refused(String),
}

/// Where a change came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// A picture file.
    File,
    /// A camera (or a folder of frames).
    Camera,
    /// Typed (`collection add`, `remove`).
    Typed,
    /// A CSV import.
    Import,
    /// A correction of a scan.
    Fix,
}

impl Origin {
    /// Its name in the database and in history.
    pub fn as_str(self) -> &'static str {
        match self {
            Origin::File => "file",
            Origin::Camera => "camera",
            Origin::Typed => "typed",
            Origin::Import => "import",
            Origin::Fix => "fix",
        }
    }
}

/// A card as the collection keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CardRef {
    /// Its number.
    pub number: CardNumber,
    /// Its name.
    pub name: String,
    /// The whole card in RON when it is not in the card set (custom, wild).
    pub data: Option<String>,
}

/// One scan (or typed change) to record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewScan {
    /// The card.
    pub card: CardRef,
    /// Where it came from.
    pub origin: Origin,
    /// The file's path or the camera.
    pub place: Option<String>,
    /// The barcode's symbology and text.
    pub code: Option<(String, String)>,
    /// The file's content digest: a second scan of the same picture does
    /// not add another copy.
    pub digest: Option<String>,
    /// Copies: added, or taken out with `remove`.
    pub count: u32,
    /// Whether the copies are taken out (traded away).
    pub remove: bool,
}

/// What recording a scan did to the count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Counted {
    /// Copies added.
    Added(u32),
    /// Copies taken out.
    Removed(u32),
    /// A re-scan of a picture already counted (the scan it repeats).
    Rescan(i64),
    /// A removal of a card the collection does not hold.
    NotOwned,
}

/// A recorded scan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Recorded {
    /// Its id (for `collection fix`).
    pub scan: i64,
    /// What it did.
    pub counted: Counted,
    /// Whether the card was never scanned before (the scan screen's NEW!).
    pub first_ever: bool,
}

/// A batch under way: created with its first recorded scans.
#[derive(Debug, Clone)]
pub struct Batch {
    id: Option<i64>,
    command: String,
}

impl Batch {
    /// A batch for a command (the words shown in history).
    pub fn new(command: impl Into<String>) -> Batch {
        Batch {
            id: None,
            command: command.into(),
        }
    }

    /// Its id, once something was recorded.
    pub fn id(&self) -> Option<i64> {
        self.id
    }
}

/// One batch as history shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BatchSummary {
    /// Its id.
    pub id: i64,
    /// When (seconds since 1970).
    pub at: i64,
    /// The command.
    pub command: String,
    /// Whether it was undone.
    pub undone: bool,
    /// Copies it added.
    pub added: i64,
    /// Copies it took out.
    pub removed: i64,
    /// Rows it holds (scans, re-scans, grades, enrolments).
    pub rows: i64,
}

/// One recorded scan, as `collection fix` finds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScanRow {
    /// Its id.
    pub id: i64,
    /// Its batch.
    pub batch: i64,
    /// The card it gave (after any fix).
    pub card: CardNumber,
    /// What it did to the count.
    pub delta: i64,
    /// Where from.
    pub origin: String,
    /// The file or camera.
    pub place: Option<String>,
}

/// A copy's condition and note.
pub type Grade = (String, String);

/// What an import changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ImportSummary {
    /// Cards whose count changed.
    pub counts: usize,
    /// Copies whose condition or note changed.
    pub grades: usize,
}

/// The collection database.
#[derive(Debug)]
pub struct Store {
    conn: Connection,
    path: PathBuf,
}

/// The collection's file: `--db FILE`, else the data folder's.
pub fn default_path(db: Option<&Path>) -> Result<PathBuf, StoreError> {
    match db {
        Some(p) => Ok(p.to_path_buf()),
        None => crate::save::data_dir()
            .map(|d| d.join(FILE_NAME))
            .ok_or(StoreError::NoDataDir),
    }
}

impl Store {
    /// Opens the collection at `path`, creating it (and its folder) if it
    /// does not exist, and brings its schema up to date.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        let shown = path.display().to_string();
        match std::fs::symlink_metadata(path) {
            Ok(meta) if !meta.is_file() => {
                return Err(StoreError::Foreign {
                    path: shown,
                    why: "not a regular file (a folder, a link or a device)".into(),
                });
            }
            Ok(meta) if meta.len() > 0 => {
                let mut head = [0u8; 16];
                let read = std::fs::File::open(path)
                    .and_then(|mut f| std::io::Read::read(&mut f, &mut head));
                match read {
                    Ok(n) if n == 16 && &head == b"SQLite format 3\0" => {}
                    Ok(_) => {
                        return Err(StoreError::Foreign {
                            path: shown,
                            why: "not an SQLite database".into(),
                        });
                    }
                    Err(e) => {
                        return Err(StoreError::Other {
                            path: shown,
                            why: format!("cannot read it: {e}"),
                        });
                    }
                }
            }
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                    std::fs::create_dir_all(dir).map_err(|e| StoreError::ReadOnly {
                        path: shown.clone(),
                        why: format!("cannot create the folder {}: {e}", dir.display()),
                    })?;
                }
            }
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::NotADirectory | std::io::ErrorKind::PermissionDenied
                ) =>
            {
                return Err(StoreError::ReadOnly {
                    path: shown,
                    why: format!("its folder cannot be made or entered: {e}"),
                });
            }
            Err(e) => {
                return Err(StoreError::Other {
                    path: shown,
                    why: e.to_string(),
                });
            }
        }
        // What killed writes of bterm left in the folder (a backup, a
        // replay) goes, as every write of bterm's does.
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            crate::save::clean_stale_temps(dir);
        }
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_CREATE
            | OpenFlags::SQLITE_OPEN_NO_MUTEX
            | OpenFlags::SQLITE_OPEN_NOFOLLOW;
        let conn = Connection::open_with_flags(path, flags).map_err(|e| sql_error(&shown, &e))?;
        let mut store = Store {
            conn,
            path: path.to_path_buf(),
        };
        // Two bterms opening a new file at once race to set it up (WAL,
        // the schema); SQLite may answer the loser "busy" at once rather
        // than wait. Setting up again is harmless: it only does what is
        // still undone.
        when_busy_again(|| store.prepare())?;
        Ok(store)
    }

    /// An empty collection in memory (for `--no-collect` dry runs and tests).
    pub fn in_memory() -> Result<Store, StoreError> {
        let conn = Connection::open_in_memory().map_err(|e| sql_error(":memory:", &e))?;
        let mut store = Store {
            conn,
            path: PathBuf::from(":memory:"),
        };
        store.prepare()?;
        Ok(store)
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn err(&self, e: &rusqlite::Error) -> StoreError {
        sql_error(&self.path.display().to_string(), e)
    }

    /// Checks whose database it is, sets WAL and brings the schema up to date.
    fn prepare(&mut self) -> Result<(), StoreError> {
        self.conn
            .busy_timeout(BUSY_WAIT)
            .map_err(|e| self.err(&e))?;
        let shown = self.path.display().to_string();
        let (app, version, tables) = self
            .conn
            .query_row(
                "SELECT (SELECT application_id FROM pragma_application_id),
                        (SELECT user_version FROM pragma_user_version),
                        (SELECT count(*) FROM sqlite_schema)",
                [],
                |r| {
                    Ok((
                        r.get::<_, i32>(0)?,
                        r.get::<_, i64>(1)?,
                        r.get::<_, i64>(2)?,
                    ))
                },
            )
            .map_err(|e| self.err(&e))?;
        if app != APP_ID && !(app == 0 && version == 0 && tables == 0) {
            return Err(StoreError::Foreign {
                path: shown,
                why: if app == 0 {
                    "an SQLite database of another program".into()
                } else {
                    format!("an SQLite database with application id {app:#x}")
                },
            });
        }
        // The schema version as bterm writes it: 0 (new) to SCHEMA_VERSION.
        let Ok(version) = u32::try_from(version) else {
            return Err(StoreError::Corrupt {
                path: shown,
                why: format!("its schema version is {version}, which bterm never writes"),
            });
        };
        if version > SCHEMA_VERSION {
            return Err(StoreError::Newer {
                path: shown,
                found: version,
                known: SCHEMA_VERSION,
            });
        }
        if version == 0 && tables > 0 {
            return Err(StoreError::Corrupt {
                path: shown,
                why: format!(
                    "it holds {tables} tables or indexes but no schema version; another program changed it"
                ),
            });
        }
        if self.path != Path::new(":memory:") {
            let mode: String = self
                .conn
                .query_row("PRAGMA journal_mode=WAL", [], |r| r.get(0))
                .map_err(|e| self.err(&e))?;
            if !mode.eq_ignore_ascii_case("wal") {
                return Err(StoreError::ReadOnly {
                    path: shown,
                    why: format!("the journal stays in {mode} mode"),
                });
            }
        }
        self.conn
            .execute_batch("PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON;")
            .map_err(|e| self.err(&e))?;
        if version < SCHEMA_VERSION {
            self.migrate(SCHEMA_VERSION)?;
        }
        Ok(())
    }

    /// Applies the migrations up to `target`, each in its own transaction.
    fn migrate(&mut self, target: u32) -> Result<(), StoreError> {
        loop {
            let tx = self
                .conn
                .transaction_with_behavior(TransactionBehavior::Immediate)
                .map_err(|e| sql_error(&self.path.display().to_string(), &e))?;
            let version: u32 = tx
                .query_row("PRAGMA user_version", [], |r| r.get(0))
                .map_err(|e| sql_error(&self.path.display().to_string(), &e))?;
            if version >= target {
                return Ok(());
            }
            let sql = schema::MIGRATIONS[version as usize];
            tx.execute_batch(sql)
                .and_then(|()| {
                    tx.execute_batch(&format!(
                        "PRAGMA application_id={APP_ID}; PRAGMA user_version={};",
                        version + 1
                    ))
                })
                .and_then(|()| tx.commit())
                .map_err(|e| sql_error(&self.path.display().to_string(), &e))?;
        }
    }

    /// Runs `f` in a write transaction, again if another process held the
    /// database past the busy timeout.
    fn write<T>(
        &mut self,
        mut f: impl FnMut(&rusqlite::Transaction<'_>) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let shown = self.path.display().to_string();
        when_busy_again(|| {
            let tx = self
                .conn
                .transaction_with_behavior(TransactionBehavior::Immediate)
                .map_err(|e| sql_error(&shown, &e))?;
            let value = f(&tx)?;
            tx.commit().map_err(|e| sql_error(&shown, &e))?;
            Ok(value)
        })
    }

    /// Records scans in one transaction, creating the batch with the first
    /// call. A long scan calls this every few hundred files, so that a
    /// killed process keeps what it committed.
    pub fn record(
        &mut self,
        batch: &mut Batch,
        scans: &[NewScan],
    ) -> Result<Vec<Recorded>, StoreError> {
        if scans.is_empty() {
            return Ok(Vec::new());
        }
        let shown = self.path.display().to_string();
        let e = |err: rusqlite::Error| sql_error(&shown, &err);
        let (id, recorded) = self.write(|tx| {
            let id = match batch.id {
                Some(id) => id,
                None => new_batch(tx, &batch.command).map_err(e)?,
            };
            let mut out = Vec::with_capacity(scans.len());
            for s in scans {
                out.push(record_one(tx, id, s).map_err(e)?);
            }
            Ok((id, out))
        })?;
        batch.id = Some(id);
        Ok(recorded)
    }

    /// Owned counts per card (only cards with at least one copy).
    pub fn owned(&self) -> Result<BTreeMap<CardNumber, u32>, StoreError> {
        let mut stmt = self
            .conn
            .prepare_cached(
                "SELECT card, SUM(delta) FROM scans
                 WHERE batch NOT IN (SELECT id FROM batches WHERE undone = 1)
                 GROUP BY card HAVING SUM(delta) > 0",
            )
            .map_err(|e| self.err(&e))?;
        let rows = stmt
            .query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?)))
            .map_err(|e| self.err(&e))?;
        let mut out = BTreeMap::new();
        for row in rows {
            let (card, n) = row.map_err(|e| self.err(&e))?;
            if let Ok(number) = card.parse::<CardNumber>() {
                out.insert(number, u32::try_from(n).unwrap_or(u32::MAX));
            }
        }
        Ok(out)
    }

    /// Copies of one card.
    pub fn count(&self, card: &CardNumber) -> Result<u32, StoreError> {
        count_of(&self.conn, &card.to_string()).map_err(|e| self.err(&e))
    }

    /// The cards the collection has seen that are not in `set` (custom,
    /// wild), with their data.
    pub fn extra_cards(&self, set: &CardSet) -> Result<Vec<CardRef>, StoreError> {
        let mut stmt = self
            .conn
            .prepare("SELECT number, name, data FROM cards ORDER BY number")
            .map_err(|e| self.err(&e))?;
        let rows = stmt
            .query_map([], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, Option<String>>(2)?,
                ))
            })
            .map_err(|e| self.err(&e))?;
        let mut out = Vec::new();
        for row in rows {
            let (number, name, data) = row.map_err(|e| self.err(&e))?;
            if let Ok(number) = number.parse::<CardNumber>()
                && set.get(&number).is_none()
            {
                out.push(CardRef { number, name, data });
            }
        }
        Ok(out)
    }

    /// Whether a card was ever scanned (in any batch, even one undone).
    pub fn ever_scanned(&self, card: &CardNumber) -> Result<bool, StoreError> {
        ever(&self.conn, &card.to_string()).map_err(|e| self.err(&e))
    }

    /// Each copy's condition and note, by card and copy (1 = the first).
    pub fn grades(&self) -> Result<BTreeMap<(CardNumber, u32), Grade>, StoreError> {
        grades_of(&self.conn).map_err(|e| self.err(&e))
    }

    /// Sets the condition and note of copies `from..=to` of a card.
    pub fn grade(
        &mut self,
        command: &str,
        card: &CardNumber,
        copies: std::ops::RangeInclusive<u32>,
        grade: &Grade,
    ) -> Result<(), StoreError> {
        let owned = self.count(card)?;
        if owned == 0 || *copies.end() > owned || *copies.start() == 0 {
            return Err(StoreError::Refused(format!(
                "{card}: the collection holds {owned} {}; copies are numbered 1 to {owned}",
                if owned == 1 { "copy" } else { "copies" }
            )));
        }
        let shown = self.path.display().to_string();
        self.write(|tx| {
            let id = new_batch(tx, command).map_err(|e| sql_error(&shown, &e))?;
            for copy in copies.clone() {
                tx.execute(
                    "INSERT INTO grades(batch, card, copy, condition, note) VALUES (?1, ?2, ?3, ?4, ?5)",
                    params![id, card.to_string(), copy, grade.0, grade.1],
                )
                .map_err(|e| sql_error(&shown, &e))?;
            }
            Ok(())
        })
    }

    /// The batches, newest first, from `since` (seconds since 1970) on.
    pub fn history(&self, since: Option<i64>) -> Result<Vec<BatchSummary>, StoreError> {
        let mut stmt = self
            .conn
            .prepare(
                "SELECT b.id, b.at, b.command, b.undone,
                    (SELECT COALESCE(SUM(delta), 0) FROM scans WHERE batch = b.id AND delta > 0),
                    (SELECT COALESCE(-SUM(delta), 0) FROM scans WHERE batch = b.id AND delta < 0),
                    (SELECT count(*) FROM scans WHERE batch = b.id)
                     + (SELECT count(*) FROM grades WHERE batch = b.id)
                     + (SELECT count(*) FROM enrolments WHERE batch = b.id)
                 FROM batches b WHERE b.at >= ?1 ORDER BY b.id DESC",
            )
            .map_err(|e| self.err(&e))?;
        let rows = stmt
            .query_map([since.unwrap_or(i64::MIN)], |r| {
                Ok(BatchSummary {
                    id: r.get(0)?,
                    at: r.get(1)?,
                    command: r.get(2)?,
                    undone: r.get::<_, i64>(3)? != 0,
                    added: r.get(4)?,
                    removed: r.get(5)?,
                    rows: r.get(6)?,
                })
            })
            .map_err(|e| self.err(&e))?;
        rows.collect::<Result<_, _>>().map_err(|e| self.err(&e))
    }

    /// Takes back the last batch not undone; returns it (`None`: nothing
    /// left to undo).
    pub fn undo(&mut self) -> Result<Option<BatchSummary>, StoreError> {
        let shown = self.path.display().to_string();
        let id = self.write(|tx| {
            let id: Option<i64> = tx
                .query_row("SELECT MAX(id) FROM batches WHERE undone = 0", [], |r| {
                    r.get(0)
                })
                .map_err(|e| sql_error(&shown, &e))?;
            if let Some(id) = id {
                tx.execute("UPDATE batches SET undone = 1 WHERE id = ?1", [id])
                    .map_err(|e| sql_error(&shown, &e))?;
            }
            Ok(id)
        })?;
        let Some(id) = id else { return Ok(None) };
        Ok(self.history(None)?.into_iter().find(|b| b.id == id))
    }

    /// One scan by its id, with its card after any fix.
    pub fn scan(&self, id: i64) -> Result<Option<ScanRow>, StoreError> {
        let row = self
            .conn
            .query_row(
                "SELECT s.id, s.batch, s.card, s.delta, s.origin, s.place,
                    (SELECT f.card FROM scans f JOIN batches fb ON fb.id = f.batch
                     WHERE f.fixes = s.id AND f.delta > 0 AND fb.undone = 0
                     ORDER BY f.id DESC LIMIT 1)
                 FROM scans s WHERE s.id = ?1 AND s.fixes IS NULL",
                [id],
                |r| {
                    Ok((
                        r.get::<_, i64>(0)?,
                        r.get::<_, i64>(1)?,
                        r.get::<_, String>(2)?,
                        r.get::<_, i64>(3)?,
                        r.get::<_, String>(4)?,
                        r.get::<_, Option<String>>(5)?,
                        r.get::<_, Option<String>>(6)?,
                    ))
                },
            )
            .optional()
            .map_err(|e| self.err(&e))?;
        Ok(
            row.and_then(|(id, batch, card, delta, origin, place, fixed)| {
                let card = fixed.unwrap_or(card).parse().ok()?;
                Some(ScanRow {
                    id,
                    batch,
                    card,
                    delta,
                    origin,
                    place,
                })
            }),
        )
    }

    /// Corrects the card of a scan that counted: its copy moves from the
    /// card it read to `card`. Returns the card it was.
    pub fn fix(
        &mut self,
        command: &str,
        id: i64,
        card: &CardRef,
    ) -> Result<CardNumber, StoreError> {
        let Some(scan) = self.scan(id)? else {
            return Err(StoreError::Refused(format!(
                "there is no scan {id}; `bterm collection history` and `collection list --scans` show the scans"
            )));
        };
        let undone: bool = self
            .conn
            .query_row(
                "SELECT undone FROM batches WHERE id = ?1",
                [scan.batch],
                |r| r.get::<_, i64>(0),
            )
            .map_err(|e| self.err(&e))?
            != 0;
        if undone {
            return Err(StoreError::Refused(format!(
                "scan {id} was undone; there is nothing to fix"
            )));
        }
        if scan.delta == 0 {
            return Err(StoreError::Refused(format!(
                "scan {id} added no copy (it repeated an earlier scan or removed a card not held); fix the scan that counted"
            )));
        }
        if scan.card == card.number {
            return Err(StoreError::Refused(format!(
                "scan {id} is already {}",
                card.number
            )));
        }
        let old = scan.card;
        let shown = self.path.display().to_string();
        self.write(|tx| {
            let e = |err: rusqlite::Error| sql_error(&shown, &err);
            let batch = new_batch(tx, command).map_err(e)?;
            remember_card(tx, card).map_err(e)?;
            let n = scan.delta;
            for (c, d) in [(old.to_string(), -n), (card.number.to_string(), n)] {
                tx.execute(
                    "INSERT INTO scans(batch, card, delta, origin, fixes) VALUES (?1, ?2, ?3, 'fix', ?4)",
                    params![batch, c, d, id],
                )
                .map_err(e)?;
            }
            Ok(())
        })?;
        Ok(old)
    }

    /// The latest `n` scans (not fixes), newest first.
    pub fn recent_scans(&self, n: u32) -> Result<Vec<ScanRow>, StoreError> {
        let ids: Vec<i64> = self
            .conn
            .prepare("SELECT id FROM scans WHERE fixes IS NULL ORDER BY id DESC LIMIT ?1")
            .and_then(|mut st| {
                st.query_map([n], |r| r.get(0))?
                    .collect::<Result<Vec<i64>, _>>()
            })
            .map_err(|e| self.err(&e))?;
        let mut out = Vec::with_capacity(ids.len());
        for id in ids {
            out.extend(self.scan(id)?);
        }
        Ok(out)
    }

    /// The enrolled barcodes: (symbology, text, card).
    pub fn enrolments(&self) -> Result<Vec<(String, String, CardNumber)>, StoreError> {
        let mut stmt = self
            .conn
            .prepare(
                "SELECT e.format, e.code, e.card FROM enrolments e JOIN batches b ON b.id = e.batch
                 WHERE b.undone = 0 ORDER BY e.id",
            )
            .map_err(|e| self.err(&e))?;
        let rows = stmt
            .query_map([], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                ))
            })
            .map_err(|e| self.err(&e))?;
        // Latest wins.
        let mut map: BTreeMap<(String, String), CardNumber> = BTreeMap::new();
        for row in rows {
            let (format, code, card) = row.map_err(|e| self.err(&e))?;
            if let Ok(card) = card.parse() {
                map.insert((format, code), card);
            }
        }
        Ok(map.into_iter().map(|((f, c), n)| (f, c, n)).collect())
    }

    /// Binds a barcode to a card; returns the card it was bound to before.
    pub fn enrol(
        &mut self,
        command: &str,
        format: &str,
        code: &str,
        card: &CardNumber,
    ) -> Result<Option<CardNumber>, StoreError> {
        let before = self
            .enrolments()?
            .into_iter()
            .find(|(f, c, _)| f == format && c == code)
            .map(|(_, _, n)| n);
        let shown = self.path.display().to_string();
        self.write(|tx| {
            let e = |err: rusqlite::Error| sql_error(&shown, &err);
            let batch = new_batch(tx, command).map_err(e)?;
            tx.execute(
                "INSERT INTO enrolments(batch, format, code, card) VALUES (?1, ?2, ?3, ?4)",
                params![batch, format, code, card.to_string()],
            )
            .map_err(e)?;
            Ok(())
        })?;
        Ok(before)
    }

    /// Imports enrolments from the old `enrolled.ron` once: the first call
    /// records them and marks the import done; later calls do nothing.
    /// Returns how many were imported.
    pub fn import_enrolments_once(
        &mut self,
        source: &str,
        entries: &[(String, String, CardNumber)],
    ) -> Result<usize, StoreError> {
        let shown = self.path.display().to_string();
        let key = format!("imported {source}");
        self.write(|tx| {
            let e = |err: rusqlite::Error| sql_error(&shown, &err);
            let done: Option<String> = tx
                .query_row("SELECT value FROM meta WHERE key = ?1", [&key], |r| {
                    r.get(0)
                })
                .optional()
                .map_err(e)?;
            if done.is_some() {
                return Ok(0);
            }
            if !entries.is_empty() {
                let batch =
                    new_batch(tx, &format!("import the enrolments of {source}")).map_err(e)?;
                for (format, code, card) in entries {
                    tx.execute(
                        "INSERT INTO enrolments(batch, format, code, card) VALUES (?1, ?2, ?3, ?4)",
                        params![batch, format, code, card.to_string()],
                    )
                    .map_err(e)?;
                }
            }
            tx.execute(
                "INSERT INTO meta(key, value) VALUES (?1, ?2)",
                params![key, time::format(time::now())],
            )
            .map_err(e)?;
            Ok(entries.len())
        })
    }

    /// Makes the collection match CSV rows already checked: for each card in
    /// them, its count becomes the rows' total and its copies take the rows'
    /// conditions and notes in order. Cards not in the rows are left alone.
    /// Importing the same rows again changes nothing. All in one
    /// transaction: nothing is written if anything fails.
    pub fn import(
        &mut self,
        command: &str,
        rows: &[(CardRef, u32, Grade)],
    ) -> Result<ImportSummary, StoreError> {
        self.import_with_progress(command, rows, &mut |_| {})
    }

    /// [`Store::import`], telling `progress` how many cards are done.
    pub fn import_with_progress(
        &mut self,
        command: &str,
        rows: &[(CardRef, u32, Grade)],
        progress: &mut dyn FnMut(usize),
    ) -> Result<ImportSummary, StoreError> {
        // Each card's copies as runs of one grade: memory stays flat in the
        // number of copies.
        let mut wanted: BTreeMap<CardNumber, Wanted> = BTreeMap::new();
        for (card, count, grade) in rows {
            let entry = wanted
                .entry(card.number)
                .or_insert_with(|| (card.clone(), Vec::new(), 0));
            entry.1.push((grade.clone(), *count));
            entry.2 = entry.2.saturating_add(*count);
            if entry.2 > csv::MAX_COUNT {
                return Err(StoreError::Refused(format!(
                    "{}: {} copies in the rows; bterm keeps at most {} of a card",
                    card.number,
                    entry.2,
                    csv::MAX_COUNT
                )));
            }
        }
        let shown = self.path.display().to_string();
        self.write(|tx| {
            let e = |err: rusqlite::Error| sql_error(&shown, &err);
            let grades = grades_of(tx).map_err(e)?;
            let mut summary = ImportSummary::default();
            let mut batch = None;
            let mut batch_id = |tx: &rusqlite::Transaction<'_>| -> Result<i64, rusqlite::Error> {
                if let Some(id) = batch {
                    return Ok(id);
                }
                let id = new_batch(tx, command)?;
                batch = Some(id);
                Ok(id)
            };
            for (done, (number, (card, runs, total))) in wanted.iter().enumerate() {
                if done % 256 == 0 {
                    progress(done);
                }
                let now = i64::from(count_of(tx, &number.to_string()).map_err(e)?);
                let target = i64::from(*total);
                if target != now {
                    let id = batch_id(tx).map_err(e)?;
                    remember_card(tx, card).map_err(e)?;
                    tx.execute(
                        "INSERT INTO scans(batch, card, delta, origin) VALUES (?1, ?2, ?3, 'import')",
                        params![id, number.to_string(), target - now],
                    )
                    .map_err(e)?;
                    summary.counts += 1;
                }
                let blank = (String::new(), String::new());
                let mut first = 1u32;
                for (grade, n) in runs {
                    let last = first + n;
                    // A blank run changes only the copies graded now; a
                    // graded run writes each of its copies that differs.
                    let changes: Vec<u32> = if *grade == blank {
                        grades
                            .range((*number, first)..(*number, last))
                            .filter(|(_, g)| **g != blank)
                            .map(|((_, copy), _)| *copy)
                            .collect()
                    } else {
                        (first..last)
                            .filter(|copy| grades.get(&(*number, *copy)).unwrap_or(&blank) != grade)
                            .collect()
                    };
                    for copy in changes {
                        let id = batch_id(tx).map_err(e)?;
                        tx.execute(
                            "INSERT INTO grades(batch, card, copy, condition, note) VALUES (?1, ?2, ?3, ?4, ?5)",
                            params![id, number.to_string(), copy, grade.0, grade.1],
                        )
                        .map_err(e)?;
                        summary.grades += 1;
                    }
                    first = last;
                }
            }
            Ok(summary)
        })
    }

    /// Copies the collection to `dest` with SQLite's online backup (safe
    /// while another bterm writes), through a temporary file renamed into
    /// place. `dest` must not exist unless `force`.
    pub fn backup(&self, dest: &Path, force: bool) -> Result<(), StoreError> {
        let shown = dest.display().to_string();
        if !force && std::fs::symlink_metadata(dest).is_ok() {
            return Err(StoreError::Refused(format!(
                "{shown} already exists; name another file, or add --force to replace it"
            )));
        }
        crate::save::replaceable(dest).map_err(StoreError::Refused)?;
        let (dir, tmp) = crate::save::temp_path(dest);
        crate::save::clean_stale_temps(&dir);
        let _ = std::fs::remove_file(&tmp);
        let result = (|| {
            let mut out = Connection::open(&tmp)?;
            {
                let backup = rusqlite::backup::Backup::new(&self.conn, &mut out)?;
                backup.run_to_completion(256, Duration::from_millis(10), None)?;
            }
            // One self-contained file: no WAL beside it.
            out.query_row("PRAGMA journal_mode=DELETE", [], |r| r.get::<_, String>(0))?;
            out.close().map_err(|(_, e)| e)
        })();
        if let Err(e) = result {
            let _ = std::fs::remove_file(&tmp);
            return Err(sql_error(&shown, &e));
        }
        std::fs::rename(&tmp, dest).map_err(|e| {
            let _ = std::fs::remove_file(&tmp);
            StoreError::Other {
                path: shown,
                why: format!("cannot write the backup: {e}"),
            }
        })
    }

    /// Replaces the collection with a backup, after checking the backup is
    /// a sound bterm collection. The collection as it was is first saved
    /// beside it (`….before-restore-N`); returns that file.
    pub fn restore(&mut self, src: &Path) -> Result<PathBuf, StoreError> {
        // Checked as a collection of its own: header, owner, schema, pages.
        let source = Store::open_checked(src)?;
        let mut n = 1;
        let keep = loop {
            let mut p = self.path.as_os_str().to_owned();
            p.push(format!(".before-restore-{n}"));
            let p = PathBuf::from(p);
            if std::fs::symlink_metadata(&p).is_err() {
                break p;
            }
            n += 1;
        };
        self.backup(&keep, false)?;
        {
            let shown = self.path.display().to_string();
            let backup = rusqlite::backup::Backup::new(&source.conn, &mut self.conn)
                .map_err(|e| sql_error(&shown, &e))?;
            backup
                .run_to_completion(256, Duration::from_millis(10), None)
                .map_err(|e| sql_error(&self.path.display().to_string(), &e))?;
        }
        drop(source);
        self.conn
            .query_row("PRAGMA journal_mode=WAL", [], |r| r.get::<_, String>(0))
            .map_err(|e| self.err(&e))?;
        self.migrate(SCHEMA_VERSION)?;
        Ok(keep)
    }

    /// Opens an existing file read-only and checks it whole: a bterm
    /// collection, a schema this build knows, every page sound.
    pub fn open_checked(path: &Path) -> Result<Store, StoreError> {
        let shown = path.display().to_string();
        match std::fs::symlink_metadata(path) {
            Ok(m) if m.is_file() => {}
            Ok(_) => {
                return Err(StoreError::Foreign {
                    path: shown,
                    why: "not a regular file".into(),
                });
            }
            Err(e) => {
                return Err(StoreError::Other {
                    path: shown,
                    why: format!("cannot read it: {e}"),
                });
            }
        }
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(|e| sql_error(&shown, &e))?;
        let (app, version): (i32, i64) = conn
            .query_row(
                "SELECT (SELECT application_id FROM pragma_application_id),
                        (SELECT user_version FROM pragma_user_version)",
                [],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .map_err(|e| sql_error(&shown, &e))?;
        if app != APP_ID {
            return Err(StoreError::Foreign {
                path: shown,
                why: "no bterm collection inside".into(),
            });
        }
        // The schema version as bterm writes it: 0 (new) to SCHEMA_VERSION.
        let Ok(version) = u32::try_from(version) else {
            return Err(StoreError::Corrupt {
                path: shown,
                why: format!("its schema version is {version}, which bterm never writes"),
            });
        };
        if version > SCHEMA_VERSION {
            return Err(StoreError::Newer {
                path: shown,
                found: version,
                known: SCHEMA_VERSION,
            });
        }
        if version == 0 {
            return Err(StoreError::Corrupt {
                path: shown,
                why: "it has no schema version: a backup bterm wrote always has one".into(),
            });
        }
        let store = Store {
            conn,
            path: path.to_path_buf(),
        };
        let check = store.integrity()?;
        if check != "ok" {
            return Err(StoreError::Corrupt {
                path: shown,
                why: check,
            });
        }
        // Only the schema bterm makes: a trigger or a view brought in by a
        // file could change the collection behind bterm's back.
        let strangers = store.strangers()?;
        if !strangers.is_empty() {
            return Err(StoreError::Corrupt {
                path: shown,
                why: format!(
                    "it holds {} that bterm never makes (a backup bterm wrote has none; a trigger could change or delete scans behind bterm's back)",
                    strangers.join(", ")
                ),
            });
        }
        Ok(store)
    }

    /// Every table, index, view or trigger of the file that bterm's schema
    /// does not make ("trigger wipe", …), shortened and cleaned for a
    /// message.
    pub fn strangers(&self) -> Result<Vec<String>, StoreError> {
        const TABLES: &[&str] = &[
            "batches",
            "cards",
            "scans",
            "grades",
            "enrolments",
            "meta",
            "battles",
            "battle_seats",
            "battle_cards",
        ];
        const INDEXES: &[&str] = &[
            "scans_card",
            "scans_batch",
            "scans_digest",
            "enrolments_code",
            "battle_cards_card",
        ];
        let mut stmt = self
            .conn
            .prepare("SELECT type, name FROM sqlite_master")
            .map_err(|e| self.err(&e))?;
        let rows: Vec<(String, String)> = stmt
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .map_err(|e| self.err(&e))?
            .collect::<Result<_, _>>()
            .map_err(|e| self.err(&e))?;
        Ok(rows
            .into_iter()
            .filter(|(kind, name)| {
                let known = match kind.as_str() {
                    "table" => TABLES.contains(&name.as_str()),
                    "index" => INDEXES.contains(&name.as_str()),
                    _ => false,
                };
                !known && !name.starts_with("sqlite_")
            })
            .take(8)
            .map(|(kind, name)| {
                let name: String = name.chars().filter(|c| !c.is_control()).take(40).collect();
                format!("a {kind} \"{name}\"")
            })
            .collect())
    }

    /// `PRAGMA integrity_check`: "ok", or what is wrong.
    pub fn integrity(&self) -> Result<String, StoreError> {
        let mut stmt = self
            .conn
            .prepare("PRAGMA integrity_check")
            .map_err(|e| self.err(&e))?;
        let lines: Vec<String> = stmt
            .query_map([], |r| r.get(0))
            .map_err(|e| self.err(&e))?
            .collect::<Result<_, _>>()
            .map_err(|e| self.err(&e))?;
        Ok(lines.join("; "))
    }

    /// The schema version of the file.
    pub fn schema_version(&self) -> Result<u32, StoreError> {
        self.conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .map_err(|e| self.err(&e))
    }

    /// The connection, for the rankings.
    fn conn(&self) -> &Connection {
        &self.conn
    }
}

/// A card an import wants: its reference, its copies as runs of one
/// grade, and how many in all.
type Wanted = (CardRef, Vec<(Grade, u32)>, u32);

/// A new batch row.
fn new_batch(tx: &Connection, command: &str) -> Result<i64, rusqlite::Error> {
    tx.execute(
        "INSERT INTO batches(at, command) VALUES (?1, ?2)",
        params![time::now(), command],
    )?;
    Ok(tx.last_insert_rowid())
}

/// Keeps a card's name and data (first seen wins: a barcode is the same
/// card forever).
fn remember_card(tx: &Connection, card: &CardRef) -> Result<(), rusqlite::Error> {
    tx.execute(
        "INSERT OR IGNORE INTO cards(number, name, data) VALUES (?1, ?2, ?3)",
        params![card.number.to_string(), card.name, card.data],
    )?;
    Ok(())
}

fn count_of(conn: &Connection, card: &str) -> Result<u32, rusqlite::Error> {
    let n: i64 = conn
        .prepare_cached(
            "SELECT COALESCE(SUM(delta), 0) FROM scans
             WHERE card = ?1 AND batch NOT IN (SELECT id FROM batches WHERE undone = 1)",
        )?
        .query_row([card], |r| r.get(0))?;
    Ok(u32::try_from(n.max(0)).unwrap_or(u32::MAX))
}

fn ever(conn: &Connection, card: &str) -> Result<bool, rusqlite::Error> {
    conn.prepare_cached(
        "SELECT EXISTS(SELECT 1 FROM scans WHERE card = ?1 AND origin IN ('file', 'camera'))",
    )?
    .query_row([card], |r| r.get(0))
}

fn grades_of(conn: &Connection) -> Result<BTreeMap<(CardNumber, u32), Grade>, rusqlite::Error> {
    let mut stmt = conn.prepare_cached(
        "SELECT g.card, g.copy, g.condition, g.note FROM grades g JOIN batches b ON b.id = g.batch
         WHERE b.undone = 0 ORDER BY g.id",
    )?;
    let rows = stmt.query_map([], |r| {
        Ok((
            r.get::<_, String>(0)?,
            r.get::<_, u32>(1)?,
            r.get::<_, String>(2)?,
            r.get::<_, String>(3)?,
        ))
    })?;
    let mut out = BTreeMap::new();
    for row in rows {
        let (card, copy, condition, note) = row?;
        if let Ok(card) = card.parse() {
            out.insert((card, copy), (condition, note));
        }
    }
    Ok(out)
}

/// Records one scan in a batch.
fn record_one(tx: &Connection, batch: i64, s: &NewScan) -> Result<Recorded, rusqlite::Error> {
    let card = s.card.number.to_string();
    let first_ever =
        matches!(s.origin, Origin::File | Origin::Camera) && !s.remove && !ever(tx, &card)?;
    remember_card(tx, &s.card)?;
    let sign: i64 = if s.remove { -1 } else { 1 };
    // A picture already counted (same content, same direction, not undone)
    // counts no more.
    let repeat: Option<i64> = match &s.digest {
        Some(d) => tx
            .prepare_cached(
                "SELECT s.id FROM scans s JOIN batches b ON b.id = s.batch
                 WHERE s.digest = ?1 AND b.undone = 0 AND s.delta * ?2 > 0 LIMIT 1",
            )?
            .query_row(params![d, sign], |r| r.get(0))
            .optional()?,
        None => None,
    };
    let (delta, counted) = if let Some(of) = repeat {
        (0, Counted::Rescan(of))
    } else if s.remove {
        let held = count_of(tx, &card)?;
        let n = s.count.min(held);
        if n == 0 {
            (0, Counted::NotOwned)
        } else {
            (-i64::from(n), Counted::Removed(n))
        }
    } else {
        (i64::from(s.count), Counted::Added(s.count))
    };
    let (format, code) = match &s.code {
        Some((f, c)) => (Some(f.as_str()), Some(c.as_str())),
        None => (None, None),
    };
    tx.prepare_cached(
        "INSERT INTO scans(batch, card, delta, origin, place, format, code, digest)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
    )?
    .execute(params![
        batch,
        card,
        delta,
        s.origin.as_str(),
        s.place,
        format,
        code,
        s.digest
    ])?;
    Ok(Recorded {
        scan: tx.last_insert_rowid(),
        counted,
        first_ever,
    })
}

/// SQLite's answer as a [`StoreError`] naming the file.
/// Runs `f` again, after a growing pause, while another process keeps the
/// database busy past SQLite's own wait (up to 8 tries in all).
fn when_busy_again<T>(mut f: impl FnMut() -> Result<T, StoreError>) -> Result<T, StoreError> {
    let mut tries = 0;
    loop {
        tries += 1;
        match f() {
            Err(StoreError::Busy { .. }) if tries < 8 => {
                std::thread::sleep(Duration::from_millis(40 * tries));
            }
            other => return other,
        }
    }
}

fn sql_error(path: &str, e: &rusqlite::Error) -> StoreError {
    let path = path.to_string();
    let why = e.to_string();
    match e.sqlite_error_code() {
        Some(ErrorCode::NotADatabase) => StoreError::Foreign {
            path,
            why: "not an SQLite database".into(),
        },
        Some(ErrorCode::DatabaseCorrupt) => StoreError::Corrupt { path, why },
        Some(ErrorCode::ReadOnly | ErrorCode::CannotOpen | ErrorCode::PermissionDenied) => {
            StoreError::ReadOnly { path, why }
        }
        Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => StoreError::Busy { path },
        _ => StoreError::Other { path, why },
    }
}

/// The digest kept for a picture file, from the fingerprint of its bytes
/// (`FileReport::content`): the same bytes are the same scan.
pub fn digest(content: u64) -> String {
    format!("{content:016x}")
}

#[cfg(test)]
mod tests;
