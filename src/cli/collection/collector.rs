//! The collection's part of `bterm scan` and `enroll`: each card read is
//! recorded (in transactions of [`CHUNK`] scans) and tallied.

use super::*;

/// The collection's side of `bterm scan`: scans recorded in batches of a
/// few hundred (each its own transaction), counted for the summary.
pub(in crate::cli) struct Collector {
    pub(super) store: Option<Store>,
    /// Why there is no store (the scan still reads).
    pub unavailable: Option<String>,
    pub(super) batch: Batch,
    pub(super) pending: Vec<NewScan>,
    pub(super) last_flush: std::time::Instant,
    /// The tally so far.
    pub tally: Tally,
    pub(super) remove: bool,
}

/// What a scan did to the collection.
#[derive(Debug, Default, Clone, Copy)]
pub(in crate::cli) struct Tally {
    pub added: u32,
    pub removed: u32,
    pub new_cards: u32,
    pub rescans: u32,
    pub not_owned: u32,
}

/// Scans recorded per transaction.
pub(super) const CHUNK: usize = 256;

impl Collector {
    /// A collector for the collection at `db` (or the data folder's); if it
    /// cannot be opened, the reason is kept and nothing is recorded.
    pub fn open(db: Option<&Path>, command: String, remove: bool) -> Collector {
        let (store, unavailable) = match collection::default_path(db).and_then(|p| Store::open(&p))
        {
            Ok(s) => (Some(s), None),
            Err(e) => (None, Some(e.to_string())),
        };
        Collector {
            store,
            unavailable,
            batch: Batch::new(command),
            pending: Vec::new(),
            last_flush: std::time::Instant::now(),
            tally: Tally::default(),
            remove,
        }
    }

    /// The store, for the enrolments.
    pub fn store_mut(&mut self) -> Option<&mut Store> {
        self.store.as_mut()
    }

    /// Queues a scan; writes the queue when it is long or old.
    pub fn add(&mut self, mut scan: NewScan) {
        scan.remove = self.remove;
        self.pending.push(scan);
        if self.pending.len() >= CHUNK || self.last_flush.elapsed().as_secs() >= 2 {
            self.flush();
        }
    }

    /// Records one scan now (a camera's card), saying whether it was new.
    pub fn add_now(&mut self, mut scan: NewScan) -> Option<Recorded> {
        scan.remove = self.remove;
        self.pending.push(scan);
        self.flush().into_iter().next()
    }

    /// Writes what is queued.
    pub fn flush(&mut self) -> Vec<Recorded> {
        self.last_flush = std::time::Instant::now();
        let pending = std::mem::take(&mut self.pending);
        let Some(store) = self.store.as_mut() else {
            return Vec::new();
        };
        match store.record(&mut self.batch, &pending) {
            Ok(recorded) => {
                for r in &recorded {
                    match r.counted {
                        Counted::Added(n) => self.tally.added += n,
                        Counted::Removed(n) => self.tally.removed += n,
                        Counted::Rescan(_) => self.tally.rescans += 1,
                        Counted::NotOwned => self.tally.not_owned += 1,
                    }
                    self.tally.new_cards += u32::from(r.first_ever);
                }
                recorded
            }
            Err(e) => {
                self.unavailable = Some(e.to_string());
                self.store = None;
                Vec::new()
            }
        }
    }

    /// The summary line (to stderr), or the error that kept the scans out.
    pub fn finish(mut self) -> Result<(), CliError> {
        self.flush();
        if let Some(why) = self.unavailable {
            return Err(CliError::failed(format!(
                "error: the cards were read but not collected: {why}\n(`bterm scan --no-collect` only reads)"
            )));
        }
        let t = self.tally;
        if self.remove {
            eprintln!(
                "collection: {} taken out{}{}; `bterm collection undo` puts them back",
                plural(t.removed, "copy", "copies"),
                if t.not_owned > 0 {
                    format!(
                        ", {} not in the collection",
                        plural(t.not_owned, "card was", "cards were")
                    )
                } else {
                    String::new()
                },
                if t.rescans > 0 {
                    format!(
                        ", {} already taken out",
                        plural(t.rescans, "picture", "pictures")
                    )
                } else {
                    String::new()
                }
            );
        } else {
            let added = match t.added {
                0 => "0 copies added".to_string(),
                n => format!(
                    "{} added ({} never scanned before)",
                    plural(n, "copy", "copies"),
                    plural(t.new_cards, "card", "cards")
                ),
            };
            let undo = match t.added {
                0 => "",
                1 => "; `bterm collection undo` takes it back",
                _ => "; `bterm collection undo` takes them back",
            };
            eprintln!(
                "collection: {added}{}{undo}",
                if t.rescans > 0 {
                    format!(
                        ", {} already counted",
                        plural(
                            t.rescans,
                            "picture scanned before was",
                            "pictures scanned before were"
                        )
                    )
                } else {
                    String::new()
                }
            );
        }
        Ok(())
    }
}
