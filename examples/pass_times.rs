//! Where a scan's time goes, over a folder of scans: the median time to load
//! a file, to propose regions, and to decode; then each decoder pass on its
//! own, with what it finds.
//! `cargo run --release --no-default-features --example pass_times barcodes/photos`
use std::time::Instant;

use bterm::barcode::decode::{Effort, Pass, decode, propose_regions, run_pass};
use bterm::barcode::files::{collect, load_gray};

fn ms(start: Instant) -> f64 {
    start.elapsed().as_secs_f64() * 1000.0
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(0.0)
}

fn main() {
    let dir = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "barcodes/photos".into());
    let (files, _) = collect(&[dir.into()]);
    let (mut load, mut propose, mut full) = (Vec::new(), Vec::new(), Vec::new());
    let mut images = Vec::new();
    for f in &files {
        let start = Instant::now();
        let Ok(img) = load_gray(f, 40_000_000) else {
            continue;
        };
        load.push(ms(start));
        let start = Instant::now();
        std::hint::black_box(propose_regions(&img));
        propose.push(ms(start));
        let start = Instant::now();
        std::hint::black_box(decode(&img, Effort::File));
        full.push(ms(start));
        images.push(img);
    }
    println!(
        "{} images; median ms: load {:.1}, region proposals {:.1}, decode {:.1}",
        images.len(),
        median(load),
        median(propose),
        median(full)
    );
    for pass in Pass::ALL {
        let (mut found, mut times) = (0, Vec::new());
        for img in &images {
            let start = Instant::now();
            found += usize::from(!run_pass(img, pass).is_empty());
            times.push(ms(start));
        }
        let each = times.iter().sum::<f64>() / images.len() as f64;
        println!(
            "{pass:?}: finds codes in {found}/{} images, {each:.1} ms per image (median {:.1})",
            images.len(),
            median(times)
        );
    }
}
