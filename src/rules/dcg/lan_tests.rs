//! The LAN format's rules (docs/dcg-rules.md section 18), each test named
//! after its rule: 3 and 4 seats, memory banks, Target Opponents, Mega
//! Damage, defeat, the moved [End of Opponent's Turn], and the Players
//! Format's deck rules, Offline Area and Corruption.

use std::path::Path;
use std::sync::OnceLock;

use super::tests::{card_count, names, numbers, put, set, step, texts};
use super::*;
use crate::rules::Ruleset;
use crate::rules::alpha::Rng64;

const P1: Seat = Seat::P1;
const P2: Seat = Seat::P2;
const P3: Seat = Seat(2);
const P4: Seat = Seat(3);

/// Hands of 3 Agumon and 2 Hawkmon, then Hawkmon (no Digi-Eggs, so the
/// breeding phase asks nothing).
const DECK: &[&str] = &["3x Agumon", "2x Hawkmon", "20x Hawkmon"];

fn setup_of(decks: &[&[&str]], format: Format) -> Setup {
    Setup {
        decks: decks.iter().map(|d| numbers(d)).collect(),
        seed: 7,
        exempt: (0..decks.len())
            .filter_map(Seat::new)
            .map(|s| (s, "a rule test's short deck".to_string()))
            .collect(),
        stacked: Some(P1),
        format,
        engine: super::ENGINE_VERSION,
    }
}

/// A stacked LAN game, P1 first, every hand kept.
fn lan(decks: &[&[&str]]) -> Match {
    let mut m = Match::from_setup(&setup_of(decks, Format::Standard), set()).expect("setup");
    keep_all(&mut m);
    m
}

fn keep_all(m: &mut Match) {
    while let Some((s, Ask::Mulligan)) = m.waiting() {
        step(m, s, "keep");
    }
    keep_targets(m);
}

/// Answers the before- and after-turn switches with "keep target".
fn keep_targets(m: &mut Match) {
    while let Some((s, Ask::Target)) = m.waiting() {
        step(m, s, "keep target");
    }
}

/// The turn player passes; the switches are kept.
fn pass(m: &mut Match) {
    let tp = m.turn_player();
    step(m, tp, "pass");
    keep_targets(m);
}

fn banks(m: &Match, s: Seat) -> Vec<u8> {
    let mut b = m.z(s).banks.clone();
    b.sort_unstable_by(|a, b| b.cmp(a));
    b
}

fn three() -> Match {
    lan(&[DECK, DECK, DECK])
}

#[test]
fn rule_lan_three_or_four_seats() {
    let m = three();
    assert_eq!(Ruleset::seats(&m), 3);
    let m = lan(&[DECK, DECK, DECK, DECK]);
    assert_eq!(Ruleset::seats(&m), 4);
    for s in Seat::all(4) {
        assert_eq!(m.hand(s).len(), 5, "{s} has its own hand");
        assert_eq!(
            m.deck_count(s),
            25 - 5 - SECURITY_LAN,
            "{s} has its own deck"
        );
    }
    let five = setup_of(&[DECK, DECK, DECK, DECK, DECK], Format::Standard);
    assert!(matches!(
        Match::from_setup(&five, set()),
        Err(SetupError::Seats(5))
    ));
    let two_players = setup_of(&[DECK, DECK], Format::Players);
    let err = Match::from_setup(&two_players, set()).unwrap_err();
    assert!(err.to_string().contains("DCG-LAN-29"), "{err}");
}

#[test]
fn rule_lan_turn_order_skips_draw_once() {
    let mut m = three();
    assert_eq!((m.turn(), m.turn_player()), (1, P1));
    assert_eq!(m.hand(P1).len(), 5, "the game's first turn draws nothing");
    pass(&mut m);
    assert_eq!((m.turn(), m.turn_player()), (2, P2));
    assert_eq!(m.hand(P2).len(), 6, "P2's first turn draws");
    pass(&mut m);
    assert_eq!((m.turn(), m.turn_player()), (3, P3));
    assert_eq!(m.hand(P3).len(), 6, "P3's first turn draws");
    pass(&mut m);
    assert_eq!((m.turn(), m.turn_player()), (4, P1));
    assert_eq!(m.hand(P1).len(), 6, "P1's second turn draws");
}

