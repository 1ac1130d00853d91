//! `bterm collection …`, `bterm rankings` and the collection's part of
//! `bterm scan`, `enroll`, `deck check --owned` and `battle`: the text
//! front of `crate::collection`.

use std::collections::BTreeMap;
use std::io::{IsTerminal as _, Write as _};
use std::path::{Path, PathBuf};

use clap::{Args, Subcommand};

use super::{CliError, escape, escape_lines, load_set};
use crate::cards::{Card, CardNumber, CardSet, Field};
use crate::collection::csv::{self, Row};
use crate::collection::rankings::{BattleRecord, Rankings};
use crate::collection::sets::Sets;
use crate::collection::{
    self, Batch, CardRef, Counted, Grade, NewScan, Origin, Recorded, Store, StoreError, time,
};
use crate::rules::alpha::deck;

mod change;
mod collector;
mod transfer;
mod view;

use change::*;
pub(super) use collector::Collector;
use transfer::*;
use view::*;

/// Where the collection is, and which cards name its numbers.
#[derive(Debug, Clone, Args)]
pub struct DbArgs {
    /// The collection's database (default: `collection.sqlite` in the data folder).
    #[arg(long, value_name = "FILE")]
    pub db: Option<PathBuf>,
    /// Card files to use instead of the built-in sample set.
    #[arg(long, value_name = "PATH")]
    pub cards: Option<PathBuf>,
}

/// `bterm collection`.
#[derive(Debug, Subcommand)]
pub enum CollectionCommand {
    /// Add copies of cards typed by number or name.
    Add {
        /// Card numbers or names.
        #[arg(required = true, value_name = "NUMBER")]
        numbers: Vec<String>,
        /// Copies of each.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=10_000))]
        count: u32,
        /// Where the collection is.
        #[command(flatten)]
        db: DbArgs,
    },
    /// Take copies out (traded away, lost).
    Remove {
        /// Card numbers or names.
        #[arg(required = true, value_name = "NUMBER")]
        numbers: Vec<String>,
        /// Copies of each.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=10_000))]
        count: u32,
        /// Where the collection is.
        #[command(flatten)]
        db: DbArgs,
    },
    /// The cards you own, with their counts.
    List {
        /// Only this printed set (its id or name; `collection sets` lists them).
        #[arg(long, value_name = "SET")]
        set: Option<String>,
        /// Only Digimon of this Field (a name or its abbreviation: DR, NSp, …).
        #[arg(long, value_name = "FIELD")]
        field: Option<String>,
        /// One JSON document on stdout.
        #[arg(long)]
        json: bool,
        /// Where the collection is.
        #[command(flatten)]
        db: DbArgs,
    },
    /// Each printed set: cards owned of its total.
    Sets {
        /// Where the collection is.
        #[command(flatten)]
        db: DbArgs,
    },
    /// The cards of a set you do not own yet.
    Missing {
        /// The set's id or name (left out: the sets to choose from).
        set: Option<String>,
        /// Where the collection is.
        #[command(flatten)]
        db: DbArgs,
    },
    /// Copies beyond what a deck may use: a trade list.
    Doubles {
        /// Where the collection is.
        #[command(flatten)]
        db: DbArgs,
    },
    /// The scans recorded (the ids `collection fix` takes), newest first.
    Scans {
        /// How many to show.
        #[arg(long, default_value_t = 20)]
        last: u32,
        /// Where the collection is.
        #[command(flatten)]
        db: DbArgs,
    },
    /// Every change, newest first.
    History {
        /// Only changes from this day on (YYYY-MM-DD, UTC).
        #[arg(long, value_name = "DATE")]
        since: Option<String>,
        /// Where the collection is.
        #[command(flatten)]
        db: DbArgs,
    },
    /// Take back the last scan batch or command.
    Undo {
        /// Where the collection is.
        #[command(flatten)]
        db: DbArgs,
    },
    /// Correct the card of one scan (a misread): `collection scans` shows the ids.
    Fix {
        /// The scan's id.
        scan: i64,
        /// The card it really is.
        card: String,
        /// Where the collection is.
        #[command(flatten)]
        db: DbArgs,
    },
    /// Set the condition and note of copies of a card.
    Grade {
        /// The card.
        card: String,
        /// Which copies: one (`2`) or a range (`1-3`); default all.
        #[arg(long, value_name = "K|A-B")]
        copies: Option<String>,
        /// The condition (free text: mint, near mint, played, …).
        #[arg(long, default_value = "")]
        condition: String,
        /// A note.
        #[arg(long, default_value = "")]
        note: String,
        /// Where the collection is.
        #[command(flatten)]
        db: DbArgs,
    },
    /// Write the collection as CSV (number, name, set, count, condition, note).
    Export {
        /// The CSV file to write.
        #[arg(long, value_name = "FILE")]
        csv: PathBuf,
        /// Replace the file if it exists.
        #[arg(long)]
        force: bool,
        /// Where the collection is.
        #[command(flatten)]
        db: DbArgs,
    },
    /// Make the collection match a CSV file (as `export` writes it); again changes nothing.
    Import {
        /// The CSV file to read.
        #[arg(long, value_name = "FILE")]
        csv: PathBuf,
        /// Where the collection is.
        #[command(flatten)]
        db: DbArgs,
    },
    /// Copy the collection to a file (safe while another bterm writes).
    Backup {
        /// The backup file.
        file: PathBuf,
        /// Replace the file if it exists.
        #[arg(long)]
        force: bool,
        /// Where the collection is.
        #[command(flatten)]
        db: DbArgs,
    },
    /// Replace the collection with a backup (the current one is kept beside it).
    Restore {
        /// The backup file.
        file: PathBuf,
        /// Where the collection is.
        #[command(flatten)]
        db: DbArgs,
    },
    /// Which shipped decks you can build from what you own, and what you lack.
    Decks {
        /// Where the collection is.
        #[command(flatten)]
        db: DbArgs,
    },
    /// Check the database (SQLite's integrity check) and say what it holds.
    Check {
        /// Where the collection is.
        #[command(flatten)]
        db: DbArgs,
    },
}

