//! Effects as the sentences cards print, and back: [`parse`] reads exactly
//! what [`render`] writes (the first letter of a clause in either case).

use std::fmt::Write as _;

use super::{
    Ability, Color, Condition, Count, Deed, Effect, Filter, Happening, Keyword, Target, Timing,
    Trigger, Whose,
};

pub use crate::effects::cursor::ParseError;
use crate::effects::cursor::{Cursor, PResult};

/// The sentence a card prints for an ability.
pub fn render(a: &Ability) -> String {
    let mut s = a.timing.words().to_string();
    if a.once_per_turn {
        push_word(&mut s, "(Once Per Turn)");
    }
    let mut clause = String::new();
    if let Some(t) = a.trigger {
        let (h, would) = match t {
            Trigger::When(h) => (h, false),
            Trigger::WhenWould(h) => (h, true),
        };
        if let Some(row) = Happening::WORDS.iter().find(|r| r.2 == h) {
            let _ = write!(clause, "When {}, ", if would { row.1 } else { row.0 });
        }
    }
    if !a.conditions.is_empty() {
        let lead = if a.trigger.is_none() && a.timing.is_turns() {
            "While"
        } else if clause.is_empty() {
            "If"
        } else {
            "if"
        };
        let words: Vec<String> = a.conditions.iter().map(condition_words).collect();
        let _ = write!(clause, "{lead} {}, ", words.join(" and "));
    }
    if a.optional {
        clause.push_str(if clause.is_empty() {
            "You may "
        } else {
            "you may "
        });
    }
    for (i, e) in a.effects.iter().enumerate() {
        let mut words = effect_words(e);
        if i > 0 {
            clause.push_str(" Then, ");
        } else if clause.is_empty() {
            capitalise(&mut words);
        }
        clause.push_str(&words);
        if !matches!(e, Effect::Keyword(_)) {
            clause.push('.');
        }
    }
    push_word(&mut s, &clause);
    s
}

fn push_word(s: &mut String, w: &str) {
    if !s.is_empty() {
        s.push(' ');
    }
    s.push_str(w);
}

fn capitalise(s: &mut String) {
    if let Some(c) = s.chars().next()
        && c.is_ascii_lowercase()
    {
        s.replace_range(..1, &c.to_ascii_uppercase().to_string());
    }
}

fn condition_words(c: &Condition) -> String {
    match c {
        Condition::YouHaveTamer => "you have a Tamer in play".into(),
        Condition::ThisSuspended => "this Digimon is suspended".into(),
        Condition::StackAtLeast(n) => format!("this Digimon has {n} or more digivolution cards"),
        Condition::StackHas(s) => format!("this Digimon has [{s}] in its digivolution cards"),
        Condition::SecurityAtMost(n) => format!("you have {n} or fewer security cards"),
        Condition::OpponentSecurityAtMost(n) => {
            format!("your opponent has {n} or fewer security cards")
        }
        Condition::OpponentHasBareDigimon => {
            "your opponent has a Digimon with no digivolution cards".into()
        }
        Condition::HandAtLeast(n) => format!("you have {n} or more cards in your hand"),
    }
}

/// A target in words ("1 of your opponent's suspended Digimon with 4000 DP or less").
pub(crate) fn target_words(t: &Target) -> String {
    let Target::Choose {
        side,
        count,
        other,
        filters,
    } = t
    else {
        return "this Digimon".into();
    };
    let mut s = match count {
        Count::Exactly(n) => format!("{n} of "),
        Count::UpTo(n) => format!("up to {n} of "),
        Count::All => "all of ".into(),
    };
    s.push_str(match side {
        Whose::You => "your ",
        Whose::Opponent => "your opponent's ",
    });
    if *other {
        s.push_str("other ");
    }
    for f in filters {
        match f {
            Filter::Suspended => s.push_str("suspended "),
            Filter::Unsuspended => s.push_str("unsuspended "),
            Filter::Level(l) => {
                let _ = write!(s, "level {l} ");
            }
            Filter::Color(c) => {
                let _ = write!(s, "{} ", c.word());
            }
            _ => {}
        }
    }
    s.push_str("Digimon");
    let tail: Vec<String> = filters
        .iter()
        .filter_map(|f| match f {
            Filter::DpAtMost(n) => Some(format!("{n}000 DP or less")),
            Filter::DpAtLeast(n) => Some(format!("{n}000 DP or more")),
            Filter::CostAtMost(n) => Some(format!("a play cost of {n} or less")),
            Filter::Bare => Some("no digivolution cards".into()),
            _ => None,
        })
        .collect();
    if !tail.is_empty() {
        let _ = write!(s, " with {}", tail.join(" and "));
    }
    s
}