#[test]
fn rule_lan_six_security() {
    let m = lan(&[
        &[
            "5x Agumon",
            "Biyomon",
            "4x Hawkmon",
            "Elecmon",
            "9x Hawkmon",
        ],
        DECK,
        DECK,
    ]);
    for s in Seat::all(3) {
        assert_eq!(m.security_count(s), 6);
    }
    // Dealt one at a time (DCG-SETUP-5): the 6th card at the bottom, the
    // 11th on top.
    let sec = names(&m, &m.z(P1).security);
    assert_eq!(sec.first().map(String::as_str), Some("Biyomon"));
    assert_eq!(sec.last().map(String::as_str), Some("Elecmon"));
}

#[test]
fn rule_lan_banks_start_at_one() {
    let m = three();
    assert_eq!(banks(&m, P2), vec![1, 1]);
    assert_eq!(banks(&m, P3), vec![1, 1]);
    let m = lan(&[DECK, DECK, DECK, DECK]);
    assert_eq!(banks(&m, P4), vec![1, 1, 1]);
}

#[test]
fn rule_lan_pass_stores_x_in_lowest_bank() {
    let mut m = three();
    // Turn 1: P1 at 1 plays Agumon (3): -2, so X = 2.
    step(&mut m, P1, "play Agumon");
    keep_targets(&mut m);
    assert_eq!(m.turn_player(), P2);
    assert_eq!(banks(&m, P3), vec![2, 1]);
    // P2 began: its largest bank (2) became its memory and went back to 1.
    assert_eq!(m.memory_of(P2), 2);
    assert_eq!(banks(&m, P2), vec![1, 1]);
    // P2 passes: X = 3 into each other player's lowest bank.
    pass(&mut m);
    assert_eq!(banks(&m, P1), vec![3, 1]);
    assert_eq!(m.memory_of(P3), 3, "P3's largest bank");
    assert_eq!(banks(&m, P3), vec![2, 1], "the 3 it used went back to 1");
    // P3 spends to -1: X = 1 lowers no bank.
    step(&mut m, P3, "play Hawkmon");
    step(&mut m, P3, "play Hawkmon");
    keep_targets(&mut m);
    assert_eq!(m.turn_player(), P1);
    assert_eq!(m.memory_of(P1), 3);
    assert_eq!(banks(&m, P1), vec![1, 1]);
    assert_eq!(banks(&m, P2), vec![1, 1]);
}

#[test]
fn rule_lan_turn_starts_from_largest_bank() {
    let mut m = three();
    assert_eq!(m.memory_of(P1), 1, "the first turn starts at 1 (L2)");
    assert_eq!(banks(&m, P1), vec![1, 1]);
    m.seats[1].banks = vec![4, 7];
    pass(&mut m);
    assert_eq!(m.memory_of(P2), 7);
    assert_eq!(
        m.z(P2).banks,
        vec![4, 1],
        "only the largest bank goes back to 1"
    );
}

#[test]
fn rule_lan_pass_is_minus_three() {
    let mut m = three();
    let events = texts(&step(&mut m, P1, "pass"));
    assert!(events.iter().any(|e| e == "P1's memory: -3."), "{events:?}");
    keep_targets(&mut m);
    assert_eq!(banks(&m, P3), vec![3, 1]);
    assert_eq!(m.memory_of(P2), 3);
}

#[test]
fn rule_lan_off_turn_memory_moves_turn_player() {
    // P2's Kudamon gains 1 memory when a card leaves P2's security; in
    // P1's turn that takes 1 from P1's memory.
    let mut m = three();
    put(&mut m, P2, &["Kudamon"], false);
    put(&mut m, P1, &["Greymon"], false);
    assert_eq!(m.memory_of(P1), 1);
    step(&mut m, P1, "Greymon attacks player");
    assert_eq!(m.security_count(P2), 5);
    assert_eq!(m.memory_of(P1), 0, "P2's gain came off P1's memory");
    assert_eq!(m.turn_player(), P1);
}

#[test]
fn rule_lan_memory_within_ten() {
    let mut m = lan(&[&["WarGreymon", "4x Hawkmon", "20x Hawkmon"], DECK, DECK]);
    m.memory = 0;
    assert!(m.can_pay(10));
    assert!(!m.can_pay(11), "a cost past -10 cannot be paid");
    step(&mut m, P1, "play WarGreymon");
    keep_targets(&mut m);
    assert_eq!(banks(&m, P3), vec![10, 1], "X is at most 10");
    assert_eq!(m.memory_of(P2), 10);
}

#[test]
fn rule_lan_non_turn_memory_is_the_gauge_seen_from_outside() {
    let m = three();
    assert_eq!(m.memory_of(P1), 1);
    assert_eq!(m.memory_of(P2), -1);
    assert_eq!(m.memory_of(P3), -1);
}

