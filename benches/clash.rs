//! Alpha Clash's engine speed: random legal full games on one
//! core, and a normal CPU's decision (docs/guide/alpha-clash.md).

use std::hint::black_box;

use bterm::ai::{Cpu, Strength};
use bterm::cards::CardSet;
use bterm::rules::alpha::Rng64;
use bterm::rules::clash::{Ask, Match, deck};
use bterm::rules::{Ruleset, Seat};
use criterion::{Criterion, criterion_group, criterion_main};

fn start(cards: &CardSet, seed: u64) -> Match {
    let d = |n: &str| deck::embedded(n, cards).unwrap().unwrap();
    Match::from_setup(
        &<Match as Ruleset>::setup_for(vec![d("ashfall"), d("skyward")], seed),
        cards,
    )
    .unwrap()
}

fn random_game(m: &mut Match, seed: u64) -> usize {
    let mut rng = Rng64::new(seed);
    let mut n = 0;
    while let Some((seat, _)) = m.waiting() {
        let legal = m.legal_actions(seat);
        let a = legal[rng.below(legal.len())];
        let _ = m.apply(seat, a);
        n += 1;
    }
    n
}

fn bench(c: &mut Criterion) {
    let cards = CardSet::embedded();
    // Matches set up once; each game copies one (as the search does) and
    // plays its own random choices.
    let starts: Vec<Match> = (0..64).map(|s| start(&cards, s)).collect();
    let mut seed = 0u64;
    c.bench_function("clash random legal full game", |b| {
        b.iter(|| {
            seed += 1;
            let mut m = starts[seed as usize % starts.len()].clone();
            black_box(random_game(&mut m, seed))
        });
    });
    c.bench_function(
        "clash setup (decks checked, cards read, hands drawn)",
        |b| {
            b.iter(|| {
                seed += 1;
                black_box(start(&cards, seed))
            });
        },
    );
    // A mid-game Primary Phase position for the CPU's decision: normal CPUs
    // play to turn 5.
    let mut m = start(&cards, 42);
    while let Some((seat, ask)) = m.waiting() {
        if m.turn() >= 5 && ask == Ask::Primary {
            break;
        }
        let a = m.choose(seat, Strength::Normal).unwrap();
        let _ = m.apply(seat, a);
    }
    let seat = m.waiting().map_or(Seat::P1, |w| w.0);
    assert!(m.legal_actions(seat).len() > 1, "a position with a choice");
    c.bench_function("clash normal CPU decision", |b| {
        b.iter(|| black_box(m.choose(seat, Strength::Normal)));
    });
    let mut slow = c.benchmark_group("clash hard");
    slow.sample_size(10);
    slow.bench_function("clash hard CPU decision", |b| {
        b.iter(|| black_box(m.choose(seat, Strength::Hard)));
    });
    slow.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
