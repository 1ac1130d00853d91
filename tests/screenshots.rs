//! The real game, rendered: `bterm play --tour` under a virtual display with
//! the software Vulkan driver, driven through every screen by scripted
//! presses. Each saved PNG must be a real frame: the stage's glowing grid
//! in the lower half and bright HUD text in the top band.
//!
//! Needs `xvfb-run` and a Vulkan driver (`make deps` installs both). The
//! PNGs stay in `target/screenshots` (or `$BTERM_SCREENSHOTS`) to be looked at.

#![cfg(feature = "arena")]

use std::path::PathBuf;
use std::process::Command;

use image::RgbaImage;

fn shots_dir() -> PathBuf {
    std::env::var_os("BTERM_SCREENSHOTS").map_or_else(
        || std::env::current_dir().unwrap().join("target/screenshots"),
        PathBuf::from,
    )
}

/// Share of pixels in rows `rows` that pass `test`.
fn share(img: &RgbaImage, rows: std::ops::Range<u32>, test: impl Fn([u8; 3]) -> bool) -> f64 {
    let mut hit = 0u64;
    let mut all = 0u64;
    for y in rows {
        for x in 0..img.width() {
            let p = img.get_pixel(x, y).0;
            all += 1;
            if test([p[0], p[1], p[2]]) {
                hit += 1;
            }
        }
    }
    hit as f64 / all.max(1) as f64
}

/// The rendering tests take turns: two software renderers at once on a
/// two-core machine share it badly (and a tour is timed by its frames).
static RENDERING: std::sync::Mutex<()> = std::sync::Mutex::new(());

#[test]
fn every_screen_renders_the_stage_and_its_hud() {
    let _turn = RENDERING
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if Command::new("xvfb-run").arg("--help").output().is_err() {
        panic!("xvfb-run is missing: run `make deps` (it installs xvfb and mesa-vulkan-drivers)");
    }
    let dir = shots_dir();
    let _ = std::fs::remove_dir_all(&dir);
    let data = tempfile::tempdir().unwrap();
    let root = std::env::current_dir().unwrap();
    let out = Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1280x720x24"])
        .arg(env!("CARGO_BIN_EXE_bterm"))
        .args(["play", "--mute", "--seed", "5", "--tour"])
        .arg(&dir)
        .arg(root.join("barcodes/cards/DA-001.png"))
        .arg(root.join("barcodes/cards/DA-002.png"))
        .arg(root.join("barcodes/photos/OA-001-webcam.jpg"))
        .env("BTERM_DATA_DIR", data.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "the tour failed: {}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    for name in bterm::arena::screens::capture::TOUR_SHOTS {
        let path = dir.join(format!("{name}.png"));
        let img = image::open(&path)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
            .to_rgba8();
        assert_eq!(img.dimensions(), (1280, 720), "{name}");
        let h = img.height();
        // Not blank: the frame has contrast.
        let lum: Vec<f64> = img
            .pixels()
            .map(|p| 0.3 * f64::from(p[0]) + 0.59 * f64::from(p[1]) + 0.11 * f64::from(p[2]))
            .collect();
        let mean = lum.iter().sum::<f64>() / lum.len() as f64;
        let sd = (lum.iter().map(|l| (l - mean).powi(2)).sum::<f64>() / lum.len() as f64).sqrt();
        assert!(sd > 15.0, "{name}: a flat frame (sd {sd:.1})");
        // The stage: the holographic grid's blue in the lower half.
        let grid = share(&img, h / 2..h, |[r, g, b]| b > 140 && g > 60 && r < 120);
        assert!(grid > 0.01, "{name}: no stage grid ({:.3}%)", grid * 100.0);
        // The HUD: bright (white or gold) text in the top quarter.
        let text = share(&img, 0..h / 4, |[r, g, _]| r > 200 && g > 170);
        assert!(
            text > 0.002,
            "{name}: no HUD text at the top ({:.3}%)",
            text * 100.0
        );
    }
    // No two texts on screen overlap in any shot.
    let mut overlaps = Vec::new();
    for name in bterm::arena::screens::capture::TOUR_SHOTS {
        let path = dir.join(format!("{name}.boxes"));
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let boxes = text_boxes(&text);
        assert!(!boxes.is_empty(), "{name}: no text boxes");
        for (a, b) in overlapping(&boxes) {
            overlaps.push(format!("{name}: \"{}\" and \"{}\"", a.words, b.words));
        }
    }
    assert!(
        overlaps.is_empty(),
        "texts overlap on screen:\n{}",
        overlaps.join("\n")
    );
    // The tour keeps what it saves beside its pictures, never in the
    // user's data folder.
    let kept: Vec<PathBuf> = std::fs::read_dir(data.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert!(
        kept.is_empty(),
        "the tour wrote into the data folder: {kept:?}"
    );
    let replays: Vec<PathBuf> = std::fs::read_dir(dir.join("data/replays"))
        .expect("the played battle was saved")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ron"))
        .collect();
    assert_eq!(replays.len(), 1);
    // Its picture for the gallery, taken as it was saved.
    let thumb = image::open(replays[0].with_extension("png")).expect("the replay's picture");
    assert!(thumb.width() >= 160 && thumb.height() >= 90);
    // P1's team is the three cards given, the webcam photo's among them.
    let replay = std::fs::read_to_string(&replays[0]).unwrap();
    for number in ["Dα-001", "Dα-002", "Oα-001"] {
        assert!(replay.contains(number), "{number} not in the saved battle");
    }
}

/// `bterm replay FILE --clip OUT.gif`: rendered off-screen, the frames the
/// size asked for, as many as the frame rate and the rounds make.
#[test]
fn a_replay_renders_to_a_clip() {
    use image::AnimationDecoder;
    let _turn = RENDERING
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let dir = tempfile::tempdir().unwrap();
    let root = std::env::current_dir().unwrap();
    let gif = dir.path().join("clip.gif");
    let out = Command::new(env!("CARGO_BIN_EXE_bterm"))
        .args(["replay"])
        .arg(root.join("tests/fixtures/replay-before-session.ron"))
        .args(["--clip"])
        .arg(&gif)
        // Round 4 of this battle is where a clip once lost the stage for
        // two seconds (the camera sent away by a big figure near it).
        .args([
            "--from", "4", "--to", "4", "--size", "320x180", "--fps", "4",
        ])
        .env("BTERM_DATA_DIR", dir.path())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "the clip failed: {}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let frames = image::codecs::gif::GifDecoder::new(std::io::BufReader::new(
        std::fs::File::open(&gif).unwrap(),
    ))
    .unwrap()
    .into_frames()
    .collect_frames()
    .unwrap();
    assert!(frames.len() >= 8, "{} frames", frames.len());
    assert!(
        stdout.contains(&format!("{} frames at 320×180", frames.len())),
        "{stdout}"
    );
    let first = frames[0].buffer();
    assert_eq!(first.dimensions(), (320, 180));
    let last = frames.last().unwrap().buffer();
    let lum = |img: &image::RgbaImage| {
        let v: Vec<f64> = img
            .pixels()
            .map(|p| f64::from(p[0]) + f64::from(p[1]) + f64::from(p[2]))
            .collect();
        let mean = v.iter().sum::<f64>() / v.len() as f64;
        (v.iter().map(|l| (l - mean).powi(2)).sum::<f64>() / v.len() as f64).sqrt()
    };
    assert!(lum(last) > 15.0, "the last frame is flat");
    // The stage is in every frame: the band between the HUD's top and
    // bottom is never one flat colour (it was while the camera was lost).
    for (i, frame) in frames.iter().enumerate() {
        let band = image::imageops::crop_imm(frame.buffer(), 32, 54, 256, 58).to_image();
        assert!(lum(&band) > 20.0, "frame {i}: the stage is gone");
    }
    assert!(
        !String::from_utf8_lossy(&out.stderr).contains("ALSA"),
        "a clip opens no sound output"
    );
    // Never over a file without --force.
    let again = Command::new(env!("CARGO_BIN_EXE_bterm"))
        .args(["replay"])
        .arg(root.join("tests/fixtures/replay-before-session.ron"))
        .args(["--clip"])
        .arg(&gif)
        .env("BTERM_DATA_DIR", dir.path())
        .output()
        .unwrap();
    assert_eq!(again.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&again.stderr).contains("--force"));
}

