//! Digimon Card Game decks: a main deck of exactly 50 and a Digi-Egg deck
//! of 0 to 5, at most 4 of a card number in each (docs/dcg-rules.md,
//! DCG-DECK-1..4). A deck file lists both together, as deck builders
//! export them; the Digi-Eggs are told apart by their kind.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::cards::{Card, CardNumber, CardSet, DcgKind};

/// A deck as written in `assets/decks/dcg/*.ron`: a name, its cards (each
/// a count and a card number or name), and for the Players Format its
/// Player Tamer and Player Digimon, two of its own cards (DCG-LAN-29).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeckFile {
    /// What the deck is called.
    pub name: String,
    /// `(count, card)`.
    pub cards: Vec<(u8, String)>,
    /// The Players Format's Player Tamer (one of `cards`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player_tamer: Option<String>,
    /// The Players Format's Player Digimon or Digi-Egg (one of `cards`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player_digimon: Option<String>,
}

impl DeckFile {
    /// The deck's cards in order, each count expanded; with Player cards
    /// named, those two first (the order a Players Format setup reads).
    pub fn numbers(&self, cards: &CardSet) -> Result<Vec<CardNumber>, String> {
        let mut out: Vec<CardNumber> = Vec::with_capacity(66);
        for (i, (count, name)) in self.cards.iter().enumerate() {
            let card = super::script::resolve(cards, name)
                .map_err(|e| format!("card line {}: {e}", i + 1))?;
            if out.len() + usize::from(*count) > 200 {
                return Err(format!(
                    "{} cards or more; a deck has at most {} with its Digi-Eggs",
                    out.len() + usize::from(*count),
                    PLAYERS_MAIN + PLAYERS_EGGS
                ));
            }
            out.extend(std::iter::repeat_n(card.number(), usize::from(*count)));
        }
        match (&self.player_tamer, &self.player_digimon) {
            (None, None) => Ok(out),
            (Some(t), Some(d)) => {
                let mut first = Vec::with_capacity(out.len());
                for (role, name) in [("player_tamer", t), ("player_digimon", d)] {
                    let n = super::script::resolve(cards, name)
                        .map_err(|e| format!("{role}: {e}"))?
                        .number();
                    let Some(at) = out.iter().position(|x| *x == n) else {
                        return Err(format!(
                            "{role} {name} is not one of the deck's cards; the Player cards are chosen from the deck (DCG-LAN-29)"
                        ));
                    };
                    out.remove(at);
                    first.push(n);
                }
                first.extend(out);
                Ok(first)
            }
            _ => Err(
                "a Players Format deck names both its player_tamer and its player_digimon (DCG-LAN-29)"
                    .into(),
            ),
        }
    }

    /// Whether it names Player cards (a Players Format deck).
    pub fn is_players_format(&self) -> bool {
        self.player_tamer.is_some()
    }
}

/// Cards in a main deck.
pub const MAIN_DECK: usize = 50;
/// The most Digi-Eggs a Digi-Egg deck may hold.
pub const EGG_DECK_MOST: usize = 5;
/// The most cards of one number in a deck.
pub const COPIES: usize = 4;
/// Main-deck cards of a Players Format deck (DCG-LAN-29).
pub const PLAYERS_MAIN: usize = 60;
/// Digi-Eggs of a Players Format deck (DCG-LAN-29).
pub const PLAYERS_EGGS: usize = 6;

/// The shipped decks: (name, file text).
pub const EMBEDDED: &[(&str, &str)] = &[
    ("red", include_str!("../../../assets/decks/dcg/st1-red.ron")),
    (
        "blue",
        include_str!("../../../assets/decks/dcg/st2-blue.ron"),
    ),
    (
        "yellow",
        include_str!("../../../assets/decks/dcg/st3-yellow.ron"),
    ),
    (
        "purple",
        include_str!("../../../assets/decks/dcg/st6-purple.ron"),
    ),
];

