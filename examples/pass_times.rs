//! Where a scan's time goes, over a folder of scans: the median time to load
//! a file, to propose regions, and to decode; then each decoder pass on its
//! own, with what it finds.
//! `cargo run --release --no-default-features --example pass_times barcodes/photos`;
//! with `--tsv`, a line a picture and pass instead (file, pass, ms, the
//! texts found, tab-separated), for weighing orders of the passes.
use std::time::Instant;

use bterm::barcode::decode::{Effort, Pass, decode, propose_regions, run_pass, worth_more};
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
    let tsv = std::env::args().nth(2).is_some_and(|a| a == "--tsv");
    let (files, _) = collect(&[dir.into()]);
    if tsv {
        for f in &files {
            let Ok(img) = load_gray(f, 40_000_000) else {
                continue;
            };
            let start = Instant::now();
            let worth = worth_more(&img, &propose_regions(&img));
            println!(
                "{}\tWorth\t{:.2}\t{}",
                f.display(),
                ms(start),
                u8::from(worth)
            );
            for pass in Pass::ALL {
                let start = Instant::now();
                let found = run_pass(&img, pass);
                let texts: Vec<String> = found
                    .iter()
                    .map(|s| s.text.escape_debug().to_string())
                    .collect();
                println!(
                    "{}\t{pass:?}\t{:.2}\t{}",
                    f.display(),
                    ms(start),
                    texts.join("\u{1f}")
                );
            }
        }
        return;
    }
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
