//! The collector's store as collectors use it, through `bterm`: scans
//! kept, re-scans not counted, undo, CSV in and out, backups, rankings,
//! and durability (a killed scan, two writers, read-only and foreign
//! files).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

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

/// The printed card scans shipped in `barcodes/cards` (one per card).
fn card_scans() -> PathBuf {
    std::env::current_dir().unwrap().join("barcodes/cards")
}

/// A folder of `n` of the shipped card scans.
fn some_scans(dir: &Path, n: usize) -> PathBuf {
    let out = dir.join("scans");
    std::fs::create_dir_all(&out).unwrap();
    let mut files: Vec<PathBuf> = std::fs::read_dir(card_scans())
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    for f in files.iter().take(n) {
        std::fs::copy(f, out.join(f.file_name().unwrap())).unwrap();
    }
    out
}

fn count_line(out: &str, number: &str) -> Option<u32> {
    out.lines()
        .find(|l| l.contains(&format!(" × {number} ")))
        .and_then(|l| l.split('×').next())
        .and_then(|n| n.trim().parse().ok())
}

#[test]
fn scans_are_kept_once_per_picture_and_undo_takes_a_batch_back() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let scans = some_scans(d, 4);
    let s = scans.to_str().unwrap();
    let (code, _, err) = bterm(&["scan", s], d);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("4 copies added (4 cards never scanned before)"),
        "{err}"
    );
    // The same folder again: read, but not counted twice.
    let (code, _, err) = bterm(&["scan", s], d);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("0 copies added, 4 pictures"), "{err}");
    assert!(!err.contains("undo"), "nothing to take back: {err}");
    assert!(
        err.contains("4 pictures scanned before were already counted"),
        "{err}"
    );
    let (_, out, _) = bterm(&["collection", "list"], d);
    assert!(out.contains("4 copies of 4 cards"), "{out}");
    // Only reading writes nothing.
    let (code, _, err) = bterm(&["scan", "--no-collect", s], d);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("collection:"), "{err}");
    let (_, out, _) = bterm(&["collection", "history"], d);
    assert_eq!(out.lines().count(), 2, "two scan batches: {out}");
    // Traded away, then the trade undone.
    let (code, _, err) = bterm(&["scan", "--remove", s], d);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("4 copies taken out"), "{err}");
    let (_, out, _) = bterm(&["collection", "list"], d);
    assert!(out.contains("the collection is empty"), "{out}");
    let (code, out, _) = bterm(&["collection", "undo"], d);
    assert_eq!(code, 0);
    assert!(out.contains("scan --remove"), "{out}");
    let (_, out, _) = bterm(&["collection", "list"], d);
    assert!(out.contains("4 copies of 4 cards"), "{out}");
}

#[test]
fn typed_cards_sets_missing_doubles_and_decks() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (code, out, err) = bterm(
        &["collection", "add", "agumon", "Dα-002", "--count", "5"],
        d,
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Dα-001 Agumon: +5, 5 copies now"), "{out}");
    let (_, out, _) = bterm(&["collection", "sets"], d);
    assert!(
        out.contains("alpha-digimon") && out.contains("2/44"),
        "{out}"
    );
    let (_, out, _) = bterm(&["collection", "missing", "alpha-digimon"], d);
    assert!(
        out.contains("42 of 44 missing") && out.contains("Dα-003 Metal Greymon"),
        "{out}"
    );
    assert!(!out.contains("Dα-001 "), "{out}");
    let (code, _, err) = bterm(&["collection", "missing", "no-such-set"], d);
    assert_eq!(code, 1);
    assert!(err.contains("the sets are alpha-digimon"), "{err}");
    let (_, out, _) = bterm(&["collection", "doubles"], d);
    assert!(
        out.contains("2 spare × Dα-001 Agumon (5 owned; a deck uses 3)"),
        "{out}"
    );
    let (_, out, _) = bterm(&["collection", "decks"], d);
    assert!(out.contains("courage:") && out.contains("short"), "{out}");
    assert!(!out.contains("3 × Dα-001"), "Agumon is owned: {out}");
    let (code, _, err) = bterm(&["deck", "check", "courage", "--owned"], d);
    assert_eq!(code, 1);
    assert!(
        err.contains("your collection is") && err.contains("Metal Greymon"),
        "{err}"
    );
    // A card not held cannot be taken out: said, and a failure.
    let (code, out, err) = bterm(&["collection", "remove", "Dα-003"], d);
    assert_eq!(code, 1);
    assert!(
        out.contains("not in the collection") && err.contains("holds none"),
        "{out}{err}"
    );
    // --field filters Digimon by Field.
    let (_, out, _) = bterm(&["collection", "list", "--field", "NSp"], d);
    assert!(out.contains("no owned card matches"), "{out}");
    let (_, out, _) = bterm(&["collection", "list", "--json"], d);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v[0]["number"], "Dα-001");
    assert_eq!(v[0]["count"], 5);
}

