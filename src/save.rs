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

/// Reads a regular file of at most `limit` bytes. A link to a file is
/// followed; FIFOs, devices and folders are refused before any byte is
/// read, and the size is checked on the opened file (so it cannot change
/// between the check and the read) and again while reading.
pub fn read_regular(path: &Path, limit: u64) -> Result<Vec<u8>, ReadFileError> {
    // Opening a FIFO for reading blocks until a writer comes: look first.
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        return Err(ReadFileError::NotRegular(kind_of(meta.file_type())));
    }
    let file = std::fs::File::open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(ReadFileError::NotRegular(kind_of(meta.file_type())));
    }
    if meta.len() > limit {
        return Err(ReadFileError::TooLarge {
            size: meta.len(),
            limit,
        });
    }
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(ReadFileError::TooLarge {
            size: bytes.len() as u64,
            limit,
        });
    }
    Ok(bytes)
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

/// Removes what killed writes left behind in `dir`: the `.NAME.PID.tmp`
/// files of [`write_atomic`] whose process is gone. Returns how many went.
pub fn clean_stale_temps(dir: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    let mut removed = 0;
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(pid) = name
            .strip_prefix('.')
            .and_then(|n| n.strip_suffix(".tmp"))
            .and_then(|n| n.rsplit_once('.'))
            .and_then(|(_, pid)| pid.parse::<u32>().ok())
        else {
            continue;
        };
        let alive = pid == std::process::id() || Path::new(&format!("/proc/{pid}")).exists();
        if !alive
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
    file.unlock()?;
    Ok(out)
}

/// Writes a file so that it is either the old or the new contents, never
/// half of one: a temporary file beside it, synced, then renamed over it.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".into());
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Where bterm keeps what a user saves: `$BTERM_DATA_DIR`, else
/// `$XDG_DATA_HOME/bterm`, else `~/.local/share/bterm`.
pub fn data_dir() -> Option<PathBuf> {
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
        let stale = dir.path().join(".enrolled.ron.4000000000.tmp");
        let mine = dir
            .path()
            .join(format!(".x.ron.{}.tmp", std::process::id()));
        let other = dir.path().join("keep.tmp");
        for f in [&stale, &mine, &other] {
            std::fs::write(f, "x").unwrap();
        }
        assert_eq!(clean_stale_temps(dir.path()), 1);
        assert!(!stale.exists() && mine.exists() && other.exists());
    }
}
