//! Plays seeded Card Game Alpha games between CPU strengths and prints how
//! they end: `alpha_stats [GAMES] [P1 strength] [P2 strength]`.

use bterm::ai::Strength;
use bterm::cards::CardSet;
use bterm::rules::alpha::{Event, Match, Setup, deck};
use bterm::rules::{Outcome, Seat};
use bterm::session::{Player, Table, drive_cpus};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(100);
    let a: Strength = args
        .get(2)
        .and_then(|s| s.parse().ok())
        .unwrap_or(Strength::Easy);
    let b: Strength = args
        .get(3)
        .and_then(|s| s.parse().ok())
        .unwrap_or(Strength::Easy);
    let cards = CardSet::embedded();
    let names: Vec<&str> = deck::EMBEDDED.iter().map(|(n, _)| *n).collect();
    let (mut wins, mut draws, mut turns, mut actions) = ([0u32; 2], 0u32, 0u32, 0usize);
    let mut ways = std::collections::BTreeMap::new();
    let start = std::time::Instant::now();
    for g in 0..games {
        let d0 = names[(g as usize) % names.len()];
        let d1 = names[(g as usize / names.len() + 1 + g as usize) % names.len()];
        let decks = vec![
            deck::embedded(d0, &cards).unwrap().unwrap(),
            deck::embedded(d1, &cards).unwrap().unwrap(),
        ];
        // Seats swap every other game.
        let swap = g % 2 == 1;
        let players = if swap {
            vec![Player::Cpu(b), Player::Cpu(a)]
        } else {
            vec![Player::Cpu(a), Player::Cpu(b)]
        };
        let mut t: Table<Match> = Table::new(Setup::new(decks, g), &cards, players).unwrap();
        drive_cpus(&mut t, &cards);
        actions += t.actions().len();
        turns += t.game().turn();
        match t.game().outcome() {
            Some(Outcome::Win(s)) => {
                let who = usize::from((s == Seat::P1) == swap);
                wins[who] += 1;
            }
            _ => draws += 1,
        }
        // How the loser went out.
        let mut m = Match::from_setup(t.setup(), &cards).unwrap();
        for &(s, act) in t.actions() {
            for e in m.apply(s, act).unwrap() {
                if let Event::Left { why, .. } = e {
                    *ways.entry(why).or_insert(0u32) += 1;
                }
            }
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{games} games, {a} vs {b}: {a} won {}, {b} won {}, draws {draws}; {:.1} turns and {:.0} actions a game; {:.1} games/s",
        wins[0],
        wins[1],
        f64::from(turns) / games as f64,
        actions as f64 / games as f64,
        games as f64 / secs
    );
    for (why, n) in ways {
        println!("  {n:>5} left: {why}");
    }
}
