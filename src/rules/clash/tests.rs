//! Alpha Clash's rules, each test named after the rule it holds
//! (docs/clash-rules.md).

use super::*;
use crate::rules::Ruleset;

fn cards() -> CardSet {
    CardSet::embedded()
}

fn shipped(i: usize) -> Vec<CardNumber> {
    let set = cards();
    deck::embedded(deck::EMBEDDED[i].0, &set).unwrap().unwrap()
}

fn random_game(seed: u64, seats: usize) -> Match {
    let set = cards();
    let decks = (0..seats)
        .map(|i| shipped((i + seed as usize) % 4))
        .collect();
    let mut m = Match::from_setup(&Match::setup_for(decks, seed), &set).unwrap();
    let mut rng = Rng64::new(seed ^ 0xABCD);
    for _ in 0..50_000 {
        let Some((s, _)) = m.waiting() else { break };
        let legal = m.legal_actions(s);
        assert!(!legal.is_empty(), "{s} is asked with no answer");
        let a = legal[rng.below(legal.len())];
        m.apply(s, a)
            .unwrap_or_else(|e| panic!("a legal action refused: {e}"));
    }
    m
}

#[test]
fn cl_deck_every_shipped_deck_is_legal() {
    let set = cards();
    for (name, text) in deck::EMBEDDED {
        let f: deck::DeckFile = crate::cards::read_ron(text).unwrap();
        let list = f.numbers(&set).unwrap();
        let side = f.sideboard_numbers(&set).unwrap();
        deck::check(&list, &side, &set).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

#[test]
fn random_games_end_and_every_legal_action_applies() {
    for seed in 0..40 {
        let m = random_game(seed, 2 + (seed as usize % 3));
        assert!(
            m.outcome().is_some(),
            "seed {seed} did not end by turn {}",
            m.turn()
        );
    }
}

#[test]
fn cl_start_3_each_player_draws_eight() {
    let set = cards();
    let m = Match::from_setup(&Match::setup_for(vec![shipped(0), shipped(1)], 7), &set).unwrap();
    assert_eq!(m.hand(Seat::P1).len(), HAND);
    assert_eq!(m.hand(Seat::P2).len(), HAND);
    assert_eq!(m.deck(Seat::P1).len(), MAIN_DECK - HAND);
    assert_eq!(m.health(Seat::P1), m.max_health(Seat::P1));
}

#[test]
fn a_view_never_names_a_hidden_card_of_another_seat() {
    for seed in 0..10 {
        let set = cards();
        let decks = vec![shipped(0), shipped(1)];
        let mut m = Match::from_setup(&Match::setup_for(decks, seed), &set).unwrap();
        let mut rng = Rng64::new(seed);
        for _ in 0..400 {
            let Some((s, _)) = m.waiting() else { break };
            let v = m.view(Some(Seat::P1));
            let other = &v.seats[1];
            assert!(other.hand.is_none());
            for a in &other.accessories {
                assert_eq!(a.card.is_some(), !a.face_down);
            }
            let hidden: Vec<Cid> = m
                .hand(Seat::P2)
                .iter()
                .chain(m.deck(Seat::P2))
                .copied()
                .collect();
            let text = format!("{v:?}");
            for c in hidden {
                assert!(
                    !text.contains(&format!("id: {c},")),
                    "seed {seed}: P2's hidden card {c} is in P1's view"
                );
            }
            let legal = m.legal_actions(s);
            let a = legal[rng.below(legal.len())];
            m.apply(s, a).unwrap();
        }
    }
}

#[test]
fn the_same_seed_and_answers_give_the_same_hash() {
    let a = random_game(11, 2);
    let b = random_game(11, 2);
    assert_eq!(a.state_hash(), b.state_hash());
    assert_ne!(a.state_hash(), random_game(12, 2).state_hash());
}

// ---------------------------------------------------------------------
// Rule tests named as docs/clash-rules.md names them. Scenarios are
// written inline in the script format (docs/scripts.md), decks top first.

use crate::effects::clash::When;
use crate::rules::script::{Report, run};

/// Plays an inline scenario: two decks (Contender first), the steps, and
/// the expectations, all as the script file would write them.
fn scenario(p1: &[&str], p2: &[&str], steps: &[(&str, &str)], expect: &[&str]) -> Report {
    let list = |d: &[&str]| {
        d.iter()
            .map(|c| format!("{c:?}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let steps: Vec<String> = steps.iter().map(|(s, w)| format!("({s}, {w:?})")).collect();
    let text = format!(
        "(ruleset: Clash, exempt: [(P1, \"a test deck\"), (P2, \"a test deck\")], decks: [[{}], [{}]], steps: [{}], expect: [{}])",
        list(p1),
        list(p2),
        steps.join(", "),
        expect.join(", ")
    );
    run(&text, &cards(), None).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn holds(r: &Report) {
    assert!(r.expectations > 0);
    assert!(
        r.failures.is_empty(),
        "{:#?}\n{:#?}",
        r.failures,
        r.state_lines
    );
}

/// Both players keep and pass their first turns without resources: the
/// steps to P1's turn 3 with `n` resources named.
fn to_turn(resources: &[&'static str]) -> Vec<(&'static str, &'static str)> {
    let mut v = vec![("P1", "keep"), ("P2", "keep")];
    for (i, r) in resources.iter().enumerate() {
        if i > 0 {
            v.push(("P2", "no resource"));
            v.push(("P2", "end turn"));
        }
        v.push(("P1", r));
        if i + 1 < resources.len() {
            v.push(("P1", "end turn"));
        }
    }
    v
}

fn with(
    mut a: Vec<(&'static str, &'static str)>,
    b: &[(&'static str, &'static str)],
) -> Vec<(&'static str, &'static str)> {
    a.extend_from_slice(b);
    a
}

#[test]
fn rule_cl_color_1_five_colours() {
    assert_eq!(Hue::ALL.len(), 5);
    let bad = crate::cards::read_ron::<crate::cards::ClashCard>(
        r#"(number: "AC9-099", name: "Odd", kind: Clash, colors: [Purple], cost: 1, attack: 1, defense: 1)"#,
    );
    assert!(bad.is_err(), "a sixth colour is not a colour");
    for c in cards().cards().iter().filter_map(|c| c.as_clash()) {
        assert!(!c.colors.is_empty() && c.colors.len() <= 2, "{}", c.name);
    }
}

#[test]
fn rule_cl_color_2_colour_shown_in_up_to_four_places() {
    // The colour a card gives as a resource is the colour it shows: an
    // opponent reads it from the face-down card's back (CL-D29).
    let r = scenario(
        &["Vexa Cindermaw", "Ashen Reaper", "7x Cinder Whelp"],
        &["Lyra Stormwake", "8x Skyreef Scout"],
        &[
            ("P1", "keep"),
            ("P2", "keep"),
            ("P1", "resource Ashen Reaper"),
        ],
        &[
            "Event(\"P1 puts a Red/Black card into the Resource Zone, face down.\")",
            "Resources(P1, 1)",
        ],
    );
    holds(&r);
}

#[test]
fn rule_cl_color_3_hex_number_is_total_resource_cost() {
    let r = scenario(
        &["Vexa Cindermaw", "8x Flashfire Herald", "Cinder Whelp"],
        &["Lyra Stormwake", "9x Skyreef Scout"],
        &with(
            to_turn(&["resource Flashfire Herald", "resource Flashfire Herald"]),
            &[("P1", "play Flashfire Herald"), ("P2", "pass")],
        ),
        &[
            "Event(\"P1 engages 2 resources.\")",
            "InPlay(P1, \"Flashfire Herald\")",
        ],
    );
    holds(&r);
}

#[test]
fn rule_cl_color_4_specific_cost_is_part_of_the_total() {
    // Ashen Reaper costs 4, one of them red and one black: four red
    // resources cannot pay it; red, black and two more pay it with four
    // (not six).
    let set = cards();
    let mut m =
        Match::from_setup(&Match::setup_for(vec![shipped(0), shipped(1)], 3), &set).unwrap();
    let of = |m: &Match, n: &str| -> Vec<Cid> {
        (0..m.cards.len() as Cid)
            .filter(|&c| m.name(c) == n && m.owner(c) == Seat::P1)
            .collect()
    };
    let reaper = of(&m, "Ashen Reaper")[0];
    let (red, black) = (of(&m, "Cinder Whelp"), of(&m, "Hollow Stalker"));
    let spec = m.info(reaper).specific.clone();
    assert_eq!((m.info(reaper).cost, spec.len()), (4, 2));
    m.sides[0].resources = red.iter().take(4).map(|&c| (c, false)).collect();
    assert!(
        m.payment(Seat::P1, 4, &spec).is_none(),
        "no black among them"
    );
    m.sides[0].resources[3] = (black[0], false);
    assert_eq!(m.payment(Seat::P1, 4, &spec).map(|p| p.len()), Some(4));
}

#[test]
fn rule_cl_card_1_card_types_and_subtypes() {
    // In the Primary Phase a Clash card is played, a Trap set; a Clash
    // Buff or a Quick Action is not offered.
    let r = scenario(
        &[
            "Vexa Cindermaw",
            "Cinder Whelp",
            "Scorchpit Snare",
            "Berserker's Howl",
            "Backstab",
            "5x Cinder Whelp",
        ],
        &["Lyra Stormwake", "8x Skyreef Scout"],
        &[
            ("P1", "keep"),
            ("P2", "keep"),
            ("P1", "resource Cinder Whelp"),
            ("P1", "set Scorchpit Snare"),
            ("P1", "play Berserker's Howl"),
        ],
        &["Refused(5)", "RefusedBecause(\"CL-BUFF-2\")", "Standby(0)"],
    );
    holds(&r);
    let set = cards();
    let m = Match::from_setup(&Match::setup_for(vec![shipped(0), shipped(1)], 1), &set).unwrap();
    for c in 0..m.cards.len() as Cid {
        let k = m.kind(c);
        assert_eq!(
            k.is_action(),
            matches!(
                k,
                ClashKind::ClashBuff | ClashKind::BasicAction | ClashKind::QuickAction
            )
        );
        assert_eq!(
            k.is_accessory(),
            matches!(k, ClashKind::Trap | ClashKind::Weapon | ClashKind::Relic)
        );
    }
}

#[test]
fn rule_cl_card_2_contender_colour_is_a_play_condition() {
    // Tailwind Surge: only if your Contender is blue. Vexa is red/black.
    let r = scenario(
        &[
            "Vexa Cindermaw",
            "Tailwind Surge",
            "7x Cinder Whelp",
            "Cinder Whelp",
        ],
        &["Lyra Stormwake", "9x Dawnguard Recruit"],
        &with(
            to_turn(&["resource Cinder Whelp", "resource Cinder Whelp"]),
            &[
                ("P1", "Vexa Cindermaw attacks P2"),
                ("P2", "pass"),
                ("P2", "pass"),
                ("P1", "play Tailwind Surge"),
            ],
        ),
        &["Refused(11)", "RefusedBecause(\"Contender is blue\")"],
    );
    holds(&r);
}

#[test]
fn rule_cl_card_3_weapon_attach_restriction_is_checked() {
    // Skyforged Harness attaches only to Alpha Clash cards: Dawnguard
    // Recruit (Alpha) yes, Mistborn Tactician (Rogue) no.
    let affil = |n: &str| {
        cards().cards().iter().find_map(|c| {
            c.as_clash()
                .filter(|c| c.name == n)
                .and_then(|c| c.affiliation)
        })
    };
    assert_eq!(
        affil("Dawnguard Recruit"),
        Some(crate::cards::Affiliation::Alpha)
    );
    assert_ne!(
        affil("Choir of Dawn"),
        Some(crate::cards::Affiliation::Alpha)
    );
    let r = scenario(
        &[
            "Lyra Stormwake",
            "Skyforged Harness",
            "Dawnguard Recruit",
            "Choir of Dawn",
            "5x Skyreef Scout",
            "9x Lumen Sentry",
        ],
        &["Vexa Cindermaw", "15x Cinder Whelp"],
        &with(
            to_turn(&[
                "resource Skyreef Scout",
                "resource Skyreef Scout",
                "resource Skyreef Scout",
                "resource Skyreef Scout",
            ]),
            &[
                ("P1", "play Skyforged Harness"),
                ("P2", "pass"),
                ("P1", "end turn"),
                ("P2", "no resource"),
                ("P2", "end turn"),
                ("P1", "resource Lumen Sentry"),
                ("P1", "play Choir of Dawn"),
                ("P2", "pass"),
                ("P1", "play Dawnguard Recruit"),
                ("P2", "pass"),
                ("P1", "attach Skyforged Harness to Choir of Dawn"),
            ],
        ),
        &[
            "Refused(26)",
            "RefusedBecause(\"can only be attached to Alpha\")",
        ],
    );
    holds(&r);
}

#[test]
fn rule_cl_card_4_plus_x_plus_y_changes_attack_and_defence() {
    // Flashfire Herald's Trigger - Attack: +2/+0 until end of turn.
    let r = scenario(
        &["Vexa Cindermaw", "Flashfire Herald", "8x Cinder Whelp"],
        &["Lyra Stormwake", "9x Dawnguard Recruit"],
        &with(
            to_turn(&["resource Cinder Whelp", "resource Cinder Whelp"]),
            &[
                ("P1", "play Flashfire Herald"),
                ("P2", "pass"),
                ("P1", "Flashfire Herald attacks P2"),
            ],
        ),
        // Vexa gives her Clash cards +1/+0: 2+1+2 = 5 attack.
        &["Stats(P1, \"Flashfire Herald\", 5, 2)"],
    );
    holds(&r);
}

#[test]
fn rule_cl_card_5_ability_works_as_defined_not_as_reminder_text() {
    // The keyword is data: a card has the ability the rulebook defines,
    // whatever words it prints.
    for c in cards().cards().iter().filter_map(|c| c.as_clash()) {
        for k in &c.keywords {
            assert!(c.text_lines()[0].contains(&k.words()), "{}", c.name);
        }
    }
    let r = scenario(
        &["Lyra Stormwake", "2x Skyreef Scout", "8x Dawnguard Recruit"],
        &["Vexa Cindermaw", "Cinder Whelp", "8x Cinder Whelp"],
        &[
            ("P1", "keep"),
            ("P2", "keep"),
            ("P1", "resource Dawnguard Recruit"),
            ("P1", "end turn"),
            ("P2", "resource Cinder Whelp"),
            ("P2", "play Cinder Whelp"),
            ("P1", "pass"),
            ("P2", "end turn"),
            ("P1", "resource Skyreef Scout"),
            ("P1", "play Skyreef Scout"),
            ("P2", "pass"),
            ("P1", "Skyreef Scout attacks P2"),
            ("P2", "pass"),
            ("P2", "obstruct with Cinder Whelp"),
        ],
        &["Refused(14)", "RefusedBecause(\"CL-KW-7\")"],
    );
    holds(&r);
}

#[test]
fn rule_cl_cont_1_contender_fields() {
    let contenders: Vec<_> = cards()
        .cards()
        .iter()
        .filter_map(|c| c.as_clash())
        .filter(|c| c.kind == ClashKind::Contender)
        .cloned()
        .collect();
    assert!(contenders.len() >= 8);
    for c in &contenders {
        assert!(
            c.attack.is_some() && c.defense.is_some() && c.health.is_some(),
            "{}",
            c.name
        );
        assert!(c.affiliation.is_some() && c.planet.is_some(), "{}", c.name);
        assert_eq!(
            c.effects.iter().filter(|a| a.at_most.is_some()).count(),
            2,
            "{}: two threshold abilities",
            c.name
        );
    }
    let mut no_health = contenders[0].clone();
    no_health.health = None;
    assert_eq!(no_health.problem().map(|p| p.0), Some("health"));
}

#[test]
fn rule_cl_cont_5_contender_never_sent_to_oblivion() {
    let set = cards();
    let mut m =
        Match::from_setup(&Match::setup_for(vec![shipped(0), shipped(1)], 2), &set).unwrap();
    let c = m.contender(Seat::P2);
    flow::to_oblivion(&mut m, c);
    assert_eq!(m.contender(Seat::P2), c);
    assert!(m.oblivion(Seat::P2).is_empty());
    assert!(matches!(m.place(c), Some(flow::Place::Contender(_))));
}

fn refuses(card: &str, field: &str) {
    let c: crate::cards::ClashCard = crate::cards::read_ron(card).unwrap();
    assert_eq!(c.problem().map(|p| p.0), Some(field), "{card}");
}

fn shipped_of(kind: ClashKind) -> Vec<crate::cards::ClashCard> {
    let v: Vec<_> = cards()
        .cards()
        .iter()
        .filter_map(|c| c.as_clash())
        .filter(|c| c.kind == kind)
        .cloned()
        .collect();
    assert!(!v.is_empty(), "{kind}");
    for c in &v {
        assert_eq!(c.problem(), None, "{}", c.name);
        assert!(!c.colors.is_empty(), "{}", c.name);
    }
    v
}

#[test]
fn rule_cl_ground_1_clashground_fields() {
    for c in shipped_of(ClashKind::Clashground) {
        assert!(c.cost > 0, "{}: a Clashground has a resource cost", c.name);
        assert!(!c.effects.is_empty(), "{}", c.name);
    }
    refuses(
        r#"(number: "AC9-099", name: "G", kind: Clashground, colors: [Red], cost: 2, attack: 1, defense: 1)"#,
        "attack",
    );
}

#[test]
fn rule_cl_clash_2_clash_card_fields() {
    for c in shipped_of(ClashKind::Clash) {
        assert!(
            c.attack.is_some() && c.defense.is_some() && c.affiliation.is_some(),
            "{}",
            c.name
        );
    }
    refuses(
        r#"(number: "AC9-099", name: "C", kind: Clash, colors: [Red], cost: 2)"#,
        "attack",
    );
}

#[test]
fn rule_cl_trap_1_trap_fields() {
    for c in shipped_of(ClashKind::Trap) {
        assert!(c.effects.iter().any(|a| a.when.is_counter()), "{}", c.name);
    }
    refuses(
        r#"(number: "AC9-099", name: "T", kind: Trap, colors: [Red], cost: 2, effects: [(when: Resolve, effects: [Draw(1)])])"#,
        "effects",
    );
}

#[test]
fn rule_cl_weapon_1_weapon_fields() {
    for c in shipped_of(ClashKind::Weapon) {
        assert!(!c.attach.is_empty(), "{}", c.name);
    }
    refuses(
        r#"(number: "AC9-099", name: "W", kind: Weapon, colors: [Red], cost: 2)"#,
        "attach",
    );
}

#[test]
fn rule_cl_relic_1_relic_fields() {
    for c in shipped_of(ClashKind::Relic) {
        assert!(!c.effects.is_empty() && c.attach.is_empty(), "{}", c.name);
    }
    refuses(
        r#"(number: "AC9-099", name: "R", kind: Relic, colors: [Red], cost: 2, attach: [Red])"#,
        "attach",
    );
}

#[test]
fn rule_cl_buff_1_clash_buff_fields() {
    for c in shipped_of(ClashKind::ClashBuff) {
        assert!(
            c.effects.iter().all(|a| a.when == When::Resolve),
            "{}",
            c.name
        );
    }
    refuses(
        r#"(number: "AC9-099", name: "B", kind: ClashBuff, colors: [Red], cost: 1, effects: [(when: Enter, effects: [Draw(1)])])"#,
        "effects",
    );
}

#[test]
fn rule_cl_basic_1_basic_action_fields() {
    shipped_of(ClashKind::BasicAction);
    refuses(
        r#"(number: "AC9-099", name: "B", kind: BasicAction, colors: [Red], cost: 1, attack: 1, defense: 1)"#,
        "attack",
    );
}

#[test]
fn rule_cl_quick_1_quick_action_fields() {
    for c in shipped_of(ClashKind::QuickAction) {
        assert!(c.effects.iter().any(|a| a.when.is_counter()), "{}", c.name);
    }
    refuses(
        r#"(number: "AC9-099", name: "Q", kind: QuickAction, colors: [Red], cost: 1, effects: [(when: Resolve, effects: [Draw(1)])])"#,
        "effects",
    );
}

/// A legal deck list of the shipped set, to break one rule at a time.
fn legal_list() -> (Vec<CardNumber>, Vec<CardNumber>) {
    let set = cards();
    let f: deck::DeckFile = crate::cards::read_ron(deck::EMBEDDED[0].1).unwrap();
    (f.numbers(&set).unwrap(), f.sideboard_numbers(&set).unwrap())
}

fn number_of(name: &str) -> CardNumber {
    cards()
        .cards()
        .iter()
        .find(|c| c.as_clash().is_some() && c.name() == name)
        .map(|c| c.number())
        .unwrap()
}

#[test]
fn rule_cl_deck_0_every_card_is_an_alpha_clash_card() {
    let (mut list, side) = legal_list();
    list[5] = "ST1-03".parse().unwrap();
    let e = deck::check(&list, &side, &cards()).unwrap_err();
    assert!(matches!(e, DeckError::NotClash(_)), "{e}");
    assert!(e.to_string().contains("CL-DECK-0"));
}

#[test]
fn rule_cl_deck_1_exactly_one_contender() {
    let (mut list, side) = legal_list();
    list[3] = number_of("Lyra Stormwake");
    assert_eq!(
        deck::check(&list, &side, &cards()),
        Err(DeckError::Contenders(2))
    );
    let (list, side) = legal_list();
    assert_eq!(
        deck::check(&list[1..], &side, &cards()),
        Err(DeckError::Contenders(0))
    );
    assert!(deck::check(&list, &side, &cards()).is_ok());
}

#[test]
fn rule_cl_deck_2_no_contender_in_sideboard() {
    let (list, mut side) = legal_list();
    side[0] = number_of("Lyra Stormwake");
    let e = deck::check(&list, &side, &cards()).unwrap_err();
    assert!(matches!(e, DeckError::SideContender(_)), "{e}");
}

#[test]
fn rule_cl_deck_3_main_deck_exactly_fifty() {
    let (list, side) = legal_list();
    assert_eq!(list.len(), 1 + MAIN_DECK);
    assert_eq!(
        deck::check(&list[..50], &side, &cards()),
        Err(DeckError::MainSize(49))
    );
    let mut more = list.clone();
    more.push(number_of("Skyreef Scout"));
    assert_eq!(
        deck::check(&more, &side, &cards()),
        Err(DeckError::MainSize(51))
    );
}

#[test]
fn rule_cl_deck_4_sideboard_at_most_ten() {
    let (list, _) = legal_list();
    let side: Vec<CardNumber> = ["Skyreef Scout", "Mistborn Tactician", "Lumen Sentry"]
        .iter()
        .flat_map(|n| std::iter::repeat_n(number_of(n), 4))
        .take(11)
        .collect();
    assert_eq!(
        deck::check(&list, &side, &cards()),
        Err(DeckError::SideSize(11))
    );
    assert!(deck::check(&list, &side[..10], &cards()).is_ok());
}

#[test]
fn rule_cl_deck_5_one_unrivaled_card_per_deck_list() {
    let (list, side) = legal_list();
    let xul = number_of("Dread Monarch Xul");
    let n = list.iter().chain(&side).filter(|c| **c == xul).count();
    assert_eq!(n, 1, "the shipped list holds its one Unrivaled card");
    assert!(deck::check(&list, &side, &cards()).is_ok());
    let mut more = side.clone();
    more.push(xul);
    assert_eq!(
        deck::check(&list, &more, &cards()),
        Err(DeckError::Unrivaled(2))
    );
}

#[test]
fn rule_cl_kw_15_unrivaled_one_per_deck() {
    let xul = number_of("Dread Monarch Xul");
    let set = cards();
    // Building card by card: the second Unrivaled card is refused.
    let (list, _) = legal_list();
    let mut deck: Vec<CardNumber> = list[..40].to_vec();
    deck.retain(|n| *n != xul);
    let card = set.get(&xul).unwrap();
    assert!(deck::check_addition(&deck, card, &set).is_ok());
    deck.push(xul);
    assert_eq!(
        deck::check_addition(&deck, card, &set),
        Err(DeckError::Unrivaled(2))
    );
}

#[test]
fn rule_cl_deck_6_up_to_four_clash_buffs() {
    let (list, _) = legal_list();
    let buffs = list
        .iter()
        .filter(|n| {
            cards()
                .get(n)
                .and_then(|c| c.as_clash())
                .is_some_and(|c| c.kind == ClashKind::ClashBuff)
        })
        .count();
    let extra = vec![number_of("Ironbark Skin"); 5 - buffs];
    assert_eq!(
        deck::check(&list, &extra, &cards()),
        Err(DeckError::ClashBuffs(5))
    );
}

#[test]
fn rule_cl_deck_7_up_to_four_copies_of_a_name() {
    let (list, _) = legal_list();
    let name = cards().get(&list[1]).unwrap().name().to_string();
    let have = list.iter().filter(|n| **n == list[1]).count();
    let extra = vec![list[1]; 5 - have];
    assert_eq!(
        deck::check(&list, &extra, &cards()),
        Err(DeckError::Copies(name, 5))
    );
}

#[test]
fn rule_cl_start_1_contenders_revealed() {
    let set = cards();
    let m = Match::from_setup(
        &Match::setup_for(vec![shipped(0), shipped(1), shipped(2)], 4),
        &set,
    )
    .unwrap();
    for s in Seat::all(3) {
        assert!(
            m.opening
                .iter()
                .any(|e| matches!(e, Event::Revealed(w, n) if *w == s && n.id == m.contender(s)))
        );
        // Everyone sees every Contender from the start.
        let v = m.view(Some(Seat::P1));
        assert_eq!(v.seats[s.index()].contender.card.id, m.contender(s));
    }
}

#[test]
fn rule_cl_start_2_first_player_random_winner_chooses() {
    let set = cards();
    let firsts: std::collections::HashSet<Seat> = (0..24)
        .map(|seed| {
            Match::from_setup(&Match::setup_for(vec![shipped(0), shipped(1)], seed), &set)
                .unwrap()
                .first
        })
        .collect();
    assert_eq!(firsts.len(), 2, "either player may go first");
    let m = Match::from_setup(&Match::setup_for(vec![shipped(0), shipped(1)], 9), &set).unwrap();
    assert!(m.opening.contains(&Event::First(m.first)));
    assert_eq!(
        m.waiting().map(|w| w.0),
        Some(m.first),
        "the first player decides its hand first"
    );
}

#[test]
fn rule_cl_start_3_shuffle_and_draw_eight() {
    let set = cards();
    let a = Match::from_setup(&Match::setup_for(vec![shipped(0), shipped(1)], 7), &set).unwrap();
    let b = Match::from_setup(&Match::setup_for(vec![shipped(0), shipped(1)], 8), &set).unwrap();
    assert_eq!(a.hand(Seat::P1).len(), HAND);
    assert_eq!(a.deck(Seat::P1).len(), MAIN_DECK - HAND);
    assert_ne!(a.deck(Seat::P1), b.deck(Seat::P1), "shuffled by the seed");
}

#[test]
fn rule_cl_start_5_contender_starts_at_printed_health() {
    let set = cards();
    let m = Match::from_setup(&Match::setup_for(vec![shipped(0), shipped(1)], 7), &set).unwrap();
    for s in Seat::all(2) {
        assert_eq!(m.health(s), m.max_health(s));
        assert!(m.health(s) >= 20);
    }
}

#[test]
fn rule_cl_win_1_last_player_in_wins() {
    let set = cards();
    let mut m = Match::from_setup(
        &Match::setup_for(vec![shipped(0), shipped(1), shipped(2)], 5),
        &set,
    )
    .unwrap();
    m.apply(Seat::P2, Action::Concede).unwrap();
    assert_eq!(m.outcome(), None, "two players are still in");
    assert!(m.lost(Seat::P2));
    m.apply(Seat::new(2).unwrap(), Action::Concede).unwrap();
    assert_eq!(m.outcome(), Some(Outcome::Win(Seat::P1)));
}

#[test]
fn rule_cl_rarity_1_rarity_letters() {
    for c in cards().cards().iter().filter_map(|c| c.as_clash()) {
        assert_eq!(c.problem(), None, "{}", c.name);
    }
    refuses(
        r#"(number: "AC9-099", name: "X", kind: Clash, colors: [Red], cost: 1, attack: 1, defense: 1, rarity: "ZZ")"#,
        "rarity",
    );
}

#[test]
fn rule_cl_affil_1_affiliations_listed_without_rules() {
    use crate::cards::Affiliation::*;
    let all = [Alpha, Rogue, AlphaHunter, Harbinger, Discarded, Progenitor];
    let used: std::collections::HashSet<_> = cards()
        .cards()
        .iter()
        .filter_map(|c| c.as_clash()?.affiliation)
        .collect();
    for a in all {
        assert!(used.contains(&a), "{} on no sample card", a.words());
    }
}

#[test]
fn rule_cl_res_2_resource_enters_ready_and_upside_down() {
    let r = scenario(
        &["Vexa Cindermaw", "9x Cinder Whelp"],
        &["Lyra Stormwake", "9x Skyreef Scout"],
        &[
            ("P1", "keep"),
            ("P2", "keep"),
            ("P1", "resource Cinder Whelp"),
        ],
        &["Resources(P1, 1)", "Hand(P1, 7)"],
    );
    holds(&r);
    let set = cards();
    let mut m =
        Match::from_setup(&Match::setup_for(vec![shipped(0), shipped(1)], 1), &set).unwrap();
    let first = m.first;
    for s in [first, Seat::new(1 - first.index()).unwrap()] {
        m.apply(s, Action::Keep).unwrap();
    }
    let c = m.hand(first)[0];
    m.apply(first, Action::Resource(c)).unwrap();
    assert_eq!(m.resources(first), &[(c, false)], "ready");
    let other = Seat::new(1 - first.index()).unwrap();
    let seen = format!("{:?}", m.view(Some(other)));
    assert!(
        !seen.contains(&format!("id: {c},")),
        "face down: the card is not named"
    );
}

#[test]
fn rule_cl_res_3_resource_cards_count_as_in_play() {
    // In play, but not entered: no Enter trigger, and not a card in the
    // Clash Zone (CL-D24: Exclusive counts the play zones only).
    let r = scenario(
        &["Lyra Stormwake", "Mistborn Tactician", "9x Skyreef Scout"],
        &["Vexa Cindermaw", "9x Cinder Whelp"],
        &[
            ("P1", "keep"),
            ("P2", "keep"),
            ("P1", "resource Mistborn Tactician"),
        ],
        &[
            "Resources(P1, 1)",
            "Hand(P1, 7)",
            "NotInPlay(P1, \"Mistborn Tactician\")",
            "NoEvent(\"Mistborn Tactician goes into Standby\")",
        ],
    );
    holds(&r);
}

#[test]
fn rule_cl_res_4_resource_cards_blank_but_coloured() {
    let (mut m, first, other) = hands_kept(1);
    let c = m.hand(first)[0];
    m.apply(first, Action::Resource(c)).unwrap();
    let v = m.view(Some(other));
    assert_eq!(
        v.seats[first.index()].resources,
        vec![(m.info(c).colors.clone(), false)]
    );
    // Blank: its effects do nothing from there.
    assert!(!m.clash_zone(first).iter().any(|u| u.card == c));
    // Its own player knows it by name, to choose it with `pay with NAME`
    // (CL-D29, CL-D30); the other seat's view holds only its colour (above).
    let listed = prompt_line(&m, first, "Your ready resources");
    assert!(listed.contains(m.name(c)), "{listed}");
}

#[test]
fn the_header_names_the_clash_step_while_a_clash_is_on() {
    let set = cards();
    let (mut in_clash, mut in_primary) = (false, false);
    for seed in 0..6 {
        let decks = vec![shipped(seed as usize % 4), shipped((seed as usize + 1) % 4)];
        let mut m = Match::from_setup(&Match::setup_for(decks, seed), &set).unwrap();
        let mut rng = Rng64::new(seed);
        while let Some((s, _)) = m.waiting() {
            let v = m.view(Some(s));
            let head = Match::view_lines(&v, &set)[0].clone();
            match (&v.fight, v.phase) {
                (Some(f), Phase::Primary) => {
                    in_clash = true;
                    assert!(
                        head.ends_with(&format!("Clash Phase, {}", f.4.words())),
                        "{head}"
                    );
                }
                (None, Phase::Primary) => {
                    in_primary = true;
                    assert!(head.ends_with("Primary Phase"), "{head}");
                }
                _ => {}
            }
            let legal = m.legal_actions(s);
            m.apply(s, legal[rng.below(legal.len())]).unwrap();
        }
    }
    assert!(in_clash && in_primary);
}

#[test]
fn rule_cl_res_7_resources_engaged_only_to_pay() {
    let r = scenario(
        &["Vexa Cindermaw", "8x Cinder Whelp", "Cinder Whelp"],
        &["Lyra Stormwake", "9x Skyreef Scout"],
        &with(
            to_turn(&["resource Cinder Whelp", "resource Cinder Whelp"]),
            &[("P1", "play Cinder Whelp"), ("P2", "pass")],
        ),
        &["Event(\"P1 engages 1 resource.\")"],
    );
    holds(&r);
    // One of the two still ready.
    let set = cards();
    let mut m =
        Match::from_setup(&Match::setup_for(vec![shipped(0), shipped(1)], 1), &set).unwrap();
    let s = m.first;
    let whelps: Vec<Cid> = (0..m.cards.len() as Cid)
        .filter(|&c| m.name(c) == "Cinder Whelp" && m.owner(c) == Seat::P1)
        .collect();
    m.sides[0].resources = vec![(whelps[0], false), (whelps[1], false)];
    let _ = s;
    assert_eq!(
        m.payment(Seat::P1, 1, &[Hue::Red]).map(|p| p.len()),
        Some(1)
    );
}

#[test]
fn rule_cl_ready_1_upright_is_ready() {
    let r = scenario(
        &["Vexa Cindermaw", "Cinder Whelp", "8x Cinder Whelp"],
        &["Lyra Stormwake", "9x Skyreef Scout"],
        &[
            ("P1", "keep"),
            ("P2", "keep"),
            ("P1", "resource Cinder Whelp"),
            ("P1", "play Cinder Whelp"),
            ("P2", "pass"),
        ],
        &[
            "Engaged(P1, \"Cinder Whelp\", false)",
            "Engaged(P1, \"Vexa Cindermaw\", false)",
        ],
    );
    holds(&r);
}

#[test]
fn rule_cl_ready_2_sideways_is_engaged() {
    let r = scenario(
        &["Vexa Cindermaw", "Cinder Whelp", "8x Cinder Whelp"],
        &["Lyra Stormwake", "9x Skyreef Scout"],
        &with(
            to_turn(&["resource Cinder Whelp", "resource Cinder Whelp"]),
            &[
                ("P1", "play Cinder Whelp"),
                ("P2", "pass"),
                ("P1", "Cinder Whelp attacks P2"),
                ("P2", "pass"),
                ("P2", "pass"),
                ("P1", "pass"),
                ("P2", "pass"),
            ],
        ),
        &["Engaged(P1, \"Cinder Whelp\", true)"],
    );
    holds(&r);
}

#[test]
fn rule_cl_clash_1_clash_cards_played_in_primary_phase() {
    // In the Counter Step of P1's attack, P2 may not play a Clash card.
    let r = scenario(
        &["Vexa Cindermaw", "9x Cinder Whelp"],
        &["Lyra Stormwake", "9x Dawnguard Recruit"],
        &with(
            to_turn(&["resource Cinder Whelp", "resource Cinder Whelp"]),
            &[
                ("P1", "Vexa Cindermaw attacks P2"),
                ("P2", "play Dawnguard Recruit"),
            ],
        ),
        &["Refused(9)", "RefusedBecause(\"CL-CLASH-1\")"],
    );
    holds(&r);
}

#[test]
fn rule_cl_buff_3_four_clash_buffs_per_deck_list() {
    // Built card by card: four Clash Buffs join, a fifth is refused.
    let set = cards();
    let buff = |n: &str| set.get(&number_of(n)).unwrap().clone();
    let mut deck = vec![number_of("Vexa Cindermaw")];
    for n in [
        "Berserker's Howl",
        "Berserker's Howl",
        "Venom Edge",
        "Venom Edge",
    ] {
        assert!(deck::check_addition(&deck, &buff(n), &set).is_ok(), "{n}");
        deck.push(number_of(n));
    }
    assert_eq!(
        deck::check_addition(&deck, &buff("Ironbark Skin"), &set),
        Err(DeckError::ClashBuffs(5))
    );
}

/// CL-D30: `pay with NAME` chooses the resources that pay first; without
/// it bterm chooses (and may spend the colour a later card needs); a
/// resource that is engaged, or not the player's, cannot be chosen.
#[test]
fn rule_cl_d30_the_player_may_choose_the_resources_that_pay() {
    let play = |extra: &[&str], expect: &str| {
        let mut steps = vec![
            "(P1, \"keep\")",
            "(P2, \"keep\")",
            "(P1, \"resource Cinder Whelp\")",
            "(P1, \"end turn\")",
            "(P2, \"no resource\")",
            "(P2, \"end turn\")",
            "(P1, \"resource Sever the Thread\")",
        ];
        steps.extend_from_slice(extra);
        let p1 = [
            "\"Grimm Halloway\"",
            "\"Cinder Whelp\"",
            "\"Sever the Thread\"",
            "\"Cinder Whelp\"",
            "\"Gravecaller Acolyte\"",
        ]
        .into_iter()
        .chain(std::iter::repeat_n("\"Sever the Thread\"", 16))
        .collect::<Vec<_>>()
        .join(", ");
        let p2 = std::iter::once("\"Castor Veil\"")
            .chain(std::iter::repeat_n("\"Sever the Thread\"", 20))
            .collect::<Vec<_>>()
            .join(", ");
        let text = format!(
            "(ruleset: Clash, first: P1, exempt: [(P1, \"a test deck\"), (P2, \"a test deck\")], decks: [[{p1}], [{p2}]], steps: [{}], expect: [{expect}])",
            steps.join(", ")
        );
        run(&text, &cards(), None).unwrap_or_else(|e| panic!("{e}\n{text}"))
    };
    // bterm's choice (engine 2): the Black resource pays the Acolyte, so
    // that Cinder Whelp (1 Red) can be paid too.
    let r = play(
        &[
            "(P1, \"play Gravecaller Acolyte\")",
            "(P2, \"pass\")",
            "(P1, \"play Cinder Whelp\")",
            "(P2, \"pass\")",
        ],
        "InPlay(P1, \"Gravecaller Acolyte\"), InPlay(P1, \"Cinder Whelp\")",
    );
    holds(&r);
    // The player's own choice stands, even a worse one: the Red pays the
    // Acolyte, and Cinder Whelp can't be paid.
    let r = play(
        &[
            "(P1, \"pay with Cinder Whelp\")",
            "(P1, \"play Gravecaller Acolyte\")",
            "(P2, \"pass\")",
            "(P1, \"play Cinder Whelp\")",
        ],
        "Refused(11), InPlay(P1, \"Gravecaller Acolyte\")",
    );
    holds(&r);
    // An engaged resource can't be chosen, and says so.
    let r = play(
        &[
            "(P1, \"play Gravecaller Acolyte\")",
            "(P2, \"pass\")",
            "(P1, \"pay with Sever the Thread\")",
        ],
        "Refused(10)",
    );
    holds(&r);
    let why = r
        .refused
        .as_ref()
        .map(|e| e.reason.clone())
        .unwrap_or_default();
    assert!(why.contains("engaged"), "{why}");
    // Not a resource of one's own: refused by the rules with the reason.
    let set = cards();
    let mut m =
        Match::from_setup(&Match::setup_for(vec![shipped(0), shipped(1)], 3), &set).unwrap();
    let theirs = m.side(Seat::P2).hand[0];
    let (asked, _) = m.waiting().unwrap();
    let e = m.apply(asked, Action::PayWith(theirs)).unwrap_err();
    assert!(e.to_string().contains("Resource Zone"), "{e}");
    // A game without a choice hashes as it did before choices existed:
    // the choice is part of the state only while it waits.
    assert!(m.prefer.is_empty());
}

/// Plays `steps` (read as a script reads them) from a setup of engine
/// `engine`; returns the match.
fn played_by_engine(
    engine: u32,
    p1: &[&str],
    p2: &[&str],
    steps: &[(&str, &str)],
) -> Result<Match, String> {
    use crate::rules::Reply;
    let cards = cards();
    let list = |d: &[&str]| {
        d.iter()
            .map(|c| format!("{c:?}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let text = format!(
        "(ruleset: Clash, exempt: [(P1, \"a test deck\"), (P2, \"a test deck\")], decks: [[{}], [{}]], steps: [], expect: [])",
        list(p1),
        list(p2)
    );
    let script: super::script::Script = ron::from_str(&text).map_err(|e| e.to_string())?;
    let mut setup = script.setup(&cards)?;
    setup.engine = engine;
    let mut m = Match::from_setup(&setup, &cards).map_err(|e| e.to_string())?;
    for (i, (seat, words)) in steps.iter().enumerate() {
        let seat: Seat = seat.parse().map_err(|e| format!("{e}"))?;
        let Reply::Act(a) = super::script::read_step(&m, seat, words, &cards)
            .map_err(|e| format!("step {}: {e}", i + 1))?
        else {
            return Err(format!("step {}: a pass", i + 1));
        };
        m.apply(seat, a)
            .map_err(|e| format!("step {}: {e}", i + 1))?;
    }
    Ok(m)
}

/// CL-RES-8 (with CL-D4, engine 2): an Engage ability is declared into
/// Standby, paid, and waits there until every opponent has had priority;
/// then it resolves. Engine 1's replays play it as they did, at once.
#[test]
fn rule_cl_res_8_declare_generate_pay_priority_resolve() {
    let p1 = ["Castor Veil", "2x Cinder Whelp", "18x Sever the Thread"];
    let p2 = ["Grimm Halloway", "20x Sever the Thread"];
    let steps = [
        ("P1", "keep"),
        ("P2", "keep"),
        ("P1", "resource Cinder Whelp"),
        ("P1", "play Cinder Whelp"),
        ("P2", "pass"),
        ("P1", "end turn"),
        ("P2", "resource Sever the Thread"),
        ("P2", "use Grimm Halloway"),
        ("P2", "target Cinder Whelp"),
    ];
    let m = played_by_engine(ENGINE_VERSION, &p1, &p2, &steps).unwrap();
    // Declared and paid; P1 has priority on it; the Whelp is still there.
    assert_eq!(m.waiting().map(|w| w.0), Some(Seat::P1));
    assert_eq!(m.standby.len(), 1);
    assert_eq!(m.side(Seat::P1).clash.len(), 1);
    assert!(m.legal_actions(Seat::P1).contains(&Action::Pass));
    // P1 passes: it resolves, and the Whelp (defence 1) is defeated.
    let mut done = steps.to_vec();
    done.push(("P1", "pass"));
    let m = played_by_engine(ENGINE_VERSION, &p1, &p2, &done).unwrap();
    assert!(m.standby.is_empty());
    assert!(m.side(Seat::P1).clash.iter().all(|u| u.defeated) || m.side(Seat::P1).clash.is_empty());
    assert_eq!(m.waiting().map(|w| w.0), Some(Seat::P2));
    // Engine 1: no round of priority; P1 is asked nothing.
    let old = played_by_engine(1, &p1, &p2, &steps).unwrap();
    assert_eq!(old.waiting().map(|w| w.0), Some(Seat::P2));
    assert!(old.standby.is_empty());
    assert!(played_by_engine(1, &p1, &p2, &done).is_err());
}

/// CL-KW-9 (with CL-D10, engine 2): a Counter that would negate an
/// Irrefutable card may be played; it is paid and resolves, and the card
/// enters play anyway. Engine 1 refused the Counter.
#[test]
fn rule_cl_kw_9_irrefutable_cannot_be_kept_from_play() {
    let p1 = ["Lyra Stormwake", "Radiant Arbiter", "13x Rallying Hymn"];
    let p2 = ["Castor Veil", "Countercurrent", "13x Recall the Tide"];
    let mut steps = vec![("P1", "keep"), ("P2", "keep")];
    for turn in 0..4 {
        steps.push(("P1", "resource Rallying Hymn"));
        steps.push(("P1", "end turn"));
        steps.push((
            "P2",
            if turn < 2 {
                "resource Recall the Tide"
            } else {
                "no resource"
            },
        ));
        steps.push(("P2", "end turn"));
    }
    steps.extend([
        ("P1", "resource Rallying Hymn"),
        ("P1", "play Radiant Arbiter"),
        ("P2", "play Countercurrent"),
        ("P1", "pass"),
        ("P2", "pass"),
    ]);
    let m = played_by_engine(ENGINE_VERSION, &p1, &p2, &steps).unwrap();
    let arbiter = m
        .side(Seat::P1)
        .clash
        .iter()
        .map(|u| m.name(u.card))
        .collect::<Vec<_>>();
    assert_eq!(arbiter, ["Radiant Arbiter"]);
    let oblivion = m
        .side(Seat::P2)
        .oblivion
        .iter()
        .map(|c| m.name(*c))
        .collect::<Vec<_>>();
    assert_eq!(oblivion, ["Countercurrent"]);
    // Engine 1: the Counter is refused, and says why.
    let err = played_by_engine(1, &p1, &p2, &steps[..steps.len() - 2]).unwrap_err();
    assert!(err.contains("Irrefutable"), "{err}");
}

/// CL-RES-6 with CL-D30 (engine 2): a cost bterm pays without being told
/// which resources leaves the next card payable when a choice could: a
/// Red and a Black resource, a cost of 1 of any colour paid with the
/// Black, so the Red pays Cinder Whelp. Engine 1 spent the Red.
#[test]
fn rule_cl_res_6_engaged_resource_makes_one_of_its_colour() {
    let p1 = [
        "Grimm Halloway",
        "Cinder Whelp",
        "Sever the Thread",
        "Cinder Whelp",
        "Gravecaller Acolyte",
        "16x Sever the Thread",
    ];
    let p2 = ["Castor Veil", "20x Sever the Thread"];
    let steps = [
        ("P1", "keep"),
        ("P2", "keep"),
        ("P1", "resource Cinder Whelp"),
        ("P1", "end turn"),
        ("P2", "no resource"),
        ("P2", "end turn"),
        ("P1", "resource Sever the Thread"),
        ("P1", "play Gravecaller Acolyte"),
        ("P2", "pass"),
        ("P1", "play Cinder Whelp"),
        ("P2", "pass"),
    ];
    let m = played_by_engine(ENGINE_VERSION, &p1, &p2, &steps).unwrap();
    let mut names: Vec<&str> = m
        .side(Seat::P1)
        .clash
        .iter()
        .map(|u| m.name(u.card))
        .collect();
    names.sort();
    assert_eq!(names, ["Cinder Whelp", "Gravecaller Acolyte"]);
    let err = played_by_engine(1, &p1, &p2, &steps).unwrap_err();
    assert!(err.starts_with("step 10"), "{err}");
}

/// CL-ZONE-9 (with CL-D1): the Portal starts closed, and a player opens it
/// in their Primary Phase for two resources of any colours; from engine 2
/// the opening waits in Standby until the opponent has had priority, then
/// its player draws one. Engine 1 opened it at once.
#[test]
fn rule_cl_zone_9_portal_activated_for_two_resources() {
    let p1 = ["Castor Veil", "20x Sever the Thread"];
    let p2 = ["Grimm Halloway", "20x Sever the Thread"];
    let steps = [
        ("P1", "keep"),
        ("P2", "keep"),
        ("P1", "resource Sever the Thread"),
        ("P1", "end turn"),
        ("P2", "no resource"),
        ("P2", "end turn"),
        ("P1", "resource Sever the Thread"),
        ("P1", "open portal"),
    ];
    let m = played_by_engine(ENGINE_VERSION, &p1, &p2, &steps).unwrap();
    assert!(!m.side(Seat::P1).portal, "closed until it resolves");
    assert_eq!(m.waiting().map(|w| w.0), Some(Seat::P2));
    assert_eq!(m.legal_actions(Seat::P2), [Action::Pass]);
    let hand = m.side(Seat::P1).hand.len();
    let mut done = steps.to_vec();
    done.push(("P2", "pass"));
    let m = played_by_engine(ENGINE_VERSION, &p1, &p2, &done).unwrap();
    assert!(m.side(Seat::P1).portal);
    assert_eq!(m.side(Seat::P1).hand.len(), hand + 1);
    assert!(m.side(Seat::P1).resources.iter().all(|r| r.1), "both paid");
    // Engine 1: open at once, nobody asked.
    let old = played_by_engine(1, &p1, &p2, &steps).unwrap();
    assert!(old.side(Seat::P1).portal);
    assert_eq!(old.waiting().map(|w| w.0), Some(Seat::P1));
}

/// A LAN seat's keyboard refuses a move with the words the terminal uses
/// (`Ruleset::refusals`, sent with the question): every line it carries
/// reads, at the match, as that same refusal.
#[test]
fn a_lan_seat_hears_the_refusals_the_terminal_gives() {
    let set = cards();
    let mut m =
        Match::from_setup(&Match::setup_for(vec![shipped(0), shipped(1)], 4), &set).unwrap();
    let mut rng = Rng64::new(4);
    let (mut checked, mut named_rule) = (0, false);
    for _ in 0..300 {
        let Some((s, _)) = m.waiting() else { break };
        let lines = Ruleset::refusals(&m, s, &set);
        assert!(lines.len() <= crate::rules::script::MOST_REFUSALS);
        // A line the question's keys answer never comes to a refusal.
        let q = Ruleset::question(&m, s, &[], &set).unwrap();
        for (line, why) in lines
            .iter()
            .filter(|l| q.prompt.reply(&l.0).is_none())
            .take(25)
        {
            assert_eq!(m.refusal(s, line, &set).as_ref(), Some(why), "{line}");
            checked += 1;
            named_rule |= why.contains("(CL-");
        }
        // The other seat is asked nothing: no refusals are sent to it.
        let other = Seat::all(2).find(|o| *o != s).unwrap();
        assert!(Ruleset::refusals(&m, other, &set).is_empty());
        let legal = m.legal_actions(s);
        m.apply(s, legal[rng.below(legal.len())]).unwrap();
    }
    assert!(checked > 100 && named_rule, "{checked}");
}

/// A Barrage's question says what it has dealt so far: once the most
/// cards are chosen its list keeps only those, and the numbers move.
#[test]
fn a_barrage_question_says_what_it_has_dealt_so_far() {
    let set = cards();
    let mut seen = 0;
    for seed in 0..60 {
        let decks = vec![shipped(seed as usize % 4), shipped((seed as usize + 2) % 4)];
        let mut m = Match::from_setup(&Match::setup_for(decks, seed), &set).unwrap();
        let mut rng = Rng64::new(seed);
        while let Some((s, ask)) = m.waiting() {
            if ask == Ask::Barrage
                && let Some(ch) = &m.choosing
                && let Some(&first) = ch.entry.targets.first()
            {
                let dealt = ch.entry.targets.iter().filter(|c| **c == first).count();
                let line = prompt_line(&m, s, "Barrage so far: ");
                assert!(line.contains(&format!("{dealt} to ")), "{line}");
                seen += 1;
            }
            let legal = m.legal_actions(s);
            // Barrage picks are taken over a pass, to reach a second pick.
            let a = if ask == Ask::Barrage && legal.len() > 1 {
                legal[0]
            } else {
                legal[rng.below(legal.len())]
            };
            m.apply(s, a).unwrap();
        }
    }
    assert!(seen > 0, "no Barrage dealt twice in these games");
}

/// A step's words are refused as one of two kinds: words that name no move
/// (the terminal adds nothing to "not a choice now") and a move the rules
/// refuse (the terminal says why): the kind decides, not the words.
#[test]
fn unread_words_say_whether_they_name_a_move() {
    use crate::rules::script::{Unread, refusal_of};
    let set = cards();
    let (m, first, _) = hands_kept(2);
    let none = script::read_step(&m, first, "fly to the moon", &set);
    assert!(matches!(&none, Err(Unread::NotAnAction(_))), "{none:?}");
    assert_eq!(refusal_of(none), None);
    // In the Resource Step a card in hand is not played (CL-CLASH-1 and
    // the like name why).
    let name = m.name(m.hand(first)[0]).to_string();
    let play = script::read_step(&m, first, &format!("play {name}"), &set);
    assert!(
        matches!(&play, Err(Unread::Refused(w)) if w.contains("(CL-")),
        "{play:?}"
    );
    assert!(refusal_of(play).is_some());
}

/// The first two shipped decks with this seed, both opening hands kept:
/// the match, the first seat and the other.
fn hands_kept(seed: u64) -> (Match, Seat, Seat) {
    let mut m = Match::from_setup(
        &Match::setup_for(vec![shipped(0), shipped(1)], seed),
        &cards(),
    )
    .unwrap();
    let first = m.first;
    let other = Seat::new(1 - first.index()).unwrap();
    m.apply(first, Action::Keep).unwrap();
    m.apply(other, Action::Keep).unwrap();
    (m, first, other)
}

/// The line of `seat`'s question that holds `words` (a failure when none
/// does).
fn prompt_line(m: &Match, seat: Seat, words: &str) -> String {
    let q = Ruleset::question(m, seat, &[], &cards()).unwrap();
    q.prompt
        .lines
        .iter()
        .find(|l| l.contains(words))
        .cloned()
        .unwrap_or_else(|| panic!("{:#?}", q.prompt.lines))
}