fn plural(t: &Target) -> bool {
    matches!(
        t,
        Target::Choose {
            count: Count::All,
            ..
        }
    )
}

fn effect_words(e: &Effect) -> String {
    match e {
        Effect::Keyword(k) => k.words(),
        Effect::Draw(n) => format!("<Draw {n}>"),
        Effect::Recovery(n) => format!("<Recovery +{n} (Deck)>"),
        Effect::DeDigivolve(t, n) => format!("<De-Digivolve {n}> {}", target_words(t)),
        Effect::GainMemory(n) => format!("gain {n} memory"),
        Effect::ReduceOpponentMemory(n) => format!("reduce your opponent's memory by {n}"),
        Effect::Delete(t) => format!("delete {}", target_words(t)),
        Effect::Suspend(t) => format!("suspend {}", target_words(t)),
        Effect::Unsuspend(t) => format!("unsuspend {}", target_words(t)),
        Effect::ReturnToHand(t) => format!("return {} to the hand", target_words(t)),
        Effect::ToDeckBottom(t) => format!("place {} at the bottom of the deck", target_words(t)),
        Effect::Dp(t, n) => format!(
            "{} {} {}{}000 DP",
            target_words(t),
            if plural(t) { "get" } else { "gets" },
            if *n < 0 { "-" } else { "+" },
            n.unsigned_abs()
        ),
        Effect::Gains(t, k) => format!(
            "{} {} {} for the turn",
            target_words(t),
            if plural(t) { "gain" } else { "gains" },
            k.words()
        ),
        Effect::Forbid(t, d) => format!("{} can't {}", target_words(t), d.words()),
        Effect::TrashSecurity(n) => {
            format!("trash the top {n} cards of your opponent's security stack")
        }
        Effect::ActivateMain => "activate this card's [Main] effect".into(),
        Effect::AddToHand => "add this card to the hand".into(),
        Effect::PlayThis => "play this card without paying the cost".into(),
    }
}

/// A DP figure written in thousands ("4000"), as the number of thousands.
fn thousands(c: &mut Cursor) -> PResult<u32> {
    let at = c.pos;
    let n: u32 = c.number()?;
    if n == 0 || !n.is_multiple_of(1000) {
        c.pos = at;
        return c.error("DP in thousands (4000)");
    }
    Ok(n / 1000)
}

/// Reads a sentence [`render`] writes.
pub fn parse(text: &str) -> Result<Ability, ParseError> {
    let mut c = Cursor { text, pos: 0 };
    let mut timing = Timing::Always;
    for (w, t) in Timing::WORDS {
        if c.eat(w) {
            timing = t;
            c.eat(" ");
            break;
        }
    }
    let once_per_turn = c.eat("(Once Per Turn)");
    if once_per_turn {
        c.eat(" ");
    }
    let mut trigger = None;
    if c.eat_any_case("When ") {
        let mut found = None;
        for (did, would, h) in Happening::WORDS {
            if c.eat(would) {
                found = Some(Trigger::WhenWould(h));
                break;
            }
            if c.eat(did) {
                found = Some(Trigger::When(h));
                break;
            }
        }
        let Some(t) = found else {
            return c.error("a trigger condition (docs/dcg-cards.md lists them)");
        };
        c.expect(", ")?;
        trigger = Some(t);
    }
    let mut conditions = Vec::new();
    if c.eat_any_case("If ") || c.eat("While ") {
        loop {
            conditions.push(condition(&mut c)?);
            if !c.eat(" and ") {
                break;
            }
        }
        c.expect(", ")?;
    }
    let optional = c.eat_any_case("You may ");
    let mut effects = Vec::new();
    loop {
        let e = effect(&mut c)?;
        let keyword = matches!(e, Effect::Keyword(_));
        effects.push(e);
        if !keyword {
            c.expect(".")?;
        }
        if c.rest().is_empty() {
            break;
        }
        c.expect(" Then, ")?;
    }
    Ok(Ability {
        timing,
        once_per_turn,
        trigger,
        conditions,
        optional,
        effects,
    })
}