#[test]
fn rule_lan_first_target_is_next_player() {
    let m = lan(&[DECK, DECK, DECK, DECK]);
    let targets: Vec<u8> = Seat::all(4).map(|s| m.z(s).target).collect();
    assert_eq!(targets, vec![1, 2, 3, 0]);
    assert_eq!(m.opponent(P1), P2);
    assert_eq!(m.opponent(P4), P1, "P4 targets P1, and P1 targets P2");
}

#[test]
fn rule_lan_switch_target_free_main_action() {
    let mut m = three();
    step(&mut m, P1, "target P3");
    assert_eq!(m.opponent(P1), P3);
    assert_eq!(m.memory_of(P1), 1, "switching is free");
    assert_eq!(m.waiting(), Some((P1, Ask::Main)));
    step(&mut m, P1, "target P2");
    assert_eq!(m.opponent(P1), P2, "any number of times");
    // Not while an attack is in progress: P2's block question offers no
    // switch.
    put(&mut m, P1, &["Greymon"], false);
    put(&mut m, P2, &["Lopmon"], false);
    step(&mut m, P1, "Greymon attacks player");
    assert_eq!(m.waiting(), Some((P2, Ask::Block)));
    assert!(
        !m.legal_actions(P2)
            .iter()
            .any(|a| matches!(a, Action::Target { .. }))
    );
    let err = m.apply(P1, Action::Target { seat: P3 }).unwrap_err();
    assert!(err.reason.contains("P2's move"), "{}", err.reason);
}

#[test]
fn rule_lan_switch_before_and_after_turn() {
    let mut m = three();
    step(&mut m, P1, "pass");
    // Just after its turn, P1 may switch.
    assert_eq!(m.waiting(), Some((P1, Ask::Target)));
    step(&mut m, P1, "target P3");
    // Just before its turn (its memory already set), P2 may switch.
    assert_eq!(m.waiting(), Some((P2, Ask::Target)));
    assert_eq!(m.memory_of(P2), 3);
    step(&mut m, P2, "target P1");
    assert_eq!(m.waiting(), Some((P2, Ask::Main)));
    assert_eq!(m.z(P1).target, 2);
    assert_eq!(m.z(P2).target, 0);
    // Only once each: the main phase has begun.
    assert!(m.legal_actions(P2).contains(&Action::Target { seat: P3 }));
}

#[test]
fn rule_lan_targeted_player_faces_turn_player() {
    let mut m = three();
    // P2 targets P3; while P1 targets P2, P2's opponent is P1.
    assert_eq!(m.z(P2).target, 2);
    assert_eq!(m.opponent(P2), P1);
    step(&mut m, P1, "target P3");
    assert_eq!(m.opponent(P2), P3, "P1 no longer targets P2");
    assert_eq!(m.opponent(P3), P1);
}

#[test]
fn rule_lan_effects_reach_only_target() {
    let mut m = lan(&[&["Biyomon", "4x Hawkmon", "20x Hawkmon"], DECK, DECK]);
    let p2_gabumon = put(&mut m, P2, &["Gabumon"], false);
    let p3_gabumon = put(&mut m, P3, &["Gabumon"], false);
    step(&mut m, P1, "play Biyomon");
    step(&mut m, P1, "yes");
    // One Digimon could be chosen: P2's, deleted; P3's is not P1's
    // opponent's.
    assert!(m.find(p2_gabumon).is_none());
    assert!(m.find(p3_gabumon).is_some(), "P3 is not P1's opponent");
    assert!(names(&m, &m.z(P2).trash).contains(&"Gabumon".to_string()));
}

#[test]
fn rule_lan_attack_only_target() {
    let mut m = three();
    let greymon = put(&mut m, P1, &["Greymon"], false);
    let p3 = put(&mut m, P3, &["Gabumon"], true);
    let at_p3 = Action::Attack {
        attacker: greymon,
        target: Some(p3),
    };
    assert!(!m.legal_actions(P1).contains(&at_p3));
    let err = m.apply(P1, at_p3).unwrap_err();
    assert!(err.reason.contains("DCG-LAN-16"), "{}", err.reason);
    let err = super::script::read_step(&m, P1, "Greymon attacks P3", set())
        .unwrap_err()
        .to_string();
    assert!(err.contains("DCG-LAN-16"), "{err}");
    step(&mut m, P1, "target P3");
    assert!(m.legal_actions(P1).contains(&at_p3));
}

