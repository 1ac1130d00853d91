//! What a Digimon's 3D figure looks like, as data: its body plan, build,
//! colours and signature parts (horns, wings, tail, armour, weapons,
//! claws…), kept in `assets/figures/*.ron` by card number and checked
//! against the card set when loaded, like the cards themselves. A card with
//! no figure data gets one derived from its type, Field and attribute (the
//! arena does that). Plain data: no Bevy here.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use super::{CardNumber, CardSet};

/// The figure files shipped with the sample cards (name, text).
pub const EMBEDDED_FIGURES: &[(&str, &str)] = &[
    (
        "assets/figures/dragons-roar.ron",
        include_str!("../../assets/figures/dragons-roar.ron"),
    ),
    (
        "assets/figures/nature-spirits.ron",
        include_str!("../../assets/figures/nature-spirits.ron"),
    ),
    (
        "assets/figures/nightmare-soldiers.ron",
        include_str!("../../assets/figures/nightmare-soldiers.ron"),
    ),
    (
        "assets/figures/jungle-troopers.ron",
        include_str!("../../assets/figures/jungle-troopers.ron"),
    ),
    (
        "assets/figures/wind-guardians.ron",
        include_str!("../../assets/figures/wind-guardians.ron"),
    ),
    (
        "assets/figures/deep-savers.ron",
        include_str!("../../assets/figures/deep-savers.ron"),
    ),
    (
        "assets/figures/metal-empire.ron",
        include_str!("../../assets/figures/metal-empire.ron"),
    ),
    (
        "assets/figures/virus-busters.ron",
        include_str!("../../assets/figures/virus-busters.ron"),
    ),
];

/// A body plan: which skeleton the figure stands on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Plan {
    /// Two legs, two arms, upright (Dragon Man, Knight, Angel…).
    Biped,
    /// Two strong legs, small arms, a heavy tail, leaning forward
    /// (Agumon, Greymon, Guilmon: the dinosaur stance).
    Raptor,
    /// Four legs (Beast, Mammal, Reptile…).
    Quadruped,
    /// A winged body that hovers (Bird, Giant Bird).
    Flyer,
    /// A long swimming or crawling body (Sea Animal, Sea Dragon).
    Serpent,
    /// Segments and six legs.
    Insect,
    /// Blocks and plates on two legs (Machine, Cyborg).
    Machine,
    /// A round body (Vegetation, Unknown, small fry).
    Blob,
}

impl Plan {
    /// Every plan.
    pub const ALL: [Plan; 8] = [
        Plan::Biped,
        Plan::Raptor,
        Plan::Quadruped,
        Plan::Flyer,
        Plan::Serpent,
        Plan::Insect,
        Plan::Machine,
        Plan::Blob,
    ];

    /// The plan a Digimon type ("Dragon Man", "Sea Animal"…) suggests, for
    /// a card with no figure data.
    pub fn of(kind: &str) -> Plan {
        let k = kind.to_lowercase();
        let has = |w: &str| k.split(|c: char| !c.is_alphanumeric()).any(|x| x == w);
        if has("machine") || has("cyborg") || has("android") {
            Plan::Machine
        } else if has("insect") || has("larva") {
            Plan::Insect
        } else if has("sea") || has("aquatic") && !has("beast") || has("fish") {
            Plan::Serpent
        } else if has("bird") && !has("man") {
            Plan::Flyer
        } else if has("dinosaur") || has("reptile") && !has("man") {
            Plan::Raptor
        } else if has("man")
            || has("knight")
            || has("wizard")
            || has("angel")
            || has("archangel")
            || has("demon")
            || has("imp")
            || has("undead")
            || has("hybrid")
            || has("god")
        {
            Plan::Biped
        } else if has("beast")
            || has("mammal")
            || has("dragon")
            || has("amphibian")
            || has("animal")
        {
            Plan::Quadruped
        } else {
            Plan::Blob
        }
    }
}

/// Proportions, each a multiple of the plan's usual (1.0).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Build {
    /// Overall height (0.6 to 1.6).
    pub height: f32,
    /// Girth of body and limbs (0.6 to 1.8).
    pub bulk: f32,
    /// Head size (0.6 to 1.8).
    pub head: f32,
    /// Arm length (0.4 to 1.6).
    pub arms: f32,
    /// Leg length (0.4 to 1.6).
    pub legs: f32,
}

