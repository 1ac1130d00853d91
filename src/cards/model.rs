//! The card model: every field the Card Game Alpha rulebook names for
//! Digimon, Option and Command cards.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::CardNumber;
pub use super::clash::ClashCard;
pub use super::dcg::DcgCard;
use crate::effects::Ability;
pub use crate::glossary::{Attribute, BattleType, Field, Stage};

#[cfg(test)]
use proptest_derive::Arbitrary;

/// A card of any kind, as written in a card file.
#[allow(
    clippy::large_enum_variant,
    reason = "most cards of a set are Digimon: boxing them saves nothing and adds an indirection to every card read"
)]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub enum Card {
    /// A Digimon card.
    Digimon(Digimon),
    /// An Option card.
    Option(OptionCard),
    /// A Command card (tabletop only; no Cost, no barcode).
    Command(CommandCard),
    /// A card of the Digimon Card Game (2020 onward), whatever its kind.
    Dcg(DcgCard),
    /// A card of Alpha Clash, whatever its kind. (Its own round-trip
    /// property test is in `cards::clash`: generated within `Card`, its
    /// strategies nest too deep for a test thread's stack.)
    #[cfg_attr(test, proptest(skip))]
    Clash(ClashCard),
}

/// The three kinds of card.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum CardKind {
    /// Digimon cards.
    Digimon,
    /// Option cards.
    Option,
    /// Command cards.
    Command,
    /// Digimon Card Game cards (Digi-Eggs, Digimon, Tamers, Options).
    Dcg,
    /// Alpha Clash cards (Contenders, Clash cards, Accessories, Actions, Clashgrounds).
    Clash,
}

impl fmt::Display for CardKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CardKind::Digimon => "Digimon",
            CardKind::Option => "Option",
            CardKind::Command => "Command",
            CardKind::Dcg => "Digimon Card Game",
            CardKind::Clash => "Alpha Clash",
        })
    }
}

impl Card {
    /// The card's number.
    pub fn number(&self) -> CardNumber {
        match self {
            Card::Digimon(d) => d.number,
            Card::Option(o) => o.number,
            Card::Command(c) => c.number,
            Card::Dcg(c) => c.number,
            Card::Clash(c) => c.number,
        }
    }

    /// The card's name as printed.
    pub fn name(&self) -> &str {
        match self {
            Card::Digimon(d) => &d.name,
            Card::Option(o) => &o.name,
            Card::Command(c) => &c.name,
            Card::Dcg(c) => &c.name,
            Card::Clash(c) => &c.name,
        }
    }

    /// Which kind of card this is.
    pub fn kind(&self) -> CardKind {
        match self {
            Card::Digimon(_) => CardKind::Digimon,
            Card::Option(_) => CardKind::Option,
            Card::Command(_) => CardKind::Command,
            Card::Dcg(_) => CardKind::Dcg,
            Card::Clash(_) => CardKind::Clash,
        }
    }

    /// The Cost; Command cards have none.
    pub fn cost(&self) -> Option<u8> {
        match self {
            Card::Digimon(d) => Some(d.cost),
            Card::Option(o) => Some(o.cost),
            Card::Command(_) => None,
            Card::Dcg(c) => c.cost,
            Card::Clash(c) => Some(c.cost),
        }
    }

    /// The ◎ one-card limit.
    pub fn one_card_limit(&self) -> bool {
        match self {
            Card::Digimon(d) => d.one_card_limit,
            Card::Option(o) => o.one_card_limit,
            Card::Command(c) => c.one_card_limit,
            Card::Dcg(_) | Card::Clash(_) => false,
        }
    }

    /// How many of this name a deck may hold, if the card says.
    pub fn deck_limit(&self) -> Option<u8> {
        match self {
            Card::Digimon(d) => d.deck_limit,
            Card::Option(o) => o.deck_limit,
            Card::Command(c) => c.deck_limit,
            Card::Dcg(_) | Card::Clash(_) => None,
        }
    }

    /// The Digimon, if this is a Digimon card.
    pub fn as_digimon(&self) -> Option<&Digimon> {
        match self {
            Card::Digimon(d) => Some(d),
            _ => None,
        }
    }