/// The shipped Players Format decks (3 and 4 players, DCG-LAN-29).
pub const PLAYERS_EMBEDDED: &[(&str, &str)] = &[
    (
        "players-red-blue",
        include_str!("../../../assets/decks/dcg/players-red-blue.ron"),
    ),
    (
        "players-green",
        include_str!("../../../assets/decks/dcg/players-green.ron"),
    ),
];

/// Why a deck is refused, naming the card and the rule.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DeckError {
    /// A number no card of the set has.
    #[error("card {position}: no card numbered {number} in the card set")]
    Unknown {
        /// 1-based position in the list.
        position: usize,
        /// The number.
        number: CardNumber,
    },
    /// A card of another game.
    #[error(
        "card {position}: {name} ({number}) is a {game} card; a Digimon Card Game deck is built from Digimon Card Game cards (DCG-DECK-1)"
    )]
    OtherGame {
        /// 1-based position in the list.
        position: usize,
        /// Its name.
        name: String,
        /// Its number.
        number: CardNumber,
        /// Its game.
        game: String,
    },
    /// Not 50 main-deck cards.
    #[error(
        "the main deck has {0} cards; it must have exactly {MAIN_DECK} Digimon, Tamer and Option cards (DCG-DECK-1)"
    )]
    MainSize(usize),
    /// Too many Digi-Eggs.
    #[error(
        "the Digi-Egg deck has {0} cards; it may have 0 to {EGG_DECK_MOST} Digi-Eggs (DCG-DECK-3)"
    )]
    EggSize(usize),
    /// A Players Format deck without its Player cards.
    #[error(
        "a Players Format deck names its Player Tamer and Player Digimon (the deck file's player_tamer and player_digimon) (DCG-LAN-29)"
    )]
    NoPlayerCards,
    /// The Player Tamer is not a Tamer, or the Player Digimon not a Digimon
    /// or Digi-Egg.
    #[error("{name} ({number}) cannot be the Player {role}: it is a {kind} (DCG-LAN-29)")]
    PlayerCard {
        /// "Tamer" or "Digimon".
        role: &'static str,
        /// The card's name.
        name: String,
        /// Its number.
        number: CardNumber,
        /// What it is.
        kind: String,
    },
    /// Not 60 main-deck cards in the Players Format.
    #[error(
        "the main deck has {0} cards; a Players Format deck has exactly {PLAYERS_MAIN} (the Player cards count among them) (DCG-LAN-29)"
    )]
    PlayersMainSize(usize),
    /// Not 6 Digi-Eggs in the Players Format.
    #[error(
        "the Digi-Egg deck has {0} cards; a Players Format deck has exactly {PLAYERS_EGGS} Digi-Eggs (DCG-LAN-29)"
    )]
    PlayersEggSize(usize),
    /// Two of a number in the Players Format.
    #[error(
        "{count} copies of {name} ({number}); a Players Format deck holds 1 card of each number, Digi-Eggs too (DCG-LAN-29)"
    )]
    Single {
        /// The card's name.
        name: String,
        /// Its number.
        number: CardNumber,
        /// How many.
        count: usize,
    },
    /// A colour the Player cards do not have.
    #[error(
        "card {position}: {name} ({number}) is {colours}; this deck may hold only {allowed} cards, the colours of its Player Tamer and Player Digimon (DCG-LAN-30)"
    )]
    Colour {
        /// 1-based position in the list.
        position: usize,
        /// The card's name.
        name: String,
        /// Its number.
        number: CardNumber,
        /// Its colours.
        colours: String,
        /// The colours allowed.
        allowed: String,
    },
    /// Too many of one number.
    #[error(
        "{count} copies of {name} ({number}); a deck may hold at most {COPIES} cards of one card number (DCG-DECK-2)"
    )]
    Copies {
        /// The card's name.
        name: String,
        /// Its number.
        number: CardNumber,
        /// How many.
        count: usize,
    },
}

