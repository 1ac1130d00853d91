//! Every saved replay in a folder, each read and played back: what a fan
//! browses (`bterm replay list`, and the arena's gallery). A replay that
//! does not play back the same (another version, a damaged file) is listed
//! with the reason, never hidden.

use std::path::{Path, PathBuf};

use crate::cards::{CardNumber, CardSet};
use crate::rules::{Outcome, Ruleset, RulesetId, RulesetVisitor, dispatch};

use super::Replay;

/// One replay file, as listed.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Entry {
    /// The file.
    pub path: PathBuf,
    /// Its ruleset, once the file named one.
    pub ruleset: Option<RulesetId>,
    /// The cards each seat brought.
    pub seats: Vec<Vec<CardNumber>>,
    /// How it ended (`None`: unfinished, or it did not play back).
    pub outcome: Option<Outcome>,
    /// Actions played.
    pub actions: usize,
    /// When the file was last written (seconds since 1970), if known.
    pub modified: Option<i64>,
    /// Why it does not play back the same, if it does not.
    pub problem: Option<String>,
}

impl Entry {
    /// Whether it plays back to its recorded state.
    pub fn verified(&self) -> bool {
        self.problem.is_none()
    }
}

/// A seat's cards in words: a team's distinct names, or for a deck (more
/// than 8 cards) its size and its first `keep` distinct names; a player who
/// scanned nothing plays a default partner.
pub fn seat_words(cards: &CardSet, seat: &[CardNumber], keep: usize) -> String {
    if seat.is_empty() {
        return "a default partner".to_string();
    }
    let mut names: Vec<String> = Vec::new();
    for n in seat {
        let name = cards
            .get(n)
            .map_or_else(|| n.to_string(), |c| c.name().to_string());
        if !names.contains(&name) {
            names.push(name);
        }
    }
    if seat.len() <= 8 {
        return names.join(", ");
    }
    let more = names.len().saturating_sub(keep);
    names.truncate(keep);
    let more = if more > 0 {
        format!(" and {more} more")
    } else {
        String::new()
    };
    format!("a deck of {}: {}{more}", seat.len(), names.join(", "))
}

/// Whether a file is listed: a `.ron` file.
pub fn is_replay_name(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("ron"))
}

/// Lists the replays in `dir` (and its subfolders; links to folders are
/// not followed), newest first, each played back against `cards`. Folders
/// that could not be read are returned beside them. One file is read at a
/// time, so memory stays bounded however many there are.
pub fn list(dir: &Path, cards: &CardSet) -> (Vec<Entry>, Vec<(PathBuf, std::io::Error)>) {
    let (files, errors) = crate::save::walk(dir, &is_replay_name);
    let mut entries: Vec<Entry> = files.into_iter().map(|p| entry(&p, cards)).collect();
    entries.sort_by(|a, b| {
        b.modified
            .cmp(&a.modified)
            .then_with(|| a.path.cmp(&b.path))
    });
    (entries, errors)
}

/// Reads and plays back one replay file.
pub fn entry(path: &Path, cards: &CardSet) -> Entry {
    let modified = std::fs::symlink_metadata(path)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .and_then(|d| i64::try_from(d.as_secs()).ok());
    let mut e = Entry {
        path: path.to_path_buf(),
        ruleset: None,
        seats: Vec::new(),
        outcome: None,
        actions: 0,
        modified,
        problem: None,
    };
    let name = path.display().to_string();
    let text = match super::read(path) {
        Ok(t) => t,
        Err(err) => {
            e.problem = Some(err.to_string());
            return e;
        }
    };
    match super::ruleset_of(&text, &name) {
        Ok(r) => {
            e.ruleset = Some(r);
            dispatch(
                r,
                Check {
                    text: &text,
                    name: &name,
                    cards,
                    entry: &mut e,
                },
            );
        }
        Err(err) => e.problem = Some(err.to_string()),
    }
    e
}

/// The file in a replay folder that names its favourites, one file name a
/// line (hidden, so the listing skips it).
pub const FAVOURITES: &str = ".favourites";

/// The most bytes of the favourites file read.
const MAX_FAVOURITES_BYTES: u64 = 1 << 20;