fn condition(c: &mut Cursor) -> PResult<Condition> {
    let simple = [
        ("you have a Tamer in play", Condition::YouHaveTamer),
        ("this Digimon is suspended", Condition::ThisSuspended),
        (
            "your opponent has a Digimon with no digivolution cards",
            Condition::OpponentHasBareDigimon,
        ),
    ];
    for (w, cond) in simple {
        if c.eat(w) {
            return Ok(cond);
        }
    }
    if c.rest().starts_with("this Digimon has [") {
        c.pos += "this Digimon has ".len();
        let name = c.bracketed()?;
        c.expect(" in its digivolution cards")?;
        return Ok(Condition::StackHas(name));
    }
    if c.eat("this Digimon has ") {
        let n = c.number()?;
        c.expect(" or more digivolution cards")?;
        return Ok(Condition::StackAtLeast(n));
    }
    if c.eat("you have ") {
        let n = c.number()?;
        if c.eat(" or fewer security cards") {
            return Ok(Condition::SecurityAtMost(n));
        }
        c.expect(" or more cards in your hand")?;
        return Ok(Condition::HandAtLeast(n));
    }
    if c.eat("your opponent has ") {
        let n = c.number()?;
        c.expect(" or fewer security cards")?;
        return Ok(Condition::OpponentSecurityAtMost(n));
    }
    c.error("an activation condition (docs/dcg-cards.md lists them)")
}

fn keyword(c: &mut Cursor) -> PResult<Keyword> {
    let simple = [
        ("<Blocker>", Keyword::Blocker),
        ("<Piercing>", Keyword::Piercing),
        ("<Jamming>", Keyword::Jamming),
        ("<Reboot>", Keyword::Reboot),
        ("<Retaliation>", Keyword::Retaliation),
        ("<Rush>", Keyword::Rush),
        ("<Blitz>", Keyword::Blitz),
        ("<Armor Purge>", Keyword::ArmorPurge),
        ("<Alliance>", Keyword::Alliance),
        ("<Evade>", Keyword::Evade),
        ("<Raid>", Keyword::Raid),
    ];
    for (w, k) in simple {
        if c.eat(w) {
            return Ok(k);
        }
    }
    if c.eat("<Security Attack ") {
        let sign: i8 = if c.eat("+") {
            1
        } else if c.eat("-") {
            -1
        } else {
            return c.error("\"+\" or \"-\"");
        };
        let n: i8 = c.number()?;
        c.expect(">")?;
        return Ok(Keyword::SecurityAttack(sign * n));
    }
    if c.eat("<Decoy (") {
        let Some(color) = Color::ALL.into_iter().find(|col| c.eat(&col.to_string())) else {
            return c.error("a colour");
        };
        c.expect(")>")?;
        return Ok(Keyword::Decoy(color));
    }
    c.error("a keyword (docs/dcg-cards.md lists them)")
}

