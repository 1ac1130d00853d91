//! The rules of docs/dcg-rules.md, each test named after its rule, and the
//! properties every ruleset keeps (random legal play ends, an illegal
//! action changes nothing, every card in exactly one zone, a view never
//! holds a hidden card).

use std::sync::OnceLock;

use proptest::prelude::*;

use super::script::{read_step, resolve};
use super::*;
use crate::rules::{Reply, Ruleset};

pub(super) fn set() -> &'static CardSet {
    static SET: OnceLock<CardSet> = OnceLock::new();
    SET.get_or_init(CardSet::embedded)
}

pub(super) fn numbers(list: &[&str]) -> Vec<CardNumber> {
    list.iter()
        .flat_map(|e| {
            let (n, name) = match e.split_once("x ") {
                Some((n, rest)) if n.parse::<usize>().is_ok() => (n.parse().unwrap(), rest),
                _ => (1, *e),
            };
            let c = resolve(set(), name).unwrap_or_else(|e| panic!("{name}: {e}"));
            std::iter::repeat_n(c.number(), n)
        })
        .collect()
}

/// A stacked game (decks top first), both hands kept.
fn game(p1: &[&str], p2: &[&str]) -> Match {
    let setup = Setup {
        decks: vec![numbers(p1), numbers(p2)],
        seed: 7,
        exempt: vec![
            (Seat::P1, "a scenario's short deck".into()),
            (Seat::P2, "a scenario's short deck".into()),
        ],
        stacked: Some(Seat::P1),
        format: Format::Standard,
        engine: super::ENGINE_VERSION,
    };
    let mut m = Match::from_setup(&setup, set()).expect("setup");
    step(&mut m, Seat::P1, "keep");
    step(&mut m, Seat::P2, "keep");
    m
}

pub(super) fn step(m: &mut Match, seat: Seat, words: &str) -> Vec<Event> {
    match read_step(m, seat, words, set()) {
        Ok(Reply::Act(a)) => m.apply(seat, a).unwrap_or_else(|e| panic!("{words}: {e}")),
        Ok(Reply::Pass) => panic!("{words}: a pass"),
        Err(e) => panic!("{words}: {e}"),
    }
}

pub(super) fn texts(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .map(|e| <Match as Ruleset>::describe(e, set()))
        .collect()
}

pub(super) fn names(m: &Match, cards: &[Cid]) -> Vec<String> {
    cards.iter().map(|&c| m.info(c).name.clone()).collect()
}

const FILLER: &str = "10x Hawkmon";

/// Puts a Digimon (its cards bottom first) straight into `seat`'s battle
/// area, in play since turn 0; returns its id.
pub(super) fn put(m: &mut Match, seat: Seat, cards: &[&str], suspended: bool) -> u16 {
    let cids: Vec<Cid> = numbers(cards).into_iter().map(|n| cid(m, n)).collect();
    let mut p = m.new_perm_for_test(cids);
    p.suspended = suspended;
    p.since = 0;
    let id = p.id;
    m.seats[seat.index()].field.push(p);
    id
}

/// The match's card index of a card (added to the table when new).
pub(super) fn cid(m: &mut Match, n: CardNumber) -> Cid {
    if let Some(i) = m.cards.iter().position(|c| c.number == n) {
        return i as Cid;
    }
    let info = set()
        .get(&n)
        .and_then(Info::of)
        .expect("a card of this game");
    let mut v: Vec<Info> = m.cards.to_vec();
    v.push(info);
    m.cards = v.into();
    (m.cards.len() - 1) as Cid
}

/// P1's turn 3 of a plain game, memory 3, nothing in play.
fn turn3() -> Match {
    let mut m = game(&["5x Hawkmon", FILLER], &["5x Hawkmon", FILLER]);
    step(&mut m, Seat::P1, "pass");
    step(&mut m, Seat::P2, "pass");
    m
}

#[test]
fn rule_opening_hand_five_cards() {
    let m = game(&["5x Agumon", FILLER], &["5x Gabumon", FILLER]);
    assert_eq!(m.hand(Seat::P1).len(), 5);
    assert_eq!(names(&m, m.hand(Seat::P2)), vec!["Gabumon"; 5]);
}

#[test]
fn rule_security_one_at_a_time() {
    // DCG-SETUP-5: the deck's 6th card ends at the bottom of security,
    // its 10th on top.
    let m = game(
        &["5x Agumon", "Biyomon", "3x Hawkmon", "Elecmon", FILLER],
        &["5x Gabumon", FILLER],
    );
    let sec = names(&m, &m.z(Seat::P1).security);
    assert_eq!(sec.first().map(String::as_str), Some("Biyomon"));
    assert_eq!(sec.last().map(String::as_str), Some("Elecmon"));
    assert_eq!(m.security_count(Seat::P1), SECURITY);
}

#[test]
fn rule_memory_starts_at_zero() {
    let m = game(&["5x Agumon", FILLER], &["5x Gabumon", FILLER]);
    assert_eq!(m.memory_of(Seat::P1), 0);
    assert_eq!(m.turn(), 1);
}

#[test]
fn rule_first_player_skips_first_draw() {
    let mut m = game(&["5x Agumon", FILLER], &["5x Gabumon", FILLER]);
    assert_eq!(m.hand(Seat::P1).len(), 5, "no draw on the first turn");
    step(&mut m, Seat::P1, "pass");
    assert_eq!(m.turn_player(), Seat::P2);
    assert_eq!(m.hand(Seat::P2).len(), 6, "the second player draws");
}

#[test]
fn rule_mulligan_once_new_five() {
    let setup = Setup {
        decks: vec![
            numbers(&["5x Agumon", FILLER]),
            numbers(&["5x Gabumon", FILLER]),
        ],
        seed: 3,
        exempt: vec![(Seat::P1, "short".into()), (Seat::P2, "short".into())],
        stacked: Some(Seat::P1),
        format: Format::Standard,
        engine: super::ENGINE_VERSION,
    };
    let mut m = Match::from_setup(&setup, set()).unwrap();
    assert_eq!(
        m.legal_actions(Seat::P1),
        vec![Action::Keep, Action::Mulligan]
    );
    assert!(
        m.legal_actions(Seat::P2).is_empty(),
        "the first player decides first"
    );
    step(&mut m, Seat::P1, "mulligan");
    assert_eq!(m.hand(Seat::P1).len(), 5);
    assert!(m.legal_actions(Seat::P1).is_empty(), "only once");
    assert_eq!(m.deck_count(Seat::P1) + 5, 15);
}

#[test]
fn rule_at_most_four_per_card_number() {
    let red = deck::embedded("red", set()).unwrap().unwrap();
    let agumon = numbers(&["Agumon"])[0];
    let mut five = red.clone();
    let other = five
        .iter()
        .position(|n| {
            *n != agumon && set().get(n).unwrap().as_dcg().unwrap().kind != DcgKind::DigiEgg
        })
        .unwrap();
    five[other] = agumon;
    let err = deck::check(&five, set()).unwrap_err().to_string();
    assert!(
        err.contains("5 copies of Agumon") && err.contains("DCG-DECK-2"),
        "{err}"
    );
}

