//! Abilities as readable English, and back.
//!
//! [`render`] builds the sentence from the data; [`parse`] reads exactly the
//! sentences `render` writes, so `parse(&render(a)) == Ok(a)` for every
//! ability. The sentence follows the effect-reading guide's order:
//!
//! `◎ [Battle] (Once per turn) When this Digimon would be deleted, if the
//! opposing Digimon is Virus, you may prevent the deletion of this Digimon.`

mod parse;
mod render;

pub use parse::{ParseError, parse};
pub use render::render;

use super::{Happening, Timing};
use crate::glossary::{Attribute, BattleType, Field, Stage};

pub(super) const TIMINGS: &[(&str, Timing)] = &[
    ("Always", Timing::Always),
    ("Preparation", Timing::Preparation),
    ("When Digivolving", Timing::Evolution),
    ("Battle", Timing::Battle),
    ("After Battle", Timing::AfterBattle),
    ("When Attacking", Timing::Attacking),
    ("When Blocking", Timing::Blocking),
    ("End of Turn", Timing::EndOfTurn),
];

/// (what happened, what would happen) for each happening.
pub(super) const HAPPENINGS: &[(&str, &str, Happening)] = &[
    (
        "this Digimon is deleted",
        "this Digimon would be deleted",
        Happening::ThisDeleted,
    ),
    (
        "the opposing Digimon is deleted",
        "the opposing Digimon would be deleted",
        Happening::OpponentDeleted,
    ),
    (
        "this Digimon wins a battle",
        "this Digimon would win a battle",
        Happening::ThisWins,
    ),
    (
        "this Digimon loses a battle",
        "this Digimon would lose a battle",
        Happening::ThisLoses,
    ),
    (
        "this Digimon digivolves",
        "this Digimon would digivolve",
        Happening::ThisDigivolves,
    ),
    (
        "this Digimon is blocked",
        "this Digimon would be blocked",
        Happening::ThisBlocked,
    ),
    (
        "you lose points",
        "you would lose points",
        Happening::YouLosePoints,
    ),
    (
        "your opponent uses an Option card",
        "your opponent would use an Option card",
        Happening::OpponentUsesOption,
    ),
];

pub(super) const ATTRIBUTES: [(&str, Attribute); 5] = [
    ("Vaccine", Attribute::Vaccine),
    ("Data", Attribute::Data),
    ("Virus", Attribute::Virus),
    ("Unknown", Attribute::Unknown),
    ("Variable", Attribute::Variable),
];

pub(super) const BATTLE_TYPES: [(&str, BattleType); 3] = [
    ("A", BattleType::A),
    ("B", BattleType::B),
    ("C", BattleType::C),
];

pub(super) const STAGES: [(&str, Stage); 4] = [
    ("Level III", Stage::III),
    ("Level IV", Stage::IV),
    ("Perfect", Stage::Perfect),
    ("Ultimate", Stage::Ultimate),
];

pub(super) fn field_table() -> [(&'static str, Field); 8] {
    Field::ALL.map(|f| (f.name(), f))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::effects::*;
    use proptest::prelude::*;

    #[test]
    fn reads_like_the_guide() {
        let a = Ability {
            mark: Mark::Auto,
            timing: Timing::Battle,
            limit: Some(Limit::PerTurn(1)),
            trigger: Some(Trigger::WhenWould(Happening::ThisDeleted)),
            conditions: vec![Condition::OpponentAttribute(Attribute::Virus)],
            optional: true,
            effects: vec![Effect::PreventDeletion(Target::This)],
        };
        assert_eq!(
            render(&a),
            "◎ [Battle] (Once per turn) When this Digimon would be deleted, if the opposing \
             Digimon is Virus, you may prevent the deletion of this Digimon."
        );
        assert!(a.is_interruptive());
        assert_eq!(parse(&render(&a)), Ok(a));
    }

    #[test]
    fn targets_say_n_or_up_to_n() {
        let a = Ability {
            mark: Mark::Action,
            timing: Timing::Preparation,
            limit: None,
            trigger: None,
            conditions: vec![],
            optional: false,
            effects: vec![
                Effect::Power(
                    Target::Choose {
                        side: Whose::You,
                        count: Count::UpTo(2),
                        filters: vec![Filter::Field(Field::DragonsRoar), Filter::Level(Stage::IV)],
                    },
                    Change::Add(-150),
                ),
                Effect::Points(Whose::You, -1),
            ],
        };
        assert_eq!(
            render(&a),
            "[Action:] [Preparation] Give up to 2 of your Digimon with Field Dragon's Roar and \
             level IV -150 attack power, then lose 1 point."
        );
        assert_eq!(parse(&render(&a)), Ok(a));
    }

    #[test]
    fn a_wrong_word_is_pointed_at() {
        let e = parse("◎ [Battle] Give this Digimon +100 attack powr.").unwrap_err();
        assert_eq!(e.column, 35, "{e}");
        assert!(e.expected.contains("attack power"), "{e}");
        assert!(parse("◎ [Battle] Delete this Digimon").is_err());
        assert!(parse("[Battle] Delete this Digimon.").is_err());
    }

    proptest! {
        #[test]
        fn every_ability_reads_back(a: Ability) {
            let text = render(&a);
            prop_assert_eq!(parse(&text), Ok(a), "{}", text);
        }
    }
}
