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
    let bytes =
        crate::save::read_regular(path, max_file_bytes(max_pixels)).map_err(|e| match e {
            crate::save::ReadFileError::TooLarge { size, limit } => {
                ReadError::FileTooLarge { size, limit }
            }
            other => ReadError::Io(other.to_string()),
        })?;
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
        if let Some(img) = jpeg_gray(&bytes, max_pixels) {
            return Ok(img);
        }
    }
    let open = || {
        let mut reader = ImageReader::new(std::io::Cursor::new(&bytes[..]));
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
}

impl CardReport {
    /// The report of a resolved card.
    pub fn of(r: &Resolved) -> CardReport {
        CardReport {
            number: r.card.number().to_string(),
            name: r.card.name().to_string(),
            source: r.source,
            data: (!r.in_set).then(|| r.card.clone()),
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
    /// The card, if the file resolved to exactly one.
    pub card: Option<CardReport>,
    /// Why not, otherwise.
    pub error: Option<String>,
    /// Milliseconds spent reading and decoding the file.
    pub ms: f64,
    /// The decoder pass that found the codes (see `decode`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pass: Option<super::Pass>,
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
        error: None,
        ms: 0.0,
        pass: None,
    };
    match load_gray(path, max_pixels) {
        Err(e) => report.error = Some(e.to_string()),
        Ok(img) => {
            let decoded = decode(&img, Effort::File);
            report.pass = decoded.pass;
            match scanner.resolve(&decoded.symbols) {
                Ok(r) => report.card = Some(CardReport::of(&r)),
                Err(e) => report.error = Some(e.to_string()),
            }
            report.codes = decoded.symbols;
        }
    }
    report.ms = (start.elapsed().as_secs_f64() * 1000.0 * 100.0).round() / 100.0;
    report
}

/// Scans files on `threads` workers; `each` sees every report in the files'
/// order as soon as it and all before it are done.
pub fn scan_all(
    scanner: &Scanner,
    files: &[PathBuf],
    max_pixels: u64,
    threads: usize,
    mut each: impl FnMut(&FileReport),
) -> Vec<FileReport> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let next = AtomicUsize::new(0);
    let (tx, rx) = std::sync::mpsc::channel::<(usize, FileReport)>();
    let mut done: Vec<Option<FileReport>> = vec![None; files.len()];
    let mut out = Vec::with_capacity(files.len());
    std::thread::scope(|s| {
        for _ in 0..threads.clamp(1, files.len().max(1)) {
            let tx = tx.clone();
            let next = &next;
            s.spawn(move || {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(path) = files.get(i) else { break };
                    if tx.send((i, scan_file(scanner, path, max_pixels))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut emitted = 0;
        for (i, report) in rx {
            done[i] = Some(report);
            while let Some(Some(r)) = done.get(emitted) {
                each(r);
                emitted += 1;
            }
        }
    });
    for r in done.into_iter().flatten() {
        out.push(r);
    }
    out
}