#[test]
fn rule_main_deck_exactly_fifty() {
    let red = deck::embedded("red", set()).unwrap().unwrap();
    assert!(deck::check(&red, set()).is_ok());
    let egg = numbers(&["Koromon"])[0];
    let at = red.iter().position(|n| *n != egg).unwrap();
    let mut short = red.clone();
    short.remove(at);
    let short = &short[..];
    let err = deck::check(short, set()).unwrap_err().to_string();
    assert!(
        err.contains("DCG-DECK-1") || err.contains("DCG-DECK-3"),
        "{err}"
    );
    let mut five = red.clone();
    let agumon = numbers(&["Agumon"])[0];
    five.retain(|n| *n != agumon);
    five.extend(std::iter::repeat_n(agumon, 5));
    let err = deck::check(&five, set()).unwrap_err().to_string();
    assert!(
        err.contains("Agumon") && err.contains("DCG-DECK-2"),
        "{err}"
    );
}

#[test]
fn rule_illegal_deck_refused_at_setup() {
    let mut red = deck::embedded("red", set()).unwrap().unwrap();
    red[3] = "Dα-001".parse().unwrap();
    let blue = deck::embedded("blue", set()).unwrap().unwrap();
    let err = Match::from_setup(&<Match as Ruleset>::setup_for(vec![red, blue], 1), set())
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("P1") && !err.contains("Card Game Alpha"),
        "{err}"
    );
    assert!(err.contains("Digimon Card Game deck"), "{err}");
}

#[test]
fn rule_digi_egg_deck_zero_to_five() {
    let mut red = deck::embedded("red", set()).unwrap().unwrap();
    red.extend(numbers(&["2x Tsunomon"]));
    let err = deck::check(&red, set()).unwrap_err().to_string();
    assert!(err.contains("DCG-DECK-3"), "{err}");
}

#[test]
fn rule_breeding_phase_one_choice() {
    let mut m = game(
        &["Koromon", "Tsunomon", "5x Agumon", FILLER],
        &["5x Gabumon", FILLER],
    );
    // Turn 1: hatch.
    assert!(m.legal_actions(Seat::P1).contains(&Action::Hatch));
    step(&mut m, Seat::P1, "hatch");
    assert_eq!(m.waiting().map(|w| w.1), Some(Ask::Main));
    step(&mut m, Seat::P1, "pass");
    step(&mut m, Seat::P2, "pass");
    // Turn 3: the breeding area holds a level 2: no hatch, no move.
    assert_eq!(m.turn(), 3);
    assert_eq!(
        m.waiting().map(|w| w.1),
        Some(Ask::Main),
        "nothing to choose: the phase passes"
    );
}

#[test]
fn rule_move_level_three_plus() {
    let mut m = game(&["Koromon", "5x Agumon", FILLER], &["5x Gabumon", FILLER]);
    step(&mut m, Seat::P1, "hatch");
    step(&mut m, Seat::P1, "digivolve Koromon into Agumon");
    assert_eq!(m.hand(Seat::P1).len(), 5, "Agumon out, the bonus draw in");
    assert_eq!(
        m.memory_of(Seat::P1),
        0,
        "digivolving from level 2 costs 0 here"
    );
    step(&mut m, Seat::P1, "pass");
    step(&mut m, Seat::P2, "pass");
    assert_eq!(m.waiting().map(|w| w.1), Some(Ask::Breeding));
    step(&mut m, Seat::P1, "move");
    assert_eq!(m.field(Seat::P1).len(), 1);
    // DCG-TURN-9: it may attack this turn.
    step(&mut m, Seat::P1, "Agumon attacks player");
    assert_eq!(m.security_count(Seat::P2), 4);
}

#[test]
fn rule_paying_moves_memory_toward_opponent() {
    let mut m = game(&["5x Biyomon", FILLER], &["5x Gabumon", FILLER]);
    step(&mut m, Seat::P1, "play Biyomon");
    // 0 - 2 = -2: the turn has passed with 2 memory on P2's side.
    assert_eq!(m.turn_player(), Seat::P2);
    assert_eq!(m.memory_of(Seat::P2), 2);
}

#[test]
fn rule_turn_ends_only_after_resolution() {
    // Biyomon's [On Play] resolves although its cost ended the turn.
    let mut m = game(&["5x Agumon", FILLER], &["5x Gabumon", "Biyomon", FILLER]);
    step(&mut m, Seat::P1, "play Agumon");
    step(&mut m, Seat::P2, "play Gabumon");
    assert_eq!(m.memory_of(Seat::P2), 0, "3 - 3 = 0: P2 goes on");
    assert_eq!(m.turn_player(), Seat::P2);
    step(&mut m, Seat::P2, "pass");
    assert_eq!(m.memory_of(Seat::P1), 3, "DCG-MEM-8: pass sets 3");
}

#[test]
fn rule_pass_sets_three_on_opponent_side() {
    let mut m = game(&["5x Agumon", FILLER], &["5x Gabumon", FILLER]);
    step(&mut m, Seat::P1, "pass");
    assert_eq!(m.memory_of(Seat::P2), 3);
    assert_eq!(m.memory_of(Seat::P1), -3);
}

#[test]
fn rule_cost_may_reach_ten_on_the_other_side() {
    // DCG-MEM-3: at 0 memory a cost of 10 is paid (the gauge stops at 10).
    let mut m = game(
        &["WarGreymon", "4x Agumon", FILLER],
        &["5x Gabumon", FILLER],
    );
    step(&mut m, Seat::P1, "play WarGreymon");
    assert_eq!(m.memory_of(Seat::P2), 10);
    assert!(m.can_pay(20) && !m.can_pay(21), "P2 at 10 may pay up to 20");
}
#[test]
fn rule_played_digimon_cannot_attack_same_turn() {
    let mut m = game(&["5x Agumon", FILLER], &["5x Gabumon", FILLER]);
    step(&mut m, Seat::P1, "pass");
    step(&mut m, Seat::P2, "pass");
    step(&mut m, Seat::P1, "play Agumon");
    let id = m.field(Seat::P1)[0].id;
    let why = rule_refusal(m.why_not(
        Seat::P1,
        Action::Attack {
            attacker: id,
            target: None,
        },
    ));
    assert!(why.contains("DCG-MAIN-3"), "{why}");
}

