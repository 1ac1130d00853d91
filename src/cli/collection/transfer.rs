//! The collection out and in as CSV: `collection export` / `import`.

use super::*;

/// `collection export --csv FILE`.
pub(super) fn export(
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
pub(super) const MAX_CSV_BYTES: u64 = 64 << 20;

/// The card a CSV row carries whole (its `card` column): one card, of the
/// row's number, that the card set's checks accept.
pub(super) fn carried_card(ron: &str, number: CardNumber, cards: &CardSet) -> Result<Card, String> {
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
pub(super) fn import(
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
pub(super) fn progress(len: usize) -> indicatif::ProgressBar {
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