#[test]
fn a_misread_scan_is_fixed_by_its_id() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let scans = some_scans(d, 1);
    bterm(&["scan", scans.to_str().unwrap()], d);
    let (_, out, _) = bterm(&["collection", "scans"], d);
    let line = out.lines().next().unwrap().to_string();
    let id = line.split_whitespace().nth(1).unwrap().to_string();
    let read = line.split_whitespace().nth(4).unwrap().to_string();
    let (code, out, err) = bterm(&["collection", "fix", &id, "Dα-059"], d);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains(&format!("scan {id}: {read}")) && out.contains("Dα-059 Omnimon"),
        "{out}"
    );
    let (_, out, _) = bterm(&["collection", "list"], d);
    assert_eq!(count_line(&out, "Dα-059"), Some(1), "{out}");
    assert_eq!(count_line(&out, &read), None, "{out}");
    let (code, _, err) = bterm(&["collection", "fix", "99999", "Dα-059"], d);
    assert_eq!(code, 1);
    assert!(err.contains("there is no scan 99999"), "{err}");
}

#[test]
fn csv_export_then_import_changes_nothing_and_a_bad_file_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    bterm(&["collection", "add", "Dα-001", "--count", "3"], d);
    bterm(
        &[
            "collection",
            "grade",
            "Dα-001",
            "--copies",
            "1-2",
            "--condition",
            "near mint",
            "--note",
            "box, \"first\" print",
        ],
        d,
    );
    let csv = d.join("mine.csv");
    let c = csv.to_str().unwrap();
    let (code, out, err) = bterm(&["collection", "export", "--csv", c], d);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("3 copies of 1 card"), "{out}");
    let text = std::fs::read_to_string(&csv).unwrap();
    assert!(
        text.contains("Dα-001,Agumon,alpha-digimon,2,near mint,\"box, \"\"first\"\" print\""),
        "{text}"
    );
    // Never over a file without --force.
    let (code, _, err) = bterm(&["collection", "export", "--csv", c], d);
    assert_eq!(code, 1);
    assert!(err.contains("--force"), "{err}");
    let (code, out, err) = bterm(&["collection", "import", "--csv", c], d);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("already matches"), "{out}");
    // Into another collection: the same counts and grades.
    let other = tempfile::tempdir().unwrap();
    let (code, out, err) = bterm(&["collection", "import", "--csv", c], other.path());
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("1 count changed, 2 copies regraded"), "{out}");
    let (_, out, _) = bterm(&["collection", "list"], other.path());
    assert!(out.contains("2 near mint (box, \"first\" print)"), "{out}");
    // A file with bad rows: each named by its line, nothing written.
    let bad = d.join("bad.csv");
    std::fs::write(
        &bad,
        "number,name,set,count,condition,note\nDα-002,Greymon,,2,,\nDα-999,Nobody,,1,,\nDα-003,Metal Greymon,,lots,,\n",
    )
    .unwrap();
    let (code, _, err) = bterm(&["collection", "import", "--csv", bad.to_str().unwrap()], d);
    assert_eq!(code, 1);
    assert!(err.contains("line 3") && err.contains("Dα-999"), "{err}");
    assert!(err.contains("line 4") && err.contains("lots"), "{err}");
    assert!(err.contains("nothing of this file was imported"), "{err}");
    let (_, out, _) = bterm(&["collection", "list"], d);
    assert_eq!(count_line(&out, "Dα-002"), None, "{out}");
}

#[test]
fn a_backup_can_be_restored_and_the_replaced_collection_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    bterm(&["collection", "add", "Dα-001"], d);
    let backup = d.join("backup.sqlite");
    let b = backup.to_str().unwrap();
    let (code, _, err) = bterm(&["collection", "backup", b], d);
    assert_eq!(code, 0, "{err}");
    bterm(&["collection", "add", "Dα-002"], d);
    let (code, out, err) = bterm(&["collection", "restore", b], d);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("before-restore-1"), "{out}");
    let (_, out, _) = bterm(&["collection", "list"], d);
    assert!(out.contains("1 copy of 1 card"), "{out}");
    let (_, out, _) = bterm(&["collection", "check"], d);
    assert!(out.contains("sound"), "{out}");
}

