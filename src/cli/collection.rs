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
        writeln!(out, "{line}").map_err(|e| CliError::failed(super::output_error(e)))
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

/// Grades copies of a card: their condition and a note.
fn grade(
    card: &str,
    copies: Option<&str>,
    condition: &str,
    note: &str,
    db: &DbArgs,
    say: &mut impl FnMut(String) -> Result<(), CliError>,
) -> Result<(), CliError> {
    let (mut store, cards) = (open(db.db.as_deref())?, load_set(db.cards.as_deref())?);
    let cards = full_set(&cards, &store);
    let number = cards
        .resolve(card)
        .map_err(|e| CliError::failed(format!("error: {e}")))?
        .number();
    let held = store.count(&number).map_err(fail)?;
    let range = match copies {
        None => 1..=held.max(1),
        Some(text) => parse_copies(text)?,
    };
    store
        .grade(
            &format!("collection grade {number}"),
            &number,
            range.clone(),
            &(condition.trim().to_string(), note.to_string()),
        )
        .map_err(fail)?;
    say(format!(
        "{number} {}: copies {}-{} are \"{}\"{}",
        escape(&name_of(&cards, &number)),
        range.start(),
        range.end(),
        escape(condition.trim()),
        if note.is_empty() {
            String::new()
        } else {
            format!(", note \"{}\"", escape(note))
        }
    ))
}

/// Each printed set: how much of it is owned.
fn sets(db: &DbArgs, say: &mut impl FnMut(String) -> Result<(), CliError>) -> Result<(), CliError> {
    let (store, cards) = (open(db.db.as_deref())?, load_set(db.cards.as_deref())?);
    let sets = Sets::embedded(&cards).map_err(CliError::failed)?;
    let owned = store.owned().map_err(fail)?;
    for s in sets.all() {
        let have = s.cards.iter().filter(|n| owned.contains_key(n)).count();
        let total = s.cards.len();
        let pct = (have * 100).checked_div(total).unwrap_or(0);
        let filled = (have * 20).checked_div(total).unwrap_or(0);
        say(format!(
            "{:<16} {:>3}/{:<3} {:>3}%  [{}{}]  {}",
            s.id,
            have,
            total,
            pct,
            "#".repeat(filled),
            ".".repeat(20 - filled),
            s.name
        ))?;
    }
    let extra = store.extra_cards(&cards).map_err(fail)?;
    let held = extra
        .iter()
        .filter(|c| owned.contains_key(&c.number))
        .count();
    if held > 0 {
        say(format!(
            "and {} in no printed set (custom cards, wild Digimon)",
            plural(held as i64, "card", "cards")
        ))?;
    }
    Ok(())
}

/// The cards of a printed set that are not owned.
fn missing(
    set: Option<&str>,
    db: &DbArgs,
    say: &mut impl FnMut(String) -> Result<(), CliError>,
) -> Result<(), CliError> {
    let cards = load_set(db.cards.as_deref())?;
    let sets = Sets::embedded(&cards).map_err(CliError::failed)?;
    let Some(set) = set else {
        let ids: Vec<&str> = sets.all().iter().map(|s| s.id.as_str()).collect();
        return Err(CliError::usage(format!(
            "error: which set? `bterm collection missing SET`, SET one of: {} (`bterm collection sets` shows how far each is)",
            ids.join(", ")
        )));
    };
    let store = open(db.db.as_deref())?;
    let Some(s) = sets.find(set) else {
        let ids: Vec<&str> = sets.all().iter().map(|s| s.id.as_str()).collect();
        return Err(CliError::failed(format!(
            "error: no printed set \"{}\"; the sets are {}",
            escape(set),
            ids.join(", ")
        )));
    };
    let owned = store.owned().map_err(fail)?;
    let missing: Vec<&CardNumber> = s.cards.iter().filter(|n| !owned.contains_key(n)).collect();
    if missing.is_empty() {
        return say(format!("{}: complete, all {} cards", s.name, s.cards.len()));
    }
    say(format!(
        "{}: {} of {} missing",
        s.name,
        missing.len(),
        s.cards.len()
    ))?;
    for n in missing {
        say(format!("  {n} {}", escape(&name_of(&cards, n))))?;
    }
    Ok(())
}

