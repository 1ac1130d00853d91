//! Peak memory of the scanner's big jobs, measured on the release `bterm`
//! as a user runs it (`cargo bench --no-default-features --bench memory`):
//!
//! - `bterm scan` over 1,000 files (the committed photo-like scans, linked
//!   again and again under new names);
//! - `bterm scan --threads 8` over eight 25-megapixel 16-bit RGBA PNGs (the
//!   memory budget decodes three at a time, not eight);
//! - `bterm print` of 1,000 cards to one PDF (written page by page).
//!
//! The peak is the child's `VmHWM` (its resident high-water mark), read
//! from `/proc` every 10 ms while it runs.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use bterm::barcode::print::render_card;
use bterm::cards::{CardKind, CardSet};

fn peak_of(mut cmd: Command) -> (u64, Duration, bool) {
    let start = Instant::now();
    let mut child = cmd
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .stdin(Stdio::null())
        .spawn()
        .expect("bterm starts");
    let status_file = format!("/proc/{}/status", child.id());
    let mut peak_kib = 0u64;
    let ok = loop {
        if let Ok(text) = std::fs::read_to_string(&status_file)
            && let Some(kib) = text
                .lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        {
            peak_kib = peak_kib.max(kib);
        }
        if let Some(status) = child.try_wait().expect("waits") {
            break status.success();
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    (peak_kib / 1024, start.elapsed(), ok)
}

fn many_files(dir: &Path, count: usize) -> PathBuf {
    let photos: Vec<PathBuf> = std::fs::read_dir("barcodes/photos")
        .expect("run from the repository: barcodes/photos")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    let out = dir.join("many");
    std::fs::create_dir_all(&out).unwrap();
    for i in 0..count {
        let from = &photos[i % photos.len()];
        let ext = from.extension().and_then(|e| e.to_str()).unwrap_or("jpg");
        std::fs::hard_link(from, out.join(format!("{i:04}.{ext}"))).unwrap();
    }
    out
}

fn big_pngs(dir: &Path, count: usize, side: u32) -> PathBuf {
    let out = dir.join("big");
    std::fs::create_dir_all(&out).unwrap();
    let set = CardSet::embedded();
    let card = render_card(&set.cards()[0], false).unwrap();
    let (w, h) = (side, side);
    let mut img = image::ImageBuffer::<image::Rgba<u16>, Vec<u16>>::from_pixel(
        w,
        h,
        image::Rgba([60000, 60000, 60000, 65535]),
    );
    // The card twice its size on a big page, as it is on a small one.
    let factor = if side >= 4000 { 2 } else { 1 };
    let at = side / 10;
    let card = image::imageops::resize(
        &card,
        card.width() * factor,
        card.height() * factor,
        image::imageops::FilterType::Nearest,
    );
    for (x, y, p) in card.enumerate_pixels() {
        let v = |c: u8| u16::from(c) * 257;
        img.put_pixel(
            at + x,
            at + y,
            image::Rgba([v(p[0]), v(p[1]), v(p[2]), 65535]),
        );
    }
    let first = out.join("big-0.png");
    img.save(&first).unwrap();
    for i in 1..count {
        std::fs::hard_link(&first, out.join(format!("big-{i}.png"))).unwrap();
    }
    out
}

fn main() {
    // `cargo bench` passes --bench. Without it (`cargo test --benches`, a
    // debug build) the jobs run small, to show they still work.
    let full = std::env::args().any(|a| a == "--bench");
    let (files, pngs, side, cards) = if full {
        (1000, 8, 5000, 1000)
    } else {
        (20, 2, 1500, 12)
    };
    let bterm = env!("CARGO_BIN_EXE_bterm");
    let dir = tempfile::tempdir().unwrap();
    println!("| job | peak memory (VmHWM) | time |");
    println!("|---|---|---|");

    let many = many_files(dir.path(), files);
    let mut cmd = Command::new(bterm);
    cmd.args(["scan", "--json"]).arg(&many);
    let (mb, t, ok) = peak_of(cmd);
    println!(
        "| scan {files} photo-like scans (2 threads) | {mb} MiB | {:.1} s |{}",
        t.as_secs_f64(),
        if ok { "" } else { " (exit ≠ 0)" }
    );

    let big = big_pngs(dir.path(), pngs, side);
    for memory in [1024u64, 100_000] {
        let mut cmd = Command::new(bterm);
        cmd.args([
            "scan",
            "--threads",
            "8",
            "--max-memory",
            &memory.to_string(),
        ])
        .arg(&big);
        let (mb, t, ok) = peak_of(cmd);
        println!(
            "| scan {pngs} × {side}² 16-bit PNG, 8 threads, --max-memory {memory} | {mb} MiB | {:.1} s |{}",
            t.as_secs_f64(),
            if ok { "" } else { " (exit ≠ 0)" }
        );
    }

    let set = CardSet::embedded();
    let numbers: Vec<String> = set
        .cards()
        .iter()
        .filter(|c| c.kind() != CardKind::Command)
        .map(|c| c.number().to_string())
        .cycle()
        .take(cards)
        .collect();
    let pdf = dir.path().join("cards.pdf");
    let mut cmd = Command::new(bterm);
    cmd.arg("print").args(&numbers).arg("--out").arg(&pdf);
    let (mb, t, ok) = peak_of(cmd);
    let size = std::fs::metadata(&pdf).map(|m| m.len() >> 20).unwrap_or(0);
    println!(
        "| print {cards} cards to a PDF ({size} MiB) | {mb} MiB | {:.1} s |{}",
        t.as_secs_f64(),
        if ok { "" } else { " (exit ≠ 0)" }
    );
}
