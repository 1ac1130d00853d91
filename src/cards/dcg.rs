//! The Digimon Card Game's cards (Bandai, 2020 onward): Digi-Eggs,
//! Digimon, Tamers and Options, with colours, levels, costs, digivolution
//! costs, DP and effects written as the cards print them
//! (`crate::effects::dcg`). A card of this game is a card like any other
//! in the set, the collection and the scanner; only this game's rules read
//! its fields.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::CardNumber;
use crate::effects::dcg::{self, Ability, Color};

#[cfg(test)]
use proptest_derive::Arbitrary;

/// The four kinds of card of the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub enum DcgKind {
    /// A Digi-Egg (level 2), in the Digi-Egg deck; hatched in the breeding area.
    DigiEgg,
    /// A Digimon.
    Digimon,
    /// A Tamer.
    Tamer,
    /// An Option.
    Option,
}

impl fmt::Display for DcgKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DcgKind::DigiEgg => "Digi-Egg",
            DcgKind::Digimon => "Digimon",
            DcgKind::Tamer => "Tamer",
            DcgKind::Option => "Option",
        })
    }
}

/// One way to digivolve into a card: from a Digimon of this colour and
/// level, for this cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct DigivolveCost {
    /// The colour the Digimon digivolved from must have.
    pub color: Color,
    /// Its level.
    #[cfg_attr(test, proptest(strategy = "2u8..=6"))]
    pub level: u8,
    /// The memory it costs.
    #[cfg_attr(test, proptest(strategy = "0u8..=8"))]
    pub cost: u8,
}

/// An effect as a card file writes it: the printed sentence, read by the
/// effect grammar when the file is loaded.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Said(pub Ability);

#[cfg(test)]
impl proptest::arbitrary::Arbitrary for Said {
    type Parameters = ();
    type Strategy = proptest::strategy::BoxedStrategy<Said>;
    /// Abilities as a card file holds them: as the grammar reads them back.
    fn arbitrary_with((): ()) -> Self::Strategy {
        use proptest::strategy::Strategy;
        proptest::arbitrary::any::<Ability>()
            .prop_map(|a| Said(dcg::parse(&dcg::render(&a)).expect("render parses")))
            .boxed()
    }
}

impl TryFrom<String> for Said {
    type Error = String;
    fn try_from(s: String) -> Result<Said, String> {
        let a = dcg::parse(&s).map_err(|e| format!("effect \"{s}\" {e}"))?;
        let canonical = dcg::render(&a);
        if canonical != s {
            return Err(format!(
                "effect \"{s}\" reads as \"{canonical}\": write it that way"
            ));
        }
        Ok(Said(a))
    }
}

impl From<Said> for String {
    fn from(s: Said) -> String {
        dcg::render(&s.0)
    }
}

/// A card of the Digimon Card Game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct DcgCard {
    /// Card number, e.g. `ST1-03` or `BT1-086`.
    pub number: CardNumber,
    /// Card name, e.g. "Agumon".
    #[cfg_attr(test, proptest(regex = "[A-Z][a-z]{1,9}( [A-Z][a-z]{1,9})?"))]
    pub name: String,
    /// Its kind.
    pub kind: DcgKind,
    /// Its colours (one, or two for a multi-coloured card).
    #[cfg_attr(
        test,
        proptest(
            strategy = "proptest::collection::vec(proptest::arbitrary::any::<Color>(), 1..3)"
        )
    )]
    pub colors: Vec<Color>,
    /// Level 2 (Digi-Eggs) to 7; none for Tamers and Options.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, proptest(strategy = "proptest::option::of(2u8..=7)"))]
    pub level: Option<u8>,
    /// Play cost (Digimon, Tamer) or use cost (Option); none for Digi-Eggs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, proptest(strategy = "proptest::option::of(0u8..=20)"))]
    pub cost: Option<u8>,
    /// The ways to digivolve into it (Digimon).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(
        test,
        proptest(
            strategy = "proptest::collection::vec(proptest::arbitrary::any::<DigivolveCost>(), 0..2)"
        )
    )]
    pub digivolve: Vec<DigivolveCost>,
    /// DP (Digimon).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(
        test,
        proptest(
            strategy = "proptest::option::of(proptest::strategy::Strategy::prop_map(1u32..=16, |n| n * 1000))"
        )
    )]
    pub dp: Option<u32>,
    /// Form ("Rookie", "Champion", "In-Training").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, proptest(strategy = "proptest::option::of(\"[A-Z][a-z]{1,9}\")"))]
    pub form: Option<String>,
    /// Attribute ("Vaccine", "Data", "Virus", "Free").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, proptest(strategy = "proptest::option::of(\"[A-Z][a-z]{1,9}\")"))]
    pub attribute: Option<String>,
    /// Types ("Reptile", "Dinosaur").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(
        test,
        proptest(strategy = "proptest::collection::vec(\"[A-Z][a-z]{1,9}\", 0..2)")
    )]
    pub types: Vec<String>,
    /// Its effects (the main text, [Security] effects among them).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(
        test,
        proptest(strategy = "proptest::collection::vec(proptest::arbitrary::any::<Said>(), 0..3)")
    )]
    pub effects: Vec<Said>,
    /// Its inherited effects: what it gives the Digimon it lies under.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(
        test,
        proptest(strategy = "proptest::collection::vec(proptest::arbitrary::any::<Said>(), 0..2)")
    )]
    pub inherited: Vec<Said>,
}

