//! Image files: finding them in folders, reading them safely (a pixel limit
//! checked from the header, before the image is decoded in full), and the
//! per-file report `bterm scan` prints.

use std::path::{Path, PathBuf};
use std::time::Instant;

use image::{GrayImage, ImageReader};
use serde::Serialize;

use super::{Effort, Resolved, Scanner, Source, Symbol, decode};
use crate::cards::Card;

/// The most pixels an image may have: 40 megapixels (a 8000 × 5000 photo).
/// Larger images are refused from their header, before any pixel is
/// decoded, so a decompression bomb cannot exhaust memory.
pub const MAX_PIXELS: u64 = 40_000_000;

/// File extensions of the image formats this build reads.
pub const EXTENSIONS: [&str; 10] = [
    "png", "jpg", "jpeg", "bmp", "gif", "webp", "tif", "tiff", "pbm", "pgm",
];

/// Why an image file cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReadError {
    /// The file cannot be opened or read.
    #[error("cannot read the file: {0}")]
    Io(String),
    /// Not an image format this build knows.
    #[error(
        "not an image (or a format bterm does not read; use PNG, JPEG, BMP, GIF, WebP, TIFF or PNM)"
    )]
    NotAnImage,
    /// Too many pixels.
    #[error(
        "the image is {width} × {height} pixels, above the limit of {} pixels ({:.1} megapixels); scale it down first, or raise --max-pixels",
        limit, *limit as f64 / 1e6
    )]
    TooLarge {
        /// Its width.
        width: u32,
        /// Its height.
        height: u32,
        /// The limit it broke.
        limit: u64,
    },
    /// Too many bytes for any image within the pixel limit.
    #[error(
        "the file is {size} bytes, more than any image within the pixel limit can take ({limit} bytes)"
    )]
    FileTooLarge {
        /// Its size.
        size: u64,
        /// The limit.
        limit: u64,
    },
    /// The image data is broken (truncated, corrupt).
    #[error("the image data is broken: {0}")]
    Broken(String),
}

/// Reads an image file as grayscale, refusing more than `max_pixels`. Only
/// a regular file is read, and only one of at most
/// [`max_file_bytes`]`(max_pixels)`.
pub fn load_gray(path: &Path, max_pixels: u64) -> Result<GrayImage, ReadError> {
    gray_from_bytes(&read_image_file(path, max_pixels)?, max_pixels)
}

/// [`load_gray`], with the fingerprint of the file's bytes (as
/// [`FileReport::content`]), so the collection can tell a picture read again.
pub fn load_gray_and_content(path: &Path, max_pixels: u64) -> Result<(GrayImage, u64), ReadError> {
    let bytes = read_image_file(path, max_pixels)?;
    let content = crate::fingerprint::fnv1a(&bytes);
    Ok((gray_from_bytes(&bytes, max_pixels)?, content))
}

/// The bytes of an image file: only a regular file, and only one of at
/// most [`max_file_bytes`]`(max_pixels)`.
fn read_image_file(path: &Path, max_pixels: u64) -> Result<Vec<u8>, ReadError> {
    crate::save::read_regular(path, max_file_bytes(max_pixels)).map_err(|e| match e {
        crate::save::ReadFileError::TooLarge { size, limit } => {
            ReadError::FileTooLarge { size, limit }
        }
        other => ReadError::Io(other.to_string()),
    })
}

/// An image file's bytes as grayscale, refusing more than `max_pixels`.
fn gray_from_bytes(bytes: &[u8], max_pixels: u64) -> Result<GrayImage, ReadError> {
    // The first bytes say the format; an extension can lie.
    let format =
        image::guess_format(&bytes[..bytes.len().min(32)]).map_err(|_| ReadError::NotAnImage)?;
    if format == image::ImageFormat::Jpeg {
        // A JPEG without its end marker was cut short: decoding it leniently
        // gives a picture whose missing part is gray, and the scan would say
        // "no barcode" for what is a broken file.
        if !bytes.windows(2).any(|w| w == [0xFF, 0xD9]) {
            return Err(ReadError::Broken(
                "the JPEG ends early (truncated or corrupt); copy the file again".into(),
            ));
        }
        // Straight to gray; anything this fast path cannot do (or a broken
        // file, for its precise message) goes the general way below.
        if let Some(img) = jpeg_gray(bytes, max_pixels) {
            return Ok(img);
        }
    }
    let open = || {
        let mut reader = ImageReader::new(std::io::Cursor::new(bytes));
        reader.set_format(format);
        reader
    };
    let (width, height) = open()
        .into_dimensions()
        .map_err(|e| classify_image_error(&e))?;
    if u64::from(width) * u64::from(height) > max_pixels {
        return Err(ReadError::TooLarge {
            width,
            height,
            limit: max_pixels,
        });
    }
    let mut reader = open();
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(width);
    limits.max_image_height = Some(height);
    // RGBA16 of the allowed size, plus room for the decoder's own buffers.
    limits.max_alloc = Some(max_pixels.saturating_mul(8).saturating_add(64 << 20));
    reader.limits(limits);
    let img = reader.decode().map_err(|e| classify_image_error(&e))?;
    Ok(img.to_luma8())
}

