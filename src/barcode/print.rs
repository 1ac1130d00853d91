//! Printable cards at 300 dpi: name, stats, techniques, abilities in words,
//! and the card code (a Code 128 of the number and a QR code), several cards
//! to an A4 sheet, as PNG or PDF.

use std::path::{Path, PathBuf};

use ab_glyph::{Font, FontRef, PxScale, ScaleFont};
use image::{Rgb, RgbImage};
use rxing::{BarcodeFormat, EncodeHints, MultiFormatWriter, Writer};

use super::code::{code128_text, qr_card_text, qr_number_text};
use crate::cards::{Card, CardKind, Field};
use crate::effects::text::render;

/// Dots per inch of everything printed.
pub const DPI: u32 = 300;
/// A card: 63 × 88 mm at 300 dpi.
pub const CARD_W: u32 = 744;
/// A card's height in pixels.
pub const CARD_H: u32 = 1039;
/// An A4 sheet at 300 dpi.
pub const SHEET_W: u32 = 2480;
/// An A4 sheet's height in pixels.
pub const SHEET_H: u32 = 3508;
/// Cards per sheet (3 × 3).
pub const PER_SHEET: usize = 9;

static REGULAR: &[u8] = include_bytes!("../../assets/fonts/DejaVuSansCondensed.ttf");
static BOLD: &[u8] = include_bytes!("../../assets/fonts/DejaVuSansCondensed-Bold.ttf");

/// Why cards cannot be printed.
#[derive(Debug, thiserror::Error)]
pub enum PrintError {
    /// Command cards are tabletop-only and carry no barcode.
    #[error("{0} is a Command card: Command cards have no barcode, so there is nothing to print")]
    Command(String),
    /// The barcode encoder refused the text.
    #[error("cannot encode {what} as a barcode: {why}")]
    Encode {
        /// Which code.
        what: String,
        /// The encoder's reason.
        why: String,
    },
    /// Only .png and .pdf are written.
    #[error("{0}: unknown output type; use a file name ending in .png or .pdf")]
    Extension(String),
    /// The output is not a regular file (a link, a device, a FIFO), which
    /// no write replaces.
    #[error("{0}")]
    NotAFile(String),
    /// The output exists and `--force` was not given.
    #[error("{0} already exists; choose another --out or add --force to overwrite it")]
    Exists(String),
    /// Writing failed.
    #[error("cannot write {path}: {why}")]
    Io {
        /// The file.
        path: String,
        /// What went wrong.
        why: String,
    },
}

/// The embedded fonts, regular and bold (also the decoys' printed text).
pub(super) fn fonts() -> (FontRef<'static>, FontRef<'static>) {
    // The fonts are compiled in and known good.
    let regular = FontRef::try_from_slice(REGULAR).expect("embedded regular font parses");
    let bold = FontRef::try_from_slice(BOLD).expect("embedded bold font parses");
    (regular, bold)
}

/// A barcode as modules: `true` is black.
pub fn encode(format: BarcodeFormat, text: &str) -> Result<rxing::common::BitMatrix, PrintError> {
    let hints = EncodeHints {
        CharacterSet: Some("UTF-8".to_string()),
        ErrorCorrection: (format == BarcodeFormat::QR_CODE).then(|| "M".to_string()),
        Margin: Some("0".to_string()),
        ..EncodeHints::default()
    };
    MultiFormatWriter
        .encode_with_hints(text, &format, 0, 0, &hints)
        .map_err(|e| PrintError::Encode {
            what: format!("\"{text}\" ({format})"),
            why: e.to_string(),
        })
}

/// The colour of a Field's frame.
pub fn field_colour(field: Field) -> [u8; 3] {
    match field {
        Field::DragonsRoar => [196, 52, 40],
        Field::NatureSpirits => [46, 139, 60],
        Field::NightmareSoldiers => [110, 50, 150],
        Field::JungleTroopers => [150, 110, 30],
        Field::WindGuardians => [40, 160, 160],
        Field::DeepSavers => [30, 80, 180],
        Field::MetalEmpire => [100, 110, 120],
        Field::VirusBusters => [220, 170, 20],
    }
}

