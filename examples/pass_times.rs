//! Times each decoder pass on its own over a folder of scans and counts what
//! it finds: `cargo run --release --example pass_times barcodes/photos`.
use std::time::Instant;

use bterm::barcode::decode::{Pass, run_pass};
use bterm::barcode::files::{collect, load_gray};

fn main() {
    let dir = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "barcodes/photos".into());
    let (files, _) = collect(&[dir.into()]);
    let images: Vec<_> = files
        .iter()
        .filter_map(|f| load_gray(f, 40_000_000).ok())
        .collect();
    println!("{} images", images.len());
    for pass in Pass::ALL {
        let start = Instant::now();
        let found = images
            .iter()
            .filter(|img| !run_pass(img, pass).is_empty())
            .count();
        let ms = start.elapsed().as_secs_f64() * 1000.0 / images.len() as f64;
        println!(
            "{pass:?}: finds codes in {found}/{} images, {ms:.1} ms per image",
            images.len()
        );
    }
}
