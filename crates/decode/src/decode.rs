//! Image → symbols: rxing behind a preprocessing pipeline that holds up on
//! webcam photos (small, turned, in perspective, blurred, noisy, dim, JPEG)
//! and costs little on pictures that hold no barcode.
//!
//! The pipeline tries, in order, and stops at the first pass that finds
//! anything:
//! 1. the whole picture read quickly (rxing without try-harder: a few rows
//!    from the middle, and the QR detector once). On real photographs of
//!    products and QR codes this alone reads most pictures, in about a
//!    millisecond;
//! 2. region proposals: blocks whose gradients all point one way and
//!    alternate (bars, not a card's edge) are grouped; each group is cut
//!    out turned upright by its measured angle and enlarged when small; the
//!    crops are read with the cheapest read first (`REGION_STEPS`: bars on the
//!    middle rows, QR, both again sharpened with an unsharp mask, bars on
//!    every row), each read on every crop before the next, until one reads;
//! 3. for a file, the whole picture's tones turned over and read quickly
//!    (a code printed light on dark).
//!
//! The passes after these cost tens to hundreds of milliseconds on a large
//! picture, and run only when it is worth it ([`worth_more`]): the picture is
//! small, or the proposals saw something like bars.
//!
//! 4. the whole image as it is (rxing's hybrid local threshold, try-harder,
//!    the card formats); for files, painting over each symbol found and
//!    looking again for more;
//! 5. the whole image contrast-stretched and, when large, halved;
//! 6. a 3×3 blur against sensor noise, then the whole image and the regions
//!    again (bars only: [`BLURRED_STEPS`]);
//! 7. an orientation search over the whole image in 15° steps near the
//!    strongest proposal's direction ([`ROTATION_REACH`]), at most
//!    [`ROTATION_SIDE`] pixels a side.
//!
//! Passes 2 and 4 to 7 look for the formats bterm's cards are printed in
//! ([`CARD_BARS`] and QR codes); the quick passes (1 and 3) read every
//! format rxing knows.
//!
//! `Effort::Frame` (the webcam) runs passes 1, 2 and 4, and a live frame is
//! given up once [`FRAME_CAP`] has passed ([`decode_within`]). A picture a
//! few pixels tall is a single line of bars (`strip_to_picture`). Which
//! pass found a code is reported, so the README's figures say what each
//! pass is worth.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use image::GrayImage;
use rxing::common::HybridBinarizer;
use rxing::{BinaryBitmap, DecodeHints, Luma8LuminanceSource, MultiFormatReader, Reader};
use serde::{Deserialize, Serialize};

use crate::confirm;
use crate::imageops;
use crate::symbol::{Format, Symbol};

/// How hard to look.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effort {
    /// A live camera frame: the quick passes only (another frame comes soon).
    Frame,
    /// A file: every pass.
    File,
}

/// The pass of the pipeline that found the symbols.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Pass {
    /// The whole picture, read quickly (rxing without try-harder).
    Quick,
    /// A cropped, turned region proposal.
    Region,
    /// The whole picture's tones turned over, read quickly (a code printed
    /// light on dark; files only: a card shown to a webcam is printed dark
    /// on light).
    Inverted,
    /// The image as it is.
    Direct,
    /// Contrast-stretched (and halved when large).
    Contrast,
    /// The orientation search.
    Rotation,
    /// After a blur against noise.
    Denoise,
}

/// What decoding an image found.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Decoded {
    /// Every distinct symbol, in reading order: rows from the top, each
    /// from the left (a binder page's cards as a person reads them).
    pub symbols: Vec<Symbol>,
    /// The pass that found them (none if nothing was found).
    pub pass: Option<Pass>,
    /// The time allowed ran out before every pass was tried (a live frame
    /// over [`FRAME_CAP`]: dropped for the next one).
    pub cut_short: bool,
}

/// The most time a live camera frame may take to decode. A frame that
/// would take longer is given up for the next one (the passes stop at the
/// next step once the time is up, and the whole image with try-harder is
/// not begun when what is left of the time would not cover it): on a
/// webcam a frame that takes half a second is a stall.
pub const FRAME_CAP: Duration = Duration::from_millis(50);

/// Symbols found, each with where it lies on the picture (its centre, in
/// the picture's pixels).
type Found = BTreeMap<Symbol, (f32, f32)>;

/// The most symbols one picture gives.
pub const MOST_SYMBOLS: usize = 16;

impl Pass {
    /// Every pass, in the order `decode` tries them.
    pub const ALL: [Pass; 7] = [
        Pass::Quick,
        Pass::Region,
        Pass::Inverted,
        Pass::Direct,
        Pass::Contrast,
        Pass::Denoise,
        Pass::Rotation,
    ];

    /// Whether the pass is one of the costly ones that run only when
    /// [`worth_more`] says so.
    pub fn costly(self) -> bool {
        !matches!(self, Pass::Quick | Pass::Region | Pass::Inverted)
    }
}

