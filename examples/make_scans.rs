//! Makes the committed test scans in `barcodes/` (run `make scans`):
//!
//! - `barcodes/cards/<CODE>.png`: every shipped card with a barcode, as
//!   `bterm print` renders it (300 dpi);
//! - `barcodes/photos/<CODE>-<kind>.jpg`: photo-like shots of the cards
//!   (a 1280×720 webcam frame: small, turned, in perspective, blurred,
//!   noisy, dim, JPEG-compressed, or all at once), each card shot once,
//!   the kinds taken in turn. Seeded: running it again gives the same files.
//!
//! Usage: `cargo run --example make_scans [OUT_DIR]` (default `barcodes`).

use std::path::PathBuf;

use bterm::barcode::code::code128_text;
use bterm::barcode::perturb::{KINDS, jpeg_bytes, shoot};
use bterm::barcode::print::render_card;
use bterm::cards::{CardKind, CardSet};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = PathBuf::from(std::env::args().nth(1).unwrap_or_else(|| "barcodes".into()));
    let cards_dir = out.join("cards");
    let photos_dir = out.join("photos");
    std::fs::create_dir_all(&cards_dir)?;
    std::fs::create_dir_all(&photos_dir)?;
    let set = CardSet::embedded();
    let mut n = 0;
    for card in set.cards().iter().filter(|c| c.kind() != CardKind::Command) {
        let code = code128_text(&card.number());
        let img = render_card(card, false)?;
        img.save(cards_dir.join(format!("{code}.png")))?;
        let gray = image::DynamicImage::ImageRgb8(img).to_luma8();
        let (kind, shot) = KINDS[n % KINDS.len()];
        let photo = shoot(&gray, &shot, n as u64);
        // The shot already carries its JPEG damage; store it at quality 90.
        std::fs::write(
            photos_dir.join(format!("{code}-{kind}.jpg")),
            jpeg_bytes(&photo, 90),
        )?;
        n += 1;
    }
    println!("{n} cards and {n} photos written under {}", out.display());
    Ok(())
}
