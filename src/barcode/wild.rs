//! Wild Digimon: any retail product barcode (EAN-13, EAN-8, UPC-A, UPC-E)
//! that is no card becomes a fighter, the way Barcode Battler II turned
//! product codes into warriors. The mapping is in docs/card-code.md; every
//! value comes from the digits alone, so the same barcode is the same
//! Digimon on every machine, and it always stays inside the rules' ranges.

use crate::cards::{
    Attribute, BattleType, Card, CardNumber, Digimon, Field, Level, Prefix, Requirements,
    Technique, Techniques,
};
use crate::fingerprint::fnv1a;

const SYLLABLES: [&str; 16] = [
    "Ba", "Ko", "Zu", "Ri", "Ga", "Mo", "Pi", "Te", "Ra", "Sho", "Ki", "Do", "Nu", "Ve", "Ha", "Ji",
];
const TYPES: [&str; 8] = [
    "Beast", "Bird", "Insect", "Reptile", "Machine", "Plant", "Aquatic", "Spirit",
];
const TECH_A: [&str; 8] = [
    "Barcode Blast",
    "Scanner Beam",
    "Price Crash",
    "Stock Surge",
    "Check Digit",
    "Laser Line",
    "Shelf Slam",
    "Register Ray",
];
const TECH_B: [&str; 4] = ["Bar Whip", "Stripe Kick", "Label Toss", "Code Charge"];
const TECH_C: [&str; 4] = ["Quick Scan", "Beep Jab", "Tag Swipe", "Till Tap"];
/// The n-th draw of the digits' stream: `SplitMix64` of (FNV-1a of the digits) + n.
fn draw(seed: u64, n: u64) -> u64 {
    let mut z = seed.wrapping_add(n.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn pick<T: Copy>(values: &[T], x: u64) -> T {
    values[(x % values.len() as u64) as usize]
}

/// The wild Digimon of a product code's digits (`None` if `digits` is not
/// 6 to 13 ASCII digits).
pub fn wild_card(digits: &str) -> Option<Card> {
    if !(6..=13).contains(&digits.len()) || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let seed = fnv1a(digits.as_bytes());
    let d = |n| draw(seed, n);
    let name = format!(
        "{}{}mon",
        pick(&SYLLABLES, d(0)),
        pick(&SYLLABLES, d(1)).to_ascii_lowercase()
    );
    let a = 200 + (d(7) % 16) as u32 * 10; // 200..=350
    let b = a - 50 - (d(8) % 6) as u32 * 10; // a-100..=a-50
    let c = (b - 50 - (d(9) % 6) as u32 * 10).max(50);
    let serial = (digits.parse::<u64>().unwrap_or(0) % 10_000) as u16;
    Some(Card::Digimon(Digimon {
        number: CardNumber::new(Prefix::Wild, serial),
        name,
        cost: 1 + (d(2) % 2) as u8,
        speed: 1 + (d(3) % 9) as u8,
        requirements: Requirements::None,
        battle_type: pick(&BattleType::ALL, d(4)),
        hp: 300 + (d(5) % 31) as u32 * 10,
        techniques: Techniques {
            a: Technique {
                name: pick(&TECH_A, d(10)).to_string(),
                power: a,
            },
            b: Technique {
                name: pick(&TECH_B, d(11)).to_string(),
                power: b,
            },
            c: Technique {
                name: pick(&TECH_C, d(12)).to_string(),
                power: c,
            },
        },
        field: pick(&Field::ALL, d(6)),
        level: Level::III,
        kind: pick(&TYPES, d(13)).to_string(),
        attribute: pick(&Attribute::ALL, d(14)),
        group: None,
        one_card_limit: false,
        deck_limit: None,
        terminal: Vec::new(),
        alpha: Vec::new(),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{CardSet, write_ron};
    use proptest::prelude::*;

    #[test]
    fn same_digits_same_digimon_and_different_digits_differ() {
        let a = wild_card("4901234567894").unwrap();
        assert_eq!(a, wild_card("4901234567894").unwrap());
        assert_ne!(a, wild_card("4901234567887").unwrap());
        assert_eq!(a.number().to_string(), "WD-7894");
        assert!(wild_card("12ab").is_none());
        assert!(wild_card("").is_none());
    }

    proptest! {
        /// Every wild Digimon passes the card loader's checks (ranges, names).
        #[test]
        fn wild_cards_are_valid_cards(digits in "[0-9]{8}|[0-9]{12,13}") {
            let card = wild_card(&digits).unwrap();
            let text = write_ron(&vec![card]).unwrap();
            let set = CardSet::from_sources(&[("wild.ron".into(), text)]);
            prop_assert!(set.is_ok(), "{:?}", set.err());
        }
    }
}