/// The largest image file read for a pixel limit: the pixels at 16-bit
/// RGBA with no compression, plus 1 MiB for headers and metadata.
pub fn max_file_bytes(max_pixels: u64) -> u64 {
    max_pixels.saturating_mul(8).saturating_add(1 << 20)
}

/// A JPEG decoded to its luma plane only: the colour planes are never
/// turned into RGB only to be turned back into gray (twice as fast on a
/// webcam photo). `None` when it cannot, for the general path to explain.
fn jpeg_gray(bytes: &[u8], max_pixels: u64) -> Option<GrayImage> {
    use zune_core::bytestream::ZCursor;
    use zune_core::colorspace::ColorSpace;
    use zune_core::options::DecoderOptions;

    let options = DecoderOptions::default()
        .set_strict_mode(false)
        .jpeg_set_out_colorspace(ColorSpace::Luma);
    let mut decoder = zune_jpeg::JpegDecoder::new_with_options(ZCursor::new(bytes), options);
    decoder.decode_headers().ok()?;
    let (width, height) = decoder.dimensions()?;
    if width as u64 * height as u64 > max_pixels || decoder.output_colorspace()? != ColorSpace::Luma
    {
        return None;
    }
    let mut out = vec![0; decoder.output_buffer_size()?];
    decoder.decode_into(&mut out).ok()?;
    GrayImage::from_raw(u32::try_from(width).ok()?, u32::try_from(height).ok()?, out)
}

fn classify_image_error(e: &image::ImageError) -> ReadError {
    match e {
        image::ImageError::Unsupported(_) => ReadError::NotAnImage,
        image::ImageError::IoError(io) if io.kind() == std::io::ErrorKind::UnexpectedEof => {
            ReadError::Broken("the file ends early (truncated?)".into())
        }
        image::ImageError::IoError(io) => ReadError::Io(io.to_string()),
        other => ReadError::Broken(other.to_string()),
    }
}

/// Why a path given on the command line yields no files.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{path}: {why}")]
pub struct PathError {
    /// The path.
    pub path: String,
    /// What is wrong.
    pub why: String,
}

/// Expands the paths: files as given, folders recursively to the image files
/// in them (by extension), sorted. Hidden files and folders are skipped, and
/// links to folders inside a folder are not followed.
pub fn collect(paths: &[PathBuf]) -> (Vec<PathBuf>, Vec<PathError>) {
    let mut files = Vec::new();
    let mut errors = Vec::new();
    for p in paths {
        match std::fs::metadata(p) {
            Ok(m) if m.is_dir() => {
                let (found, failed) = crate::save::walk(p, &is_image_name);
                files.extend(found);
                errors.extend(failed.into_iter().map(|(path, e)| PathError {
                    path: path.display().to_string(),
                    why: e.to_string(),
                }));
            }
            Ok(_) => files.push(p.clone()),
            Err(e) => errors.push(PathError {
                path: p.display().to_string(),
                why: format!("{e}; check the path"),
            }),
        }
    }
    (files, errors)
}

/// Whether a file name has an image extension.
pub fn is_image_name(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| EXTENSIONS.contains(&e.to_ascii_lowercase().as_str()))
}

/// The card a file resolved to, as reported.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CardReport {
    /// Its number.
    pub number: String,
    /// Its name.
    pub name: String,
    /// How it was found.
    pub source: Source,
    /// The whole card when it is not in the set (custom, wild).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data: Option<Card>,
    /// The code it was read from, when known (the report's `codes` list
    /// them all).
    #[serde(skip)]
    pub code: Option<Symbol>,
}

impl CardReport {
    /// The report of a resolved card.
    pub fn of(r: &Resolved) -> CardReport {
        CardReport {
            number: r.card.number().to_string(),
            name: r.card.name().to_string(),
            source: r.source,
            data: (!r.in_set).then(|| r.card.clone()),
            code: None,
        }
    }
}

