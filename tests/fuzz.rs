//! Random and mutated bytes as images, card files, replays and tunables:
//! never a panic, always an answer. `make test` runs a short pass
//! (`BTERM_FUZZ_CASES`, 48 cases a target by default); `make fuzz` a long
//! one.

use std::sync::OnceLock;

use proptest::prelude::*;

use bterm::barcode::files;
use bterm::cards::CardSet;
use bterm::replay::Replay;
use bterm::rules::terminal::{Match, Setup, Tunables};

fn cases() -> u32 {
    std::env::var("BTERM_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(48)
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: cases(),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

fn cards() -> &'static CardSet {
    static CARDS: OnceLock<CardSet> = OnceLock::new();
    CARDS.get_or_init(CardSet::embedded)
}

/// A small card picture, as PNG and as JPEG.
fn pictures() -> &'static [Vec<u8>; 2] {
    static PICS: OnceLock<[Vec<u8>; 2]> = OnceLock::new();
    PICS.get_or_init(|| {
        let card = cards().resolve("Dα-001").unwrap();
        let img = bterm::barcode::print::render_card(card, false).unwrap();
        let small = image::imageops::resize(
            &image::DynamicImage::ImageRgb8(img).to_luma8(),
            186,
            260,
            image::imageops::FilterType::Triangle,
        );
        let mut png = Vec::new();
        small
            .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
            .unwrap();
        let mut jpeg = Vec::new();
        small
            .write_to(
                &mut std::io::Cursor::new(&mut jpeg),
                image::ImageFormat::Jpeg,
            )
            .unwrap();
        [png, jpeg]
    })
}

fn fixture() -> &'static str {
    static TEXT: OnceLock<String> = OnceLock::new();
    TEXT.get_or_init(|| {
        std::fs::read_to_string(
            std::env::current_dir()
                .unwrap()
                .join("tests/fixtures/replay-before-session.ron"),
        )
        .unwrap()
    })
}

/// Bytes changed at random places, and perhaps cut short.
fn mutate(base: &[u8], flips: &[(usize, u8)], cut: Option<usize>) -> Vec<u8> {
    let mut b = base.to_vec();
    for &(i, v) in flips {
        if !b.is_empty() {
            let n = b.len();
            b[i % n] = v;
        }
    }
    if let Some(c) = cut {
        b.truncate(c % (b.len() + 1));
    }
    b
}

fn flips() -> impl Strategy<Value = Vec<(usize, u8)>> {
    prop::collection::vec((any::<usize>(), any::<u8>()), 0..12)
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn images_of_random_or_damaged_bytes_are_answered(
        which in 0usize..3,
        flips in flips(),
        cut in proptest::option::of(any::<usize>()),
        noise in prop::collection::vec(any::<u8>(), 0..4096),
    ) {
        let bytes = match which {
            0 => noise,
            k => mutate(&pictures()[k - 1], &flips, cut),
        };
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.img");
        std::fs::write(&path, &bytes).unwrap();
        if let Ok(img) = files::load_gray(&path, files::MAX_PIXELS) {
            // Whatever decodes is scanned without a panic.
            let _ = bterm::barcode::decode(&img, bterm::barcode::Effort::File);
        }
    }

    #[test]
    fn card_files_of_damaged_text_are_answered(
        flips in flips(),
        cut in proptest::option::of(any::<usize>()),
        file in 0usize..3,
    ) {
        let (name, text) = bterm::cards::EMBEDDED_CARDS[file];
        let bytes = mutate(text.as_bytes(), &flips, cut);
        let text = String::from_utf8_lossy(&bytes).into_owned();
        if let Err(e) = CardSet::from_sources(&[(name.into(), text)]) {
            prop_assert!(!e.to_string().is_empty());
        }
    }

    #[test]
    fn damaged_replays_are_refused_or_play(
        flips in flips(),
        cut in proptest::option::of(any::<usize>()),
    ) {
        let bytes = mutate(fixture().as_bytes(), &flips, cut);
        let text = String::from_utf8_lossy(&bytes).into_owned();
        if let Ok(r) = Replay::<Match>::parse(&text, "fuzz.ron") {
            let _ = r.play(cards(), |_| {});
        }
    }

    #[test]
    fn any_numbers_in_the_tunables_are_refused_or_play(
        numbers in prop::collection::vec(-5i64..2000, 19),
        seed in any::<u64>(),
    ) {
        let names = [
            "max_digimon", "max_options", "max_lines", "max_copies", "cost_cap",
            "burst_points_per_cost", "start_points", "max_points", "loss_points",
            "deletion_points", "max_rounds", "stance_seconds", "read_bonus_percent",
            "gauge_full", "gauge_front", "gauge_loser", "gauge_bench", "alpha_group",
        ];
        let fields: Vec<String> = names
            .iter()
            .zip(&numbers)
            .map(|(n, v)| format!("{n}: {v}"))
            .collect();
        let text = format!("(version: 1, {})", fields.join(", "));
        let Ok(tunables) = Tunables::from_ron(&text) else {
            return Ok(()); // A negative number in an unsigned field: refused by the parser.
        };
        let mut setup = Setup::new(
            vec!["Dα-001".parse().unwrap(), "Dα-002".parse().unwrap()],
            vec!["Dα-021".parse().unwrap()],
            seed,
        );
        setup.tunables = tunables;
        if let Some(table) = bterm::analysis::cpu_battle(setup, cards(), [bterm::ai::Strength::Easy; 2]) {
            prop_assert!(table.game().round() >= 1);
        }
    }
}
