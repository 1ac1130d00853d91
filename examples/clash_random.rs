//! Plays random legal Alpha Clash games as fast as it can and says how
//! many a second (for profiling: `perf record` this).
//! `clash_random [GAMES]`; `ENGINE=1` plays by an earlier engine.

use bterm::cards::CardSet;
use bterm::rules::Ruleset;
use bterm::rules::alpha::Rng64;
use bterm::rules::clash::{Match, deck};

fn main() {
    let games: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(500);
    let cards = CardSet::embedded();
    let d = |n: &str| deck::embedded(n, &cards).unwrap().unwrap();
    // Matches set up once (as the benches and the search start from copies).
    let starts: Vec<Match> = (0..64)
        .map(|g| {
            Match::from_setup(
                &{
                    let mut s = <Match as Ruleset>::setup_for(vec![d("ashfall"), d("skyward")], g);
                    s.engine = std::env::var("ENGINE")
                        .ok()
                        .and_then(|e| e.parse().ok())
                        .unwrap_or(s.engine);
                    s
                },
                &cards,
            )
            .unwrap()
        })
        .collect();
    let start = std::time::Instant::now();
    let mut actions = 0usize;
    let mut check = 0u64;
    for g in 0..games {
        let mut m = starts[g as usize % starts.len()].clone();
        let mut rng = Rng64::new(g);
        while let Some((seat, _)) = m.waiting() {
            let legal = m.legal_actions(seat);
            let _ = m.apply(seat, legal[rng.below(legal.len())]);
            actions += 1;
        }
        check = check.rotate_left(7) ^ m.state_hash();
    }
    let s = start.elapsed().as_secs_f64();
    println!(
        "{games} games, {:.0} actions a game, {:.1} µs a game, {:.0} games/s (states {check:016x})",
        actions as f64 / games as f64,
        s * 1e6 / games as f64,
        games as f64 / s
    );
}
