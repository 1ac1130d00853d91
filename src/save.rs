//! The user's files: the data folder; reading only regular files, with a
//! size limit, and walking folders without following links; and saving
//! what a user keeps (replays, enrolments, printed sheets) so that a crash
//! or a full disk never leaves half a file behind, and two processes never
//! lose each other's updates.

use std::io::Read as _;
use std::path::{Path, PathBuf};

/// Why a file was not read.
#[derive(Debug, thiserror::Error)]
pub enum ReadFileError {
    /// A FIFO, a device, a socket or a folder: reading it could block or
    /// never end.
    #[error("not a regular file (it is {0}); give a file")]
    NotRegular(&'static str),
    /// Bigger than the reader accepts.
    #[error("the file is {size} bytes, above the limit of {limit} bytes for this kind of file")]
    TooLarge {
        /// Its size.
        size: u64,
        /// The limit.
        limit: u64,
    },
    /// The system refused.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// Not UTF-8 text.
    #[error("not UTF-8 text (at byte {0})")]
    NotText(usize),
}

fn kind_of(t: std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt as _;
    if t.is_dir() {
        "a folder"
    } else if t.is_fifo() {
        "a named pipe"
    } else if t.is_char_device() {
        "a character device"
    } else if t.is_block_device() {
        "a block device"
    } else if t.is_socket() {
        "a socket"
    } else {
        "not a file"
    }
}

/// `O_NONBLOCK`, for opening without blocking on a FIFO.
#[cfg(any(target_os = "macos", target_os = "ios", target_os = "freebsd"))]
const O_NONBLOCK: i32 = 0x4;
#[cfg(not(any(target_os = "macos", target_os = "ios", target_os = "freebsd")))]
const O_NONBLOCK: i32 = 0o4000;

/// Reads a regular file of at most `limit` bytes. A link to a file is
/// followed; FIFOs, devices and folders are refused before any byte is
/// read, and the size is checked on the opened file (so it cannot change
/// between the check and the read) and again while reading.
pub fn read_regular(path: &Path, limit: u64) -> Result<Vec<u8>, ReadFileError> {
    let (file, size) = open_regular(path)?;
    if size > limit {
        return Err(ReadFileError::TooLarge { size, limit });
    }
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(ReadFileError::TooLarge {
            size: bytes.len() as u64,
            limit,
        });
    }
    Ok(bytes)
}

/// The first `head` bytes of a regular file (checked as [`read_regular`]
/// checks), and the file's size.
pub fn read_regular_head(path: &Path, head: u64) -> Result<(Vec<u8>, u64), ReadFileError> {
    let (file, size) = open_regular(path)?;
    let mut bytes = Vec::with_capacity(usize::try_from(size.min(head)).unwrap_or(0));
    file.take(head).read_to_end(&mut bytes)?;
    Ok((bytes, size))
}

/// Opens a file for reading if it is a regular file, with its size.
fn open_regular(path: &Path) -> Result<(std::fs::File, u64), ReadFileError> {
    use std::os::unix::fs::OpenOptionsExt as _;
    // Opened without waiting: a FIFO would otherwise block the open until a
    // writer comes. Then only the opened file's own type counts, so a path
    // swapped between a check and the open changes nothing.
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(O_NONBLOCK)
        .open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(ReadFileError::NotRegular(kind_of(meta.file_type())));
    }
    Ok((file, meta.len()))
}

/// Reads a regular UTF-8 text file of at most `limit` bytes; a leading byte
/// order mark is dropped.
pub fn read_text(path: &Path, limit: u64) -> Result<String, ReadFileError> {
    let bytes = read_regular(path, limit)?;
    let mut text = String::from_utf8(bytes)
        .map_err(|e| ReadFileError::NotText(e.utf8_error().valid_up_to()))?;
    if text.starts_with('\u{feff}') {
        text.drain(..'\u{feff}'.len_utf8());
    }
    Ok(text)
}

