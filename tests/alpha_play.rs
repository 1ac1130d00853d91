//! Whole Card Game Alpha games: random legal play over many seeds never
//! panics, always ends within a bound, keeps every card in exactly one
//! place, and an illegal action changes nothing.

use bterm::cards::CardSet;
use bterm::rules::Seat;
use bterm::rules::alpha::{Action, Match, Rng64, Setup, deck};

fn decks(cards: &CardSet, names: &[&str]) -> Vec<Vec<bterm::cards::CardNumber>> {
    names
        .iter()
        .map(|n| deck::embedded(n, cards).expect("shipped").expect("legal"))
        .collect()
}

/// Plays random legal actions; returns the actions taken.
fn random_game(cards: &CardSet, names: &[&str], seed: u64, check: bool) -> (Match, usize) {
    let setup = Setup::new(decks(cards, names), seed);
    let mut m = Match::from_setup(&setup, cards).expect("setup");
    let mut rng = Rng64::new(seed ^ 0xABCD);
    let total: usize = setup.decks.iter().map(Vec::len).sum();
    let mut n = 0;
    while m.outcome().is_none() {
        let seat = m
            .waiting_for()
            .expect("someone is asked while the game goes on");
        let legal = m.legal_actions(seat);
        assert!(!legal.is_empty());
        // Fewer target switches and "done"s in a hurry keep games real.
        let a = legal[rng.below(legal.len())];
        m.apply(seat, a).expect("a legal action applies");
        n += 1;
        assert!(n < 200_000, "seed {seed}: no end after {n} actions");
        if check {
            assert_eq!(
                count_cards(&m),
                total,
                "seed {seed}: cards appeared or vanished"
            );
        }
    }
    (m, n)
}

fn count_cards(m: &Match) -> usize {
    let s = serde_json::to_value(m).unwrap();
    let mut n = 0;
    for st in s["seats"].as_array().unwrap() {
        for z in ["ocean", "hand", "dark", "gone"] {
            n += st[z].as_array().unwrap().len();
        }
        for mon in st["digimon"].as_array().unwrap() {
            n += 1;
            for p in mon["stack"].as_array().unwrap() {
                n += 1 + usize::from(!p["partner"].is_null());
            }
        }
        n += st["options"].as_array().unwrap().len();
    }
    if let Some(b) = s["battle"].as_object() {
        for side in b["sides"].as_array().unwrap() {
            n += side["commands"].as_array().unwrap().len();
        }
    }
    n
}

#[test]
fn random_two_seat_games_end_and_keep_every_card() {
    let cards = CardSet::embedded();
    let pairs = [
        ["courage", "friendship"],
        ["nightmare", "jogress"],
        ["sky-and-sea", "courage"],
        ["jogress", "friendship"],
    ];
    for seed in 0..40u64 {
        let names = pairs[seed as usize % pairs.len()];
        let (m, _) = random_game(&cards, &names, seed, true);
        assert!(m.outcome().is_some());
    }
}

#[test]
fn random_three_and_four_seat_games_end() {
    let cards = CardSet::embedded();
    for seed in 0..12u64 {
        let names: &[&str] = if seed % 2 == 0 {
            &["courage", "friendship", "nightmare"]
        } else {
            &["courage", "friendship", "nightmare", "jogress"]
        };
        let (m, _) = random_game(&cards, names, seed, true);
        assert!(m.outcome().is_some());
    }
}

#[test]
fn an_illegal_action_changes_nothing() {
    let cards = CardSet::embedded();
    let setup = Setup::new(decks(&cards, &["courage", "nightmare"]), 5);
    let mut m = Match::from_setup(&setup, &cards).unwrap();
    let mut rng = Rng64::new(1);
    for _ in 0..300 {
        if m.outcome().is_some() {
            break;
        }
        let seat = m.waiting_for().unwrap();
        let other = Seat::new(1 - seat.index()).unwrap();
        let before = m.state_hash();
        for bad in [
            Action::Done,
            Action::Pass,
            Action::NoBlock,
            Action::Attack(None),
        ] {
            if !m.legal_actions(other).contains(&bad) {
                assert!(m.apply(other, bad).is_err());
            }
            if !m.legal_actions(seat).contains(&bad) {
                assert!(m.apply(seat, bad).is_err());
            }
        }
        assert_eq!(m.state_hash(), before);
        let legal = m.legal_actions(seat);
        m.apply(seat, legal[rng.below(legal.len())]).unwrap();
    }
}