#[test]
fn rule_lan_opponents_turn_means_target_turn() {
    // Gabumon over Betamon, whose inherited [Opponent's Turn] gives +1000
    // DP (2000 → 3000).
    let mut m = three();
    let betamon = put(&mut m, P3, &["Betamon", "Gabumon"], false);
    // P3 targets P2; P1 (the turn player) targets P2: not P3's opponent's turn.
    m.seats[2].target = 1;
    assert_eq!(m.dp_of(betamon), 2000);
    step(&mut m, P1, "target P3");
    assert_eq!(m.dp_of(betamon), 3000, "P1 targets P3: P1 is its opponent");
}

#[test]
fn rule_lan_only_attacked_player_blocks() {
    let mut m = three();
    let lopmon = put(&mut m, P3, &["Lopmon"], false);
    put(&mut m, P1, &["Greymon"], false);
    // P3's target is P1, but P1 attacks P2, who has no blocker.
    assert_eq!(m.z(P3).target, 0);
    let events = texts(&step(&mut m, P1, "Greymon attacks player"));
    assert!(
        events.iter().any(|e| e.contains("Security check: P2")),
        "{events:?}"
    );
    assert_ne!(m.waiting().map(|w| w.0), Some(P3));
    assert!(!m.find(lopmon).unwrap().1.suspended);
}

#[test]
fn rule_lan_mega_damage_level_six_checks() {
    let mut m = three();
    // WarGreymon: level 6, <Security Attack +1>: 2 checks, 2 Mega Damage.
    put(&mut m, P1, &["WarGreymon"], false);
    put(&mut m, P1, &["MetalGreymon"], false);
    step(&mut m, P1, "WarGreymon attacks player");
    assert_eq!(m.security_count(P2), 4);
    assert_eq!(m.z(P2).mega, 2);
    // A level 5 attacker deals none.
    step(&mut m, P1, "target P3");
    step(&mut m, P1, "MetalGreymon attacks player");
    assert_eq!(m.security_count(P3), 5);
    assert_eq!(m.z(P3).mega, 0);
}

#[test]
fn rule_lan_ten_mega_damage_defeats() {
    let mut m = three();
    m.seats[1].mega = 9;
    put(&mut m, P1, &["WarGreymon"], false);
    let events = texts(&step(&mut m, P1, "WarGreymon attacks player"));
    assert!(m.z(P2).defeated, "{events:?}");
    assert_eq!(m.security_count(P2), 5, "the attack ended at the 10th");
    assert!(
        events.iter().any(|e| e.contains("10 Mega Damage")),
        "{events:?}"
    );
    assert_eq!(m.outcome(), None);
    assert_eq!(m.opponent(P1), P3);
}

#[test]
fn rule_lan_no_security_attack_defeats() {
    let mut m = three();
    m.seats[1].security.clear();
    put(&mut m, P1, &["WarGreymon"], false);
    step(&mut m, P1, "WarGreymon attacks player");
    assert!(m.z(P2).defeated);
    assert_eq!(m.z(P2).mega, 0, "nothing was checked");
    assert_eq!(m.outcome(), None, "P1 and P3 play on");
}

#[test]
fn rule_lan_deck_out_defeats_only_that_player() {
    // P2's deck is exactly its hand and security.
    let mut m = lan(&[DECK, &["11x Hawkmon"], DECK]);
    pass(&mut m);
    assert!(m.z(P2).defeated);
    assert_eq!(m.turn_player(), P3);
    assert_eq!(m.outcome(), None);
}

#[test]
fn rule_lan_defeated_player_leaves() {
    let mut m = three();
    put(&mut m, P2, &["Gabumon"], false);
    put(&mut m, P2, &["Tai Kamiya"], false);
    let trashed = m.z(P2).trash.len();
    step(&mut m, P2, "concede");
    assert!(m.z(P2).defeated);
    assert!(m.field(P2).is_empty(), "its cards left the game");
    assert_eq!(m.z(P2).trash.len(), trashed + 2, "kept in its own trash");
    assert_eq!(m.waiting(), Some((P1, Ask::Main)), "the others play on");
    assert_ne!(m.opponent(P1), P2);
    // It is never asked again, and cannot concede twice.
    assert!(m.apply(P2, Action::Concede).is_err());
    pass(&mut m);
    assert_eq!(m.turn_player(), P3, "its turn is skipped");
}

#[test]
fn rule_lan_defeat_removes_lowest_bank() {
    let mut m = lan(&[DECK, DECK, DECK, DECK]);
    m.seats[0].banks = vec![3, 1, 5];
    m.seats[3].banks = vec![2, 2, 4];
    step(&mut m, P2, "concede");
    assert_eq!(banks(&m, P1), vec![5, 3]);
    assert_eq!(banks(&m, P4), vec![4, 2]);
}