/// The files below `dir` that `keep` accepts, sorted, and the folders that
/// could not be read. Hidden files and folders are skipped, and links to
/// folders are not followed (a link to a parent would make the walk
/// endless); links to files are kept, for the reader to check.
pub fn walk(
    dir: &Path,
    keep: &dyn Fn(&Path) -> bool,
) -> (Vec<PathBuf>, Vec<(PathBuf, std::io::Error)>) {
    let mut files = Vec::new();
    let mut errors = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let entries = match std::fs::read_dir(&d) {
            Ok(e) => e,
            Err(e) => {
                errors.push((d, e));
                continue;
            }
        };
        for entry in entries {
            let entry = match entry {
                Ok(e) => e,
                Err(e) => {
                    errors.push((d.clone(), e));
                    continue;
                }
            };
            let path = entry.path();
            if entry.file_name().to_string_lossy().starts_with('.') {
                continue;
            }
            // The entry's own type: a link is a link, not what it points at.
            match entry.file_type() {
                Ok(t) if t.is_dir() => stack.push(path),
                Ok(t) if t.is_symlink() && path.is_dir() => {}
                Ok(_) if keep(&path) => files.push(path),
                Ok(_) => {}
                Err(e) => errors.push((path, e)),
            }
        }
    }
    files.sort();
    (files, errors)
}

/// The prefix of [`write_atomic`]'s temporary files: nothing else of a
/// user's is ever removed by [`clean_stale_temps`].
const TEMP_PREFIX: &str = ".bterm-";

/// How old a temporary file must be before it counts as left behind.
const STALE_AFTER: std::time::Duration = std::time::Duration::from_secs(60);

/// The folder of `path` and the temporary file a write to it goes through
/// (`.bterm-NAME.PID.tmp` beside it, which [`clean_stale_temps`] knows).
pub fn temp_path(path: &Path) -> (PathBuf, PathBuf) {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".into());
    let tmp = dir.join(format!("{TEMP_PREFIX}{name}.{}.tmp", std::process::id()));
    (dir, tmp)
}

/// Removes what killed writes left behind in `dir`: [`write_atomic`]'s
/// `.bterm-NAME.PID.tmp` files whose process is gone and that are over a
/// minute old. Returns how many went.
pub fn clean_stale_temps(dir: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    let mut removed = 0;
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(pid) = name
            .strip_prefix(TEMP_PREFIX)
            .and_then(|n| n.strip_suffix(".tmp"))
            .and_then(|n| n.rsplit_once('.'))
            .and_then(|(_, pid)| pid.parse::<u32>().ok())
        else {
            continue;
        };
        let alive = pid == std::process::id() || Path::new(&format!("/proc/{pid}")).exists();
        let old = entry
            .metadata()
            .ok()
            .and_then(|m| m.modified().ok())
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age >= STALE_AFTER);
        if !alive
            && old
            && entry.file_type().is_ok_and(|t| t.is_file())
            && std::fs::remove_file(entry.path()).is_ok()
        {
            removed += 1;
        }
    }
    removed
}

/// Runs `f` holding an exclusive lock on `lock` (created if missing), so
/// that processes updating the same file take turns: each reads what the
/// last one wrote. The lock goes when `f` returns or the process dies.
pub fn with_lock<T>(lock: &Path, f: impl FnOnce() -> T) -> std::io::Result<T> {
    if let Some(dir) = lock.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(lock)?;
    file.lock()?;
    let out = f();
    // Closing the file releases the lock; an unlock error must not hide
    // that `f` already did its work.
    drop(file);
    Ok(out)
}

/// Writes a temporary file beside `path`, created new (never through a
/// link), synced. Removes the folder's stale temporary files first.
fn write_temp(
    path: &Path,
    fill: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>,
) -> std::io::Result<PathBuf> {
    write_temp_mode(path, None, fill)
}

