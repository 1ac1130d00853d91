//! Alpha Clash deck lists (docs/clash-rules.md, CL-DECK-1..8): one
//! Contender, exactly 50 Main Deck cards, up to 10 in the Sideboard, at
//! most four of a card name, at most four Clash Buffs and one Unrivaled
//! card (one copy) across the Main Deck and the Sideboard.
//!
//! A game is played with the Contender and the Main Deck (a seat's cards:
//! the Contender among them, told apart by its kind); the Sideboard is
//! checked with the list and stays out of the game (CL-D18).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{MAIN_DECK, SIDEBOARD};
use crate::cards::{Card, CardNumber, CardSet, ClashKind};
use crate::effects::clash::Keyword;

/// The most copies of a card name in a deck list (CL-DECK-7).
pub const COPIES: usize = 4;
/// The most Clash Buffs in a deck list (CL-DECK-6).
pub const CLASH_BUFFS: usize = 4;

/// A deck list as written in `assets/decks/clash/*.ron`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeckFile {
    /// What the deck is called.
    pub name: String,
    /// The Contender (a number or a name).
    pub contender: String,
    /// The Main Deck: `(count, card)`.
    pub cards: Vec<(u8, String)>,
    /// The Sideboard: `(count, card)`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sideboard: Vec<(u8, String)>,
}

impl DeckFile {
    /// The cards a seat brings to a game: the Contender first, then the
    /// Main Deck, each count expanded.
    pub fn numbers(&self, cards: &CardSet) -> Result<Vec<CardNumber>, String> {
        let mut out = vec![resolve(cards, &self.contender).map_err(|e| format!("contender: {e}"))?];
        out.extend(expand(&self.cards, cards, "card line")?);
        Ok(out)
    }

    /// The Sideboard's cards.
    pub fn sideboard_numbers(&self, cards: &CardSet) -> Result<Vec<CardNumber>, String> {
        expand(&self.sideboard, cards, "sideboard line")
    }
}

/// A card by name (an Alpha Clash card of that name first) or number.
pub fn card<'a>(cards: &'a CardSet, name: &str) -> Result<&'a crate::cards::Card, String> {
    cards
        .resolve_preferring(name, <super::Match as crate::rules::Ruleset>::own_card)
        .map_err(|e| e.to_string())
}

fn resolve(cards: &CardSet, name: &str) -> Result<CardNumber, String> {
    card(cards, name).map(|c| c.number())
}

fn expand(lines: &[(u8, String)], cards: &CardSet, what: &str) -> Result<Vec<CardNumber>, String> {
    let mut out = Vec::new();
    for (i, (count, name)) in lines.iter().enumerate() {
        let n = resolve(cards, name).map_err(|e| format!("{what} {}: {e}", i + 1))?;
        if out.len() + usize::from(*count) > 200 {
            return Err(format!(
                "{} cards or more; a deck list has at most {}",
                out.len() + usize::from(*count),
                1 + MAIN_DECK + SIDEBOARD
            ));
        }
        out.extend(std::iter::repeat_n(n, usize::from(*count)));
    }
    Ok(out)
}

/// The shipped decks: (name, file text).
pub const EMBEDDED: &[(&str, &str)] = &[
    (
        "ashfall",
        include_str!("../../../assets/decks/clash/ashfall-rush.ron"),
    ),
    (
        "skyward",
        include_str!("../../../assets/decks/clash/skyward-vanguard.ron"),
    ),
    (
        "wildfire",
        include_str!("../../../assets/decks/clash/wildfire-stampede.ron"),
    ),
    (
        "twilight",
        include_str!("../../../assets/decks/clash/twilight-vigil.ron"),
    ),
];

/// A shipped deck by name (its short name or its full name), as a seat's
/// cards.
pub fn embedded(name: &str, cards: &CardSet) -> Option<Result<Vec<CardNumber>, String>> {
    let want = name.trim();
    EMBEDDED.iter().find_map(|(n, text)| {
        let file = crate::cards::read_ron::<DeckFile>(text);
        let hit = n.eq_ignore_ascii_case(want)
            || file
                .as_ref()
                .is_ok_and(|f| f.name.eq_ignore_ascii_case(want));
        hit.then(|| {
            file.map_err(|e| e.to_string())
                .and_then(|f| f.numbers(cards))
        })
    })
}

/// Why a deck list breaks the deck rules.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DeckError {
    /// A card bterm does not know, or not an Alpha Clash card.
    #[error("{0} is not an Alpha Clash card (CL-DECK-0)")]
    NotClash(String),
    /// Not exactly one Contender.
    #[error("a deck has exactly one Contender; this one has {0} (CL-DECK-1)")]
    Contenders(usize),
    /// A Contender in the Sideboard.
    #[error("a Contender may not be in the Sideboard: {0} (CL-DECK-2)")]
    SideContender(String),
    /// Not exactly 50 Main Deck cards.
    #[error("the Main Deck has exactly {MAIN_DECK} cards; this one has {0} (CL-DECK-3)")]
    MainSize(usize),
    /// Too many in the Sideboard.
    #[error("the Sideboard has at most {SIDEBOARD} cards; this one has {0} (CL-DECK-4)")]
    SideSize(usize),
    /// More than one Unrivaled card.
    #[error("only one Unrivaled card is allowed in a deck list; this one has {0} (CL-DECK-5)")]
    Unrivaled(usize),
    /// More than four Clash Buffs.
    #[error(
        "up to {CLASH_BUFFS} Clash Buffs are allowed in a deck list; this one has {0} (CL-DECK-6)"
    )]
    ClashBuffs(usize),
    /// More than four of a name.
    #[error(
        "up to {COPIES} copies of a card name are allowed in a deck list; this one has {1} of {0} (CL-DECK-7)"
    )]
    Copies(String, usize),
}