/// One picture on its way through the passes; the contrast-stretched copy
/// is made once, for the three passes that share it.
struct Work<'a> {
    img: &'a GrayImage,
    stretched: Option<GrayImage>,
    regions: Option<Vec<Region>>,
    /// When the time allowed runs out (`None`: no limit).
    deadline: Option<Instant>,
}

impl Work<'_> {
    fn new(img: &GrayImage, deadline: Option<Instant>) -> Work<'_> {
        Work {
            img,
            stretched: None,
            regions: None,
            deadline,
        }
    }

    /// Whether the time allowed has run out.
    fn late(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Whether what is left of the time allowed covers reading the whole
    /// picture with try-harder (about [`DIRECT_NANOS_PER_PIXEL`]).
    fn time_for_direct(&self) -> bool {
        let Some(deadline) = self.deadline else {
            return true;
        };
        let pixels = u64::from(self.img.width()) * u64::from(self.img.height());
        let needed = Duration::from_nanos(pixels.saturating_mul(DIRECT_NANOS_PER_PIXEL));
        Instant::now() + needed <= deadline
    }

    fn stretched(&mut self) -> &GrayImage {
        let img = self.img;
        self.stretched.get_or_insert_with(|| {
            let work = imageops::stretch_contrast(img);
            if work.width().max(work.height()) > 1600 {
                imageops::scale(&work, 0.5)
            } else {
                work
            }
        })
    }

    fn regions(&mut self) -> &[Region] {
        let img = self.img;
        self.regions.get_or_insert_with(|| propose_regions(img))
    }

    fn run(&mut self, pass: Pass, effort: Effort) -> Found {
        let img = self.img;
        match pass {
            // Every symbol on a page-sized picture, the first otherwise.
            Pass::Quick if effort == Effort::File && page_sized(img) => {
                read_all(img, &DecodeHints::default())
            }
            Pass::Quick => read_first(img, &DecodeHints::default()),
            Pass::Inverted => read_inverted(img),
            Pass::Region => {
                let deadline = self.deadline;
                let regions = self.regions();
                read_regions(
                    img,
                    &regions[..regions.len().min(FIRST_REGIONS)],
                    &REGION_STEPS,
                    deadline,
                )
            }
            Pass::Direct if effort == Effort::File => read_all(img, &card_hints()),
            Pass::Direct => read_first(img, &card_hints()),
            Pass::Contrast => {
                let s = read_first(self.stretched(), &card_hints());
                self.on_picture(s)
            }
            Pass::Rotation => {
                let steps = rotation_steps(self.regions());
                let s = read_rotations(self.stretched(), &steps);
                self.on_picture(s)
            }
            Pass::Denoise => {
                let blurred = imageops::box_blur3(self.stretched());
                let mut s = read_first(&blurred, &card_hints());
                if s.is_empty() {
                    let regions = propose_regions(&blurred);
                    let first = &regions[..regions.len().min(FIRST_REGIONS)];
                    s = read_regions(&blurred, first, &BLURRED_STEPS, self.deadline);
                }
                self.on_picture(s)
            }
        }
    }

    /// Places found on the stretched copy, moved onto the picture (the copy
    /// is halved when the picture is large).
    fn on_picture(&mut self, found: Found) -> Found {
        let k = self.img.width() as f32 / self.stretched().width().max(1) as f32;
        found
            .into_iter()
            .map(|(s, (x, y))| (s, (x * k, y * k)))
            .collect()
    }

    /// More symbols, for a file, once one pass has found some: the regions
    /// of strong bars that hold none of them yet, each read with the quick
    /// steps (a binder page of cards; a single card's picture has none).
    fn more(&mut self, found: &mut Found) {
        let img = self.img;
        // Other codes on a page look like the ones found: regions about as
        // strong as the strongest that holds a find (wood grain and cloth
        // make weaker groups of bar-like blocks, and are not read).
        let all = self.regions();
        let like = all
            .iter()
            .filter(|r| covers(r, found))
            .map(|r| r.blocks)
            .max()
            .map_or(EVIDENCE_BLOCKS, |b| (b / 2).max(EVIDENCE_BLOCKS));
        let regions: Vec<Region> = all
            .iter()
            .filter(|r| r.blocks >= like && !covers(r, found))
            .copied()
            .collect();
        for region in regions {
            if found.len() >= MOST_SYMBOLS {
                break;
            }
            let mut crop = Crop::of(img, &region);
            let at = centre_of(&region);
            for (reading, copy) in &REGION_STEPS[..MORE_STEPS] {
                if let Some(symbol) =
                    read_with(crop.image(*copy), &reading.hints()).map(|r| symbol(&r))
                {
                    found.entry(symbol).or_insert(at);
                    break;
                }
            }
        }
    }
}

/// Decodes every barcode it can find in a grayscale image.
pub fn decode(img: &GrayImage, effort: Effort) -> Decoded {
    decode_until(img, effort, None)
}

/// Decodes as [`decode`] does, giving up once `cap` has passed (a live
/// camera frame: [`FRAME_CAP`]); `cut_short` says it gave up.
pub fn decode_within(img: &GrayImage, effort: Effort, cap: Duration) -> Decoded {
    decode_until(img, effort, Some(Instant::now() + cap))
}

