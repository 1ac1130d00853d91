//! Alpha Clash cards (Rising Empire Studios, basic rulebook 2.0): the
//! Contender, Clashgrounds, Clash cards, the Accessories (Traps, Weapons,
//! Relics) and the Actions (Clash Buffs, Basic and Quick Actions), with
//! the fields the rulebook names: colours, resource cost and specific
//! (coloured) cost, attack/defence, health, attach cost, affiliation,
//! planet, card abilities and effects (`crate::effects::clash`). bterm's
//! sample cards are its own invention in the rulebook's shape
//! (docs/clash-cards.md); only the Alpha Clash rules read these fields.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::CardNumber;
use crate::effects::clash::{Ability, Hue, Keyword, When};

#[cfg(test)]
use proptest_derive::Arbitrary;

/// The kinds of card (type and subtype as the card prints them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub enum ClashKind {
    /// A Contender: the player's representative, with health.
    Contender,
    /// A Clashground: one in play among all players.
    Clashground,
    /// A Clash card, played into the Clash Zone.
    Clash,
    /// Accessory – Trap: set face down, activated later.
    Trap,
    /// Accessory – Weapon: attached to a Clash card.
    Weapon,
    /// Accessory – Relic.
    Relic,
    /// Action – Clash Buff: in steps C4 and C5 of a Clash.
    ClashBuff,
    /// Action – Basic: in your own Primary Phase.
    BasicAction,
    /// Action – Quick: in response, by its Counter tag.
    QuickAction,
}

impl ClashKind {
    /// The kind as the card prints its type and subtype.
    pub fn words(self) -> &'static str {
        match self {
            ClashKind::Contender => "Contender",
            ClashKind::Clashground => "Clashground",
            ClashKind::Clash => "Clash",
            ClashKind::Trap => "Accessory - Trap",
            ClashKind::Weapon => "Accessory - Weapon",
            ClashKind::Relic => "Accessory - Relic",
            ClashKind::ClashBuff => "Action - Clash Buff",
            ClashKind::BasicAction => "Action - Basic",
            ClashKind::QuickAction => "Action - Quick",
        }
    }

    /// Whether it is an Action (to Oblivion once it resolves).
    pub fn is_action(self) -> bool {
        matches!(
            self,
            ClashKind::ClashBuff | ClashKind::BasicAction | ClashKind::QuickAction
        )
    }

    /// Whether it is an Accessory.
    pub fn is_accessory(self) -> bool {
        matches!(self, ClashKind::Trap | ClashKind::Weapon | ClashKind::Relic)
    }
}

impl fmt::Display for ClashKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.words())
    }
}

/// The affiliations the rulebook shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub enum Affiliation {
    /// Alpha.
    Alpha,
    /// Rogue.
    Rogue,
    /// Alpha Hunter.
    AlphaHunter,
    /// Harbinger.
    Harbinger,
    /// Discarded.
    Discarded,
    /// Progenitor.
    Progenitor,
}

impl Affiliation {
    /// Its name as printed.
    pub fn words(self) -> &'static str {
        match self {
            Affiliation::Alpha => "Alpha",
            Affiliation::Rogue => "Rogue",
            Affiliation::AlphaHunter => "Alpha Hunter",
            Affiliation::Harbinger => "Harbinger",
            Affiliation::Discarded => "Discarded",
            Affiliation::Progenitor => "Progenitor",
        }
    }
}

