//! Card numbers (`Dα-001`, `DM02-095`, `OP-009`): their prefixes, what each
//! prefix means, and the forgiving parser for numbers typed by a person.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::CardKind;

/// The series prefix of a card number, as the Card Game Alpha rulebook lists them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(test, derive(proptest_derive::Arbitrary))]
pub enum Prefix {
    /// `Dα-`: Card Game Alpha Digimon.
    DAlpha,
    /// `DM-`: Battle Terminal Digimon.
    Dm,
    /// `DM02-`: Battle Terminal 02 Digimon.
    Dm02,
    /// `SPα-`: promotional Alpha Digimon.
    SpAlpha,
    /// `SP-`: promotional Digimon or Option cards.
    Sp,
    /// `SP02-`: promotional Battle Terminal 02 cards.
    Sp02,
    /// `Oα-`: Card Game Alpha Option cards.
    OAlpha,
    /// `OP-`: Battle Terminal Option cards.
    Op,
    /// `OP02-`: Battle Terminal 02 Option cards.
    Op02,
    /// `LTP-`: Option cards bundled with the Digimon Battle Junction.
    Ltp,
    /// `Cα-`: Card Game Alpha Command cards.
    CAlpha,
    /// `WD-`: a wild Digimon bterm made from a product barcode (not a Bandai
    /// prefix; see docs/card-code.md).
    Wild,
    /// `ST1-`: a Digimon Card Game starter deck (its number), two-digit serials.
    St(#[cfg_attr(test, proptest(strategy = "1u8..=30"))] u8),
    /// `BT1-`: a Digimon Card Game booster (its number).
    Bt(#[cfg_attr(test, proptest(strategy = "1u8..=30"))] u8),
    /// `EX1-`: a Digimon Card Game theme booster (its number).
    Ex(#[cfg_attr(test, proptest(strategy = "1u8..=30"))] u8),
    /// `P-`: a Digimon Card Game promotional card.
    Promo,
    /// `AC1-`: an Alpha Clash set (its number; bterm's invented sample
    /// cards are series 9, which Rising Empire Studios never printed).
    Ac(#[cfg_attr(test, proptest(strategy = "1u8..=30"))] u8),
}

impl Prefix {
    /// Every prefix, in the rulebook's order.
    pub const ALL: [Prefix; 12] = [
        Prefix::DAlpha,
        Prefix::Dm,
        Prefix::Dm02,
        Prefix::SpAlpha,
        Prefix::Sp,
        Prefix::Sp02,
        Prefix::OAlpha,
        Prefix::Op,
        Prefix::Op02,
        Prefix::Ltp,
        Prefix::CAlpha,
        Prefix::Wild,
    ];

    /// The prefix as printed on the card, without the dash.
    pub fn as_str(self) -> std::borrow::Cow<'static, str> {
        match self {
            Prefix::St(n) => format!("ST{n}").into(),
            Prefix::Bt(n) => format!("BT{n}").into(),
            Prefix::Ex(n) => format!("EX{n}").into(),
            Prefix::Promo => "P".into(),
            Prefix::Ac(n) => format!("AC{n}").into(),
            _ => self.fixed_str().into(),
        }
    }

    /// Whether the prefix is one of the Digimon Card Game's (2020 onward).
    pub fn is_dcg(self) -> bool {
        matches!(
            self,
            Prefix::St(_) | Prefix::Bt(_) | Prefix::Ex(_) | Prefix::Promo
        )
    }

    /// How many digits a serial is printed with (at least).
    pub fn serial_digits(self) -> usize {
        match self {
            Prefix::St(_) => 2,
            _ => 3,
        }
    }

    fn fixed_str(self) -> &'static str {
        match self {
            Prefix::St(_) | Prefix::Bt(_) | Prefix::Ex(_) | Prefix::Promo | Prefix::Ac(_) => "",
            Prefix::DAlpha => "Dα",
            Prefix::Dm => "DM",
            Prefix::Dm02 => "DM02",
            Prefix::SpAlpha => "SPα",
            Prefix::Sp => "SP",
            Prefix::Sp02 => "SP02",
            Prefix::OAlpha => "Oα",
            Prefix::Op => "OP",
            Prefix::Op02 => "OP02",
            Prefix::Ltp => "LTP",
            Prefix::CAlpha => "Cα",
            Prefix::Wild => "WD",
        }
    }

    /// What the prefix tells about the card.
    pub fn meaning(self) -> &'static str {
        match self {
            Prefix::DAlpha => "Card Game Alpha series Digimon card",
            Prefix::Dm => "Battle Terminal series Digimon card",
            Prefix::Dm02 => "Battle Terminal 02 series Digimon card",
            Prefix::SpAlpha => "promotional Alpha Digimon card",
            Prefix::Sp => "promotional card",
            Prefix::Sp02 => "promotional Battle Terminal 02 card",
            Prefix::OAlpha => "Card Game Alpha series Option card",
            Prefix::Op => "Battle Terminal series Option card",
            Prefix::Op02 => "Battle Terminal 02 series Option card",
            Prefix::Ltp => "Option card bundled with the Digimon Battle Junction",
            Prefix::CAlpha => "Card Game Alpha Command card",
            Prefix::Wild => "wild Digimon made by bterm from a product barcode",
            Prefix::St(_) => "Digimon Card Game starter deck card",
            Prefix::Bt(_) => "Digimon Card Game booster card",
            Prefix::Ex(_) => "Digimon Card Game theme booster card",
            Prefix::Promo => "Digimon Card Game promotional card",
            Prefix::Ac(_) => "Alpha Clash card",
        }
    }

    /// The kinds of card that may carry this prefix.
    pub fn allows(self, kind: CardKind) -> bool {
        match self {
            Prefix::DAlpha | Prefix::Dm | Prefix::Dm02 | Prefix::SpAlpha | Prefix::Wild => {
                kind == CardKind::Digimon
            }
            Prefix::Sp | Prefix::Sp02 => kind != CardKind::Command,
            Prefix::OAlpha | Prefix::Op | Prefix::Op02 | Prefix::Ltp => kind == CardKind::Option,
            Prefix::CAlpha => kind == CardKind::Command,
            Prefix::St(_) | Prefix::Bt(_) | Prefix::Ex(_) | Prefix::Promo => kind == CardKind::Dcg,
            Prefix::Ac(_) => kind == CardKind::Clash,
        }
    }

    /// The prefix folded to plain ASCII capitals (`α` is `A`), as typed
    /// input is folded (a Digimon Card Game series with two digits, so the
    /// folded number reads back: `ST01`).
    fn folded(self) -> String {
        match self {
            Prefix::St(n) => format!("ST{n:02}"),
            Prefix::Bt(n) => format!("BT{n:02}"),
            Prefix::Ex(n) => format!("EX{n:02}"),
            Prefix::Promo => "P".into(),
            Prefix::Ac(n) => format!("AC{n:02}"),
            _ => self.fixed_folded().into(),
        }
    }

    fn fixed_folded(self) -> &'static str {
        match self {
            Prefix::St(_) | Prefix::Bt(_) | Prefix::Ex(_) | Prefix::Promo | Prefix::Ac(_) => "",
            Prefix::DAlpha => "DA",
            Prefix::Dm => "DM",
            Prefix::Dm02 => "DM02",
            Prefix::SpAlpha => "SPA",
            Prefix::Sp => "SP",
            Prefix::Sp02 => "SP02",
            Prefix::OAlpha => "OA",
            Prefix::Op => "OP",
            Prefix::Op02 => "OP02",
            Prefix::Ltp => "LTP",
            Prefix::CAlpha => "CA",
            Prefix::Wild => "WD",
        }
    }
}