fn decode_until(img: &GrayImage, effort: Effort, deadline: Option<Instant>) -> Decoded {
    if img.height() < 8 && img.width() >= STRIP_WIDTH {
        return decode_until(&strip_to_picture(img), effort, deadline);
    }
    if img.width() < 8 || img.height() < 8 {
        return Decoded::default();
    }
    // Region proposals first: a card small and turned in a photo reads
    // there, and a clean scan's bars are the strongest proposal.
    let passes = match effort {
        Effort::Frame => &[Pass::Quick, Pass::Region, Pass::Direct],
        Effort::File => &Pass::ALL[..],
    };
    let mut work = Work::new(img, deadline);
    for &pass in passes {
        if pass.costly() && !worth_more(img, work.regions()) {
            break;
        }
        if work.late() || (pass == Pass::Direct && !work.time_for_direct()) {
            return Decoded {
                cut_short: true,
                ..Decoded::default()
            };
        }
        let mut found = work.run(pass, effort);
        if !found.is_empty() {
            if effort == Effort::File && page_sized(img) {
                work.more(&mut found);
            }
            return Decoded {
                symbols: reading_order(&found, img.height()),
                pass: Some(pass),
                cut_short: false,
            };
        }
    }
    Decoded {
        cut_short: work.late(),
        ..Decoded::default()
    }
}

/// What reading a whole picture with try-harder for the card formats
/// costs, nanoseconds a pixel: on the 1280×720 webcam-like frames of
/// `barcodes/frames`, 6 at the median and 11 at the 90th percentile
/// (2026-11-28; for every format rxing knows it was 17 and 32 that day,
/// and 36 and 57 through `examples/pass_times.rs` on 2026-11-27).
const DIRECT_NANOS_PER_PIXEL: u64 = 15;

/// The narrowest strip of bars read ([`strip_to_picture`]): an EAN-8 at
/// a third of a pixel a module.
const STRIP_WIDTH: u32 = 24;

/// A picture a few pixels tall (a single line of bars, as a scanner's
/// line sensor gives) made a picture rxing and the checks can read: its
/// rows stacked 16 high, and, when both its ends are light (the line holds
/// the whole symbol), a light margin of a sixth of its width each side
/// standing for the quiet zones its ends were cut at. A line cut through
/// its bars keeps its dark ends, and reads only if its own zones hold.
fn strip_to_picture(img: &GrayImage) -> GrayImage {
    let (w, h) = (img.width(), img.height());
    let row: Vec<u8> = (0..w)
        .map(|x| {
            let sum: u32 = (0..h).map(|y| u32::from(img.get_pixel(x, y)[0])).sum();
            (sum / h.max(1)) as u8
        })
        .collect();
    let (lo, hi) = row
        .iter()
        .fold((u8::MAX, u8::MIN), |(lo, hi), &v| (lo.min(v), hi.max(v)));
    let mid = (u16::from(lo) + u16::from(hi)) / 2;
    let light = |v: u8| u16::from(v) > mid;
    let ends_light = light(row[0]) && light(row[row.len() - 1]);
    let margin = if ends_light { w / 6 + 2 } else { 0 };
    let fill = if ends_light { hi } else { 255 };
    GrayImage::from_fn(w + 2 * margin, 16, |x, _| {
        let v = x
            .checked_sub(margin)
            .and_then(|x| row.get(x as usize).copied())
            .unwrap_or(fill);
        image::Luma([v])
    })
}

/// Pictures of more than this many pixels may be a page of several cards,
/// and are searched for more codes once one is found. A binder page's nine
/// cards are readable from about 2 megapixels up (a phone's photograph has
/// 8 to 12); smaller pictures are taken to show one card, and spared the
/// search (it would cost a webcam-sized picture of one card more than
/// reading it did).
const PAGE_PIXELS: u64 = 1_500_000;

/// Whether a picture is large enough to be a page of several cards.
fn page_sized(img: &GrayImage) -> bool {
    u64::from(img.width()) * u64::from(img.height()) > PAGE_PIXELS
}

/// The regions the first region pass reads (the strongest); the search for
/// more symbols in a file looks at every region proposed.
const FIRST_REGIONS: usize = 4;

/// The region steps the search for more symbols uses: the quick ones
/// (linear codes at the picture's scale and enlarged).
const MORE_STEPS: usize = 1;

/// A region's centre, in the picture's pixels.
fn centre_of(r: &Region) -> (f32, f32) {
    let (x, y, w, h) = r.rect;
    (x as f32 + w as f32 / 2.0, y as f32 + h as f32 / 2.0)
}

/// Whether a symbol found lies in the region (grown by a quarter of its
/// size each way: a code's quiet zone and the bars' ends).
fn covers(r: &Region, found: &Found) -> bool {
    let (x, y, w, h) = r.rect;
    let (gx, gy) = (w as f32 * 0.25, h as f32 * 0.25);
    found.values().any(|&(px, py)| {
        px >= x as f32 - gx
            && px <= (x + w) as f32 + gx
            && py >= y as f32 - gy
            && py <= (y + h) as f32 + gy
    })
}

