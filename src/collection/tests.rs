use super::rankings::{BattleRecord, SeatRecord};
use super::*;

fn number(text: &str) -> CardNumber {
    text.parse().unwrap()
}

fn card(text: &str) -> CardRef {
    CardRef {
        number: number(text),
        name: format!("card {text}"),
        data: None,
    }
}

fn file_scan(text: &str, digest: &str) -> NewScan {
    NewScan {
        card: card(text),
        origin: Origin::File,
        place: Some(format!("{digest}.png")),
        code: Some(("Code 128".into(), format!("BT{text}"))),
        digest: Some(digest.into()),
        count: 1,
        remove: false,
    }
}

fn store() -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("c.sqlite")).unwrap();
    (dir, store)
}

#[test]
fn a_scan_adds_a_copy_and_a_rescan_of_the_same_picture_does_not() {
    let (_dir, mut s) = store();
    let mut batch = Batch::new("scan cards/");
    let r = s
        .record(
            &mut batch,
            &[
                file_scan("Dα-001", "a"),
                file_scan("Dα-001", "b"),
                file_scan("Dα-001", "a"),
            ],
        )
        .unwrap();
    assert_eq!(r[0].counted, Counted::Added(1));
    assert!(r[0].first_ever && !r[1].first_ever);
    assert_eq!(r[2].counted, Counted::Rescan(r[0].scan));
    assert_eq!(s.count(&number("Dα-001")).unwrap(), 2);
    // Taken out (traded away): one copy, then none left to take.
    let mut out = Batch::new("scan --remove");
    let mut gone = file_scan("Dα-001", "c");
    gone.remove = true;
    gone.count = 5;
    assert_eq!(
        s.record(&mut out, std::slice::from_ref(&gone)).unwrap()[0].counted,
        Counted::Removed(2)
    );
    gone.digest = Some("d".into());
    assert_eq!(
        s.record(&mut out, &[gone]).unwrap()[0].counted,
        Counted::NotOwned
    );
    assert_eq!(s.count(&number("Dα-001")).unwrap(), 0);
    assert!(s.owned().unwrap().is_empty());
}

#[test]
fn undo_takes_back_the_last_batch_and_history_shows_it() {
    let (_dir, mut s) = store();
    let mut first = Batch::new("scan a/");
    s.record(&mut first, &[file_scan("Dα-001", "a")]).unwrap();
    let mut second = Batch::new("scan a/ again by mistake");
    s.record(
        &mut second,
        &[file_scan("Dα-002", "b"), file_scan("Dα-002", "c")],
    )
    .unwrap();
    assert_eq!(s.count(&number("Dα-002")).unwrap(), 2);
    let undone = s.undo().unwrap().unwrap();
    assert_eq!(undone.command, "scan a/ again by mistake");
    assert_eq!((undone.added, undone.undone), (2, true));
    assert_eq!(s.count(&number("Dα-002")).unwrap(), 0);
    assert_eq!(s.count(&number("Dα-001")).unwrap(), 1);
    let history = s.history(None).unwrap();
    assert_eq!(history.len(), 2);
    assert!(history[0].undone && !history[1].undone);
    // An undone picture may be scanned again and counts.
    let mut third = Batch::new("scan b");
    let r = s.record(&mut third, &[file_scan("Dα-002", "b")]).unwrap();
    assert_eq!(r[0].counted, Counted::Added(1));
    assert!(s.history(Some(time::now() + 100)).unwrap().is_empty());
    s.undo().unwrap();
    s.undo().unwrap();
    assert!(s.undo().unwrap().is_none(), "nothing left to undo");
}

