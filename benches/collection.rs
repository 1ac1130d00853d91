//! The collector's store: adding 10,000 scans in one batch (as `bterm scan`
//! of a big folder does: commits of 256), and `collection sets` (owned
//! counts, then completion per printed set) over 100,000 scans.
//! `cargo bench --no-default-features --bench collection`.

use std::hint::black_box;

use bterm::cards::{CardNumber, CardSet};
use bterm::collection::sets::Sets;
use bterm::collection::{Batch, CardRef, NewScan, Origin, Store};
use criterion::{BatchSize, Criterion, criterion_group, criterion_main};

/// `n` file scans over the card set's cards, every picture different.
fn scans(cards: &CardSet, n: usize) -> Vec<NewScan> {
    let numbers: Vec<CardNumber> = cards.cards().iter().map(|c| c.number()).collect();
    (0..n)
        .map(|i| {
            let number = numbers[i * 7 % numbers.len()];
            NewScan {
                card: CardRef {
                    number,
                    name: format!("card {number}"),
                    data: None,
                },
                origin: Origin::File,
                place: Some(format!("/home/collector/scans/{i:06}.jpg")),
                code: Some(("Code 128".into(), number.to_string())),
                digest: Some(format!(
                    "{:016x}",
                    (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
                )),
                count: 1,
                remove: false,
            }
        })
        .collect()
}

fn record_all(store: &mut Store, scans: &[NewScan]) {
    let mut batch = Batch::new("scan big/");
    for chunk in scans.chunks(256) {
        store.record(&mut batch, chunk).unwrap();
    }
}

fn bench(c: &mut Criterion) {
    let cards = CardSet::embedded();
    // `cargo test --benches` runs each bench once, unoptimised: there a
    // small collection shows the bench works; `cargo bench` measures.
    let measuring = std::env::args().any(|a| a == "--bench");
    let (batch, big) = if measuring {
        (10_000, 100_000)
    } else {
        (500, 2_000)
    };
    let ten_thousand = scans(&cards, batch);
    c.bench_function("collection/add_10000_scans_one_batch", |b| {
        b.iter_batched(
            || {
                let dir = tempfile::tempdir().unwrap();
                let store = Store::open(&dir.path().join("c.sqlite")).unwrap();
                (dir, store)
            },
            |(dir, mut store)| {
                record_all(&mut store, &ten_thousand);
                (dir, store)
            },
            BatchSize::PerIteration,
        );
    });
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(&dir.path().join("c.sqlite")).unwrap();
    record_all(&mut store, &scans(&cards, big));
    let sets = Sets::embedded(&cards).unwrap();
    c.bench_function("collection/sets_over_100000_scans", |b| {
        b.iter(|| {
            let owned = store.owned().unwrap();
            let done: Vec<(usize, usize)> = sets
                .all()
                .iter()
                .map(|s| {
                    let have = s.cards.iter().filter(|n| owned.contains_key(n)).count();
                    (have, s.cards.len())
                })
                .collect();
            black_box(done)
        });
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = bench
}
criterion_main!(benches);
