//! Proof that a linear code rxing reports is on the picture, not made up
//! from noise, stripes or printed text.
//!
//! rxing checks a code's check digit and a quiet zone as wide as the start
//! guard (3 modules), and with try-harder it tries hundreds of rows in both
//! directions, turned and not: on pictures with no barcode, one row in a
//! few hundred passes those checks (a UPC-E, 51 modules with one check
//! digit, most often). A linear code is kept only when
//! 1. its quiet zones are clear: for EAN/UPC the full zones of the GS1
//!    specification (left 11 modules for EAN-13, 9 for UPC-A and UPC-E,
//!    7 for EAN-8; right 7, 9 for UPC-A), less one module for a photo's
//!    blur; for other symbologies 7 modules (guessed from the bars) beyond
//!    the outermost bar;
//! 2. (all but a Code 128 of three characters or more, whose modulo-103
//!    check covers every character and which never turned up in a picture
//!    with no barcode) it reads the
//!    same again on at least two of eight lines parallel to
//!    the one it was found on (4% of its length apart, up to 16% either
//!    side), spread over 8% of its length or more: real bars are tall,
//!    while a text line or a noise pattern that happens to read on one row
//!    reads as something else (or nothing) a few pixels away. A line is
//!    read as it is and sharpened; an EAN-13's or UPC-A's also cut to dark
//!    and light at three levels (a blurred photograph's bars).
//!
//! A code with no text is never kept. QR codes carry Reed–Solomon error
//! correction and are kept as read.

use image::GrayImage;
use rxing::{BarcodeFormat, DecodeHints, Luma8LuminanceSource, RXingResult};
use rxing::{BinaryBitmap, MultiFormatReader, Reader, common::HybridBinarizer};

/// The geometry of an EAN/UPC symbol, in modules: from the centre of the
/// start guard to the centre of the end guard (the two points rxing
/// reports), from that end-guard centre to the symbol's end, and the quiet
/// zones the specification asks for.
struct Retail {
    span: f32,
    end_guard_half: f32,
    quiet_left: f32,
    quiet_right: f32,
}

fn retail(format: &BarcodeFormat) -> Option<Retail> {
    Some(match format {
        BarcodeFormat::EAN_13 => Retail {
            span: 92.0,
            end_guard_half: 1.5,
            quiet_left: 11.0,
            quiet_right: 7.0,
        },
        BarcodeFormat::UPC_A => Retail {
            span: 92.0,
            end_guard_half: 1.5,
            quiet_left: 9.0,
            quiet_right: 9.0,
        },
        BarcodeFormat::EAN_8 => Retail {
            span: 64.0,
            end_guard_half: 1.5,
            quiet_left: 7.0,
            quiet_right: 7.0,
        },
        BarcodeFormat::UPC_E => Retail {
            span: 46.5,
            end_guard_half: 3.0,
            quiet_left: 9.0,
            quiet_right: 7.0,
        },
        _ => return None,
    })
}

/// Whether a result rxing read on `img` holds up (see the module's text).
pub fn confirmed(img: &GrayImage, result: &RXingResult) -> bool {
    check(img, result).is_ok()
}

/// Why a result rxing read does not hold up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Doubt {
    /// No line to check (too short, or no points).
    NoLine,
    /// Too little contrast along it.
    Flat,
    /// A quiet zone has dark marks in it, or no room on the picture.
    QuietZone,
    /// It does not read again on lines beside the first.
    Alone,
    /// It holds no text.
    Empty,
}

/// A Code 128 with this many characters or more is kept without reading
/// it again on other lines; a shorter one (a check character covering one
/// or two others) must read again like the other linear codes.
const LONG_CODE_128: usize = 3;

/// A profile cut to dark and light at a third, half and two thirds of the
/// way from `dark` to `light`.
fn cut_at_levels(profile: &[f32], dark: f32, light: f32) -> impl Iterator<Item = Vec<f32>> + '_ {
    [1.0f32 / 3.0, 0.5, 2.0 / 3.0].into_iter().map(move |q| {
        let cut = dark + q * (light - dark);
        profile
            .iter()
            .map(|&v| if v < cut { 0.0 } else { 255.0 })
            .collect()
    })
}

