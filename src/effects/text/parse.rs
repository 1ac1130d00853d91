//! Reading back exactly the sentences [`render`](super::render) writes.

use super::super::{
    Ability, Change, Condition, Count, Effect, Filter, Limit, Mark, Target, TechniqueSlot, Timing,
    Trigger, Whose,
};
use super::{ATTRIBUTES, BATTLE_TYPES, HAPPENINGS, STAGES, TIMINGS, field_table};
use crate::glossary::Stage;

pub use super::super::cursor::ParseError;
use super::super::cursor::{Cursor, PResult};

/// Reads a sentence written by [`render`] back into an ability.
pub fn parse(text: &str) -> Result<Ability, ParseError> {
    let mut c = Cursor { text, pos: 0 };
    let mark = if c.eat("◎") {
        Mark::Auto
    } else if c.eat("[Action:]") {
        Mark::Action
    } else {
        return c.error("\"◎\" or \"[Action:]\"");
    };
    c.expect(" [")?;
    let timing = c.one_of(TIMINGS, "a timing")?;
    c.expect("]")?;
    let limit = if c.eat(" (") {
        let n = if c.eat("Once") {
            1
        } else if c.eat("Twice") {
            2
        } else {
            let n = c.number()?;
            c.expect(" times")?;
            n
        };
        c.expect(" per ")?;
        let limit = if c.eat("turn") {
            Limit::PerTurn(n)
        } else if c.eat("game") {
            Limit::PerGame(n)
        } else {
            return c.error("\"turn\" or \"game\"");
        };
        c.expect(")")?;
        Some(limit)
    } else {
        None
    };
    c.expect(" ")?;
    // The body was capitalised for reading; parse it as it was built.
    let mut body = String::with_capacity(c.rest().len());
    let mut chars = c.rest().chars();
    if let Some(first) = chars.next() {
        body.extend(first.to_lowercase());
        body.push_str(chars.as_str());
    }
    let offset = c.pos;
    let mut b = Cursor {
        text: &body,
        pos: 0,
    };
    let shift = |e: ParseError| ParseError {
        column: e.column + text[..offset].chars().count(),
        ..e
    };
    parse_body(&mut b, mark, timing, limit).map_err(shift)
}

fn parse_body(
    c: &mut Cursor<'_>,
    mark: Mark,
    timing: Timing,
    limit: Option<Limit>,
) -> PResult<Ability> {
    let mut trigger = None;
    if c.eat("when ") {
        let is: Vec<(&str, Trigger)> = HAPPENINGS
            .iter()
            .map(|r| (r.0, Trigger::When(r.2)))
            .collect();
        let would: Vec<(&str, Trigger)> = HAPPENINGS
            .iter()
            .map(|r| (r.1, Trigger::WhenWould(r.2)))
            .collect();
        let all: Vec<(&str, Trigger)> = is.into_iter().chain(would).collect();
        trigger = Some(c.one_of(&all, "a trigger condition")?);
        c.expect(", ")?;
    }
    let mut conditions = Vec::new();
    if c.eat("if ") {
        conditions.push(parse_condition(c)?);
        while c.eat(" and ") {
            conditions.push(parse_condition(c)?);
        }
        c.expect(", ")?;
    }
    let optional = c.eat("you may ");
    let mut effects = vec![parse_effect(c)?];
    while c.eat(", then ") {
        effects.push(parse_effect(c)?);
    }
    c.expect(".")?;
    if !c.rest().is_empty() {
        return c.error("the end of the sentence");
    }
    Ok(Ability {
        mark,
        timing,
        limit,
        trigger,
        conditions,
        optional,
        effects,
    })
}