/// [`write_temp`] with the file's permissions from its creation (`0o600`:
/// only its owner reads it).
fn write_temp_mode(
    path: &Path,
    mode: Option<u32>,
    fill: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>,
) -> std::io::Result<PathBuf> {
    use std::io::Write;
    let (dir, tmp) = temp_path(path);
    clean_stale_temps(&dir);
    // Ours from an earlier write of this process that failed half-way.
    let _ = std::fs::remove_file(&tmp);
    let result = (|| {
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        if let Some(mode) = mode {
            use std::os::unix::fs::OpenOptionsExt as _;
            options.mode(mode);
        }
        #[cfg(not(unix))]
        let _ = mode;
        let f = options.open(&tmp)?;
        let mut w = std::io::BufWriter::new(f);
        fill(&mut w)?;
        w.flush()?;
        w.get_ref().sync_all()
    })();
    match result {
        Ok(()) => Ok(tmp),
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            Err(e)
        }
    }
}

/// Writes a file so that it is either the old or the new contents, never
/// half of one: a temporary file beside it, synced, then renamed over it.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_atomic_with(path, |w| w.write_all(bytes))
}

/// [`write_atomic`] for contents made piece by piece: `fill` writes them
/// (a PDF page after page, none of it held whole in memory). If `fill`
/// fails, `path` is left as it was.
pub fn write_atomic_with(
    path: &Path,
    fill: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let tmp = write_temp(path, fill)?;
    let result = std::fs::rename(&tmp, path);
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Whether `--force` may replace what is at `path`: nothing, or a regular
/// file. A link, a device, a FIFO or a folder is never swapped for a file
/// (as root, `--force` onto `/dev/full` must not replace it).
pub fn replaceable(path: &Path) -> Result<(), String> {
    let Ok(meta) = std::fs::symlink_metadata(path) else {
        return Ok(());
    };
    let kind = meta.file_type();
    if kind.is_file() {
        return Ok(());
    }
    let what = if kind.is_symlink() {
        "a link"
    } else if kind.is_dir() {
        "a folder"
    } else {
        "a special file (a device, a FIFO or a socket)"
    };
    Err(format!(
        "{} is {what}; --force replaces only a regular file: name a file",
        path.display()
    ))
}

/// [`write_atomic`] for a file only its owner may read (a LAN table's
/// autosave holds its join code and rejoin tokens): created 0600.
pub fn write_atomic_private(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let tmp = write_temp_mode(path, Some(0o600), |w| w.write_all(bytes))?;
    let result = std::fs::rename(&tmp, path);
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Writes a new file whole, or not at all: fails with `AlreadyExists` if
/// `path` exists, even if it appeared after the caller last looked (the
/// temporary file is linked to its name, which never replaces a file).
pub fn write_new(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let tmp = write_temp(path, |w| w.write_all(bytes))?;
    let result = std::fs::hard_link(&tmp, path);
    let _ = std::fs::remove_file(&tmp);
    result
}

/// A data folder this process keeps everything in instead of the user's
/// (the arena's tour: it plays, scans and saves, and never into the data
/// of the person who runs it). Set once, before anything is saved.
static KEPT_IN: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();

/// Keeps this process's data in `dir` instead of the user's data folder
/// (see [`data_dir`]); `false` if another folder was already chosen.
pub fn keep_data_in(dir: PathBuf) -> bool {
    KEPT_IN.set(dir).is_ok()
}

/// Where bterm keeps what a user saves: the folder [`keep_data_in`] chose,
/// else `$BTERM_DATA_DIR`, else `$XDG_DATA_HOME/bterm`, else
/// `~/.local/share/bterm`.
pub fn data_dir() -> Option<PathBuf> {
    if let Some(dir) = KEPT_IN.get() {
        return Some(dir.clone());
    }
    let env = |k| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    env("BTERM_DATA_DIR")
        .or_else(|| env("XDG_DATA_HOME").map(|d| d.join("bterm")))
        .or_else(|| env("HOME").map(|h| h.join(".local/share/bterm")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn force_never_replaces_a_special_file_or_a_link() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a.csv");
        assert!(replaceable(&file).is_ok(), "nothing there");
        std::fs::write(&file, "x").unwrap();
        assert!(replaceable(&file).is_ok(), "a regular file");
        let link = dir.path().join("link.csv");
        std::os::unix::fs::symlink(&file, &link).unwrap();
        assert!(replaceable(&link).unwrap_err().contains("a link"));
        assert!(
            replaceable(Path::new("/dev/null"))
                .unwrap_err()
                .contains("special file")
        );
        assert!(replaceable(dir.path()).unwrap_err().contains("a folder"));
    }

    #[cfg(unix)]
    #[test]
    fn a_private_file_is_its_owners_alone() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("lan-table.ron");
        write_atomic_private(&path, b"code: 1234").unwrap();
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        write_atomic_private(&path, b"code: 5678").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"code: 5678");
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "still, after a rewrite");
    }

    #[test]
    fn only_regular_files_of_their_size_are_read() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a.txt");
        std::fs::write(&file, "\u{feff}hello").unwrap();
        assert_eq!(read_text(&file, 100).unwrap(), "hello");
        let big = read_regular(&file, 3).unwrap_err().to_string();
        assert!(big.contains("8 bytes, above the limit of 3"), "{big}");
        let folder = read_regular(dir.path(), 100).unwrap_err().to_string();
        assert!(folder.contains("a folder"), "{folder}");
        let device = read_regular(Path::new("/dev/zero"), 100)
            .unwrap_err()
            .to_string();
        assert!(device.contains("a character device"), "{device}");
        let link = dir.path().join("zero");
        std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
        assert!(matches!(
            read_regular(&link, 100),
            Err(ReadFileError::NotRegular(_))
        ));
    }

    #[test]
    fn a_walk_does_not_follow_links_to_folders() {
        let dir = tempfile::tempdir().unwrap();
        let sub = dir.path().join("sub");
        std::fs::create_dir(&sub).unwrap();
        std::fs::write(sub.join("x.ron"), "").unwrap();
        std::fs::write(dir.path().join(".hidden.ron"), "").unwrap();
        std::os::unix::fs::symlink(dir.path(), sub.join("loop")).unwrap();
        let (files, errors) = walk(dir.path(), &|p: &Path| {
            p.extension().is_some_and(|e| e == "ron")
        });
        assert_eq!(files, vec![sub.join("x.ron")]);
        assert!(errors.is_empty());
    }

    #[test]
    fn stale_temporary_files_are_cleaned() {
        let dir = tempfile::tempdir().unwrap();
        let stale = dir.path().join(".bterm-enrolled.ron.4000000000.tmp");
        let fresh = dir.path().join(".bterm-replay.ron.4000000001.tmp");
        let mine = dir
            .path()
            .join(format!(".bterm-x.ron.{}.tmp", std::process::id()));
        let users = dir.path().join(".notes.4000000000.tmp");
        for f in [&stale, &fresh, &mine, &users] {
            std::fs::write(f, "x").unwrap();
        }
        let long_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
        for f in [&stale, &mine, &users] {
            std::fs::File::options()
                .write(true)
                .open(f)
                .unwrap()
                .set_modified(long_ago)
                .unwrap();
        }
        assert_eq!(clean_stale_temps(dir.path()), 1);
        assert!(!stale.exists() && fresh.exists() && mine.exists() && users.exists());
    }

    #[test]
    fn a_new_file_never_replaces_one() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("battle.ron");
        write_new(&path, b"first").unwrap();
        let err = write_new(&path, b"second").unwrap_err();
        assert_eq!(err.kind(), std::io::ErrorKind::AlreadyExists);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "first");
        let left = std::fs::read_dir(dir.path()).unwrap().count();
        assert_eq!(left, 1, "no temporary file stays");
    }
}