fn target(c: &mut Cursor) -> PResult<Target> {
    if c.eat_any_case("this Digimon") {
        return Ok(Target::This);
    }
    let count = if c.eat_any_case("all of ") {
        Count::All
    } else if c.eat_any_case("up to ") {
        let n = c.number()?;
        c.expect(" of ")?;
        Count::UpTo(n)
    } else {
        let n = c.number()?;
        c.expect(" of ")?;
        Count::Exactly(n)
    };
    let side = if c.eat("your opponent's ") {
        Whose::Opponent
    } else if c.eat("your ") {
        Whose::You
    } else {
        return c.error("\"your\" or \"your opponent's\"");
    };
    let other = c.eat("other ");
    let mut filters = Vec::new();
    loop {
        if c.eat("suspended ") {
            filters.push(Filter::Suspended);
        } else if c.eat("unsuspended ") {
            filters.push(Filter::Unsuspended);
        } else if c.eat("level ") {
            let l = c.number()?;
            c.expect(" ")?;
            filters.push(Filter::Level(l));
        } else if let Some(col) = Color::ALL
            .into_iter()
            .find(|col| c.rest().starts_with(&format!("{} ", col.word())))
        {
            c.pos += col.word().len() + 1;
            filters.push(Filter::Color(col));
        } else {
            break;
        }
    }
    c.expect("Digimon")?;
    if c.eat(" with ") {
        loop {
            if c.eat("a play cost of ") {
                let n = c.number()?;
                c.expect(" or less")?;
                filters.push(Filter::CostAtMost(n));
            } else if c.eat("no digivolution cards") {
                filters.push(Filter::Bare);
            } else {
                let n = thousands(c)?;
                c.expect(" DP or ")?;
                if c.eat("less") {
                    filters.push(Filter::DpAtMost(n));
                } else {
                    c.expect("more")?;
                    filters.push(Filter::DpAtLeast(n));
                }
            }
            if !c.eat(" and ") {
                break;
            }
        }
    }
    Ok(Target::Choose {
        side,
        count,
        other,
        filters,
    })
}