/// The file names (relative to `dir`) marked as favourites.
pub fn favourites(dir: &Path) -> std::collections::BTreeSet<String> {
    crate::save::read_text(&dir.join(FAVOURITES), MAX_FAVOURITES_BYTES)
        .map(|t| {
            t.lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

/// Marks or unmarks a replay (by its path) as a favourite, under the
/// folder's lock and written atomically.
pub fn set_favourite(dir: &Path, replay: &Path, favourite: bool) -> std::io::Result<()> {
    let name = replay
        .strip_prefix(dir)
        .unwrap_or(replay)
        .to_string_lossy()
        .into_owned();
    crate::save::with_lock(&dir.join(".favourites.lock"), || {
        let mut all = favourites(dir);
        if favourite {
            all.insert(name);
        } else {
            all.remove(&name);
        }
        let text: String = all.iter().map(|n| format!("{n}\n")).collect();
        crate::save::write_atomic(&dir.join(FAVOURITES), text.as_bytes())
    })?
}

/// Deletes a replay file (only a regular `.ron` file in `dir`, never a
/// link's target) and its favourite mark.
pub fn delete(dir: &Path, replay: &Path) -> std::io::Result<()> {
    let meta = std::fs::symlink_metadata(replay)?;
    if !meta.is_file() || !is_replay_name(replay) || !replay.starts_with(dir) {
        return Err(std::io::Error::other(
            "only a replay file in the replay folder is deleted",
        ));
    }
    std::fs::remove_file(replay)?;
    set_favourite(dir, replay, false)
}

struct Check<'a> {
    text: &'a str,
    name: &'a str,
    cards: &'a CardSet,
    entry: &'a mut Entry,
}

impl RulesetVisitor for Check<'_> {
    type Output = ();

    fn visit<R: Ruleset>(self) {
        let replay = match Replay::<R>::parse(self.text, self.name) {
            Ok(r) => r,
            Err(err) => {
                self.entry.problem = Some(err.to_string());
                return;
            }
        };
        self.entry.seats = R::seat_cards(&replay.setup);
        self.entry.actions = replay.actions.len();
        match replay.play(self.cards, |_| {}) {
            Ok(m) => self.entry.outcome = m.outcome(),
            Err(err) => self.entry.problem = Some(err.to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_lists_good_and_bad_replays_newest_first() {
        let cards = CardSet::embedded();
        let dir = tempfile::tempdir().unwrap();
        let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
        let good = std::fs::read_to_string(fixtures.join("alpha-replay-2-seats.ron")).unwrap();
        std::fs::write(dir.path().join("a.ron"), &good).unwrap();
        std::fs::write(dir.path().join("b.ron"), "(rules: 12,").unwrap();
        std::fs::write(dir.path().join("notes.txt"), "not a replay").unwrap();
        let at = good.find("final_hash: ").unwrap() + "final_hash: ".len();
        let end = at + good[at..].find(|c: char| !c.is_ascii_digit()).unwrap();
        let hash: u64 = good[at..end].parse().unwrap();
        let tampered = format!("{}{}{}", &good[..at], hash ^ 1, &good[end..]);
        std::fs::write(dir.path().join("c.ron"), tampered).unwrap();
        let (entries, errors) = list(dir.path(), &cards);
        assert!(errors.is_empty());
        assert_eq!(entries.len(), 3, "{entries:?}");
        let by = |n: &str| entries.iter().find(|e| e.path.ends_with(n)).unwrap();
        let a = by("a.ron");
        assert!(a.verified(), "{a:?}");
        assert_eq!(a.ruleset, Some(RulesetId::Alpha));
        assert_eq!(a.seats.len(), 2);
        assert!(a.outcome.is_some());
        assert!(a.actions > 0);
        assert!(
            by("b.ron")
                .problem
                .as_deref()
                .unwrap()
                .contains("not a bterm replay")
        );
        let c = by("c.ron");
        assert!(
            c.problem.as_deref().unwrap().contains("does not reproduce"),
            "{c:?}"
        );
        assert_eq!(c.outcome, None);

        // Favourites survive a second look, and a deleted replay is gone
        // with its mark; nothing else is touched.
        let a = dir.path().join("a.ron");
        set_favourite(dir.path(), &a, true).unwrap();
        set_favourite(dir.path(), &dir.path().join("c.ron"), true).unwrap();
        assert_eq!(
            favourites(dir.path()).into_iter().collect::<Vec<_>>(),
            ["a.ron", "c.ron"]
        );
        assert_eq!(
            list(dir.path(), &cards).0.len(),
            3,
            "the mark file is not a replay"
        );
        delete(dir.path(), &a).unwrap();
        assert!(!a.exists());
        assert_eq!(
            favourites(dir.path()).into_iter().collect::<Vec<_>>(),
            ["c.ron"]
        );
        assert!(delete(dir.path(), &dir.path().join("notes.txt")).is_err());
        assert!(dir.path().join("notes.txt").exists());
    }
}
