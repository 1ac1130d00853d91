//! Plays random legal Digimon Card Game games as fast as it can and says
//! how many a second (for profiling: `perf record` this).
//! `dcg_random [GAMES] [quiet]` (quiet: no events kept, as a search's
//! simulations play).

use bterm::cards::CardSet;
use bterm::rules::Ruleset;
use bterm::rules::alpha::Rng64;
use bterm::rules::dcg::{Match, deck};

fn main() {
    let games: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(2000);
    let quiet = std::env::args().nth(2).is_some_and(|s| s == "quiet");
    let cards = CardSet::embedded();
    let d = |n: &str| deck::embedded(n, &cards).unwrap().unwrap();
    let (red, purple) = (d("red"), d("purple"));
    // Matches set up once (as the benches and the search start from copies).
    let starts: Vec<Match> = (0..64)
        .map(|g| {
            Match::from_setup(
                &<Match as Ruleset>::setup_for(vec![red.clone(), purple.clone()], g),
                &cards,
            )
            .unwrap()
        })
        .collect();
    let start = std::time::Instant::now();
    let mut actions = 0usize;
    let mut draws = 0usize;
    for g in 0..games {
        let mut m = starts[g as usize % starts.len()].clone();
        m.set_quiet(quiet);
        let mut rng = Rng64::new(g);
        while let Some((seat, _)) = m.waiting() {
            let legal = m.legal_actions(seat);
            let _ = m.apply(seat, legal[rng.below(legal.len())]);
            actions += 1;
        }
        if m.outcome() == Some(bterm::rules::Outcome::Draw) {
            draws += 1;
        }
    }
    let s = start.elapsed().as_secs_f64();
    println!(
        "{games} games ({draws} drawn), {:.0} actions a game, {:.1} µs a game, {:.0} games/s",
        actions as f64 / games as f64,
        s * 1e6 / games as f64,
        games as f64 / s
    );
}
