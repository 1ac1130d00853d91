//! The Digimon Card Game's replays: CPU games replay to their hash, and a
//! replay of an earlier build still verifies.

use crate::cards::CardSet;
use crate::rules::Ruleset;
use crate::rules::dcg::{Match, deck};

#[test]
fn replays_reproduce_the_final_hash() {
    use crate::session::Player;
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
        replays_to_its_hash(<Match as Ruleset>::setup_for(decks, seed), players, &cards);
    }
}

/// Plays a CPU game of `setup` to its end, saves its replay as a file
/// holds it, reads it back and plays it to the same hash.
fn replays_to_its_hash(
    setup: crate::rules::dcg::Setup,
    players: Vec<crate::session::Player>,
    cards: &CardSet,
) {
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

/// Games of 3 and 4 seats (the LAN format, standard decks and the Players
/// Format) replay to their hash.
#[test]
fn lan_format_replays_reproduce_the_final_hash() {
    use crate::rules::Seat;
    use crate::rules::dcg::Format;
    use crate::session::Player;
    let cards = CardSet::embedded();
    let standard: Vec<&str> = deck::EMBEDDED.iter().map(|(n, _)| *n).collect();
    let players: Vec<&str> = deck::PLAYERS_EMBEDDED.iter().map(|(n, _)| *n).collect();
    for seed in 0..6u64 {
        let seats = 3 + (seed % 2) as usize;
        let format = if seed < 3 {
            Format::Standard
        } else {
            Format::Players
        };
        let names = if format == Format::Players {
            &players
        } else {
            &standard
        };
        let decks = (0..seats)
            .map(|i| {
                deck::embedded(names[(i + seed as usize) % names.len()], &cards)
                    .unwrap()
                    .unwrap()
            })
            .collect();
        let cpu = |s: &str| s.parse::<Player>().unwrap();
        let who = Seat::all(seats)
            .map(|s| cpu(if s.index() % 2 == 0 { "normal" } else { "easy" }))
            .collect();
        let mut setup = <Match as Ruleset>::setup_for(decks, seed);
        setup.format = format;
        replays_to_its_hash(setup, who, &cards);
    }
}

/// Replays of 3 and 4 seat games saved by the build that brought the LAN
/// format still play to the same hash.
#[test]
fn lan_format_replays_from_an_earlier_build_still_verify() {
    use super::Replay;
    let cards = CardSet::embedded();
    for (file, seats) in [
        ("tests/fixtures/dcg-replay-3-seats.ron", 3),
        ("tests/fixtures/dcg-replay-4-seats.ron", 4),
    ] {
        let text = std::fs::read_to_string(file).unwrap();
        let r = Replay::<Match>::parse(&text, file).unwrap();
        let end = r.play(&cards, |_| {}).unwrap();
        assert!(end.outcome().is_some(), "{file}: a whole game");
        assert_eq!(Ruleset::seats(&end), seats);
    }
}