/// `Ok` when a result holds up, else the first doubt about it.
pub fn check(img: &GrayImage, result: &RXingResult) -> Result<(), Doubt> {
    let format = result.getBarcodeFormat();
    if *format == BarcodeFormat::QR_CODE {
        return Ok(());
    }
    let points = result.getPoints();
    let (Some(first), Some(last)) = (points.first(), points.last()) else {
        return Err(Doubt::NoLine);
    };
    // Some readers report the end of the row's white as the symbol's end
    // (Codabar): the line is kept inside the picture.
    let inside = |p: &rxing::Point| {
        (
            p.x.clamp(0.0, img.width() as f32 - 1.0),
            p.y.clamp(0.0, img.height() as f32 - 1.0),
        )
    };
    let line = Line::new(inside(first), inside(last));
    if line.length < 8.0 {
        return Err(Doubt::NoLine);
    }
    // The symbol's own profile, for its dark/light threshold and module.
    let Some(body) = line.profile(img, 0.0, 0.0, line.length) else {
        return Err(Doubt::NoLine);
    };
    let (dark, light) = levels(&body);
    if light - dark < 20.0 {
        return Err(Doubt::Flat);
    }
    let mid = (dark + light) / 2.0;
    let (from, to, module) = match retail(format) {
        Some(r) => {
            let m = line.length / r.span;
            let (start, end) = (-1.5 * m, line.length + r.end_guard_half * m);
            // The zones less a module next to the bars, for a photo's blur,
            // as far as the picture goes (a photo may be cropped inside a
            // zone), on the line read or one beside it (the digits printed
            // in an EAN-13's left zone reach up beside the bars' feet).
            let longest_dark = (m * 0.5).max(1.0);
            let step = (line.length * 0.04).max(2.0);
            // At least half of each zone must be on the picture.
            let clear = |offset: f32| {
                let zone = |at: f32, sign: f32, quiet: f32| {
                    let len = (quiet - 1.0) * m;
                    let z = line.outward(img, at, sign, len, offset);
                    z.len() as f32 >= 0.5 * len && dark_run(&z, mid) <= longest_dark
                };
                zone(start - m, -1.0, r.quiet_left) && zone(end + m, 1.0, r.quiet_right)
            };
            if ![0.0, -2.0, 2.0, -4.0, 4.0].iter().any(|&k| clear(k * step)) {
                return Err(Doubt::QuietZone);
            }
            (
                start - (r.quiet_left + 1.0) * m,
                end + (r.quiet_right + 1.0) * m,
                m,
            )
        }
        None => {
            // rxing's points may lie inside the symbol (for Code 39, a
            // third of it can be beyond them) or out in its white (Codabar
            // reports the row's end). From the outermost bars between the
            // points, looking outwards past any more bars, a light stretch
            // of 7 modules must come before the picture ends. Bars and
            // spaces are 1 to 4 modules, under 2 on average: half the mean
            // run is a safe (small) guess of the module.
            let dark_at: Vec<usize> = (0..body.len()).filter(|&i| body[i] < mid).collect();
            let (Some(&first_dark), Some(&last_dark)) = (dark_at.first(), dark_at.last()) else {
                return Err(Doubt::Flat);
            };
            let bars = &body[first_dark..=last_dark];
            let step = line.length / (body.len().max(2) - 1) as f32;
            let m = bars.len() as f32 * step / runs(bars, mid).max(1) as f32 / 2.0;
            let (quiet, reach) = (7.0 * m, 30.0 * m + 2.0 * line.length);
            let mut left: Vec<f32> = body[..first_dark].iter().rev().copied().collect();
            left.extend(line.outward(img, -1.0, -1.0, reach + quiet, 0.0));
            let mut right: Vec<f32> = body[last_dark + 1..].to_vec();
            right.extend(line.outward(img, line.length + 1.0, 1.0, reach + quiet, 0.0));
            // A photo cropped close: the picture's edge ends the zone when
            // it comes after two modules of light.
            let wanted = (reach + quiet).floor() as usize + 1;
            let at_edge = |side: &[f32], body_part: usize| {
                (side.len() < body_part + wanted)
                    .then(|| light_tail(side, mid))
                    .filter(|&tail| tail as f32 * step >= 2.0 * m)
                    .map(|_| side.len() as f32)
            };
            let (Some(l), Some(r)) = (
                light_stretch(&left, mid, quiet / step).or_else(|| at_edge(&left, first_dark)),
                light_stretch(&right, mid, quiet / step)
                    .or_else(|| at_edge(&right, body.len() - 1 - last_dark)),
            ) else {
                return Err(Doubt::QuietZone);
            };
            let (l, r) = (
                first_dark as f32 * step - l * step,
                (body.len() - 1 - last_dark) as f32 * step - r * step,
            );
            (l, line.length - r, m)
        }
    };
    let text = result.getText();
    if text.is_empty() {
        // A start, a check and a stop character: random stripes gave one
        // in 3,000 decoys (seed 2898, to the orientation search).
        return Err(Doubt::Empty);
    }
    if *format == BarcodeFormat::CODE_128 && text.chars().count() >= LONG_CODE_128 {
        // Code 128 (the cards' own code) carries a modulo-103 check over
        // every character and never turned up in a picture with no
        // barcode; a webcam's blur can leave a single row that reads.
        return Ok(());
    }
    // The long retail codes (EAN-13, UPC-A: 95 modules, 12 digits and a
    // check) may read again on a line cut at one of a few levels between
    // dark and light: on a blurred photograph the bars' edges sit at
    // different levels along the symbol, and one threshold splits the
    // thin bars that another merges. The short ones (UPC-E, EAN-8, one
    // check digit over 7 or 8) may not: cut at levels too, they let two
    // wrong UPC-E reads through on `barcodes/real` (an EAN-13's bars read
    // as a UPC-E, and a UPC-E misread).
    let long_retail = matches!(format, BarcodeFormat::EAN_13 | BarcodeFormat::UPC_A);
    // More reads, on lines parallel to the first.
    let step = (line.length * 0.04).max(2.0);
    let agree: Vec<f32> = [-4.0f32, -3.0, -2.0, -1.0, 1.0, 2.0, 3.0, 4.0]
        .iter()
        .map(|k| k * step)
        .filter(|&o| {
            line.within(img, o, from, to, light).is_some_and(|p| {
                // Modules under 3 pixels are read from the profile drawn out
                // to 3 (interpolated), where a threshold falls between bars.
                let times = (3.0 / module).ceil().max(1.0) as usize;
                let (p, module) = (stretch(&p, times), module * times as f32);
                // As it is, or sharpened at the module's scale: rxing found
                // the first read on the likeliest of many rows, and a
                // blurred photo's rows binarize well only now and then.
                let sharp = sharpen(&p, module);
                let same = |q: &[f32]| read_profile(q, format).is_some_and(|again| again == text);
                same(&p)
                    || same(&sharp)
                    || (long_retail && cut_at_levels(&sharp, dark, light).any(|q| same(&q)))
            })
        })
        .collect();
    let low = agree.iter().copied().fold(0.0f32, f32::min);
    let high = agree.iter().copied().fold(0.0f32, f32::max);
    // Two lines or more, spread over at least 8% of the symbol's length
    // (two steps; bars are rarely under a quarter of it tall).
    if !agree.is_empty() && high - low > 0.07 * line.length {
        Ok(())
    } else {
        Err(Doubt::Alone)
    }
}