fn parse_condition(c: &mut Cursor<'_>) -> PResult<Condition> {
    if c.eat("the opposing Digimon ") {
        if c.eat("is ") {
            if c.rest().starts_with('[') {
                return Ok(Condition::OpponentNamed(c.bracketed()?));
            }
            if let Ok(a) = c.one_of(&ATTRIBUTES, "") {
                return Ok(Condition::OpponentAttribute(a));
            }
            let s = c.one_of(&STAGES, "an attribute, a level or a [name]")?;
            if c.eat(" or higher") {
                return Ok(Condition::OpponentLevelAtLeast(s));
            }
            c.expect(" or lower")?;
            return Ok(Condition::OpponentLevelAtMost(s));
        }
        if c.eat("belongs to ") {
            return Ok(Condition::OpponentField(
                c.one_of(&field_table(), "a Field")?,
            ));
        }
        if c.eat("has battle type ") {
            return Ok(Condition::OpponentBattleType(
                c.one_of(&BATTLE_TYPES, "A, B or C")?,
            ));
        }
        if c.eat("uses its ") {
            let b = c.one_of(&BATTLE_TYPES, "A, B or C")?;
            c.expect(" technique")?;
            return Ok(Condition::OpponentUsesTechnique(b));
        }
        if c.eat("has ") {
            let n = c.number()?;
            c.expect(" HP or more")?;
            return Ok(Condition::OpponentHpAtLeast(n));
        }
        return c.error("\"is\", \"belongs to\", \"has\" or \"uses its\"");
    }
    if c.eat("this Digimon ") {
        if c.eat("has battle type ") {
            return Ok(Condition::ThisBattleType(
                c.one_of(&BATTLE_TYPES, "A, B or C")?,
            ));
        }
        if c.eat("uses its ") {
            let b = c.one_of(&BATTLE_TYPES, "A, B or C")?;
            c.expect(" technique")?;
            return Ok(Condition::UsesTechnique(b));
        }
        c.expect("is faster than the opposing Digimon")?;
        return Ok(Condition::Faster);
    }
    if c.eat("you have ") {
        if c.eat("fewer points than your opponent") {
            return Ok(Condition::FewerPoints);
        }
        if c.rest().starts_with('[') {
            let name = c.bracketed()?;
            c.expect(" in play")?;
            return Ok(Condition::YouHave(name));
        }
        let n = c.number()?;
        c.expect(" points or fewer")?;
        return Ok(Condition::PointsAtMost(n));
    }
    c.error("an activation condition")
}

fn parse_target(c: &mut Cursor<'_>) -> PResult<Target> {
    if c.eat("this Digimon") {
        return Ok(Target::This);
    }
    if c.eat("the opposing Digimon") {
        return Ok(Target::Opponent);
    }
    let count = if c.eat("all of ") {
        Count::All
    } else if c.eat("up to ") {
        let n = c.number()?;
        c.expect(" of ")?;
        Count::UpTo(n)
    } else {
        let n = c.number()?;
        c.expect(" of ")?;
        Count::Exactly(n)
    };
    let side = if c.eat("your opponent's Digimon") {
        Whose::Opponent
    } else if c.eat("your Digimon") {
        Whose::You
    } else {
        return c.error("\"your Digimon\" or \"your opponent's Digimon\"");
    };
    let mut filters = Vec::new();
    if c.eat(" with ") {
        filters.push(parse_filter(c)?);
        while c.eat(" and ") {
            filters.push(parse_filter(c)?);
        }
    }
    Ok(Target::Choose {
        side,
        count,
        filters,
    })
}

fn parse_filter(c: &mut Cursor<'_>) -> PResult<Filter> {
    if c.eat("Field ") {
        return Ok(Filter::Field(c.one_of(&field_table(), "a Field")?));
    }
    if c.eat("attribute ") {
        return Ok(Filter::Attribute(c.one_of(&ATTRIBUTES, "an attribute")?));
    }
    if c.eat("level ") {
        const SHORT: [(&str, Stage); 4] = [
            ("III", Stage::III),
            ("IV", Stage::IV),
            ("Perfect", Stage::Perfect),
            ("Ultimate", Stage::Ultimate),
        ];
        return Ok(Filter::Level(c.one_of(&SHORT, "a level")?));
    }
    if c.eat("battle type ") {
        return Ok(Filter::BattleType(c.one_of(&BATTLE_TYPES, "A, B or C")?));
    }
    if c.rest().starts_with('[') {
        let name = c.bracketed()?;
        c.expect(" in its name")?;
        return Ok(Filter::NameContains(name));
    }
    c.error("a filter (Field, attribute, level, battle type or [name])")
}

const STATS: [(&str, Stat); 3] = [
    ("attack power", Stat::Power),
    ("HP", Stat::Hp),
    ("Speed", Stat::Speed),
];

#[derive(Clone, Copy)]
enum Stat {
    Power,
    Hp,
    Speed,
}

fn stat_effect(stat: Stat, t: Target, ch: Change) -> Effect {
    match stat {
        Stat::Power => Effect::Power(t, ch),
        Stat::Hp => Effect::Hp(t, ch),
        Stat::Speed => Effect::Speed(t, ch),
    }
}

fn parse_cards(c: &mut Cursor<'_>) -> PResult<u8> {
    let n = c.number()?;
    if !(c.eat(" cards") || c.eat(" card")) {
        return c.error("\"cards\"");
    }
    Ok(n)
}

