//! The rooms of `src/` and which may use which (docs/architecture.md):
//! every `crate::room` path and every Bevy import in the source is checked
//! against the allowed directions, and the rooms must have no circles.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Each room and the rooms it may use. Rooms not listed as a key are not
/// allowed to exist (a new room must be placed here and in the doc).
const ALLOWED: &[(&str, &[&str])] = &[
    ("glossary", &[]),
    ("fingerprint", &[]),
    ("save", &[]),
    ("effects", &["glossary"]),
    ("cards", &["glossary", "effects", "save"]),
    ("rules", &["glossary", "effects", "cards", "fingerprint"]),
    ("ai", &["glossary", "effects", "cards", "rules"]),
    ("session", &["glossary", "effects", "cards", "rules", "ai"]),
    (
        "replay",
        &[
            "glossary",
            "effects",
            "cards",
            "fingerprint",
            "rules",
            "session",
            "save",
            "barcode",
        ],
    ),
    (
        "analysis",
        &["glossary", "effects", "cards", "rules", "ai", "session"],
    ),
    (
        "net",
        &[
            "glossary",
            "effects",
            "cards",
            "fingerprint",
            "rules",
            "ai",
            "session",
            "replay",
            "save",
        ],
    ),
    (
        "barcode",
        &["glossary", "effects", "cards", "fingerprint", "save"],
    ),
    (
        "collection",
        &[
            "glossary",
            "effects",
            "cards",
            "fingerprint",
            "save",
            "barcode",
            "rules",
            "ai",
            "session",
        ],
    ),
    (
        "cli",
        &[
            "glossary",
            "effects",
            "cards",
            "fingerprint",
            "rules",
            "ai",
            "session",
            "replay",
            "analysis",
            "barcode",
            "collection",
            "save",
            "net",
        ],
    ),
    (
        "arena",
        &[
            "glossary",
            "effects",
            "cards",
            "fingerprint",
            "rules",
            "ai",
            "session",
            "replay",
            "barcode",
            "collection",
            "save",
            "net",
        ],
    ),
    ("lib", &[]),
];

/// Crates only the arena may use.
const ARENA_ONLY: &[&str] = &["bevy", "bevy_rapier3d"];

/// One forbidden use: where, and of what.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Breach {
    file: String,
    line: usize,
    from: String,
    to: String,
}

/// The room of a file under `src/`: its first folder, or its stem.
fn room_of(relative: &Path) -> String {
    let first = relative
        .components()
        .next()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .unwrap_or_default();
    first.trim_end_matches(".rs").to_string()
}

/// The rooms and outside crates a source text names, with their lines:
/// `crate::x`, `use crate::{x, y::z}` (over several lines too), `bevy::…`.
/// Comments are skipped.
fn uses(text: &str) -> Vec<(usize, String)> {
    let code: String = text
        .lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    let line_of = |pos: usize| code[..pos].matches('\n').count() + 1;
    let ident = |s: &str| -> String {
        s.trim_start()
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(rel) = code[from..].find("crate::") {
        let start = from + rel + "crate::".len();
        let after = &code[start..];
        if let Some(group) = after.strip_prefix('{') {
            // The group's top-level parts, split at commas outside braces.
            let (mut depth, mut part_start) = (0usize, 0usize);
            for (i, c) in group.char_indices() {
                let end = match c {
                    '{' => {
                        depth += 1;
                        None
                    }
                    '}' if depth == 0 => Some(true),
                    '}' => {
                        depth -= 1;
                        None
                    }
                    ',' if depth == 0 => Some(false),
                    _ => None,
                };
                if let Some(last) = end {
                    let part = &group[part_start..i];
                    let name = ident(part);
                    if !name.is_empty() {
                        let lead = part.len() - part.trim_start().len();
                        found.push((line_of(start + 1 + part_start + lead), name));
                    }
                    part_start = i + 1;
                    if last {
                        break;
                    }
                }
            }
        } else {
            let name = ident(after);
            if !name.is_empty() {
                found.push((line_of(start), name));
            }
        }
        from = start;
    }
    for krate in ARENA_ONLY {
        let word = format!("{krate}::");
        let mut from = 0;
        while let Some(rel) = code[from..].find(&word) {
            let at = from + rel;
            let before = code[..at].chars().next_back();
            if !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                found.push((line_of(at), (*krate).to_string()));
            }
            from = at + word.len();
        }
    }
    found
}

