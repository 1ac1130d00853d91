//! The scanner: image or camera frame → decoded symbols (rxing) → a card.
//!
//! - [`code`]: the bterm card code (what a printed card's barcodes carry).
//! - [`decode`]: the preprocessing pipeline around rxing.
//! - [`files`]: reading image files safely (the pixel limit) and folders.
//! - [`frames`]: live frames (webcam, or a folder of frames) on a worker thread.
//! - [`wild`]: product barcodes as wild Digimon.
//! - [`enroll`]: barcodes bound to cards by the collector.
//! - [`print`] and [`pdf`]: printable cards.
//! - [`perturb`]: photo-like damage, for the test scans and the benches.

pub mod code;
pub use bterm_decode::confirm;
pub use bterm_decode::decode;
pub mod decoys;
pub mod enroll;
pub mod files;
pub mod frames;
pub use bterm_decode::imageops;
pub mod pdf;
pub mod perturb;
pub mod print;
#[cfg(feature = "camera")]
pub mod webcam;
pub mod wild;

use serde::Serialize;

pub use code::{Content, Format, QR_BATTLE_PREFIX, Symbol};
pub use decode::{Decoded, Effort, Pass, decode};
pub use enroll::Enrolments;

use crate::cards::{Card, CardSet};

/// Where a scanned card came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// A bterm card code naming a card of the set.
    Printed,
    /// A QR code carrying a whole custom card.
    Custom,
    /// A product barcode made into a wild Digimon.
    Wild,
    /// A barcode the collector bound to a card.
    Enrolled,
}

/// A card a scan resolved to.
#[derive(Debug, Clone, PartialEq)]
pub struct Resolved {
    /// The card.
    pub card: Card,
    /// How it was found.
    pub source: Source,
    /// Whether the card is in the card set (custom and wild cards are not:
    /// they travel with the team, see `Setup::extra`).
    pub in_set: bool,
}

/// Why a scan gives no card.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NoCard {
    /// Nothing was found.
    #[error(
        "no barcode found; fill more of the picture with the card, hold it flat and light it evenly"
    )]
    NoBarcode,
    /// A card number no card has.
    #[error("the {format} reads \"{text}\": {why}")]
    UnknownNumber {
        /// The symbology.
        format: &'static str,
        /// The text.
        text: String,
        /// The resolver's answer.
        why: String,
    },
    /// A custom card that is not a valid card.
    #[error("the QR code carries a custom card that is not valid: {0}")]
    BadCustom(String),
    /// A barcode that is no bterm card and not enrolled.
    #[error(
        "the {format} \"{text}\" is not a bterm card; bind it to one with `bterm enroll FILE NUMBER`"
    )]
    Foreign {
        /// The symbology.
        format: &'static str,
        /// The text.
        text: String,
    },
    /// A battle card: it holds a replay (its QR code's text), not a Digimon.
    #[error(
        "this is a bterm battle card (a replay of a battle, not a Digimon card): play it with `bterm replay FILE`"
    )]
    BattleCard(String),
    /// Several different cards in one picture.
    #[error("{0} different cards in one picture ({1}); scan one card at a time")]
    Several(usize, String),
}

/// Turns decoded symbols into cards: the card set plus the enrolments.
#[derive(Debug, Clone)]
pub struct Scanner {
    set: CardSet,
    enrolments: Enrolments,
}

impl Scanner {
    /// A scanner over a card set and the collector's enrolments.
    pub fn new(set: CardSet, enrolments: Enrolments) -> Scanner {
        Scanner { set, enrolments }
    }

    /// The card set.
    pub fn set(&self) -> &CardSet {
        &self.set
    }

    /// What one symbol is.
    pub fn resolve_symbol(&self, symbol: &Symbol) -> Result<Resolved, NoCard> {
        let from_set = |card: &Card, source| Resolved {
            card: card.clone(),
            source,
            in_set: true,
        };
        if let Some(number) = self.enrolments.get(symbol) {
            return match self.set.get(&number) {
                Some(card) => Ok(from_set(card, Source::Enrolled)),
                None => Err(NoCard::UnknownNumber {
                    format: symbol.format.name(),
                    text: symbol.text.clone(),
                    why: format!("it is enrolled as {number}, which is no card in this set"),
                }),
            };
        }
        match code::classify(symbol) {
            Content::Number(text) => self
                .set
                .resolve(&text)
                .map(|c| from_set(c, Source::Printed))
                .map_err(|e| NoCard::UnknownNumber {
                    format: symbol.format.name(),
                    text: symbol.text.clone(),
                    why: e.to_string(),
                }),
            Content::Custom(ron) => {
                let card = self.custom_card(&ron)?;
                let in_set = self.set.get(&card.number()) == Some(&card);
                Ok(Resolved {
                    card,
                    source: Source::Custom,
                    in_set,
                })
            }
            Content::Product(digits) => match wild::wild_card(&digits) {
                Some(card) => Ok(Resolved {
                    card,
                    source: Source::Wild,
                    in_set: false,
                }),
                None => Err(NoCard::Foreign {
                    format: symbol.format.name(),
                    text: symbol.text.clone(),
                }),
            },
            Content::Battle => Err(NoCard::BattleCard(symbol.text.clone())),
            Content::Foreign => Err(NoCard::Foreign {
                format: symbol.format.name(),
                text: symbol.text.clone(),
            }),
        }
    }

