//! Alpha Clash's replays: CPU games replay to their hash, and replays of
//! an earlier build still verify.

use crate::cards::CardSet;
use crate::rules::clash::{Match, deck};
use crate::rules::{Ruleset, Seat};
use crate::session::Player;

#[test]
fn replays_reproduce_the_final_hash() {
    let cards = CardSet::embedded();
    let n: u64 = std::env::var("BTERM_CLASH_REPLAYS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(12);
    let names: Vec<&str> = deck::EMBEDDED.iter().map(|(n, _)| *n).collect();
    for seed in 0..n {
        // Two seats mostly; every fourth game three or four.
        let seats = if seed % 4 == 3 {
            3 + (seed / 4 % 2) as usize
        } else {
            2
        };
        let decks = (0..seats)
            .map(|i| {
                deck::embedded(names[(i + seed as usize) % names.len()], &cards)
                    .unwrap()
                    .unwrap()
            })
            .collect();
        let who = Seat::all(seats)
            .map(|s| {
                (if s.index() % 2 == 0 { "easy" } else { "normal" })
                    .parse::<Player>()
                    .unwrap()
            })
            .collect();
        replays_to_its_hash(<Match as Ruleset>::setup_for(decks, seed), who, &cards);
    }
}

/// Plays a CPU game of `setup` to its end, saves its replay as a file
/// holds it, reads it back and plays it to the same hash.
fn replays_to_its_hash(setup: crate::rules::clash::Setup, players: Vec<Player>, cards: &CardSet) {
    use super::Replay;
    use crate::session::{Table, drive_cpus};
    let seed = setup.seed;
    let mut t: Table<Match> = Table::new(setup, cards, players).unwrap();
    drive_cpus(&mut t, cards);
    assert!(t.is_over(), "seed {seed} did not end");
    let text = crate::cards::write_ron(&Replay::of(&t)).unwrap();
    let back = Replay::<Match>::parse(&text, "mem").unwrap();
    let m = back.play(cards, |_| {}).unwrap();
    assert_eq!(m.state_hash(), t.game().state_hash(), "seed {seed}");
}

/// Replays saved by this ruleset's first build (2 and 3 seats) still play
/// the same game to the same end, by the engine that recorded them.
#[test]
fn replays_from_an_earlier_build_still_verify() {
    use super::Replay;
    let cards = CardSet::embedded();
    for (file, seats) in [
        ("tests/fixtures/clash-replay-2-seats.ron", 2),
        ("tests/fixtures/clash-replay-3-seats.ron", 3),
    ] {
        let text = std::fs::read_to_string(file).unwrap();
        let r = Replay::<Match>::parse(&text, file).unwrap();
        // Played by the engine that recorded it (engine 1: abilities
        // without a round of priority, CL-D4).
        assert_eq!(r.setup.engine, 1, "{file}");
        let end = r.play(&cards, |_| {}).unwrap();
        assert!(end.outcome().is_some(), "{file}: a whole game");
        assert_eq!(Ruleset::seats(&end), seats);
    }
}