/// Checks sources (relative path, text) against [`ALLOWED`].
fn breaches(sources: &[(PathBuf, String)]) -> Vec<Breach> {
    let allowed: BTreeMap<&str, BTreeSet<&str>> = ALLOWED
        .iter()
        .map(|(room, to)| (*room, to.iter().copied().collect()))
        .collect();
    let mut out = Vec::new();
    for (path, text) in sources {
        let from = room_of(path);
        if from == "main" {
            continue; // The binary wires the front ends together.
        }
        for (line, to) in uses(text) {
            let ok = to == from
                || match allowed.get(from.as_str()) {
                    Some(set) => set.contains(to.as_str()),
                    None => false,
                }
                || (from == "arena" && ARENA_ONLY.contains(&to.as_str()));
            let known = allowed.contains_key(to.as_str()) || ARENA_ONLY.contains(&to.as_str());
            if !ok && (known || !allowed.contains_key(from.as_str())) {
                out.push(Breach {
                    file: path.display().to_string(),
                    line,
                    from: from.clone(),
                    to,
                });
            }
        }
    }
    out
}

/// Whether the allowed directions themselves have a circle.
fn circle(allowed: &[(&str, &[&str])]) -> Option<Vec<String>> {
    fn visit<'a>(
        room: &'a str,
        edges: &BTreeMap<&'a str, &'a [&'a str]>,
        path: &mut Vec<&'a str>,
        done: &mut BTreeSet<&'a str>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|r| *r == room) {
            let mut c: Vec<String> = path[at..].iter().map(|s| s.to_string()).collect();
            c.push(room.to_string());
            return Some(c);
        }
        if !done.insert(room) {
            return None;
        }
        path.push(room);
        for to in edges.get(room).copied().unwrap_or(&[]) {
            if let Some(c) = visit(to, edges, path, done) {
                return Some(c);
            }
        }
        path.pop();
        None
    }
    let edges: BTreeMap<&str, &[&str]> = allowed.iter().copied().collect();
    let mut done = BTreeSet::new();
    edges
        .keys()
        .find_map(|r| visit(r, &edges, &mut Vec::new(), &mut done))
}

fn read_src(dir: &Path, root: &Path, out: &mut Vec<(PathBuf, String)>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        let meta = std::fs::symlink_metadata(&path).unwrap();
        if meta.is_dir() {
            read_src(&path, root, out);
        } else if meta.is_file() && path.extension().is_some_and(|x| x == "rs") {
            let text = std::fs::read_to_string(&path).unwrap();
            out.push((path.strip_prefix(root).unwrap().to_path_buf(), text));
        }
    }
}

#[test]
fn every_import_in_src_goes_an_allowed_way() {
    let root = std::env::current_dir().unwrap().join("src");
    let mut sources = Vec::new();
    read_src(&root, &root, &mut sources);
    assert!(sources.len() > 40, "read the whole tree");
    let found = breaches(&sources);
    assert!(
        found.is_empty(),
        "imports against docs/architecture.md:\n{}",
        found
            .iter()
            .map(|b| format!("  {}:{}: {} uses {}", b.file, b.line, b.from, b.to))
            .collect::<Vec<_>>()
            .join("\n")
    );
    let rooms: BTreeSet<String> = sources.iter().map(|(p, _)| room_of(p)).collect();
    for room in rooms {
        assert!(
            room == "main" || ALLOWED.iter().any(|(r, _)| *r == room),
            "src/{room} is a room the architecture does not place; add it to docs/architecture.md and this test"
        );
    }
}