/// A deck's cards split into the main deck and the Digi-Egg deck, in the
/// order listed.
pub fn split(
    deck: &[CardNumber],
    cards: &CardSet,
) -> Result<(Vec<CardNumber>, Vec<CardNumber>), DeckError> {
    let mut main = Vec::with_capacity(MAIN_DECK);
    let mut eggs = Vec::new();
    for (i, n) in deck.iter().enumerate() {
        let card = cards.get(n).ok_or(DeckError::Unknown {
            position: i + 1,
            number: *n,
        })?;
        let Some(c) = card.as_dcg() else {
            return Err(DeckError::OtherGame {
                position: i + 1,
                name: card.name().to_string(),
                number: *n,
                game: card.kind().to_string(),
            });
        };
        if c.kind == DcgKind::DigiEgg {
            eggs.push(*n);
        } else {
            main.push(*n);
        }
    }
    Ok((main, eggs))
}

/// Checks a deck (main deck and Digi-Eggs together) against the deck rules.
pub fn check(deck: &[CardNumber], cards: &CardSet) -> Result<(), DeckError> {
    let (main, eggs) = split(deck, cards)?;
    let mut counts: BTreeMap<CardNumber, usize> = BTreeMap::new();
    for n in deck {
        *counts.entry(*n).or_default() += 1;
    }
    if let Some((number, count)) = counts.into_iter().find(|(_, c)| *c > COPIES) {
        return Err(DeckError::Copies {
            name: cards
                .get(&number)
                .map_or(String::new(), |c| c.name().to_string()),
            number,
            count,
        });
    }
    if main.len() != MAIN_DECK {
        return Err(DeckError::MainSize(main.len()));
    }
    if eggs.len() > EGG_DECK_MOST {
        return Err(DeckError::EggSize(eggs.len()));
    }
    Ok(())
}

/// Checks one card before it joins a standard deck being built (scanned
/// or typed): a Digimon Card Game card of the set, at most 4 of its
/// number, at most 50 main-deck cards and 5 Digi-Eggs. [`check`] settles
/// the rest (exactly 50) when the deck is done.
pub fn check_addition(deck: &[CardNumber], card: &Card, cards: &CardSet) -> Result<(), DeckError> {
    let mut with = deck.to_vec();
    with.push(card.number());
    if cards.get(&card.number()).is_none() {
        return Err(DeckError::Unknown {
            position: with.len(),
            number: card.number(),
        });
    }
    let (main, eggs) = split(&with, cards)?;
    let count = with.iter().filter(|n| **n == card.number()).count();
    if count > COPIES {
        return Err(DeckError::Copies {
            name: card.name().to_string(),
            number: card.number(),
            count,
        });
    }
    if main.len() > MAIN_DECK {
        return Err(DeckError::MainSize(main.len()));
    }
    if eggs.len() > EGG_DECK_MOST {
        return Err(DeckError::EggSize(eggs.len()));
    }
    Ok(())
}

/// The deck rules as a deck screen builds a standard deck card by card.
pub const RULES: crate::rules::DeckRules = crate::rules::DeckRules {
    size: "50 cards and up to 5 Digi-Eggs",
    may_add: |deck, card, cards| check_addition(deck, card, cards).map_err(|e| e.to_string()),
    full: |deck, cards| {
        split(deck, cards)
            .is_ok_and(|(main, eggs)| main.len() >= MAIN_DECK && eggs.len() >= EGG_DECK_MOST)
    },
    left: |deck, cards| {
        split(deck, cards).map_or(0, |(main, _)| MAIN_DECK.saturating_sub(main.len()))
    },
    check: |deck, cards| check(deck, cards).map_err(|e| e.to_string()),
    count: |deck, cards| match split(deck, cards) {
        Ok((main, eggs)) => format!(
            "{} of {MAIN_DECK} cards · {} of up to {EGG_DECK_MOST} Digi-Eggs",
            main.len(),
            eggs.len()
        ),
        Err(e) => e.to_string(),
    },
};

