//! The collection's CSV (RFC 4180: comma-separated, fields with a comma, a
//! quote or a line break in double quotes, quotes doubled), as a
//! spreadsheet writes and opens it. Columns, in this order, with this
//! header line: `number,name,set,count,condition,note,card`. One row per
//! card and grade: three Agumon, two of them "near mint", are two rows.
//! `card` carries a card that is in no card set (a wild Digimon made from a
//! product barcode, a custom card from a QR code) whole, so a fresh
//! collection takes it back; it is empty for a card of the set. A file of
//! the first six columns alone (written before `card`) is read too.

/// The header line's first six columns (a file of these alone is read).
pub const HEADER: [&str; 6] = ["number", "name", "set", "count", "condition", "note"];

/// The last column: a card that is in no card set, whole (RON, one line).
pub const CARD: &str = "card";

/// One row: the card's number, its name and set (for the reader; the
/// number decides), how many copies, their condition and note.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// The line the row starts on (1-based), for messages.
    pub line: usize,
    /// The card number as written.
    pub number: String,
    /// The card's name.
    pub name: String,
    /// The set's id.
    pub set: String,
    /// Copies.
    pub count: u32,
    /// Their condition (free text: `near mint`, `played`, …).
    pub condition: String,
    /// A note.
    pub note: String,
    /// The card whole, when it is in no card set (RON, one line); empty
    /// otherwise.
    pub card: String,
}

/// The most copies one row may give, and the most of one card a
/// collection keeps (more than any collector owns; a bound on the work and
/// the memory an import takes).
pub const MAX_COUNT: u32 = 9_999;

/// A field quoted when it needs to be.
fn field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) || text.starts_with(' ') || text.ends_with(' ') {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

/// The characters that make a spreadsheet read a cell as a formula.
const FORMULA: [char; 6] = ['=', '+', '-', '@', '\t', '\r'];

/// Text a spreadsheet would take for a formula (`=…`, `+…`, `-…`, `@…`,
/// a tab or a carriage return first) made plain with a leading apostrophe,
/// and control characters other than a line break made spaces. Every text
/// column is guarded; [`plain`] reads the apostrophe back off.
fn inert(text: &str) -> String {
    let clean: String = text
        .chars()
        .map(|c| if c.is_control() && c != '\n' { ' ' } else { c })
        .collect();
    if text.starts_with(FORMULA) || text.starts_with('\'') && text[1..].starts_with(FORMULA) {
        format!("'{clean}")
    } else {
        clean
    }
}

/// A guarded cell read back: the apostrophe [`inert`] put before a formula
/// character is taken off.
fn plain(text: &str) -> String {
    match text.strip_prefix('\'') {
        Some(rest) if rest.starts_with(FORMULA) || rest.starts_with('\'') => rest.to_string(),
        _ => text.to_string(),
    }
}

/// The CSV text of some rows, header first, lines ending in CRLF.
pub fn write(rows: &[Row]) -> String {
    let mut out = HEADER.join(",");
    out.push(',');
    out.push_str(CARD);
    out.push_str("\r\n");
    for r in rows {
        let count = r.count.to_string();
        let (name, set) = (inert(&r.name), inert(&r.set));
        let (condition, note) = (inert(&r.condition), inert(&r.note));
        let card = inert(&r.card);
        let cells = [&r.number, &name, &set, &count, &condition, &note, &card];
        let line: Vec<String> = cells.iter().map(|c| field(c)).collect();
        out.push_str(&line.join(","));
        out.push_str("\r\n");
    }
    out
}

/// Splits CSV text into records of fields, each with the line it starts on.
fn records(text: &str) -> Result<Vec<(usize, Vec<String>)>, String> {
    let mut out = Vec::new();
    let mut fields = Vec::new();
    let mut cell = String::new();
    let mut line = 1;
    let mut start = 1;
    let mut quoted = false;
    let mut was_quoted = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if quoted {
            match c {
                '"' if chars.peek() == Some(&'"') => {
                    chars.next();
                    cell.push('"');
                }
                '"' => quoted = false,
                '\n' => {
                    line += 1;
                    cell.push(c);
                }
                _ => cell.push(c),
            }
            continue;
        }
        match c {
            '"' if cell.is_empty() && !was_quoted => {
                quoted = true;
                was_quoted = true;
            }
            '"' => {
                return Err(format!(
                    "line {line}: a quote inside a field that is not quoted; put the field in quotes and double the quote"
                ));
            }
            ',' => {
                fields.push(std::mem::take(&mut cell));
                was_quoted = false;
            }
            '\r' if chars.peek() == Some(&'\n') => {}
            '\n' => {
                fields.push(std::mem::take(&mut cell));
                was_quoted = false;
                out.push((start, std::mem::take(&mut fields)));
                line += 1;
                start = line;
            }
            _ if was_quoted => {
                return Err(format!(
                    "line {line}: text after a quoted field's closing quote"
                ));
            }
            _ => cell.push(c),
        }
    }
    if quoted {
        return Err(format!(
            "line {start}: a quoted field is never closed (a quote is missing)"
        ));
    }
    if !cell.is_empty() || !fields.is_empty() || was_quoted {
        fields.push(cell);
        out.push((start, fields));
    }
    Ok(out)
}