/// A card number: a series prefix and a serial, written `Dα-001`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
#[cfg_attr(test, derive(proptest_derive::Arbitrary))]
pub struct CardNumber {
    /// The series prefix.
    pub prefix: Prefix,
    /// The serial within the series (printed with at least three digits).
    #[cfg_attr(test, proptest(strategy = "0u16..=9999"))]
    pub serial: u16,
}

impl CardNumber {
    /// A card number from its parts.
    pub const fn new(prefix: Prefix, serial: u16) -> Self {
        CardNumber { prefix, serial }
    }

    /// The number folded the way typed input is folded (`DA001`), for
    /// comparing and for suggesting the nearest number.
    pub fn folded(&self) -> String {
        format!("{}{:03}", self.prefix.folded(), self.serial)
    }

    /// Whether it is a Digimon Card Game number (`ST1-03`, `BT1-086`).
    pub fn is_dcg(&self) -> bool {
        self.prefix.is_dcg()
    }
}

impl fmt::Display for CardNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let width = self.prefix.serial_digits();
        write!(f, "{}-{:0width$}", self.prefix.as_str(), self.serial)
    }
}

impl From<CardNumber> for String {
    fn from(n: CardNumber) -> String {
        n.to_string()
    }
}

impl TryFrom<String> for CardNumber {
    type Error = ParseCardNumberError;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        s.parse()
    }
}