/// Symbols in reading order: by rows from the top (a symbol within an
/// eighth of the picture's height below a row's first joins that row),
/// each row from the left.
fn reading_order(found: &Found, height: u32) -> Vec<Symbol> {
    let mut by_y: Vec<(&Symbol, (f32, f32))> = found.iter().map(|(s, &at)| (s, at)).collect();
    by_y.sort_by(|a, b| a.1.1.total_cmp(&b.1.1).then(a.0.cmp(b.0)));
    let band = height as f32 / 8.0;
    let mut rows: Vec<Vec<(&Symbol, (f32, f32))>> = Vec::new();
    for item in by_y {
        match rows.last_mut() {
            Some(row) if item.1.1 - row[0].1.1 <= band => row.push(item),
            _ => rows.push(vec![item]),
        }
    }
    rows.into_iter()
        .flat_map(|mut row| {
            row.sort_by(|a, b| a.1.0.total_cmp(&b.1.0).then(a.0.cmp(b.0)));
            row.into_iter().map(|(s, _)| s.clone())
        })
        .collect()
}

/// Runs one pass of the pipeline on its own, as for a file (for measuring
/// what each pass is worth; `decode` runs them in order).
pub fn run_pass(img: &GrayImage, pass: Pass) -> Vec<Symbol> {
    Work::new(img, None)
        .run(pass, Effort::File)
        .into_keys()
        .collect()
}

/// Pictures up to this many pixels (a 316×316 crop) get every pass: there
/// they are cheap (a few tens of milliseconds; a 480×480 picture with no
/// barcode would take 250 ms).
const SMALL_PICTURE: u64 = 100_000;

/// Blocks (8×8 pixels at the proposals' scale) a region of bar-like
/// gradients must hold before a large picture gets the costly passes. Of
/// the 47 real photographs without a barcode in `barcodes/none`, 29 have
/// no region at all and 13 none this large; of the real photographs of
/// codes in `barcodes/real` that only the costly passes read, all but one
/// of those that are not small have a region this large.
const EVIDENCE_BLOCKS: usize = 20;

/// Whether the costly passes (the whole picture with try-harder, stretched,
/// blurred, turned) are worth their time on a picture the quick passes did
/// not read: it is small, or something on it looks like bars.
pub fn worth_more(img: &GrayImage, regions: &[Region]) -> bool {
    u64::from(img.width()) * u64::from(img.height()) <= SMALL_PICTURE
        || regions.iter().any(|r| r.blocks >= EVIDENCE_BLOCKS)
}

/// The linear formats bterm's cards and wild cards are printed in: a card
/// number's Code 128 and the retail codes (EAN-13, EAN-8, UPC-A, UPC-E)
/// that become wild Digimon. The passes that rescue a poor picture
/// (region crops, stretched, blurred, turned) look for these only: on a
/// picture no pass reads, rxing's other linear readers (Code 39, Code 93,
/// Codabar, ITF, GS1 `DataBar` and Expanded, Telepen) took about half the
/// time of every try (`perf` over `barcodes/real`'s unread files,
/// 2026-11-28), and on the pictures of `barcodes/none` the whole picture
/// read with try-harder took 41 ms for every format, 10 ms for these. A
/// code in another format (one bound with `bterm enroll`) is read by the
/// quick passes (the whole picture, and its tones turned over), which
/// look for every format.
const CARD_BARS: [rxing::BarcodeFormat; 5] = [
    rxing::BarcodeFormat::UPC_A,
    rxing::BarcodeFormat::UPC_E,
    rxing::BarcodeFormat::EAN_13,
    rxing::BarcodeFormat::EAN_8,
    rxing::BarcodeFormat::CODE_128,
];

/// The card formats' linear codes only. Asked for every format, try-harder
/// runs both QR detectors before the linear readers, on every region crop.
fn bar_hints(try_harder: bool) -> DecodeHints {
    DecodeHints {
        TryHarder: Some(try_harder),
        PossibleFormats: Some(CARD_BARS.into_iter().collect()),
        ..DecodeHints::default()
    }
}

/// The card formats, linear and QR, with try-harder: the read of a whole
/// picture (as it is, stretched or blurred).
fn card_hints() -> DecodeHints {
    DecodeHints {
        TryHarder: Some(true),
        PossibleFormats: Some(
            CARD_BARS
                .into_iter()
                .chain([rxing::BarcodeFormat::QR_CODE])
                .collect(),
        ),
        ..DecodeHints::default()
    }
}

fn symbol(r: &rxing::RXingResult) -> Symbol {
    Symbol {
        format: Format::from_rxing(r.getBarcodeFormat()),
        text: r.getText().to_string(),
    }
}

/// The centre of a result's points.
fn centre(r: &rxing::RXingResult) -> (f32, f32) {
    let points = r.getPoints();
    let n = points.len().max(1) as f32;
    let (sx, sy) = points
        .iter()
        .fold((0.0, 0.0), |(x, y), p| (x + p.x, y + p.y));
    (sx / n, sy / n)
}

