//! Decks (the Net Ocean): the deck file format and the rulebook's deck
//! rules. A refused deck names the card and the rule.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::cards::{Card, CardKind, CardNumber, CardSet, Level};

/// Cards in a deck.
pub const DECK_SIZE: usize = 32;
/// Copies of one (base) name a deck may hold.
pub const NAME_LIMIT: usize = 3;

/// A deck as written in `assets/decks/*.ron`: a name and its cards, each
/// line a count and a card (number or name), in the order listed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeckFile {
    /// What the deck is called.
    pub name: String,
    /// `(count, card)`: the card is a number (`Dα-001`) or a name.
    pub cards: Vec<(u8, String)>,
}

/// Why a deck is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DeckError {
    /// A line names no card of the set.
    #[error("line {line}: {message}")]
    UnknownCard {
        /// 1-based: the line of a deck file, or the entry of a list.
        line: usize,
        /// The set's answer (with the nearest card).
        message: String,
    },
    /// A card of another game.
    #[error(
        "line {line}: {name} ({number}) is a {game} card; a Card Game Alpha deck is built from Card Game Alpha cards"
    )]
    OtherGame {
        /// 1-based: the line of a deck file, or the entry of a list.
        line: usize,
        /// The card's name.
        name: String,
        /// Its number.
        number: CardNumber,
        /// Its game.
        game: String,
    },
    /// Not 32 cards.
    #[error("the deck has {0} cards; a Net Ocean is exactly 32 (rulebook, Play Area: Net Ocean)")]
    Size(usize),
    /// No Level III.
    #[error(
        "the deck has no Level III Digimon; at least one is needed (rulebook, Play Area: Net Ocean)"
    )]
    NoLevelIii,
    /// Too many of one name.
    #[error(
        "{count} cards named \"{name}\" ({numbers}); at most {limit} of one name, an X-Antibody counting as its base name (rulebook, Play Area: Net Ocean)"
    )]
    NameLimit {
        /// How many the rules allow (3 unless the card says otherwise).
        limit: usize,
        /// The base name.
        name: String,
        /// How many.
        count: usize,
        /// The card numbers that carry it.
        numbers: String,
    },
}

impl DeckError {
    /// A card of another game at a deck's `line` (1-based).
    pub fn other_game(line: usize, card: &Card) -> DeckError {
        DeckError::OtherGame {
            line,
            name: card.name().to_string(),
            number: card.number(),
            game: card.kind().to_string(),
        }
    }

    /// A card that is not the set's (a custom or wild card) at a deck's
    /// `line` (1-based).
    pub fn not_in_set(line: usize, card: &Card) -> DeckError {
        DeckError::UnknownCard {
            line,
            message: format!(
                "{} ({}) is not in the card set; a deck is built from the set's cards",
                card.name(),
                card.number()
            ),
        }
    }
}

impl DeckFile {
    /// Every problem of a deck file, each entry's named by the line of
    /// `text` (the file) it is on: cards that are not in the set or of
    /// another game, then the deck rules over the cards that are.
    /// Empty: a legal deck.
    pub fn problems(&self, text: &str, cards: &CardSet) -> Vec<DeckError> {
        let lines = entry_lines(text);
        let line = |i: usize| lines.get(i).copied().unwrap_or(i + 1);
        let mut out = Vec::new();
        let mut found: Vec<&Card> = Vec::new();
        let mut size = 0usize;
        for (i, (count, name)) in self.cards.iter().enumerate() {
            size += usize::from(*count);
            match cards.resolve(name) {
                Err(e) => out.push(DeckError::UnknownCard {
                    line: line(i),
                    message: e.to_string(),
                }),
                Ok(c) if c.as_dcg().is_some() || c.as_clash().is_some() => {
                    out.push(DeckError::other_game(line(i), c));
                }
                Ok(c) => found.extend(std::iter::repeat_n(c, usize::from(*count))),
            }
        }
        out.extend(rule_problems(size, &found));
        out
    }

    /// The deck's cards in order, each count expanded.
    pub fn numbers(&self, cards: &CardSet) -> Result<Vec<CardNumber>, DeckError> {
        let mut out = Vec::with_capacity(DECK_SIZE);
        for (i, (count, name)) in self.cards.iter().enumerate() {
            let card = cards.resolve(name).map_err(|e| DeckError::UnknownCard {
                line: i + 1,
                message: e.to_string(),
            })?;
            if out.len() + usize::from(*count) > 4 * DECK_SIZE {
                return Err(DeckError::Size(out.len() + usize::from(*count)));
            }
            out.extend(std::iter::repeat_n(card.number(), usize::from(*count)));
        }
        Ok(out)
    }
}