fn parse_points(c: &mut Cursor<'_>, negative: bool) -> PResult<i32> {
    let n = i64::try_from(c.digits()?).or_else(|_| c.error("a smaller number"))?;
    if !(c.eat(" points") || c.eat(" point")) {
        return c.error("\"points\"");
    }
    i32::try_from(if negative { -n } else { n }).or_else(|_| c.error("a number in range"))
}

fn parse_effect(c: &mut Cursor<'_>) -> PResult<Effect> {
    if c.eat("give ") {
        let t = parse_target(c)?;
        c.expect(" ")?;
        let n = c.signed()?;
        c.expect(" ")?;
        let stat = c.one_of(&STATS, "attack power, HP or Speed")?;
        return Ok(stat_effect(stat, t, Change::Add(n)));
    }
    if c.eat("multiply the ") {
        let stat = c.one_of(&STATS, "attack power, HP or Speed")?;
        c.expect(" of ")?;
        let t = parse_target(c)?;
        c.expect(" by ")?;
        return Ok(stat_effect(stat, t, Change::Percent(c.decimal()?)));
    }
    if c.eat("set the ") {
        let stat = c.one_of(&STATS, "attack power, HP or Speed")?;
        c.expect(" of ")?;
        let t = parse_target(c)?;
        c.expect(" to ")?;
        return Ok(stat_effect(stat, t, Change::Set(c.number()?)));
    }
    if c.eat("reduce ") {
        let slot = if c.eat("every technique") {
            TechniqueSlot::All
        } else {
            c.expect("the ")?;
            let b = c.one_of(&BATTLE_TYPES, "A, B or C")?;
            c.expect(" technique")?;
            TechniqueSlot::One(b)
        };
        c.expect(" of ")?;
        let t = parse_target(c)?;
        c.expect(" to 0")?;
        return Ok(Effect::TechniqueToZero(t, slot));
    }
    if c.eat("delete ") {
        return Ok(Effect::Delete(parse_target(c)?));
    }
    if c.eat("prevent the deletion of ") {
        return Ok(Effect::PreventDeletion(parse_target(c)?));
    }
    if c.eat("gain ") {
        return Ok(Effect::Points(Whose::You, parse_points(c, false)?));
    }
    if c.eat("lose ") {
        return Ok(Effect::Points(Whose::You, parse_points(c, true)?));
    }
    if c.eat("draw ") {
        return Ok(Effect::Draw(Whose::You, parse_cards(c)?));
    }
    if c.eat("discard ") {
        return Ok(Effect::Discard(Whose::You, parse_cards(c)?));
    }
    if c.eat("your opponent ") {
        if c.eat("gains ") {
            return Ok(Effect::Points(Whose::Opponent, parse_points(c, false)?));
        }
        if c.eat("loses ") {
            return Ok(Effect::Points(Whose::Opponent, parse_points(c, true)?));
        }
        if c.eat("draws ") {
            return Ok(Effect::Draw(Whose::Opponent, parse_cards(c)?));
        }
        c.expect("discards ")?;
        return Ok(Effect::Discard(Whose::Opponent, parse_cards(c)?));
    }
    if c.eat("change the attribute of ") {
        let t = parse_target(c)?;
        c.expect(" to ")?;
        return Ok(Effect::ChangeAttribute(
            t,
            c.one_of(&ATTRIBUTES, "an attribute")?,
        ));
    }
    if c.eat("change the battle type of ") {
        let t = parse_target(c)?;
        c.expect(" to ")?;
        return Ok(Effect::ChangeBattleType(
            t,
            c.one_of(&BATTLE_TYPES, "A, B or C")?,
        ));
    }
    let gauge = if c.eat("add ") {
        Some(false)
    } else if c.eat("remove ") {
        Some(true)
    } else {
        None
    };
    if let Some(negative) = gauge {
        let n = i64::try_from(c.digits()?).or_else(|_| c.error("a smaller number"))?;
        c.expect(if negative { "% from " } else { "% to " })?;
        let p = if c.eat("your opponent's") {
            Whose::Opponent
        } else {
            c.expect("your")?;
            Whose::You
        };
        c.expect(" evolution gauge")?;
        let n = i32::try_from(if negative { -n } else { n })
            .or_else(|_| c.error("a number in range"))?;
        return Ok(Effect::Gauge(p, n));
    }
    if c.eat("negate the abilities of ") {
        return Ok(Effect::NegateAbilities(parse_target(c)?));
    }
    if c.eat("tap ") {
        return Ok(Effect::Tap(parse_target(c)?));
    }
    if c.eat("untap ") {
        return Ok(Effect::Untap(parse_target(c)?));
    }
    if c.eat("you win the game") {
        return Ok(Effect::WinGame);
    }
    c.error("an effect")
}
