//! A player's moves in the Terminal Battle and where an ability sits.

use serde::{Deserialize, Serialize};

use crate::cards::BattleType;

/// A player's move. Stances are pressed secretly; the round resolves when
/// both are in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Action {
    /// Press A, B or C: this round's battle type.
    Stance(BattleType),
    /// The stance timer ran out: the Digimon's printed battle type.
    TimeUp,
    /// Answer the evolution question: digivolve (true) or stay.
    Digivolve(bool),
    /// Jogress: the front line and its partner line become the Jogress card.
    Jogress,
    /// Alpha Strike with this stance (once per battle).
    AlphaAttack(BattleType),
    /// Answer an Alpha Strike: alpha-block (true) or let it through.
    AlphaBlock(bool),
    /// Use an `[Action:]` ability this round.
    UseAbility(AbilitySlot),
}

impl Action {
    /// A number that tells actions apart (for the action digest).
    pub(super) fn code(self) -> u32 {
        let b = |t: BattleType| t.index() as u32;
        match self {
            Action::Stance(t) => 1 + b(t),
            Action::TimeUp => 4,
            Action::Digivolve(yes) => 5 + u32::from(yes),
            Action::Jogress => 7,
            Action::AlphaAttack(t) => 8 + b(t),
            Action::AlphaBlock(yes) => 11 + u32::from(yes),
            Action::UseAbility(slot) => {
                let source = match slot.source {
                    Carrier::Front => 0,
                    Carrier::Option(i) => 1 + u32::from(i),
                };
                0x100 + (source << 8) + u32::from(slot.index)
            }
        }
    }
}

/// Where an ability is: on the front Digimon or on an Option card.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct AbilitySlot {
    /// The card.
    pub source: Carrier,
    /// Its index in the card's Battle Terminal abilities.
    pub index: u8,
}

/// A card of a player's that can carry abilities.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Carrier {
    /// The Digimon at the front.
    Front,
    /// The player's n-th Option card.
    Option(u8),
}