#[test]
fn a_foreign_file_is_named_and_never_written_and_scan_still_reads() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let db = d.join("collection.sqlite");
    std::fs::write(&db, "these are my notes, not a database").unwrap();
    let scans = some_scans(d, 2);
    let (code, out, err) = bterm(&["scan", scans.to_str().unwrap()], d);
    assert_eq!(code, 1, "{err}");
    assert_eq!(out.lines().count(), 2, "both files read: {out}");
    assert!(
        err.contains("not a bterm collection") && err.contains("collection.sqlite"),
        "{err}"
    );
    assert!(err.contains("read but not collected"), "{err}");
    let (code, _, err) = bterm(&["collection", "list"], d);
    assert_eq!(code, 1);
    assert!(err.contains("left untouched"), "{err}");
    assert_eq!(
        std::fs::read_to_string(&db).unwrap(),
        "these are my notes, not a database"
    );
}

#[test]
fn a_data_folder_that_cannot_be_written_is_said_and_scan_still_reads() {
    let dir = tempfile::tempdir().unwrap();
    let scans = some_scans(dir.path(), 2);
    // A read-only folder (root writes anyway, so it is checked only for
    // others), and a folder that cannot be made (its parent is a file),
    // which stops root too.
    let read_only = dir.path().join("data");
    std::fs::create_dir(&read_only).unwrap();
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::set_permissions(&read_only, std::fs::Permissions::from_mode(0o555)).unwrap();
    let root = std::fs::write(read_only.join("probe"), "x").is_ok();
    let blocked = dir.path().join("a-file");
    std::fs::write(&blocked, "not a folder").unwrap();
    let mut cases = vec![blocked.join("bterm")];
    if !root {
        cases.push(read_only.clone());
    }
    for d in &cases {
        let (code, out, err) = bterm(&["scan", scans.to_str().unwrap()], d);
        assert_eq!(out.lines().count(), 2, "both files read: {out}{err}");
        assert_eq!(code, 1, "{err}");
        assert!(err.contains("cannot write the collection"), "{err}");
        assert!(
            err.contains("read but not collected") && err.contains("--no-collect"),
            "{err}"
        );
        // --no-collect reads without a word about it.
        let (code, _, err) = bterm(&["scan", "--no-collect", scans.to_str().unwrap()], d);
        assert_eq!(code, 0, "{err}");
    }
    std::fs::set_permissions(&read_only, std::fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn two_bterms_adding_at_once_lose_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_path_buf();
    let runs: Vec<_> = (0..2)
        .map(|w| {
            let d = d.clone();
            std::thread::spawn(move || {
                for _ in 0..12 {
                    let (code, _, err) = bterm(
                        &[
                            "collection",
                            "add",
                            if w == 0 { "Dα-001" } else { "Dα-002" },
                        ],
                        &d,
                    );
                    assert_eq!(code, 0, "{err}");
                }
            })
        })
        .collect();
    for r in runs {
        r.join().unwrap();
    }
    let (_, out, _) = bterm(&["collection", "list"], &d);
    assert_eq!(count_line(&out, "Dα-001"), Some(12), "{out}");
    assert_eq!(count_line(&out, "Dα-002"), Some(12), "{out}");
}

/// A scan killed mid-batch (SIGKILL: no chance to clean up) leaves a sound
/// database holding every scan it committed; scanning the folder again
/// completes it without counting a picture twice.
#[test]
fn a_scan_killed_mid_batch_keeps_every_committed_scan() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // 70 pictures, 30 times over under other names: 2,100 files, 70
    // pictures. So many that the scan cannot finish before it is killed:
    // it may read faster than this test reads its output, but stops when
    // the pipe's buffer (64 KiB, under 1,100 lines) is full.
    const FILES: i64 = 2100;
    let scans = d.join("big");
    std::fs::create_dir(&scans).unwrap();
    for f in std::fs::read_dir(card_scans()).unwrap() {
        let f = f.unwrap().path();
        for k in 0..FILES / 70 {
            let to = scans.join(format!("{k}-{}", f.file_name().unwrap().to_str().unwrap()));
            if std::fs::hard_link(&f, &to).is_err() {
                std::fs::copy(&f, &to).unwrap();
            }
        }
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_bterm"))
        .args(["scan", "--threads", "2", scans.to_str().unwrap()])
        .env("BTERM_DATA_DIR", d)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Wait until it is well into the batch: past the first commit (every
    // 256 scans, or 2 seconds).
    let mut lines = std::io::BufRead::lines(std::io::BufReader::new(child.stdout.take().unwrap()));
    for _ in 0..300 {
        lines.next().unwrap().unwrap();
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let db = d.join("collection.sqlite");
    let conn = rusqlite::Connection::open(&db).unwrap();
    let check: String = conn
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(check, "ok");
    let kept: i64 = conn
        .query_row("SELECT count(*) FROM scans", [], |r| r.get(0))
        .unwrap();
    assert!(
        kept > 0 && kept < FILES,
        "{kept} scans kept of the 300 or more read"
    );
    // Every kept scan is whole: a card, a file, a digest.
    let whole: i64 = conn
        .query_row(
            "SELECT count(*) FROM scans WHERE card <> '' AND place IS NOT NULL AND digest IS NOT NULL",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(whole, kept);
    drop(conn);
    let (code, _, err) = bterm(&["scan", scans.to_str().unwrap()], d);
    assert_eq!(code, 0, "{err}");
    let (_, out, _) = bterm(&["collection", "list"], d);
    assert!(
        out.contains("70 copies of 70 cards"),
        "each picture counted once: {out}"
    );
}

#[test]
fn battles_are_ranked() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for seed in ["1", "2", "3"] {
        let (code, _, err) = bterm(
            &[
                "battle",
                "Dα-001,Dα-002",
                "Dα-021",
                "--p1",
                "normal",
                "--p2",
                "easy",
                "--seed",
                seed,
            ],
            d,
        );
        assert_eq!(code, 0, "{err}");
    }
    let (code, _, err) = bterm(
        &[
            "battle",
            "Dα-001",
            "Dα-021",
            "--p1",
            "easy",
            "--p2",
            "easy",
            "--no-record",
        ],
        d,
    );
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = bterm(&["rankings"], d);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("3 battles recorded"), "{out}");
    assert!(out.contains("Agumon") && out.contains("Impmon"), "{out}");
    // CPU against CPU: no challenger streak.
    assert!(out.contains("challenger streak 0 (best 0)"), "{out}");
}

/// A product barcode's wild Digimon is kept with its data and its barcode,
/// so the collection names it without the barcode in sight.
#[test]
fn a_wild_digimon_is_kept_whole() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let img = d.join("snack.png");
    bterm::barcode::print::symbol_image(rxing::BarcodeFormat::EAN_13, "4901234567894", 3, 10, 120)
        .unwrap()
        .save(&img)
        .unwrap();
    let wild = bterm::barcode::wild::wild_card("4901234567894").unwrap();
    let (code, _, err) = bterm(&["scan", img.to_str().unwrap()], d);
    assert_eq!(code, 0, "{err}");
    let (_, out, _) = bterm(&["collection", "list"], d);
    assert!(
        out.contains(&format!("{} {}  [no set]", wild.number(), wild.name())),
        "{out}"
    );
    let (_, out, _) = bterm(&["collection", "sets"], d);
    assert!(out.contains("1 card in no printed set"), "{out}");
    let conn = rusqlite::Connection::open(d.join("collection.sqlite")).unwrap();
    let (format, text): (String, String) = conn
        .query_row("SELECT format, code FROM scans", [], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .unwrap();
    assert_eq!(
        (format.as_str(), text.as_str()),
        ("EAN-13", "4901234567894")
    );
    drop(conn);
    // `cards show` finds the card the collection holds.
    let (code, out, err) = bterm(&["cards", "show", &wild.number().to_string()], d);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(wild.name()), "{out}");
    // Exported, it imports back into a fresh collection, whole.
    let csv = d.join("mine.csv");
    let (code, _, err) = bterm(&["collection", "export", "--csv", csv.to_str().unwrap()], d);
    assert_eq!(code, 0, "{err}");
    let fresh = tempfile::tempdir().unwrap();
    let (code, _, err) = bterm(
        &["collection", "import", "--csv", csv.to_str().unwrap()],
        fresh.path(),
    );
    assert_eq!(code, 0, "a wild Digimon's row imports: {err}");
    let (_, out, _) = bterm(&["collection", "list"], fresh.path());
    assert!(
        out.contains(&format!("{} {}  [no set]", wild.number(), wild.name())),
        "{out}"
    );
    let (_, out, _) = bterm(&["cards", "show", &wild.number().to_string()], fresh.path());
    assert!(out.contains(wild.name()), "{out}");
}
