//! Full Terminal battles per second, single thread, CPU against CPU.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};

use bterm::ai::Strength;
use bterm::cards::CardSet;
use bterm::rules::terminal::pick::equal_cost_pairs;
use bterm::rules::terminal::{Match, Setup};
use bterm::session::{Player, Table, drive_cpus};

fn battles(c: &mut Criterion) {
    let cards = CardSet::embedded();
    // A fixed pool of equal-Cost team pairs; a battle clones a started table.
    let setups: Vec<Setup> = equal_cost_pairs(&cards, 64, 2006)
        .into_iter()
        .enumerate()
        .map(|(i, (a, b))| Setup::new(a, b, i as u64))
        .collect();
    let mut group = c.benchmark_group("terminal battle");
    group.throughput(Throughput::Elements(1));
    for (name, level) in [
        ("easy vs easy", Strength::Easy),
        ("normal vs normal", Strength::Normal),
        ("hard vs hard", Strength::Hard),
    ] {
        let starts: Vec<Table<Match>> = setups
            .iter()
            .filter_map(|s| Table::new(s.clone(), &cards, vec![Player::Cpu(level); 2]).ok())
            .collect();
        let mut i = 0;
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut table = starts[i % starts.len()].clone();
                i += 1;
                drive_cpus(&mut table, &cards);
                black_box(table.game().outcome())
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