/// Every symbol in the image: read one, paint over where it was, read
/// again, until nothing new turns up (at most `MOST_SYMBOLS`). Cheaper than
/// rxing's multiple reader, which re-reads four sub-images around every find.
fn read_all(img: &GrayImage, hints: &DecodeHints) -> Found {
    let mut found = Found::new();
    let mut work: Option<GrayImage> = None;
    for _ in 0..MOST_SYMBOLS {
        let Some(r) = read_with(work.as_ref().unwrap_or(img), hints) else {
            break;
        };
        if found.insert(symbol(&r), centre(&r)).is_some() {
            break;
        }
        let canvas = work.get_or_insert_with(|| img.clone());
        blank(canvas, &r);
    }
    found
}

/// Paints white over a found symbol (its result points, grown to cover the
/// whole symbol: a 1D code's points lie on one scan line).
fn blank(img: &mut GrayImage, r: &rxing::RXingResult) {
    let points = r.getPoints();
    if points.is_empty() {
        return;
    }
    let (mut x0, mut y0, mut x1, mut y1) = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
    for p in points {
        x0 = x0.min(p.x);
        y0 = y0.min(p.y);
        x1 = x1.max(p.x);
        y1 = y1.max(p.y);
    }
    let (w, h) = (x1 - x0, y1 - y0);
    let grow = if r.getBarcodeFormat() == &rxing::BarcodeFormat::QR_CODE {
        // Finder centres sit 3.5 modules in from the corners.
        (w.max(h) * 0.25, w.max(h) * 0.25)
    } else if w >= h {
        (w * 0.1, w * 0.5)
    } else {
        (h * 0.5, h * 0.1)
    };
    let (iw, ih) = (img.width() as f32, img.height() as f32);
    let clamp_x = |v: f32| v.clamp(0.0, iw) as u32;
    let clamp_y = |v: f32| v.clamp(0.0, ih) as u32;
    for y in clamp_y(y0 - grow.1)..clamp_y(y1 + grow.1) {
        for x in clamp_x(x0 - grow.0)..clamp_x(x1 + grow.0) {
            img.put_pixel(x, y, image::Luma([255]));
        }
    }
}

/// The first symbol rxing finds, if any.
/// The first symbol rxing finds with these hints, if any.
fn read_first(img: &GrayImage, hints: &DecodeHints) -> Found {
    read_with(img, hints)
        .map(|r| Found::from([(symbol(&r), centre(&r))]))
        .unwrap_or_default()
}

fn read_with(img: &GrayImage, hints: &DecodeHints) -> Option<rxing::RXingResult> {
    let source = Luma8LuminanceSource::new(img.as_raw().clone(), img.width(), img.height()).ok()?;
    let mut bitmap = BinaryBitmap::new(HybridBinarizer::new(source));
    MultiFormatReader::default()
        .decode_with_hints(&mut bitmap, hints)
        .ok()
        .filter(|r| confirm::confirmed(img, r))
}

/// A code printed light on dark: the whole picture's tones turned over and
/// read quickly again (the QR detector once, bars on a few rows), as
/// zxing-cpp tries it. The check against codes read from nothing looks at
/// the turned picture, where the quiet zones are light.
fn read_inverted(img: &GrayImage) -> Found {
    let mut inverted = img.clone();
    for p in inverted.iter_mut() {
        *p = 255 - *p;
    }
    read_first(&inverted, &DecodeHints::default())
}

/// The longest side the orientation search reads (a larger picture is
/// scaled down first): the region proposals' 640 pixels. Each of
/// the turns is read with try-harder, which costs about 45 ns a pixel
/// both ways, and at 1,000 pixels the search took 70 ms on a webcam frame.
/// On `barcodes/frames` it read nothing at either size.
const ROTATION_SIDE: u32 = PROPOSAL_SIDE as u32;

/// The turns the orientation search tries, in degrees: 0..90 in 15°
/// steps covers every direction (try-harder also reads each turn turned
/// by 90°, and a 1D code reads the same both ways).
const ROTATION_STEPS: [f32; 5] = [15.0, 30.0, 45.0, 60.0, 75.0];

/// How far from upright, in degrees, a turn may leave the bars of the
/// strongest proposal and still be tried. At 15° (the steps either side)
/// `real` lost a read: a UPC-A whose bars lie at 1° read only turned by
/// 75° (16° off). At 20° the search reads about 3 turns of the 5 on the
/// pictures it reaches in `real`, `quagga2` and `webcam3`, and every code
/// it read before.
const ROTATION_REACH: f32 = 20.0;