/// Checks a deck (card numbers, in order) against the rulebook's deck
/// rules; every card must be in `cards`. The first problem ([`problems`]
/// lists them all).
pub fn check(deck: &[CardNumber], cards: &CardSet) -> Result<(), DeckError> {
    match problems(deck, cards).into_iter().next() {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// Every way a deck (card numbers, in order) breaks the rulebook's deck
/// rules, in the order of the rules: cards not in the set or of another
/// game (by entry), then the size, the Level III, each name over its
/// limit. Empty: a legal deck.
pub fn problems(deck: &[CardNumber], cards: &CardSet) -> Vec<DeckError> {
    let mut out = Vec::new();
    for (i, n) in deck.iter().enumerate() {
        match cards.get(n) {
            None => out.push(DeckError::UnknownCard {
                line: i + 1,
                message: format!("no card numbered {n} in the card set"),
            }),
            Some(c) if c.as_dcg().is_some() || c.as_clash().is_some() => {
                out.push(DeckError::other_game(i + 1, c));
            }
            Some(_) => {}
        }
    }
    let found: Vec<&Card> = deck.iter().filter_map(|n| cards.get(n)).collect();
    out.extend(rule_problems(deck.len(), &found));
    out
}

/// The deck rules' problems of a deck's cards (`size`: how many it holds).
fn rule_problems(size: usize, found: &[&Card]) -> Vec<DeckError> {
    let mut out = Vec::new();
    if size != DECK_SIZE {
        out.push(DeckError::Size(size));
    }
    if !found.iter().any(|c| is_level_iii(c)) {
        out.push(DeckError::NoLevelIii);
    }
    // Per base name: its cards, and the most any of them allows.
    let mut names: BTreeMap<&str, (Vec<CardNumber>, Option<usize>)> = BTreeMap::new();
    for c in found {
        let e = names.entry(c.base_name()).or_default();
        e.0.push(c.number());
        if let Some(n) = c.deck_limit() {
            e.1 = e.1.max(Some(usize::from(n)));
        }
    }
    for (name, (numbers, stated)) in names {
        let limit = stated.unwrap_or(NAME_LIMIT);
        if numbers.len() > limit {
            let mut distinct: Vec<String> = numbers.iter().map(ToString::to_string).collect();
            distinct.sort();
            distinct.dedup();
            out.push(DeckError::NameLimit {
                limit,
                name: name.to_string(),
                count: numbers.len(),
                numbers: distinct.join(", "),
            });
        }
    }
    out
}

/// The line (1-based) each `(count, "card")` entry of a deck file's text
/// starts on, in order; comments are skipped.
fn entry_lines(text: &str) -> Vec<usize> {
    let mut out = Vec::new();
    let Some(at) = text.find("cards") else {
        return out;
    };
    let mut line = 1 + text[..at].matches('\n').count();
    let mut chars = text[at..].chars().peekable();
    let mut depth = 0usize;
    while let Some(c) = chars.next() {
        match c {
            '\n' => line += 1,
            '/' if chars.peek() == Some(&'/') => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        line += 1;
                        break;
                    }
                }
            }
            '"' => {
                while let Some(c) = chars.next() {
                    match c {
                        '\\' => {
                            chars.next();
                        }
                        '"' => break,
                        '\n' => line += 1,
                        _ => {}
                    }
                }
            }
            '[' => depth += 1,
            ']' => {
                if depth <= 1 {
                    break;
                }
                depth -= 1;
            }
            '(' if depth == 1 => out.push(line),
            _ => {}
        }
    }
    out
}

/// Checks one card before it joins a deck being built (scanned or typed):
/// the deck is not full and the card's name is not at its limit. The
/// Level III rule needs the whole deck; [`check`] settles it at 32.
pub fn check_addition(deck: &[CardNumber], card: &Card, cards: &CardSet) -> Result<(), DeckError> {
    if cards.get(&card.number()).is_none() {
        return Err(DeckError::not_in_set(deck.len() + 1, card));
    }
    if card.as_dcg().is_some() {
        return Err(DeckError::other_game(deck.len() + 1, card));
    }
    if deck.len() >= DECK_SIZE {
        return Err(DeckError::Size(deck.len() + 1));
    }
    let base = card.base_name();
    let same: Vec<&Card> = deck
        .iter()
        .filter_map(|n| cards.get(n))
        .filter(|c| c.base_name() == base)
        .collect();
    let limit = same
        .iter()
        .chain(std::iter::once(&card))
        .filter_map(|c| c.deck_limit())
        .max()
        .map_or(NAME_LIMIT, usize::from);
    if same.len() + 1 > limit {
        let mut numbers: Vec<String> = same
            .iter()
            .chain(std::iter::once(&card))
            .map(|c| c.number().to_string())
            .collect();
        numbers.sort();
        numbers.dedup();
        return Err(DeckError::NameLimit {
            limit,
            name: base.to_string(),
            count: same.len() + 1,
            numbers: numbers.join(", "),
        });
    }
    Ok(())
}

/// Whether a card is a Level III Digimon (a Hybrid counts at its level).
pub fn is_level_iii(card: &Card) -> bool {
    card.as_digimon()
        .is_some_and(|d| d.level.stage() == crate::cards::Stage::III)
}