/// `bterm rankings`.
#[derive(Debug, Args)]
pub struct RankingsArgs {
    /// Rows of cards and teams to show.
    #[arg(long, default_value_t = 10)]
    pub top: usize,
    /// Where the collection is.
    #[command(flatten)]
    pub db: DbArgs,
}

fn fail(e: StoreError) -> CliError {
    CliError::failed(format!("error: {e}"))
}

/// Opens the collection the options name.
pub(super) fn open(db: Option<&Path>) -> Result<Store, CliError> {
    let path = collection::default_path(db).map_err(fail)?;
    Store::open(&path).map_err(fail)
}

/// The card set plus the collection's own cards (custom, wild).
fn full_set(set: &CardSet, store: &Store) -> CardSet {
    let extra: Vec<Card> = store
        .extra_cards(set)
        .unwrap_or_default()
        .into_iter()
        .filter_map(|c| crate::cards::read_ron::<Card>(c.data.as_deref()?).ok())
        .collect();
    match set.extended(&extra) {
        Ok(s) => s.into_owned(),
        Err(_) => set.clone(),
    }
}

/// A card the collection holds that is in no card set (a wild Digimon, a
/// custom card), by its number; `None` without a collection (none is
/// made) or without that card.
pub(super) fn held_card(number: &str, set: &CardSet) -> Option<Card> {
    let n: CardNumber = number.trim().parse().ok()?;
    let path = collection::default_path(None).ok()?;
    if !path.is_file() {
        return None;
    }
    let store = Store::open_checked(&path).ok()?;
    full_set(set, &store).get(&n).cloned()
}

/// A card of the set as the collection keeps it.
pub(super) fn card_ref(card: &Card, in_set: bool) -> CardRef {
    CardRef {
        number: card.number(),
        name: card.name().to_string(),
        data: if in_set {
            None
        } else {
            crate::cards::write_ron(card).ok()
        },
    }
}

fn name_of(set: &CardSet, number: &CardNumber) -> String {
    set.get(number)
        .map_or_else(|| "(unknown card)".to_string(), |c| c.name().to_string())
}

fn plural(n: impl Into<i64>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { one } else { many })
}