/// The turns worth trying on a picture with these region proposals, the
/// likeliest first. Bars lie along the strongest proposal's direction, so
/// only the steps that leave them within [`ROTATION_REACH`] of upright are
/// tried, nearest first; 45° stays for a QR code, which the proposals do
/// not see. With no proposal (a small picture), every step.
fn rotation_steps(regions: &[Region]) -> Vec<f32> {
    let Some(strongest) = regions.iter().max_by_key(|r| r.blocks) else {
        return ROTATION_STEPS.to_vec();
    };
    // How far a turn of `d` leaves the bars from upright, modulo 90°.
    let off = |d: f32| ((strongest.angle - d).rem_euclid(90.0) + 45.0).rem_euclid(90.0) - 45.0;
    let mut steps: Vec<f32> = ROTATION_STEPS
        .into_iter()
        .filter(|&d| off(d).abs() <= ROTATION_REACH || d == 45.0)
        .collect();
    steps.sort_by(|a, b| off(*a).abs().total_cmp(&off(*b).abs()));
    steps
}

/// The first symbol read on the picture turned by each of `steps`;
/// placed at its centre.
fn read_rotations(img: &GrayImage, steps: &[f32]) -> Found {
    let small = if img.width().max(img.height()) > ROTATION_SIDE {
        imageops::scale(
            img,
            ROTATION_SIDE as f32 / img.width().max(img.height()) as f32,
        )
    } else {
        img.clone()
    };
    let middle = (img.width() as f32 / 2.0, img.height() as f32 / 2.0);
    for &degrees in steps {
        // Bars at every step; QR codes at 45° only, the turn farthest from
        // the picture as it was (the QR detector's rows cross a code turned
        // a little as well as an upright one).
        let hints = if degrees == 45.0 {
            card_hints()
        } else {
            bar_hints(true)
        };
        let s = read_first(&imageops::rotate(&small, degrees, 255), &hints);
        if !s.is_empty() {
            return s.into_keys().map(|k| (k, middle)).collect();
        }
    }
    Found::new()
}

/// A group of blocks that look like barcode bars.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Region {
    /// Bounding box in image pixels: x, y, width, height.
    pub rect: (u32, u32, u32, u32),
    /// The bars' gradient direction in degrees (0 = vertical bars).
    pub angle: f32,
    /// How many blocks it holds.
    pub blocks: usize,
}

const BLOCK: usize = 8;
const PROPOSAL_SIDE: f32 = 640.0;