/// A deck's make-up, for `bterm deck show`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Summary {
    /// Cards of each kind.
    pub kinds: BTreeMap<String, usize>,
    /// Digimon by level.
    pub levels: BTreeMap<String, usize>,
    /// Cards by Cost.
    pub costs: BTreeMap<u8, usize>,
}

impl Summary {
    /// Counts a deck's cards.
    pub fn of(deck: &[CardNumber], cards: &CardSet) -> Summary {
        let mut s = Summary::default();
        for c in deck.iter().filter_map(|n| cards.get(n)) {
            *s.kinds.entry(c.kind().to_string()).or_default() += 1;
            if let Some(d) = c.as_digimon() {
                let level = match d.level {
                    Level::Hybrid(st) => format!("Hybrid ({st:?})"),
                    l => format!("{:?}", l.stage()),
                };
                *s.levels.entry(level).or_default() += 1;
            }
            if c.kind() != CardKind::Command {
                *s.costs.entry(c.cost().unwrap_or(0)).or_default() += 1;
            }
        }
        s
    }
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let join = |m: Vec<String>| m.join(", ");
        writeln!(
            f,
            "kinds: {}",
            join(self.kinds.iter().map(|(k, n)| format!("{n} {k}")).collect())
        )?;
        writeln!(
            f,
            "levels: {}",
            join(
                self.levels
                    .iter()
                    .map(|(k, n)| format!("{n} {k}"))
                    .collect()
            )
        )?;
        write!(
            f,
            "costs: {}",
            join(self.costs.iter().map(|(k, n)| format!("{n}×{k}")).collect())
        )
    }
}

/// The decks shipped in `assets/decks/`, by file stem.
pub const EMBEDDED: &[(&str, &str)] = &[
    ("courage", include_str!("../../../assets/decks/courage.ron")),
    (
        "friendship",
        include_str!("../../../assets/decks/friendship.ron"),
    ),
    (
        "nightmare",
        include_str!("../../../assets/decks/nightmare.ron"),
    ),
    ("jogress", include_str!("../../../assets/decks/jogress.ron")),
    (
        "sky-and-sea",
        include_str!("../../../assets/decks/sky-and-sea.ron"),
    ),
];

/// A shipped deck by its stem (`courage`), as card numbers.
pub fn embedded(stem: &str, cards: &CardSet) -> Option<Result<Vec<CardNumber>, DeckError>> {
    let (_, text) = EMBEDDED.iter().find(|(s, _)| *s == stem)?;
    Some(match crate::cards::read_ron::<DeckFile>(text) {
        Ok(f) => f.numbers(cards),
        Err(e) => Err(DeckError::UnknownCard {
            line: e.span.start.line,
            message: e.code.to_string(),
        }),
    })
}

/// The deck rules as a deck screen builds a deck card by card.
pub const RULES: crate::rules::DeckRules = crate::rules::DeckRules {
    size: "32 cards",
    may_add: |deck, card, cards| check_addition(deck, card, cards).map_err(|e| e.to_string()),
    full: |deck, _| deck.len() >= DECK_SIZE,
    left: |deck, _| DECK_SIZE.saturating_sub(deck.len()),
    check: |deck, cards| check(deck, cards).map_err(|e| e.to_string()),
    count: |deck, cards| {
        let n = deck.len();
        let level_iii = deck.iter().filter_map(|c| cards.get(c)).any(is_level_iii);
        if n > 0 && !level_iii {
            format!("{n} of {DECK_SIZE} cards · no Level III yet (a deck needs one)")
        } else {
            format!("{n} of {DECK_SIZE} cards")
        }
    },
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deck_file_reports_every_problem_on_its_own_line() {
        let text = "// a bad deck\n(\n    name: \"bad\",\n    cards: [\n        (4, \"Dα-001\"), // four Agumon\n        (1, \"Xx-999\"),\n        (2, \"Dα-005\"),\n        (2, \"Dα-004\"),\n        (1, \"ST1-03\"),\n    ],\n)\n";
        let cards = CardSet::embedded();
        let file: DeckFile = crate::cards::read_ron(text).unwrap();
        let said: Vec<String> = file
            .problems(text, &cards)
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(said.len(), 5, "{said:#?}");
        assert!(said[0].starts_with("line 6: "), "{said:#?}");
        assert!(
            said[1].starts_with("line 9: ") && said[1].contains("Digimon Card Game"),
            "{said:#?}"
        );
        assert!(said[2].starts_with("the deck has 10 cards"), "{said:#?}");
        assert!(said[3].contains("cards named \"Agumon\""), "{said:#?}");
        assert!(said[4].contains("cards named \"War Greymon\""), "{said:#?}");
        // A legal deck has none.
        let courage = EMBEDDED.iter().find(|(n, _)| *n == "courage").unwrap().1;
        let file: DeckFile = crate::cards::read_ron(courage).unwrap();
        assert!(file.problems(courage, &cards).is_empty());
    }
}
