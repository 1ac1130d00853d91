//! A checked card set: look-up by number and by name, and the forgiving
//! resolver for card numbers typed by a person.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::load::{Checker, LoadError, LoadErrorKind, LoadErrors, Located, parse_file, write_ron};
use super::{Card, CardKind, CardNumber, base_name};

/// The largest card file read (4 MiB: the whole sample set is 60 KiB).
pub const MAX_CARD_FILE_BYTES: u64 = 4 << 20;

/// The sample card set the game ships, compiled in so the game runs with no
/// files around it. A test checks this list against `assets/cards/`.
pub const EMBEDDED_CARDS: &[(&str, &str)] = &[
    (
        "assets/cards/dragons-roar.ron",
        include_str!("../../assets/cards/dragons-roar.ron"),
    ),
    (
        "assets/cards/nature-spirits.ron",
        include_str!("../../assets/cards/nature-spirits.ron"),
    ),
    (
        "assets/cards/nightmare-soldiers.ron",
        include_str!("../../assets/cards/nightmare-soldiers.ron"),
    ),
    (
        "assets/cards/jungle-troopers.ron",
        include_str!("../../assets/cards/jungle-troopers.ron"),
    ),
    (
        "assets/cards/wind-guardians.ron",
        include_str!("../../assets/cards/wind-guardians.ron"),
    ),
    (
        "assets/cards/deep-savers.ron",
        include_str!("../../assets/cards/deep-savers.ron"),
    ),
    (
        "assets/cards/metal-empire.ron",
        include_str!("../../assets/cards/metal-empire.ron"),
    ),
    (
        "assets/cards/virus-busters.ron",
        include_str!("../../assets/cards/virus-busters.ron"),
    ),
    (
        "assets/cards/options.ron",
        include_str!("../../assets/cards/options.ron"),
    ),
    (
        "assets/cards/commands.ron",
        include_str!("../../assets/cards/commands.ron"),
    ),
    (
        "assets/cards/clash/ac9-sample.ron",
        include_str!("../../assets/cards/clash/ac9-sample.ron"),
    ),
    (
        "assets/cards/dcg/st1-red.ron",
        include_str!("../../assets/cards/dcg/st1-red.ron"),
    ),
    (
        "assets/cards/dcg/st2-blue.ron",
        include_str!("../../assets/cards/dcg/st2-blue.ron"),
    ),
    (
        "assets/cards/dcg/st3-yellow.ron",
        include_str!("../../assets/cards/dcg/st3-yellow.ron"),
    ),
    (
        "assets/cards/dcg/st6-purple.ron",
        include_str!("../../assets/cards/dcg/st6-purple.ron"),
    ),
    (
        "assets/cards/dcg/bt1-sample.ron",
        include_str!("../../assets/cards/dcg/bt1-sample.ron"),
    ),
];

/// A validated set of cards.
#[derive(Debug, Clone)]
pub struct CardSet {
    cards: Vec<Card>,
    by_number: HashMap<CardNumber, usize>,
    by_base_name: HashMap<String, Vec<usize>>,
}

/// Why a typed card number or name resolves to no card.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ResolveError {
    /// Not a card number, nor a card name.
    #[error("\"{input}\" is neither a card number nor a card name{}", hint(.nearest))]
    NotANumber {
        /// What was typed.
        input: String,
        /// The nearest card, as "number name".
        nearest: Option<String>,
    },
    /// A well-formed number that no card has.
    #[error("no card {number} in this set{}", hint(.nearest))]
    Unknown {
        /// The number asked for.
        number: CardNumber,
        /// The nearest card, as "number name".
        nearest: Option<String>,
    },
}

fn hint(nearest: &Option<String>) -> String {
    nearest
        .as_ref()
        .map(|n| format!("; did you mean {n}?"))
        .unwrap_or_default()
}

/// Levenshtein distance over characters.
pub(crate) fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = if ca == *cb {
                prev
            } else {
                1 + prev.min(cur).min(row[j])
            };
            prev = cur;
        }
    }
    row[b.len()]
}