/// Why a text is not a card number.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "\"{input}\" is not a card number: {reason} (card numbers look like Dα-001, DM02-095 or OP-009)"
)]
pub struct ParseCardNumberError {
    /// The text as given.
    pub input: String,
    /// What is wrong with it.
    pub reason: &'static str,
}

/// Folds typed input: capitals, `α`/`Α`/`a` all as `A`, no dashes, spaces or underscores.
pub(crate) fn fold(input: &str) -> String {
    input
        .chars()
        .filter(|c| !matches!(c, '-' | ' ' | '_' | '‐' | '–' | '.'))
        .map(|c| match c {
            'α' | 'Α' | 'ɑ' => 'A',
            c => c.to_ascii_uppercase(),
        })
        .collect()
}

impl FromStr for CardNumber {
    type Err = ParseCardNumberError;

    /// Parses a number forgivingly: `Dα-001`, `da-001`, `DA001` and `d-alpha 1`
    /// are not all accepted, but the first three are the same card.
    fn from_str(input: &str) -> Result<Self, Self::Err> {
        let err = |reason| ParseCardNumberError {
            input: input.to_string(),
            reason,
        };
        let trimmed = input.trim();
        if trimmed.is_empty() {
            return Err(err("it is empty"));
        }
        // With a dash, the dash says where the prefix ends.
        let dashed = trimmed.contains(['-', '‐', '–']);
        let (prefix_part, serial_part) = match trimmed.split_once(['-', '‐', '–']) {
            Some((p, s)) => (fold(p), fold(s)),
            None => {
                let folded = fold(trimmed);
                let split = folded
                    .find(|c: char| c.is_ascii_digit())
                    .unwrap_or(folded.len());
                let (p, s) = folded.split_at(split);
                // "DM02095": a serial is at most four digits, so five or more
                // digits starting with 02 belong to the 02 series.
                if s.len() >= 5 && s.starts_with("02") {
                    (format!("{p}02"), s[2..].to_string())
                } else {
                    (p.to_string(), s.to_string())
                }
            }
        };
        let (prefix, serial_part) = match Prefix::ALL
            .into_iter()
            .find(|p| p.fixed_folded() == prefix_part)
        {
            Some(p) => (p, serial_part),
            None => dcg_prefix(&prefix_part, serial_part, dashed)
                .ok_or_else(|| err("unknown prefix"))?,
        };
        if serial_part.is_empty() || !serial_part.chars().all(|c| c.is_ascii_digit()) {
            return Err(err("the part after the prefix must be digits"));
        }
        if serial_part.len() > 4 {
            return Err(err("the serial has more than four digits"));
        }
        let serial = serial_part
            .parse()
            .map_err(|_| err("the serial is not a number"))?;
        Ok(CardNumber { prefix, serial })
    }
}