#[test]
fn a_fix_moves_the_copy_to_the_right_card_and_undo_moves_it_back() {
    let (_dir, mut s) = store();
    let mut batch = Batch::new("scan");
    let id = s.record(&mut batch, &[file_scan("Dα-001", "a")]).unwrap()[0].scan;
    assert_eq!(s.fix("fix", id, &card("Dα-002")).unwrap(), number("Dα-001"));
    assert_eq!(s.count(&number("Dα-001")).unwrap(), 0);
    assert_eq!(s.count(&number("Dα-002")).unwrap(), 1);
    assert_eq!(s.scan(id).unwrap().unwrap().card, number("Dα-002"));
    let again = s.fix("fix", id, &card("Dα-002")).unwrap_err().to_string();
    assert!(again.contains("already"), "{again}");
    assert!(s.fix("fix", 999, &card("Dα-003")).is_err());
    s.undo().unwrap();
    assert_eq!(s.scan(id).unwrap().unwrap().card, number("Dα-001"));
    assert_eq!(s.count(&number("Dα-001")).unwrap(), 1);
}

#[test]
fn importing_the_same_rows_twice_changes_nothing() {
    let (_dir, mut s) = store();
    let nm = ("near mint".to_string(), String::new());
    let signed = ("played".to_string(), "signed".to_string());
    let rows = vec![
        (card("Dα-001"), 2, nm.clone()),
        (card("Dα-001"), 1, signed.clone()),
        (card("Dα-002"), 1, (String::new(), String::new())),
    ];
    let first = s.import("import a.csv", &rows).unwrap();
    assert_eq!(first.counts, 2);
    assert_eq!(first.grades, 3, "three Agumon graded; Greymon has no grade");
    let batches = s.history(None).unwrap().len();
    assert_eq!(
        s.import("import a.csv", &rows).unwrap(),
        ImportSummary::default()
    );
    assert_eq!(s.history(None).unwrap().len(), batches, "no empty batch");
    assert_eq!(s.count(&number("Dα-001")).unwrap(), 3);
    let grades = s.grades().unwrap();
    assert_eq!(grades[&(number("Dα-001"), 3)], signed);
    // A file with fewer copies lowers the count; cards it leaves out stay.
    let fewer = s
        .import("import b.csv", &[(card("Dα-001"), 1, nm.clone())])
        .unwrap();
    assert_eq!(fewer.counts, 1);
    assert_eq!(s.count(&number("Dα-001")).unwrap(), 1);
    assert_eq!(s.count(&number("Dα-002")).unwrap(), 1);
}

#[test]
fn grades_are_set_per_copy_and_refused_beyond_the_copies_held() {
    let (_dir, mut s) = store();
    let mut batch = Batch::new("scan");
    s.record(
        &mut batch,
        &[file_scan("Dα-001", "a"), file_scan("Dα-001", "b")],
    )
    .unwrap();
    let g = ("mint".to_string(), "first print".to_string());
    s.grade("grade", &number("Dα-001"), 2..=2, &g).unwrap();
    assert_eq!(s.grades().unwrap().len(), 1);
    let err = s
        .grade("grade", &number("Dα-001"), 1..=3, &g)
        .unwrap_err()
        .to_string();
    assert!(err.contains("numbered 1 to 2"), "{err}");
}

#[test]
fn enrolments_are_kept_latest_first_and_the_old_file_is_imported_once() {
    let (_dir, mut s) = store();
    let old = vec![(
        "EAN-13".to_string(),
        "4901234567894".to_string(),
        number("Dα-001"),
    )];
    assert_eq!(s.import_enrolments_once("enrolled.ron", &old).unwrap(), 1);
    assert_eq!(s.import_enrolments_once("enrolled.ron", &old).unwrap(), 0);
    let before = s
        .enrol("enroll", "EAN-13", "4901234567894", &number("Dα-002"))
        .unwrap();
    assert_eq!(before, Some(number("Dα-001")));
    assert_eq!(s.enrolments().unwrap()[0].2, number("Dα-002"));
    s.undo().unwrap();
    assert_eq!(s.enrolments().unwrap()[0].2, number("Dα-001"));
}

