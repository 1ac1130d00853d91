//! Scanner speed, single thread: one 1280×720 webcam frame with one card in
//! view (as the camera path decodes it, and as a file is decoded), a clean
//! printed card, and the decode rate over the committed photo-like scans.

use std::hint::black_box;
use std::path::PathBuf;

use criterion::{Criterion, criterion_group, criterion_main};

use bterm::barcode::perturb::{KINDS, shoot};
use bterm::barcode::print::render_card;
use bterm::barcode::{Effort, decode, files};
use bterm::cards::CardSet;

fn scan(c: &mut Criterion) {
    let set = CardSet::embedded();
    let card = set.resolve("Dα-003").expect("sample card");
    let clean =
        image::DynamicImage::ImageRgb8(render_card(card, false).expect("renders")).to_luma8();
    // The "webcam" shot: small, turned, tilted, blurred, noisy, dim, JPEG.
    let frame = shoot(&clean, &KINDS[KINDS.len() - 1].1, 3);
    let flat = shoot(&clean, &KINDS[0].1, 3);
    assert!(
        !decode(&frame, Effort::Frame).symbols.is_empty(),
        "the bench frame must decode"
    );

    c.bench_function("1280x720 webcam frame, one card (camera path)", |b| {
        b.iter(|| decode(black_box(&frame), Effort::Frame).symbols.len());
    });
    c.bench_function("1280x720 webcam frame, one card (file path)", |b| {
        b.iter(|| decode(black_box(&frame), Effort::File).symbols.len());
    });
    c.bench_function("1280x720 clean flat frame, one card (camera path)", |b| {
        b.iter(|| decode(black_box(&flat), Effort::Frame).symbols.len());
    });

    // The decode rate over the committed scans (printed once, not timed).
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("barcodes/photos");
    let (paths, _) = files::collect(&[dir]);
    let images: Vec<_> = paths
        .iter()
        .filter_map(|p| files::load_gray(p, files::MAX_PIXELS).ok())
        .collect();
    if !images.is_empty() {
        let found = images
            .iter()
            .filter(|img| !decode(img, Effort::File).symbols.is_empty())
            .count();
        eprintln!(
            "decode rate on barcodes/photos: {found}/{} ({:.1}%)",
            images.len(),
            100.0 * found as f64 / images.len() as f64
        );
        let mut group = c.benchmark_group("committed scans");
        group.sample_size(10);
        group.bench_function(
            format!("decode all {} photo-like scans", images.len()),
            |b| {
                b.iter(|| {
                    images
                        .iter()
                        .filter(|img| !decode(black_box(img), Effort::File).symbols.is_empty())
                        .count()
                });
            },
        );
        group.finish();
    }
}

/// Live frames under the time cap: every frame of the webcam-like sets
/// decoded as the camera path decodes a live frame (`decode_within`,
/// `FRAME_CAP`). Printed, not timed: how many read, how many were given up,
/// and the slowest frame's time (no frame may take much over the cap);
/// timed: the whole set.
fn capped(c: &mut Criterion) {
    use bterm::barcode::decode::{FRAME_CAP, decode_within};
    use std::time::Instant;
    for set in ["barcodes/frames", "barcodes/webcam3"] {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(set);
        let (paths, _) = files::collect(&[dir]);
        let frames: Vec<_> = paths
            .iter()
            .filter_map(|p| files::load_gray(p, files::MAX_PIXELS).ok())
            .collect();
        if frames.is_empty() {
            continue;
        }
        let (mut read, mut given_up, mut times) = (0, 0, Vec::new());
        for f in &frames {
            let start = Instant::now();
            let found = decode_within(f, Effort::Frame, FRAME_CAP);
            times.push(start.elapsed().as_secs_f64() * 1000.0);
            read += usize::from(!found.symbols.is_empty());
            given_up += usize::from(found.cut_short);
        }
        times.sort_by(f64::total_cmp);
        eprintln!(
            "{set}, live frames capped at {} ms: {read}/{} read, {given_up} given up; \
             median {:.1} ms, p90 {:.1} ms, slowest {:.1} ms",
            FRAME_CAP.as_millis(),
            frames.len(),
            times[times.len() / 2],
            times[(times.len() * 9 / 10).min(times.len() - 1)],
            times[times.len() - 1]
        );
        let mut group = c.benchmark_group("live frames under the cap");
        group.sample_size(10);
        group.bench_function(format!("{set}: {} frames", frames.len()), |b| {
            b.iter(|| {
                frames
                    .iter()
                    .filter(|f| {
                        !decode_within(black_box(f), Effort::Frame, FRAME_CAP)
                            .symbols
                            .is_empty()
                    })
                    .count()
            });
        });
        group.finish();
    }
}

/// The live path on a recorded sequence: frames of an empty table, then the
/// card held steady (each frame its own shot: other noise), decoded as the
/// camera path decodes them, resolved, and fed to the stabilizer that says
/// when a card is on screen. Timed: from the first frame with the card to
/// the report, when frames come as fast as the decoder takes them.
fn live(c: &mut Criterion) {
    use bterm::barcode::frames::Stabilizer;
    use bterm::barcode::{Enrolments, Scanner};
    let set = CardSet::embedded();
    let scanner = Scanner::new(set.clone(), Enrolments::default());
    let card = set.resolve("Dα-003").expect("sample card");
    let clean =
        image::DynamicImage::ImageRgb8(render_card(card, false).expect("renders")).to_luma8();
    let empty = image::GrayImage::from_pixel(1280, 720, image::Luma([120]));
    for (name, kind) in [("small, turned 20°", 2), ("every damage", KINDS.len() - 1)] {
        let held: Vec<_> = (0..6)
            .map(|seed| shoot(&clean, &KINDS[kind].1, seed))
            .collect();
        // The empty table first (not timed): nothing comes on screen.
        let mut primed = Stabilizer::default();
        for _ in 0..3 {
            let found = decode(&empty, Effort::Frame);
            assert!(
                primed
                    .push(key(&scanner, &found.symbols).as_deref())
                    .is_none()
            );
        }
        let run = || {
            let mut stable = primed.clone();
            for (n, frame) in held.iter().enumerate() {
                let found = decode(black_box(frame), Effort::Frame);
                if stable.push(key(&scanner, &found.symbols).as_deref()) == Some(true) {
                    return n + 1;
                }
            }
            panic!("the card never came on screen");
        };
        eprintln!(
            "live, {name}: on screen after {} frames with the card",
            run()
        );
        c.bench_function(
            &format!("live 720p, {name}: card steady to on screen"),
            |b| {
                b.iter(run);
            },
        );
    }
}

fn key(scanner: &bterm::barcode::Scanner, symbols: &[bterm::barcode::Symbol]) -> Option<String> {
    scanner
        .resolve(symbols)
        .ok()
        .map(|r| r.card.number().to_string())
}

criterion_group!(benches, scan, capped, live);
criterion_main!(benches);
