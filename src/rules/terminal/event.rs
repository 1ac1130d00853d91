//! What the Terminal Battle reports, in order, for a presenter to stage.

use serde::{Deserialize, Serialize};

use super::{AbilitySlot, Side};
use crate::cards::{BattleType, CardNumber};
use crate::effects::Change;
use crate::rules::Outcome;

/// What made an attack power or HP change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Cause {
    /// The stance that beats the other's.
    ReadBonus,
    /// A card's ability.
    Ability {
        /// Whose card.
        side: Side,
        /// The card.
        card: CardNumber,
        /// Index in its Battle Terminal abilities.
        index: u8,
    },
}

/// Why a player lost points.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum PointsReason {
    /// Burst: the team's Cost was above the cap.
    Burst,
    /// Lost the clash.
    LostClash,
    /// Its Digimon was deleted.
    Deletion,
    /// An unblocked Alpha Strike.
    AlphaStrike,
    /// A card's ability.
    Ability,
}

/// Everything a presenter needs to stage the battle, in order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    /// A round begins.
    RoundStarted {
        /// 1-based.
        round: u32,
    },
    /// A player may answer the evolution question.
    EvolutionOffered {
        /// Who.
        side: Side,
        /// The front Digimon now.
        from: CardNumber,
        /// What it would become.
        to: CardNumber,
        /// Whether it is a Jogress.
        jogress: bool,
        /// The bench line asked about (engine 4), or `None` for the front.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        bench: Option<u8>,
    },
    /// A Digimon digivolved.
    Digivolved {
        /// Whose.
        side: Side,
        /// Before.
        from: CardNumber,
        /// After.
        to: CardNumber,
        /// The bench line that digivolved (engine 4), or `None`: the front.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        bench: Option<u8>,
    },
    /// Two lines became one Jogress Digimon.
    Jogressed {
        /// Whose.
        side: Side,
        /// The two Digimon that joined.
        from: [CardNumber; 2],
        /// The Jogress Digimon.
        to: CardNumber,
    },
    /// A player pressed (the stance stays secret until both have).
    StanceLocked {
        /// Who.
        side: Side,
    },
    /// An `[Action:]` ability was readied for this round.
    AbilityReadied {
        /// Whose.
        side: Side,
        /// Where.
        slot: AbilitySlot,
        /// The card it is on.
        card: CardNumber,
    },
    /// A player launched an Alpha Strike.
    AlphaAttack {
        /// Who.
        side: Side,
        /// The attacking group, attacker first.
        group: Vec<CardNumber>,
    },
    /// The answer to an Alpha Strike.
    AlphaBlock {
        /// The defender.
        side: Side,
        /// The blocking group, blocker first; empty when not blocked.
        group: Vec<CardNumber>,
    },
    /// Both stances are shown.
    StancesRevealed {
        /// P1's and P2's stance.
        stances: [BattleType; 2],
        /// Whose timer ran out.
        timed_out: [bool; 2],
    },
    /// A Digimon uses a technique (again if its opponent's battle type changed).
    TechniqueChosen {
        /// Whose.
        side: Side,
        /// The Digimon (or, in an Alpha Strike, the group member whose technique is used).
        card: CardNumber,
        /// Which technique: A, B or C.
        slot: BattleType,
        /// Its basic attack power.
        base: u32,
    },
    /// An ability triggered or applied.
    AbilityTriggered {
        /// Whose.
        side: Side,
        /// The card.
        card: CardNumber,
        /// Index in its Battle Terminal abilities (render it with `effects::text::render`).
        index: u8,
    },
    /// Attack power changed.
    PowerModified {
        /// Whose Digimon.
        side: Side,
        /// What did it.
        cause: Cause,
        /// How.
        change: Change,
        /// The power after it.
        power: u32,
    },
    /// HP changed for this battle.
    HpModified {
        /// Whose Digimon.
        side: Side,
        /// What did it.
        cause: Cause,
        /// How.
        change: Change,
        /// HP after it.
        hp: u32,
    },
    /// The clash: the final powers and who won (`None`: equal powers, both win).
    Clash {
        /// P1's and P2's final attack power.
        powers: [u32; 2],
        /// P1's and P2's HP in this battle.
        hp: [u32; 2],
        /// The winner, if the powers differ.
        winner: Option<Side>,
    },
    /// Points lost or gained.
    PointsChanged {
        /// Whose.
        side: Side,
        /// Change (negative: lost).
        delta: i32,
        /// Points after it.
        points: i32,
        /// Why.
        reason: PointsReason,
    },
    /// A deletion was prevented.
    DeletionPrevented {
        /// Whose Digimon.
        side: Side,
        /// The Digimon.
        card: CardNumber,
    },
    /// A Digimon was deleted (sent out of play).
    Deleted {
        /// Whose.
        side: Side,
        /// The Digimon.
        card: CardNumber,
    },
    /// The next line steps in.
    SteppedIn {
        /// Whose.
        side: Side,
        /// The Digimon now at the front.
        card: CardNumber,
    },
    /// An evolution gauge changed.
    GaugeChanged {
        /// Whose.
        side: Side,
        /// Which line (0-based).
        line: u8,
        /// The gauge now, percent.
        gauge: u32,
    },
    /// A round ends.
    RoundEnded {
        /// 1-based.
        round: u32,
        /// P1's and P2's points.
        points: [i32; 2],
    },
    /// The battle is over.
    BattleEnded {
        /// The result.
        outcome: Outcome,
    },
}