/// Copies beyond what a deck may hold: cards to trade.
fn doubles(
    db: &DbArgs,
    say: &mut impl FnMut(String) -> Result<(), CliError>,
) -> Result<(), CliError> {
    let (store, cards) = (open(db.db.as_deref())?, load_set(db.cards.as_deref())?);
    let cards = full_set(&cards, &store);
    let mut any = false;
    for (n, count) in store.owned().map_err(fail)? {
        let limit = cards
            .get(&n)
            .and_then(Card::deck_limit)
            .map_or(deck::NAME_LIMIT as u32, u32::from);
        if count > limit {
            any = true;
            say(format!(
                "{:>3} spare × {n} {} ({count} owned; a deck uses {limit})",
                count - limit,
                escape(&name_of(&cards, &n))
            ))?;
        }
    }
    if !any {
        say(format!(
            "no doubles: no card beyond the {} copies a deck may hold",
            deck::NAME_LIMIT
        ))?;
    }
    Ok(())
}

/// The latest scans, newest first.
fn scans(
    last: u32,
    db: &DbArgs,
    say: &mut impl FnMut(String) -> Result<(), CliError>,
) -> Result<(), CliError> {
    let (store, cards) = (open(db.db.as_deref())?, load_set(db.cards.as_deref())?);
    let cards = full_set(&cards, &store);
    let scans = store.recent_scans(last).map_err(fail)?;
    if scans.is_empty() {
        return say("no scans yet: `bterm scan FILE…` or `bterm collection add NUMBER`".into());
    }
    for s in scans {
        let what = match s.delta {
            0 => "counted no copy".to_string(),
            d if d > 0 => format!("+{d}"),
            d => format!("{d}"),
        };
        say(format!(
            "scan {:<6} batch {:<5} {} {}  {what}  {}{}",
            s.id,
            s.batch,
            s.card,
            escape(&name_of(&cards, &s.card)),
            s.origin,
            s.place
                .as_deref()
                .map(|p| format!(" {}", escape(p)))
                .unwrap_or_default()
        ))?;
    }
    Ok(())
}

/// The changes to the collection, as batches.
fn history(
    since: Option<&str>,
    db: &DbArgs,
    say: &mut impl FnMut(String) -> Result<(), CliError>,
) -> Result<(), CliError> {
    let since = since
        .map(time::parse_date)
        .transpose()
        .map_err(|e| CliError::usage(format!("error: --since: {e}")))?;
    let store = open(db.db.as_deref())?;
    let history = store.history(since).map_err(fail)?;
    if history.is_empty() {
        return say("no changes yet".into());
    }
    for b in history {
        say(format!(
            "#{:<5} {}  +{:<4} -{:<4} {}{}",
            b.id,
            time::format(b.at),
            b.added,
            b.removed,
            escape(&b.command),
            if b.undone { "  (undone)" } else { "" }
        ))?;
    }
    Ok(())
}

/// Takes back the last batch.
fn undo(db: &DbArgs, say: &mut impl FnMut(String) -> Result<(), CliError>) -> Result<(), CliError> {
    let mut store = open(db.db.as_deref())?;
    match store.undo().map_err(fail)? {
        None => say("nothing to undo".into()),
        Some(b) => say(format!(
            "took back #{} ({}, {}): {} out, {} back",
            b.id,
            escape(&b.command),
            time::format(b.at),
            plural(b.added, "copy", "copies"),
            plural(b.removed, "copy", "copies"),
        )),
    }
}

/// A misread scan, counted again as another card.
fn fix(
    scan: i64,
    card: &str,
    db: &DbArgs,
    say: &mut impl FnMut(String) -> Result<(), CliError>,
) -> Result<(), CliError> {
    let (mut store, cards) = (open(db.db.as_deref())?, load_set(db.cards.as_deref())?);
    let cards = full_set(&cards, &store);
    let to = cards
        .resolve(card)
        .map_err(|e| CliError::failed(format!("error: {e}")))?;
    let in_set = load_set(db.cards.as_deref())?.get(&to.number()).is_some();
    let to = card_ref(to, in_set);
    let old = store
        .fix(&format!("collection fix {scan} {}", to.number), scan, &to)
        .map_err(fail)?;
    say(format!(
        "scan {scan}: {old} {} → {} {}",
        escape(&name_of(&cards, &old)),
        to.number,
        escape(&to.name)
    ))
}

