//! Card-set loading and ability text speed.

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::path::PathBuf;

use bterm::cards::{CardSet, EMBEDDED_CARDS};
use bterm::effects::text::{parse, render};

fn load(c: &mut Criterion) {
    let sources: Vec<(PathBuf, String)> = EMBEDDED_CARDS
        .iter()
        .map(|(p, t)| (PathBuf::from(p), (*t).to_string()))
        .collect();
    c.bench_function("load and check the sample set", |b| {
        b.iter(|| CardSet::from_sources(black_box(&sources)).map(|s| s.len()));
    });
    let set = CardSet::embedded();
    let texts: Vec<String> = set
        .cards()
        .iter()
        .flat_map(|c| c.terminal_abilities().iter().chain(c.alpha_abilities()))
        .map(render)
        .collect();
    c.bench_function("parse every ability text in the sample set", |b| {
        b.iter(|| texts.iter().filter(|t| parse(black_box(t)).is_ok()).count());
    });
}

criterion_group!(benches, load);
criterion_main!(benches);