impl Default for Build {
    fn default() -> Self {
        Build {
            height: 1.0,
            bulk: 1.0,
            head: 1.0,
            arms: 1.0,
            legs: 1.0,
        }
    }
}

/// A colour written `"#RRGGBB"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rgb(pub [u8; 3]);

impl Rgb {
    /// Its channels as 0–1.
    pub fn unit(self) -> [f32; 3] {
        self.0.map(|c| f32::from(c) / 255.0)
    }
}

impl fmt::Display for Rgb {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [r, g, b] = self.0;
        write!(f, "#{r:02X}{g:02X}{b:02X}")
    }
}

impl std::str::FromStr for Rgb {
    type Err = String;

    fn from_str(s: &str) -> Result<Rgb, String> {
        let hex = s
            .strip_prefix('#')
            .filter(|h| h.len() == 6 && h.chars().all(|c| c.is_ascii_hexdigit()))
            .ok_or_else(|| format!("\"{s}\" is not a colour: write it \"#RRGGBB\""))?;
        let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).map_err(|e| e.to_string());
        Ok(Rgb([byte(0)?, byte(2)?, byte(4)?]))
    }
}

impl Serialize for Rgb {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

impl<'de> Deserialize<'de> for Rgb {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Rgb, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// The figure's colours.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Colours {
    /// Skin, scales, fur: most of the body.
    pub body: Rgb,
    /// Second colour: stripes, limbs' ends, wing membranes, markings.
    pub accent: Rgb,
    /// Belly, chest and muzzle (the body colour if none).
    #[serde(default)]
    pub belly: Option<Rgb>,
    /// Armour, weapons, horns and claws (a steel grey if none).
    #[serde(default)]
    pub detail: Option<Rgb>,
    /// The eyes' glow (a warm yellow if none).
    #[serde(default)]
    pub eyes: Option<Rgb>,
}

/// Which of the figure's colours a part takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Tint {
    /// [`Colours::body`].
    Body,
    /// [`Colours::accent`].
    Accent,
    /// [`Colours::belly`].
    Belly,
    /// [`Colours::detail`].
    Detail,
    /// The eyes' glow.
    Eye,
}

/// Where on the head horns grow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum HornAt {
    /// On top of the head (one in the middle, or a pair).
    Head,
    /// On the nose or snout (a rhino's horn).
    Nose,
    /// At the sides, curving back (a ram's or a demon's).
    Sides,
}

/// What wings are made of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum WingKind {
    /// Feathered: layered blades.
    Feather,
    /// Bat-like: membrane between fingers.
    Bat,
    /// Thin, clear insect wings.
    Insect,
    /// Metal plates or thrusters.
    Mech,
}

/// The end of a tail.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum TailTip {
    /// It just tapers.
    Plain,
    /// A spike or a stinger.
    Spike,
    /// A flat blade or a fin.
    Fin,
    /// A flame (the detail colour glows).
    Flame,
    /// A heavy club.
    Club,
}

/// A part of the body armour can cover.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Plate {
    /// A helmet.
    Helmet,
    /// A chest plate.
    Chest,
    /// Shoulder pads.
    Shoulders,
    /// Gauntlets on the forearms.
    Arms,
    /// Greaves on the shins.
    Legs,
}

/// A weapon a figure holds or wears.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum WeaponKind {
    /// A sword or a long blade.
    Sword,
    /// A lance or a spear.
    Lance,
    /// A hammer.
    Hammer,
    /// An axe.
    Axe,
    /// A round or kite shield.
    Shield,
    /// A cannon or a gun arm.
    Cannon,
    /// A staff or a rod.
    Staff,
    /// Three long claws on the arm (a claw weapon).
    Claw,
}

/// Which side of the body.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Hand {
    /// The left.
    Left,
    /// The right.
    Right,
}

/// Which limbs claws grow on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Limbs {
    /// The hands (front feet of a four-legged figure).
    Hands,
    /// The feet.
    Feet,
    /// Both.
    All,
}

/// Where spikes stand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum SpikesAt {
    /// A row along the back.
    Back,
    /// On the shoulders.
    Shoulders,
    /// A crest on the head.
    Head,
}

/// The shape of the ears.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum EarKind {
    /// Pointed, upright.
    Pointed,
    /// Long, like a rabbit's or Terriermon's.
    Long,
    /// Round.
    Round,
    /// Fins or frills at the side of the head.
    Fins,
}