#[test]
fn rule_lan_target_moves_off_defeated() {
    let mut m = lan(&[DECK, DECK, DECK, DECK]);
    step(&mut m, P3, "concede");
    // P2 targeted P3: it now targets the next remaining after P2, P4.
    assert_eq!(m.z(P2).target, 3);
    step(&mut m, P1, "target P4");
    step(&mut m, P4, "concede");
    // P1 targeted P4: the next after P1 is P2.
    assert_eq!(m.z(P1).target, 1);
}

#[test]
fn rule_lan_defeat_on_own_turn_passes() {
    let mut m = three();
    step(&mut m, P1, "pass");
    step(&mut m, P1, "keep target");
    step(&mut m, P2, "keep target");
    assert_eq!(banks(&m, P3), vec![3, 1]);
    step(&mut m, P2, "concede");
    // Nothing stored from P2's turn; P3's turn begins at once.
    assert_eq!(m.turn_player(), P3);
    assert_eq!(m.turn(), 3);
    assert_eq!(m.memory_of(P3), 3);
    assert_eq!(
        banks(&m, P3),
        vec![1],
        "its lowest bank removed, its 3 used"
    );
    assert_eq!(banks(&m, P1), vec![1]);
}

#[test]
fn rule_lan_last_player_wins() {
    let mut m = three();
    step(&mut m, P2, "concede");
    assert_eq!(m.outcome(), None);
    step(&mut m, P1, "concede");
    assert_eq!(m.outcome(), Some(Outcome::Win(P3)));
}

/// The sample set and one test card with [End of Opponent's Turn].
fn with_testmon() -> &'static CardSet {
    static SET: OnceLock<CardSet> = OnceLock::new();
    SET.get_or_init(|| {
        set()
            .with_card_file(
                Path::new("testmon.ron"),
                r#"[Dcg(number: "BT29-001", name: "Testmon", kind: Digimon, colors: [Red],
                    level: 3, cost: 3, digivolve: [(color: Red, level: 2, cost: 0)], dp: 3000,
                    form: "Rookie", attribute: "Data", types: ["Test"],
                    effects: ["[End of Opponent's Turn] If you have a Tamer in play, gain 1 memory."])]"#,
            )
            .expect("the test card loads")
    })
}

fn testmon_game(seats: usize) -> Match {
    let cards = with_testmon();
    let n = |name: &str| super::script::resolve(cards, name).unwrap().number();
    let deck = |first: &str| {
        let mut d = vec![n(first)];
        d.extend(std::iter::repeat_n(n("Hawkmon"), 24));
        d
    };
    let mut decks = vec![deck("Hawkmon"), deck("Testmon")];
    decks.extend((2..seats).map(|_| deck("Hawkmon")));
    let setup = Setup {
        decks,
        seed: 1,
        exempt: (0..seats)
            .filter_map(Seat::new)
            .map(|s| (s, "short".into()))
            .collect(),
        stacked: Some(P1),
        format: Format::Standard,
        engine: super::ENGINE_VERSION,
    };
    let mut m = Match::from_setup(&setup, cards).unwrap();
    while let Some((s, Ask::Mulligan)) = m.waiting() {
        m.apply(s, Action::Keep).unwrap();
    }
    m
}

fn play_testmon_and_tamer(m: &mut Match) {
    // P2 has Testmon in hand (its first card); a Tamer is put in play.
    let cards = with_testmon();
    let at = m
        .hand(P2)
        .iter()
        .position(|&c| m.info(c).name == "Testmon")
        .unwrap();
    let c = m.hand(P2)[at];
    m.seats[1].hand.remove(at);
    let tai = {
        let n = super::script::resolve(cards, "Tai Kamiya")
            .unwrap()
            .number();
        match m.cards.iter().position(|i| i.number == n) {
            Some(i) => i as Cid,
            None => {
                let mut v = m.cards.to_vec();
                v.push(Info::of(cards.get(&n).unwrap()).unwrap());
                m.cards = v.into();
                (m.cards.len() - 1) as Cid
            }
        }
    };
    for card in [c, tai] {
        let mut p = m.new_perm_for_test(vec![card]);
        p.since = 0;
        m.seats[1].field.push(p);
    }
}