/// Finds barcode-like regions: blocks with strong, coherent gradients
/// (structure tensor), grouped with neighbours of a similar direction.
pub fn propose_regions(img: &GrayImage) -> Vec<Region> {
    let small_picture = u64::from(img.width()) * u64::from(img.height()) <= SMALL_PICTURE;
    let longest = img.width().max(img.height()) as f32;
    let factor = if longest > PROPOSAL_SIDE {
        PROPOSAL_SIDE / longest
    } else {
        1.0
    };
    let small = if factor < 1.0 {
        imageops::scale(img, factor)
    } else {
        img.clone()
    };
    let (w, h) = (small.width() as usize, small.height() as usize);
    let (bw, bh) = (w / BLOCK, h / BLOCK);
    if bw < 2 || bh < 2 {
        return Vec::new();
    }
    let px = small.as_raw();
    let mut jxx = vec![0f32; bw * bh];
    let mut jyy = vec![0f32; bw * bh];
    let mut jxy = vec![0f32; bw * bh];
    // Signed and absolute gradient sums: a lone edge (a card's border) has
    // its gradients all one way; bars alternate, so the signed sum cancels.
    let mut sgx = vec![0f32; bw * bh];
    let mut sgy = vec![0f32; bw * bh];
    let mut sabs = vec![0f32; bw * bh];
    // Sobel over the pixels the blocks cover (the last partial block row
    // and column are left out).
    let (xs, ys) = ((w - 1).min(bw * BLOCK), (h - 1).min(bh * BLOCK));
    for y in 1..ys {
        let up = &px[(y - 1) * w..y * w];
        let mid = &px[y * w..(y + 1) * w];
        let down = &px[(y + 1) * w..(y + 2) * w];
        let row = (y / BLOCK) * bw;
        for x in 1..xs {
            let p = |r: &[u8], x: usize| i32::from(r[x]);
            let gx = p(up, x + 1) + 2 * p(mid, x + 1) + p(down, x + 1)
                - p(up, x - 1)
                - 2 * p(mid, x - 1)
                - p(down, x - 1);
            let gy = p(down, x - 1) + 2 * p(down, x) + p(down, x + 1)
                - p(up, x - 1)
                - 2 * p(up, x)
                - p(up, x + 1);
            let i = row + x / BLOCK;
            let (gx, gy) = (gx as f32, gy as f32);
            jxx[i] += gx * gx;
            jyy[i] += gy * gy;
            jxy[i] += gx * gy;
            sgx[i] += gx;
            sgy[i] += gy;
            sabs[i] += (gx * gx + gy * gy).sqrt();
        }
    }
    let energy: Vec<f32> = (0..bw * bh).map(|i| jxx[i] + jyy[i]).collect();
    let mut sorted = energy.clone();
    sorted.sort_by(f32::total_cmp);
    let median = sorted[sorted.len() / 2];
    let floor = f32::from(BLOCK as u16 * BLOCK as u16) * 400.0;
    let mut angle = vec![0f32; bw * bh];
    // Blocks strong enough, with gradients one way (coherent) and
    // alternating (bars, not a lone edge).
    let bars = |threshold: f32, angle: &mut [f32]| -> Vec<bool> {
        (0..bw * bh)
            .map(|i| {
                if energy[i] < threshold {
                    return false;
                }
                let coherence =
                    ((jxx[i] - jyy[i]).powi(2) + 4.0 * jxy[i].powi(2)).sqrt() / energy[i];
                let one_way = (sgx[i].powi(2) + sgy[i].powi(2)).sqrt() / sabs[i].max(1.0);
                angle[i] = 0.5 * (2.0 * jxy[i]).atan2(jxx[i] - jyy[i]);
                coherence > 0.55 && one_way < 0.5
            })
            .collect()
    };
    // Strong against the picture's own texture (four times its median
    // block)…
    let mut good = bars((median * 4.0).max(floor), &mut angle);
    // …unless bars fill most of the picture (a close photograph of a code):
    // then the median block is a block of bars, and so is the threshold.
    if small_picture && median * 4.0 > floor {
        let mut filled_angle = vec![0f32; bw * bh];
        let filled = bars(floor, &mut filled_angle);
        if filled.iter().filter(|&&g| g).count() * 5 >= bw * bh * 2 {
            (good, angle) = (filled, filled_angle);
        }
    }

    // Group neighbouring good blocks with a similar direction.
    let mut seen = vec![false; bw * bh];
    let mut regions = Vec::new();
    for start in 0..bw * bh {
        if !good[start] || seen[start] {
            continue;
        }
        let mut stack = vec![start];
        seen[start] = true;
        let (mut x0, mut y0, mut x1, mut y1) = (usize::MAX, usize::MAX, 0, 0);
        let (mut c2, mut s2, mut n) = (0f32, 0f32, 0usize);
        while let Some(i) = stack.pop() {
            let (bx, by) = (i % bw, i / bw);
            x0 = x0.min(bx);
            y0 = y0.min(by);
            x1 = x1.max(bx);
            y1 = y1.max(by);
            c2 += (2.0 * angle[i]).cos();
            s2 += (2.0 * angle[i]).sin();
            n += 1;
            let neighbours = [
                (bx.wrapping_sub(1), by),
                (bx + 1, by),
                (bx, by.wrapping_sub(1)),
                (bx, by + 1),
                (bx + 1, by + 1),
                (bx.wrapping_sub(1), by.wrapping_sub(1)),
                (bx + 1, by.wrapping_sub(1)),
                (bx.wrapping_sub(1), by + 1),
            ];
            for (nx, ny) in neighbours {
                if nx >= bw || ny >= bh {
                    continue;
                }
                let j = ny * bw + nx;
                if good[j] && !seen[j] {
                    let mut d = (angle[j] - angle[i]).abs();
                    d = d.min(std::f32::consts::PI - d);
                    if d < 0.35 {
                        seen[j] = true;
                        stack.push(j);
                    }
                }
            }
        }
        if n < 3 {
            continue;
        }

        let inv = 1.0 / factor;
        let rect = |v: usize| (v * BLOCK) as f32 * inv;
        let (rx0, ry0) = (rect(x0), rect(y0));
        let (rx1, ry1) = (rect(x1 + 1), rect(y1 + 1));
        regions.push(Region {
            rect: (
                rx0 as u32,
                ry0 as u32,
                (rx1 - rx0).max(1.0) as u32,
                (ry1 - ry0).max(1.0) as u32,
            ),
            angle: (0.5 * s2.atan2(c2)).to_degrees(),
            blocks: n,
        });
    }
    regions.sort_by_key(|r| std::cmp::Reverse(r.blocks));
    regions.truncate(MOST_SYMBOLS);
    regions
}

/// A region cut out of the picture and stood upright; its enlarged copy
/// (when small) and its sharpened copy are made the first time a step asks
/// for them.
struct Crop {
    turned: GrayImage,
    factor: f32,
    upright: Option<GrayImage>,
    sharp: Option<GrayImage>,
}

/// Which copy of a crop a step reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Copy {
    /// Stood upright, at the picture's scale.
    Turned,
    /// Enlarged when small.
    Upright,
    /// Enlarged and sharpened.
    Sharp,
}

impl Crop {
    fn of(img: &GrayImage, region: &Region) -> Crop {
        let (x, y, w, h) = region.rect;
        // Grow the box: quiet zones, and the bars' ends the blocks missed.
        let margin = (w.max(h) / 4).max(16);
        let rect = (
            x.saturating_sub(margin),
            y.saturating_sub(margin),
            w + 2 * margin,
            h + 2 * margin,
        );
        // The angle is the gradient's; turning by it (counter-clockwise on
        // screen is negative in image coordinates) stands bars upright.
        let degrees = if region.angle.abs() > 4.0 {
            region.angle
        } else {
            0.0
        };
        let turned = imageops::upright_crop(img, rect, degrees, 255);
        let factor = if turned.width().max(turned.height()) < 500 {
            2.0
        } else {
            1.0
        };
        Crop {
            turned,
            factor,
            upright: None,
            sharp: None,
        }
    }