/// A line on the picture from one point to another, and its unit normal.
struct Line {
    origin: (f32, f32),
    dir: (f32, f32),
    normal: (f32, f32),
    length: f32,
}

impl Line {
    fn new(a: (f32, f32), b: (f32, f32)) -> Line {
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let length = dx.hypot(dy);
        let dir = if length > 0.0 {
            (dx / length, dy / length)
        } else {
            (1.0, 0.0)
        };
        Line {
            origin: a,
            dir,
            normal: (-dir.1, dir.0),
            length,
        }
    }

    /// The grey levels along the line moved `offset` pixels along its
    /// normal, from `from` to `to` pixels along it, each the mean of three
    /// samples across the line. Samples step one pixel along the line's
    /// main axis and sit on pixel centres there, so a level line is read
    /// pixel for pixel, as rxing read it, and not smoothed by
    /// interpolation. `None` where it leaves the picture.
    fn profile(&self, img: &GrayImage, offset: f32, from: f32, to: f32) -> Option<Vec<f32>> {
        if to <= from {
            return Some(Vec::new());
        }
        let offset = offset.round();
        // The main axis's coordinate and its change per pixel along the line.
        let (main, along) = if self.dir.0.abs() >= self.dir.1.abs() {
            (self.origin.0, self.dir.0)
        } else {
            (self.origin.1, self.dir.1)
        };
        let step = 1.0 / along.abs();
        let first = main + from * along;
        let from = from + (first.round() - first) / along;
        let n = ((to - from) / step).floor() as usize + 1;
        let mut out = Vec::with_capacity(n);
        for i in 0..n {
            out.push(self.at(img, from + i as f32 * step, offset)?);
        }
        Some(out)
    }
    /// `profile`, cut to where the line lies on the picture and made up to
    /// the whole length with `light` (the picture's edge stands for the
    /// rest of a quiet zone); `None` when under half of it is on the picture.
    fn within(
        &self,
        img: &GrayImage,
        offset: f32,
        from: f32,
        to: f32,
        light: f32,
    ) -> Option<Vec<f32>> {
        if let Some(p) = self.profile(img, offset, from, to) {
            return Some(p);
        }
        let on = |t: f32| self.at(img, t, offset.round()).is_some();
        let (mut a, mut b) = (from, to);
        while a < b && !on(a) {
            a += 1.0;
        }
        while b > a && !on(b) {
            b -= 1.0;
        }
        if b - a < 0.5 * (to - from) {
            return None;
        }
        let inside = self.profile(img, offset, a, b)?;
        let scale = inside.len() as f32 / (b - a).max(1.0);
        let pad = |n: f32| vec![light; (n * scale).round() as usize];
        let mut out = pad(a - from);
        out.extend(inside);
        out.extend(pad(to - b));
        Some(out)
    }

