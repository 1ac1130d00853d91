//! Saving what a user keeps (replays, enrolments, printed sheets) so that a
//! crash or a full disk never leaves half a file behind.

use std::path::{Path, PathBuf};

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