/// Reads the collection's CSV: the good rows, and every bad one reported
/// by its line (a caller refuses the whole file if any is bad).
pub fn parse(text: &str) -> (Vec<Row>, Vec<(usize, String)>) {
    match parse_all(text) {
        Ok(ok) => ok,
        Err(fatal) => (Vec::new(), vec![(0, fatal)]),
    }
}

type Parsed = (Vec<Row>, Vec<(usize, String)>);

fn parse_all(text: &str) -> Result<Parsed, String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let records = records(text)?;
    let mut records = records
        .into_iter()
        .filter(|(_, f)| !(f.len() == 1 && f[0].trim().is_empty()));
    let Some((_, header)) = records.next() else {
        return Err(format!(
            "the file is empty; its first line must be the header {}",
            HEADER.join(",")
        ));
    };
    let header: Vec<String> = header.iter().map(|h| h.trim().to_lowercase()).collect();
    let with_card = header.len() == HEADER.len() + 1 && header.last().is_some_and(|h| h == CARD);
    if header[..header.len().min(HEADER.len())] != HEADER
        || !(header.len() == HEADER.len() || with_card)
    {
        return Err(format!(
            "line 1: the header is \"{}\"; it must be {},{CARD} (or without {CARD})",
            header.join(","),
            HEADER.join(",")
        ));
    }
    let columns = header.len();
    let mut rows = Vec::new();
    let mut errors = Vec::new();
    for (line, f) in records {
        if f.len() != columns {
            errors.push((
                line,
                format!(
                    "line {line}: {} fields; a row has {columns} ({})",
                    f.len(),
                    header.join(",")
                ),
            ));
            continue;
        }
        let count =
            match f[3].trim().parse::<u32>() {
                Ok(n) if n <= MAX_COUNT => n,
                _ => {
                    errors.push((line, format!(
                    "line {line}: the count \"{}\" is not a whole number from 0 to {MAX_COUNT}",
                    f[3]
                )));
                    continue;
                }
            };
        if f[0].trim().is_empty() {
            errors.push((line, format!("line {line}: the card number is empty")));
            continue;
        }
        rows.push(Row {
            line,
            number: f[0].trim().to_string(),
            name: f[1].clone(),
            set: f[2].clone(),
            count,
            condition: plain(f[4].trim()),
            note: plain(&f[5]),
            card: f.get(6).map(|c| plain(c.trim())).unwrap_or_default(),
        });
    }
    Ok((rows, errors))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(number: &str, count: u32, condition: &str, note: &str) -> Row {
        Row {
            line: 0,
            number: number.into(),
            name: "Agumon".into(),
            set: "alpha-digimon".into(),
            count,
            condition: condition.into(),
            note: note.into(),
            card: String::new(),
        }
    }

    #[test]
    fn rows_survive_a_round_trip_with_commas_quotes_and_line_breaks() {
        let rows = vec![
            row("Dα-001", 2, "near mint", ""),
            row(
                "Dα-002",
                1,
                "played",
                "signed, \"by the artist\"\nat a fair",
            ),
        ];
        let text = write(&rows);
        assert!(text.starts_with("number,name,set,count,condition,note,card\r\n"));
        let (back, errors) = parse(&text);
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(back.len(), 2);
        assert_eq!(back[1].note, rows[1].note);
        assert_eq!(back[1].line, 3);
        assert_eq!(back[0].count, 2);
        // A name that a spreadsheet would run as a formula is made plain.
        let mut evil = row("CU-001", 1, "", "");
        evil.name = "=HYPERLINK(\"http://x\")".into();
        assert!(write(&[evil]).contains(",\"'=HYPERLINK("));
        // So is a condition or a note, and it reads back as written.
        let mut notes = row("Dα-001", 1, "=1+1", "=cmd|' /C calc'!A0");
        notes.note.push('\u{7}');
        let text2 = write(std::slice::from_ref(&notes));
        assert!(
            text2.contains(",'=1+1,") && text2.contains("\"'=cmd|"),
            "{text2}"
        );
        assert!(!text2.contains('\u{7}'));
        let back2 = parse(&text2).0;
        assert_eq!(back2[0].condition, "=1+1");
        assert_eq!(back2[0].note, "=cmd|' /C calc'!A0 ");
        // As a spreadsheet saves it: LF endings, a byte-order mark.
        let lf = format!("\u{feff}{}", text.replace("\r\n", "\n"));
        assert_eq!(parse(&lf).0[1].note, rows[1].note);
    }

    #[test]
    fn every_bad_row_is_named_by_its_line() {
        let text = "number,name,set,count,condition,note\nDα-001,Agumon,x,two,,\nDα-002,Greymon,x,1,,\nDα-003,Metal Greymon\n";
        let (rows, errors) = parse(text);
        assert_eq!(rows.len(), 1, "the good row is kept");
        assert_eq!(errors.len(), 2, "{errors:?}");
        assert!(errors[0].1.starts_with("line 2:") && errors[0].1.contains("\"two\""));
        assert_eq!(errors[1].0, 4);
        assert!(parse("id,count\n").1[0].1.contains("header"));
        assert!(parse("").1[0].1.contains("empty"));
        let open = "number,name,set,count,condition,note\nDα-001,\"Agumon,x,1,,\n";
        assert!(parse(open).1[0].1.contains("never closed"));
    }
}
