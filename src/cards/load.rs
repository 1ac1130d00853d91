//! Reading card files and checking them: every problem is reported with its
//! file, line, column and card number, all at once.

use std::fmt;
use std::path::{Path, PathBuf};

use ron::extensions::Extensions;

use super::{Card, CardNumber, Level, Requirements};

/// Card files are RON with two extensions on, so a card reads
/// `Digimon(number: "Dα-001", …)` and an optional value needs no `Some(…)`.
fn ron_options() -> ron::Options {
    ron::Options::default()
        .with_default_extension(Extensions::UNWRAP_VARIANT_NEWTYPES | Extensions::IMPLICIT_SOME)
}

/// Parses RON in the card-file dialect.
pub fn read_ron<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, ron::error::SpannedError> {
    ron_options().from_str(text)
}

/// Writes RON in the card-file dialect.
pub fn write_ron<T: serde::Serialize>(value: &T) -> Result<String, ron::Error> {
    let pretty = ron::ser::PrettyConfig::new()
        .extensions(Extensions::UNWRAP_VARIANT_NEWTYPES | Extensions::IMPLICIT_SOME)
        .struct_names(false);
    ron_options().to_string_pretty(value, pretty)
}

/// Writes RON in the card-file dialect on one line, with nothing to spare
/// (for a QR code).
pub fn write_ron_compact<T: serde::Serialize>(value: &T) -> Result<String, ron::Error> {
    ron_options().to_string(value)
}

/// The ranges card values must lie in (fan-made values, kept sane).
#[derive(Debug, Clone, Copy)]
pub struct Limits;

impl Limits {
    /// Highest Cost.
    pub const COST: u8 = 10;
    /// Speed range.
    pub const SPEED: (u8, u8) = (1, 10);
    /// HP range.
    pub const HP: (u32, u32) = (10, 5000);
    /// Highest basic attack power.
    pub const POWER: u32 = 5000;
    /// Longest name.
    pub const NAME_CHARS: usize = 40;
}

/// One problem in a card file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadError {
    /// The file.
    pub file: PathBuf,
    /// 1-based line (0 when the file could not be read at all).
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// The card, when the problem is in one.
    pub card: Option<(CardNumber, String)>,
    /// What is wrong.
    pub kind: LoadErrorKind,
}

/// What is wrong in a card file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LoadErrorKind {
    /// The file could not be read.
    #[error("cannot read the file: {0}")]
    Io(String),
    /// The path holds no card files.
    #[error("no card files (*.ron) here")]
    NoFiles,
    /// The RON is malformed or a field is missing or misspelled.
    #[error("syntax: {0}")]
    Syntax(String),
    /// Two cards share a number.
    #[error("duplicate card number {number}: already used at {first}")]
    DuplicateNumber {
        /// The number.
        number: CardNumber,
        /// Where it was first used (`file:line:column`).
        first: String,
    },
    /// An evolution requirement names no card in the set.
    #[error("evolution requirement \"{name}\" names no known card{}", suggestion(.nearest))]
    UnknownRequirement {
        /// The name.
        name: String,
        /// The closest known name.
        nearest: Option<String>,
    },
    /// A Level III Digimon with evolution requirements.
    #[error("a Level III Digimon cannot have evolution requirements (it is played directly)")]
    LevelIIIWithRequirements,
    /// A Level IV or higher Digimon without evolution requirements.
    #[error(
        "a {0} Digimon needs evolution requirements (it is placed onto a Digimon it evolves from)"
    )]
    MissingRequirements(Level),
    /// A Digimon that evolves from itself.
    #[error("a Digimon cannot evolve from itself")]
    EvolvesFromItself,
    /// A value out of its range.
    #[error("{field} is {value}, which is out of range ({range})")]
    OutOfRange {
        /// The field.
        field: &'static str,
        /// The value found.
        value: String,
        /// The allowed range.
        range: String,
    },
    /// A prefix that cannot carry this kind of card.
    #[error("the prefix {prefix}- means \"{meaning}\", but this is a {kind} card")]
    WrongPrefix {
        /// The prefix as printed.
        prefix: String,
        /// What the prefix means.
        meaning: &'static str,
        /// The card's kind.
        kind: super::CardKind,
    },
    /// A Digimon Card Game or Alpha Clash card that breaks its kind's shape.
    #[error("{0}")]
    Shape(String),
    /// An empty or overlong name.
    #[error("the name must be 1 to {} characters", Limits::NAME_CHARS)]
    BadName,
}

