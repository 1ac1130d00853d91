//! The bterm card code: how a card is written as a barcode, and how a
//! decoded symbol's text is read back. See docs/card-code.md.

use crate::cards::{Card, CardNumber};

/// The QR text that names a card by number: `BTERM:` then the number.
pub const QR_NUMBER_PREFIX: &str = "BTERM:";
/// The QR text that carries a whole card: `BTERM-CARD:` then the card in RON.
pub const QR_CARD_PREFIX: &str = "BTERM-CARD:";
/// The QR text of a battle card: `BTERM-BATTLE:` then a replay in Base45
/// (`docs/replay-code.md`).
pub const QR_BATTLE_PREFIX: &str = "BTERM-BATTLE:";

pub use bterm_decode::symbol::{Format, Symbol};

/// What a symbol's text means to bterm.
#[derive(Debug, Clone, PartialEq)]
pub enum Content {
    /// A card number (from a Code 128, or a `BTERM:` QR code): still to be
    /// looked up in the card set.
    Number(String),
    /// A whole card carried by a `BTERM-CARD:` QR code (not yet validated).
    Custom(String),
    /// A battle card: a replay, not a Digimon (`BTERM-BATTLE:` QR code).
    Battle,
    /// A retail product code: its digits.
    Product(String),
    /// Anything else: only an enrolment can make it a card.
    Foreign,
}

/// The card number as printed in a Code 128: plain ASCII (`α` is written `A`),
/// so every phone app reads it back as typed text: `Dα-001` is `DA-001`.
pub fn code128_text(number: &CardNumber) -> String {
    // A Digimon Card Game or Alpha Clash number is plain ASCII as printed
    // (`ST1-03`, `AC9-031`).
    if number.is_dcg() || matches!(number.prefix, crate::cards::Prefix::Ac(_)) {
        return number.to_string();
    }
    let folded = number.folded();
    let split = folded.len() - format!("{:03}", number.serial).len();
    format!("{}-{}", &folded[..split], &folded[split..])
}

/// The QR text that names a card by number.
pub fn qr_number_text(number: &CardNumber) -> String {
    format!("{QR_NUMBER_PREFIX}{}", code128_text(number))
}

/// The QR text that carries a whole card (RON, one line).
pub fn qr_card_text(card: &Card) -> Result<String, ron::Error> {
    let ron = ron::Options::default()
        .with_default_extension(
            ron::extensions::Extensions::UNWRAP_VARIANT_NEWTYPES
                | ron::extensions::Extensions::IMPLICIT_SOME,
        )
        .to_string(std::slice::from_ref(card))?;
    Ok(format!("{QR_CARD_PREFIX}{ron}"))
}

/// Reads a decoded symbol: what it means before any lookup.
pub fn classify(symbol: &Symbol) -> Content {
    let text = symbol.text.trim();
    if symbol.format == Format::QrCode {
        if strip_prefix_ci(text, QR_BATTLE_PREFIX).is_some() {
            return Content::Battle;
        }
        if let Some(ron) = strip_prefix_ci(text, QR_CARD_PREFIX) {
            return Content::Custom(ron.to_string());
        }
        if let Some(number) = strip_prefix_ci(text, QR_NUMBER_PREFIX) {
            return Content::Number(number.trim().to_string());
        }
    }
    if symbol.format.is_product() && text.bytes().all(|b| b.is_ascii_digit()) {
        return Content::Product(text.to_string());
    }
    if text.parse::<CardNumber>().is_ok() {
        return Content::Number(text.to_string());
    }
    Content::Foreign
}

fn strip_prefix_ci<'a>(text: &'a str, prefix: &str) -> Option<&'a str> {
    let head = text.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix)
        .then(|| &text[prefix.len()..])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Prefix;

    fn sym(format: Format, text: &str) -> Symbol {
        Symbol {
            format,
            text: text.to_string(),
        }
    }

    #[test]
    fn code128_text_is_ascii_and_reads_back() {
        let n = CardNumber::new(Prefix::DAlpha, 1);
        assert_eq!(code128_text(&n), "DA-001");
        assert_eq!(code128_text(&CardNumber::new(Prefix::Dm02, 95)), "DM02-095");
        assert_eq!(code128_text(&CardNumber::new(Prefix::Sp, 1234)), "SP-1234");
        let st = CardNumber::new(Prefix::St(1), 3);
        assert_eq!(code128_text(&st), "ST1-03");
        assert_eq!(code128_text(&st).parse::<CardNumber>().unwrap(), st);
        assert_eq!("DA-001".parse::<CardNumber>().ok(), Some(n));
    }

    #[test]
    fn classify_forgives_case_and_prefix() {
        assert_eq!(
            classify(&sym(Format::QrCode, "bterm:da-001")),
            Content::Number("da-001".into())
        );
        assert_eq!(
            classify(&sym(Format::Code128, "DA-001")),
            Content::Number("DA-001".into())
        );
        assert_eq!(
            classify(&sym(Format::Ean13, "4901234567894")),
            Content::Product("4901234567894".into())
        );
        assert_eq!(classify(&sym(Format::Code39, "HELLO")), Content::Foreign);
        assert!(matches!(
            classify(&sym(Format::QrCode, "BTERM-CARD:[x]")),
            Content::Custom(_)
        ));
    }
}
