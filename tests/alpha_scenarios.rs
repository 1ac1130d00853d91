//! Rule scenarios written as scripts (`tests/alpha/*.ron`, the format of
//! `bterm alpha --script`, documented in `docs/alpha-rules.md`): each plays
//! its steps and every expectation it states must hold.

use bterm::cards::CardSet;
use bterm::rules::alpha::script::Script;

#[test]
fn every_scenario_holds() {
    let cards = CardSet::embedded();
    // Cargo runs tests from the package root. (Not env!("CARGO_MANIFEST_DIR"):
    // a shared target folder may reuse a binary built in another checkout.)
    let dir = std::path::Path::new("tests/alpha");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("tests/alpha")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    files.sort();
    assert!(files.len() >= 10, "only {} scenarios", files.len());
    let mut failures = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let name = f.file_name().unwrap().to_string_lossy().to_string();
        let script: Script = match bterm::cards::read_ron(&text) {
            Ok(s) => s,
            Err(e) => {
                failures.push(format!("{name}: not a script: {e}"));
                continue;
            }
        };
        if script.expect.is_empty() {
            failures.push(format!("{name}: states no expectation"));
            continue;
        }
        let own = match script.card_set(&cards) {
            Ok(set) => set,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        match script.run(&cards) {
            Ok(played) => {
                for bad in played.check(&script.expect, &own) {
                    failures.push(format!("{name}: {bad}"));
                }
            }
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