impl DcgCard {
    /// Its effects.
    pub fn abilities(&self) -> impl Iterator<Item = &Ability> {
        self.effects.iter().map(|s| &s.0)
    }

    /// Its inherited effects.
    pub fn inherited_abilities(&self) -> impl Iterator<Item = &Ability> {
        self.inherited.iter().map(|s| &s.0)
    }

    /// Whether it has this colour.
    pub fn has_color(&self, c: Color) -> bool {
        self.colors.contains(&c)
    }

    /// What is wrong with the card on its own, if anything: (field, why).
    pub fn problem(&self) -> Option<(&'static str, String)> {
        if self.colors.is_empty() || self.colors.len() > 2 {
            return Some(("colors", "a card has one or two colours".into()));
        }
        match self.kind {
            DcgKind::DigiEgg => {
                if self.level != Some(2) {
                    return Some(("level", "a Digi-Egg is level 2".into()));
                }
                if self.cost.is_some() || self.dp.is_some() || !self.digivolve.is_empty() {
                    return Some((
                        "cost",
                        "a Digi-Egg has no play cost, no DP and no digivolution cost".into(),
                    ));
                }
            }
            DcgKind::Digimon => {
                let Some(level) = self.level.filter(|l| (3..=7).contains(l)) else {
                    return Some(("level", "a Digimon is level 3 to 7".into()));
                };
                if self.cost.is_none_or(|c| c > 20) {
                    return Some(("cost", "a Digimon has a play cost of 0 to 20".into()));
                }
                if self.dp.is_none_or(|d| d == 0 || !d.is_multiple_of(1000)) {
                    return Some(("dp", "a Digimon has DP in thousands".into()));
                }
                if let Some(d) = self.digivolve.iter().find(|d| d.level >= level) {
                    return Some((
                        "digivolve",
                        format!(
                            "it digivolves from level {}, not lower than its own level {level}",
                            d.level
                        ),
                    ));
                }
            }
            DcgKind::Tamer | DcgKind::Option => {
                if self.level.is_some() || self.dp.is_some() || !self.digivolve.is_empty() {
                    return Some((
                        "level",
                        format!("a {} has no level, DP or digivolution cost", self.kind),
                    ));
                }
                if self.cost.is_none() {
                    return Some(("cost", format!("a {} has a cost", self.kind)));
                }
            }
        }
        if self.kind != DcgKind::Digimon
            && self.kind != DcgKind::DigiEgg
            && !self.inherited.is_empty()
        {
            return Some((
                "inherited",
                "only Digimon and Digi-Eggs have inherited effects".into(),
            ));
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::read_ron;

    #[test]
    fn a_card_file_entry_reads_with_its_effects() {
        let c: DcgCard = read_ron(
            r#"(number: "ST1-03", name: "Agumon", kind: Digimon, colors: [Red], level: 3, cost: 3,
                digivolve: [(color: Red, level: 2, cost: 0)], dp: 2000, form: "Rookie",
                attribute: "Vaccine", types: ["Reptile"],
                inherited: ["[Your Turn] This Digimon gets +1000 DP."])"#,
        )
        .unwrap();
        assert_eq!(c.number.to_string(), "ST1-03");
        assert_eq!(c.problem(), None);
        assert_eq!(c.inherited_abilities().count(), 1);
    }

    #[test]
    fn an_effect_not_written_as_the_grammar_writes_it_is_refused_with_the_right_form() {
        let e = read_ron::<DcgCard>(
            r#"(number: "ST1-03", name: "Agumon", kind: Digimon, colors: [Red], level: 3, cost: 3,
                dp: 2000, effects: ["[On Play] delete 1 of your opponent's Digimon with 2000 DP or less."])"#,
        )
        .unwrap_err()
        .to_string();
        assert!(
            e.contains("write it that way") && e.contains("Delete 1"),
            "{e}"
        );
        let e = read_ron::<DcgCard>(
            r#"(number: "ST1-03", name: "Agumon", kind: Digimon, colors: [Red], level: 3, cost: 3,
                dp: 2000, effects: ["[On Play] Banish 1 of your opponent's Digimon."])"#,
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("at character 11"), "{e}");
    }

    #[test]
    fn a_card_that_breaks_its_kinds_shape_says_which_field() {
        let egg: DcgCard = read_ron(
            r#"(number: "ST1-01", name: "Koromon", kind: DigiEgg, colors: [Red], level: 2, dp: 1000)"#,
        )
        .unwrap();
        assert_eq!(egg.problem().map(|p| p.0), Some("cost"));
        let tamer: DcgCard =
            read_ron(r#"(number: "ST1-12", name: "Tai Kamiya", kind: Tamer, colors: [Red])"#)
                .unwrap();
        assert_eq!(tamer.problem().map(|p| p.0), Some("cost"));
    }
}
