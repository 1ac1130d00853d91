//! The moments Card Game Alpha abilities fire at (D23) and how changes to
//! a number combine (D39): what the card table (`table.rs`) works out once
//! per card and the effects (`effects.rs`) use as a match goes.

use crate::effects::{Ability, Change, Happening, Timing, Trigger};

/// A moment abilities may fire at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Moment {
    /// The last step of the owner's Preparation Phase.
    Preparation,
    /// This card's evolution succeeded.
    Evolved,
    /// Its Digimon declared an attack or alpha-attack.
    Attacking,
    /// Its Digimon blocked or alpha-blocked.
    Blocking,
    /// Its Digimon's attack was blocked.
    Blocked,
    /// A battle begins (after techniques are known, before Commands).
    BattleStart,
    /// Its Digimon would be deleted.
    WouldDelete,
    /// The battle is over and tapping done.
    AfterBattle {
        won: bool,
        lost: bool,
        deleted: bool,
        opponent_deleted: bool,
    },
    /// Its player lost points.
    LosePoints,
    /// The opposing side used a Command card.
    OpponentUsed,
    /// The end of the turn.
    EndOfTurn,
}

impl Moment {
    /// One of each moment (an after-battle with every flag set, so a
    /// trigger on any of them counts), for [`Moment::bit`] masks.
    pub(super) const ALL: [Moment; 11] = [
        Moment::Preparation,
        Moment::Evolved,
        Moment::Attacking,
        Moment::Blocking,
        Moment::Blocked,
        Moment::BattleStart,
        Moment::WouldDelete,
        Moment::AfterBattle {
            won: true,
            lost: true,
            deleted: true,
            opponent_deleted: true,
        },
        Moment::LosePoints,
        Moment::OpponentUsed,
        Moment::EndOfTurn,
    ];

    /// The moment's bit in a card's mask of moments it has abilities for.
    pub(super) fn bit(self) -> u16 {
        1 << match self {
            Moment::Preparation => 0,
            Moment::Evolved => 1,
            Moment::Attacking => 2,
            Moment::Blocking => 3,
            Moment::Blocked => 4,
            Moment::BattleStart => 5,
            Moment::WouldDelete => 6,
            Moment::AfterBattle { .. } => 7,
            Moment::LosePoints => 8,
            Moment::OpponentUsed => 9,
            Moment::EndOfTurn => 10,
        }
    }

    /// Whether an ability fires now (D23: a trigger names its moment; an
    /// ability without one fires at its timing).
    pub(super) fn fires(self, a: &Ability) -> bool {
        match (a.trigger, self) {
            (None, Moment::Preparation) => a.timing == Timing::Preparation,
            (None, Moment::Evolved) => a.timing == Timing::Evolution,
            (None, Moment::Attacking) => a.timing == Timing::Attacking,
            (None, Moment::Blocking) => a.timing == Timing::Blocking,
            (None, Moment::BattleStart) => matches!(a.timing, Timing::Battle | Timing::Always),
            (None, Moment::AfterBattle { .. }) => a.timing == Timing::AfterBattle,
            (None, Moment::EndOfTurn) => a.timing == Timing::EndOfTurn,
            (Some(Trigger::When(h)), m) => match (h, m) {
                (Happening::ThisDigivolves, Moment::Evolved) => true,
                (Happening::ThisBlocked, Moment::Blocked) => true,
                (Happening::YouLosePoints, Moment::LosePoints) => true,
                (Happening::OpponentUsesOption, Moment::OpponentUsed) => true,
                (
                    h,
                    Moment::AfterBattle {
                        won,
                        lost,
                        deleted,
                        opponent_deleted,
                    },
                ) => match h {
                    Happening::ThisWins => won,
                    Happening::ThisLoses => lost,
                    Happening::ThisDeleted => deleted,
                    Happening::OpponentDeleted => opponent_deleted,
                    _ => false,
                },
                _ => false,
            },
            (Some(Trigger::WhenWould(Happening::ThisDeleted)), Moment::WouldDelete) => true,
            _ => false,
        }
    }

    /// Whether modifiers from an ability at this moment last for the
    /// battle (or else for the turn).
    pub(super) fn in_battle(self) -> bool {
        matches!(
            self,
            Moment::Attacking
                | Moment::Blocking
                | Moment::Blocked
                | Moment::BattleStart
                | Moment::WouldDelete
                | Moment::AfterBattle { .. }
                | Moment::OpponentUsed
        )
    }
}

/// Applies changes in D39's order: a Set replaces the basic value, then
/// percentages, then additions; never below 0.
pub(super) fn combine(base: u32, changes: impl Iterator<Item = Change> + Clone) -> u32 {
    let mut v = changes
        .clone()
        .filter_map(|c| match c {
            Change::Set(x) => Some(x),
            _ => None,
        })
        .last()
        .unwrap_or(base);
    for c in changes.clone() {
        if let Change::Percent(_) = c {
            v = c.apply(v);
        }
    }
    let add: i64 = changes
        .filter_map(|c| match c {
            Change::Add(d) => Some(i64::from(d)),
            _ => None,
        })
        .sum();
    (i64::from(v) + add).clamp(0, i64::from(u32::MAX)) as u32
}