/// A signature part.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Feature {
    /// Horns: how many (1 to 3), how long (metres at Level IV size, 0.1 to
    /// 1.0), and where.
    Horns {
        /// How many.
        count: u8,
        /// How long.
        length: f32,
        /// Where.
        at: HornAt,
    },
    /// Wings: their kind, span (one wing, 0.3 to 2.0 m) and pairs (1 to 3).
    Wings {
        /// Their kind.
        kind: WingKind,
        /// One wing's span.
        span: f32,
        /// Pairs.
        pairs: u8,
    },
    /// A tail: length (0.2 to 2.0 m), thickness at the root (0.05 to 0.4 m)
    /// and its tip.
    Tail {
        /// Length.
        length: f32,
        /// Thickness at the root.
        thickness: f32,
        /// Its tip.
        tip: TailTip,
    },
    /// Armour plates, in the detail colour or another.
    Armour {
        /// Which plates.
        on: Vec<Plate>,
        /// Their colour.
        tint: Tint,
    },
    /// A weapon in one hand (or on that arm), size 0.5 to 2.0.
    Weapon {
        /// Its kind.
        kind: WeaponKind,
        /// Which hand.
        hand: Hand,
        /// Its size.
        size: f32,
    },
    /// Claws: on which limbs, and how long (0.05 to 0.6 m).
    Claws {
        /// On which limbs.
        on: Limbs,
        /// How long.
        length: f32,
    },
    /// Spikes: where, and how many (1 to 9).
    Spikes {
        /// Where.
        at: SpikesAt,
        /// How many.
        count: u8,
    },
    /// Ears: their shape and size (0.5 to 2.0).
    Ears {
        /// Their shape.
        kind: EarKind,
        /// Their size.
        size: f32,
    },
    /// A snout, muzzle or beak: length (0.05 to 0.6 m).
    Snout {
        /// Its length.
        length: f32,
    },
    /// A halo over the head (angels).
    Halo,
    /// A mane or hair, in a colour.
    Mane {
        /// Its colour.
        tint: Tint,
    },
    /// A cape or cloak hanging from the shoulders.
    Cape {
        /// Its colour.
        tint: Tint,
    },
    /// A pelt worn over the head (a hood, the face left bare) and down the
    /// back, with stripes: Gabumon's Garurumon fur.
    Pelt {
        /// The fur's colour.
        tint: Tint,
        /// Its stripes' colour.
        stripes: Tint,
    },
}

/// One card's figure.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FigureSpec {
    /// Its skeleton.
    pub plan: Plan,
    /// Its proportions.
    #[serde(default)]
    pub build: Build,
    /// Its colours.
    pub colours: Colours,
    /// Its signature parts.
    #[serde(default)]
    pub parts: Vec<Feature>,
}

impl FigureSpec {
    /// What is out of range in it, if anything.
    pub fn check(&self) -> Result<(), String> {
        let within = |what: &str, v: f32, lo: f32, hi: f32| {
            if v.is_finite() && (lo..=hi).contains(&v) {
                Ok(())
            } else {
                Err(format!(
                    "{what} is {v}, which is out of range ({lo} to {hi})"
                ))
            }
        };
        let b = &self.build;
        within("build.height", b.height, 0.6, 1.6)?;
        within("build.bulk", b.bulk, 0.6, 1.8)?;
        within("build.head", b.head, 0.6, 1.8)?;
        within("build.arms", b.arms, 0.4, 1.6)?;
        within("build.legs", b.legs, 0.4, 1.6)?;
        let count = |what: &str, n: u8, lo: u8, hi: u8| {
            if (lo..=hi).contains(&n) {
                Ok(())
            } else {
                Err(format!(
                    "{what} is {n}, which is out of range ({lo} to {hi})"
                ))
            }
        };
        if self.parts.len() > 16 {
            return Err(format!("{} parts: at most 16", self.parts.len()));
        }
        for p in &self.parts {
            match p {
                Feature::Horns {
                    count: n, length, ..
                } => {
                    count("Horns count", *n, 1, 3)?;
                    within("Horns length", *length, 0.1, 1.0)?;
                }
                Feature::Wings { span, pairs, .. } => {
                    within("Wings span", *span, 0.3, 2.0)?;
                    count("Wings pairs", *pairs, 1, 3)?;
                }
                Feature::Tail {
                    length, thickness, ..
                } => {
                    within("Tail length", *length, 0.2, 2.0)?;
                    within("Tail thickness", *thickness, 0.05, 0.4)?;
                }
                Feature::Armour { on, tint } => {
                    if on.is_empty() {
                        return Err("Armour covers nothing: name its plates".into());
                    }
                    if *tint == Tint::Eye {
                        return Err("Armour cannot glow like the eyes".into());
                    }
                }
                Feature::Weapon { size, .. } => within("Weapon size", *size, 0.5, 2.0)?,
                Feature::Claws { length, .. } => within("Claws length", *length, 0.05, 0.6)?,
                Feature::Spikes { count: n, .. } => count("Spikes count", *n, 1, 9)?,
                Feature::Ears { size, .. } => within("Ears size", *size, 0.5, 2.0)?,
                Feature::Snout { length } => within("Snout length", *length, 0.05, 0.6)?,
                Feature::Halo
                | Feature::Mane { .. }
                | Feature::Cape { .. }
                | Feature::Pelt { .. } => {}
            }
        }
        Ok(())
    }
}