#[test]
fn rule_kw_rush_attacks_when_played() {
    let mut m = game(
        &["5x Birdramon", FILLER],
        &["WarGreymon", "4x Gabumon", FILLER],
    );
    step(&mut m, Seat::P1, "pass");
    step(&mut m, Seat::P2, "play WarGreymon");
    assert_eq!(m.memory_of(Seat::P1), 7);
    step(&mut m, Seat::P1, "play Birdramon");
    step(&mut m, Seat::P1, "Birdramon attacks player");
    assert_eq!(m.security_count(Seat::P2), 4);
}
#[test]
fn rule_digivolve_requirement_level_and_colour() {
    let mut m = game(
        &["Agumon", "Garurumon", "Greymon", "2x Hawkmon", FILLER],
        &["5x Gabumon", FILLER],
    );
    step(&mut m, Seat::P1, "play Agumon");
    step(&mut m, Seat::P2, "pass");
    let id = m.field(Seat::P1)[0].id;
    let at = |m: &Match, name: &str| {
        m.hand(Seat::P1)
            .iter()
            .position(|&c| m.info(c).name == name)
            .unwrap() as u8
    };
    let garurumon = at(&m, "Garurumon");
    let why = rule_refusal(m.why_not(
        Seat::P1,
        Action::Digivolve {
            card: garurumon,
            onto: id,
        },
    ));
    assert!(why.contains("DCG-MAIN-5") && why.contains("Blue"), "{why}");
    let before = m.hand(Seat::P1).len();
    step(&mut m, Seat::P1, "digivolve Agumon into Greymon");
    // DCG-MAIN-6: the bonus draw.
    assert_eq!(m.hand(Seat::P1).len(), before);
    assert_eq!(m.memory_of(Seat::P1), 1, "3 - 2");
    assert_eq!(m.field(Seat::P1)[0].cards.len(), 2);
    assert_eq!(m.field(Seat::P1)[0].id, id, "the same Digimon");
}

#[test]
fn rule_digivolving_is_not_playing() {
    // Biyomon's [On Play] does not trigger when digivolved into... and
    // Greymon's [When Digivolving] does.
    let mut m = game(
        &["Agumon", "Greymon", "3x Hawkmon", FILLER],
        &["5x Gabumon", FILLER],
    );
    step(&mut m, Seat::P1, "play Agumon");
    step(&mut m, Seat::P2, "pass");
    let ev = texts(&step(&mut m, Seat::P1, "digivolve Agumon into Greymon"));
    assert!(
        ev.iter().any(|t| t.contains("[When Digivolving] <Blitz>")),
        "{ev:?}"
    );
    assert!(!ev.iter().any(|t| t.contains("[On Play]")), "{ev:?}");
}

#[test]
fn rule_option_needs_colour() {
    let mut m = game(
        &["Howling Blaster", "Mega Flame", "3x Agumon", FILLER],
        &["5x Gabumon", FILLER],
    );
    let why = rule_refusal(m.why_not(Seat::P1, Action::UseOption { card: 0 }));
    assert!(why.contains("DCG-MAIN-9"), "{why}");
    step(&mut m, Seat::P1, "play Agumon");
    step(&mut m, Seat::P2, "play Gabumon");
    step(&mut m, Seat::P2, "pass");
    // Red Agumon in play: the red Option; the blue one still not.
    assert!(
        m.legal_actions(Seat::P1)
            .iter()
            .any(|a| matches!(a, Action::UseOption { .. }))
    );
    let ev = texts(&step(&mut m, Seat::P1, "use Mega Flame"));
    assert!(
        ev.iter().any(|t| t.contains("Gabumon is deleted")),
        "{ev:?}"
    );
    assert!(names(&m, &m.z(Seat::P1).trash).contains(&"Mega Flame".to_string()));
    let why = rule_refusal(m.why_not(Seat::P1, Action::UseOption { card: 0 }));
    assert!(why.contains("DCG-MAIN-9"), "{why}");
}

#[test]
fn rule_only_suspended_digimon_attacked() {
    let mut m = game(&["5x Agumon", FILLER], &["5x Gabumon", FILLER]);
    step(&mut m, Seat::P1, "play Agumon");
    step(&mut m, Seat::P2, "play Gabumon");
    step(&mut m, Seat::P2, "pass");
    let target = m.field(Seat::P2)[0].id;
    let attacker = m.field(Seat::P1)[0].id;
    let why = rule_refusal(m.why_not(
        Seat::P1,
        Action::Attack {
            attacker,
            target: Some(target),
        },
    ));
    assert!(why.contains("DCG-ATK-4"), "{why}");
}

#[test]
fn rule_equal_dp_deletes_both() {
    let mut m = turn3();
    let a = put(&mut m, Seat::P1, &["Agumon"], false);
    put(&mut m, Seat::P2, &["Gomamon"], true);
    let ev = texts(&step(&mut m, Seat::P1, "Agumon attacks Gomamon"));
    assert!(
        ev.iter()
            .any(|t| t.contains("Agumon (3000 DP) against Gomamon (3000 DP)")),
        "{ev:?}"
    );
    assert!(
        ev.iter().any(|t| t.contains("P1's Agumon is deleted")),
        "{ev:?}"
    );
    assert!(
        ev.iter().any(|t| t.contains("P2's Gomamon is deleted")),
        "{ev:?}"
    );
    assert!(m.find(a).is_none());
}

#[test]
fn rule_lower_dp_deleted() {
    let mut m = turn3();
    put(&mut m, Seat::P1, &["Greymon"], false);
    put(&mut m, Seat::P2, &["Gomamon"], true);
    let ev = texts(&step(&mut m, Seat::P1, "Greymon attacks Gomamon"));
    assert!(
        ev.iter()
            .any(|t| t.contains("Greymon (5000 DP) against Gomamon (3000 DP)")),
        "{ev:?}"
    );
    assert!(
        !ev.iter().any(|t| t.contains("Greymon is deleted")),
        "{ev:?}"
    );
    assert!(m.field(Seat::P2).is_empty());
}

#[test]
fn rule_inherited_effects_from_under_only() {
    // Koromon under Agumon: none of its text applies (3 cards needed);
    // Agumon under Greymon gives +1000 on its owner's turn.
    let mut m = turn3();
    let g = put(&mut m, Seat::P1, &["Agumon", "Greymon"], false);
    let a = put(&mut m, Seat::P1, &["Agumon"], false);
    assert_eq!(m.dp_of(g), 6000);
    assert_eq!(
        m.dp_of(a),
        3000,
        "a top card's inherited effect does nothing"
    );
}
#[test]
fn rule_security_digimon_equal_dp_deletes_attacker() {
    // P2's top security card (the 10th) is an Agumon (3000 DP).
    let mut m = game(
        &["5x Agumon", FILLER],
        &["5x Gabumon", "4x Hawkmon", "Agumon", FILLER],
    );
    step(&mut m, Seat::P1, "play Agumon");
    step(&mut m, Seat::P2, "pass");
    let ev = texts(&step(&mut m, Seat::P1, "Agumon attacks player"));
    assert!(
        ev.iter().any(|t| t.contains("P2's Agumon is revealed")),
        "{ev:?}"
    );
    assert!(
        ev.iter().any(|t| t.contains("P1's Agumon is deleted")),
        "{ev:?}"
    );
    assert_eq!(m.security_count(Seat::P2), 4);
}

#[test]
fn rule_kw_jamming_survives_security_battles() {
    let mut m = game(
        &["5x Hawkmon", FILLER],
        &["5x Agumon", "4x Hawkmon", "Greymon", FILLER],
    );
    step(&mut m, Seat::P1, "pass");
    step(&mut m, Seat::P2, "pass");
    put(&mut m, Seat::P1, &["Garurumon"], false);
    let ev = texts(&step(&mut m, Seat::P1, "Garurumon attacks player"));
    assert!(
        ev.iter().any(|t| t.contains("Greymon is revealed")),
        "{ev:?}"
    );
    assert!(
        !ev.iter().any(|t| t.contains("Garurumon is deleted")),
        "{ev:?}"
    );
}

