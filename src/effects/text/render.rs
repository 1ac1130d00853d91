//! Abilities as one English sentence each, in the guide's order.

use std::fmt::Write as _;

use super::super::{
    Ability, Change, Condition, Count, Effect, Filter, Limit, Mark, Target, TechniqueSlot, Trigger,
    Whose,
};
use super::{HAPPENINGS, TIMINGS};

/// The ability as one English sentence.
pub fn render(a: &Ability) -> String {
    let mut s = String::new();
    s.push_str(match a.mark {
        Mark::Auto => "◎",
        Mark::Action => "[Action:]",
    });
    let timing = TIMINGS
        .iter()
        .find(|(_, t)| *t == a.timing)
        .map_or("?", |(n, _)| n);
    let _ = write!(s, " [{timing}]");
    if let Some(limit) = a.limit {
        let (n, per) = match limit {
            Limit::PerTurn(n) => (n, "turn"),
            Limit::PerGame(n) => (n, "game"),
        };
        let times = match n {
            1 => "Once".to_string(),
            2 => "Twice".to_string(),
            n => format!("{n} times"),
        };
        let _ = write!(s, " ({times} per {per})");
    }
    let mut clauses = Vec::new();
    if let Some(trigger) = a.trigger {
        let (h, would) = match trigger {
            Trigger::When(h) => (h, false),
            Trigger::WhenWould(h) => (h, true),
        };
        let row = HAPPENINGS
            .iter()
            .find(|r| r.2 == h)
            .expect("every happening has words");
        clauses.push(format!("when {}", if would { row.1 } else { row.0 }));
    }
    if !a.conditions.is_empty() {
        let conds: Vec<String> = a.conditions.iter().map(condition).collect();
        clauses.push(format!("if {}", conds.join(" and ")));
    }
    let mut body = clauses.join(", ");
    if !body.is_empty() {
        body.push_str(", ");
    }
    if a.optional {
        body.push_str("you may ");
    }
    let effects: Vec<String> = a.effects.iter().map(effect).collect();
    body.push_str(&effects.join(", then "));
    let mut chars = body.chars();
    if let Some(first) = chars.next() {
        s.push(' ');
        s.extend(first.to_uppercase());
        s.push_str(chars.as_str());
    }
    s.push('.');
    s
}

fn condition(c: &Condition) -> String {
    const OPP: &str = "the opposing Digimon";
    match c {
        Condition::OpponentAttribute(a) => format!("{OPP} is {a}"),
        Condition::OpponentField(f) => format!("{OPP} belongs to {f}"),
        Condition::OpponentLevelAtLeast(s) => format!("{OPP} is {s} or higher"),
        Condition::OpponentLevelAtMost(s) => format!("{OPP} is {s} or lower"),
        Condition::OpponentBattleType(b) => format!("{OPP} has battle type {b}"),
        Condition::ThisBattleType(b) => format!("this Digimon has battle type {b}"),
        Condition::UsesTechnique(b) => format!("this Digimon uses its {b} technique"),
        Condition::OpponentUsesTechnique(b) => format!("{OPP} uses its {b} technique"),
        Condition::OpponentNamed(n) => format!("{OPP} is [{n}]"),
        Condition::YouHave(n) => format!("you have [{n}] in play"),
        Condition::PointsAtMost(n) => format!("you have {n} points or fewer"),
        Condition::FewerPoints => "you have fewer points than your opponent".to_string(),
        Condition::Faster => format!("this Digimon is faster than {OPP}"),
        Condition::OpponentHpAtLeast(n) => format!("{OPP} has {n} HP or more"),
    }
}

fn target(t: &Target) -> String {
    match t {
        Target::This => "this Digimon".to_string(),
        Target::Opponent => "the opposing Digimon".to_string(),
        Target::Choose {
            side,
            count,
            filters,
        } => {
            let mut s = match count {
                Count::Exactly(n) => format!("{n} of "),
                Count::UpTo(n) => format!("up to {n} of "),
                Count::All => "all of ".to_string(),
            };
            s.push_str(match side {
                Whose::You => "your Digimon",
                Whose::Opponent => "your opponent's Digimon",
            });
            if !filters.is_empty() {
                let f: Vec<String> = filters.iter().map(filter).collect();
                let _ = write!(s, " with {}", f.join(" and "));
            }
            s
        }
    }
}