/// The collection copied to a file.
fn backup(
    file: &Path,
    force: bool,
    db: &DbArgs,
    say: &mut impl FnMut(String) -> Result<(), CliError>,
) -> Result<(), CliError> {
    let store = open(db.db.as_deref())?;
    store.backup(file, force).map_err(fail)?;
    say(format!(
        "the collection {} is backed up to {}",
        escape(&store.path().display().to_string()),
        escape(&file.display().to_string())
    ))
}

/// A backup made the collection (the one replaced is kept).
fn restore(
    file: &Path,
    db: &DbArgs,
    say: &mut impl FnMut(String) -> Result<(), CliError>,
) -> Result<(), CliError> {
    let mut store = open(db.db.as_deref())?;
    let kept = store.restore(file).map_err(fail)?;
    say(format!(
        "the collection is now the backup {}; the one it replaced is kept as {}",
        escape(&file.display().to_string()),
        escape(&kept.display().to_string())
    ))
}

/// Each shipped deck: can it be built from the collection, and what is short.
fn decks(
    db: &DbArgs,
    say: &mut impl FnMut(String) -> Result<(), CliError>,
) -> Result<(), CliError> {
    let (store, cards) = (open(db.db.as_deref())?, load_set(db.cards.as_deref())?);
    let owned = store.owned().map_err(fail)?;
    for (stem, _) in deck::EMBEDDED {
        let Some(Ok(numbers)) = deck::embedded(stem, &cards) else {
            continue;
        };
        let lacking = lacking(&numbers, &owned);
        if lacking.is_empty() {
            say(format!("{stem}: you can build it"))?;
        } else {
            let n: u32 = lacking.iter().map(|(_, k)| k).sum();
            say(format!(
                "{stem}: {} short: {}",
                plural(n, "card", "cards"),
                lacking_text(&lacking, &cards)
            ))?;
        }
    }
    Ok(())
}

/// The store checked for damage.
fn check(
    db: &DbArgs,
    say: &mut impl FnMut(String) -> Result<(), CliError>,
) -> Result<(), CliError> {
    let store = open(db.db.as_deref())?;
    let check = store.integrity().map_err(fail)?;
    let owned = store.owned().map_err(fail)?;
    let copies: u32 = owned.values().sum();
    let shown = escape(&store.path().display().to_string());
    if check != "ok" {
        return Err(CliError::failed(format!(
            "error: {shown}: the integrity check failed: {}; restore a backup with `bterm collection restore FILE`",
            escape(&check)
        )));
    }
    let strangers = store.strangers().map_err(fail)?;
    if !strangers.is_empty() {
        return Err(CliError::failed(format!(
            "error: {shown}: it holds {} that bterm never makes: one could change or delete scans behind bterm's back; restore a backup bterm wrote with `bterm collection restore FILE`",
            escape(&strangers.join(", "))
        )));
    }
    say(format!(
        "{shown}: sound (schema {}); {} of {}",
        store.schema_version().map_err(fail)?,
        plural(copies, "copy", "copies"),
        plural(owned.len() as i64, "card", "cards")
    ))
}

/// `--copies 2` or `--copies 1-3`.
fn parse_copies(text: &str) -> Result<std::ops::RangeInclusive<u32>, CliError> {
    let bad = || {
        CliError::usage(format!(
            "error: --copies \"{}\": give a copy (2) or a range (1-3)",
            escape(text)
        ))
    };
    let (a, b) = text.split_once('-').unwrap_or((text, text));
    let a: u32 = a.trim().parse().map_err(|_| bad())?;
    let b: u32 = b.trim().parse().map_err(|_| bad())?;
    if a == 0 || b < a {
        return Err(bad());
    }
    Ok(a..=b)
}