/// A card of Alpha Clash.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct ClashCard {
    /// Card number, e.g. `AC9-031`.
    pub number: CardNumber,
    /// Card name, e.g. "Menacing Magnate".
    #[cfg_attr(test, proptest(regex = "[A-Z][a-z]{1,9}( [A-Z][a-z]{1,9})?"))]
    pub name: String,
    /// Its type and subtype.
    pub kind: ClashKind,
    /// Its colours (one or two).
    #[cfg_attr(
        test,
        proptest(strategy = "proptest::collection::vec(proptest::arbitrary::any::<Hue>(), 1..3)")
    )]
    pub colors: Vec<Hue>,
    /// The resource cost (the number in the hex); a Contender has none.
    #[serde(default)]
    #[cfg_attr(test, proptest(strategy = "0u8..=8"))]
    pub cost: u8,
    /// The specific resource cost: one resource of each colour listed,
    /// part of the resource cost.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(
        test,
        proptest(strategy = "proptest::collection::vec(proptest::arbitrary::any::<Hue>(), 0..2)")
    )]
    pub specific: Vec<Hue>,
    /// Attack power (Contenders and Clash cards).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, proptest(strategy = "proptest::option::of(0u8..=9)"))]
    pub attack: Option<u8>,
    /// Defence power (Contenders and Clash cards).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, proptest(strategy = "proptest::option::of(1u8..=9)"))]
    pub defense: Option<u8>,
    /// A Contender's maximum (and starting) health.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, proptest(strategy = "proptest::option::of(10u8..=40)"))]
    pub health: Option<u8>,
    /// A Weapon's attach cost: one resource of each colour listed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(
        test,
        proptest(strategy = "proptest::collection::vec(proptest::arbitrary::any::<Hue>(), 0..2)")
    )]
    pub attach: Vec<Hue>,
    /// A Weapon that can only be attached to Clash cards of this
    /// affiliation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attach_to: Option<Affiliation>,
    /// "You may only play this card if your Contender is …" (a colour).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub needs_contender: Option<Hue>,
    /// Affiliation (Contenders and Clash cards).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub affiliation: Option<Affiliation>,
    /// Planet (Contenders, Clash cards, Clashgrounds).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, proptest(strategy = "proptest::option::of(\"[A-Z][a-z]{1,9}\")"))]
    pub planet: Option<String>,
    /// Rarity letters ("C", "UC", "R", "E", "L", "ST", …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, proptest(strategy = "proptest::option::of(\"(C|UC|R|E|L)\")"))]
    pub rarity: Option<String>,
    /// Card abilities (the rulebook's keywords).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(
        test,
        proptest(
            strategy = "proptest::collection::vec(proptest::arbitrary::any::<Keyword>(), 0..2)"
        )
    )]
    pub keywords: Vec<Keyword>,
    /// Its effects.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(
        test,
        proptest(
            strategy = "proptest::collection::vec(proptest::arbitrary::any::<Ability>(), 0..2)"
        )
    )]
    pub effects: Vec<Ability>,
}

impl ClashCard {
    /// Whether it has a keyword (whatever its X).
    pub fn has(&self, k: Keyword) -> bool {
        self.keywords.iter().any(|&h| h.same_kind(k))
    }

    /// The card's text: keywords, then effects.
    pub fn text_lines(&self) -> Vec<String> {
        let mut out = Vec::new();
        if !self.keywords.is_empty() {
            out.push(
                self.keywords
                    .iter()
                    .map(|k| k.words())
                    .collect::<Vec<_>>()
                    .join(", "),
            );
        }
        if let Some(h) = self.needs_contender {
            out.push(format!(
                "You may only play this card if your Contender is {}.",
                h.name().to_lowercase()
            ));
        }
        if let Some(a) = self.attach_to {
            out.push(format!(
                "This card can only be attached to {} Clash cards.",
                a.words()
            ));
        }
        out.extend(self.effects.iter().map(Ability::words));
        out
    }

    /// The cost in a few characters: "3 (1 Blue)".
    pub fn cost_words(&self) -> String {
        if self.specific.is_empty() {
            return self.cost.to_string();
        }
        let spec: Vec<&str> = self.specific.iter().map(|h| h.name()).collect();
        format!("{} ({})", self.cost, spec.join(", "))
    }