/// A database at schema `version`, with a scan in it.
fn at_version(path: &Path, version: usize) {
    let conn = Connection::open(path).unwrap();
    for sql in &schema::MIGRATIONS[..version] {
        conn.execute_batch(sql).unwrap();
    }
    conn.execute_batch(&format!(
        "PRAGMA application_id={APP_ID}; PRAGMA user_version={version};"
    ))
    .unwrap();
    if version >= 1 {
        conn.execute_batch(
            "INSERT INTO batches(id, at, command) VALUES (1, 0, 'scan');
             INSERT INTO cards(number, name) VALUES ('Dα-001', 'Agumon');
             INSERT INTO scans(batch, card, delta, origin, digest) VALUES (1, 'Dα-001', 1, 'file', 'x');",
        )
        .unwrap();
    }
}

#[test]
fn every_earlier_schema_is_brought_up_to_date_with_its_data() {
    for version in 0..SCHEMA_VERSION as usize {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("old.sqlite");
        at_version(&path, version);
        let mut s = Store::open(&path).unwrap();
        assert_eq!(
            s.schema_version().unwrap(),
            SCHEMA_VERSION,
            "from {version}"
        );
        assert_eq!(
            s.count(&number("Dα-001")).unwrap(),
            u32::from(version >= 1),
            "from {version}"
        );
        // And every table of the latest schema works.
        s.record_battle(&BattleRecord {
            ruleset: "terminal".into(),
            place: "cli".into(),
            seed: 1,
            winner: Some(0),
            rounds: 3,
            seats: vec![],
        })
        .unwrap();
        assert_eq!(s.integrity().unwrap(), "ok");
    }
}

#[test]
fn foreign_damaged_and_newer_files_are_refused_and_left_as_they_were() {
    let dir = tempfile::tempdir().unwrap();
    let text = dir.path().join("notes.sqlite");
    std::fs::write(&text, "my shopping list\n").unwrap();
    let other = dir.path().join("other.sqlite");
    Connection::open(&other)
        .unwrap()
        .execute_batch("CREATE TABLE songs(title TEXT)")
        .unwrap();
    let newer = dir.path().join("newer.sqlite");
    at_version(&newer, SCHEMA_VERSION as usize);
    Connection::open(&newer)
        .unwrap()
        .execute_batch(&format!("PRAGMA user_version={}", SCHEMA_VERSION + 1))
        .unwrap();
    let folder = dir.path().join("folder.sqlite");
    std::fs::create_dir(&folder).unwrap();
    for (path, expect) in [
        (&text, "not an SQLite database"),
        (&other, "another program"),
        (&newer, "newer bterm"),
        (&folder, "not a regular file"),
    ] {
        let before = std::fs::read(path).ok();
        let err = Store::open(path).unwrap_err().to_string();
        assert!(err.contains(expect), "{err}");
        assert!(err.contains(&path.display().to_string()), "{err}");
        assert_eq!(
            std::fs::read(path).ok(),
            before,
            "{} was changed",
            path.display()
        );
    }
    // A collection whose pages were damaged.
    let broken = dir.path().join("broken.sqlite");
    {
        let mut s = Store::open(&broken).unwrap();
        let mut batch = Batch::new("scan");
        let scans: Vec<NewScan> = (0..2000)
            .map(|i| file_scan("Dα-001", &i.to_string()))
            .collect();
        s.record(&mut batch, &scans).unwrap();
    }
    let mut bytes = std::fs::read(&broken).unwrap();
    for b in &mut bytes[8192..40_000] {
        *b = 0x5a;
    }
    std::fs::write(&broken, &bytes).unwrap();
    let err = match Store::open(&broken) {
        Err(e) => e.to_string(),
        Ok(s) => s
            .owned()
            .map(|_| String::new())
            .unwrap_or_else(|e| e.to_string()),
    };
    assert!(err.contains("damaged"), "{err}");
    assert_eq!(std::fs::read(&broken).unwrap(), bytes);
    assert!(Store::open_checked(&broken).is_err());
}

