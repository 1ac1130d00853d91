//! The `bterm` command as a person uses it.

use std::process::Command;

fn bterm(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_bterm"))
        .args(args)
        .output()
        .expect("bterm runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn cards_check_accepts_the_sample_set() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/cards");
    let (code, out, err) = bterm(&["cards", "check", dir]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("cards, all valid"), "{out}");
}

#[test]
fn cards_check_reports_every_problem_and_fails() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bad.ron");
    std::fs::write(&file, "[\n    Option(number: \"OP-001\", name: \"X\", cost: 12),\n    Option(number: \"op001\", name: \"Y\", cost: 1),\n]\n").unwrap();
    let (code, out, err) = bterm(&["cards", "check", file.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(out.is_empty());
    assert!(
        err.contains("bad.ron:2:47: OP-001 X: cost is 12, which is out of range (0..=10)"),
        "{err}"
    );
    assert!(
        err.contains("bad.ron:3:20: OP-001 Y: duplicate card number OP-001: already used at"),
        "{err}"
    );
    assert!(err.contains("fix them and try again"), "{err}");
}

#[test]
fn cards_list_filters_by_field_and_level() {
    let (code, out, _) = bterm(&["cards", "list", "--field", "dr", "--level", "ultimate"]);
    assert_eq!(code, 0);
    let names: Vec<&str> = out
        .lines()
        .map(|l| l.split_whitespace().nth(1).unwrap())
        .collect();
    assert_eq!(names, ["War", "War", "Gallantmon"], "{out}");
    let (code, out, _) = bterm(&["cards", "list", "--level", "hybrid"]);
    assert_eq!(code, 0);
    assert_eq!(out.lines().count(), 2, "{out}");
}

#[test]
fn cards_list_json_is_one_object_per_line() {
    let (code, out, _) = bterm(&["cards", "list", "--json", "--field", "Nature Spirits"]);
    assert_eq!(code, 0);
    let cards: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(cards.len(), 9);
    assert_eq!(cards[0]["Digimon"]["name"], "Gabumon");
    assert_eq!(cards[0]["Digimon"]["number"], "Dα-012");
}

#[test]
fn cards_list_refuses_an_unknown_field() {
    let (code, _, err) = bterm(&["cards", "list", "--field", "Moon"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("unknown Field \"Moon\"; the Fields are Dragon's Roar (DR)"),
        "{err}"
    );
}

#[test]
fn cards_show_prints_abilities_in_words() {
    let (code, out, err) = bterm(&["cards", "show", "da-059"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("Dα-059 Omnimon  ◎ one-card limit\n"),
        "{out}"
    );
    assert!(
        out.contains("Jogress: War Greymon ⇔ Metal Garurumon"),
        "{out}"
    );
    assert!(out.contains("A  Transcendent Sword"), "{out}");
    assert!(
        out.contains("◎ [Battle] (Once per game) If the opposing Digimon is Perfect or lower, reduce every technique of the opposing Digimon to 0."),
        "{out}"
    );
}

#[test]
fn cards_show_suggests_the_nearest_card() {
    let (code, out, err) = bterm(&["cards", "show", "DA-0599"]);
    assert_eq!(code, 1);
    assert!(out.is_empty());
    assert_eq!(
        err.trim(),
        "error: no card Dα-599 in this set; did you mean Dα-059 Omnimon?"
    );
}

#[test]
fn a_broken_card_folder_is_reported_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("x.ron"), "[ Digimon(number: ").unwrap();
    let (code, _, err) = bterm(&["cards", "list", "--cards", dir.path().to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(err.contains("x.ron:1:"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}
