//! What changes the collection: `collection add` / `remove`, `undo`,
//! `fix`, `backup`, `restore`.

use super::*;

/// Takes back the last batch.
pub(super) fn undo(
    db: &DbArgs,
    say: &mut impl FnMut(String) -> Result<(), CliError>,
) -> Result<(), CliError> {
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
pub(super) fn fix(
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
pub(super) fn backup(
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
pub(super) fn restore(
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

/// `--copies 2` or `--copies 1-3`.
pub(super) fn parse_copies(text: &str) -> Result<std::ops::RangeInclusive<u32>, CliError> {
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
pub(super) fn change(
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
