//! The `bterm` command as a person uses it.

use std::process::Command;

/// A data folder of its own for every bterm this test binary runs, so a
/// battle's rankings and a scan's collection never reach the user's.
fn data_dir() -> &'static std::path::Path {
    static DIR: std::sync::OnceLock<tempfile::TempDir> = std::sync::OnceLock::new();
    DIR.get_or_init(|| tempfile::tempdir().expect("a temporary folder"))
        .path()
}

fn bterm(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_bterm"))
        .env("BTERM_DATA_DIR", data_dir())
        .args(args)
        .output()
        .expect("bterm runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs bterm with its output closed before it writes (a reader such as
/// `head` that has stopped reading): (exit code, what it said on stderr).
fn bterm_into_closed_pipe(args: &[&str]) -> (i32, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_bterm"))
        .env("BTERM_DATA_DIR", data_dir())
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("bterm runs");
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("bterm ends");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn output_piped_into_a_reader_that_stopped_ends_quietly() {
    for args in [
        &["cards", "list"][..],
        &["cards", "show", "Dα-001"],
        &["collection", "sets"],
        &["rankings"],
    ] {
        let (code, err) = bterm_into_closed_pipe(args);
        assert_eq!((code, err.as_str()), (0, ""), "bterm {args:?}");
    }
}

#[test]
fn cards_check_accepts_the_sample_set() {
    let dir = std::env::current_dir().unwrap().join("assets/cards");
    let (code, out, err) = bterm(&["cards", "check", dir.to_str().unwrap()]);
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

fn bterm_with_input(args: &[&str], input: &str) -> (i32, String, String) {
    use std::io::Write as _;
    let mut child = Command::new(env!("CARGO_BIN_EXE_bterm"))
        .env("BTERM_DATA_DIR", data_dir())
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("bterm runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_human_plays_a_text_battle_with_a_b_c_and_1_2_3() {
    let keys = "q\na\n2\nc\n1\nb\n3\na\nn\nb\nc\n1\n2\n3\na\nb\nc\n".repeat(3);
    let (code, out, err) = bterm_with_input(
        &["battle", "Dα-001", "Dα-021", "--p2", "easy", "--seed", "5"],
        &keys,
    );
    assert_eq!(code, 0, "{err}\n{out}");
    assert!(out.contains("— Round 1 —"), "{out}");
    assert!(out.contains("P1: Agumon uses"), "{out}");
    assert!(out.contains("Clash:"), "{out}");
    assert!(out.contains("WINS!") || out.contains("DRAW"), "{out}");
    assert!(
        out.contains("\"q\" is not a choice now"),
        "a wrong key is answered, not a crash: {out}"
    );
}

#[test]
fn at_the_card_game_alpha_prompt_help_show_and_a_refused_play_say_what_they_should() {
    let (code, out, err) = bterm_with_input(
        &["alpha", "courage", "friendship", "--p2", "normal"],
        "help\nplay Greymon\nshow Greymon\n",
    );
    // The input runs out before the game ends: that is the error.
    assert_eq!(code, 1, "{err}\n{out}");
    assert!(
        out.contains("The choices now:\n      1. play Agumon"),
        "{out}"
    );
    assert!(
        out.contains("\"play Greymon\" is not a choice now: Greymon is above Level III"),
        "a refused play says which rule: {out}"
    );
    assert!(
        out.contains("Dα-002 Greymon\n    Card Game Alpha series"),
        "{out}"
    );
}

#[test]
fn a_human_readies_an_action_ability_in_the_text_battle() {
    // OP-010 Virus Infection: [Action:] [Battle], once per turn.
    let (code, out, err) = bterm_with_input(
        &[
            "battle",
            "Dα-001,OP-010",
            "Dα-021",
            "--p2",
            "easy",
            "--seed",
            "5",
        ],
        &"u\ny\na\n".repeat(12),
    );
    assert_eq!(code, 0, "{err}\n{out}");
    // The battle opens with who fights whom.
    assert!(
        out.starts_with(
            "P1 (you): Agumon, Virus Infection\nP2 (CPU, easy): Impmon\nAgumon (P1) fights Impmon (P2).\n"
        ),
        "{out}"
    );
    // Offered before the stance, with its card and text, as the arena does.
    assert!(
        out.contains("  Virus Infection — [Action:] [Battle] (Once per turn)"),
        "{out}"
    );
    assert!(
        out.contains("P1: ready Virus Infection's ability this round? [y/n]"),
        "{out}"
    );
    assert!(out.contains("\"u\" is not a choice now"), "{out}");
    assert!(
        out.contains("P1 readies Virus Infection's [Action:] ability"),
        "{out}"
    );
    // It resolves in the round it was readied.
    assert!(out.contains("P1: Virus Infection — [Action:]"), "{out}");
}

#[test]
fn a_human_battle_without_input_stops_with_a_clear_message() {
    let (code, _, err) = bterm_with_input(&["battle", "Dα-001", "Dα-021"], "");
    assert_eq!(code, 1);
    assert!(
        err.contains("the input closed while waiting for P1's choice; use --p1 easy|normal|hard"),
        "{err}"
    );
}

/// `--timer`: a person who does not answer in time gets the question's
/// default, as at the cabinet, and the battle plays to its end.
#[test]
fn the_text_battle_timer_answers_for_a_silent_player() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_bterm"))
        .env("BTERM_DATA_DIR", data_dir())
        .args([
            "battle", "Dα-001", "Dα-021", "--seed", "3", "--timer", "0.05",
        ])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("bterm runs");
    // The keyboard stays open and silent until the battle is over.
    let keyboard = child.stdin.take();
    let out = child.wait_with_output().unwrap();
    drop(keyboard);
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert_eq!(out.status.code(), Some(0), "{stderr}\n{stdout}");
    assert!(stdout.contains("time is up"), "{stdout}");
    assert!(
        stdout.contains(" (time up)"),
        "the printed battle type: {stdout}"
    );
    assert!(
        stdout.contains("WINS!") || stdout.contains("DRAW"),
        "{stdout}"
    );
    let (code, _, err) = bterm(&["battle", "Dα-001", "Dα-021", "--timer", "0"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("--timer 0: give a number of seconds above 0"),
        "{err}"
    );
}

#[test]
fn battle_save_never_overwrites_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("mine.ron");
    std::fs::write(&file, "keep me").unwrap();
    let f = file.to_str().unwrap();
    let (code, _, err) = bterm(&["battle", "Dα-001", "Dα-021", "--p1", "easy", "--save", f]);
    assert_eq!(code, 1);
    assert!(err.contains("already exists"), "{err}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "keep me");
}

#[test]
fn battle_refuses_a_team_the_rules_refuse() {
    let (code, _, err) = bterm(&["battle", "Dα-002", "Dα-021", "--p1", "easy"]);
    assert_eq!(code, 1);
    assert!(
        err.trim()
            .starts_with("error: P1: Greymon needs Agumon first"),
        "{err}"
    );
    // The README's shape with the cards as two arguments: the comma form
    // is suggested.
    let (code, _, err) = bterm(&["battle", "Dα-001", "Dα-002", "--p1", "easy"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("needs Agumon first")
            && err.contains("comma-separated: bterm battle \"Dα-001,Dα-002\""),
        "{err}"
    );
    let (code, _, err) = bterm(&["battle", "Dα-001,Dα-999", "Dα-021", "--p1", "easy"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("error: team \"Dα-001,Dα-999\": no card Dα-999 in this set"),
        "{err}"
    );
}

/// `--no-record` keeps a battle out of the rankings and the gallery: the
/// `--save` file is the only one written.
#[test]
fn a_battle_not_recorded_leaves_the_gallery_alone() {
    let data = tempfile::tempdir().unwrap();
    let file = data.path().join("kept.ron");
    let out = Command::new(env!("CARGO_BIN_EXE_bterm"))
        .env("BTERM_DATA_DIR", data.path())
        .args([
            "battle",
            "Dα-001",
            "Dα-021",
            "--p1",
            "easy",
            "--p2",
            "easy",
            "--seed",
            "4",
            "--no-record",
            "--save",
        ])
        .arg(&file)
        .output()
        .expect("bterm runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(!text.contains("gallery"), "{text}");
    assert!(text.contains("replay saved to"), "{text}");
    // The data folder holds the saved file and nothing else: no replays
    // for the gallery, no collection with the rankings.
    let names: Vec<String> = std::fs::read_dir(data.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["kept.ron"]);
}

#[test]
fn a_saved_battle_replays_and_a_tampered_one_fails() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("battle.ron");
    let f = file.to_str().unwrap();
    let (code, out, err) = bterm(&[
        "battle",
        "Dα-001,Dα-002,Oα-002",
        "Dα-021,Dα-022",
        "--p1",
        "hard",
        "--p2",
        "normal",
        "--seed",
        "9",
        "--save",
        f,
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.ends_with(&format!("replay saved to {f}\n")), "{out}");
    assert!(
        out.contains("\nreplay kept in the gallery: "),
        "a played battle goes into the gallery: {out}"
    );
    // It opens with who fights whom (the players are the battle's, not
    // the replay's: the log after them is the same).
    assert!(
        out.starts_with(
            "P1 (CPU, hard): Agumon, Greymon, Virus Killer\nP2 (CPU, normal): Impmon, Devimon\nAgumon (P1) fights Impmon (P2).\n— Round 1 —"
        ),
        "{out}"
    );
    let battle_log: Vec<&str> = out
        .lines()
        .skip(3)
        .filter(|l| !l.starts_with("replay saved") && !l.starts_with("replay kept"))
        .collect();

    let (code, out, err) = bterm(&["replay", f, "--headless"]);
    assert_eq!(code, 0, "{err}");
    let replay_log: Vec<&str> = out
        .lines()
        .filter(|l| !l.starts_with("replay checked"))
        .collect();
    assert_eq!(replay_log, battle_log, "the replay tells the same battle");
    assert!(out.contains("final state hash"), "{out}");

    let text = std::fs::read_to_string(&file).unwrap();
    let tampered = text
        .replacen("Stance(A)", "Stance(B)", 1)
        .replacen("Stance(C)", "Stance(A)", 1);
    assert_ne!(tampered, text);
    std::fs::write(&file, tampered).unwrap();
    let (code, _, err) = bterm(&["replay", f, "--headless"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("does not reproduce the recorded game") || err.contains("is refused"),
        "{err}"
    );

    std::fs::write(&file, "(rules: 12,").unwrap();
    let (code, _, err) = bterm(&["replay", f, "--headless"]);
    assert_eq!(code, 1);
    assert!(
        err.contains(&format!("{f}:1:")) && err.contains("not a bterm replay"),
        "{err}"
    );
}

#[test]
fn analyze_reports_the_design_measures() {
    let (code, out, err) = bterm(&["analyze", "--battles", "40", "--level", "easy"]);
    assert_eq!(code, 0, "{err}");
    for want in [
        "Stance payoff matrix",
        "Dominant row: none",
        "P1 wins",
        "Rounds per battle",
        "Hard vs Normal",
        "Hard vs Easy",
    ] {
        assert!(out.contains(want), "{want}: {out}");
    }
}

/// A battle saved, printed as a battle card, photographed the way
/// `examples/make_scans.rs` damages its scans, and played back from the
/// photo to the same state hash; a foreign or damaged code is refused.
#[test]
fn a_battle_card_prints_and_plays_back_from_a_photo() {
    use bterm::barcode::perturb::{KINDS, jpeg_bytes, shoot};
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("battle.ron");
    let f = file.to_str().unwrap();
    let (code, out, err) = bterm(&[
        "battle",
        "Dα-001,Dα-002,Oα-002",
        "Dα-021,Dα-022",
        "--p1",
        "hard",
        "--p2",
        "normal",
        "--seed",
        "4",
        "--save",
        f,
    ]);
    assert_eq!(code, 0, "{err}{out}");
    let (code, checked, err) = bterm(&["replay", f, "--headless"]);
    assert_eq!(code, 0, "{err}");
    let hash_line = checked.lines().last().unwrap().to_string();
    assert!(hash_line.contains("matches"), "{hash_line}");

    let card = dir.path().join("card.png");
    let c = card.to_str().unwrap();
    let (code, out, err) = bterm(&["replay", "share", f, "--out", c]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("a battle card of"), "{out}");
    // Never over a file the user has, without --force.
    let (code, _, err) = bterm(&["replay", "share", f, "--out", c]);
    assert_eq!(code, 1);
    assert!(err.contains("--force"), "{err}");

    // The card as printed, then as a webcam would see it.
    let (code, out, err) = bterm(&["replay", c, "--headless"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().last().unwrap(), hash_line);
    let printed = image::open(&card).unwrap().to_luma8();
    let mut read = 0;
    for (kind, shot) in KINDS
        .iter()
        .filter(|(k, _)| ["clean", "rotated20", "perspective", "dim"].contains(k))
    {
        let photo = dir.path().join(format!("photo-{kind}.jpg"));
        std::fs::write(&photo, jpeg_bytes(&shoot(&printed, shot, 7), shot.jpeg)).unwrap();
        let (code, out, err) = bterm(&["replay", photo.to_str().unwrap(), "--headless"]);
        if code == 0 {
            assert_eq!(out.lines().last().unwrap(), hash_line, "{kind}");
            read += 1;
        } else {
            assert!(
                err.contains("no barcode found") || err.contains("damaged"),
                "{kind}: {err}"
            );
        }
    }
    assert!(
        read >= 3,
        "only {read} of 4 photos of the battle card read back"
    );

    // `bterm scan` names it as a battle card.
    let (code, out, err) = bterm(&["scan", c, "--no-collect"]);
    assert_eq!(code, 1, "{out}");
    assert!(format!("{out}{err}").contains("battle card"), "{out}{err}");

    // A card's QR code is not a battle card; a damaged one says so.
    let other = dir.path().join("other.png");
    let (code, _, err) = bterm(&["print", "Dα-001", "--out", other.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = bterm(&["replay", other.to_str().unwrap(), "--headless"]);
    assert_eq!(code, 1);
    assert!(err.contains("no battle card"), "{err}");
    let text = bterm::replay::code::encode(
        &bterm::replay::Replay::<bterm::rules::terminal::Match>::load(&file).unwrap(),
    )
    .unwrap();
    let mut broken = text.clone().into_bytes();
    let last = broken.len() - 5;
    broken[last] = if broken[last] == b'0' { b'1' } else { b'0' };
    let err = bterm::replay::code::decode(std::str::from_utf8(&broken).unwrap()).unwrap_err();
    assert!(err.to_string().contains("damaged"), "{err}");
    let err = bterm::replay::code::decode("BTERM-BATTLE:").unwrap_err();
    assert!(err.to_string().contains("damaged"), "{err}");
    let mut newer = bterm::replay::code::base45_decode(&text["BTERM-BATTLE:".len()..]).unwrap();
    newer[0] = 9;
    let err = bterm::replay::code::decode(&format!(
        "BTERM-BATTLE:{}",
        bterm::replay::code::base45_encode(&newer)
    ))
    .unwrap_err();
    assert!(err.to_string().contains("format 9"), "{err}");
}

/// `bterm replay list` shows every replay, the ones that do not play back
/// with their reason, and leaves every file as it was.
#[test]
fn replay_list_shows_every_replay_and_why_one_fails() {
    let dir = tempfile::tempdir().unwrap();
    let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    for f in ["replay-before-session.ron", "alpha-replay-4-seats.ron"] {
        std::fs::copy(fixtures.join(f), dir.path().join(f)).unwrap();
    }
    std::fs::write(dir.path().join("broken.ron"), "(rules: 12,").unwrap();
    let d = dir.path().to_str().unwrap();
    let (code, out, err) = bterm(&["replay", "list", "--dir", d]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("Terminal Battle") && out.contains("Card Game Alpha"),
        "{out}"
    );
    assert!(out.contains("Agumon"), "{out}");
    assert!(out.contains("verified"), "{out}");
    assert!(out.contains("does not play back: "), "{out}");
    assert!(
        out.contains("3 replays in") && out.contains("1 of them do not play back"),
        "{out}"
    );
    let (code, out, err) = bterm(&["replay", "list", "--dir", d, "--json"]);
    assert_eq!(code, 0, "{err}");
    let rows: serde_json::Value = serde_json::from_str(&out).unwrap();
    let rows = rows.as_array().unwrap();
    assert_eq!(rows.len(), 3);
    let four = rows
        .iter()
        .find(|r| {
            r["file"]
                .as_str()
                .unwrap()
                .ends_with("alpha-replay-4-seats.ron")
        })
        .unwrap();
    assert_eq!(four["seats"].as_array().unwrap().len(), 4);
    assert_eq!(four["verified"], true);
    assert!(four["result"].as_str().unwrap().ends_with("won"), "{four}");
    let broken = rows
        .iter()
        .find(|r| r["file"].as_str().unwrap().ends_with("broken.ron"))
        .unwrap();
    assert_eq!(broken["verified"], false);
    assert!(
        broken["problem"]
            .as_str()
            .unwrap()
            .contains("not a bterm replay")
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("broken.ron")).unwrap(),
        "(rules: 12,"
    );
    let (code, _, err) = bterm(&["replay", "list", "--dir", "/nonexistent/bterm"]);
    assert_eq!(code, 1);
    assert!(err.contains("is not a folder"), "{err}");
}

/// `bterm script` plays a script of either game (the file names it) and
/// says whether its expectations hold; a script that names no game, or
/// whose expectation fails, exits 1 and says why.
#[test]
fn script_plays_either_game_and_checks_it() {
    let (code, out, err) = bterm(&["script", "docs/scripts/terminal-read-bonus.ron"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("P1: attack power ×130% (read bonus)"), "{out}");
    assert!(out.contains("expectations: all 2 hold"), "{out}");
    let (code, out, err) = bterm(&["script", "docs/scripts/alpha-short-deck.ron", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["ruleset"], "Alpha");
    // The fields `bterm alpha --script --json` always had.
    assert_eq!(v["turn"], 2);
    assert!(v["waiting_for"].is_null());
    assert_eq!(v["seats"].as_array().map(Vec::len), Some(2));
    assert_eq!(v["outcome"]["Win"], "P2");
    assert_eq!(v["failures"].as_array().map(Vec::len), Some(0));
    // An Alpha script that names no game: `bterm alpha --script` plays it,
    // `bterm script` asks for its game.
    let (code, _, err) = bterm(&["alpha", "--script", "tests/alpha/action_ability_taps.ron"]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = bterm(&["script", "tests/alpha/action_ability_taps.ron"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("does not name its game") && err.contains("ruleset:"),
        "{err}"
    );
    // An expectation that does not hold.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("wrong.ron");
    std::fs::write(
        &file,
        r#"(ruleset: Terminal, teams: [["Agumon"], ["Gabumon"]], steps: [(P1, "a"), (P2, "b")], expect: [Points(P1, 100)])"#,
    )
    .unwrap();
    let (code, _, err) = bterm(&["script", file.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(
        err.contains("1 of 1 expectations fail") && err.contains("found 90 points"),
        "{err}"
    );
}

/// `bterm script --add-cards` plays a scenario with test cards of its own
/// beside the sample set; the sample set alone does not know them, and
/// cards whose numbers the set gives other cards are refused with the
/// file named.
#[test]
fn script_adds_a_scenario_s_own_cards_to_the_sample_set() {
    let file =
        "tests/dcg/own-cards/dcg-eff-25-a-deleted-digimon-s-waiting-effect-does-not-activate.ron";
    let (code, out, err) = bterm(&["script", file, "--add-cards", "tests/dcg/own-cards/cards"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("P2's Lookoutmon is deleted."), "{out}");
    assert!(out.contains("expectations: all 4 hold"), "{out}");
    let (code, _, err) = bterm(&["script", file]);
    assert_eq!(code, 1);
    assert!(err.contains("P-951"), "{err}");
    // A test card numbered as a sample card is.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("clash.ron"),
        r#"[Dcg(number: "ST1-03", name: "Not Biyomon", kind: Digimon, colors: [Red], level: 3, cost: 1, digivolve: [(color: Red, level: 2, cost: 0)], dp: 1000)]"#,
    )
    .unwrap();
    let (code, _, err) = bterm(&["script", file, "--add-cards", dir.path().to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(
        err.contains("ST1-03") && err.contains("do not go with the set"),
        "{err}"
    );
}

/// At a Digimon Card Game or Alpha Clash prompt, `show NAME` shows that
/// game's card of the name (names repeat across the games' cards), the
/// words a listed choice shows are taken as typed, and a move the rules
/// refuse says which rule stops it.
#[test]
fn a_card_game_prompt_shows_its_own_cards_takes_the_shown_words_and_says_why() {
    let (_, out, _) = bterm_with_input(
        &["dcg", "red", "blue", "--seed", "5"],
        "show Greymon\nkeep this hand\n",
    );
    assert!(out.contains("ST1-06 Greymon"), "{out}");
    assert!(!out.contains("Card Game Alpha"), "{out}");
    assert!(out.contains("P1 keeps the opening hand."), "{out}");
    let (_, out, _) = bterm_with_input(
        &["clash", "ashfall", "skyward", "--seed", "3"],
        "keep this hand\nplay Hollow Stalker\n",
    );
    assert!(out.contains("P1 keeps their opening hand."), "{out}");
    assert!(
        out.contains("\"play Hollow Stalker\" is not a choice now: ")
            && out.contains("(CL-CLASH-1)"),
        "{out}"
    );
}

/// At the terminal a question with nothing to decide (its one answer is
/// its default: the first turn's Primary Phase with nothing playable) is
/// answered at once and said so, and `concede` asks once more: anything
/// but `yes` goes back to the question.
#[test]
fn nothing_to_decide_is_not_asked_and_conceding_is_confirmed() {
    let (code, out, err) = bterm_with_input(
        &[
            "clash", "ashfall", "skyward", "--seed", "3", "--p2", "normal",
        ],
        "keep this hand\nno resource this turn\nno resource this turn\nconcede\nno\nconcede\nyes\n",
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("P1: end the turn (nothing else can be done now)"),
        "{out}"
    );
    assert!(!out.contains("is not a choice now"), "{out}");
    assert_eq!(
        out.matches("Concede the game? Type yes").count(),
        2,
        "{out}"
    );
    assert!(
        out.contains("P1 loses: conceded.") && out.contains("P2 wins the game."),
        "{out}"
    );
    // Input that ends at the question concedes: nothing else can answer.
    let (code, out, err) = bterm_with_input(
        &[
            "clash", "ashfall", "skyward", "--seed", "3", "--p2", "normal",
        ],
        "keep this hand\nconcede\n",
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("P1 loses: conceded."), "{out}");
}

/// Absurd durations are refused with a message, never a panic (issue 41).
#[test]
fn absurd_durations_are_refused() {
    for args in [
        &["host", "terminal", "--wait", "9223372036854775807"][..],
        &["join", "--listen", "18446744073709551615"][..],
    ] {
        let (code, _, err) = bterm(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains("is not in"), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

/// `bterm dcg` plays a whole game between CPUs and `bterm deck import`
/// names every line of a list it cannot place.
#[test]
fn dcg_plays_and_deck_import_names_bad_lines() {
    let (code, out, err) = bterm(&["dcg", "red", "purple", "--p1", "normal", "--p2", "easy"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("WINS") || out.contains("DRAW"), "{out}");
    let dir = tempfile::tempdir().unwrap();
    let list = dir.path().join("list.txt");
    std::fs::write(&list, "4 Koromon ST1-01\n4 Nosuchmon\n2 ST9-99\n").unwrap();
    let (code, _, err) = bterm(&["deck", "import", list.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(err.contains("line 2") && err.contains("line 3"), "{err}");
    let (code, _, err) = bterm(&["deck", "check", "courage"]);
    assert_eq!(code, 0, "{err}");
}
