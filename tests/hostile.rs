//! Bad input and concurrent use, as a hostile or unlucky user meets them:
//! nothing panics, hangs, loses what was saved or prints raw control
//! characters.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use bterm::barcode::print::symbol_image;
use rxing::BarcodeFormat;

fn bterm(args: &[&str], data: &Path) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_bterm"))
        .args(args)
        .env("BTERM_DATA_DIR", data)
        .stdin(Stdio::null())
        .output()
        .expect("bterm runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn png(format: BarcodeFormat, text: &str, path: &Path) {
    symbol_image(format, text, 3, 10, 120)
        .unwrap()
        .save(path)
        .unwrap();
}

#[test]
fn twenty_enrolments_at_once_are_all_kept() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mut children = Vec::new();
    for i in 0..20 {
        let img = d.join(format!("c{i}.png"));
        png(BarcodeFormat::CODE_39, &format!("SHOP{i:04}"), &img);
        children.push(
            Command::new(env!("CARGO_BIN_EXE_bterm"))
                .args(["enroll", img.to_str().unwrap(), "Dα-001"])
                .env("BTERM_DATA_DIR", d)
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap(),
        );
    }
    for c in children {
        let out = c.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let store = bterm::collection::Store::open(&d.join("collection.sqlite")).unwrap();
    assert_eq!(
        store.enrolments().unwrap().len(),
        20,
        "every binding is kept"
    );
}

#[test]
fn a_killed_write_leaves_nothing_behind_for_long() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let stale = d.join(".bterm-enrolled.ron.4000000000.tmp");
    std::fs::write(&stale, "half a file").unwrap();
    std::fs::File::options()
        .write(true)
        .open(&stale)
        .unwrap()
        .set_modified(std::time::SystemTime::now() - Duration::from_secs(600))
        .unwrap();
    let img = d.join("c.png");
    png(BarcodeFormat::CODE_39, "SHOP0001", &img);
    let (code, _, err) = bterm(&["enroll", img.to_str().unwrap(), "Dα-001"], d);
    assert_eq!(code, 0, "{err}");
    assert!(!stale.exists(), "the dead process's temporary file is gone");
}

#[test]
fn a_broken_enrolments_file_warns_and_the_scan_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("enrolled.ron"), "[\n (format: Code39,\n oops").unwrap();
    let img = d.join("card.png");
    png(BarcodeFormat::CODE_128, "DA-001", &img);
    let (code, out, err) = bterm(&["scan", img.to_str().unwrap()], d);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Dα-001 Agumon"), "{out}");
    assert!(
        err.contains("warning:") && err.contains("enrolled.ron") && err.contains("line 3"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(d.join("enrolled.ron")).unwrap(),
        "[\n (format: Code39,\n oops"
    );
}

#[test]
fn enroll_refuses_a_command_card() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let img = d.join("c.png");
    png(BarcodeFormat::CODE_39, "SHOP0002", &img);
    let (code, _, err) = bterm(&["enroll", img.to_str().unwrap(), "Cα-001"], d);
    assert_eq!(code, 1);
    assert!(err.contains("is a Command card"), "{err}");
    assert!(!d.join("collection.sqlite").exists(), "nothing written");
}

#[test]
fn tunables_out_of_range_in_a_replay_are_refused_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let fixture = std::env::current_dir()
        .unwrap()
        .join("tests/fixtures/replay-before-session.ron");
    let text = std::fs::read_to_string(fixture).unwrap();
    for (from, to) in [
        ("max_points: 100", "max_points: -1"),
        ("max_rounds: 12", "max_rounds: 0"),
        ("alpha_group: 2", "alpha_group: 0"),
        ("gauge_full: 100", "gauge_full: 0"),
    ] {
        assert!(text.contains(from), "{from}");
        let file = d.join("bad.ron");
        std::fs::write(&file, text.replace(from, to)).unwrap();
        let (code, _, err) = bterm(&["replay", file.to_str().unwrap(), "--headless"], d);
        assert_eq!(code, 1, "{to}: {err}");
        assert!(
            err.contains("not playable") && !err.contains("panicked"),
            "{err}"
        );
    }
}

#[test]
fn folders_linked_into_themselves_are_walked_once() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let scans = d.join("scans");
    std::fs::create_dir(&scans).unwrap();
    png(BarcodeFormat::CODE_128, "DA-001", &scans.join("a.png"));
    std::os::unix::fs::symlink(&scans, scans.join("again")).unwrap();
    std::os::unix::fs::symlink(d, scans.join("parent")).unwrap();
    let (code, out, err) = bterm(&["scan", scans.to_str().unwrap()], d);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 1, "{out}");

    let cards = d.join("cards");
    std::fs::create_dir(&cards).unwrap();
    std::fs::copy(
        std::env::current_dir()
            .unwrap()
            .join("assets/cards/options.ron"),
        cards.join("options.ron"),
    )
    .unwrap();
    std::os::unix::fs::symlink(&cards, cards.join("loop")).unwrap();
    let (code, out, err) = bterm(&["cards", "check", cards.to_str().unwrap()], d);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("all valid"), "{out}");
}