struct Canvas<'a> {
    img: &'a mut RgbImage,
    ox: u32,
    oy: u32,
}

impl Canvas<'_> {
    fn rect(&mut self, x: u32, y: u32, w: u32, h: u32, c: [u8; 3]) {
        for yy in y..y + h {
            for xx in x..x + w {
                let (px, py) = (self.ox + xx, self.oy + yy);
                if px < self.img.width() && py < self.img.height() {
                    self.img.put_pixel(px, py, Rgb(c));
                }
            }
        }
    }

    /// Draws one line of text with its top at `y`; returns its width.
    fn text(&mut self, font: &FontRef<'_>, size: f32, x: u32, y: u32, c: [u8; 3], s: &str) -> u32 {
        let scaled = font.as_scaled(PxScale::from(size));
        let mut caret = x as f32;
        let baseline = y as f32 + scaled.ascent();
        let mut last = None;
        for ch in s.chars() {
            let id = scaled.glyph_id(ch);
            if let Some(prev) = last {
                caret += scaled.kern(prev, id);
            }
            let glyph = id.with_scale_and_position(size, ab_glyph::point(caret, baseline));
            caret += scaled.h_advance(id);
            last = Some(id);
            if let Some(outlined) = font.outline_glyph(glyph) {
                let b = outlined.px_bounds();
                let (ox, oy) = (self.ox as f32, self.oy as f32);
                let img = &mut *self.img;
                outlined.draw(|gx, gy, cov| {
                    let px = (ox + b.min.x + gx as f32) as i64;
                    let py = (oy + b.min.y + gy as f32) as i64;
                    if px < 0 || py < 0 || px >= img.width() as i64 || py >= img.height() as i64 {
                        return;
                    }
                    let p = img.get_pixel_mut(px as u32, py as u32);
                    for (ch, want) in p.0.iter_mut().zip(c) {
                        let bg = f32::from(*ch);
                        *ch = (bg + (f32::from(want) - bg) * cov.min(1.0)).round() as u8;
                    }
                });
            }
        }
        (caret - x as f32).ceil() as u32
    }

    /// Draws text wrapped to `width`; returns the y below the last line.
    #[allow(
        clippy::too_many_arguments,
        reason = "a drawing call: font, size, box, colour, text"
    )]
    fn wrapped(
        &mut self,
        font: &FontRef<'_>,
        size: f32,
        x: u32,
        mut y: u32,
        width: u32,
        bottom: u32,
        c: [u8; 3],
        s: &str,
    ) -> u32 {
        let line_h = (size * 1.2) as u32;
        for line in wrap(font, size, width as f32, s) {
            if y + line_h > bottom {
                break;
            }
            self.text(font, size, x, y, c, &line);
            y += line_h;
        }
        y
    }

    fn matrix(
        &mut self,
        m: &rxing::common::BitMatrix,
        x: u32,
        y: u32,
        module: u32,
        bar_h: Option<u32>,
    ) {
        let rows = bar_h.map_or(m.height(), |_| 1);
        for my in 0..rows {
            for mx in 0..m.width() {
                if m.get(mx, my) {
                    let h = bar_h.unwrap_or(module);
                    self.rect(x + mx * module, y + my * module, module, h, [0, 0, 0]);
                }
            }
        }
    }
}

/// A card's name in the title band: at most this size, pixels.
const TITLE_SIZE: f32 = 58.0;
/// The smallest size a name is drawn at before it is cut short.
const TITLE_SMALLEST: f32 = 34.0;

/// The size a name fits `room` pixels at (`Metal Garurumon X-Antibody`
/// smaller than `Agumon`), and the name, cut short with "…" only if it
/// does not fit even at the smallest size.
fn title_fit(bold: &FontRef<'_>, name: &str, room: f32) -> (f32, String) {
    let mut size = TITLE_SIZE;
    while size > TITLE_SMALLEST && text_width(bold, size, name) > room {
        size -= 2.0;
    }
    let mut shown = name.to_string();
    if text_width(bold, size, &shown) > room {
        while !shown.is_empty() && text_width(bold, size, &format!("{shown}…")) > room {
            shown.pop();
        }
        shown = format!("{}…", shown.trim_end());
    }
    (size, shown)
}