/// What scanning one file gave: one JSON line of `bterm scan --json`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FileReport {
    /// The file.
    pub file: String,
    /// Every symbol found.
    pub codes: Vec<Symbol>,
    /// The card, if the file gave one (the first, in reading order, when
    /// it gave several).
    pub card: Option<CardReport>,
    /// Every card the file gave, in reading order (rows from the top, each
    /// from the left), when it gave more than one.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cards: Vec<CardReport>,
    /// Why not, otherwise.
    pub error: Option<String>,
    /// Milliseconds spent reading and decoding the file.
    pub ms: f64,
    /// The decoder pass that found the codes (see `decode`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pass: Option<super::Pass>,
    /// A fingerprint of the file's bytes (FNV-1a), so the collection can
    /// tell a second scan of the same picture.
    #[serde(skip)]
    pub content: Option<u64>,
}

impl FileReport {
    /// Whether the file gave a card.
    pub fn ok(&self) -> bool {
        self.card.is_some()
    }
}

/// Reads, decodes and resolves one file; never panics on its contents.
pub fn scan_file(scanner: &Scanner, path: &Path, max_pixels: u64) -> FileReport {
    let start = Instant::now();
    let mut report = FileReport {
        file: path.display().to_string(),
        codes: Vec::new(),
        card: None,
        cards: Vec::new(),
        error: None,
        ms: 0.0,
        pass: None,
        content: None,
    };
    let loaded = read_image_file(path, max_pixels).and_then(|bytes| {
        report.content = Some(crate::fingerprint::fnv1a(&bytes));
        gray_from_bytes(&bytes, max_pixels)
    });
    match loaded {
        Err(e) => report.error = Some(e.to_string()),
        Ok(img) => {
            let decoded = decode(&img, Effort::File);
            report.pass = decoded.pass;
            match scanner.resolve_all(&decoded.symbols) {
                Ok(cards) => {
                    let reports: Vec<CardReport> = cards
                        .iter()
                        .map(|(r, code)| CardReport {
                            code: Some((*code).clone()),
                            ..CardReport::of(r)
                        })
                        .collect();
                    report.card = reports.first().cloned();
                    if reports.len() > 1 {
                        report.cards = reports;
                    }
                }
                Err(e) => report.error = Some(e.to_string()),
            }
            report.codes = decoded.symbols;
        }
    }
    report.ms = (start.elapsed().as_secs_f64() * 1000.0 * 100.0).round() / 100.0;
    report
}

/// The memory a scan's workers may hold for pictures at once, by default:
/// 1 GiB. A picture that needs more than the whole budget is read alone.
pub const MEMORY_BUDGET: u64 = 1 << 30;

/// Bytes shared by the workers of a scan: each takes what its picture will
/// need before reading it and gives it back when done, and waits while the
/// others hold too much. Eight workers on 40-megapixel 16-bit PNGs decode
/// two or three at a time instead of eight.
#[derive(Debug)]
pub struct Budget {
    limit: u64,
    used: std::sync::Mutex<u64>,
    freed: std::sync::Condvar,
}

/// Bytes taken from a [`Budget`], given back when dropped.
#[derive(Debug)]
pub struct Permit<'a> {
    budget: &'a Budget,
    bytes: u64,
}

impl Budget {
    /// A budget of `limit` bytes (at least 1).
    pub fn new(limit: u64) -> Budget {
        Budget {
            limit: limit.max(1),
            used: std::sync::Mutex::new(0),
            freed: std::sync::Condvar::new(),
        }
    }

    /// Takes `bytes` (at most the whole budget), waiting until they are free.
    pub fn take(&self, bytes: u64) -> Permit<'_> {
        let bytes = bytes.min(self.limit);
        // A poisoned lock only means a worker panicked; the count is whole.
        let mut used = self.used.lock().unwrap_or_else(|e| e.into_inner());
        while *used > 0 && *used + bytes > self.limit {
            used = self.freed.wait(used).unwrap_or_else(|e| e.into_inner());
        }
        *used += bytes;
        Permit {
            budget: self,
            bytes,
        }
    }

    /// The bytes taken now.
    pub fn in_use(&self) -> u64 {
        *self.used.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Drop for Permit<'_> {
    fn drop(&mut self) {
        let mut used = self.budget.used.lock().unwrap_or_else(|e| e.into_inner());
        *used -= self.bytes;
        self.budget.freed.notify_all();
    }
}

/// What reading and decoding `path` will hold at its peak, from its size
/// and its header (the first 256 KiB): the file's bytes, the decoded
/// pixels at the header's colour depth, the gray copy and the decoder's
/// working copies (about three bytes a pixel). A file whose header says
/// nothing costs its size plus the most any picture within `max_pixels`
/// can; a file that is no image, its size.
pub fn cost(path: &Path, max_pixels: u64) -> u64 {
    use image::ImageDecoder as _;
    const HEAD: u64 = 256 << 10;
    const WORK: u64 = 4;
    let Ok((head, size)) = crate::save::read_regular_head(path, HEAD) else {
        return 0;
    };
    let Ok(format) = image::guess_format(&head[..head.len().min(32)]) else {
        return size;
    };
    let mut reader = ImageReader::new(std::io::Cursor::new(&head[..]));
    reader.set_format(format);
    let header = reader
        .into_decoder()
        .map(|d| (d.dimensions(), d.color_type().bytes_per_pixel()));
    match header {
        Ok(((w, h), bpp)) => {
            let pixels = (u64::from(w) * u64::from(h)).min(max_pixels);
            let decoded = if format == image::ImageFormat::Jpeg {
                1
            } else {
                u64::from(bpp)
            };
            size.saturating_add(pixels.saturating_mul(decoded + WORK))
        }
        Err(_) => size.saturating_add(max_pixels.saturating_mul(8 + WORK)),
    }
}