/// Runs bterm and fails the test if it does not end within `limit`: its
/// exit code, and what it printed to stdout and stderr.
fn bterm_within(args: &[&str], data: &Path, limit: Duration) -> (i32, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_bterm"))
        .args(args)
        .env("BTERM_DATA_DIR", data)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let out = child.wait_with_output().unwrap();
            return (
                status.code().unwrap_or(-1),
                String::from_utf8_lossy(&out.stdout).into_owned()
                    + &String::from_utf8_lossy(&out.stderr),
            );
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            panic!("bterm {args:?} hung");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn pipes_devices_and_links_to_them_are_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let fifo = d.join("fifo.png");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let zero = d.join("zero.ron");
    std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
    let limit = Duration::from_secs(20);
    for args in [
        vec!["scan", fifo.to_str().unwrap()],
        vec!["scan", "/dev/zero"],
        vec!["cards", "check", zero.to_str().unwrap()],
        vec!["cards", "check", fifo.to_str().unwrap()],
        vec!["replay", zero.to_str().unwrap(), "--headless"],
        vec!["replay", fifo.to_str().unwrap(), "--headless"],
    ] {
        let (code, err) = bterm_within(&args, d, limit);
        assert_ne!(code, 0, "{args:?}");
        assert!(
            err.contains("not a regular file") && !err.contains("panicked"),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn card_files_may_start_with_a_byte_order_mark() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let text = std::fs::read_to_string(
        std::env::current_dir()
            .unwrap()
            .join("assets/cards/options.ron"),
    )
    .unwrap();
    let file = d.join("bom.ron");
    std::fs::write(&file, format!("\u{feff}{text}")).unwrap();
    let (code, out, err) = bterm(&["cards", "check", file.to_str().unwrap()], d);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("all valid"), "{out}");
}

#[test]
fn the_pixel_limit_message_names_the_limit_given() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let img = d.join("card.png");
    png(BarcodeFormat::CODE_128, "DA-001", &img);
    let (code, out, _) = bterm(
        &[
            "scan",
            "--json",
            "--max-pixels",
            "1000",
            img.to_str().unwrap(),
        ],
        d,
    );
    assert_eq!(code, 1);
    assert!(
        out.contains("above the limit of 1000 pixels (0.0 megapixels)"),
        "{out}"
    );
}

#[test]
fn control_characters_from_a_code_never_reach_the_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let img = d.join("evil.png");
    png(BarcodeFormat::QR_CODE, "\u{1b}]0;pwned\u{7}\u{1b}[2J", &img);
    let (_, out, err) = bterm(&["scan", img.to_str().unwrap()], d);
    assert!(out.contains("QR Code"), "the code was read: {out} {err}");
    assert!(
        !out.contains('\u{1b}') && !err.contains('\u{1b}'),
        "{out:?}"
    );
    assert!(out.contains("\\u{1b}]0;pwned"), "{out}");
    // JSON stays JSON, escaped by the format.
    let (_, out, _) = bterm(&["scan", "--json", img.to_str().unwrap()], d);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert!(!out.contains('\u{1b}'));
    assert_eq!(
        v["codes"][0]["text"].as_str().unwrap(),
        "\u{1b}]0;pwned\u{7}\u{1b}[2J"
    );
}

#[test]
fn a_misspelt_field_in_a_replay_is_reported_not_dropped() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let fixture = std::env::current_dir()
        .unwrap()
        .join("tests/fixtures/replay-before-session.ron");
    let text = std::fs::read_to_string(fixture).unwrap();
    assert!(text.contains("tunables: (\n"));
    let file = d.join("typo.ron");
    std::fs::write(&file, text.replacen("tunables: (\n", "tunable: (\n", 1)).unwrap();
    let (code, _, err) = bterm(&["replay", file.to_str().unwrap(), "--headless"], d);
    assert_eq!(code, 1);
    assert!(
        err.contains("typo.ron:") && err.contains("tunable"),
        "{err}"
    );
}

#[test]
fn a_path_too_long_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let long = "x".repeat(5000);
    let (code, _, err) = bterm(&["scan", &long], d);
    assert_eq!(code, 1);
    assert!(err.contains("File name too long"), "{err}");
    let (code, _, err) = bterm(&["cards", "check", &long], d);
    assert_eq!(code, 1);
    assert!(err.contains("File name too long"), "{err}");
}

#[test]
fn an_error_naming_an_outside_file_is_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let evil = d.join("\u{1b}[2Jcards.ron");
    std::fs::write(&evil, "[ not ron").unwrap();
    let (code, out, err) = bterm(&["cards", "check", evil.to_str().unwrap()], d);
    assert_eq!(code, 1);
    assert!(
        !err.contains('\u{1b}') && !out.contains('\u{1b}'),
        "{err:?}"
    );
    assert!(err.contains("\\u{1b}[2Jcards.ron"), "{err}");
}