#[test]
fn rule_lan_end_of_opponents_turn_moves() {
    let mut m = testmon_game(3);
    keep_targets(&mut m);
    play_testmon_and_tamer(&mut m);
    // P1's turn ends: nothing of P2's happens then, but before P2's turn:
    // its bank's 3 and Testmon's 1.
    let events = m.apply(P1, Action::Pass).unwrap();
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, Event::Effect { seat: P2, .. })),
        "{events:?}"
    );
    assert_eq!(m.waiting(), Some((P1, Ask::Target)));
    m.apply(P1, Action::KeepTarget).unwrap();
    assert_eq!(m.memory_of(P2), 3, "not yet: the switch comes first");
    m.apply(P2, Action::KeepTarget).unwrap();
    assert_eq!(m.turn_player(), P2);
    assert_eq!(m.memory_of(P2), 4);
    // P2's own turn ends; P3's ends; before P2's next turn, after its
    // switch, Testmon's effect: its banks' 3 and 1 more.
    m.apply(P2, Action::Pass).unwrap();
    keep_targets(&mut m);
    m.apply(P3, Action::Pass).unwrap();
    keep_targets(&mut m);
    m.apply(P1, Action::Pass).unwrap();
    m.apply(P1, Action::KeepTarget).unwrap();
    assert_eq!(
        m.waiting(),
        Some((P2, Ask::Target)),
        "the switch comes first"
    );
    assert_eq!(m.memory_of(P2), 3);
    let events = m.apply(P2, Action::KeepTarget).unwrap();
    let lines: Vec<String> = events
        .iter()
        .map(|e| <Match as Ruleset>::describe(e, with_testmon()))
        .collect();
    assert_eq!(m.memory_of(P2), 4, "{lines:?}");
    // At 2 seats it happens at the end of the opponent's turn (DCG-TURN-11).
    let mut m = testmon_game(2);
    play_testmon_and_tamer(&mut m);
    m.apply(P1, Action::Pass).unwrap();
    assert_eq!(m.turn_player(), P2);
    assert_eq!(m.memory_of(P2), 4, "3 from the pass, 1 from Testmon");
}

/// A Players Format pool: a red Tamer, a blue Digimon, 6 red Digi-Eggs, 58
/// red or blue Digimon, and a green one.
fn pool() -> &'static CardSet {
    static SET: OnceLock<CardSet> = OnceLock::new();
    SET.get_or_init(|| {
        let mut text = String::from("[\n");
        let card = |i: usize, kind: &str, colour: &str, level: u8| {
            let mut c = format!(
                "Dcg(number: \"BT28-{i:03}\", name: \"Poolmon {i}\", kind: {kind}, colors: [{colour}], form: \"Rookie\", attribute: \"Data\", types: [\"Test\"]"
            );
            match kind {
                "Tamer" => c.push_str(", cost: 2"),
                "DigiEgg" => c.push_str(", level: 2"),
                _ => c.push_str(&format!(
                    ", level: {level}, cost: 3, dp: 3000, digivolve: [(color: Red, level: 2, cost: 0)]"
                )),
            }
            c.push_str("),\n");
            c
        };
        text.push_str(&card(1, "Tamer", "Red", 0));
        text.push_str(&card(2, "Digimon", "Blue", 3));
        for i in 3..=8 {
            text.push_str(&card(i, "DigiEgg", "Red", 2));
        }
        for i in 9..=66 {
            text.push_str(&card(i, "Digimon", if i % 2 == 0 { "Red" } else { "Red, Blue" }, 3));
        }
        text.push_str(&card(67, "Digimon", "Green", 3));
        text.push_str(&card(68, "Digimon", "Red, Green", 3));
        text.push(']');
        CardSet::from_sources(&[(std::path::PathBuf::from("pool.ron"), text)]).expect("pool")
    })
}

fn pool_deck() -> Vec<CardNumber> {
    (1..=66)
        .map(|i| format!("BT28-{i:03}").parse().unwrap())
        .collect()
}

#[test]
fn rule_lan_players_format_deck() {
    let cards = pool();
    let good = pool_deck();
    assert_eq!(deck::check_players(&good, cards, false), Ok(()));
    // The Player cards count among the 60 and the 6 (L17): one short.
    let short = &good[..65];
    assert!(matches!(
        deck::check_players(short, cards, false),
        Err(DeckError::PlayersMainSize(59))
    ));
    // Two of a number.
    let mut twice = good.clone();
    twice[20] = twice[21];
    let err = deck::check_players(&twice, cards, false).unwrap_err();
    assert!(matches!(err, DeckError::Single { count: 2, .. }), "{err}");
    // The Player Tamer must be a Tamer.
    let mut swapped = good.clone();
    swapped.swap(0, 1);
    let err = deck::check_players(&swapped, cards, false).unwrap_err();
    assert!(
        err.to_string().contains("cannot be the Player Tamer"),
        "{err}"
    );
    assert!(matches!(
        deck::check_players(&good[..1], cards, false),
        Err(DeckError::NoPlayerCards)
    ));
    // Five Digi-Eggs and 61 others.
    let mut eggs = good.clone();
    eggs[7] = "BT28-067".parse().unwrap();
    eggs[8] = "BT28-068".parse().unwrap();
    assert!(deck::check_players(&eggs, cards, false).is_err());
}