fn text_width(font: &FontRef<'_>, size: f32, s: &str) -> f32 {
    let scaled = font.as_scaled(PxScale::from(size));
    s.chars()
        .map(|c| scaled.h_advance(scaled.glyph_id(c)))
        .sum()
}

fn wrap(font: &FontRef<'_>, size: f32, width: f32, s: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in s.split_whitespace() {
        let candidate = if line.is_empty() {
            word.to_string()
        } else {
            format!("{line} {word}")
        };
        if text_width(font, size, &candidate) > width && !line.is_empty() {
            lines.push(std::mem::replace(&mut line, word.to_string()));
        } else {
            line = candidate;
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// The QR text printed on a card: its number, or the whole card when it is
/// not one of the shipped cards (`custom`).
fn qr_text(card: &Card, custom: bool) -> Result<String, PrintError> {
    if custom {
        qr_card_text(card).map_err(|e| PrintError::Encode {
            what: card.name().to_string(),
            why: e.to_string(),
        })
    } else {
        Ok(qr_number_text(&card.number()))
    }
}

/// Renders one card at 300 dpi. `custom` puts the whole card in the QR code
/// (for cards that are not in the shipped set).
pub fn render_card(card: &Card, custom: bool) -> Result<RgbImage, PrintError> {
    let mut img = RgbImage::from_pixel(CARD_W, CARD_H, Rgb([255, 255, 255]));
    refuse_command(card)?;
    draw_card(&mut img, (0, 0), card, custom, true)?;
    Ok(img)
}

/// A card's face as it lies on a table: a printed card's face, or for a
/// Command card (which is never printed) the same face without codes.
pub fn render_face(card: &Card) -> Result<RgbImage, PrintError> {
    let mut img = RgbImage::from_pixel(CARD_W, CARD_H, Rgb([255, 255, 255]));
    let codes = card.kind() != CardKind::Command;
    draw_card(&mut img, (0, 0), card, !codes, codes)?;
    Ok(img)
}

fn refuse_command(card: &Card) -> Result<(), PrintError> {
    if card.kind() == CardKind::Command {
        return Err(PrintError::Command(format!(
            "{} {}",
            card.number(),
            card.name()
        )));
    }
    Ok(())
}

/// Draws `card` with its top-left corner at `(ox, oy)`; `codes`: its QR
/// code and barcode too.
fn draw_card(
    img: &mut RgbImage,
    (ox, oy): (u32, u32),
    card: &Card,
    custom: bool,
    codes: bool,
) -> Result<(), PrintError> {
    let (regular, bold) = fonts();
    let frame = match (card.as_digimon(), card.as_dcg()) {
        (Some(d), _) => field_colour(d.field),
        (_, Some(c)) => dcg_colour(c.colors.first().copied()),
        _ => card
            .as_clash()
            .map_or([90, 90, 100], |c| clash_colour(c.colors[0])),
    };
    let dark = [20, 20, 24];
    let mut cv = Canvas { img, ox, oy };
    // Frame (a cutting line outside it) and title band.
    cv.rect(0, 0, CARD_W, 2, [170, 170, 170]);
    cv.rect(0, CARD_H - 2, CARD_W, 2, [170, 170, 170]);
    cv.rect(0, 0, 2, CARD_H, [170, 170, 170]);
    cv.rect(CARD_W - 2, 0, 2, CARD_H, [170, 170, 170]);
    cv.rect(14, 14, CARD_W - 28, 12, frame);
    cv.rect(14, CARD_H - 26, CARD_W - 28, 12, frame);
    cv.rect(14, 14, 12, CARD_H - 28, frame);
    cv.rect(CARD_W - 26, 14, 12, CARD_H - 28, frame);
    cv.rect(26, 26, CARD_W - 52, 96, frame);
    // The cost at the right of the band, the name in the room left.
    let cost = card.cost().map(|c| format!("Cost {c}"));
    let cost_w = cost
        .as_ref()
        .map_or(0, |l| text_width(&bold, 40.0, l) as u32 + 24);
    if let Some(label) = &cost {
        let w = text_width(&bold, 40.0, label) as u32;
        cv.text(&bold, 40.0, CARD_W - 44 - w, 58, [255, 255, 255], label);
    }
    let (size, name) = title_fit(&bold, card.name(), (CARD_W - 88 - cost_w) as f32);
    // Centred in the band's height whatever the size.
    let y = 42 + ((TITLE_SIZE - size) * 0.55) as u32;
    cv.text(&bold, size, 44, y, [255, 255, 255], &name);
    let limit = if card.one_card_limit() { "  ◎" } else { "" };
    let kind_line = match card {
        Card::Digimon(d) => format!(
            "{}  ·  {}  ·  {}  ·  {}{limit}",
            d.number,
            level_name(d.level),
            d.attribute.name(),
            d.kind
        ),
        Card::Command(_) => format!("{}  ·  Command card{limit}", card.number()),
        Card::Dcg(c) => {
            let mut parts = vec![c.number.to_string(), c.kind.to_string()];
            parts.extend(c.level.map(|l| format!("Lv.{l}")));
            parts.push(
                c.colors
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join("/"),
            );
            parts.extend(c.form.clone());
            parts.join("  ·  ")
        }
        Card::Clash(c) => {
            let mut parts = vec![c.number.to_string(), c.kind.words().to_string()];
            parts.push(
                c.colors
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join("/"),
            );
            parts.extend(c.rarity.as_ref().map(|r| format!("({r})")));
            parts.join("  ·  ")
        }
        _ => format!("{}  ·  Option card{limit}", card.number()),
    };
    cv.text(&regular, 30.0, 40, 134, dark, &kind_line);

    // The QR code at the right of the stats.
    let qr_box = 196u32;
    let (qr_side, qx) = if codes {
        let qr = encode(BarcodeFormat::QR_CODE, &qr_text(card, custom)?)?;
        let module = (qr_box / (qr.width() + 8)).max(2);
        let qr_side = module * (qr.width() + 8);
        let qx = CARD_W - 40 - qr_side;
        cv.matrix(&qr, qx + 4 * module, 184 + 4 * module, module, None);
        (qr_side, qx)
    } else {
        (0, CARD_W - 40)
    };

    let mut y = 186;
    if let Card::Digimon(d) = card {
        cv.text(&regular, 30.0, 40, y, dark, d.field.name());
        y += 44;
        let stats = format!(
            "Speed {}   HP {}   Type {}",
            d.speed,
            d.hp,
            d.battle_type.letter()
        );
        cv.text(&bold, 34.0, 40, y, dark, &stats);
        y += 54;
        for (letter, t) in [
            ('A', &d.techniques.a),
            ('B', &d.techniques.b),
            ('C', &d.techniques.c),
        ] {
            let badge = match letter {
                'A' => [200, 40, 40],
                'B' => [40, 80, 200],
                _ => [40, 150, 60],
            };
            cv.rect(40, y + 2, 38, 38, badge);
            cv.text(&bold, 30.0, 49, y + 4, [255, 255, 255], &letter.to_string());
            let mut tname = t.name.clone();
            while text_width(&regular, 32.0, &tname) > (qx - 240) as f32 && tname.len() > 3 {
                tname.pop();
            }
            cv.text(&regular, 32.0, 92, y + 2, dark, &tname);
            let p = t.power.to_string();
            let w = text_width(&bold, 32.0, &p) as u32;
            cv.text(&bold, 32.0, qx - 20 - w, y + 2, dark, &p);
            y += 50;
        }
        if !d.requirements.names().is_empty() {
            let from = format!("Digivolves from: {}", d.requirements.names().join(", "));
            y = cv.wrapped(&regular, 26.0, 40, y + 4, CARD_W - 80, 760, dark, &from);
        }
    }
    if let Card::Dcg(c) = card {
        if let Some(dp) = c.dp {
            cv.text(&bold, 34.0, 40, y, dark, &format!("{dp} DP"));
            y += 50;
        }
        let mut facts = Vec::new();
        facts.extend(c.attribute.clone());
        if !c.types.is_empty() {
            facts.push(c.types.join("/"));
        }
        if !facts.is_empty() {
            cv.text(&regular, 28.0, 40, y, dark, &facts.join("  ·  "));
            y += 42;
        }
        for d in &c.digivolve {
            let line = format!("Digivolve {} from {} Lv.{}", d.cost, d.color, d.level);
            cv.text(&regular, 28.0, 40, y, dark, &line);
            y += 40;
        }
    }
    if let Card::Clash(c) = card {
        let mut figures = Vec::new();
        if let (Some(a), Some(d)) = (c.attack, c.defense) {
            figures.push(format!("ATK {a} / DEF {d}"));
        }
        if let Some(h) = c.health {
            figures.push(format!("Health {h}"));
        }
        if !figures.is_empty() {
            cv.text(&bold, 34.0, 40, y, dark, &figures.join("   "));
            y += 50;
        }
        if !c.specific.is_empty() {
            let spec: Vec<&str> = c.specific.iter().map(|h| h.name()).collect();
            cv.text(
                &regular,
                28.0,
                40,
                y,
                dark,
                &format!("Specific: {}", spec.join(", ")),
            );
            y += 42;
        }
        if !c.attach.is_empty() {
            let at: Vec<&str> = c.attach.iter().map(|h| h.name()).collect();
            cv.text(
                &regular,
                28.0,
                40,
                y,
                dark,
                &format!("Attach: {}", at.join(", ")),
            );
            y += 42;
        }
        let mut facts = Vec::new();
        facts.extend(c.affiliation.map(|a| a.words().to_string()));
        facts.extend(c.planet.clone());
        if !facts.is_empty() {
            cv.text(&regular, 28.0, 40, y, dark, &facts.join("  ·  "));
            y += 42;
        }
    }
    y = y.max(qr_side + 196) + 8;
    cv.rect(40, y, CARD_W - 80, 2, frame);
    y += 12;
    if let Card::Dcg(c) = card {
        for a in c.abilities() {
            y = cv.wrapped(
                &regular,
                24.0,
                40,
                y,
                CARD_W - 80,
                770,
                dark,
                &crate::effects::dcg::render(a),
            ) + 6;
        }
        for a in c.inherited_abilities() {
            let line = format!("Inherited: {}", crate::effects::dcg::render(a));
            y = cv.wrapped(&regular, 24.0, 40, y, CARD_W - 80, 770, [80, 80, 90], &line) + 6;
        }
    }
    if let Card::Clash(c) = card {
        for line in c.text_lines() {
            y = cv.wrapped(&regular, 24.0, 40, y, CARD_W - 80, 770, dark, &line) + 6;
        }
    }
    let terminal = card.terminal_abilities();
    let alpha = card.alpha_abilities();
    for (label, abilities) in [("Terminal", terminal), ("Alpha", alpha)] {
        for a in abilities {
            let line = format!("{label}: {}", render(a));
            y = cv.wrapped(&regular, 25.0, 40, y, CARD_W - 80, 770, dark, &line) + 6;
        }
    }
    if terminal.is_empty()
        && alpha.is_empty()
        && card.as_dcg().is_none()
        && card.as_clash().is_none_or(|c| c.text_lines().is_empty())
    {
        cv.wrapped(
            &regular,
            25.0,
            40,
            y,
            CARD_W - 80,
            770,
            [120, 120, 120],
            "No abilities.",
        );
    }

    if !codes {
        return Ok(());
    }
    // The Code 128 across the bottom, with the number under it.
    let text = code128_text(&card.number());
    let bars = encode(BarcodeFormat::CODE_128, &text)?;
    // As wide a module as fits the symbol and a quiet zone of 10 modules
    // each side inside the frame (a longer number, `BT1-046`, then keeps
    // the 5-pixel module a shorter one has, which a webcam needs).
    let module = ((CARD_W - 52) / (bars.width() + 20)).clamp(2, 5);
    let bw = module * bars.width();
    let bx = (CARD_W - bw) / 2;
    cv.matrix(&bars, bx, 796, module, Some(150));
    let tw = text_width(&regular, 30.0, &text) as u32;
    cv.text(&regular, 30.0, (CARD_W - tw) / 2, 952, dark, &text);
    Ok(())
}

/// An Alpha Clash colour's frame.
fn clash_colour(c: crate::effects::clash::Hue) -> [u8; 3] {
    use crate::effects::clash::Hue;
    match c {
        Hue::Red => [190, 40, 40],
        Hue::Blue => [40, 90, 190],
        Hue::Green => [40, 140, 70],
        Hue::Black => [40, 40, 44],
        Hue::White => [150, 150, 150],
    }
}

/// A Digimon Card Game colour's frame.
fn dcg_colour(c: Option<crate::effects::dcg::Color>) -> [u8; 3] {
    use crate::effects::dcg::Color;
    match c {
        Some(Color::Red) => [190, 40, 40],
        Some(Color::Blue) => [40, 90, 190],
        Some(Color::Yellow) => [200, 160, 20],
        Some(Color::Green) => [40, 140, 70],
        Some(Color::Black) => [40, 40, 44],
        Some(Color::Purple) => [120, 60, 160],
        Some(Color::White) => [150, 150, 150],
        None => [90, 90, 100],
    }
}

fn level_name(level: crate::cards::Level) -> String {
    match level {
        crate::cards::Level::Hybrid(s) => format!("Hybrid ({s})"),
        other => other.stage().name().to_string(),
    }
}

/// Lays up to nine cards out 3 × 3 on an A4 sheet.
pub fn render_sheet(cards: &[(Card, bool)]) -> Result<RgbImage, PrintError> {
    let gap_x = (SHEET_W - 3 * CARD_W) / 4;
    let gap_y = (SHEET_H - 3 * CARD_H) / 4;
    let mut sheet = RgbImage::from_pixel(SHEET_W, SHEET_H, Rgb([255, 255, 255]));
    for (i, (card, custom)) in cards.iter().take(PER_SHEET).enumerate() {
        let (col, row) = (i as u32 % 3, i as u32 / 3);
        let x = gap_x + col * (CARD_W + gap_x);
        let y = gap_y + row * (CARD_H + gap_y);
        refuse_command(card)?;
        draw_card(&mut sheet, (x, y), card, *custom, true)?;
    }
    Ok(sheet)
}

/// Prints cards to `out` (.png or .pdf). A PNG of one card is the card
/// alone; more cards make A4 sheets, one PNG per sheet (`name-2.png`, …)
/// or one PDF page per sheet. Returns the files written.
pub fn print(cards: &[(Card, bool)], out: &Path, force: bool) -> Result<Vec<PathBuf>, PrintError> {
    let ext = out
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    let io = |path: &Path, e: &dyn std::fmt::Display| PrintError::Io {
        path: path.display().to_string(),
        why: e.to_string(),
    };
    match ext.as_deref() {
        Some("png") => {
            // One sheet at a time: rendered, encoded, written, dropped.
            let sheets = cards.len().div_ceil(PER_SHEET);
            let paths: Vec<PathBuf> = if cards.len() == 1 || sheets == 1 {
                vec![out.to_path_buf()]
            } else {
                let stem = out.file_stem().and_then(|s| s.to_str()).unwrap_or("cards");
                (1..=sheets)
                    .map(|i| out.with_file_name(format!("{stem}-{i}.png")))
                    .collect()
            };
            if let Some(e) = paths.iter().find_map(|p| crate::save::replaceable(p).err()) {
                return Err(PrintError::NotAFile(e));
            }
            if !force && let Some(p) = paths.iter().find(|p| p.exists()) {
                return Err(PrintError::Exists(p.display().to_string()));
            }
            for (i, path) in paths.iter().enumerate() {
                let img = if cards.len() == 1 {
                    render_card(&cards[0].0, cards[0].1)?
                } else {
                    render_sheet(&cards[i * PER_SHEET..((i + 1) * PER_SHEET).min(cards.len())])?
                };
                let mut bytes = Vec::new();
                img.write_to(
                    &mut std::io::Cursor::new(&mut bytes),
                    image::ImageFormat::Png,
                )
                .map_err(|e| io(path, &e))?;
                drop(img);
                crate::save::write_atomic(path, &bytes).map_err(|e| io(path, &e))?;
            }
            Ok(paths)
        }
        Some("pdf") => {
            crate::save::replaceable(out).map_err(PrintError::NotAFile)?;
            if !force && out.exists() {
                return Err(PrintError::Exists(out.display().to_string()));
            }
            // Page by page into the file: a sheet is rendered, compressed,
            // written and dropped before the next.
            let mut failed: Option<PrintError> = None;
            let written = crate::save::write_atomic_with(out, |w| {
                let mut pdf = super::pdf::Pdf::new(w, DPI)?;
                for chunk in cards.chunks(PER_SHEET) {
                    match render_sheet(chunk) {
                        Ok(sheet) => pdf.page(&sheet)?,
                        Err(e) => {
                            failed = Some(e);
                            return Err(std::io::Error::other("a card could not be drawn"));
                        }
                    }
                }
                pdf.finish()
            });
            if let Some(e) = failed {
                return Err(e);
            }
            written.map_err(|e| io(out, &e))?;
            Ok(vec![out.to_path_buf()])
        }
        _ => Err(PrintError::Extension(out.display().to_string())),
    }
}

/// A bare barcode as a grayscale picture: `module` pixels per module, a
/// quiet zone of `quiet` modules, 1D codes `bar_h` pixels tall.
pub fn symbol_image(
    format: BarcodeFormat,
    text: &str,
    module: u32,
    quiet: u32,
    bar_h: u32,
) -> Result<image::GrayImage, PrintError> {
    let m = encode(format, text)?;
    let one_d = m.height() == 1;
    let h_modules = if one_d { 0 } else { m.height() };
    let w = (m.width() + 2 * quiet) * module;
    let h = if one_d {
        bar_h + 2 * quiet * module
    } else {
        (h_modules + 2 * quiet) * module
    };
    Ok(image::GrayImage::from_fn(w, h, |x, y| {
        let mx = (x / module).checked_sub(quiet);
        let my = if one_d {
            (y >= quiet * module && y < quiet * module + bar_h).then_some(0)
        } else {
            (y / module).checked_sub(quiet)
        };
        let black = match (mx, my) {
            (Some(mx), Some(my)) if mx < m.width() && my < m.height() => m.get(mx, my),
            _ => false,
        };
        image::Luma([if black { 0 } else { 255 }])
    }))
}

/// What a battle card says in words, above its QR code.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct BattleCardText {
    /// The heading (the ruleset).
    pub title: String,
    /// One entry per seat: its name and its cards.
    pub seats: Vec<(String, String)>,
    /// Who won, or that it was a draw.
    pub result: String,
    /// A last line: length, seed.
    pub footer: String,
}

/// Renders a battle card at 300 dpi, card-sized: the words on top, the
/// QR code of the replay (`qr`, see `replay::code`) filling the rest with
/// its quiet zone.
pub fn render_battle_card(words: &BattleCardText, qr: &str) -> Result<RgbImage, PrintError> {
    let m = encode(BarcodeFormat::QR_CODE, qr)?;
    let mut img = RgbImage::from_pixel(CARD_W, CARD_H, Rgb([255, 255, 255]));
    let (regular, bold) = fonts();
    let mut c = Canvas {
        img: &mut img,
        ox: 0,
        oy: 0,
    };
    let margin = 36;
    let inner = CARD_W - 2 * margin;
    // The QR code: as large as the width allows with 4 modules of quiet
    // zone, at whole pixels per module, at the bottom of the card.
    let module = (inner / (m.width() + 8)).max(1);
    let side = m.width() * module;
    let qx = (CARD_W - side) / 2;
    let qy = CARD_H - margin - side - 4 * module;
    // Heading band.
    c.rect(0, 0, CARD_W, 92, [24, 32, 64]);
    c.text(&bold, 44.0, margin, 20, [255, 220, 60], "bterm battle card");
    let mut y = 108;
    let text_bottom = qy.saturating_sub(4 * module + 8);
    y = c.wrapped(
        &bold,
        30.0,
        margin,
        y,
        inner,
        text_bottom,
        [24, 32, 64],
        &words.title,
    );
    let (ink, green, red, grey) = ([0, 0, 0], [20, 110, 40], [150, 30, 30], [90, 90, 90]);
    // The result first, so a crowded card never loses it.
    y = c.wrapped(
        &bold,
        28.0,
        margin,
        y + 2,
        inner,
        text_bottom,
        green,
        &words.result,
    );
    // Three or four seats share the space in a smaller size.
    let (seat_px, cards_px) = if words.seats.len() > 2 {
        (23.0, 20.0)
    } else {
        (27.0, 24.0)
    };
    for (seat, cards) in &words.seats {
        y += 4;
        y = c.wrapped(&bold, seat_px, margin, y, inner, text_bottom, red, seat);
        let (x, w) = (margin + 12, inner - 12);
        y = c.wrapped(&regular, cards_px, x, y, w, text_bottom, ink, cards);
    }
    c.wrapped(
        &regular,
        20.0,
        margin,
        y + 6,
        inner,
        text_bottom,
        grey,
        &words.footer,
    );
    c.matrix(&m, qx, qy, module, None);
    Ok(img)
}

/// Writes a battle card to `out` (.png, or .pdf: one card-sized page);
/// an existing file is kept unless `force`.
pub fn print_battle_card(
    words: &BattleCardText,
    qr: &str,
    out: &Path,
    force: bool,
) -> Result<(), PrintError> {
    let ext = out
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    if !matches!(ext.as_deref(), Some("png" | "pdf")) {
        return Err(PrintError::Extension(out.display().to_string()));
    }
    crate::save::replaceable(out).map_err(PrintError::NotAFile)?;
    if !force && out.exists() {
        return Err(PrintError::Exists(out.display().to_string()));
    }
    let img = render_battle_card(words, qr)?;
    let io = |e: &dyn std::fmt::Display| PrintError::Io {
        path: out.display().to_string(),
        why: e.to_string(),
    };
    if ext.as_deref() == Some("pdf") {
        crate::save::write_atomic_with(out, |w| {
            let mut pdf = super::pdf::Pdf::new(w, DPI)?;
            pdf.page(&img)?;
            pdf.finish()
        })
        .map_err(|e| io(&e))
    } else {
        let mut bytes = Vec::new();
        img.write_to(
            &mut std::io::Cursor::new(&mut bytes),
            image::ImageFormat::Png,
        )
        .map_err(|e| io(&e))?;
        crate::save::write_atomic(out, &bytes).map_err(|e| io(&e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::CardSet;

    /// The room a card's name has beside its cost, as `draw_card` gives it.
    fn room(card: &Card) -> f32 {
        let (_, bold) = fonts();
        let cost_w = card.cost().map_or(0, |c| {
            text_width(&bold, 40.0, &format!("Cost {c}")) as u32 + 24
        });
        (CARD_W - 88 - cost_w) as f32
    }

    #[test]
    fn every_shipped_name_fits_its_title_whole() {
        let (_, bold) = fonts();
        let cards = CardSet::embedded();
        for card in cards.cards() {
            let (size, shown) = title_fit(&bold, card.name(), room(card));
            assert_eq!(shown, card.name(), "{} is cut short", card.number());
            assert!(size >= TITLE_SMALLEST, "{}", card.number());
            assert!(
                text_width(&bold, size, &shown) <= room(card),
                "{}",
                card.number()
            );
        }
        // The longest names are drawn smaller than a short one.
        let (long, _) = title_fit(&bold, "Metal Garurumon X-Antibody", 500.0);
        let (short, _) = title_fit(&bold, "Agumon", 500.0);
        assert!(long < short && short == TITLE_SIZE, "{long} {short}");
    }

    #[test]
    fn a_name_too_long_for_any_size_is_cut_short_and_says_so() {
        let (_, bold) = fonts();
        let name = "Imperialdramon Paladin Mode Fighter Mode Dragon Mode X-Antibody";
        let (size, shown) = title_fit(&bold, name, 400.0);
        assert_eq!(size, TITLE_SMALLEST);
        assert!(shown.ends_with('…') && shown.len() < name.len(), "{shown}");
        assert!(text_width(&bold, size, &shown) <= 400.0, "{shown}");
    }
}