/// A text on screen: its rectangle (UI pixels) and its words.
#[derive(Debug, Clone, PartialEq)]
struct TextBox {
    min: (f32, f32),
    max: (f32, f32),
    words: String,
}

/// The boxes of a shot's `.boxes` file (`left top right bottom words`).
fn text_boxes(text: &str) -> Vec<TextBox> {
    text.lines()
        .filter_map(|l| {
            let mut parts = l.splitn(5, ' ');
            let mut n = || parts.next()?.parse::<f32>().ok();
            let (x0, y0, x1, y1) = (n()?, n()?, n()?, n()?);
            Some(TextBox {
                min: (x0, y0),
                max: (x1, y1),
                words: parts.next().unwrap_or("").to_string(),
            })
        })
        .collect()
}

/// The pairs of boxes that overlap by more than a sliver (3 pixels each
/// way: a glyph's shadow or a rounding is not an overlap).
fn overlapping(boxes: &[TextBox]) -> Vec<(&TextBox, &TextBox)> {
    const SLIVER: f32 = 3.0;
    let mut out = Vec::new();
    for (i, a) in boxes.iter().enumerate() {
        for b in &boxes[i + 1..] {
            let w = a.max.0.min(b.max.0) - a.min.0.max(b.min.0);
            let h = a.max.1.min(b.max.1) - a.min.1.max(b.min.1);
            if w > SLIVER && h > SLIVER {
                out.push((a, b));
            }
        }
    }
    out
}

#[test]
fn the_overlap_check_sees_two_texts_on_each_other_and_not_side_by_side() {
    let boxes = text_boxes(
        "100 100 300 140 P2 WINS THE CLASH\n\
         150 90 250 130 -320\n\
         300 100 400 140 side by side\n\
         100 141 300 170 the line below\n",
    );
    assert_eq!(boxes.len(), 4);
    let found = overlapping(&boxes);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].1.words, "-320");
}
