//! Card Game Alpha speed: random legal full games per second (single
//! thread; the hard CPU's search rides on it) and one hard decision.
//! `cargo bench --no-default-features --bench alpha`.

use std::hint::black_box;

use bterm::ai::alpha::{HARD_ITERATIONS, HARD_TIME, search};
use bterm::cards::CardSet;
use bterm::rules::alpha::{Match, Rng64, Setup, deck};
use criterion::{Criterion, criterion_group, criterion_main};

fn start(cards: &CardSet, seed: u64) -> Match {
    let names = [
        "courage",
        "friendship",
        "nightmare",
        "jogress",
        "sky-and-sea",
    ];
    let decks = vec![
        deck::embedded(names[seed as usize % 5], cards)
            .unwrap()
            .unwrap(),
        deck::embedded(names[(seed as usize + 2) % 5], cards)
            .unwrap()
            .unwrap(),
    ];
    Match::from_setup(&Setup::new(decks, seed), cards).unwrap()
}

fn random_game(m: &mut Match, rng: &mut Rng64) -> usize {
    let mut n = 0;
    while m.outcome().is_none() {
        let Some(seat) = m.waiting_for() else { break };
        let legal = m.legal();
        let action = legal[rng.below(legal.len())];
        let _ = m.apply(seat, action);
        n += 1;
    }
    n
}

fn bench(c: &mut Criterion) {
    let cards = CardSet::embedded();
    let starts: Vec<Match> = (0..64).map(|s| start(&cards, s)).collect();
    let mut i = 0usize;
    let mut rng = Rng64::new(1);
    c.bench_function("alpha/random_full_game", |b| {
        b.iter(|| {
            let mut m = starts[i % starts.len()].clone();
            i += 1;
            black_box(random_game(&mut m, &mut rng))
        });
    });
    // As the hard CPU's simulations play: no events kept.
    c.bench_function("alpha/random_full_game_quiet", |b| {
        b.iter(|| {
            let mut m = starts[i % starts.len()].clone();
            m.set_quiet(true);
            i += 1;
            black_box(random_game(&mut m, &mut rng))
        });
    });
    // A hard decision in the first Preparation Phase and one mid-game.
    let first = starts[3].clone();
    let mut mid = starts[5].clone();
    let mut r = Rng64::new(9);
    for _ in 0..60 {
        let seat = mid.waiting_for().unwrap();
        let legal = mid.legal_actions(seat);
        let _ = mid.apply(seat, legal[r.below(legal.len())]);
    }
    for (name, m) in [
        ("alpha/hard_decision_turn_1", first),
        ("alpha/hard_decision_mid_game", mid),
    ] {
        let seat = m.waiting_for().unwrap();
        let view = m.view(seat);
        c.bench_function(name, |b| {
            b.iter(|| {
                black_box(search(
                    &view,
                    HARD_ITERATIONS,
                    HARD_TIME,
                    &mut Rng64::new(5),
                ))
            });
        });
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = bench
}
criterion_main!(benches);
