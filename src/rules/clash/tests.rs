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