#[test]
fn the_allowed_directions_have_no_circle() {
    assert_eq!(circle(ALLOWED), None);
    assert_eq!(
        circle(&[("a", &["b"]), ("b", &["c"]), ("c", &["a"])]),
        Some(vec!["a".into(), "b".into(), "c".into(), "a".into()])
    );
}

#[test]
fn a_forbidden_import_is_caught() {
    let src = |path: &str, text: &str| (PathBuf::from(path), text.to_string());
    let found = breaches(&[
        src(
            "rules/terminal/mod.rs",
            "use crate::ai::Strength;\n// crate::cli in a comment is fine\n",
        ),
        src(
            "arena/scan.rs",
            "use crate::{cards::Card, cli::PlayArgs};\n",
        ),
        src(
            "cards/set.rs",
            "fn f() { let _ = bevy::prelude::Vec3::ZERO; }\n",
        ),
        src("session/mod.rs", "use crate::rules::Seat;\n"),
        src(
            "rules/mod.rs",
            "use crate::{\n    cards::Card,\n    session::{Table, Player},\n};\n",
        ),
        src("arena/stage.rs", "use bevy::prelude::*;\n"),
    ]);
    let edges: Vec<(&str, &str, usize)> = found
        .iter()
        .map(|b| (b.from.as_str(), b.to.as_str(), b.line))
        .collect();
    assert_eq!(
        edges,
        vec![
            ("rules", "ai", 1),
            ("arena", "cli", 1),
            ("cards", "bevy", 1),
            ("rules", "session", 3)
        ]
    );
}

/// Where a ruleset is still named by its id outside `rules/` (code before
/// any `#[cfg(test)]`), and how often: each ruleset's facts are reached
/// through the registry ([`bterm::rules::RulesetId::facts`], `dispatch`).
/// The arena's names are what its per-ruleset presenters will take in
/// (issue 34); this list may only shrink.
const RULESET_NAMED: &[(&str, usize)] = &[];

/// How often `RulesetId::<a ruleset>` appears in code (not in tests).
fn ruleset_names(text: &str) -> usize {
    let code = text.split("#[cfg(test)]\nmod ").next().unwrap_or("");
    let ids: Vec<String> = bterm::rules::RulesetId::ALL
        .iter()
        .map(|id| format!("RulesetId::{id:?}"))
        .collect();
    code.lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .map(|l| {
            ids.iter()
                .map(|id| l.matches(id.as_str()).count())
                .sum::<usize>()
        })
        .sum()
}