    /// One copy of the crop (a crop too large to enlarge is its own
    /// enlarged copy).
    fn image(&mut self, copy: Copy) -> &GrayImage {
        let (turned, factor) = (&self.turned, self.factor);
        if copy == Copy::Turned || (copy == Copy::Upright && factor == 1.0) {
            return turned;
        }
        // Enlarged apart from the turn: two interpolations smooth a noisy
        // photo's grain more than one does, and read better.
        let upright = self.upright.get_or_insert_with(|| {
            if factor == 1.0 {
                turned.clone()
            } else {
                imageops::scale(turned, factor)
            }
        });
        if copy == Copy::Upright {
            return upright;
        }
        self.sharp
            .get_or_insert_with(|| imageops::sharpen(upright, factor, 1.0))
    }
}

/// The reads tried on the region crops, cheapest and likeliest first; each
/// step is tried on every crop before the next step. A crop at the
/// picture's scale first: most clear bars read there, without the cost of
/// enlarging.
const REGION_STEPS: [(Reading, Copy); 7] = [
    (Reading::BarsQuick, Copy::Turned),
    (Reading::BarsQuick, Copy::Upright),
    (Reading::Qr, Copy::Upright),
    (Reading::BarsQuick, Copy::Sharp),
    (Reading::Qr, Copy::Sharp),
    (Reading::BarsHard, Copy::Sharp),
    (Reading::BarsHard, Copy::Upright),
];

/// The region steps read on the blurred picture: bars only, at the
/// picture's scale and sharpened. On `barcodes/real` and `barcodes/frames`
/// the other steps (the plain enlarged crop, QR codes) found nothing on a
/// blurred crop that the first region pass had not found on the sharp one
/// (`examples/pass_times.rs`, 2026-11-28), and cost about half the pass.
const BLURRED_STEPS: [(Reading, Copy); 3] = [
    (Reading::BarsQuick, Copy::Turned),
    (Reading::BarsQuick, Copy::Sharp),
    (Reading::BarsHard, Copy::Sharp),
];

/// What a read looks for, and how hard.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reading {
    /// Linear codes on rows near the middle (a crop's bars stand upright).
    BarsQuick,
    /// Linear codes on every row, and turned by 90°.
    BarsHard,
    /// QR codes.
    Qr,
}

impl Reading {
    fn hints(self) -> DecodeHints {
        match self {
            Reading::BarsQuick => bar_hints(false),
            Reading::BarsHard => bar_hints(true),
            Reading::Qr => DecodeHints {
                TryHarder: Some(true),
                PossibleFormats: Some([rxing::BarcodeFormat::QR_CODE].into_iter().collect()),
                ..DecodeHints::default()
            },
        }
    }
}

/// The first symbol read on a region, placed at the region's centre;
/// nothing once `deadline` has passed.
fn read_regions(
    img: &GrayImage,
    regions: &[Region],
    steps: &[(Reading, Copy)],
    deadline: Option<Instant>,
) -> Found {
    let mut crops: Vec<Option<Crop>> = regions.iter().map(|_| None).collect();
    for &(reading, copy) in steps {
        let hints = reading.hints();
        for (region, crop) in regions.iter().zip(crops.iter_mut()) {
            if deadline.is_some_and(|d| Instant::now() >= d) {
                return Found::new();
            }
            let crop = crop.get_or_insert_with(|| Crop::of(img, region));
            // A large crop's enlarged copy is the one read already.
            if (reading, copy) == (Reading::BarsQuick, Copy::Upright) && crop.factor == 1.0 {
                continue;
            }
            if let Some(r) = read_with(crop.image(copy), &hints) {
                return Found::from([(symbol(&r), centre_of(region))]);
            }
        }
    }
    Found::new()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn region(angle: f32, blocks: usize) -> Region {
        Region {
            rect: (0, 0, 64, 64),
            angle,
            blocks,
        }
    }

    #[test]
    fn the_orientation_search_turns_towards_the_strongest_bars_first() {
        // No proposal: every step, in order.
        assert_eq!(rotation_steps(&[]), ROTATION_STEPS.to_vec());
        // Bars at 32° (the strongest of two): 30° leaves them 2° off, 45°
        // 13° (and is the QR code's turn), 15° 17°; 60° and 75° are too far.
        assert_eq!(
            rotation_steps(&[region(-60.0, 12), region(32.0, 80)]),
            vec![30.0, 45.0, 15.0]
        );
        // Bars almost upright: the turns either side of upright, then 45°
        // for a QR code, however far it is.
        assert_eq!(rotation_steps(&[region(1.0, 40)]), vec![15.0, 75.0, 45.0]);
        // A direction and its opposite are the same bars.
        assert_eq!(
            rotation_steps(&[region(-58.0, 40)]),
            rotation_steps(&[region(32.0, 40)])
        );
    }
}