fn suggestion(nearest: &Option<String>) -> String {
    nearest
        .as_ref()
        .map(|n| format!(" (did you mean \"{n}\"?)"))
        .unwrap_or_default()
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file.display())?;
        if self.line > 0 {
            write!(f, ":{}:{}", self.line, self.column)?;
        }
        if let Some((number, name)) = &self.card {
            write!(f, ": {number} {name}")?;
        }
        write!(f, ": {}", self.kind)
    }
}

impl std::error::Error for LoadError {}

/// Every problem found while loading a card set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadErrors(pub Vec<LoadError>);

impl fmt::Display for LoadErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for LoadErrors {}

/// A card read from a file, with where it stands.
#[derive(Debug, Clone)]
pub(crate) struct Located {
    pub card: Card,
    pub file: PathBuf,
    pub source_index: usize,
    /// Byte offset of the card's `number:` value in its file.
    pub offset: usize,
}

/// Line and column (1-based, in characters) of a byte offset.
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

/// Parses one file's text into cards, finding where each card's number is
/// written so later checks can point at it.
pub(crate) fn parse_file(
    file: &Path,
    text: &str,
    source_index: usize,
    errors: &mut Vec<LoadError>,
) -> Vec<Located> {
    let cards: Vec<Card> = match read_ron(text) {
        Ok(cards) => cards,
        Err(e) => {
            errors.push(LoadError {
                file: file.to_path_buf(),
                line: e.span.start.line,
                column: e.span.start.col,
                card: None,
                kind: LoadErrorKind::Syntax(e.code.to_string()),
            });
            return Vec::new();
        }
    };
    // Cards appear in order, so each card's number is searched after the last one.
    let mut from = 0;
    cards
        .into_iter()
        .map(|card| {
            let offset = find_number(text, from, &card.number()).unwrap_or(from);
            from = offset + 1;
            Located {
                card,
                file: file.to_path_buf(),
                source_index,
                offset,
            }
        })
        .collect()
}

/// Finds `number: "<n>"` at or after `from`, accepting the forgiving forms of `n`.
fn find_number(text: &str, from: usize, number: &CardNumber) -> Option<usize> {
    let mut at = from;
    while let Some(rel) = text.get(at..)?.find("number") {
        let start = at + rel;
        let rest = &text[start + "number".len()..];
        let after_colon = rest.trim_start().strip_prefix(':')?.trim_start();
        if let Some(quoted) = after_colon.strip_prefix('"') {
            let end = quoted.find('"')?;
            if quoted[..end].parse::<CardNumber>().ok().as_ref() == Some(number) {
                return Some(text.len() - after_colon.len());
            }
        }
        at = start + 1;
    }
    None
}

/// Finds where a field of a card is written: the first `field:` after the card's number.
fn find_field(text: &str, card_offset: usize, field: &str) -> usize {
    let needle = format!("{field}:");
    let next_card = text[card_offset + 1..]
        .find("number")
        .map_or(text.len(), |i| card_offset + 1 + i);
    text[card_offset..next_card]
        .find(&needle)
        .map_or(card_offset, |i| {
            let value = card_offset + i + needle.len();
            value + (text[value..].len() - text[value..].trim_start().len())
        })
        .min(text.len())
}

pub(crate) struct Checker<'a> {
    pub texts: &'a [(PathBuf, String)],
    pub errors: Vec<LoadError>,
}