fn effect(c: &mut Cursor) -> PResult<Effect> {
    if c.eat("<Draw ") {
        let n = c.number()?;
        c.expect(">")?;
        return Ok(Effect::Draw(n));
    }
    if c.eat("<Recovery +") {
        let n = c.number()?;
        c.expect(" (Deck)>")?;
        return Ok(Effect::Recovery(n));
    }
    if c.eat("<De-Digivolve ") {
        let n = c.number()?;
        c.expect("> ")?;
        let t = target(c)?;
        return Ok(Effect::DeDigivolve(t, n));
    }
    if c.rest().starts_with('<') {
        return keyword(c).map(Effect::Keyword);
    }
    let fixed = [
        ("activate this card's [Main] effect", Effect::ActivateMain),
        ("add this card to the hand", Effect::AddToHand),
        ("play this card without paying the cost", Effect::PlayThis),
    ];
    for (w, e) in fixed {
        if c.eat_any_case(w) {
            return Ok(e);
        }
    }
    if c.eat_any_case("gain ") {
        let n = c.number()?;
        c.expect(" memory")?;
        return Ok(Effect::GainMemory(n));
    }
    if c.eat_any_case("reduce your opponent's memory by ") {
        return Ok(Effect::ReduceOpponentMemory(c.number()?));
    }
    if c.eat_any_case("trash the top ") {
        let n = c.number()?;
        c.expect(" cards of your opponent's security stack")?;
        return Ok(Effect::TrashSecurity(n));
    }
    type Make = fn(Target) -> Effect;
    let verbs: [(&str, Make); 3] = [
        ("delete ", Effect::Delete),
        ("suspend ", Effect::Suspend),
        ("unsuspend ", Effect::Unsuspend),
    ];
    for (w, make) in verbs {
        if c.eat_any_case(w) {
            return Ok(make(target(c)?));
        }
    }
    if c.eat_any_case("return ") {
        let t = target(c)?;
        c.expect(" to the hand")?;
        return Ok(Effect::ReturnToHand(t));
    }
    if c.eat_any_case("place ") {
        let t = target(c)?;
        c.expect(" at the bottom of the deck")?;
        return Ok(Effect::ToDeckBottom(t));
    }
    // "<target> gets +N000 DP" / "<target> gains <K> for the turn".
    let t = target(c)?;
    if c.eat(" gets ") || c.eat(" get ") {
        let sign: i32 = if c.eat("+") {
            1
        } else if c.eat("-") {
            -1
        } else {
            return c.error("\"+\" or \"-\"");
        };
        let n = thousands(c)?;
        c.expect(" DP")?;
        return Ok(Effect::Dp(t, sign * n as i32));
    }
    if c.eat(" gains ") || c.eat(" gain ") {
        let k = keyword(c)?;
        c.expect(" for the turn")?;
        return Ok(Effect::Gains(t, k));
    }
    if c.eat(" can't ") {
        for d in [Deed::Attack, Deed::Block] {
            if c.eat(d.words()) {
                return Ok(Effect::Forbid(t, d));
            }
        }
        return c.error("\"attack\" or \"block\"");
    }
    c.error("\"gets\", \"gains\" or \"can't\" (docs/dcg-cards.md lists the effects)")
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn roundtrip(text: &str) -> Ability {
        let a = parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(render(&a), text);
        a
    }

    #[test]
    fn the_seed_pages_examples_read_in_its_order() {
        let a = roundtrip(
            "[Opponent's Turn] When an opponent's Digimon attacks, if this Digimon is suspended, suspend 1 of your opponent's Digimon.",
        );
        assert_eq!(a.timing, Timing::OpponentsTurn);
        assert_eq!(a.trigger, Some(Trigger::When(Happening::OpponentAttacks)));
        assert_eq!(a.conditions, vec![Condition::ThisSuspended]);
        let a = roundtrip(
            "[When Attacking] (Once Per Turn) If your opponent has a Digimon with no digivolution cards, <Draw 1>.",
        );
        assert!(a.once_per_turn);
        assert_eq!(a.effects, vec![Effect::Draw(1)]);
        let a = roundtrip(
            "[All Turns] When a card is removed from your security stack, if you have 3 or fewer security cards, <Recovery +1 (Deck)>.",
        );
        assert_eq!(a.conditions, vec![Condition::SecurityAtMost(3)]);
    }

    #[test]
    fn keywords_and_continuous_effects_read_as_printed() {
        assert_eq!(
            roundtrip("<Blocker>").effects,
            vec![Effect::Keyword(Keyword::Blocker)]
        );
        roundtrip("<Security Attack +1>");
        roundtrip("<Security Attack -1>");
        roundtrip("<Decoy (Black)>");
        let a = roundtrip(
            "[Your Turn] While this Digimon has 4 or more digivolution cards, this Digimon gets +1000 DP.",
        );
        assert_eq!(a.trigger, None);
        roundtrip("[Your Turn] This Digimon gets +2000 DP.");
        roundtrip(
            "[On Play] You may delete 1 of your opponent's Digimon with 4000 DP or less. Then, <Draw 1>.",
        );
        roundtrip("[Main] <Delay> Delete all of your opponent's unsuspended level 3 Digimon.");
        roundtrip("[Main] All of your opponent's Digimon get -2000 DP.");
        roundtrip("[Security] Activate this card's [Main] effect.");
        roundtrip("[When Digivolving] <De-Digivolve 1> 1 of your opponent's Digimon.");
        roundtrip("[When Attacking] This Digimon gains <Security Attack +1> for the turn.");
        roundtrip(
            "[On Deletion] Return up to 1 of your opponent's Digimon with a play cost of 4 or less to the hand.",
        );
        roundtrip("[All Turns] When this Digimon would be deleted, you may suspend this Digimon.");
        let a = roundtrip("[Opponent's Turn] All of your opponent's Digimon can't attack.");
        assert!(a.is_continuous());
        assert!(matches!(a.effects[0], Effect::Forbid(_, Deed::Attack)));
        roundtrip("[On Play] 1 of your opponent's Digimon can't block.");
    }

    #[test]
    fn a_sentence_it_does_not_know_says_where() {
        let e = parse("[On Play] Banish 1 of your opponent's Digimon.").unwrap_err();
        assert_eq!(e.column, 11);
        let e = parse("[On Play] Delete 1 of your opponent's Digimon with 4500 DP or less.")
            .unwrap_err();
        assert!(e.expected.contains("thousands"), "{e}");
        assert!(parse("").is_err());
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(500))]
        #[test]
        fn what_render_writes_parse_reads(a: Ability) {
            let text = render(&a);
            let back = parse(&text).map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
            prop_assert_eq!(render(&back), text);
        }
    }
}
