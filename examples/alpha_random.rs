//! Random legal Card Game Alpha games in a loop, as `benches/alpha.rs`
//! plays them, for a profiler: `alpha_random [GAMES] [quiet]`.

use bterm::cards::CardSet;
use bterm::rules::alpha::{Match, Rng64, Setup, deck};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(20_000);
    let quiet = args.get(2).is_some_and(|s| s == "quiet");
    let cards = CardSet::embedded();
    let names = [
        "courage",
        "friendship",
        "nightmare",
        "jogress",
        "sky-and-sea",
    ];
    let starts: Vec<Match> = (0..64u64)
        .map(|s| {
            let decks = vec![
                deck::embedded(names[s as usize % 5], &cards)
                    .unwrap()
                    .unwrap(),
                deck::embedded(names[(s as usize + 2) % 5], &cards)
                    .unwrap()
                    .unwrap(),
            ];
            Match::from_setup(&Setup::new(decks, s), &cards).unwrap()
        })
        .collect();
    let mut best = f64::MAX;
    let (mut actions, mut hash) = (0usize, 0u64);
    // Five rounds of the same games; the fastest is reported (a shared
    // machine's noise only ever slows a round down).
    for _ in 0..5 {
        let mut rng = Rng64::new(1);
        actions = 0;
        hash = 0;
        let t = std::time::Instant::now();
        for g in 0..games {
            let mut m = starts[g % starts.len()].clone();
            m.set_quiet(quiet);
            while m.outcome().is_none() {
                let Some(seat) = m.waiting_for() else { break };
                let legal = m.legal();
                let action = legal[rng.below(legal.len())];
                let _ = m.apply(seat, action);
                actions += 1;
            }
            if g < 64 {
                hash ^= m.state_hash();
            }
        }
        best = best.min(t.elapsed().as_secs_f64());
    }
    let s = best;
    println!(
        "{games} games, {:.0} games/s, {:.1} actions a game, {:.0} ns an action, hash {hash:016x}",
        games as f64 / s,
        actions as f64 / games as f64,
        s * 1e9 / actions as f64
    );
}
