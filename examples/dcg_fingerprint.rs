//! Plays seeded random legal Digimon Card Game games and prints one line
//! of fingerprints a game: a hash of every legal action list offered
//! (whole, in order), of the action taken, of every action's events, and
//! the state hash after every action, then the final state hash. Two
//! builds that print the same lines play the same games; run it before and
//! after a change to the engine and compare the outputs.
//! Each game is played a second time quiet (no events kept), and must go
//! through the same states.
//! `dcg_fingerprint [GAMES]` (2, 3 and 4 seats, every shipped deck).

use std::hash::{Hash, Hasher};

use bterm::cards::CardSet;
use bterm::rules::Ruleset;
use bterm::rules::alpha::Rng64;
use bterm::rules::dcg::{Format, Match, Setup, deck};

fn main() {
    let games: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(3000);
    let cards = CardSet::embedded();
    let standard: Vec<_> = deck::EMBEDDED
        .iter()
        .map(|(n, _)| deck::embedded(n, &cards).unwrap().unwrap())
        .collect();
    let players: Vec<_> = deck::PLAYERS_EMBEDDED
        .iter()
        .map(|(n, _)| deck::embedded(n, &cards).unwrap().unwrap())
        .collect();
    for g in 0..games {
        // Most games at 2 seats; every fifth at 3 or 4 seats, half of
        // those in the Players Format.
        let seats = if g % 5 == 4 {
            3 + (g / 5 % 2) as usize
        } else {
            2
        };
        let format = if seats > 2 && (g / 10).is_multiple_of(2) {
            Format::Players
        } else {
            Format::Standard
        };
        let pool = if format == Format::Players {
            &players
        } else {
            &standard
        };
        let decks = (0..seats)
            .map(|s| pool[(g as usize + s * (1 + g as usize / pool.len())) % pool.len()].clone())
            .collect();
        let setup = Setup {
            format,
            ..<Match as Ruleset>::setup_for(decks, g)
        };
        let mut m = Match::from_setup(&setup, &cards).unwrap();
        // The same game kept quiet (no events) goes through the same states.
        let mut quiet = m.clone();
        quiet.set_quiet(true);
        let mut rng = Rng64::new(g ^ 0x5eed);
        let mut h = std::collections::hash_map::DefaultHasher::new();
        format!("{:?}", m.opening_events()).hash(&mut h);
        m.state_hash().hash(&mut h);
        let mut actions = 0u32;
        while let Some((seat, _)) = m.waiting() {
            let legal = m.legal_actions(seat);
            format!("{legal:?}").hash(&mut h);
            let pick = rng.below(legal.len());
            (seat.index(), pick, legal.len()).hash(&mut h);
            let events = m.apply(seat, legal[pick]).unwrap();
            format!("{events:?}").hash(&mut h);
            m.state_hash().hash(&mut h);
            assert_eq!(quiet.legal_actions(seat), legal, "game {g}");
            assert!(quiet.apply(seat, legal[pick]).unwrap().is_empty());
            assert_eq!(quiet.state_hash(), m.state_hash(), "game {g}");
            actions += 1;
        }
        println!(
            "{g} seats={seats} {format:?} actions={actions} turn={} outcome={:?} trace={:016x} final={:016x}",
            m.turn(),
            m.outcome(),
            h.finish(),
            m.state_hash()
        );
    }
}