/// Every card's figure data.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Figures {
    /// Each card's figure, with the card's name (a card set of one's own
    /// may give the number to another Digimon: then the figure is not its).
    by_card: BTreeMap<CardNumber, (String, FigureSpec)>,
}

impl Figures {
    /// The shipped figure files, checked against the shipped cards.
    ///
    /// # Panics
    /// Never in a released build: the shipped files are checked by a test.
    pub fn embedded() -> &'static Figures {
        static EMBEDDED: std::sync::OnceLock<Figures> = std::sync::OnceLock::new();
        EMBEDDED.get_or_init(|| {
            let cards = CardSet::embedded();
            let mut all = Figures::default();
            for (file, text) in EMBEDDED_FIGURES {
                match Figures::parse(file, text, &cards) {
                    Ok(f) => all.by_card.extend(f.by_card),
                    // A test keeps this from happening; the game still
                    // runs, on derived figures, if it does.
                    Err(e) => eprintln!("warning: {e}; its cards get figures from their types"),
                }
            }
            all
        })
    }

    /// Reads one figure file (a map from card number to figure), naming
    /// `file` and the line of what is wrong: a malformed entry, a number
    /// that is not a Digimon card of `cards`, a value out of range.
    pub fn parse(file: &str, text: &str, cards: &CardSet) -> Result<Figures, String> {
        let raw: BTreeMap<String, FigureSpec> = super::read_ron(text).map_err(|e| {
            format!(
                "{file}:{}:{}: {}",
                e.span.start.line, e.span.start.col, e.code
            )
        })?;
        let line_of = |key: &str| {
            text.lines()
                .position(|l| l.contains(&format!("\"{key}\"")))
                .map_or(0, |i| i + 1)
        };
        let mut by_card = BTreeMap::new();
        for (key, spec) in raw {
            let at = format!("{file}:{}: {key}", line_of(&key));
            let number: CardNumber = key.parse().map_err(|e| format!("{at}: {e}"))?;
            let name = match cards.get(&number) {
                Some(c) if c.as_digimon().is_some() => c.name().to_string(),
                Some(_) => return Err(format!("{at}: not a Digimon card, so it has no figure")),
                None => return Err(format!("{at}: no card has this number")),
            };
            spec.check().map_err(|e| format!("{at}: {e}"))?;
            by_card.insert(number, (name, spec));
        }
        Ok(Figures { by_card })
    }

    /// A card's figure data, if it has its own.
    pub fn get(&self, card: &CardNumber) -> Option<&FigureSpec> {
        self.by_card.get(card).map(|(_, spec)| spec)
    }

    /// A Digimon's figure data, if it has its own: the number's, when the
    /// number names the same Digimon as the shipped card.
    pub fn for_digimon(&self, d: &super::Digimon) -> Option<&FigureSpec> {
        self.by_card
            .get(&d.number)
            .filter(|(name, _)| *name == d.name)
            .map(|(_, spec)| spec)
    }

    /// How many cards have their own figure.
    pub fn len(&self) -> usize {
        self.by_card.len()
    }

    /// Whether no card has its own figure.
    pub fn is_empty(&self) -> bool {
        self.by_card.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cards() -> CardSet {
        CardSet::embedded()
    }

    #[test]
    fn colours_read_and_write_as_hex() {
        let c: Rgb = "#F0a020".parse().unwrap();
        assert_eq!(c, Rgb([0xF0, 0xA0, 0x20]));
        assert_eq!(c.to_string(), "#F0A020");
        assert!("F0A020".parse::<Rgb>().is_err());
        assert!("#F0A02".parse::<Rgb>().is_err());
        assert!("#GGA020".parse::<Rgb>().is_err());
    }

    #[test]
    fn the_shipped_figures_load_and_cover_every_shipped_digimon() {
        let cards = cards();
        let mut each = 0;
        for (file, text) in EMBEDDED_FIGURES {
            each += Figures::parse(file, text, &cards)
                .unwrap_or_else(|e| panic!("{e}"))
                .len();
        }
        let figures = Figures::embedded();
        assert_eq!(figures.len(), each, "a card has figures in two files");
        let missing: Vec<String> = cards
            .cards()
            .iter()
            .filter_map(|c| c.as_digimon())
            .filter(|d| figures.get(&d.number).is_none())
            .map(|d| format!("{} {}", d.number, d.name))
            .collect();
        assert!(missing.is_empty(), "no figure data: {missing:?}");
    }

    #[test]
    fn a_figure_for_no_card_or_out_of_range_is_refused_with_its_line() {
        let cards = cards();
        let good = r##"{
    "Dα-001": (plan: Raptor, colours: (body: "#F0A020", accent: "#FFFFFF")),
}"##;
        assert_eq!(Figures::parse("f.ron", good, &cards).unwrap().len(), 1);
        let nobody = good.replace("Dα-001", "Dα-999");
        let e = Figures::parse("f.ron", &nobody, &cards).unwrap_err();
        assert!(
            e.starts_with("f.ron:2: Dα-999") && e.contains("no card"),
            "{e}"
        );
        let option = cards
            .cards()
            .iter()
            .find(|c| c.as_digimon().is_none())
            .unwrap()
            .number()
            .to_string();
        let e = Figures::parse("f.ron", &good.replace("Dα-001", &option), &cards).unwrap_err();
        assert!(e.contains("not a Digimon"), "{e}");
        let tall = good.replace("plan: Raptor,", "plan: Raptor, build: (height: 3.0),");
        let e = Figures::parse("f.ron", &tall, &cards).unwrap_err();
        assert!(e.contains("build.height is 3"), "{e}");
        let horns = good.replace(
            "plan: Raptor,",
            "plan: Raptor, parts: [Horns(count: 7, length: 0.3, at: Head)],",
        );
        let e = Figures::parse("f.ron", &horns, &cards).unwrap_err();
        assert!(e.contains("Horns count is 7"), "{e}");
        let bad = good.replace("#F0A020", "orange");
        let e = Figures::parse("f.ron", &bad, &cards).unwrap_err();
        assert!(e.starts_with("f.ron:2:") && e.contains("#RRGGBB"), "{e}");
    }

    #[test]
    fn a_number_given_to_another_digimon_does_not_take_its_figure() {
        let cards = cards();
        let mut d = cards
            .resolve("Agumon")
            .unwrap()
            .as_digimon()
            .unwrap()
            .clone();
        assert!(Figures::embedded().for_digimon(&d).is_some());
        d.name = "Somebody Else".into();
        assert!(Figures::embedded().for_digimon(&d).is_none());
    }

    #[test]
    fn a_misspelled_part_field_is_refused() {
        let cards = cards();
        let text = r##"{
    "Dα-001": (plan: Raptor, colours: (body: "#F0A020", accent: "#FFFFFF"),
        parts: [Tail(length: 0.8, thicknes: 0.2, tip: Plain)]),
}"##;
        let e = Figures::parse("f.ron", text, &cards).unwrap_err();
        assert!(e.starts_with("f.ron:3:") && e.contains("thicknes"), "{e}");
    }

    #[test]
    fn plans_follow_the_type_for_cards_without_data() {
        assert_eq!(Plan::of("Dragon Man"), Plan::Biped);
        assert_eq!(Plan::of("Reptile"), Plan::Raptor);
        assert_eq!(Plan::of("Dinosaur"), Plan::Raptor);
        assert_eq!(Plan::of("Beast"), Plan::Quadruped);
        assert_eq!(Plan::of("Giant Bird"), Plan::Flyer);
        assert_eq!(Plan::of("Bird Man"), Plan::Biped);
        assert_eq!(Plan::of("Sea Animal"), Plan::Serpent);
        assert_eq!(Plan::of("Cyborg"), Plan::Machine);
        assert_eq!(Plan::of("Insect"), Plan::Insect);
        assert_eq!(Plan::of("Vegetation"), Plan::Blob);
    }
}