#[test]
fn a_backup_restores_the_collection_and_keeps_the_one_it_replaces() {
    let dir = tempfile::tempdir().unwrap();
    let (mut s, backup) = (
        Store::open(&dir.path().join("c.sqlite")).unwrap(),
        dir.path().join("backup.sqlite"),
    );
    let mut batch = Batch::new("scan");
    s.record(&mut batch, &[file_scan("Dα-001", "a")]).unwrap();
    s.backup(&backup, false).unwrap();
    assert!(
        s.backup(&backup, false)
            .unwrap_err()
            .to_string()
            .contains("--force")
    );
    let mut later = Batch::new("scan");
    s.record(&mut later, &[file_scan("Dα-002", "b")]).unwrap();
    let kept = s.restore(&backup).unwrap();
    assert_eq!(s.owned().unwrap().len(), 1, "as at the backup");
    let before = Store::open_checked(&kept).unwrap();
    assert_eq!(
        before.owned().unwrap().len(),
        2,
        "the replaced collection is kept"
    );
    let junk = dir.path().join("junk.sqlite");
    std::fs::write(&junk, "junk").unwrap();
    assert!(s.restore(&junk).is_err());
    assert_eq!(s.owned().unwrap().len(), 1);
}

#[test]
fn two_writers_at_once_lose_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.sqlite");
    Store::open(&path).unwrap();
    std::thread::scope(|scope| {
        for w in 0..2 {
            let path = &path;
            scope.spawn(move || {
                let mut s = Store::open(path).unwrap();
                for b in 0..20 {
                    let mut batch = Batch::new(format!("writer {w} batch {b}"));
                    let scans: Vec<NewScan> = (0..10)
                        .map(|i| file_scan("Dα-001", &format!("{w}-{b}-{i}")))
                        .collect();
                    s.record(&mut batch, &scans).unwrap();
                }
            });
        }
    });
    let s = Store::open(&path).unwrap();
    assert_eq!(s.count(&number("Dα-001")).unwrap(), 400);
    assert_eq!(s.history(None).unwrap().len(), 40);
}

#[test]
fn the_challenger_streak_counts_a_persons_wins_in_a_row_against_the_cpu() {
    let (_dir, mut s) = store();
    let team = |t: &str| vec![number(t)];
    let battle = |winner: Option<usize>, cpu: [bool; 2]| BattleRecord {
        ruleset: "terminal".into(),
        place: "arena".into(),
        seed: 1,
        winner,
        rounds: 3,
        seats: vec![
            SeatRecord {
                cpu: cpu[0],
                team: team("Dα-001"),
                points: 10,
            },
            SeatRecord {
                cpu: cpu[1],
                team: team("Dα-002"),
                points: 0,
            },
        ],
    };
    for b in [
        battle(Some(0), [false, true]),
        battle(Some(0), [false, true]),
        battle(Some(1), [false, true]),
        battle(Some(1), [true, false]),
        battle(Some(0), [false, false]),
    ] {
        s.record_battle(&b).unwrap();
    }
    let r = s.rankings(10).unwrap();
    assert_eq!((r.battles, r.streak, r.best_streak), (5, 1, 2));
    assert_eq!(r.cards[0].card, number("Dα-001"));
    assert_eq!((r.cards[0].wins, r.cards[0].losses), (3, 2));
    assert_eq!(r.teams[0].team, team("Dα-001"));
}