    /// The Digimon Card Game card, if it is one.
    pub fn as_dcg(&self) -> Option<&DcgCard> {
        match self {
            Card::Dcg(c) => Some(c),
            _ => None,
        }
    }

    /// The Alpha Clash card, if it is one.
    pub fn as_clash(&self) -> Option<&ClashCard> {
        match self {
            Card::Clash(c) => Some(c),
            _ => None,
        }
    }

    /// The Option card, if it is one.
    pub fn as_option(&self) -> Option<&OptionCard> {
        match self {
            Card::Option(o) => Some(o),
            _ => None,
        }
    }

    /// Battle Terminal abilities (Command cards have none).
    pub fn terminal_abilities(&self) -> &[Ability] {
        match self {
            Card::Digimon(d) => &d.terminal,
            Card::Option(o) => &o.terminal,
            Card::Command(_) | Card::Dcg(_) | Card::Clash(_) => &[],
        }
    }

    /// Card Game Alpha abilities.
    pub fn alpha_abilities(&self) -> &[Ability] {
        match self {
            Card::Digimon(d) => &d.alpha,
            Card::Option(o) => &o.alpha,
            Card::Command(c) => &c.alpha,
            Card::Dcg(_) | Card::Clash(_) => &[],
        }
    }

    /// The name used for card limits and evolution requirements: an
    /// X-Antibody Digimon counts as its base Digimon.
    pub fn base_name(&self) -> &str {
        base_name(self.name())
    }
}

/// The suffix that marks an X-Antibody Digimon.
pub const X_ANTIBODY: &str = " X-Antibody";

/// A name without its X-Antibody suffix ("War Greymon X-Antibody" → "War Greymon").
pub fn base_name(name: &str) -> &str {
    name.strip_suffix(X_ANTIBODY).unwrap_or(name).trim_end()
}

/// A Digimon card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct Digimon {
    /// Card number, e.g. `DM02-095`.
    pub number: CardNumber,
    /// Card name, e.g. "Shine Greymon".
    #[cfg_attr(
        test,
        proptest(regex = "[A-Z][a-z]{1,9}( [A-Z][a-z]{1,9})?( X-Antibody)?")
    )]
    pub name: String,
    /// Cost (the played total should not exceed 10).
    pub cost: u8,
    /// Speed: who acts first.
    pub speed: u8,
    /// Which Digimon this one can digivolve from.
    #[serde(default)]
    pub requirements: Requirements,
    /// Battle type: which of the opponent's techniques this Digimon faces.
    pub battle_type: BattleType,
    /// Hit points: deleted when a winner's attack power exceeds them.
    pub hp: u32,
    /// The A, B and C techniques.
    pub techniques: Techniques,
    /// The Field it belongs to.
    pub field: Field,
    /// Its level.
    pub level: Level,
    /// Its type, e.g. "Light Dragon".
    #[serde(rename = "type")]
    #[cfg_attr(test, proptest(regex = "[A-Z][a-z]{1,9}( [A-Z][a-z]{1,9})?"))]
    pub kind: String,
    /// Its attribute.
    pub attribute: Attribute,
    /// The group it belongs to, if any (e.g. "Royal Knights").
    #[serde(default)]
    #[cfg_attr(test, proptest(strategy = "proptest::option::of(\"[A-Z][a-z]{1,9}\")"))]
    pub group: Option<String>,
    /// ◎ one-card limit: at most one Digimon of this (base) name in play.
    #[serde(default)]
    pub one_card_limit: bool,
    /// How many cards of this name a Card Game Alpha deck may hold, when
    /// the card says so ("unless the card itself states otherwise");
    /// none: the usual 3.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deck_limit: Option<u8>,
    /// Battle Terminal abilities (used by the arcade game).
    #[serde(default)]
    #[cfg_attr(
        test,
        proptest(
            strategy = "proptest::collection::vec(proptest::arbitrary::any::<Ability>(), 0..2)"
        )
    )]
    pub terminal: Vec<Ability>,
    /// Card Game Alpha abilities (used by the tabletop game).
    #[serde(default)]
    #[cfg_attr(
        test,
        proptest(
            strategy = "proptest::collection::vec(proptest::arbitrary::any::<Ability>(), 0..2)"
        )
    )]
    pub alpha: Vec<Ability>,
}