#[test]
fn rule_lan_players_format_colours() {
    let cards = pool();
    let mut d = pool_deck();
    d[30] = "BT28-067".parse().unwrap();
    let err = deck::check_players(&d, cards, false).unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains("Poolmon 67") && text.contains("DCG-LAN-30"),
        "{text}"
    );
    // A multi-coloured card needs every colour allowed.
    d[30] = "BT28-068".parse().unwrap();
    let text = deck::check_players(&d, cards, false)
        .unwrap_err()
        .to_string();
    assert!(text.contains("Poolmon 68"), "{text}");
    // Red/blue cards are allowed by a red Tamer and a blue Digimon.
    assert_eq!(deck::check_players(&pool_deck(), cards, false), Ok(()));
}

/// A Players Format game of the sample cards: P1's Player cards are Tai
/// Kamiya and `digimon`.
fn players_game(digimon: &str, p1: &[&str]) -> Match {
    let mut p1_list = vec!["Tai Kamiya", digimon];
    p1_list.extend_from_slice(p1);
    let others: &[&str] = &[
        "Matt Ishida",
        "Gabumon",
        "3x Gomamon",
        "2x Gabumon",
        "20x Gomamon",
    ];
    let setup = setup_of(&[&p1_list, others, others], Format::Players);
    let mut m = Match::from_setup(&setup, set()).expect("setup");
    keep_all(&mut m);
    m
}

#[test]
fn rule_lan_player_cards_start_offline() {
    let m = players_game("Agumon", DECK);
    assert_eq!(names(&m, &m.z(P1).offline), vec!["Tai Kamiya", "Agumon"]);
    assert_eq!(
        m.deck_count(P1) + m.hand(P1).len() + m.security_count(P1),
        25
    );
    let view = m.view(Some(P2));
    assert_eq!(view.seats[0].offline.len(), 2, "every player sees them");
    assert_eq!(view.seats[0].corruption, 0);
}

#[test]
fn rule_lan_take_from_offline() {
    let mut m = players_game("Agumon", DECK);
    // Corruption 0: free.
    step(&mut m, P1, "take Tai Kamiya");
    assert!(names(&m, m.hand(P1)).contains(&"Tai Kamiya".to_string()));
    assert_eq!(m.memory_of(P1), 1);
    // Corruption 1: 2 memory, paid like a cost (1 → -1 ends the turn).
    m.seats[0].corruption = 1;
    step(&mut m, P1, "take Agumon");
    assert!(m.z(P1).offline.is_empty());
    keep_targets(&mut m);
    assert_eq!(m.turn_player(), P2);
    assert_eq!(banks(&m, P3), vec![1, 1], "X = 1 lowers nothing");
}

#[test]
fn rule_lan_corruption_returns_player_card() {
    for yes in [true, false] {
        // P2's Player Digimon Gabumon is in play; P1's Mega Flame deletes it.
        let mut m = players_game("Agumon", &["Mega Flame", "4x Hawkmon", "20x Hawkmon"]);
        put(&mut m, P1, &["Hawkmon"], false);
        let gabumon = m.z(P2).offline[1];
        m.seats[1].offline.retain(|c| *c != gabumon);
        put(&mut m, P2, &["Gabumon"], false);
        m.memory = 3;
        step(&mut m, P1, "use Mega Flame");
        if m.waiting().is_some_and(|w| w.1 != Ask::Corrupt) {
            step(&mut m, P1, "choose Gabumon");
        }
        assert_eq!(m.waiting(), Some((P2, Ask::Corrupt)));
        step(&mut m, P2, if yes { "yes" } else { "no" });
        let offline = names(&m, &m.z(P2).offline);
        let trash = names(&m, &m.z(P2).trash);
        if yes {
            assert_eq!(m.z(P2).corruption, 1);
            assert!(offline.contains(&"Gabumon".to_string()));
            assert!(!trash.contains(&"Gabumon".to_string()));
        } else {
            assert_eq!(m.z(P2).corruption, 0);
            assert!(trash.contains(&"Gabumon".to_string()));
            assert!(!offline.contains(&"Gabumon".to_string()));
        }
    }
}