fn squash(name: &str) -> String {
    name.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

impl CardSet {
    /// The sample set compiled into the program.
    pub fn embedded() -> CardSet {
        let sources: Vec<(PathBuf, String)> = EMBEDDED_CARDS
            .iter()
            .map(|(p, t)| (PathBuf::from(p), (*t).to_string()))
            .collect();
        // The embedded set is checked by the test suite; a broken build of it is a bug.
        CardSet::from_sources(&sources)
            .unwrap_or_else(|e| panic!("the embedded card set is invalid:\n{e}"))
    }

    /// Loads a card file, or every `*.ron` file below a directory (sorted by
    /// path; links to folders are not followed). Each file must be a regular
    /// file of at most [`MAX_CARD_FILE_BYTES`].
    pub fn load(path: &Path) -> Result<CardSet, LoadErrors> {
        let io = |file: &Path, e: std::io::Error| {
            LoadErrors(vec![LoadError {
                file: file.to_path_buf(),
                line: 0,
                column: 0,
                card: None,
                kind: LoadErrorKind::Io(e.to_string()),
            }])
        };
        let mut files = Vec::new();
        if path.is_dir() {
            let (found, errors) =
                crate::save::walk(path, &|p: &Path| p.extension().is_some_and(|e| e == "ron"));
            if let Some((dir, e)) = errors.into_iter().next() {
                return Err(io(&dir, e));
            }
            files = found;
            if files.is_empty() {
                return Err(LoadErrors(vec![LoadError {
                    file: path.to_path_buf(),
                    line: 0,
                    column: 0,
                    card: None,
                    kind: LoadErrorKind::NoFiles,
                }]));
            }
        } else {
            files.push(path.to_path_buf());
        }
        let mut sources = Vec::new();
        for f in files {
            let text = crate::save::read_text(&f, MAX_CARD_FILE_BYTES).map_err(|e| {
                LoadErrors(vec![LoadError {
                    file: f.clone(),
                    line: 0,
                    column: 0,
                    card: None,
                    kind: LoadErrorKind::Io(e.to_string()),
                }])
            })?;
            sources.push((f, text));
        }
        CardSet::from_sources(&sources)
    }

    /// Parses and checks card files given as (path, text).
    pub fn from_sources(sources: &[(PathBuf, String)]) -> Result<CardSet, LoadErrors> {
        let mut errors = Vec::new();
        let located: Vec<Located> = sources
            .iter()
            .enumerate()
            .flat_map(|(i, (path, text))| parse_file(path, text, i, &mut errors))
            .collect();
        let mut checker = Checker {
            texts: sources,
            errors,
        };

        let mut by_number: HashMap<CardNumber, usize> = HashMap::new();
        let mut by_base_name: HashMap<String, Vec<usize>> = HashMap::new();
        let mut kept: Vec<&Located> = Vec::new();
        for loc in &located {
            checker.check_card(loc);
            let number = loc.card.number();
            if let Some(&first) = by_number.get(&number) {
                let first = checker.position(kept[first]);
                checker.duplicate(loc, first);
                continue;
            }
            by_number.insert(number, kept.len());
            by_base_name
                .entry(loc.card.base_name().to_string())
                .or_default()
                .push(kept.len());
            kept.push(loc);
        }
        let digimon_names: Vec<&str> = kept
            .iter()
            .filter(|l| l.card.kind() == CardKind::Digimon)
            .map(|l| l.card.base_name())
            .collect();
        for loc in &kept {
            let Some(d) = loc.card.as_digimon() else {
                continue;
            };
            for name in d.requirements.names() {
                if !digimon_names.contains(&base_name(name)) {
                    let nearest =
                        nearest_by(digimon_names.iter().copied(), name, |n| n.to_string());
                    checker.unknown_requirement(loc, name, nearest);
                }
            }
        }
        if !checker.errors.is_empty() {
            return Err(LoadErrors(checker.errors));
        }
        Ok(CardSet {
            cards: kept.into_iter().map(|l| l.card.clone()).collect(),
            by_number,
            by_base_name,
        })
    }

    /// This set plus cards that travel on their own (custom cards from QR
    /// codes, wild Digimon from product barcodes), checked as card files are:
    /// ranges, names, requirements, and no number used twice. A card equal
    /// to one already in the set is no duplicate.
    pub fn with_cards(&self, extra: &[Card]) -> Result<CardSet, LoadErrors> {
        let mut new: Vec<&Card> = Vec::new();
        for card in extra {
            if self.get(&card.number()) != Some(card) && !new.contains(&card) {
                new.push(card);
            }
        }
        if new.is_empty() {
            return Ok(self.clone());
        }
        let io = |file: &str, e: ron::Error| {
            LoadErrors(vec![LoadError {
                file: PathBuf::from(file),
                line: 0,
                column: 0,
                card: None,
                kind: LoadErrorKind::Io(e.to_string()),
            }])
        };
        let set_text = write_ron(&self.cards).map_err(|e| io("<card set>", e))?;
        let extra_text = write_ron(&new).map_err(|e| io("<extra cards>", e))?;
        CardSet::from_sources(&[
            (PathBuf::from("<card set>"), set_text),
            (PathBuf::from("<extra cards>"), extra_text),
        ])
    }

    /// This set, or (when a setup carries cards of its own) this set plus
    /// those cards, as [`CardSet::with_cards`] checks them; the error is one
    /// line per problem, joined by "; ".
    pub fn extended(&self, extra: &[Card]) -> Result<std::borrow::Cow<'_, CardSet>, String> {
        if extra.is_empty() {
            return Ok(std::borrow::Cow::Borrowed(self));
        }
        self.with_cards(extra)
            .map(std::borrow::Cow::Owned)
            .map_err(|e| e.to_string().replace('\n', "; "))
    }

    /// This set plus the cards of one more card file (`path` names it in
    /// the errors, with their lines), checked as card files are.
    pub fn with_card_file(&self, path: &Path, text: &str) -> Result<CardSet, LoadErrors> {
        let set_text = write_ron(&self.cards).map_err(|e| {
            LoadErrors(vec![LoadError {
                file: PathBuf::from("<card set>"),
                line: 0,
                column: 0,
                card: None,
                kind: LoadErrorKind::Io(e.to_string()),
            }])
        })?;
        CardSet::from_sources(&[
            (PathBuf::from("<card set>"), set_text),
            (path.to_path_buf(), text.to_string()),
        ])
    }

    /// Every card, in file order.
    pub fn cards(&self) -> &[Card] {
        &self.cards
    }

    /// How many cards.
    pub fn len(&self) -> usize {
        self.cards.len()
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.cards.is_empty()
    }

    /// The card with this number.
    pub fn get(&self, number: &CardNumber) -> Option<&Card> {
        self.by_number.get(number).map(|&i| &self.cards[i])
    }

    /// Cards whose base name (X-Antibody counts as its base) is `name`.
    pub fn by_base_name(&self, name: &str) -> impl Iterator<Item = &Card> {
        self.by_base_name
            .get(base_name(name))
            .into_iter()
            .flatten()
            .map(|&i| &self.cards[i])
    }

    /// As [`CardSet::resolve`], but a name several games' cards share
    /// means the first card of that name that `prefer` picks (a game's own
    /// card: "Greymon" at a Digimon Card Game prompt is its Greymon).
    pub fn resolve_preferring(
        &self,
        input: &str,
        prefer: impl Fn(&Card) -> bool,
    ) -> Result<&Card, ResolveError> {
        let want = squash(input);
        match self
            .cards
            .iter()
            .find(|c| prefer(c) && squash(c.name()) == want)
        {
            Some(card) => Ok(card),
            None => self.resolve(input),
        }
    }

    /// Resolves what a person typed: a card number in any forgiving form
    /// (`da-001`, `Dα-001`, `DA001`), or else a card name. Unknown input
    /// suggests the nearest card.
    pub fn resolve(&self, input: &str) -> Result<&Card, ResolveError> {
        match input.parse::<CardNumber>() {
            Ok(number) => self.get(&number).ok_or_else(|| ResolveError::Unknown {
                number,
                nearest: self.nearest_number(&number.folded()),
            }),
            Err(_) => {
                let want = squash(input);
                if let Some(card) = self.cards.iter().find(|c| squash(c.name()) == want) {
                    return Ok(card);
                }
                let nearest = nearest_by(self.cards.iter(), &want, |c| squash(c.name()))
                    .or_else(|| self.nearest_number(&super::number::fold(input)));
                Err(ResolveError::NotANumber {
                    input: input.trim().to_string(),
                    nearest: nearest.map(|n| self.describe_nearest(&n)),
                })
            }
        }
    }

    fn describe_nearest(&self, key: &str) -> String {
        self.cards
            .iter()
            .find(|c| squash(c.name()) == key || c.number().folded() == key)
            .map_or_else(
                || key.to_string(),
                |c| format!("{} {}", c.number(), c.name()),
            )
    }

    fn nearest_number(&self, folded: &str) -> Option<String> {
        // Fewest edits first; among equals, the serial nearest the one typed.
        let typed_serial: i64 = folded
            .trim_start_matches(|c: char| !c.is_ascii_digit())
            .parse()
            .unwrap_or(0);
        self.cards
            .iter()
            .map(|c| {
                let d = edit_distance(&c.number().folded(), folded);
                (d, (i64::from(c.number().serial) - typed_serial).abs(), c)
            })
            .min_by_key(|(d, gap, _)| (*d, *gap))
            .filter(|(d, _, _)| *d <= 3)
            .map(|(_, _, c)| format!("{} {}", c.number(), c.name()))
    }
}

/// The item whose key is nearest to `want`, if it is near enough to be a typo.
fn nearest_by<T>(
    items: impl Iterator<Item = T>,
    want: &str,
    key: impl Fn(&T) -> String,
) -> Option<String> {
    let mut best: Option<(usize, String)> = None;
    for item in items {
        let k = key(&item);
        let d = edit_distance(&k.to_lowercase(), &want.to_lowercase());
        if best.as_ref().is_none_or(|(bd, _)| d < *bd) {
            best = Some((d, k));
        }
    }
    let limit = (want.chars().count() / 3).max(2);
    best.filter(|(d, _)| *d <= limit).map(|(_, k)| k)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_distance_counts_edits() {
        assert_eq!(edit_distance("greymon", "greymon"), 0);
        assert_eq!(edit_distance("greymon", "graymon"), 1);
        assert_eq!(edit_distance("agumon", "agumn"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
    }
}
