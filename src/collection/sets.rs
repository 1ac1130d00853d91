//! The printed sets: which cards each holds (`assets/sets.ron`), checked
//! against the card set when loaded.

use serde::Deserialize;

use crate::cards::{CardNumber, CardSet};

/// The sets shipped with the sample cards.
pub const EMBEDDED: &str = include_str!("../../assets/sets.ron");

/// One printed set as written in the file.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    id: String,
    name: String,
    cards: Vec<String>,
    #[serde(default)]
    reprints: Vec<String>,
}

/// A printed set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PrintedSet {
    /// Its short name (`alpha-digimon`), as typed after `missing`.
    pub id: String,
    /// Its name as printed.
    pub name: String,
    /// The cards first printed in it, then those it reprints.
    pub cards: Vec<CardNumber>,
}

/// Every printed set, in the file's order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Sets {
    sets: Vec<PrintedSet>,
}

impl Sets {
    /// The shipped sets over the built-in card set.
    pub fn embedded(cards: &CardSet) -> Result<Sets, String> {
        Sets::parse(EMBEDDED, cards)
    }

    /// Reads a sets file: every number must be a card of `cards`, and a card
    /// may be in a second set only as a reprint.
    pub fn parse(text: &str, cards: &CardSet) -> Result<Sets, String> {
        let entries: Vec<Entry> = crate::cards::read_ron(text).map_err(|e| {
            format!(
                "sets: line {}, column {}: {}",
                e.span.start.line, e.span.start.col, e.code
            )
        })?;
        let mut first: std::collections::BTreeMap<CardNumber, String> = Default::default();
        let mut sets = Vec::new();
        let mut ids = std::collections::BTreeSet::new();
        for e in &entries {
            if e.id.is_empty() || !ids.insert(e.id.clone()) {
                return Err(format!(
                    "sets: the set id \"{}\" is empty or used twice",
                    e.id
                ));
            }
            let mut numbers = Vec::new();
            for (text, reprint) in e
                .cards
                .iter()
                .map(|t| (t, false))
                .chain(e.reprints.iter().map(|t| (t, true)))
            {
                let number: CardNumber = text
                    .parse()
                    .map_err(|err| format!("sets: {}: \"{text}\": {err}", e.id))?;
                if cards.get(&number).is_none() {
                    return Err(format!(
                        "sets: {}: {number} is not a card of the card set",
                        e.id
                    ));
                }
                if numbers.contains(&number) {
                    return Err(format!("sets: {}: {number} is listed twice", e.id));
                }
                if !reprint && let Some(other) = first.insert(number, e.id.clone()) {
                    return Err(format!(
                        "sets: {number} is in both {other} and {}; list it under `reprints` in the later set",
                        e.id
                    ));
                }
                numbers.push(number);
            }
            sets.push(PrintedSet {
                id: e.id.clone(),
                name: e.name.clone(),
                cards: numbers,
            });
        }
        for e in &entries {
            for text in &e.reprints {
                let number: CardNumber = text.parse().map_err(|err| format!("sets: {err}"))?;
                if !first.contains_key(&number) {
                    return Err(format!(
                        "sets: {}: {number} is listed as a reprint, but no set prints it first",
                        e.id
                    ));
                }
            }
        }
        Ok(Sets { sets })
    }

    /// Every set.
    pub fn all(&self) -> &[PrintedSet] {
        &self.sets
    }

    /// A set by its id or its name (case folded).
    pub fn find(&self, key: &str) -> Option<&PrintedSet> {
        let key = key.trim().to_lowercase();
        self.sets
            .iter()
            .find(|s| s.id.to_lowercase() == key || s.name.to_lowercase() == key)
    }

    /// The set a card was first printed in.
    pub fn of(&self, number: &CardNumber) -> Option<&PrintedSet> {
        // The first set that lists it; reprints come after the first printing.
        self.sets.iter().find(|s| s.cards.contains(number))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_sets_hold_every_card_once() {
        let cards = CardSet::embedded();
        let sets = Sets::embedded(&cards).unwrap();
        let listed: usize = sets.all().iter().map(|s| s.cards.len()).sum();
        assert_eq!(listed, cards.cards().len());
        let agumon: CardNumber = "Dα-001".parse().unwrap();
        assert_eq!(sets.of(&agumon).unwrap().id, "alpha-digimon");
        assert_eq!(
            sets.find("Card Game Alpha: Digimon").unwrap().id,
            "alpha-digimon"
        );
    }

    #[test]
    fn a_bad_sets_file_is_refused_with_the_reason() {
        let cards = CardSet::embedded();
        let refuse = |text: &str| Sets::parse(text, &cards).unwrap_err();
        let two =
            r#"[(id: "a", name: "A", cards: ["Dα-001"]), (id: "b", name: "B", cards: ["Dα-001"])]"#;
        assert!(refuse(two).contains("in both a and b"), "{}", refuse(two));
        let reprint = r#"[(id: "a", name: "A", cards: ["Dα-001"]), (id: "b", name: "B", cards: [], reprints: ["Dα-001"])]"#;
        let sets = Sets::parse(reprint, &cards).unwrap();
        assert_eq!(sets.find("b").unwrap().cards.len(), 1);
        let unknown = r#"[(id: "a", name: "A", cards: ["Dα-999"])]"#;
        assert!(
            refuse(unknown).contains("not a card"),
            "{}",
            refuse(unknown)
        );
        let orphan = r#"[(id: "a", name: "A", cards: [], reprints: ["Dα-001"])]"#;
        assert!(refuse(orphan).contains("no set prints it first"));
        assert!(refuse("[(id: \"a\"").contains("line 1"));
    }
}