impl Digimon {
    /// The name for card limits and evolution requirements (X-Antibody counts as its base).
    pub fn base_name(&self) -> &str {
        base_name(&self.name)
    }

    /// The technique used against an opponent of the given battle type.
    pub fn technique(&self, against: BattleType) -> &Technique {
        self.techniques.get(against)
    }

    /// Whether this card can digivolve from a Digimon called `from`.
    pub fn evolves_from(&self, from: &str) -> bool {
        let from = base_name(from);
        match &self.requirements {
            Requirements::None => false,
            Requirements::AnyOf(names) => names.iter().any(|n| base_name(n) == from),
            Requirements::Jogress(x, y) => base_name(x) == from || base_name(y) == from,
        }
    }
}

/// Evolution requirements.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub enum Requirements {
    /// None (Level III Digimon).
    #[default]
    None,
    /// Digivolves from any one of these Digimon.
    AnyOf(
        #[cfg_attr(
            test,
            proptest(strategy = "proptest::collection::vec(\"[A-Z][a-z]{1,9}\", 1..3)")
        )]
        Vec<String>,
    ),
    /// Jogress "X ⇔ Y": needs both Digimon.
    Jogress(
        #[cfg_attr(test, proptest(regex = "[A-Z][a-z]{1,9}"))] String,
        #[cfg_attr(test, proptest(regex = "[A-Z][a-z]{1,9}"))] String,
    ),
}

impl Requirements {
    /// Every name this requirement mentions.
    pub fn names(&self) -> Vec<&str> {
        match self {
            Requirements::None => Vec::new(),
            Requirements::AnyOf(v) => v.iter().map(String::as_str).collect(),
            Requirements::Jogress(x, y) => vec![x.as_str(), y.as_str()],
        }
    }
}

impl fmt::Display for Requirements {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Requirements::None => f.write_str("none"),
            Requirements::AnyOf(v) => f.write_str(&v.join(", ")),
            Requirements::Jogress(x, y) => write!(f, "{x} ⇔ {y}"),
        }
    }
}

/// A technique: its name and basic attack power.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct Technique {
    /// The technique's name, e.g. "Pepper Breath".
    #[cfg_attr(test, proptest(regex = "[A-Z][a-z]{1,9}( [A-Z][a-z]{1,9})?"))]
    pub name: String,
    /// Basic attack power.
    pub power: u32,
}

/// The A, B and C techniques of a Digimon.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct Techniques {
    /// Used against battle type A.
    pub a: Technique,
    /// Used against battle type B.
    pub b: Technique,
    /// Used against battle type C.
    pub c: Technique,
}

impl Techniques {
    /// The technique for a battle type.
    pub fn get(&self, t: BattleType) -> &Technique {
        match t {
            BattleType::A => &self.a,
            BattleType::B => &self.b,
            BattleType::C => &self.c,
        }
    }

    /// The highest basic attack power of the three.
    pub fn highest(&self) -> u32 {
        self.a.power.max(self.b.power).max(self.c.power)
    }
}

/// A Digimon's level: a standard level, or Hybrid with the level it counts as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub enum Level {
    /// Level III.
    III,
    /// Level IV.
    IV,
    /// Perfect.
    Perfect,
    /// Ultimate.
    Ultimate,
    /// Hybrid, treated as the given standard level.
    Hybrid(Stage),
}

impl Level {
    /// The standard level this counts as.
    pub fn stage(self) -> Stage {
        match self {
            Level::III => Stage::III,
            Level::IV => Stage::IV,
            Level::Perfect => Stage::Perfect,
            Level::Ultimate => Stage::Ultimate,
            Level::Hybrid(s) => s,
        }
    }