#[test]
fn rule_attack_on_empty_security_wins() {
    let mut m = game(&["5x Agumon", FILLER], &["5x Gabumon", FILLER]);
    m.seats[1].security.clear();
    step(&mut m, Seat::P1, "play Agumon");
    step(&mut m, Seat::P2, "pass");
    let ev = texts(&step(&mut m, Seat::P1, "Agumon attacks player"));
    assert_eq!(m.outcome(), Some(Outcome::Win(Seat::P1)), "{ev:?}");
}

#[test]
fn rule_checking_last_card_does_not_win() {
    let mut m = game(&["5x Agumon", FILLER], &["5x Gabumon", FILLER]);
    m.seats[1].security.truncate(1);
    step(&mut m, Seat::P1, "play Agumon");
    step(&mut m, Seat::P2, "pass");
    step(&mut m, Seat::P1, "Agumon attacks player");
    assert_eq!(m.security_count(Seat::P2), 0);
    assert_eq!(m.outcome(), None);
}

#[test]
fn rule_lose_by_deck_out_in_draw_phase() {
    // P2 has exactly 10 cards: hand and security; its first draw loses.
    let mut m = game(&["5x Agumon", FILLER], &["10x Gabumon"]);
    step(&mut m, Seat::P1, "pass");
    assert_eq!(m.outcome(), Some(Outcome::Win(Seat::P1)));
}

#[test]
fn rule_kw_blocker_switches_target() {
    let mut m = game(&["5x Agumon", FILLER], &["5x Penguinmon", FILLER]);
    step(&mut m, Seat::P1, "play Agumon");
    step(&mut m, Seat::P2, "play Penguinmon");
    step(&mut m, Seat::P2, "pass");
    step(&mut m, Seat::P1, "Agumon attacks player");
    assert_eq!(m.waiting(), Some((Seat::P2, Ask::Block)));
    let ev = texts(&step(&mut m, Seat::P2, "block with Penguinmon"));
    // Penguinmon 4000 (+1000 on P2's... no: [Opponent's Turn] is Betamon's).
    assert!(ev.iter().any(|t| t.contains("blocks")), "{ev:?}");
    assert_eq!(
        m.security_count(Seat::P2),
        5,
        "a blocked attack checks nothing"
    );
}

#[test]
fn rule_kw_evade_saves_by_suspending() {
    let mut m = turn3();
    let c = cid(&mut m, numbers(&["Gaia Force"])[0]);
    m.seats[0].hand.push(c);
    put(&mut m, Seat::P1, &["Agumon"], false);
    put(
        &mut m,
        Seat::P2,
        &["Gabumon", "Garurumon", "WereGarurumon"],
        false,
    );
    // Gaia Force: delete a Digimon with 10000 DP or less.
    step(&mut m, Seat::P1, "use Gaia Force");
    assert_eq!(m.waiting(), Some((Seat::P2, Ask::Prevent)));
    let ev = texts(&step(&mut m, Seat::P2, "evade"));
    assert!(ev.iter().any(|t| t.contains("<Evade>")), "{ev:?}");
    // Saved; the turn then passed (Gaia Force cost 7 of 3), so P2's
    // unsuspend phase has stood it up again.
    assert_eq!(m.field(Seat::P2).len(), 1);
    assert_eq!(m.turn_player(), Seat::P2);
}

#[test]
fn rule_once_per_turn_per_card() {
    // Biyomon's [When Attacking] (Once Per Turn) gain 1 memory, under
    // Birdramon; P2 at 3 or fewer security.
    let mut m = turn3();
    let b = put(&mut m, Seat::P1, &["Biyomon", "Birdramon"], false);
    m.seats[1].security.truncate(3);
    let ev = texts(&step(&mut m, Seat::P1, "Birdramon attacks player"));
    assert!(ev.iter().any(|t| t.contains("gain 1 memory")), "{ev:?}");
    assert_eq!(m.memory_of(Seat::P1), 4);
    m.find_mut(b).unwrap().suspended = false;
    let ev = texts(&step(&mut m, Seat::P1, "Birdramon attacks player"));
    assert!(!ev.iter().any(|t| t.contains("gain 1 memory")), "{ev:?}");
    assert_eq!(m.memory_of(Seat::P1), 4, "once per turn");
}
#[test]
fn rule_dp_never_negative() {
    let mut m = turn3();
    let a = put(&mut m, Seat::P2, &["Agumon"], false);
    m.turn_dp.push((a, -9));
    assert_eq!(m.dp_of(a), 0, "3000 - 9000 is 0, not below");
}

#[test]
fn rule_first_player_random_from_seed() {
    let red = deck::embedded("red", set()).unwrap().unwrap();
    let blue = deck::embedded("blue", set()).unwrap().unwrap();
    let first = |seed| {
        let m = Match::from_setup(
            &<Match as Ruleset>::setup_for(vec![red.clone(), blue.clone()], seed),
            set(),
        )
        .unwrap();
        m.first
    };
    let firsts: Vec<Seat> = (0..40).map(first).collect();
    assert!(firsts.contains(&Seat::P1) && firsts.contains(&Seat::P2));
    assert_eq!(first(7), first(7), "the same seed, the same first player");
}

#[test]
fn rule_counter_timing_window() {
    // No card of the set has a [Counter] effect: the window passes without
    // a question to the defender (no blocker either), straight to the check.
    let mut m = turn3();
    put(&mut m, Seat::P1, &["Agumon"], false);
    put(&mut m, Seat::P2, &["Gabumon"], false);
    step(&mut m, Seat::P1, "Agumon attacks player");
    assert_eq!(m.security_count(Seat::P2), 4);
    assert_eq!(m.waiting().map(|w| w.0), Some(Seat::P1));
}

#[test]
fn rule_level_two_and_stray_option_trashed() {
    let mut m = turn3();
    let egg = put(&mut m, Seat::P1, &["Koromon"], false);
    let c = cid(&mut m, numbers(&["Mega Flame"])[0]);
    let mut opt = m.new_perm_for_test(vec![c]);
    opt.since = 0;
    let opt_id = opt.id;
    m.seats[0].field.push(opt);
    m.advance();
    assert!(m.find(egg).is_none() && m.find(opt_id).is_none());
    let trash = names(&m, &m.z(Seat::P1).trash);
    assert!(trash.contains(&"Koromon".to_string()) && trash.contains(&"Mega Flame".to_string()));
    // Not a deletion: no [On Deletion], no "deleted" event.
}

#[test]
fn rule_concede_loses_immediately() {
    let mut m = turn3();
    let ev = texts(&m.apply(Seat::P2, Action::Concede).unwrap());
    assert_eq!(m.outcome(), Some(Outcome::Win(Seat::P1)));
    assert_eq!(ev, vec!["P1 WINS: P2 conceded.".to_string()]);
    assert!(
        m.apply(Seat::P1, Action::Concede).is_err(),
        "the game is over"
    );
}