    /// The grey levels from `at` pixels along the line outwards (`sign` −1
    /// or +1), one a pixel, for at most `len` pixels, stopping where the
    /// picture ends; the line moved `offset` pixels along its normal.
    fn outward(&self, img: &GrayImage, at: f32, sign: f32, len: f32, offset: f32) -> Vec<f32> {
        let mut out = Vec::new();
        let mut d = 0.0;
        while d <= len {
            match self.at(img, at + sign * d, offset) {
                Some(v) => out.push(v),
                None => break,
            }
            d += 1.0;
        }
        out
    }

    /// The mean of three samples across the line at `t` pixels along it,
    /// moved `offset` pixels along its normal; `None` off the picture.
    fn at(&self, img: &GrayImage, t: f32, offset: f32) -> Option<f32> {
        let mut sum = 0.0;
        for k in [-1.0, 0.0, 1.0] {
            let o = offset + k;
            let x = self.origin.0 + t * self.dir.0 + o * self.normal.0;
            let y = self.origin.1 + t * self.dir.1 + o * self.normal.1;
            sum += bilinear(img, x, y)?;
        }
        Some(sum / 3.0)
    }
}

fn bilinear(img: &GrayImage, x: f32, y: f32) -> Option<f32> {
    let (w, h) = (img.width() as f32, img.height() as f32);
    if x < 0.0 || y < 0.0 || x > w - 1.0 || y > h - 1.0 {
        return None;
    }
    let (x0, y0) = (x.floor() as u32, y.floor() as u32);
    let (x1, y1) = (
        (x0 + 1).min(img.width() - 1),
        (y0 + 1).min(img.height() - 1),
    );
    let (fx, fy) = (x - x0 as f32, y - y0 as f32);
    let p = |x, y| f32::from(img.get_pixel(x, y)[0]);
    let top = p(x0, y0) * (1.0 - fx) + p(x1, y0) * fx;
    let bottom = p(x0, y1) * (1.0 - fx) + p(x1, y1) * fx;
    Some(top * (1.0 - fy) + bottom * fy)
}