    /// A custom card from a QR code, checked the way card files are (its
    /// requirements may name cards of the set).
    fn custom_card(&self, ron: &str) -> Result<Card, NoCard> {
        let cards: Vec<Card> =
            crate::cards::read_ron(ron).map_err(|e| NoCard::BadCustom(e.to_string()))?;
        let [card] = <[Card; 1]>::try_from(cards)
            .map_err(|v| NoCard::BadCustom(format!("{} cards where one was expected", v.len())))?;
        self.set
            .with_cards(std::slice::from_ref(&card))
            .map_err(|e| NoCard::BadCustom(e.to_string().replace('\n', "; ")))?;
        Ok(card)
    }

    /// The symbols in two classes, in their order: bterm card codes and
    /// enrolled barcodes, then the rest.
    fn card_codes_first<'s>(&self, symbols: &'s [Symbol]) -> [Vec<&'s Symbol>; 2] {
        let is_card_code = |s: &Symbol| {
            self.enrolments.get(s).is_some()
                || matches!(code::classify(s), Content::Number(_) | Content::Custom(_))
        };
        let (first, rest) = symbols.iter().partition(|s| is_card_code(s));
        [first, rest]
    }

    /// The one card among the symbols of a picture. bterm card codes and
    /// enrolled barcodes come first: when one of them gives a card, other
    /// symbols in the picture (a product barcode in the background, a
    /// decoder's misread of a few bars) are not counted against it.
    pub fn resolve(&self, symbols: &[Symbol]) -> Result<Resolved, NoCard> {
        if symbols.is_empty() {
            return Err(NoCard::NoBarcode);
        }
        let [first, rest] = self.card_codes_first(symbols);
        let mut first_error = None;
        for class in [first, rest] {
            match self.resolve_among(&class) {
                Ok(r) => return Ok(r),
                Err(NoCard::NoBarcode) => {}
                Err(e @ NoCard::Several(..)) => return Err(e),
                Err(e) => {
                    first_error.get_or_insert(e);
                }
            }
        }
        Err(first_error.unwrap_or(NoCard::NoBarcode))
    }

    /// Every card among the symbols of a picture (a binder page holds
    /// several), each once, in the symbols' order. As for [`Scanner::resolve`],
    /// bterm card codes and enrolled barcodes come first: when they give
    /// cards, the other symbols are not counted.
    /// Each card comes with the symbol it was first read from.
    pub fn resolve_all<'s>(
        &self,
        symbols: &'s [Symbol],
    ) -> Result<Vec<(Resolved, &'s Symbol)>, NoCard> {
        if symbols.is_empty() {
            return Err(NoCard::NoBarcode);
        }
        let [first, rest] = self.card_codes_first(symbols);
        let mut first_error = None;
        for class in [first, rest] {
            let (cards, error) = self.cards_among(&class);
            if !cards.is_empty() {
                return Ok(cards);
            }
            if let Some(e) = error {
                first_error.get_or_insert(e);
            }
        }
        Err(first_error.unwrap_or(NoCard::NoBarcode))
    }

    /// The distinct cards the symbols give, in order, each with the symbol
    /// it was first read from, and the first error.
    fn cards_among<'s>(
        &self,
        symbols: &[&'s Symbol],
    ) -> (Vec<(Resolved, &'s Symbol)>, Option<NoCard>) {
        let mut cards: Vec<(Resolved, &Symbol)> = Vec::new();
        let mut first_error = None;
        for &s in symbols {
            match self.resolve_symbol(s) {
                Ok(r) => {
                    if !cards.iter().any(|(c, _)| c.card == r.card) {
                        cards.push((r, s));
                    }
                }
                Err(e) => {
                    first_error.get_or_insert(e);
                }
            }
        }
        (cards, first_error)
    }

    fn resolve_among(&self, symbols: &[&Symbol]) -> Result<Resolved, NoCard> {
        let (mut cards, first_error) = self.cards_among(symbols);
        match cards.len() {
            0 => Err(first_error.unwrap_or(NoCard::NoBarcode)),
            1 => Ok(cards.remove(0).0),
            n => Err(NoCard::Several(
                n,
                cards
                    .iter()
                    .map(|(r, _)| format!("{} {}", r.card.number(), r.card.name()))
                    .collect::<Vec<_>>()
                    .join(", "),
            )),
        }
    }
}
