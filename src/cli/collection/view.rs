//! What the collection holds, read: `collection list`, `sets`,
//! `missing`, `doubles`, `scans`, `history`, `decks`, `check`, `grade`.

use super::*;

/// Grades copies of a card: their condition and a note.
pub(super) fn grade(
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
pub(super) fn sets(
    db: &DbArgs,
    say: &mut impl FnMut(String) -> Result<(), CliError>,
) -> Result<(), CliError> {
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
pub(super) fn missing(
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
pub(super) fn doubles(
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
pub(super) fn scans(
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
pub(super) fn history(
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

/// Each shipped deck: can it be built from the collection, and what is short.
pub(super) fn decks(
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
pub(super) fn check(
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

/// `collection list`.
pub(super) fn list(
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
pub(super) fn group(copies: &[Grade]) -> Vec<(u32, Grade)> {
    let mut out: Vec<(u32, Grade)> = Vec::new();
    for g in copies {
        match out.last_mut() {
            Some((k, last)) if last == g => *k += 1,
            _ => out.push((1, g.clone())),
        }
    }
    out
}
