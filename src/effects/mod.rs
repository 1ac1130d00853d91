//! The one effect grammar: every card ability, Battle Terminal or Card Game
//! Alpha, is data in this shape, read the way the effect-reading guide reads
//! cards: `{Timing} {Per-turn limit} {Trigger condition}, {Activation
//! condition}, {Optional} {Effect}`.
//!
//! [`text`] turns an ability into readable English and parses that English
//! back, so the data and the words on a printed card never drift apart.

pub mod clash;
mod cursor;
pub mod dcg;
pub mod text;

use serde::{Deserialize, Serialize};

use crate::glossary::{Attribute, BattleType, Field, Stage};

#[cfg(test)]
use proptest_derive::Arbitrary;

/// One ability of a card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct Ability {
    /// `◎` (applies by itself at its timing) or `[Action:]` (the player decides).
    #[serde(default)]
    pub mark: Mark,
    /// When the ability is put on standby or applies.
    pub timing: Timing,
    /// How often it may resolve.
    #[serde(default)]
    pub limit: Option<Limit>,
    /// "When …" (a past event) or "When … would …" (an interruptive effect).
    #[serde(default)]
    pub trigger: Option<Trigger>,
    /// "If …": the game state that must hold when it resolves; all of them.
    #[serde(default)]
    #[cfg_attr(
        test,
        proptest(
            strategy = "proptest::collection::vec(proptest::arbitrary::any::<Condition>(), 0..3)"
        )
    )]
    pub conditions: Vec<Condition>,
    /// "You may": the controlling player chooses whether it resolves.
    #[serde(default)]
    pub optional: bool,
    /// What it does, in order ("…, then …").
    #[cfg_attr(
        test,
        proptest(
            strategy = "proptest::collection::vec(proptest::arbitrary::any::<Effect>(), 1..3)"
        )
    )]
    pub effects: Vec<Effect>,
}

impl Ability {
    /// An interruptive effect ("when … would …") resolves before the event it interrupts.
    pub fn is_interruptive(&self) -> bool {
        matches!(self.trigger, Some(Trigger::WhenWould(_)))
    }
}

/// How an ability comes into play.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub enum Mark {
    /// `◎`: constantly active, or resolves by itself at its timing.
    #[default]
    Auto,
    /// `[Action:]`: resolves only when its player decides to, at its timing.
    Action,
}

/// When an ability applies. Terminal rounds are the tabletop's turns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub enum Timing {
    /// At all times while the card is in play.
    Always,
    /// Preparation Phase (tabletop) / the scan and evolution check (Terminal).
    Preparation,
    /// When this Digimon digivolves (Evolution Phase / evolution check).
    Evolution,
    /// During a battle, while attack powers are worked out.
    Battle,
    /// Right after a battle's result is known.
    AfterBattle,
    /// When this Digimon attacks.
    Attacking,
    /// When this Digimon blocks.
    Blocking,
    /// At the end of the turn (round).
    EndOfTurn,
}

/// How often an ability may resolve.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub enum Limit {
    /// At most N times each turn (round).
    PerTurn(#[cfg_attr(test, proptest(strategy = "1u8..=9"))] u8),
    /// At most N times in the whole game (battle).
    PerGame(#[cfg_attr(test, proptest(strategy = "1u8..=9"))] u8),
}

/// A trigger condition.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub enum Trigger {
    /// "When X": after X has happened.
    When(Happening),
    /// "When X would happen": interrupts X and resolves before it.
    WhenWould(Happening),
}

/// Something that happens in a game and can trigger an ability.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub enum Happening {
    /// This Digimon is deleted.
    ThisDeleted,
    /// The opposing Digimon is deleted.
    OpponentDeleted,
    /// This Digimon wins a battle.
    ThisWins,
    /// This Digimon loses a battle.
    ThisLoses,
    /// This Digimon digivolves.
    ThisDigivolves,
    /// This Digimon is blocked.
    ThisBlocked,
    /// Its player loses points.
    YouLosePoints,
    /// The opposing player uses an Option or Command card.
    OpponentUsesOption,
}