/// Checks a Players Format deck: its first two cards are the Player Tamer
/// and the Player Digimon (which count among its cards, L17); `exempt`
/// (a scripted scenario) checks only those two.
pub fn check_players(deck: &[CardNumber], cards: &CardSet, exempt: bool) -> Result<(), DeckError> {
    if deck.len() < 2 {
        return Err(DeckError::NoPlayerCards);
    }
    split(deck, cards)?;
    let dcg = |n: &CardNumber| cards.get(n).and_then(|c| c.as_dcg());
    for (i, role) in [(0, "Tamer"), (1, "Digimon")] {
        let Some(c) = dcg(&deck[i]) else {
            return Err(DeckError::NoPlayerCards);
        };
        let fits = match role {
            "Tamer" => c.kind == DcgKind::Tamer,
            _ => matches!(c.kind, DcgKind::Digimon | DcgKind::DigiEgg),
        };
        if !fits {
            return Err(DeckError::PlayerCard {
                role,
                name: c.name.clone(),
                number: c.number,
                kind: c.kind.to_string(),
            });
        }
    }
    if exempt {
        return Ok(());
    }
    let (main, eggs) = split(deck, cards)?;
    let mut counts: BTreeMap<CardNumber, usize> = BTreeMap::new();
    for n in deck {
        *counts.entry(*n).or_default() += 1;
    }
    if let Some((number, count)) = counts.into_iter().find(|(_, c)| *c > 1) {
        return Err(DeckError::Single {
            name: cards
                .get(&number)
                .map_or(String::new(), |c| c.name().to_string()),
            number,
            count,
        });
    }
    if main.len() != PLAYERS_MAIN {
        return Err(DeckError::PlayersMainSize(main.len()));
    }
    if eggs.len() != PLAYERS_EGGS {
        return Err(DeckError::PlayersEggSize(eggs.len()));
    }
    let mut allowed = Vec::new();
    for n in &deck[..2] {
        for c in dcg(n).map(|c| c.colors.clone()).unwrap_or_default() {
            if !allowed.contains(&c) {
                allowed.push(c);
            }
        }
    }
    let words = |list: &[crate::effects::dcg::Color]| {
        list.iter().map(|c| c.word()).collect::<Vec<_>>().join(", ")
    };
    for (i, n) in deck.iter().enumerate() {
        if let Some(c) = dcg(n)
            && !c.colors.iter().all(|k| allowed.contains(k))
        {
            return Err(DeckError::Colour {
                position: i + 1,
                name: c.name.clone(),
                number: c.number,
                colours: words(&c.colors),
                allowed: words(&allowed),
            });
        }
    }
    Ok(())
}

/// A shipped deck by name, as card numbers.
pub fn embedded(name: &str, cards: &CardSet) -> Option<Result<Vec<CardNumber>, String>> {
    let (_, text) = EMBEDDED
        .iter()
        .chain(PLAYERS_EMBEDDED)
        .find(|(n, _)| n.eq_ignore_ascii_case(name))?;
    Some(
        crate::cards::read_ron::<DeckFile>(text)
            .map_err(|e| e.to_string())
            .and_then(|f| f.numbers(cards)),
    )
}

/// A line of a deck list that names no card, and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: \"{text}\": {why}")]
pub struct ImportError {
    /// 1-based line.
    pub line: usize,
    /// The line as written (shortened).
    pub text: String,
    /// Why it names no card.
    pub why: String,
}

/// Section headings deck builders write between the cards.
const HEADINGS: &[&str] = &[
    "digi-egg",
    "digi-eggs",
    "digiegg",
    "digieggs",
    "egg",
    "eggs",
    "digimon",
    "tamer",
    "tamers",
    "option",
    "options",
    "main deck",
    "deck",
    "egg deck",
    "digi-egg deck",
    "main",
    "sideboard",
];