/// A card set with cards of a test's own, and a stacked game of it.
fn custom(extra: &str, p1: &[&str], p2: &[&str]) -> (CardSet, Match) {
    let cards: Vec<Card> = crate::cards::read_ron(extra).unwrap();
    let s = set().with_cards(&cards).unwrap();
    let resolve = |list: &[&str]| -> Vec<CardNumber> {
        list.iter()
            .flat_map(|e| {
                let (n, name) = match e.split_once("x ") {
                    Some((n, rest)) if n.parse::<usize>().is_ok() => (n.parse().unwrap(), rest),
                    _ => (1, *e),
                };
                let c = resolve(&s, name).unwrap();
                std::iter::repeat_n(c.number(), n)
            })
            .collect()
    };
    let setup = Setup {
        decks: vec![resolve(p1), resolve(p2)],
        seed: 1,
        exempt: vec![(Seat::P1, "test".into()), (Seat::P2, "test".into())],
        stacked: Some(Seat::P1),
        format: Format::Standard,
        engine: super::ENGINE_VERSION,
    };
    let mut m = Match::from_setup(&setup, &s).unwrap();
    for seat in [Seat::P1, Seat::P2] {
        m.apply(seat, Action::Keep).unwrap();
    }
    (s, m)
}

#[test]
fn rule_multicolour_card_has_every_colour() {
    // A red and blue Option needs both colours among the user's Digimon
    // and Tamers; a red and blue Digimon meets a red or a blue requirement.
    let (_, mut m) = custom(
        r#"[Dcg(number: "ST9-01", name: "Twin Flame", kind: Option, colors: [Red, Blue], cost: 1,
                effects: ["[Main] <Draw 1>."]),
            Dcg(number: "ST9-02", name: "Bicolormon", kind: Digimon, colors: [Red, Blue], level: 3,
                cost: 2, digivolve: [(color: Red, level: 2, cost: 0)], dp: 3000)]"#,
        &[
            "Twin Flame",
            "Bicolormon",
            "Agumon",
            "2x Gabumon",
            "10x Hawkmon",
            "Garurumon",
            "Greymon",
        ],
        &["5x Hawkmon", "10x Hawkmon"],
    );
    step(&mut m, Seat::P1, "pass");
    step(&mut m, Seat::P2, "pass");
    step(&mut m, Seat::P1, "play Agumon");
    let twin = Action::UseOption { card: 0 };
    assert!(
        !m.legal_actions(Seat::P1).contains(&twin),
        "red alone is not enough"
    );
    let why = rule_refusal(m.why_not(Seat::P1, twin));
    assert!(
        why.contains("red and blue") && why.contains("DCG-MAIN-9"),
        "{why}"
    );
    step(&mut m, Seat::P1, "play Bicolormon");
    assert_eq!(m.turn_player(), Seat::P2, "Bicolormon's cost took the turn");
    step(&mut m, Seat::P2, "pass");
    assert!(
        m.legal_actions(Seat::P1).contains(&twin),
        "red and blue now"
    );
    let bico = m
        .field(Seat::P1)
        .iter()
        .find(|p| m.info(p.top()).name == "Bicolormon")
        .unwrap()
        .clone();
    for name in ["Garurumon", "Greymon"] {
        let c = numbers_in(&m, name);
        assert!(
            m.digivolve_cost(c, &bico).is_some(),
            "{name} onto a red and blue Digimon"
        );
    }
}

#[test]
fn rule_one_trigger_per_simultaneous_event() {
    // Grisly Wing deletes two Digimon at once: a watcher of "one of your
    // other Digimon is deleted" (not once per turn) triggers once.
    let (_, mut m) = custom(
        r#"[Dcg(number: "ST9-03", name: "Watchmon", kind: Digimon, colors: [Blue], level: 3,
                cost: 2, digivolve: [(color: Blue, level: 2, cost: 0)], dp: 5000,
                effects: ["[All Turns] When one of your other Digimon is deleted, gain 1 memory."])]"#,
        &["5x Hawkmon", "10x Hawkmon"],
        &["5x Hawkmon", "10x Hawkmon", "Watchmon"],
    );
    step(&mut m, Seat::P1, "pass");
    step(&mut m, Seat::P2, "pass");
    put(&mut m, Seat::P1, &["Impmon"], false);
    let w = numbers_in(&m, "Watchmon");
    let mut p = m.new_perm_for_test(vec![w]);
    p.since = 0;
    m.seats[1].field.push(p);
    put(&mut m, Seat::P2, &["Biyomon"], false);
    put(&mut m, Seat::P2, &["Lopmon"], false);
    let g = cid(&mut m, numbers(&["Grisly Wing"])[0]);
    m.seats[0].hand.push(g);
    let before = m.memory_of(Seat::P2);
    let ev = texts(&step(&mut m, Seat::P1, "use Grisly Wing"));
    assert_eq!(
        ev.iter().filter(|t| t.ends_with("is deleted.")).count(),
        2,
        "{ev:?}"
    );
    assert_eq!(
        ev.iter().filter(|t| t.contains("gain 1 memory.")).count(),
        1,
        "{ev:?}"
    );
    // P1 paid 5 of 3 (-2 for P1, +2 for P2), then P2 gained 1.
    assert_eq!(m.memory_of(Seat::P2), before + 5 + 1);
}

fn numbers_in(m: &Match, name: &str) -> Cid {
    m.cards.iter().position(|c| c.name == name).unwrap() as Cid
}

#[test]
fn rule_zero_dp_deleted_by_rules() {
    // Hand of Fate: -4000 to a 3000 DP Digimon: 0, deleted by the rules.
    let mut m = turn3();
    put(&mut m, Seat::P1, &["Agumon"], false);
    let c = cid(&mut m, numbers(&["Hand of Fate"])[0]);
    m.seats[0].hand.push(c);
    put(&mut m, Seat::P1, &["Patamon"], false);
    let g = put(&mut m, Seat::P2, &["Gomamon"], false);
    assert_eq!(m.dp_of(g), 3000);
    let ev = texts(&step(&mut m, Seat::P1, "use Hand of Fate"));
    assert!(
        ev.iter().any(|t| t.contains("Gomamon gets -4000 DP")),
        "{ev:?}"
    );
    assert!(
        ev.iter().any(|t| t.contains("P2's Gomamon is deleted")),
        "{ev:?}"
    );
}

#[test]
fn rule_kw_security_attack_adds_checks() {
    let mut m = turn3();
    put(
        &mut m,
        Seat::P1,
        &["Greymon", "MetalGreymon", "WarGreymon"],
        false,
    );
    step(&mut m, Seat::P1, "WarGreymon attacks player");
    assert_eq!(m.security_count(Seat::P2), 3, "1 + <Security Attack +1>");
}

#[test]
fn rule_kw_piercing_checks_after_deleting() {
    let mut m = turn3();
    put(&mut m, Seat::P1, &["Greymon", "MetalGreymon"], false);
    put(&mut m, Seat::P2, &["Gomamon"], true);
    step(&mut m, Seat::P1, "MetalGreymon attacks Gomamon");
    assert!(m.field(Seat::P2).is_empty());
    assert_eq!(m.security_count(Seat::P2), 4, "<Piercing> checked one");
}

#[test]
fn rule_kw_reboot_unsuspends_on_opponent_turn() {
    let mut m = turn3();
    let z = put(&mut m, Seat::P1, &["Ikkakumon", "Zudomon"], true);
    step(&mut m, Seat::P1, "pass");
    assert_eq!(m.turn_player(), Seat::P2);
    assert!(!m.find(z).unwrap().1.suspended);
}