/// How many reports may wait for an earlier, slower file before the
/// workers pause: the memory for reports stays bounded however many files
/// there are.
const REORDER_WINDOW: usize = 256;

/// What a scan of many files came to.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// Files scanned.
    pub files: usize,
    /// Files that gave no card.
    pub failed: usize,
}

/// Scans files on `threads` workers sharing `memory` bytes (see
/// [`Budget`]); `each` sees every report in the files' order as soon as it
/// and all before it are done. Reports are not kept: memory stays bounded
/// whatever the number of files.
pub fn scan_all(
    scanner: &Scanner,
    files: &[PathBuf],
    max_pixels: u64,
    threads: usize,
    memory: u64,
    mut each: impl FnMut(&FileReport),
) -> Tally {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let next = AtomicUsize::new(0);
    let budget = Budget::new(memory);
    // How many reports have been handed to `each`; workers wait on it so
    // they never run more than the window ahead.
    let emitted = std::sync::Mutex::new(0usize);
    let moved = std::sync::Condvar::new();
    let (tx, rx) = std::sync::mpsc::channel::<(usize, FileReport)>();
    let mut waiting: std::collections::BTreeMap<usize, FileReport> = Default::default();
    let mut tally = Tally::default();
    std::thread::scope(|s| {
        for _ in 0..threads.clamp(1, files.len().max(1)) {
            let tx = tx.clone();
            let (next, budget, emitted, moved) = (&next, &budget, &emitted, &moved);
            s.spawn(move || {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(path) = files.get(i) else { break };
                    {
                        let mut done = emitted.lock().unwrap_or_else(|e| e.into_inner());
                        while i >= *done + REORDER_WINDOW {
                            done = moved.wait(done).unwrap_or_else(|e| e.into_inner());
                        }
                    }
                    let permit = budget.take(cost(path, max_pixels));
                    let report = scan_file(scanner, path, max_pixels);
                    drop(permit);
                    if tx.send((i, report)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut count = 0;
        for (i, report) in rx {
            waiting.insert(i, report);
            while let Some(r) = waiting.remove(&count) {
                each(&r);
                tally.files += 1;
                tally.failed += usize::from(!r.ok());
                count += 1;
            }
            *emitted.lock().unwrap_or_else(|e| e.into_inner()) = count;
            moved.notify_all();
        }
    });
    tally
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn workers_never_hold_more_than_the_budget() {
        let budget = Budget::new(1000);
        let peak = std::sync::Mutex::new(0u64);
        std::thread::scope(|s| {
            for _ in 0..8 {
                s.spawn(|| {
                    for _ in 0..20 {
                        let _permit = budget.take(400);
                        let now = budget.in_use();
                        let mut p = peak.lock().unwrap();
                        *p = (*p).max(now);
                        drop(p);
                        std::thread::yield_now();
                    }
                });
            }
        });
        let peak = *peak.lock().unwrap();
        assert!(peak <= 1000, "{peak} bytes held at once");
        assert!(peak >= 800, "two permits of 400 fit at once");
        assert_eq!(budget.in_use(), 0);
        // More than the whole budget: taken alone, not forever waited for.
        let big = budget.take(5000);
        assert_eq!(budget.in_use(), 1000);
        drop(big);
    }

    #[test]
    fn the_cost_of_a_picture_comes_from_its_header() {
        let dir = tempfile::tempdir().unwrap();
        let png = dir.path().join("deep.png");
        image::ImageBuffer::<image::Rgba<u16>, _>::new(300, 200)
            .save(&png)
            .unwrap();
        let size = std::fs::metadata(&png).unwrap().len();
        // 16-bit RGBA: 8 bytes a pixel decoded, 4 more for the gray copy
        // and the decoder's work.
        assert_eq!(cost(&png, MAX_PIXELS), size + 300 * 200 * 12);
        let text = dir.path().join("notes.png");
        std::fs::write(&text, "not a picture").unwrap();
        assert_eq!(cost(&text, MAX_PIXELS), 13);
        assert_eq!(cost(&dir.path().join("missing.png"), MAX_PIXELS), 0);
    }
}
