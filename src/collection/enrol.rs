//! The enrolled barcodes a scanner uses: kept in the collection, where the
//! old `enrolled.ron` of the data folder is moved once (and left in place).
//! With no collection to hand (a read-only folder, `--no-collect` before
//! any collection exists), the old file is read as before.

use super::Store;
use crate::barcode::Format;
use crate::barcode::enroll::{self, Enrolments};

/// The enrolments for a scanner, and warnings to show (a broken source is
/// never fatal: the scan reads on without it).
pub fn for_scanning(store: Option<&mut Store>) -> (Enrolments, Vec<String>) {
    let mut warnings = Vec::new();
    let Some(store) = store else {
        let e = Enrolments::open_default().unwrap_or_else(|e| {
            warnings.push(format!("{e}; scanning without the enrolled barcodes"));
            Enrolments::default()
        });
        return (e, warnings);
    };
    match import_old(store) {
        Ok(Some(message)) => warnings.push(message),
        Ok(None) => {}
        Err(e) => warnings.push(format!(
            "the old enrolments were not moved into the collection: {e}"
        )),
    }
    let enrolments = match store.enrolments() {
        Ok(list) => Enrolments::from_entries(
            list.into_iter()
                .filter_map(|(f, t, c)| Some((Format::from_name(&f)?, t, c))),
        ),
        Err(e) => {
            warnings.push(format!("{e}; scanning without the enrolled barcodes"));
            Enrolments::default()
        }
    };
    (enrolments, warnings)
}

/// Moves the data folder's old `enrolled.ron` into the collection, once;
/// says so when it did.
pub fn import_old(store: &mut Store) -> Result<Option<String>, String> {
    let Some(path) = crate::save::data_dir().map(|d| d.join(enroll::FILE_NAME)) else {
        return Ok(None);
    };
    if std::fs::symlink_metadata(&path).is_err() {
        return Ok(None);
    }
    let old = Enrolments::open(&path).map_err(|e| e.to_string())?;
    let entries: Vec<_> = old
        .entries()
        .into_iter()
        .map(|(f, t, c)| (f.name().to_string(), t, c))
        .collect();
    let n = store
        .import_enrolments_once(&path.display().to_string(), &entries)
        .map_err(|e| e.to_string())?;
    Ok((n > 0).then(|| {
        format!(
            "{n} enrolled barcode{} moved from {} into the collection (the file is left as it was)",
            if n == 1 { "" } else { "s" },
            path.display()
        )
    }))
}
