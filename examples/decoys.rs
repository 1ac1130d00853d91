//! Writes the seeded pictures with no barcode (`bterm::barcode::decoys`) as
//! PNG files, so any decoder can be run on the same pictures, and reports
//! what bterm's reader makes of each.
//!
//! Usage: `cargo run --release --example decoys [COUNT] [OUT_DIR]`
//! (default 1000 pictures; no files are written without `OUT_DIR`).

use std::path::PathBuf;

use bterm::barcode::decode::{Effort, decode};
use bterm::barcode::decoys::decoy;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let count: u64 = args.next().map(|a| a.parse()).transpose()?.unwrap_or(1000);
    let out = args.next().map(PathBuf::from);
    if let Some(dir) = &out {
        std::fs::create_dir_all(dir)?;
    }
    let mut read = 0;
    for n in 0..count {
        let (kind, img) = decoy(n);
        if let Some(dir) = &out {
            img.save(dir.join(format!("{n:04}-{kind}.png")))?;
        }
        let found = decode(&img, Effort::File);
        if !found.symbols.is_empty() {
            read += 1;
            println!("{n:04} {kind}: {:?} ({:?})", found.symbols, found.pass);
        }
    }
    println!("{read} of {count} pictures with no barcode gave a symbol");
    Ok(())
}