#[test]
fn rule_kw_retaliation_deletes_the_battler() {
    let mut m = turn3();
    put(&mut m, Seat::P1, &["Garurumon"], false);
    put(&mut m, Seat::P2, &["Tsukaimon"], true);
    let ev = texts(&step(&mut m, Seat::P1, "Garurumon attacks Tsukaimon"));
    assert!(
        ev.iter().any(|t| t.contains("P2's Tsukaimon is deleted")),
        "{ev:?}"
    );
    assert!(
        ev.iter().any(|t| t.contains("P1's Garurumon is deleted")),
        "{ev:?}"
    );
}

#[test]
fn rule_kw_armor_purge_trashes_top() {
    let mut m = turn3();
    let c = cid(&mut m, numbers(&["Mega Flame"])[0]);
    m.seats[0].hand.push(c);
    put(&mut m, Seat::P1, &["Agumon"], false);
    let p = put(&mut m, Seat::P2, &["Patamon", "Pegasusmon"], false);
    // Pegasusmon 5000: Gaia Force would do, Mega Flame (4000 or less) not:
    // make it 4000 with Hand of Fate first is too long; use De-Digivolve? Check
    // the offer straight from a deletion instead.
    m.procs.push(flow::Proc::Delete(flow::Deleting {
        ids: vec![p],
        cause: flow::Cause::Effect(Seat::P1),
        asked: 0,
        interrupted: false,
    }));
    m.advance();
    assert_eq!(m.waiting(), Some((Seat::P2, Ask::Prevent)));
    step(&mut m, Seat::P2, "armor purge");
    let (_, perm) = m.find(p).unwrap();
    assert_eq!(m.info(perm.top()).name, "Patamon");
    assert!(names(&m, &m.z(Seat::P2).trash).contains(&"Pegasusmon".to_string()));
}

#[test]
fn rule_kw_decoy_deletes_itself_instead() {
    let mut m = turn3();
    let bake = put(&mut m, Seat::P2, &["Bakemon"], false);
    let imp = put(&mut m, Seat::P2, &["Impmon"], false);
    m.procs.push(flow::Proc::Delete(flow::Deleting {
        ids: vec![imp],
        cause: flow::Cause::Effect(Seat::P1),
        asked: 0,
        interrupted: false,
    }));
    m.advance();
    assert_eq!(m.waiting(), Some((Seat::P2, Ask::Prevent)));
    step(&mut m, Seat::P2, "decoy Bakemon");
    assert!(m.find(imp).is_some());
    assert!(m.find(bake).is_none());
}

#[test]
fn rule_kw_de_digivolve_stops_at_level_three() {
    let mut m = turn3();
    let c = cid(&mut m, numbers(&["Howling Blaster"])[0]);
    m.seats[0].hand.push(c);
    put(&mut m, Seat::P1, &["Gabumon"], false);
    let t = put(&mut m, Seat::P2, &["Koromon", "Agumon"], false);
    step(&mut m, Seat::P1, "use Howling Blaster");
    let (_, p) = m.find(t).unwrap();
    assert_eq!(m.info(p.top()).name, "Agumon", "never past a level 3 card");
}

#[test]
fn rule_kw_recovery_from_deck_top() {
    let mut m = turn3();
    let c = cid(&mut m, numbers(&["Gate of Heaven"])[0]);
    m.seats[0].hand.push(c);
    put(&mut m, Seat::P1, &["Patamon"], false);
    let top = *m.z(Seat::P1).deck.last().unwrap();
    step(&mut m, Seat::P1, "use Gate of Heaven");
    assert_eq!(m.security_count(Seat::P1), 6);
    assert_eq!(*m.z(Seat::P1).security.last().unwrap(), top);
}

#[test]
fn rule_optional_effect_asks_its_player() {
    let mut m = turn3();
    let c = cid(&mut m, numbers(&["Biyomon"])[0]);
    m.seats[0].hand.push(c);
    put(&mut m, Seat::P2, &["Biyomon"], false);
    step(&mut m, Seat::P1, "play Biyomon");
    assert_eq!(m.waiting(), Some((Seat::P1, Ask::Optional)));
    step(&mut m, Seat::P1, "no");
    assert_eq!(m.field(Seat::P2).len(), 1);
}

#[test]
fn rule_security_tamer_plays_itself() {
    let mut m = game(
        &["5x Agumon", FILLER],
        &["5x Gabumon", "4x Hawkmon", "Tai Kamiya", FILLER],
    );
    step(&mut m, Seat::P1, "play Agumon");
    step(&mut m, Seat::P2, "pass");
    step(&mut m, Seat::P1, "Agumon attacks player");
    assert_eq!(m.field(Seat::P2).len(), 1);
    assert_eq!(m.info(m.field(Seat::P2)[0].top()).name, "Tai Kamiya");
}

#[test]
fn rule_start_of_turn_effect_before_unsuspend() {
    let mut m = turn3();
    put(&mut m, Seat::P2, &["Gomamon"], false);
    let _ = put(&mut m, Seat::P1, &["Agumon"], false);
    let matt = cid(&mut m, numbers(&["Matt Ishida"])[0]);
    let mut p = m.new_perm_for_test(vec![matt]);
    p.since = 0;
    m.seats[0].field.push(p);
    step(&mut m, Seat::P1, "pass");
    step(&mut m, Seat::P2, "pass");
    // P1's turn: Matt Ishida gains 1 memory (P2 has a bare Digimon).
    assert_eq!(m.memory_of(Seat::P1), 4);
}
// ----- properties -----

fn random_game(seed: u64, max_actions: usize) -> (Match, usize) {
    let red = deck::embedded(
        ["red", "blue", "yellow", "purple"][(seed % 4) as usize],
        set(),
    )
    .unwrap()
    .unwrap();
    let other = deck::embedded(
        ["purple", "yellow", "blue", "red"][(seed / 4 % 4) as usize],
        set(),
    )
    .unwrap()
    .unwrap();
    let mut m = Match::from_setup(
        &<Match as Ruleset>::setup_for(vec![red, other], seed),
        set(),
    )
    .unwrap();
    let mut rng = Rng64::new(seed ^ 0x5eed);
    let mut n = 0;
    while m.outcome().is_none() && n < max_actions {
        let Some((seat, _)) = m.waiting() else { break };
        let legal = m.legal_actions(seat);
        assert!(
            !legal.is_empty(),
            "asked with no answer at {:?}",
            m.waiting()
        );
        let a = legal[rng.below(legal.len())];
        m.apply(seat, a).unwrap();
        n += 1;
    }
    (m, n)
}

/// Every card of the match, wherever it is (the Offline Area too).
pub(super) fn card_count(m: &Match) -> usize {
    m.seats
        .iter()
        .map(|z| {
            z.deck.len()
                + z.eggs.len()
                + z.hand.len()
                + z.security.len()
                + z.trash.len()
                + z.offline.len()
                + z.breeding.as_ref().map_or(0, |p| p.cards.len())
                + z.field.iter().map(|p| p.cards.len()).sum::<usize>()
        })
        .sum::<usize>()
        + m.procs
            .iter()
            .filter(|p| matches!(p, flow::Proc::Attack(a) if a.revealed.is_some()))
            .count()
}