#[test]
fn no_ruleset_is_named_outside_the_rules() {
    let root = std::env::current_dir().unwrap().join("src");
    let mut sources = Vec::new();
    read_src(&root, &root, &mut sources);
    let mut wrong = Vec::new();
    for (path, text) in &sources {
        let file = path.to_string_lossy().replace('\\', "/");
        if file.starts_with("rules/") {
            continue;
        }
        let n = ruleset_names(text);
        let allowed = RULESET_NAMED
            .iter()
            .find(|(f, _)| *f == file)
            .map_or(0, |(_, n)| *n);
        if n > allowed {
            wrong.push(format!(
                "  src/{file}: names a ruleset by its id {n} times (allowed {allowed}): use RulesetId::facts, dispatch or a presenter"
            ));
        } else if n < allowed {
            wrong.push(format!(
                "  src/{file}: names a ruleset {n} times, fewer than the {allowed} allowed: lower RULESET_NAMED"
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert_eq!(
        ruleset_names(
            "#[cfg(test)]\nuse x;\nRulesetId::Alpha, RulesetId::Terminal\n// RulesetId::Alpha\n#[cfg(test)]\nmod tests { RulesetId::Alpha }"
        ),
        2
    );
}

/// The arena's layers, lowest first: a file in one imports only its own
/// layer, the layers below and the arena's root (`arena/mod.rs`: the
/// screens, the system sets, the settings every layer shares).
const ARENA_LAYERS: &[&str] = &["render", "ui", "play", "screens"];

/// A file's module path: `arena/scan/mod.rs` → `["arena", "scan"]`.
fn module_path(file: &str) -> Vec<String> {
    let mut parts: Vec<String> = file
        .trim_end_matches(".rs")
        .split('/')
        .map(String::from)
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// The files each file imports (`crate::…`, `super::…`, `self::…`, in
/// `use` lines and inline paths, groups included), code before its test
/// module only; a module's own children are not counted.
fn file_imports(sources: &[(String, String)]) -> BTreeMap<String, BTreeSet<String>> {
    let modules: BTreeMap<Vec<String>, String> = sources
        .iter()
        .map(|(f, _)| (module_path(f), f.clone()))
        .collect();
    let mut edges = BTreeMap::new();
    for (file, text) in sources {
        let here = module_path(file);
        let code: String = text
            .split("#[cfg(test)]\nmod ")
            .next()
            .unwrap_or("")
            .lines()
            .map(|l| l.split("//").next().unwrap_or(""))
            .collect::<Vec<_>>()
            .join("\n");
        let mut out = BTreeSet::new();
        let mut add = |head: &str, segs: Vec<String>| {
            let mut full: Vec<String> = match head {
                "crate" => Vec::new(),
                "self" => here.clone(),
                _ => here[..here.len().saturating_sub(1)].to_vec(),
            };
            let mut segs = segs.into_iter().peekable();
            while head == "super" && segs.peek().is_some_and(|s| s == "super") {
                segs.next();
                full.pop();
            }
            full.extend(segs);
            for k in (1..=full.len()).rev() {
                if let Some(f) = modules.get(&full[..k]) {
                    let child = k > here.len() && full[..here.len()] == here[..];
                    if *f != *file && !child {
                        out.insert(f.clone());
                    }
                    return;
                }
            }
        };
        let bytes = code.as_bytes();
        for head in ["crate", "super", "self"] {
            for (at, _) in code.match_indices(&format!("{head}::")) {
                if at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_') {
                    continue;
                }
                // The path, then a `{…}` group if one follows.
                let rest = &code[at + head.len() + 2..];
                let path: String = rest
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == ':')
                    .collect();
                let prefix: Vec<String> = path
                    .split("::")
                    .filter(|s| !s.is_empty())
                    .map(String::from)
                    .collect();
                let after = &rest[path.len()..];
                if (path.is_empty() || path.ends_with("::")) && after.starts_with('{') {
                    let inner = after[1..].split(['}', ';']).next().unwrap_or("");
                    for item in inner.split(',') {
                        let item = item.split(" as ").next().unwrap_or("").trim();
                        let mut segs = prefix.clone();
                        segs.extend(
                            item.split("::")
                                .map(|s| s.trim_matches(|c: char| c == '{' || c.is_whitespace()))
                                .filter(|s| !s.is_empty() && *s != "self" && *s != "*")
                                .map(String::from),
                        );
                        add(head, segs);
                    }
                } else {
                    add(head, prefix);
                }
            }
        }
        edges.insert(file.clone(), out);
    }
    edges
}

/// The circles (strongly connected groups of more than one file).
fn circles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<BTreeSet<String>> {
    // Files that reach each other both ways, by reachability (small graphs).
    let reach = |from: &String| -> BTreeSet<String> {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.clone()];
        while let Some(f) = todo.pop() {
            for g in edges.get(&f).into_iter().flatten() {
                if seen.insert(g.clone()) {
                    todo.push(g.clone());
                }
            }
        }
        seen
    };
    let reached: BTreeMap<&String, BTreeSet<String>> =
        edges.keys().map(|f| (f, reach(f))).collect();
    let mut out: Vec<BTreeSet<String>> = Vec::new();
    for f in edges.keys() {
        if out.iter().any(|c| c.contains(f)) {
            continue;
        }
        let group: BTreeSet<String> = reached[f]
            .iter()
            .filter(|g| reached.get(g).is_some_and(|r| r.contains(f)))
            .cloned()
            .chain(std::iter::once(f.clone()))
            .collect();
        if group.len() > 1 {
            out.push(group);
        }
    }
    out
}

/// The sources under `src/`, with paths relative to it.
fn sources() -> Vec<(String, String)> {
    let root = std::env::current_dir().unwrap().join("src");
    let mut sources = Vec::new();
    read_src(&root, &root, &mut sources);
    sources
        .into_iter()
        .map(|(p, t)| (p.to_string_lossy().replace('\\', "/"), t))
        .collect()
}

#[test]
fn no_import_circle_anywhere() {
    let found = circles(&file_imports(&sources()));
    let shown: Vec<String> = found
        .iter()
        .map(|c| c.iter().cloned().collect::<Vec<_>>().join(" → "))
        .collect();
    assert!(found.is_empty(), "import circles: {}", shown.join("; "));
    // The reader sees a circle, groups and `super` included.
    let src = |f: &str, t: &str| (f.to_string(), t.to_string());
    let two = circles(&file_imports(&[
        src("a/mod.rs", "pub mod x;\npub mod y;\n"),
        src("a/x.rs", "use super::{y::Y, z};\n"),
        src("a/y.rs", "fn f() { crate::a::x::go(); }\n"),
        src(
            "b.rs",
            "use crate::a::x;\n#[cfg(test)]\nmod tests { use crate::b; }\n",
        ),
    ]));
    assert_eq!(two.len(), 1, "{two:?}");
    assert_eq!(two[0].iter().collect::<Vec<_>>(), ["a/x.rs", "a/y.rs"]);
}

/// An arena file's layer (`arena/play/table/dcg.rs` → 2), `None` for the
/// arena's root.
fn layer_of(file: &str) -> Option<usize> {
    let rest = file.strip_prefix("arena/")?;
    let first = rest.split('/').next()?;
    ARENA_LAYERS.iter().position(|l| *l == first)
}

/// The imports that run up the arena's layers: (from, to).
fn upward(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (from, tos) in edges {
        let Some(here) = layer_of(from) else {
            continue;
        };
        for to in tos {
            if layer_of(to).is_some_and(|there| there > here) {
                out.push((from.clone(), to.clone()));
            }
        }
    }
    out
}

#[test]
fn the_arena_is_in_layers_and_none_imports_a_higher_one() {
    let sources = sources();
    // Every arena file sits in a layer, but the root.
    let loose: Vec<&String> = sources
        .iter()
        .map(|(f, _)| f)
        .filter(|f| f.starts_with("arena/") && *f != "arena/mod.rs" && layer_of(f).is_none())
        .collect();
    assert!(
        loose.is_empty(),
        "arena files outside the layers {ARENA_LAYERS:?}: {loose:?}"
    );
    let up = upward(&file_imports(&sources));
    assert!(up.is_empty(), "imports up the arena's layers: {up:?}");
    // The check sees an import up, and not one down.
    let src = |f: &str, t: &str| (f.to_string(), t.to_string());
    let edges = file_imports(&[
        src("arena/mod.rs", "pub mod render;\npub mod play;\n"),
        src("arena/render/mod.rs", "pub mod stage;\n"),
        src("arena/play/mod.rs", "pub mod duel;\n"),
        src(
            "arena/render/stage.rs",
            "use crate::arena::play::duel::Duel;\n",
        ),
        src(
            "arena/play/duel.rs",
            "use crate::arena::render::stage;\nuse crate::arena::Screen;\n",
        ),
    ]);
    assert_eq!(
        upward(&edges),
        [(
            "arena/render/stage.rs".to_string(),
            "arena/play/duel.rs".to_string()
        )]
    );
}
