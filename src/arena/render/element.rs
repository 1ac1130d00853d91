//! What a technique is made of (fire, ice, lightning, dark, holy or
//! physical), from its name, else the Digimon's Field and attribute; its
//! colours and the move a figure makes to use it. The effects
//! ([`crate::arena::render::vfx`]) and the particles ([`crate::arena::render::sparks`]) both draw on it.

use bevy::prelude::*;

use crate::cards::{Attribute, Digimon, Field};

/// What a technique is made of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Element {
    /// Flames, breath of fire, heat.
    Fire,
    /// Ice, snow, cold water.
    Ice,
    /// Thunder and electricity.
    Lightning,
    /// Darkness, poison, death.
    Dark,
    /// Holy light.
    Holy,
    /// Claws, fists, horns, blades, tackles.
    Physical,
}

impl Element {
    /// Every element.
    pub const ALL: [Element; 6] = [
        Element::Fire,
        Element::Ice,
        Element::Lightning,
        Element::Dark,
        Element::Holy,
        Element::Physical,
    ];

    /// The element of a technique called `name` used by `d`: the words in
    /// its name first, then the Digimon's Field and attribute.
    pub fn of(name: &str, d: Option<&Digimon>) -> Element {
        // Whole words, or their beginnings ("electr" for "Electro"), so a
        // "Slice" is no "ice".
        let n = name.to_lowercase();
        let words: Vec<&str> = n.split(|c: char| !c.is_alphanumeric()).collect();
        let any = |ws: &[&str]| ws.iter().any(|w| words.iter().any(|x| x.starts_with(w)));
        if any(&[
            "fire",
            "flame",
            "pyro",
            "burn",
            "blaze",
            "heat",
            "pepper",
            "salamander",
            "exhaust",
            "atomic",
            "nova",
            "magma",
            "inferno",
            "meteor",
            "gaia",
        ]) {
            Element::Fire
        } else if any(&[
            "ice", "frost", "blizzard", "arctic", "freez", "snow", "winter", "cold", "aqua",
            "water", "torpedo", "bubble", "tidal", "wave",
        ]) {
            Element::Ice
        } else if any(&[
            "thunder",
            "electr",
            "shock",
            "spark",
            "volt",
            "lightning",
            "plasma",
            "laser",
            "beam",
            "blaster",
            "cannon",
            "buster",
        ]) {
            Element::Lightning
        } else if any(&[
            "dark",
            "night",
            "shadow",
            "death",
            "nightmare",
            "poison",
            "evil",
            "bloody",
            "curse",
            "grisly",
            "demon",
            "chaos",
            "venom",
            "stinky",
            "virus",
        ]) {
            Element::Dark
        } else if any(&[
            "holy",
            "heaven",
            "angel",
            "saint",
            "light",
            "royal",
            "elysion",
            "excalibur",
            "gate",
            "star",
            "divine",
            "gospel",
            "spirit",
            "talisman",
            "lotus",
        ]) {
            Element::Holy
        } else if any(&[
            "claw", "punch", "kick", "slash", "tail", "horn", "hammer", "tackle", "crash", "roll",
            "strike", "axe", "blade", "sword", "fist", "break", "whip", "knuckle", "slam", "bite",
            "rush", "dash", "spike", "net", "thread", "ivy", "shield", "slic",
        ]) {
            Element::Physical
        } else {
            match d {
                Some(d) => match (d.field, d.attribute) {
                    (Field::DragonsRoar, _) => Element::Fire,
                    (Field::DeepSavers, _) => Element::Ice,
                    (Field::MetalEmpire, _) | (Field::WindGuardians, _) => Element::Lightning,
                    (Field::NightmareSoldiers, _) | (_, Attribute::Virus) => Element::Dark,
                    (Field::VirusBusters, _) | (_, Attribute::Vaccine) => Element::Holy,
                    _ => Element::Physical,
                },
                None => Element::Physical,
            }
        }
    }

    /// The move a figure makes to use it.
    pub fn stance(self) -> crate::arena::render::rig::Move {
        use crate::arena::render::rig::Move;
        match self {
            Element::Physical => Move::Strike,
            Element::Fire | Element::Ice | Element::Lightning => Move::Blast,
            Element::Dark | Element::Holy => Move::Cast,
        }
    }

    /// Its core and glow colours (linear, the glow well above 1 for bloom).
    pub fn colours(self) -> (LinearRgba, LinearRgba) {
        match self {
            Element::Fire => (
                LinearRgba::rgb(1.0, 0.45, 0.08),
                LinearRgba::rgb(9.0, 3.2, 0.6),
            ),
            Element::Ice => (
                LinearRgba::rgb(0.6, 0.9, 1.0),
                LinearRgba::rgb(2.5, 5.5, 8.0),
            ),
            Element::Lightning => (
                LinearRgba::rgb(1.0, 0.95, 0.4),
                LinearRgba::rgb(8.0, 8.0, 3.0),
            ),
            Element::Dark => (
                LinearRgba::rgb(0.35, 0.05, 0.45),
                LinearRgba::rgb(3.5, 0.4, 5.0),
            ),
            Element::Holy => (
                LinearRgba::rgb(1.0, 0.9, 0.55),
                LinearRgba::rgb(8.0, 6.5, 2.5),
            ),
            Element::Physical => (
                LinearRgba::rgb(0.95, 0.95, 1.0),
                LinearRgba::rgb(5.0, 5.0, 6.0),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::CardSet;

    #[test]
    fn techniques_look_like_what_they_are() {
        assert_eq!(Element::of("Pepper Breath", None), Element::Fire);
        assert_eq!(Element::of("Mega Flame", None), Element::Fire);
        assert_eq!(Element::of("Arctic Blizzard", None), Element::Ice);
        assert_eq!(Element::of("Electro Shocker", None), Element::Lightning);
        assert_eq!(Element::of("Heaven's Gate", None), Element::Holy);
        assert_eq!(Element::of("Darkness Gear", None), Element::Dark);
        assert_eq!(Element::of("Sharp Claw", None), Element::Physical);
        assert_eq!(Element::of("Vulcan's Hammer", None), Element::Physical);
        // Words, not letters inside them.
        assert_eq!(Element::of("Wing Slice", None), Element::Physical);
        assert_eq!(Element::of("Twin Slicer", None), Element::Physical);
        assert_eq!(Element::of("Crimson Lightning", None), Element::Lightning);
    }

    #[test]
    fn a_name_that_says_nothing_takes_the_field() {
        let cards = CardSet::embedded();
        let d = |n: &str| cards.resolve(n).unwrap().as_digimon().unwrap().clone();
        assert_eq!(Element::of("Mjolnir", Some(&d("Vikemon"))), Element::Ice);
        assert_eq!(Element::of("Zzz", Some(&d("Agumon"))), Element::Fire);
        assert_eq!(Element::of("Zzz", Some(&d("Devimon"))), Element::Dark);
    }

    #[test]
    fn every_element_of_the_shipped_techniques_is_used() {
        let cards = CardSet::embedded();
        let mut seen = std::collections::HashSet::new();
        for d in cards.cards().iter().filter_map(|c| c.as_digimon()) {
            for t in [&d.techniques.a, &d.techniques.b, &d.techniques.c] {
                seen.insert(Element::of(&t.name, Some(d)));
            }
        }
        assert_eq!(seen.len(), Element::ALL.len(), "{seen:?}");
    }
}