    /// What is wrong with the card on its own, if anything: (field, why).
    pub fn problem(&self) -> Option<(&'static str, String)> {
        if self.colors.is_empty() || self.colors.len() > 2 {
            return Some(("colors", "a card has one or two colours".into()));
        }
        if self.specific.len() > usize::from(self.cost) {
            return Some((
                "specific",
                "the specific cost is part of the resource cost: no more of it than the cost"
                    .into(),
            ));
        }
        let fighter = matches!(self.kind, ClashKind::Contender | ClashKind::Clash);
        if fighter != (self.attack.is_some() && self.defense.is_some()) {
            return Some((
                "attack",
                "Contenders and Clash cards, and only they, have attack and defence".into(),
            ));
        }
        const RARITIES: [&str; 10] = ["ST", "P", "C", "UC", "R", "E", "IR", "IA", "L", "AR"];
        if let Some(r) = &self.rarity
            && !RARITIES.contains(&r.as_str())
        {
            return Some((
                "rarity",
                format!("rarity \"{r}\" is none of {}", RARITIES.join(", ")),
            ));
        }
        if (self.kind == ClashKind::Contender) != self.health.is_some() {
            return Some((
                "health",
                "a Contender, and only a Contender, has health".into(),
            ));
        }
        if self.kind == ClashKind::Contender && self.cost > 0 {
            return Some(("cost", "a Contender has no resource cost".into()));
        }
        if (self.kind == ClashKind::Weapon) == self.attach.is_empty() {
            return Some((
                "attach",
                "a Weapon, and only a Weapon, has an attach cost".into(),
            ));
        }
        if self.attach_to.is_some() && self.kind != ClashKind::Weapon {
            return Some(("attach_to", "only a Weapon is attached".into()));
        }
        let counter_kind = matches!(self.kind, ClashKind::Trap | ClashKind::QuickAction);
        for a in &self.effects {
            if a.at_most.is_some() && self.kind != ClashKind::Contender {
                return Some((
                    "effects",
                    "only a Contender's abilities have health thresholds".into(),
                ));
            }
            if counter_kind && !(a.when.is_counter() || a.when == When::Resolve) {
                return Some((
                    "effects",
                    format!(
                        "a {} works in response: its effect is a Counter tag's",
                        self.kind
                    ),
                ));
            }
            if self.kind.is_action() && !counter_kind && a.when != When::Resolve {
                return Some((
                    "effects",
                    format!(
                        "a {}'s effect is what it does when it resolves (when: Resolve)",
                        self.kind
                    ),
                ));
            }
            if a.effects.is_empty() {
                return Some(("effects", "an ability does something".into()));
            }
        }
        if counter_kind && !self.effects.iter().any(|a| a.when.is_counter()) {
            return Some((
                "effects",
                format!("a {} names the Counter tag it answers", self.kind),
            ));
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::read_ron;

    proptest::proptest! {
        /// A card file's entry reads back as written, in RON and JSON.
        #[test]
        fn a_card_survives_ron_and_json(card: ClashCard) {
            let json = serde_json::to_string(&card).unwrap();
            proptest::prop_assert_eq!(&serde_json::from_str::<ClashCard>(&json).unwrap(), &card);
            let ron = crate::cards::write_ron(&card).unwrap();
            proptest::prop_assert_eq!(&read_ron::<ClashCard>(&ron).unwrap(), &card);
        }
    }

    #[test]
    fn the_rulebooks_example_card_reads() {
        let c: ClashCard = read_ron(
            r#"(number: "AC9-031", name: "Menacing Magnate", kind: Clash, colors: [Green],
                cost: 2, specific: [Green], attack: 2, defense: 1,
                affiliation: Rogue, planet: "Earth", rarity: "UC",
                keywords: [Breakthrough, Flight])"#,
        )
        .unwrap();
        assert_eq!(c.problem(), None);
        assert_eq!(c.cost_words(), "2 (Green)");
        assert!(c.has(Keyword::Flight));
        assert_eq!(c.text_lines(), vec!["Breakthrough, Flight".to_string()]);
    }

    #[test]
    fn a_card_that_breaks_its_kinds_shape_says_which_field() {
        let c: ClashCard = read_ron(
            r#"(number: "AC9-001", name: "Torque", kind: Contender, colors: [Red], attack: 2, defense: 2)"#,
        )
        .unwrap();
        assert_eq!(c.problem().map(|p| p.0), Some("health"));
        let w: ClashCard = read_ron(
            r#"(number: "AC9-017", name: "Armor", kind: Weapon, colors: [Blue], cost: 3)"#,
        )
        .unwrap();
        assert_eq!(w.problem().map(|p| p.0), Some("attach"));
        let t: ClashCard = read_ron(
            r#"(number: "AC9-050", name: "Snare", kind: Trap, colors: [Black], cost: 1,
                effects: [(when: Enter, effects: [Draw(1)])])"#,
        )
        .unwrap();
        assert_eq!(t.problem().map(|p| p.0), Some("effects"));
    }
}