#[test]
fn rule_lan_face_up_egg_hatches_next() {
    let mut m = players_game(
        "Koromon",
        &["Tsunomon", "3x Agumon", "2x Hawkmon", "20x Hawkmon"],
    );
    // Turn 1's breeding phase hatches Tsunomon; Koromon then cannot go to
    // the occupied breeding area: face up on top of the Digi-Egg deck.
    step(&mut m, P1, "hatch");
    step(&mut m, P1, "take Koromon");
    assert!(m.z(P1).open_egg);
    assert_eq!(
        m.z(P1)
            .eggs
            .last()
            .map(|&c| m.info(c).name.clone())
            .as_deref(),
        Some("Koromon")
    );
    assert_eq!(
        m.waiting(),
        Some((P1, Ask::Main)),
        "no Corruption asked for the rule's own move"
    );
    let view = m.view(Some(P2));
    assert!(view.seats[0].open_egg.is_some(), "every player sees it");
    // The next hatch takes it.
    m.seats[0].breeding = None;
    for _ in 0..3 {
        pass(&mut m);
    }
    assert_eq!(m.turn_player(), P1);
    step(&mut m, P1, "hatch");
    let b = m
        .z(P1)
        .breeding
        .as_ref()
        .map(|p| m.info(p.top()).name.clone());
    assert_eq!(b.as_deref(), Some("Koromon"));
    assert!(!m.z(P1).open_egg);
}

/// A random game of 3 or 4 seats (standard decks, or the Players Format's
/// shipped decks); the random player keeps its Target Opponent in the main
/// phase (a free switch back and forth would never end) and answers every
/// other question at random.
fn random_lan_game(seed: u64, max_actions: usize) -> (Match, usize) {
    let seats = 3 + (seed % 2) as usize;
    let players = seed.is_multiple_of(3);
    let names: Vec<&str> = if players {
        deck::PLAYERS_EMBEDDED.iter().map(|(n, _)| *n).collect()
    } else {
        deck::EMBEDDED.iter().map(|(n, _)| *n).collect()
    };
    let decks = (0..seats)
        .map(|i| {
            deck::embedded(names[(i + seed as usize) % names.len()], set())
                .unwrap()
                .unwrap()
        })
        .collect();
    let mut setup = <Match as Ruleset>::setup_for(decks, seed);
    if players {
        setup.format = Format::Players;
    }
    let mut m = Match::from_setup(&setup, set()).unwrap();
    let mut rng = Rng64::new(seed ^ 0x1a7);
    let mut n = 0;
    while m.outcome().is_none() && n < max_actions {
        let Some((seat, ask)) = m.waiting() else {
            break;
        };
        let mut legal = m.legal_actions(seat);
        assert!(!legal.is_empty(), "asked with no answer at {ask:?}");
        if ask == Ask::Main {
            legal.retain(|a| !matches!(a, Action::Target { .. }));
        }
        m.apply(seat, legal[rng.below(legal.len())]).unwrap();
        n += 1;
    }
    (m, n)
}

#[test]
fn random_lan_games_end_and_keep_every_card() {
    for seed in 0..24 {
        let (m, n) = random_lan_game(seed, 30_000);
        assert!(m.outcome().is_some(), "seed {seed}: {n} actions, no end");
        let per_seat: usize = m.setup().decks.iter().map(Vec::len).sum();
        assert_eq!(card_count(&m), per_seat, "seed {seed}");
        // The banks shrink with each defeat: one per remaining opponent.
        let left = m.seats.iter().filter(|z| !z.defeated).count();
        for z in m.seats.iter().filter(|z| !z.defeated) {
            assert!(z.banks.len() + 1 >= left, "seed {seed}: {:?}", z.banks);
        }
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]

    #[test]
    fn a_lan_view_never_holds_a_hidden_card(seed in 0u64..10_000, steps in 0usize..600) {
        let (m, _) = random_lan_game(seed, steps);
        proptest::prop_assert_eq!(card_count(&m), m.setup().decks.iter().map(Vec::len).sum::<usize>());
        let seats = Ruleset::seats(&m);
        for me in Seat::all(seats).map(Some).chain([None]) {
            let v = m.view(me);
            proptest::prop_assert!(v.well_formed().is_ok(), "{:?}", v.well_formed());
            for s in &v.seats {
                proptest::prop_assert_eq!(s.hand.is_some(), me == Some(s.seat));
            }
            let json = serde_json::to_string(&v).unwrap();
            proptest::prop_assert!(!json.contains("\"security\":["));
            proptest::prop_assert!(!json.contains("\"deck\":["));
        }
    }
}