/// `collection add` and `remove`.
fn change(
    numbers: &[String],
    count: u32,
    remove: bool,
    db: &DbArgs,
    say: &mut impl FnMut(String) -> Result<(), CliError>,
) -> Result<(), CliError> {
    let set = load_set(db.cards.as_deref())?;
    let mut store = open(db.db.as_deref())?;
    let cards = full_set(&set, &store);
    let mut scans = Vec::new();
    for n in numbers {
        let card = cards
            .resolve(n)
            .map_err(|e| CliError::failed(format!("error: {e}")))?;
        scans.push(NewScan {
            card: card_ref(card, set.get(&card.number()).is_some()),
            origin: Origin::Typed,
            place: None,
            code: None,
            digest: None,
            count,
            remove,
        });
    }
    let words = format!(
        "collection {} {}{}",
        if remove { "remove" } else { "add" },
        numbers.join(" "),
        if count > 1 {
            format!(" --count {count}")
        } else {
            String::new()
        }
    );
    let recorded = store.record(&mut Batch::new(words), &scans).map_err(fail)?;
    let mut short = 0;
    for (s, r) in scans.iter().zip(&recorded) {
        let now = store.count(&s.card.number).map_err(fail)?;
        let what = match r.counted {
            Counted::Added(n) => format!("+{n}"),
            Counted::Removed(n) => format!("-{n}"),
            Counted::NotOwned => {
                short += 1;
                "not in the collection".to_string()
            }
            Counted::Rescan(_) => "counted already".to_string(),
        };
        say(format!(
            "{} {}: {what}, {} now",
            s.card.number,
            escape(&s.card.name),
            plural(now, "copy", "copies")
        ))?;
    }
    if short > 0 {
        return Err(CliError::failed(format!(
            "{} could not be taken out: the collection holds none",
            plural(short, "card", "cards")
        )));
    }
    Ok(())
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

/// `collection list`.
fn list(
    set: Option<&str>,
    field: Option<&str>,
    json: bool,
    db: &DbArgs,
    say: &mut impl FnMut(String) -> Result<(), CliError>,
) -> Result<(), CliError> {
    let base = load_set(db.cards.as_deref())?;
    let store = open(db.db.as_deref())?;
    let cards = full_set(&base, &store);
    let sets = Sets::embedded(&base).map_err(CliError::failed)?;
    let only_set = match set {
        None => None,
        Some(s) => Some(sets.find(s).ok_or_else(|| {
            CliError::failed(format!(
                "error: no printed set \"{}\"; `bterm collection sets` lists them",
                escape(s)
            ))
        })?),
    };
    let only_field = match field {
        None => None,
        Some(f) => Some(Field::parse_forgiving(f).ok_or_else(|| {
            CliError::failed(format!(
                "error: no Field \"{}\"; the Fields are {}",
                escape(f),
                Field::ALL.map(Field::name).join(", ")
            ))
        })?),
    };
    let owned = store.owned().map_err(fail)?;
    let grades = store.grades().map_err(fail)?;
    let mut rows = Vec::new();
    for (n, count) in &owned {
        if only_set.is_some_and(|s| !s.cards.contains(n)) {
            continue;
        }
        let card = cards.get(n);
        if let Some(f) = only_field
            && card.and_then(Card::as_digimon).is_none_or(|d| d.field != f)
        {
            continue;
        }
        let copies: Vec<Grade> = (1..=*count)
            .map(|k| grades.get(&(*n, k)).cloned().unwrap_or_default())
            .collect();
        rows.push((*n, *count, copies));
    }
    if json {
        let items: Vec<serde_json::Value> = rows
            .iter()
            .map(|(n, count, copies)| {
                serde_json::json!({
                    "number": n.to_string(),
                    "name": name_of(&cards, n),
                    "set": sets.of(n).map(|s| s.id.clone()),
                    "count": count,
                    "copies": copies.iter().map(|(c, note)| serde_json::json!({"condition": c, "note": note})).collect::<Vec<_>>(),
                })
            })
            .collect();
        return say(serde_json::Value::Array(items).to_string());
    }
    if rows.is_empty() {
        return say(if owned.is_empty() {
            "the collection is empty: `bterm scan FILE…` or `bterm collection add NUMBER` adds cards".into()
        } else {
            "no owned card matches".into()
        });
    }
    let mut total = 0;
    for (n, count, copies) in &rows {
        total += count;
        let graded: Vec<String> = group(copies)
            .into_iter()
            .filter(|(_, (c, note))| !c.is_empty() || !note.is_empty())
            .map(|(k, (c, note))| {
                let mut t = format!("{k} {}", if c.is_empty() { "ungraded" } else { c.as_str() });
                if !note.is_empty() {
                    t.push_str(&format!(" ({note})"));
                }
                t
            })
            .collect();
        say(format!(
            "{count:>4} × {n} {}  [{}]{}",
            escape(&name_of(&cards, n)),
            sets.of(n).map_or("no set", |s| s.id.as_str()),
            if graded.is_empty() {
                String::new()
            } else {
                format!("  {}", escape(&graded.join("; ")))
            }
        ))?;
    }
    say(format!(
        "{} of {}",
        plural(total, "copy", "copies"),
        plural(rows.len() as i64, "card", "cards")
    ))
}

/// Runs of equal grades, in copy order: (copies, grade).
fn group(copies: &[Grade]) -> Vec<(u32, Grade)> {
    let mut out: Vec<(u32, Grade)> = Vec::new();
    for g in copies {
        match out.last_mut() {
            Some((k, last)) if last == g => *k += 1,
            _ => out.push((1, g.clone())),
        }
    }
    out
}

/// `collection export --csv FILE`.
fn export(
    path: &Path,
    force: bool,
    db: &DbArgs,
    say: &mut impl FnMut(String) -> Result<(), CliError>,
) -> Result<(), CliError> {
    let shown = escape(&path.display().to_string());
    if !force && std::fs::symlink_metadata(path).is_ok() {
        return Err(CliError::failed(format!(
            "error: {shown} already exists; name another file, or add --force to replace it"
        )));
    }
    crate::save::replaceable(path)
        .map_err(|e| CliError::failed(format!("error: {}", escape(&e))))?;
    let base = load_set(db.cards.as_deref())?;
    let store = open(db.db.as_deref())?;
    let cards = full_set(&base, &store);
    let sets = Sets::embedded(&base).map_err(CliError::failed)?;
    let grades = store.grades().map_err(fail)?;
    let owned = store.owned().map_err(fail)?;
    let mut rows = Vec::new();
    for (n, count) in &owned {
        let copies: Vec<Grade> = (1..=*count)
            .map(|k| grades.get(&(*n, k)).cloned().unwrap_or_default())
            .collect();
        for (k, (condition, note)) in group(&copies) {
            rows.push(Row {
                line: 0,
                number: n.to_string(),
                name: name_of(&cards, n),
                set: sets.of(n).map(|s| s.id.clone()).unwrap_or_default(),
                count: k,
                condition,
                note,
                // A card of no set travels whole, so a fresh collection
                // takes it back.
                card: match (base.get(n), cards.get(n)) {
                    (None, Some(card)) => crate::barcode::code::qr_card_text(card)
                        .map(|t| t[crate::barcode::code::QR_CARD_PREFIX.len()..].to_string())
                        .unwrap_or_default(),
                    _ => String::new(),
                },
            });
        }
    }
    crate::save::write_atomic(path, csv::write(&rows).as_bytes())
        .map_err(|e| CliError::failed(format!("error: {shown}: cannot write it: {e}")))?;
    say(format!(
        "{} of {} written to {shown}",
        plural(owned.values().sum::<u32>(), "copy", "copies"),
        plural(owned.len() as i64, "card", "cards")
    ))
}

/// The largest CSV file read (64 MiB: a row is about 60 bytes).
const MAX_CSV_BYTES: u64 = 64 << 20;

/// The card a CSV row carries whole (its `card` column): one card, of the
/// row's number, that the card set's checks accept.
fn carried_card(ron: &str, number: CardNumber, cards: &CardSet) -> Result<Card, String> {
    let read: Vec<Card> = crate::cards::read_ron(ron)
        .map_err(|e| format!("{number}: its card column is not a card: {e}"))?;
    let [card] = <[Card; 1]>::try_from(read)
        .map_err(|v| format!("{number}: its card column holds {} cards, not one", v.len()))?;
    if card.number() != number {
        return Err(format!(
            "its card column is {}, not {number}",
            card.number()
        ));
    }
    cards
        .with_cards(std::slice::from_ref(&card))
        .map_err(|e| format!("{number}: {}", e.to_string().replace('\n', "; ")))?;
    Ok(card)
}

/// `collection import --csv FILE`.
fn import(
    path: &Path,
    db: &DbArgs,
    say: &mut impl FnMut(String) -> Result<(), CliError>,
) -> Result<(), CliError> {
    let shown = escape(&path.display().to_string());
    let text = crate::save::read_text(path, MAX_CSV_BYTES)
        .map_err(|e| CliError::failed(format!("error: {shown}: cannot read it: {e}")))?;
    let refused = |mut errors: Vec<(usize, String)>| {
        errors.sort_by_key(|(line, _)| *line);
        let n = errors.len();
        let mut lines: Vec<String> = errors
            .iter()
            .take(50)
            .map(|(_, e)| format!("error: {shown}: {}", escape(e)))
            .collect();
        if n > 50 {
            lines.push(format!("… and {} more", n - 50));
        }
        lines.push(format!(
            "{shown}: {}; nothing of this file was imported",
            plural(n as i64, "problem", "problems")
        ));
        CliError::failed(lines.join("\n"))
    };
    let (rows, mut errors) = csv::parse(&text);
    let base = load_set(db.cards.as_deref())?;
    let mut store = open(db.db.as_deref())?;
    let cards = full_set(&base, &store);
    let mut resolved = Vec::with_capacity(rows.len());
    for r in &rows {
        match r.number.parse::<CardNumber>() {
            Ok(n) => match cards.get(&n) {
                Some(card) => resolved.push((
                    card_ref(card, base.get(&n).is_some()),
                    r.count,
                    (r.condition.clone(), r.note.clone()),
                )),
                // A card of no set, carried whole by its row.
                None if !r.card.is_empty() => match carried_card(&r.card, n, &cards) {
                    Ok(card) => resolved.push((
                        card_ref(&card, false),
                        r.count,
                        (r.condition.clone(), r.note.clone()),
                    )),
                    Err(why) => errors.push((r.line, format!("line {}: {why}", r.line))),
                },
                None => errors.push((
                    r.line,
                    format!(
                        "line {}: {n} is not a card of the card set nor of the collection",
                        r.line
                    ),
                )),
            },
            Err(e) => errors.push((r.line, format!("line {}: \"{}\": {e}", r.line, r.number))),
        }
    }
    if !errors.is_empty() {
        return Err(refused(errors));
    }
    let bar = progress(rows.len());
    let summary = store
        .import_with_progress(
            &format!("collection import --csv {}", path.display()),
            &resolved,
            &mut |k| {
                bar.set_position(k as u64);
            },
        )
        .map_err(fail)?;
    bar.finish_and_clear();
    if summary.counts == 0 && summary.grades == 0 {
        return say(format!(
            "{shown}: the collection already matches it; nothing changed"
        ));
    }
    say(format!(
        "{shown}: {} changed, {} regraded (`bterm collection undo` takes it back)",
        plural(summary.counts as i64, "count", "counts"),
        plural(summary.grades as i64, "copy", "copies")
    ))
}

/// A progress bar on stderr for long work (hidden when it is not a terminal).
fn progress(len: usize) -> indicatif::ProgressBar {
    let bar = if len > 1000 && std::io::stderr().is_terminal() {
        indicatif::ProgressBar::new(len as u64)
    } else {
        indicatif::ProgressBar::hidden()
    };
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} rows  {eta} left")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar
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
        writeln!(out, "{l}").map_err(|e| CliError::failed(super::output_error(e)))?;
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

/// The collection's side of `bterm scan`: scans recorded in batches of a
/// few hundred (each its own transaction), counted for the summary.
pub(super) struct Collector {
    store: Option<Store>,
    /// Why there is no store (the scan still reads).
    pub unavailable: Option<String>,
    batch: Batch,
    pending: Vec<NewScan>,
    last_flush: std::time::Instant,
    /// The tally so far.
    pub tally: Tally,
    remove: bool,
}

/// What a scan did to the collection.
#[derive(Debug, Default, Clone, Copy)]
pub(super) struct Tally {
    pub added: u32,
    pub removed: u32,
    pub new_cards: u32,
    pub rescans: u32,
    pub not_owned: u32,
}

/// Scans recorded per transaction.
const CHUNK: usize = 256;

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
