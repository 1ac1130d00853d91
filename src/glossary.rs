//! The game's words that cards and the effect grammar both use: battle
//! types, Fields, levels and attributes (the seeds' glossary). The lowest
//! room: it imports nothing of bterm's.

use std::fmt;

use serde::{Deserialize, Serialize};

#[cfg(test)]
use proptest_derive::Arbitrary;

/// A battle type (and the technique that answers it): A, B or C.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub enum BattleType {
    /// A (the Red button).
    A,
    /// B (the Blue button).
    B,
    /// C (the Green button).
    C,
}

impl BattleType {
    /// A, B, C.
    pub const ALL: [BattleType; 3] = [BattleType::A, BattleType::B, BattleType::C];

    /// The letter.
    pub fn letter(self) -> char {
        match self {
            BattleType::A => 'A',
            BattleType::B => 'B',
            BattleType::C => 'C',
        }
    }

    /// Index 0, 1, 2.
    pub fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for BattleType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// The eight Fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub enum Field {
    /// Dragon's Roar (DR).
    DragonsRoar,
    /// Nature Spirits (NSp).
    NatureSpirits,
    /// Nightmare Soldiers (NSo).
    NightmareSoldiers,
    /// Jungle Troopers (JT).
    JungleTroopers,
    /// Wind Guardians (WG).
    WindGuardians,
    /// Deep Savers (DS).
    DeepSavers,
    /// Metal Empire (ME).
    MetalEmpire,
    /// Virus Busters (VB).
    VirusBusters,
}

impl Field {
    /// All eight Fields.
    pub const ALL: [Field; 8] = [
        Field::DragonsRoar,
        Field::NatureSpirits,
        Field::NightmareSoldiers,
        Field::JungleTroopers,
        Field::WindGuardians,
        Field::DeepSavers,
        Field::MetalEmpire,
        Field::VirusBusters,
    ];

    /// The Field's name.
    pub fn name(self) -> &'static str {
        match self {
            Field::DragonsRoar => "Dragon's Roar",
            Field::NatureSpirits => "Nature Spirits",
            Field::NightmareSoldiers => "Nightmare Soldiers",
            Field::JungleTroopers => "Jungle Troopers",
            Field::WindGuardians => "Wind Guardians",
            Field::DeepSavers => "Deep Savers",
            Field::MetalEmpire => "Metal Empire",
            Field::VirusBusters => "Virus Busters",
        }
    }

    /// The rulebook's abbreviation (DR, NSp, …).
    pub fn abbreviation(self) -> &'static str {
        match self {
            Field::DragonsRoar => "DR",
            Field::NatureSpirits => "NSp",
            Field::NightmareSoldiers => "NSo",
            Field::JungleTroopers => "JT",
            Field::WindGuardians => "WG",
            Field::DeepSavers => "DS",
            Field::MetalEmpire => "ME",
            Field::VirusBusters => "VB",
        }
    }

    /// Parses a Field from its name or abbreviation, ignoring case, spaces and apostrophes.
    pub fn parse_forgiving(s: &str) -> Option<Field> {
        let squash = |s: &str| -> String {
            s.chars()
                .filter(|c| c.is_alphanumeric())
                .flat_map(char::to_lowercase)
                .collect()
        };
        let want = squash(s);
        Field::ALL
            .into_iter()
            .find(|f| squash(f.name()) == want || squash(f.abbreviation()) == want)
    }
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A Digimon's standard level, the rank its evolution line climbs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub enum Stage {
    /// Level III (Child, yellow).
    III,
    /// Level IV (Adult, red).
    IV,
    /// Perfect (blue).
    Perfect,
    /// Ultimate (purple).
    Ultimate,
}

impl Stage {
    /// All four standard levels in order.
    pub const ALL: [Stage; 4] = [Stage::III, Stage::IV, Stage::Perfect, Stage::Ultimate];

    /// The level's name as printed.
    pub fn name(self) -> &'static str {
        match self {
            Stage::III => "Level III",
            Stage::IV => "Level IV",
            Stage::Perfect => "Perfect",
            Stage::Ultimate => "Ultimate",
        }
    }
}

impl fmt::Display for Stage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A Digimon's attribute.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub enum Attribute {
    /// Vaccine.
    Vaccine,
    /// Data.
    Data,
    /// Virus.
    Virus,
    /// Unknown.
    Unknown,
    /// Variable: takes the attribute of the Digimon it faces.
    Variable,
}

impl Attribute {
    /// All five attributes.
    pub const ALL: [Attribute; 5] = [
        Attribute::Vaccine,
        Attribute::Data,
        Attribute::Virus,
        Attribute::Unknown,
        Attribute::Variable,
    ];

    /// The attribute's name.
    pub fn name(self) -> &'static str {
        match self {
            Attribute::Vaccine => "Vaccine",
            Attribute::Data => "Data",
            Attribute::Virus => "Virus",
            Attribute::Unknown => "Unknown",
            Attribute::Variable => "Variable",
        }
    }

    /// The attribute in battle against `other`: Variable becomes the
    /// opponent's attribute, unless the opponent is Variable too.
    pub fn facing(self, other: Attribute) -> Attribute {
        match self {
            Attribute::Variable => other,
            a => a,
        }
    }
}

impl fmt::Display for Attribute {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