#[test]
fn a_schema_version_bterm_never_writes_is_named_not_dumped() {
    let dir = tempfile::tempdir().unwrap();
    // Tables but no version: another program changed it.
    let path = dir.path().join("zero.db");
    at_version(&path, 2);
    Connection::open(&path)
        .unwrap()
        .execute_batch("PRAGMA user_version=0;")
        .unwrap();
    let e = Store::open(&path).unwrap_err().to_string();
    assert!(
        e.contains("no schema version") && e.contains("restore"),
        "{e}"
    );
    assert!(!e.contains("CREATE"), "no SQL in the message: {e}");
    // A negative version.
    let path = dir.path().join("minus.db");
    at_version(&path, 2);
    Connection::open(&path)
        .unwrap()
        .execute_batch("PRAGMA user_version=-1;")
        .unwrap();
    let e = Store::open(&path).unwrap_err().to_string();
    assert!(
        e.contains("schema version is -1") && !e.contains("out of range"),
        "{e}"
    );
}

/// A backup that brings a trigger (one that deletes every new scan), a
/// view or a table bterm never makes is refused by `restore`, and the
/// collection is left as it was; `strangers` names them for `check`.
#[test]
fn a_backup_with_a_trigger_or_a_view_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = Store::open(&dir.path().join("c.sqlite")).unwrap();
    let mut batch = Batch::new("scan");
    s.record(&mut batch, &[file_scan("Dα-001", "a")]).unwrap();
    for (i, extra) in [
        "CREATE TRIGGER wipe AFTER INSERT ON scans BEGIN DELETE FROM scans; END;",
        "CREATE VIEW everything AS SELECT * FROM scans;",
        "CREATE TABLE songs(title TEXT);",
    ]
    .iter()
    .enumerate()
    {
        let bad = dir.path().join(format!("bad{i}.sqlite"));
        s.backup(&bad, false).unwrap();
        Connection::open(&bad)
            .unwrap()
            .execute_batch(extra)
            .unwrap();
        let err = s.restore(&bad).unwrap_err().to_string();
        assert!(err.contains("never makes"), "{err}");
        let found = Store::open(&bad).map(|b| b.strangers().unwrap());
        assert_eq!(found.map(|f| f.len()).unwrap_or(1), 1);
    }
    assert_eq!(s.owned().unwrap().len(), 1, "left as it was");
    assert!(s.strangers().unwrap().is_empty(), "bterm's own schema");
    // The trigger never ran here: a new scan stays.
    let mut later = Batch::new("scan");
    s.record(&mut later, &[file_scan("Dα-002", "b")]).unwrap();
    assert_eq!(s.owned().unwrap().len(), 2);
}

/// Counts are counts: importing thousands of copies of many cards writes
/// one row a card (and a grade only where one is given), so memory stays
/// flat in the number of copies; a card past the most a collection keeps
/// is refused and nothing is written.
#[test]
fn an_import_of_many_copies_stays_small_and_a_card_past_the_cap_is_refused() {
    let (_dir, mut s) = store();
    let blank = (String::new(), String::new());
    let rows: Vec<(CardRef, u32, Grade)> = ["Dα-001", "Dα-002", "Dα-003"]
        .iter()
        .map(|n| (card(n), csv::MAX_COUNT, blank.clone()))
        .collect();
    let done = s.import("import big.csv", &rows).unwrap();
    assert_eq!(done.counts, 3);
    assert_eq!(done.grades, 0, "no grade given, none written");
    assert_eq!(s.count(&number("Dα-002")).unwrap(), csv::MAX_COUNT);
    // Grades on the last copies only: written for those copies alone.
    let graded = vec![
        (card("Dα-001"), csv::MAX_COUNT - 2, blank.clone()),
        (card("Dα-001"), 2, ("mint".to_string(), String::new())),
    ];
    assert_eq!(s.import("import g.csv", &graded).unwrap().grades, 2);
    // Back to blank: only those two change.
    assert_eq!(s.import("import big.csv", &rows).unwrap().grades, 2);
    let past = vec![
        (card("Dα-004"), csv::MAX_COUNT, blank.clone()),
        (card("Dα-004"), 1, blank.clone()),
    ];
    let err = s.import("import past.csv", &past).unwrap_err().to_string();
    assert!(err.contains("at most"), "{err}");
    assert_eq!(s.count(&number("Dα-004")).unwrap(), 0, "nothing written");
}