/// Reads a deck list in the plain-text forms deck builders export, one
/// card a line: `4 Agumon ST1-03`, `4 ST1-03`, `4x Agumon`, `Agumon x4`,
/// `ST1-03` (one copy). Blank lines, `//` and `#` comments and section
/// headings (`Digimon (38)`, `Tamers:`) are skipped. Every line that names
/// no card of this game is returned, not only the first.
pub fn import(text: &str, cards: &CardSet) -> Result<Vec<(u8, CardNumber)>, Vec<ImportError>> {
    let mut out: Vec<(u8, CardNumber)> = Vec::new();
    let mut bad = Vec::new();
    for (i, raw) in text.lines().enumerate().take(10_000) {
        let line = raw.trim();
        let fail = |why: String| ImportError {
            line: i + 1,
            text: line.chars().take(60).collect(),
            why,
        };
        if line.is_empty() || line.starts_with("//") || line.starts_with('#') {
            continue;
        }
        let (count, rest) = split_count(line);
        let heading = rest
            .split('(')
            .next()
            .unwrap_or("")
            .trim()
            .trim_end_matches(':')
            .to_lowercase();
        if count.is_none() && HEADINGS.contains(&heading.as_str()) {
            continue;
        }
        let count = count.unwrap_or(1);
        if count == 0 || count > 50 {
            bad.push(fail(format!("{count} copies: a count is 1 to 50")));
            continue;
        }
        match card_in(rest, cards) {
            Ok(n) => match out.iter_mut().find(|(_, x)| *x == n) {
                Some((k, _)) => *k = k.saturating_add(count),
                None => out.push((count, n)),
            },
            Err(why) => bad.push(fail(why)),
        }
    }
    if bad.is_empty() { Ok(out) } else { Err(bad) }
}

/// `4 Agumon`, `4x Agumon`, `Agumon x4`, `Agumon` → (count, the rest).
fn split_count(line: &str) -> (Option<u8>, &str) {
    let digits = line
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(line.len());
    if digits > 0 && digits <= 3 {
        let rest = line[digits..].trim_start();
        let rest = rest
            .strip_prefix(['x', 'X', '×'])
            .map_or(rest, str::trim_start);
        if line[digits..].starts_with([' ', '\t', 'x', 'X', '×']) {
            return (line[..digits].parse().ok(), rest);
        }
    }
    if let Some((head, tail)) = line.rsplit_once([' ', '\t'])
        && let Some(n) = tail.strip_prefix(['x', 'X', '×'])
        && let Ok(n) = n.parse::<u8>()
    {
        return (Some(n), head.trim());
    }
    (None, line)
}