#[test]
fn random_legal_play_ends() {
    for seed in 0..40 {
        let (m, n) = random_game(seed, 20_000);
        assert!(
            m.outcome().is_some(),
            "seed {seed}: not over after {n} actions"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn every_card_in_exactly_one_zone(seed in 0u64..10_000, steps in 0usize..400) {
        let (m, _) = random_game(seed, steps);
        prop_assert_eq!(card_count(&m), 2 * 54);
    }

    #[test]
    fn an_illegal_action_changes_nothing(seed in 0u64..10_000, steps in 0usize..300, pick in 0u16..64) {
        let (mut m, _) = random_game(seed, steps);
        if let Some((seat, _)) = m.waiting() {
            let other = m.opponent(seat);
            let before = m.state_hash();
            let legal = m.legal_actions(seat);
            for a in [
                Action::Attack { attacker: pick, target: Some(pick) },
                Action::Play { card: pick as u8 },
                Action::Choose { id: pick },
                Action::Pass,
            ] {
                if !legal.contains(&a) {
                    prop_assert!(m.apply(seat, a).is_err());
                }
                prop_assert!(m.apply(other, a).is_err());
            }
            prop_assert_eq!(m.state_hash(), before);
        }
    }

    #[test]
    fn a_view_never_holds_a_hidden_card(seed in 0u64..10_000, steps in 0usize..400) {
        let (m, _) = random_game(seed, steps);
        for me in [Some(Seat::P1), Some(Seat::P2), None] {
            let v = m.view(me);
            prop_assert!(v.well_formed().is_ok());
            for s in &v.seats {
                prop_assert_eq!(s.hand.is_some(), me == Some(s.seat));
            }
            let json = serde_json::to_string(&v).unwrap();
            // No field of a view names the security cards or the deck.
            prop_assert!(!json.contains("\"security\":["));
            prop_assert!(!json.contains("\"deck\":["));
        }
    }
}

#[test]
fn the_same_seed_and_choices_play_the_same_game() {
    for seed in [1u64, 2, 99] {
        let (a, n) = random_game(seed, 5_000);
        let (b, m) = random_game(seed, 5_000);
        assert_eq!(n, m);
        assert_eq!(a.state_hash(), b.state_hash());
    }
}

#[test]
fn rule_breeding_digimon_unaffected_by_effects() {
    // Tai Kamiya's "[Your Turn] All of your Digimon get +1000 DP" reaches
    // the battle area's Agumon, not the breeding area's.
    let mut m = turn3();
    let tai = cid(&mut m, numbers(&["Tai Kamiya"])[0]);
    let mut t = m.new_perm_for_test(vec![tai]);
    t.since = 0;
    m.seats[0].field.push(t);
    let a = put(&mut m, Seat::P1, &["Agumon"], false);
    let koromon = cid(&mut m, numbers(&["Koromon"])[0]);
    let agumon = cid(&mut m, numbers(&["Agumon"])[0]);
    let b = m.new_perm_for_test(vec![koromon, agumon]);
    let bid = b.id;
    m.seats[0].breeding = Some(b);
    assert_eq!(m.dp_of(a), 4000);
    let bred = m.seats[0].breeding.clone().unwrap();
    assert_eq!(bred.id, bid);
    assert_eq!(m.dp(Seat::P1, &bred), 3000);
}

#[test]
fn rule_pending_effect_of_a_card_gone_from_play_does_not_activate() {
    // DCG-EFF-25: Hawkmon's [On Play] <Draw 1> waits; Hawkmon leaves the
    // battle area before it activates. Engine 2 activates nothing; engine 1
    // (its replays) drew the card.
    for (engine, drawn) in [(2, 0), (1, 1)] {
        let mut m = turn3();
        m.engine = engine;
        let id = put(&mut m, Seat::P1, &["Hawkmon"], false);
        let hawkmon = m.find(id).map(|(_, p)| p.top()).unwrap();
        m.pending.push(flow::Trig {
            owner: Seat::P1,
            source: flow::Source::Perm(id),
            card: hawkmon,
            slot: 0,
            inherited: false,
            group: 0,
        });
        let gone = m.seats[0].field.pop().unwrap();
        m.seats[0].trash.extend(gone.cards);
        let hand = m.hand(Seat::P1).len();
        m.log.clear();
        m.advance();
        assert_eq!(m.hand(Seat::P1).len(), hand + drawn, "engine {engine}");
        assert!(m.pending.is_empty(), "engine {engine}");
        let activated = m.log.iter().any(|e| matches!(e, Event::Effect { .. }));
        assert_eq!(activated, engine == 1, "engine {engine}: {:?}", m.log);
        assert_eq!(m.waiting(), Some((Seat::P1, Ask::Main)), "engine {engine}");
    }
}

#[test]
fn rule_n_versus_up_to_n_targets() {
    // DCG-EFF-22: Zudomon's [When Digivolving] suspends "up to 2" of the
    // opponent's Digimon. Before a pick, "done" is no answer and the
    // question says at least 1 is taken; after one pick it may stop.
    let mut m = game(
        &["ST2-06", "ST2-10", "3x ST1-05", "5x ST1-16", "5x ST1-05"],
        &["ST1-02", "ST3-04", "3x ST2-03", "5x ST2-02", "5x ST2-03"],
    );
    step(&mut m, Seat::P1, "play Garurumon");
    step(&mut m, Seat::P2, "play Lopmon");
    step(&mut m, Seat::P2, "play Agumon");
    step(&mut m, Seat::P2, "pass");
    step(&mut m, Seat::P1, "digivolve Garurumon into Zudomon");
    let asked = |m: &Match| {
        <Match as Ruleset>::question(m, Seat::P1, &[], set())
            .expect("a question")
            .prompt
            .text
    };
    assert!(!m.legal_actions(Seat::P1).contains(&Action::Done));
    assert!(
        asked(&m).contains("at least 1, then \"done\""),
        "{}",
        asked(&m)
    );
    assert!(read_step(&m, Seat::P1, "done", set()).is_err());
    step(&mut m, Seat::P1, "choose Agumon");
    assert!(m.legal_actions(Seat::P1).contains(&Action::Done));
    assert!(asked(&m).contains("or \"done\" to stop"), "{}", asked(&m));
    let events = texts(&step(&mut m, Seat::P1, "done"));
    assert!(
        events.iter().any(|e| e == "P2's Agumon is suspended."),
        "{events:?}"
    );
    assert!(
        !events.iter().any(|e| e.contains("Lopmon is suspended")),
        "{events:?}"
    );
}

/// A battle's line says who won it (the newcomer's report: a security
/// battle the attacker won said nothing after the DP); who is deleted for
/// it follows in its own line, since a Security Digimon never is and
/// <Jamming> may save an attacker (DCG-BTL-1, DCG-SEC-6).
#[test]
fn a_battle_line_names_who_won() {
    let n = |s: &str| numbers(&[s])[0];
    let battle = |a: u32, d: u32| Event::Battle {
        attacker: (n("Greymon"), a),
        defender: (n("Garurumon"), d),
    };
    let lines = texts(&[battle(5000, 4000), battle(4000, 5000), battle(5000, 5000)]);
    assert!(
        lines[0].ends_with("(4000 DP). Greymon wins."),
        "{}",
        lines[0]
    );
    assert!(
        lines[1].ends_with("(5000 DP). Garurumon wins."),
        "{}",
        lines[1]
    );
    assert!(lines[2].ends_with("(5000 DP). A tie."), "{}", lines[2]);
}

/// A LAN seat's keyboard refuses a move with the words the terminal uses
/// (`Ruleset::refusals`, sent with the question): every line it carries
/// reads, at the match, as that same refusal.
#[test]
fn a_lan_seat_hears_the_refusals_the_terminal_gives() {
    let cards = set();
    let mut m = red_against_blue(6);
    let mut rng = Rng64::new(6);
    let (mut checked, mut named_rule) = (0, false);
    for _ in 0..300 {
        let Some((s, _)) = m.waiting() else { break };
        let lines = Ruleset::refusals(&m, s, cards);
        assert!(lines.len() <= crate::rules::script::MOST_REFUSALS);
        // A line the question's keys answer never comes to a refusal.
        let q = Ruleset::question(&m, s, &[], cards).unwrap();
        for (line, why) in lines
            .iter()
            .filter(|l| q.prompt.reply(&l.0).is_none())
            .take(25)
        {
            assert_eq!(m.refusal(s, line, cards).as_ref(), Some(why), "{line}");
            checked += 1;
            named_rule |= why.contains("(DCG-");
        }
        let other = Seat::all(2).find(|o| *o != s).unwrap();
        assert!(Ruleset::refusals(&m, other, cards).is_empty());
        let legal = m.legal_actions(s);
        m.apply(s, legal[rng.below(legal.len())]).unwrap();
    }
    assert!(checked > 100 && named_rule, "{checked}");
}

/// A refusal by a rule itself (not whose move it is, nor another
/// question): its words.
fn rule_refusal(why: WhyNot) -> String {
    match why {
        WhyNot::Rule(words) => words,
        other => panic!("not a rule's refusal: {other:?}"),
    }
}

/// A refusal says what kind it is, so a step reader can say more of a
/// rule than of whose move it is, without reading its words.
#[test]
fn a_refusal_says_whose_move_another_question_or_a_rule() {
    let m = red_against_blue(3);
    let (asked, ask) = m.waiting().unwrap();
    assert_eq!(ask, Ask::Mulligan);
    let other = Seat::all(2).find(|s| *s != asked).unwrap();
    assert!(
        matches!(m.why_not(other, Action::Keep), WhyNot::NotYours(w) if w.contains(&format!("it is {asked}'s move")))
    );
    assert!(
        matches!(m.why_not(asked, Action::NoBlock), WhyNot::OtherQuestion(w) if w.starts_with("the question now is"))
    );
    assert!(
        matches!(m.why_not(asked, Action::MoveOut), WhyNot::Rule(w) if w.contains("DCG-TURN-8"))
    );
}

/// Test cards that forbid: Wardmon's continuous "can't attack" in its
/// opponent's turn, and Gatemon's "can't block" for the turn.
const FORBIDDING: &str = r#"[
    Dcg(number: "ST9-04", name: "Wardmon", kind: Digimon, colors: [Yellow], level: 3, cost: 3,
        digivolve: [(color: Yellow, level: 2, cost: 0)], dp: 3000,
        effects: ["[Opponent's Turn] All of your opponent's Digimon can't attack."]),
    Dcg(number: "ST9-05", name: "Gatemon", kind: Digimon, colors: [Red], level: 3, cost: 0,
        digivolve: [(color: Red, level: 2, cost: 0)], dp: 1000,
        effects: ["[On Play] 1 of your opponent's Digimon can't block."]),
]"#;

/// A Digimon of a match's own cards straight into `seat`'s battle area,
/// in play since `since`; returns its id.
fn put_own(m: &mut Match, seat: Seat, name: &str, since: u32) -> u16 {
    let c = m
        .cards
        .iter()
        .position(|c| c.name == name || c.number.to_string() == name)
        .unwrap() as Cid;
    let mut p = m.new_perm_for_test(vec![c]);
    p.since = since;
    let id = p.id;
    m.seats[seat.index()].field.push(p);
    id
}

#[test]
fn rule_prohibition_beats_permission() {
    // P1's Greymon comes into play this turn: <Rush> permits its attack.
    // P2's Wardmon says P1's Digimon can't attack in P1's turn: the
    // prohibition wins (DCG-EFF-4), and the refusal says so.
    let (_, mut m) = custom(
        FORBIDDING,
        &["5x Hawkmon", "9x Hawkmon", "Gatemon", "BT1-028"],
        &["5x Hawkmon", "10x Hawkmon", "Wardmon"],
    );
    step(&mut m, Seat::P1, "pass");
    step(&mut m, Seat::P2, "pass");
    let now = m.turn;
    // BT1-028 Greymon has <Rush>.
    let greymon = put_own(&mut m, Seat::P1, "BT1-028", now);
    let attack = Action::Attack {
        attacker: greymon,
        target: None,
    };
    assert!(
        m.legal_actions(Seat::P1).contains(&attack),
        "<Rush>: it attacks the turn it came"
    );
    let ward = put_own(&mut m, Seat::P2, "Wardmon", 0);
    assert!(!m.legal_actions(Seat::P1).contains(&attack));
    let why = rule_refusal(m.why_not(Seat::P1, attack));
    assert!(
        why.contains("can't attack") && why.contains("DCG-EFF-4"),
        "{why}"
    );
    // Gone Wardmon, the permission stands again.
    m.seats[1].field.retain(|p| p.id != ward);
    assert!(m.legal_actions(Seat::P1).contains(&attack));

    // Gatemon's [On Play]: P2's Syakomon (<Blocker>) can't block this
    // turn; P1's attack then asks P2 nothing, and a block is refused with
    // the rule.
    let syakomon = put(&mut m, Seat::P2, &["Syakomon"], false);
    let gatemon = numbers_in(&m, "Gatemon");
    m.seats[0].hand.push(gatemon);
    let ev = texts(&step(&mut m, Seat::P1, "play Gatemon"));
    assert!(
        ev.iter()
            .any(|e| e == "P2's Syakomon can't block this turn."),
        "{ev:#?}"
    );
    assert_eq!(m.turn_player(), Seat::P1, "Gatemon costs 0");
    step(&mut m, Seat::P1, "Greymon attacks player");
    assert_ne!(m.waiting().map(|w| w.0), Some(Seat::P2), "no block asked");
    let why = rule_refusal(m.why_not(Seat::P2, Action::Block { blocker: syakomon }));
    assert!(
        why.contains("Syakomon can't block") && why.contains("DCG-EFF-4"),
        "{why}"
    );
}

/// The shipped red deck against the blue, with this seed, before the
/// opening hands are kept.
fn red_against_blue(seed: u64) -> Match {
    let cards = set();
    let deck = |name: &str| super::deck::embedded(name, cards).unwrap().unwrap();
    let setup = <Match as Ruleset>::setup_for(vec![deck("red"), deck("blue")], seed);
    Match::from_setup(&setup, cards).unwrap()
}