impl Checker<'_> {
    fn at(&mut self, loc: &Located, field: Option<&str>, kind: LoadErrorKind) {
        let text = &self.texts[loc.source_index].1;
        let offset = field.map_or(loc.offset, |f| find_field(text, loc.offset, f));
        let (line, column) = line_col(text, offset);
        self.errors.push(LoadError {
            file: loc.file.clone(),
            line,
            column,
            card: Some((loc.card.number(), loc.card.name().to_string())),
            kind,
        });
    }

    pub(crate) fn position(&self, loc: &Located) -> String {
        let (line, col) = line_col(&self.texts[loc.source_index].1, loc.offset);
        format!("{}:{line}:{col}", loc.file.display())
    }

    /// Checks one card on its own.
    pub(crate) fn check_card(&mut self, loc: &Located) {
        let card = &loc.card;
        if !card.number().prefix.allows(card.kind()) {
            let p = card.number().prefix;
            self.at(
                loc,
                None,
                LoadErrorKind::WrongPrefix {
                    prefix: p.as_str().into_owned(),
                    meaning: p.meaning(),
                    kind: card.kind(),
                },
            );
        }
        let name_len = card.name().trim().chars().count();
        if name_len == 0 || name_len > Limits::NAME_CHARS {
            self.at(loc, Some("name"), LoadErrorKind::BadName);
        }
        if let Some(cost) = card.cost()
            && card.as_dcg().is_none()
            && card.as_clash().is_none()
            && cost > Limits::COST
        {
            self.range(loc, "cost", cost, format!("0..={}", Limits::COST));
        }
        if let Card::Dcg(c) = card
            && let Some((field, why)) = c.problem()
        {
            self.at(loc, Some(field), LoadErrorKind::Shape(why));
        }
        if let Card::Clash(c) = card
            && let Some((field, why)) = c.problem()
        {
            self.at(loc, Some(field), LoadErrorKind::Shape(why));
        }
        let Card::Digimon(d) = card else { return };
        if !(Limits::SPEED.0..=Limits::SPEED.1).contains(&d.speed) {
            self.range(
                loc,
                "speed",
                d.speed,
                format!("{}..={}", Limits::SPEED.0, Limits::SPEED.1),
            );
        }
        if !(Limits::HP.0..=Limits::HP.1).contains(&d.hp) {
            self.range(
                loc,
                "hp",
                d.hp,
                format!("{}..={}", Limits::HP.0, Limits::HP.1),
            );
        }
        for t in [&d.techniques.a, &d.techniques.b, &d.techniques.c] {
            if t.power > Limits::POWER {
                self.range(loc, "power", t.power, format!("0..={}", Limits::POWER));
            }
        }
        match (&d.requirements, d.level.stage()) {
            (Requirements::None, super::Stage::III) => {}
            (Requirements::None, _) => {
                self.at(
                    loc,
                    Some("level"),
                    LoadErrorKind::MissingRequirements(d.level),
                );
            }
            (_, super::Stage::III) => {
                self.at(
                    loc,
                    Some("requirements"),
                    LoadErrorKind::LevelIIIWithRequirements,
                );
            }
            _ => {}
        }
        if d.requirements
            .names()
            .iter()
            .any(|n| super::base_name(n) == d.base_name())
        {
            self.at(loc, Some("requirements"), LoadErrorKind::EvolvesFromItself);
        }
    }

    fn range(&mut self, loc: &Located, field: &'static str, value: impl ToString, range: String) {
        self.at(
            loc,
            Some(field),
            LoadErrorKind::OutOfRange {
                field,
                value: value.to_string(),
                range,
            },
        );
    }

    /// Checks an evolution requirement against the names in the set.
    pub(crate) fn unknown_requirement(
        &mut self,
        loc: &Located,
        name: &str,
        nearest: Option<String>,
    ) {
        self.at(
            loc,
            Some("requirements"),
            LoadErrorKind::UnknownRequirement {
                name: name.to_string(),
                nearest,
            },
        );
    }

    pub(crate) fn duplicate(&mut self, loc: &Located, first: String) {
        self.at(
            loc,
            None,
            LoadErrorKind::DuplicateNumber {
                number: loc.card.number(),
                first,
            },
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]
        #[test]
        fn card_data_survives_ron(cards: Vec<Card>) {
            let text = write_ron(&cards).unwrap();
            let back: Vec<Card> = read_ron(&text).unwrap();
            prop_assert_eq!(back, cards);
        }

        #[test]
        fn card_data_survives_json(card: Card) {
            let text = serde_json::to_string(&card).unwrap();
            let back: Card = serde_json::from_str(&text).unwrap();
            prop_assert_eq!(back, card);
        }
    }

    #[test]
    fn line_col_counts_characters() {
        let t = "ab\nαβc";
        assert_eq!(line_col(t, 0), (1, 1));
        assert_eq!(line_col(t, 3), (2, 1));
        assert_eq!(line_col(t, t.find('c').unwrap()), (2, 3));
    }
}