/// The card a line's text names: a card number among its words (checked
/// against the name when both are given), else a name.
fn card_in(rest: &str, cards: &CardSet) -> Result<CardNumber, String> {
    let words: Vec<&str> = rest
        .split(|c: char| c.is_whitespace() || c == '(' || c == ')' || c == '[' || c == ']')
        .filter(|w| !w.is_empty())
        .collect();
    let number = words
        .iter()
        .rev()
        .find_map(|w| w.parse::<CardNumber>().ok().filter(CardNumber::is_dcg));
    if let Some(n) = number {
        return match cards.get(&n) {
            Some(c) if c.as_dcg().is_some() => Ok(n),
            _ => Err(format!("{n} is not a card of this card set")),
        };
    }
    let name = rest.trim();
    cards
        .cards()
        .iter()
        .find(|c| c.as_dcg().is_some() && c.name().eq_ignore_ascii_case(name))
        .map(crate::cards::Card::number)
        .ok_or_else(|| {
            format!("no Digimon Card Game card named \"{name}\" (give its number, e.g. ST1-03)")
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A deck built card by card (a deck screen): each card joins while
    /// the rules allow it, the one too many is refused naming the rule,
    /// and the deck built is one [`check`] passes.
    #[test]
    fn a_deck_built_card_by_card_is_refused_as_the_deck_rules_say() {
        let set = CardSet::embedded();
        let card = |n: &CardNumber| set.get(n).unwrap();
        let red = embedded("red", &set).unwrap().unwrap();
        let mut built: Vec<CardNumber> = Vec::new();
        for n in &red {
            check_addition(&built, card(n), &set).unwrap();
            built.push(*n);
            assert_eq!(
                (RULES.left)(&built, &set),
                MAIN_DECK - split(&built, &set).unwrap().0.len()
            );
        }
        check(&built, &set).unwrap();
        assert!((RULES.check)(&built, &set).is_ok());
        let (main, _) = split(&built, &set).unwrap();
        // A fifth copy of a number (DCG-DECK-2).
        let four = *main
            .iter()
            .find(|n| main.iter().filter(|m| m == n).count() == COPIES)
            .expect("a card the red deck holds 4 of");
        let e = check_addition(&built, card(&four), &set).unwrap_err();
        assert!(matches!(e, DeckError::Copies { count: 5, .. }), "{e}");
        assert!(e.to_string().contains("DCG-DECK-2"), "{e}");
        // A 51st main-deck card (DCG-DECK-1): one red does not hold.
        let blue = embedded("blue", &set).unwrap().unwrap();
        let (blue_main, _) = split(&blue, &set).unwrap();
        let new = blue_main.iter().find(|n| !built.contains(n)).unwrap();
        let e = check_addition(&built, card(new), &set).unwrap_err();
        assert!(matches!(e, DeckError::MainSize(51)), "{e}");
        // A sixth Digi-Egg (DCG-DECK-3).
        let mut eggs: Vec<CardNumber> = EMBEDDED
            .iter()
            .map(|(d, _)| d)
            .flat_map(|d| split(&embedded(d, &set).unwrap().unwrap(), &set).unwrap().1)
            .collect();
        eggs.sort_by_key(ToString::to_string);
        eggs.dedup();
        let five: Vec<CardNumber> = eggs.iter().cycle().take(5).copied().collect();
        let with_five: Vec<CardNumber> = main.iter().chain(&five).copied().collect();
        check(&with_five, &set).unwrap();
        let e = check_addition(&with_five, card(&eggs[0]), &set).unwrap_err();
        assert!(matches!(e, DeckError::EggSize(6)), "{e}");
        assert!((RULES.full)(&with_five, &set));
        // A card of another game (DCG-DECK-1), and the count so far.
        let e = check_addition(&[], set.resolve("Agumon").unwrap(), &set).unwrap_err();
        assert!(e.to_string().contains("DCG-DECK-1"), "{e}");
        assert!((RULES.count)(&built[..20], &set).contains("of 50 cards"));
    }

    #[test]
    fn the_forms_deck_builders_export_read() {
        let set = CardSet::embedded();
        let text = "// Red deck\nDigi-Egg (4)\n4 Koromon ST1-01\n\nDigimon:\n4 Agumon ST1-02\n3x Biyomon\nHawkmon x2\nST1-06\n# done\n2 Agumon ST1-02\n";
        let got = import(text, &set).unwrap();
        let n = |s: &str| s.parse::<CardNumber>().unwrap();
        assert_eq!(
            got,
            vec![
                (4, n("ST1-01")),
                (6, n("ST1-02")),
                (3, n("ST1-03")),
                (2, n("ST1-05")),
                (1, n("ST1-06")),
            ]
        );
    }

    #[test]
    fn every_line_it_cannot_place_is_named() {
        let set = CardSet::embedded();
        let text = "4 Agumon ST1-02\n4 Nosuchmon\n2 ST9-99\n0 Agumon\n";
        let errs = import(text, &set).unwrap_err();
        let lines: Vec<usize> = errs.iter().map(|e| e.line).collect();
        assert_eq!(lines, vec![2, 3, 4]);
        assert!(errs[0].to_string().contains("Nosuchmon"), "{}", errs[0]);
        assert!(
            errs[1].to_string().contains("ST9-099") || errs[1].to_string().contains("ST9-99"),
            "{}",
            errs[1]
        );
    }
}