/// A Digimon Card Game prefix (`ST1`, `BT12`, `EX2`, `P`) from the folded
/// letters and digits before the serial. Without a dash the digits hold
/// the series and the serial together: the serial is the last two digits
/// of a starter deck (`ST103` is ST1-03), three of the others (`BT1086`),
/// and a folded number's series is two digits (`ST01003`).
fn dcg_prefix(prefix: &str, serial: String, dashed: bool) -> Option<(Prefix, String)> {
    let letters: String = prefix
        .chars()
        .take_while(char::is_ascii_uppercase)
        .collect();
    let make = |series: &str| -> Option<Prefix> {
        let n: u8 = series.parse().ok().filter(|n| (1..=99).contains(n))?;
        match letters.as_str() {
            "ST" => Some(Prefix::St(n)),
            "BT" => Some(Prefix::Bt(n)),
            "EX" => Some(Prefix::Ex(n)),
            "AC" => Some(Prefix::Ac(n)),
            _ => None,
        }
    };
    if letters == "P" && prefix == "P" {
        return Some((Prefix::Promo, serial));
    }
    let digits = &prefix[letters.len()..];
    if dashed {
        return make(digits).map(|p| (p, serial));
    }
    // Undashed: the digits run on into the serial (digits only: the split
    // below counts bytes).
    let all = format!("{digits}{serial}");
    if !all.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let width = if letters == "ST" { 2 } else { 3 };
    let split = match all.len() {
        n if n >= 5 => 2,
        n if n > width => n - width,
        _ => return None,
    };
    make(&all[..split]).map(|p| (p, all[split..].to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_number_with_other_characters_is_refused_not_a_panic() {
        for text in ["ST1\u{fffd}06", "BT\u{fffd}\u{fffd}086", "ST10é", "EX2ü10"] {
            assert!(text.parse::<CardNumber>().is_err(), "{text}");
        }
    }

    #[test]
    fn typed_forms_are_the_same_card() {
        let want = CardNumber::new(Prefix::DAlpha, 1);
        for typed in ["Dα-001", "da-001", "DA001", " dA-1 ", "DΑ-001"] {
            assert_eq!(typed.parse::<CardNumber>().unwrap(), want, "{typed}");
        }
    }

    #[test]
    fn series_02_without_a_dash() {
        assert_eq!(
            "DM02095".parse::<CardNumber>().unwrap(),
            CardNumber::new(Prefix::Dm02, 95)
        );
        assert_eq!(
            "dm02-095".parse::<CardNumber>().unwrap(),
            CardNumber::new(Prefix::Dm02, 95)
        );
        assert_eq!(
            "DM-095".parse::<CardNumber>().unwrap(),
            CardNumber::new(Prefix::Dm, 95)
        );
        assert_eq!(
            "spα-3".parse::<CardNumber>().unwrap(),
            CardNumber::new(Prefix::SpAlpha, 3)
        );
    }

    #[test]
    fn bad_numbers_say_why() {
        let e = "XY-001".parse::<CardNumber>().unwrap_err();
        assert_eq!(e.reason, "unknown prefix");
        let e = "Dα-abc".parse::<CardNumber>().unwrap_err();
        assert_eq!(e.reason, "the part after the prefix must be digits");
        assert!("".parse::<CardNumber>().is_err());
        assert!("Dα-12345".parse::<CardNumber>().is_err());
    }

    #[test]
    fn digimon_card_game_numbers_read_as_printed_and_typed() {
        let st = CardNumber::new(Prefix::St(1), 3);
        assert_eq!(st.to_string(), "ST1-03");
        for typed in ["ST1-03", "st1-3", "ST103", "st 1-03"] {
            assert_eq!(typed.parse::<CardNumber>().unwrap(), st, "{typed}");
        }
        let ac = CardNumber::new(Prefix::Ac(9), 31);
        assert_eq!(ac.to_string(), "AC9-031");
        for typed in ["AC9-031", "ac9-31", "AC9031", "ac09031"] {
            assert_eq!(typed.parse::<CardNumber>().unwrap(), ac, "{typed}");
        }
        assert!(!ac.is_dcg());
        let bt = CardNumber::new(Prefix::Bt(1), 86);
        assert_eq!(bt.to_string(), "BT1-086");
        assert_eq!("bt1086".parse::<CardNumber>().unwrap(), bt);
        assert_eq!(
            "BT10-112".parse::<CardNumber>().unwrap().prefix,
            Prefix::Bt(10)
        );
        assert_eq!("P-001".parse::<CardNumber>().unwrap().to_string(), "P-001");
        assert_eq!(
            "EX2-010".parse::<CardNumber>().unwrap().prefix,
            Prefix::Ex(2)
        );
        assert!("XT1-03".parse::<CardNumber>().is_err());
    }

    proptest! {
        #[test]
        fn display_parses_back(n: CardNumber) {
            prop_assert_eq!(n.to_string().parse::<CardNumber>().unwrap(), n);
            prop_assert_eq!(n.folded().parse::<CardNumber>().unwrap(), n);
        }
    }
}