/// The dark and light levels of a profile: its 5th and 95th percentiles.
fn levels(profile: &[f32]) -> (f32, f32) {
    let mut sorted = profile.to_vec();
    sorted.sort_by(f32::total_cmp);
    let at = |q: f32| sorted[((sorted.len() - 1) as f32 * q) as usize];
    (at(0.05), at(0.95))
}

/// How many bars and spaces a profile crosses.
fn runs(profile: &[f32], mid: f32) -> usize {
    let dark: Vec<bool> = profile.iter().map(|&v| v < mid).collect();
    1 + dark.windows(2).filter(|w| w[0] != w[1]).count()
}

/// Where, going outwards along `profile`, a run of `quiet` light samples
/// ends (the far edge of the quiet zone), if there is one.
fn light_stretch(profile: &[f32], mid: f32, quiet: f32) -> Option<f32> {
    let mut light = 0usize;
    for (i, &v) in profile.iter().enumerate() {
        if v < mid {
            light = 0;
        } else {
            light += 1;
            if light as f32 >= quiet {
                return Some(i as f32 + 1.0);
            }
        }
    }
    None
}

/// A profile drawn out `times` as long, by linear interpolation.
fn stretch(profile: &[f32], times: usize) -> Vec<f32> {
    if times <= 1 || profile.len() < 2 {
        return profile.to_vec();
    }
    let mut out = Vec::with_capacity(profile.len() * times);
    for pair in profile.windows(2) {
        for k in 0..times {
            let t = k as f32 / times as f32;
            out.push(pair[0] * (1.0 - t) + pair[1] * t);
        }
    }
    out.push(profile[profile.len() - 1]);
    out
}

/// How many samples at the end of `profile` are light.
fn light_tail(profile: &[f32], mid: f32) -> usize {
    profile.iter().rev().take_while(|&&v| v >= mid).count()
}

/// The longest stretch of samples darker than `mid`, in pixels.
fn dark_run(profile: &[f32], mid: f32) -> f32 {
    let (mut longest, mut now) = (0usize, 0usize);
    for &v in profile {
        if v < mid {
            now += 1;
            longest = longest.max(now);
        } else {
            now = 0;
        }
    }
    longest as f32
}

/// A profile with its edges steepened: itself plus 1.5 times its
/// difference from a box blur a module wide either side.
fn sharpen(profile: &[f32], module: f32) -> Vec<f32> {
    let r = (module.round() as usize).max(1);
    let n = profile.len();
    let mut prefix = Vec::with_capacity(n + 1);
    prefix.push(0.0f32);
    for &v in profile {
        prefix.push(prefix.last().copied().unwrap_or(0.0) + v);
    }
    (0..n)
        .map(|i| {
            let (a, b) = (i.saturating_sub(r), (i + r + 1).min(n));
            let mean = (prefix[b] - prefix[a]) / (b - a) as f32;
            profile[i] + 1.5 * (profile[i] - mean)
        })
        .collect()
}

/// Reads a profile as a picture a few rows tall, looking for one format only.
fn read_profile(profile: &[f32], format: &BarcodeFormat) -> Option<String> {
    const ROWS: usize = 5;
    let width = profile.len();
    if width < 8 {
        return None;
    }
    let row: Vec<u8> = profile.iter().map(|&v| v.clamp(0.0, 255.0) as u8).collect();
    let pixels = row.repeat(ROWS);
    let source = Luma8LuminanceSource::new(pixels, width as u32, ROWS as u32).ok()?;
    let mut bitmap = BinaryBitmap::new(HybridBinarizer::new(source));
    let hints = DecodeHints {
        TryHarder: Some(false),
        PossibleFormats: Some([*format].into_iter().collect()),
        ..DecodeHints::default()
    };
    MultiFormatReader::default()
        .decode_with_hints(&mut bitmap, &hints)
        .ok()
        .map(|r| r.getText().to_string())
}