/// A seat's cards split: its Contender and its Main Deck.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Split {
    /// The Contender.
    pub contender: CardNumber,
    /// The Main Deck.
    pub main: Vec<CardNumber>,
}

fn clash<'a>(cards: &'a CardSet, n: &CardNumber) -> Result<&'a crate::cards::ClashCard, DeckError> {
    cards
        .get(n)
        .and_then(Card::as_clash)
        .ok_or_else(|| DeckError::NotClash(n.to_string()))
}

/// A seat's cards as a game takes them: exactly one Contender, the rest
/// the Main Deck; `exempt` (a scripted scenario) checks only that.
pub fn split(list: &[CardNumber], cards: &CardSet, exempt: bool) -> Result<Split, DeckError> {
    let mut contenders = Vec::new();
    let mut main = Vec::with_capacity(list.len());
    for n in list {
        if clash(cards, n)?.kind == ClashKind::Contender {
            contenders.push(*n);
        } else {
            main.push(*n);
        }
    }
    if contenders.len() != 1 {
        return Err(DeckError::Contenders(contenders.len()));
    }
    if !exempt {
        check_list(&main, &[], cards)?;
        if main.len() != MAIN_DECK {
            return Err(DeckError::MainSize(main.len()));
        }
    }
    Ok(Split {
        contender: contenders[0],
        main,
    })
}

/// The limits every deck list keeps, Main Deck and Sideboard together
/// (CL-DECK-2, -4..7); not the Main Deck's size.
pub fn check_list(
    main: &[CardNumber],
    side: &[CardNumber],
    cards: &CardSet,
) -> Result<(), DeckError> {
    if side.len() > SIDEBOARD {
        return Err(DeckError::SideSize(side.len()));
    }
    let mut names: BTreeMap<&str, usize> = BTreeMap::new();
    let (mut buffs, mut unrivaled) = (0, 0);
    for (i, n) in main.iter().chain(side).enumerate() {
        let c = clash(cards, n)?;
        if c.kind == ClashKind::Contender {
            if i >= main.len() {
                return Err(DeckError::SideContender(c.name.clone()));
            }
            return Err(DeckError::Contenders(2));
        }
        *names.entry(c.name.as_str()).or_default() += 1;
        if c.kind == ClashKind::ClashBuff {
            buffs += 1;
        }
        if c.has(Keyword::Unrivaled) {
            unrivaled += 1;
        }
    }
    if let Some((name, n)) = names.iter().find(|(_, n)| **n > COPIES) {
        return Err(DeckError::Copies((*name).to_string(), *n));
    }
    if buffs > CLASH_BUFFS {
        return Err(DeckError::ClashBuffs(buffs));
    }
    if unrivaled > 1 {
        return Err(DeckError::Unrivaled(unrivaled));
    }
    Ok(())
}

/// A whole deck list: its Contender and Main Deck (a seat's cards), and
/// its Sideboard.
pub fn check(list: &[CardNumber], side: &[CardNumber], cards: &CardSet) -> Result<(), DeckError> {
    let s = split(list, cards, true)?;
    check_list(&s.main, side, cards)?;
    if s.main.len() != MAIN_DECK {
        return Err(DeckError::MainSize(s.main.len()));
    }
    Ok(())
}

/// Whether a card may join a deck being built card by card (the Contender
/// first, then the Main Deck).
pub fn check_addition(deck: &[CardNumber], card: &Card, cards: &CardSet) -> Result<(), DeckError> {
    let Some(c) = card.as_clash() else {
        return Err(DeckError::NotClash(card.number().to_string()));
    };
    let has_contender = deck
        .iter()
        .any(|n| clash(cards, n).is_ok_and(|c| c.kind == ClashKind::Contender));
    if c.kind == ClashKind::Contender {
        return if has_contender {
            Err(DeckError::Contenders(2))
        } else {
            Ok(())
        };
    }
    let main: Vec<CardNumber> = deck
        .iter()
        .copied()
        .filter(|n| clash(cards, n).is_ok_and(|c| c.kind != ClashKind::Contender))
        .collect();
    if main.len() >= MAIN_DECK {
        return Err(DeckError::MainSize(main.len() + 1));
    }
    let mut with = main;
    with.push(c.number);
    check_list(&with, &[], cards)
}

/// The deck rules as a deck screen builds a deck card by card.
pub const RULES: crate::rules::DeckRules = crate::rules::DeckRules {
    size: "a Contender and 50 cards",
    may_add: |deck, card, cards| check_addition(deck, card, cards).map_err(|e| e.to_string()),
    full: |deck, cards| split(deck, cards, true).is_ok_and(|s| s.main.len() >= MAIN_DECK),
    left: |deck, cards| {
        let main = deck
            .iter()
            .filter(|n| clash(cards, n).is_ok_and(|c| c.kind != ClashKind::Contender))
            .count();
        MAIN_DECK.saturating_sub(main)
    },
    check: |deck, cards| check(deck, &[], cards).map_err(|e| e.to_string()),
    count: |deck, cards| {
        let contender = deck
            .iter()
            .filter_map(|n| clash(cards, n).ok())
            .find(|c| c.kind == ClashKind::Contender)
            .map_or("no Contender yet".to_string(), |c| c.name.clone());
        let main = deck
            .iter()
            .filter(|n| clash(cards, n).is_ok_and(|c| c.kind != ClashKind::Contender))
            .count();
        format!("{contender} · {main} of {MAIN_DECK} cards")
    },
};
