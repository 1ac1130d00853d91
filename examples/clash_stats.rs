//! Plays seeded Alpha Clash games between CPU strengths, seats
//! swapped every other game, and prints how they end:
//! `clash_stats [GAMES] [P1 strength] [P2 strength]` (`make clash-strength`).

use bterm::ai::Strength;
use bterm::cards::CardSet;
use bterm::rules::clash::{Match, deck};
use bterm::rules::{Outcome, Ruleset, Seat};
use bterm::session::{Player, Table, drive_cpus};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(100);
    let a: Strength = args
        .get(2)
        .and_then(|s| s.parse().ok())
        .unwrap_or(Strength::Normal);
    let b: Strength = args
        .get(3)
        .and_then(|s| s.parse().ok())
        .unwrap_or(Strength::Easy);
    let cards = CardSet::embedded();
    let names: Vec<&str> = deck::EMBEDDED.iter().map(|(n, _)| *n).collect();
    let (mut wins, mut draws, mut turns) = ([0u32; 2], 0u32, 0u64);
    let start = std::time::Instant::now();
    for g in 0..games {
        let d0 = names[(g as usize) % names.len()];
        let d1 = names[(g as usize / names.len() + g as usize) % names.len()];
        let decks = vec![
            deck::embedded(d0, &cards).unwrap().unwrap(),
            deck::embedded(d1, &cards).unwrap().unwrap(),
        ];
        let swap = g % 2 == 1;
        let players = if swap {
            vec![Player::Cpu(b), Player::Cpu(a)]
        } else {
            vec![Player::Cpu(a), Player::Cpu(b)]
        };
        let mut t: Table<Match> =
            Table::new(<Match as Ruleset>::setup_for(decks, g), &cards, players).unwrap();
        drive_cpus(&mut t, &cards);
        turns += u64::from(t.game().turn());
        match t.game().outcome() {
            Some(Outcome::Win(s)) => wins[usize::from((s == Seat::P1) == swap)] += 1,
            _ => draws += 1,
        }
    }
    let n = games.max(1) as f64;
    println!(
        "{games} games, {a} against {b}: {a} won {} ({:.1}%), {b} won {} ({:.1}%), {draws} drawn; {:.1} turns a game; {:.2} s",
        wins[0],
        100.0 * f64::from(wins[0]) / n,
        wins[1],
        100.0 * f64::from(wins[1]) / n,
        turns as f64 / n,
        start.elapsed().as_secs_f64()
    );
}
