//! The Digimon Card Game's replays: CPU games replay to their hash, and a
//! replay of an earlier build still verifies.

use crate::cards::CardSet;
use crate::rules::Ruleset;
use crate::rules::dcg::{Match, deck};

#[test]
fn replays_reproduce_the_final_hash() {
    use super::Replay;
    use crate::session::{Player, Table, drive_cpus};
    let cards = CardSet::embedded();
    let n: u64 = std::env::var("BTERM_DCG_REPLAYS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(16);
    let names: Vec<&str> = deck::EMBEDDED.iter().map(|(n, _)| *n).collect();
    for seed in 0..n {
        let decks = vec![
            deck::embedded(names[seed as usize % 4], &cards)
                .unwrap()
                .unwrap(),
            deck::embedded(names[(seed as usize / 4 + 1 + seed as usize) % 4], &cards)
                .unwrap()
                .unwrap(),
        ];
        let cpu = |s: &str| s.parse::<Player>().unwrap();
        let players = vec![cpu("easy"), cpu("normal")];
        let mut t: Table<Match> =
            Table::new(<Match as Ruleset>::setup_for(decks, seed), &cards, players).unwrap();
        drive_cpus(&mut t, &cards);
        assert!(t.is_over(), "seed {seed} did not end");
        let text = crate::cards::write_ron(&Replay::of(&t)).unwrap();
        let back = Replay::<Match>::parse(&text, "mem").unwrap();
        let m = back.play(&cards, |_| {}).unwrap();
        assert_eq!(m.state_hash(), t.game().state_hash(), "seed {seed}");
    }
}

/// A replay saved by this ruleset's first build still plays the same game
/// to the same hash.
#[test]
fn replays_from_an_earlier_build_still_verify() {
    use super::Replay;
    let cards = CardSet::embedded();
    let text = std::fs::read_to_string("tests/fixtures/dcg-replay-2-seats.ron").unwrap();
    let r = Replay::<Match>::parse(&text, "dcg-replay-2-seats.ron").unwrap();
    let end = r.play(&cards, |_| {}).unwrap();
    assert!(end.outcome().is_some(), "a whole game");
}