    /// Parses a level as a person types it: `III`, `3`, `iv`, `perfect`, `hybrid`.
    /// `hybrid` alone matches any Hybrid level, so it returns `None` here; see
    /// [`LevelQuery`].
    pub fn parse_stage(s: &str) -> Option<Stage> {
        match s
            .trim()
            .to_ascii_lowercase()
            .replace(['-', ' '], "")
            .as_str()
        {
            "iii" | "3" | "leveliii" | "level3" | "child" | "rookie" => Some(Stage::III),
            "iv" | "4" | "leveliv" | "level4" | "adult" | "champion" => Some(Stage::IV),
            "perfect" | "5" | "ultimateperfect" => Some(Stage::Perfect),
            "ultimate" | "6" | "mega" => Some(Stage::Ultimate),
            _ => None,
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Level::Hybrid(s) => write!(f, "Hybrid (as {s})"),
            other => f.write_str(other.stage().name()),
        }
    }
}

/// A level filter a person typed: a standard level (matching Hybrids that
/// count as it) or Hybrid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LevelQuery {
    /// Digimon that count as this level.
    Stage(Stage),
    /// Hybrid Digimon.
    Hybrid,
}

/// A typed level that is none.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown level \"{0}\": use III, IV, Perfect, Ultimate or Hybrid")]
pub struct ParseLevelError(pub String);

impl std::str::FromStr for LevelQuery {
    type Err = ParseLevelError;
    fn from_str(s: &str) -> Result<Self, ParseLevelError> {
        if s.trim().eq_ignore_ascii_case("hybrid") {
            return Ok(LevelQuery::Hybrid);
        }
        Level::parse_stage(s)
            .map(LevelQuery::Stage)
            .ok_or_else(|| ParseLevelError(s.to_string()))
    }
}

impl LevelQuery {
    /// Whether a level matches.
    pub fn matches(self, level: Level) -> bool {
        match self {
            LevelQuery::Stage(s) => level.stage() == s,
            LevelQuery::Hybrid => matches!(level, Level::Hybrid(_)),
        }
    }
}

/// An Option card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct OptionCard {
    /// Card number, e.g. `OP-009`.
    pub number: CardNumber,
    /// Card name, e.g. "Vaccine Killer".
    #[cfg_attr(test, proptest(regex = "[A-Z][a-z]{1,9}( [A-Z][a-z]{1,9})?"))]
    pub name: String,
    /// Cost.
    pub cost: u8,
    /// ◎ one-card limit.
    #[serde(default)]
    pub one_card_limit: bool,
    /// How many cards of this name a Card Game Alpha deck may hold, when
    /// the card says so ("unless the card itself states otherwise");
    /// none: the usual 3.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deck_limit: Option<u8>,
    /// Battle Terminal effects.
    #[serde(default)]
    #[cfg_attr(
        test,
        proptest(
            strategy = "proptest::collection::vec(proptest::arbitrary::any::<Ability>(), 0..2)"
        )
    )]
    pub terminal: Vec<Ability>,
    /// Card Game Alpha effects.
    #[serde(default)]
    #[cfg_attr(
        test,
        proptest(
            strategy = "proptest::collection::vec(proptest::arbitrary::any::<Ability>(), 0..2)"
        )
    )]
    pub alpha: Vec<Ability>,
}

/// A Command card: no Cost, tabletop only.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct CommandCard {
    /// Card number, e.g. `Cα-001`.
    pub number: CardNumber,
    /// Card name.
    #[cfg_attr(test, proptest(regex = "[A-Z][a-z]{1,9}( [A-Z][a-z]{1,9})?"))]
    pub name: String,
    /// ◎ one-card limit.
    #[serde(default)]
    pub one_card_limit: bool,
    /// How many cards of this name a Card Game Alpha deck may hold, when
    /// the card says so ("unless the card itself states otherwise");
    /// none: the usual 3.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deck_limit: Option<u8>,
    /// Card Game Alpha effects.
    #[serde(default)]
    #[cfg_attr(
        test,
        proptest(
            strategy = "proptest::collection::vec(proptest::arbitrary::any::<Ability>(), 0..2)"
        )
    )]
    pub alpha: Vec<Ability>,
}
