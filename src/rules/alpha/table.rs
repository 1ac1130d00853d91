//! The card definitions a match uses, with what the rules ask of them again
//! and again worked out once: kind, Level III, Cost, base-name ids instead
//! of strings, the Speed with the card's own unconditional Always changes,
//! and which moments any of its abilities can fire at. Only the cards are
//! serialised (and compared), so a match's file and state hash do not
//! change with this table.

use std::sync::Arc;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::moment::{Moment, combine};
use crate::cards::{BattleType, Card, Requirements, Stage, base_name};
use crate::effects::{Effect, Target, Timing};

/// A card's own Speed changes that always hold: its Always abilities with
/// no trigger and no condition that change this Digimon's Speed.
pub(super) fn own_speed_changes(
    abilities: &[crate::effects::Ability],
) -> impl Iterator<Item = crate::effects::Change> + Clone + '_ {
    abilities
        .iter()
        .filter(|a| a.timing == Timing::Always && a.trigger.is_none() && a.conditions.is_empty())
        .flat_map(|a| a.effects.iter())
        .filter_map(|e| match e {
            Effect::Speed(Target::This, c) => Some(*c),
            _ => None,
        })
}

/// What kind of card a definition is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Digimon,
    Option,
    Command,
}

/// An evolution requirement by base-name ids.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Needs {
    None,
    AnyOf(Box<[u16]>),
    Jogress(u16, u16),
}

/// What the rules read of one definition, worked out once.
#[derive(Debug, Clone)]
pub(super) struct Info {
    pub kind: Kind,
    pub level_iii: bool,
    pub cost: u32,
    pub one_card_limit: bool,
    /// The base name (X-Antibody counts as its base), as an id.
    pub name: u16,
    /// The Speed with the card's unconditional Always Speed changes.
    pub speed: u32,
    pub battle_type: BattleType,
    /// Which moments (by [`Moment::bit`]) any ability can fire at.
    pub moments: u16,
    pub needs: Needs,
}

/// The definitions of a match and their [`Info`], side by side.
#[derive(Debug, Clone)]
pub(super) struct Defs {
    cards: Arc<[Card]>,
    info: Arc<[Info]>,
}

impl Defs {
    pub fn new(cards: Vec<Card>) -> Defs {
        let mut names: Vec<String> = Vec::new();
        let mut id = |name: &str| -> u16 {
            let base = base_name(name);
            match names.iter().position(|n| n == base) {
                Some(i) => i as u16,
                None => {
                    names.push(base.to_string());
                    (names.len() - 1) as u16
                }
            }
        };
        let info = cards
            .iter()
            .map(|card| {
                let name = id(card.name());
                let digimon = card.as_digimon();
                let needs = match digimon.map(|d| &d.requirements) {
                    Some(Requirements::AnyOf(list)) => {
                        Needs::AnyOf(list.iter().map(|n| id(n)).collect())
                    }
                    Some(Requirements::Jogress(x, y)) => Needs::Jogress(id(x), id(y)),
                    _ => Needs::None,
                };
                let always = own_speed_changes(card.alpha_abilities());
                let moments = card
                    .alpha_abilities()
                    .iter()
                    .flat_map(|a| Moment::ALL.iter().filter(move |m| m.fires(a)))
                    .fold(0u16, |mask, m| mask | m.bit());
                Info {
                    kind: match card {
                        Card::Digimon(_) => Kind::Digimon,
                        Card::Option(_) => Kind::Option,
                        // Refused by the deck rules before a match starts.
                        Card::Command(_) | Card::Dcg(_) | Card::Clash(_) => Kind::Command,
                    },
                    level_iii: digimon.is_some_and(|d| d.level.stage() == Stage::III),
                    cost: card.cost().map_or(0, u32::from),
                    one_card_limit: card.one_card_limit(),
                    name,
                    speed: digimon.map_or(0, |d| combine(u32::from(d.speed), always)),
                    battle_type: digimon.map_or(BattleType::A, |d| d.battle_type),
                    moments,
                    needs,
                }
            })
            .collect();
        Defs {
            cards: cards.into(),
            info,
        }
    }

    pub fn card(&self, def: u16) -> Option<&Card> {
        self.cards.get(usize::from(def))
    }

    pub fn info(&self, def: u16) -> Option<&Info> {
        self.info.get(usize::from(def))
    }

    /// The cards, shared (to borrow an ability while the match changes).
    pub fn shared(&self) -> Arc<[Card]> {
        Arc::clone(&self.cards)
    }
}

impl PartialEq for Defs {
    fn eq(&self, other: &Defs) -> bool {
        self.cards == other.cards
    }
}

impl Eq for Defs {}

impl Serialize for Defs {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.cards.serialize(s)
    }
}

impl<'de> Deserialize<'de> for Defs {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Defs, D::Error> {
        Vec::<Card>::deserialize(d).map(Defs::new)
    }
}