fn filter(f: &Filter) -> String {
    match f {
        Filter::Field(f) => format!("Field {f}"),
        Filter::Attribute(a) => format!("attribute {a}"),
        Filter::Level(s) => format!("level {}", s.name().trim_start_matches("Level ")),
        Filter::BattleType(b) => format!("battle type {b}"),
        Filter::NameContains(n) => format!("[{n}] in its name"),
    }
}

fn signed(n: i32) -> String {
    if n < 0 {
        format!("-{}", n.unsigned_abs())
    } else {
        format!("+{n}")
    }
}

fn decimal(percent: u16) -> String {
    match percent % 100 {
        0 => format!("{}", percent / 100),
        r if r % 10 == 0 => format!("{}.{}", percent / 100, r / 10),
        r => format!("{}.{r:02}", percent / 100),
    }
}

fn change(stat: &str, t: &Target, c: Change) -> String {
    let t = target(t);
    match c {
        Change::Add(n) => format!("give {t} {} {stat}", signed(n)),
        Change::Percent(p) => format!("multiply the {stat} of {t} by {}", decimal(p)),
        Change::Set(v) => format!("set the {stat} of {t} to {v}"),
    }
}

fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn effect(e: &Effect) -> String {
    match e {
        Effect::Power(t, c) => change("attack power", t, *c),
        Effect::Hp(t, c) => change("HP", t, *c),
        Effect::Speed(t, c) => change("Speed", t, *c),
        Effect::TechniqueToZero(t, TechniqueSlot::One(b)) => {
            format!("reduce the {b} technique of {} to 0", target(t))
        }
        Effect::TechniqueToZero(t, TechniqueSlot::All) => {
            format!("reduce every technique of {} to 0", target(t))
        }
        Effect::Delete(t) => format!("delete {}", target(t)),
        Effect::PreventDeletion(t) => format!("prevent the deletion of {}", target(t)),
        Effect::Points(p, n) => {
            let amount = plural(u64::from(n.unsigned_abs()), "point", "points");
            match (p, *n < 0) {
                (Whose::You, false) => format!("gain {amount}"),
                (Whose::You, true) => format!("lose {amount}"),
                (Whose::Opponent, false) => format!("your opponent gains {amount}"),
                (Whose::Opponent, true) => format!("your opponent loses {amount}"),
            }
        }
        Effect::Draw(Whose::You, n) => format!("draw {}", plural(u64::from(*n), "card", "cards")),
        Effect::Draw(Whose::Opponent, n) => format!(
            "your opponent draws {}",
            plural(u64::from(*n), "card", "cards")
        ),
        Effect::Discard(Whose::You, n) => {
            format!("discard {}", plural(u64::from(*n), "card", "cards"))
        }
        Effect::Discard(Whose::Opponent, n) => {
            format!(
                "your opponent discards {}",
                plural(u64::from(*n), "card", "cards")
            )
        }
        Effect::ChangeAttribute(t, a) => format!("change the attribute of {} to {a}", target(t)),
        Effect::ChangeBattleType(t, b) => format!("change the battle type of {} to {b}", target(t)),
        Effect::Gauge(p, n) => {
            let whose = match p {
                Whose::You => "your",
                Whose::Opponent => "your opponent's",
            };
            if *n < 0 {
                format!("remove {}% from {whose} evolution gauge", n.unsigned_abs())
            } else {
                format!("add {n}% to {whose} evolution gauge")
            }
        }
        Effect::NegateAbilities(t) => format!("negate the abilities of {}", target(t)),
        Effect::Tap(t) => format!("tap {}", target(t)),
        Effect::Untap(t) => format!("untap {}", target(t)),
        Effect::WinGame => "you win the game".to_string(),
    }
}