/// An activation condition ("if …"), checked against the game state.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub enum Condition {
    /// The opposing Digimon has this attribute.
    OpponentAttribute(Attribute),
    /// The opposing Digimon belongs to this Field.
    OpponentField(Field),
    /// The opposing Digimon is at this level or higher.
    OpponentLevelAtLeast(Stage),
    /// The opposing Digimon is at this level or lower.
    OpponentLevelAtMost(Stage),
    /// The opposing Digimon has this battle type (this round's stance in the Terminal).
    OpponentBattleType(BattleType),
    /// This Digimon has this battle type (this round's stance in the Terminal).
    ThisBattleType(BattleType),
    /// This Digimon uses this technique.
    UsesTechnique(BattleType),
    /// The opposing Digimon uses this technique.
    OpponentUsesTechnique(BattleType),
    /// The opposing Digimon has this name (X-Antibody counts as its base name).
    OpponentNamed(#[cfg_attr(test, proptest(regex = "[A-Z][a-z]{1,8}( [A-Z][a-z]{1,8})?"))] String),
    /// Its player has a Digimon of this name in play.
    YouHave(#[cfg_attr(test, proptest(regex = "[A-Z][a-z]{1,8}( [A-Z][a-z]{1,8})?"))] String),
    /// Its player has this many points or fewer.
    PointsAtMost(u32),
    /// Its player has fewer points than the opponent.
    FewerPoints,
    /// This Digimon's Speed is higher than the opposing Digimon's.
    Faster,
    /// The opposing Digimon has this much HP or more.
    OpponentHpAtLeast(u32),
}

/// What an ability does.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub enum Effect {
    /// Changes attack power (for this battle).
    Power(Target, Change),
    /// Changes HP (for this battle).
    Hp(Target, Change),
    /// Changes Speed (for this turn).
    Speed(Target, Change),
    /// Sets a technique's basic attack power to 0 (it stays 0: the new basic power).
    TechniqueToZero(Target, TechniqueSlot),
    /// Deletes Digimon.
    Delete(Target),
    /// Prevents Digimon from being deleted this time.
    PreventDeletion(Target),
    /// A player gains (positive) or loses (negative) points.
    Points(Whose, i32),
    /// A player draws cards (tabletop).
    Draw(Whose, #[cfg_attr(test, proptest(strategy = "1u8..=9"))] u8),
    /// A player discards cards from hand to the Dark Area (tabletop).
    Discard(Whose, #[cfg_attr(test, proptest(strategy = "1u8..=9"))] u8),
    /// Changes the attribute of Digimon (for this battle).
    ChangeAttribute(Target, Attribute),
    /// Changes the battle type of Digimon (for this battle).
    ChangeBattleType(Target, BattleType),
    /// Adds to (positive) or removes from (negative) a player's evolution gauge, in percent.
    Gauge(Whose, i32),
    /// The abilities of Digimon have no effect (for this battle).
    NegateAbilities(Target),
    /// Taps (tabletop) Digimon.
    Tap(Target),
    /// Untaps (tabletop) Digimon.
    Untap(Target),
    /// Its controller wins the game at once (tabletop: a winning condition
    /// stated on a card).
    WinGame,
}

/// How a number changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub enum Change {
    /// Adds (or, negative, subtracts) this much.
    Add(i32),
    /// Multiplies by this percentage (150 = ×1.5).
    Percent(u16),
    /// Becomes exactly this.
    Set(u32),
}

impl Change {
    /// Applies the change to a value, never going below zero.
    pub fn apply(self, value: u32) -> u32 {
        match self {
            Change::Add(d) => {
                (i64::from(value) + i64::from(d)).clamp(0, i64::from(u32::MAX)) as u32
            }
            Change::Percent(p) => {
                (u64::from(value) * u64::from(p) / 100).min(u64::from(u32::MAX)) as u32
            }
            Change::Set(v) => v,
        }
    }
}

/// Which technique an effect names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub enum TechniqueSlot {
    /// One of A, B or C.
    One(BattleType),
    /// All three techniques.
    All,
}

/// The Digimon an effect acts on.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub enum Target {
    /// The card with the ability.
    This,
    /// The Digimon it is battling.
    Opponent,
    /// Some of a player's Digimon in play, chosen by that ability's player.
    Choose {
        /// Whose Digimon.
        side: Whose,
        /// How many: "N" or "up to N" as the effect-reading guide means them.
        count: Count,
        /// Only Digimon that match all of these may be chosen.
        #[serde(default)]
        #[cfg_attr(
            test,
            proptest(
                strategy = "proptest::collection::vec(proptest::arbitrary::any::<Filter>(), 0..3)"
            )
        )]
        filters: Vec<Filter>,
    },
}

/// Whose: a player, seen from the ability's controller.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub enum Whose {
    /// The ability's controller.
    You,
    /// The other player.
    Opponent,
}

/// How many targets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub enum Count {
    /// "N": as many as possible up to N must be chosen.
    Exactly(#[cfg_attr(test, proptest(strategy = "1u8..=9"))] u8),
    /// "up to N": any number from 1 to N (at least 1 if any can be chosen).
    UpTo(#[cfg_attr(test, proptest(strategy = "1u8..=9"))] u8),
    /// Every one that matches.
    All,
}

impl Count {
    /// How many of `available` matching Digimon the effect acts on, given how
    /// many the player wants (`wanted` is ignored for "N" and "all").
    pub fn chosen(self, available: usize, wanted: usize) -> usize {
        match self {
            Count::Exactly(n) => available.min(usize::from(n)),
            Count::UpTo(_) if available == 0 => 0,
            Count::UpTo(n) => wanted.clamp(1, usize::from(n)).min(available),
            Count::All => available,
        }
    }
}

/// A restriction on which Digimon may be chosen.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub enum Filter {
    /// Belongs to this Field.
    Field(Field),
    /// Has this attribute.
    Attribute(Attribute),
    /// Is at this level.
    Level(Stage),
    /// Has this battle type.
    BattleType(BattleType),
    /// Has this text in its name.
    NameContains(#[cfg_attr(test, proptest(regex = "[A-Z][a-z]{1,8}"))] String),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn up_to_n_takes_at_least_one_when_it_can() {
        assert_eq!(Count::UpTo(3).chosen(5, 0), 1);
        assert_eq!(Count::UpTo(3).chosen(5, 9), 3);
        assert_eq!(Count::UpTo(3).chosen(0, 2), 0);
    }

    #[test]
    fn n_takes_as_many_as_possible() {
        assert_eq!(Count::Exactly(3).chosen(2, 0), 2);
        assert_eq!(Count::Exactly(3).chosen(5, 1), 3);
        assert_eq!(Count::All.chosen(4, 1), 4);
    }

    #[test]
    fn changes_never_go_below_zero() {
        assert_eq!(Change::Add(-500).apply(300), 0);
        assert_eq!(Change::Add(200).apply(300), 500);
        assert_eq!(Change::Percent(150).apply(300), 450);
        assert_eq!(Change::Set(0).apply(300), 0);
    }
}