/// `bterm collection …`.
pub(super) fn collection(c: CollectionCommand) -> Result<(), CliError> {
    let mut out = std::io::stdout().lock();
    let mut say = |line: String| -> Result<(), CliError> {
        writeln!(out, "{line}").map_err(super::output_error)
    };
    match c {
        CollectionCommand::Add { numbers, count, db } => {
            change(&numbers, count, false, &db, &mut say)
        }
        CollectionCommand::Remove { numbers, count, db } => {
            change(&numbers, count, true, &db, &mut say)
        }
        CollectionCommand::List {
            set,
            field,
            json,
            db,
        } => list(set.as_deref(), field.as_deref(), json, &db, &mut say),
        CollectionCommand::Sets { db } => sets(&db, &mut say),
        CollectionCommand::Missing { set, db } => missing(set.as_deref(), &db, &mut say),
        CollectionCommand::Doubles { db } => doubles(&db, &mut say),
        CollectionCommand::Scans { last, db } => scans(last, &db, &mut say),
        CollectionCommand::History { since, db } => history(since.as_deref(), &db, &mut say),
        CollectionCommand::Undo { db } => undo(&db, &mut say),
        CollectionCommand::Fix { scan, card, db } => fix(scan, &card, &db, &mut say),
        CollectionCommand::Grade {
            card,
            copies,
            condition,
            note,
            db,
        } => grade(&card, copies.as_deref(), &condition, &note, &db, &mut say),
        CollectionCommand::Export { csv, force, db } => export(&csv, force, &db, &mut say),
        CollectionCommand::Import { csv, db } => import(&csv, &db, &mut say),
        CollectionCommand::Backup { file, force, db } => backup(&file, force, &db, &mut say),
        CollectionCommand::Restore { file, db } => restore(&file, &db, &mut say),
        CollectionCommand::Decks { db } => decks(&db, &mut say),
        CollectionCommand::Check { db } => check(&db, &mut say),
    }
}

/// What a deck needs beyond what is owned: (card, copies short).
pub(super) fn lacking(
    deck: &[CardNumber],
    owned: &BTreeMap<CardNumber, u32>,
) -> Vec<(CardNumber, u32)> {
    let mut need: BTreeMap<CardNumber, u32> = BTreeMap::new();
    for n in deck {
        *need.entry(*n).or_default() += 1;
    }
    need.into_iter()
        .filter_map(|(n, k)| {
            let have = owned.get(&n).copied().unwrap_or(0);
            (k > have).then(|| (n, k - have))
        })
        .collect()
}

pub(super) fn lacking_text(lacking: &[(CardNumber, u32)], cards: &CardSet) -> String {
    lacking
        .iter()
        .map(|(n, k)| format!("{k} × {n} {}", escape(&name_of(cards, n))))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `bterm rankings`.
pub(super) fn rankings(args: RankingsArgs) -> Result<(), CliError> {
    let store = open(args.db.db.as_deref())?;
    let cards = full_set(&load_set(args.db.cards.as_deref())?, &store);
    let r: Rankings = store.rankings(args.top.clamp(1, 1000)).map_err(fail)?;
    let mut out = std::io::stdout().lock();
    let mut lines = Vec::new();
    if r.battles == 0 {
        lines.push("no battles recorded yet: play one (`bterm battle`, or in the arena)".into());
    } else {
        lines.push(format!(
            "{} recorded; challenger streak {} (best {})",
            plural(r.battles, "battle", "battles"),
            r.streak,
            r.best_streak
        ));
        lines.push("cards (wins-losses):".into());
        for c in &r.cards {
            lines.push(format!(
                "  {:>4}-{:<4} {} {}",
                c.wins,
                c.losses,
                c.card,
                escape(&name_of(&cards, &c.card))
            ));
        }
        if !r.teams.is_empty() {
            lines.push("best teams (wins of battles):".into());
            for t in &r.teams {
                let names: Vec<String> = t.team.iter().map(|n| name_of(&cards, n)).collect();
                lines.push(format!(
                    "  {:>4} of {:<4} {}",
                    t.wins,
                    t.battles,
                    escape(&names.join(", "))
                ));
            }
        }
    }
    for l in lines {
        writeln!(out, "{l}").map_err(super::output_error)?;
    }
    Ok(())
}

/// Records a finished battle; a collection that cannot be written is a
/// warning (the battle itself is over and its result printed).
pub(super) fn record_battle(db: Option<&Path>, record: &BattleRecord) {
    let result = collection::default_path(db)
        .and_then(|p| Store::open(&p))
        .and_then(|mut s| s.record_battle(record));
    if let Err(e) = result {
        eprintln!(
            "warning: the battle is not in the rankings: {}",
            escape_lines(&e.to_string())
        );
    }
}

/// `deck check DECK --owned`: what the collection lacks for a deck.
pub(super) fn check_owned(
    numbers: &[CardNumber],
    cards: &CardSet,
    db: Option<&Path>,
) -> Result<String, CliError> {
    let store = open(db)?;
    let lacking = lacking(numbers, &store.owned().map_err(fail)?);
    if lacking.is_empty() {
        Ok("you own every card of it".into())
    } else {
        let n: u32 = lacking.iter().map(|(_, k)| k).sum();
        Err(CliError::failed(format!(
            "your collection is {} short: {}",
            plural(n, "card", "cards"),
            lacking_text(&lacking, cards)
        )))
    }
}
