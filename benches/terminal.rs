//! Full Terminal battles per second, single thread, CPU against CPU.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};

use bterm::ai::Level;
use bterm::cards::CardSet;
use bterm::rules::terminal::analysis::{cpu_battle, equal_cost_pairs};
use bterm::rules::terminal::{Match, Setup};

fn battles(c: &mut Criterion) {
    let cards = CardSet::embedded();
    // A fixed pool of equal-Cost team pairs, each started once; a battle clones a start.
    let starts: Vec<Match> = equal_cost_pairs(&cards, 64, 2006)
        .into_iter()
        .enumerate()
        .filter_map(|(i, (a, b))| Match::from_setup(&Setup::new(a, b, i as u64), &cards).ok())
        .collect();
    let mut group = c.benchmark_group("terminal battle");
    group.throughput(Throughput::Elements(1));
    for (name, levels) in [
        ("easy vs easy", [Level::Easy, Level::Easy]),
        ("normal vs normal", [Level::Normal, Level::Normal]),
        ("hard vs hard", [Level::Hard, Level::Hard]),
    ] {
        let mut i = 0;
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut m = starts[i % starts.len()].clone();
                i += 1;
                cpu_battle(&mut m, levels);
                black_box(m.outcome())
            });
        });
    }
    group.bench_function("setup from card numbers", |b| {
        let (a, t) = equal_cost_pairs(&cards, 1, 7).remove(0);
        let setup = Setup::new(a, t, 7);
        b.iter(|| Match::from_setup(black_box(&setup), &cards).map(|m| m.round()));
    });
    group.finish();
}

criterion_group!(benches, battles);
criterion_main!(benches);
