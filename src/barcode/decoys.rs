//! Decoys: seeded pictures with no barcode in them (noise, stripes,
//! textures, printed text), for measuring that the reader invents nothing.
//! `cargo run --release --example decoys DIR` writes them as PNG files so
//! other decoders can be run on the same pictures; the tests and the scan
//! bench make them in memory.
//!
//! Stripes are the hard case: bars of random widths are what a barcode is
//! made of, and a short code (UPC-E: 51 modules) checked only by its check
//! digit turns up in one random stripe pattern in a few hundred.

use ab_glyph::{Font, PxScale, ScaleFont};
use image::{GrayImage, Luma};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The kinds of decoy, made in turn (`decoy(n)` is of kind `KINDS[n % 8]`).
pub const KINDS: [&str; 8] = [
    "noise",
    "blotches",
    "random-stripes",
    "periodic-stripes",
    "checks",
    "waves",
    "text",
    "text-on-texture",
];

const WORDS: [&str; 48] = [
    "digimon", "battle", "terminal", "card", "evolve", "the", "of", "and", "price", "total",
    "item", "qty", "sale", "1999", "2006", "08", "ver.", "BANDAI", "III", "IV", "Speed", "Cost",
    "HP", "1230", "Agumon", "Greymon", "Data", "Virus", "Vaccine", "|||", "Il1", "lllI", "III|",
    "ID:", "0000", "1111", "8888", "NET", "OCEAN", "mm", "www", "—", "=", "::", "illicit", "mill",
    "hill", "1l1l1",
];

/// The `n`-th decoy of the seeded series, and its kind.
pub fn decoy(n: u64) -> (&'static str, GrayImage) {
    let kind = KINDS[(n % KINDS.len() as u64) as usize];
    let mut rng = ChaCha8Rng::seed_from_u64(0xDEC0_0000 ^ n);
    let w = rng.random_range(240..=900);
    let h = rng.random_range(180..=700);
    let img = match kind {
        "noise" => noise(&mut rng, w, h),
        "blotches" => blotches(&mut rng, w, h),
        "random-stripes" => random_stripes(&mut rng, w, h),
        "periodic-stripes" => periodic_stripes(&mut rng, w, h),
        "checks" => checks(&mut rng, w, h),
        "waves" => waves(&mut rng, w, h),
        "text" => text(&mut rng, w, h, None),
        _ => {
            let background = match rng.random_range(0..3) {
                0 => noise(&mut rng, w, h),
                1 => waves(&mut rng, w, h),
                _ => checks(&mut rng, w, h),
            };
            let faded =
                GrayImage::from_fn(w, h, |x, y| Luma([160 + background.get_pixel(x, y)[0] / 3]));
            text(&mut rng, w, h, Some(faded))
        }
    };
    (kind, img)
}

fn noise(rng: &mut ChaCha8Rng, w: u32, h: u32) -> GrayImage {
    let salt = rng.random_bool(0.3);
    let mean = rng.random_range(60.0..200.0f32);
    let spread = rng.random_range(10.0..120.0f32);
    GrayImage::from_fn(w, h, |_, _| {
        if salt {
            Luma([if rng.random_bool(0.5) { 0 } else { 255 }])
        } else {
            // Sum of three uniforms: roughly normal.
            let u: f32 = (0..3).map(|_| rng.random::<f32>()).sum::<f32>() / 3.0 - 0.5;
            Luma([(mean + u * 2.0 * spread).clamp(0.0, 255.0) as u8])
        }
    })
}

/// Value noise: random levels on a coarse grid, interpolated.
fn blotches(rng: &mut ChaCha8Rng, w: u32, h: u32) -> GrayImage {
    let cell = rng.random_range(4..40) as f32;
    let gw = (w as f32 / cell) as usize + 2;
    let gh = (h as f32 / cell) as usize + 2;
    let grid: Vec<f32> = (0..gw * gh).map(|_| rng.random_range(0.0..255.0)).collect();
    let hard = rng.random_bool(0.4);
    GrayImage::from_fn(w, h, |x, y| {
        let (fx, fy) = (x as f32 / cell, y as f32 / cell);
        let (ix, iy) = (fx as usize, fy as usize);
        let (tx, ty) = (fx - ix as f32, fy - iy as f32);
        let g = |i: usize, j: usize| grid[j * gw + i];
        let top = g(ix, iy) * (1.0 - tx) + g(ix + 1, iy) * tx;
        let bottom = g(ix, iy + 1) * (1.0 - tx) + g(ix + 1, iy + 1) * tx;
        let v = top * (1.0 - ty) + bottom * ty;
        Luma([if hard {
            if v > 127.0 { 255 } else { 0 }
        } else {
            v as u8
        }])
    })
}

/// Bars of random widths across the picture, sometimes with a white margin
/// either side (a quiet zone), sometimes only over a band of rows.
fn random_stripes(rng: &mut ChaCha8Rng, w: u32, h: u32) -> GrayImage {
    let module = rng.random_range(1..=4);
    let margin = if rng.random_bool(0.5) {
        rng.random_range(10..w / 4)
    } else {
        0
    };
    let mut bars = Vec::with_capacity(w as usize);
    let mut dark = rng.random_bool(0.5);
    while bars.len() < w as usize {
        let width = module * rng.random_range(1..=4);
        bars.extend(std::iter::repeat_n(dark, width as usize));
        dark = !dark;
    }
    let (band0, band1) = if rng.random_bool(0.5) {
        let a = rng.random_range(0..h / 2);
        (a, a + rng.random_range(h / 4..=h / 2))
    } else {
        (0, h)
    };
    let contrast: i32 = rng.random_range(60..=255);
    GrayImage::from_fn(w, h, |x, y| {
        let inside = x >= margin && x + margin < w && (band0..band1).contains(&y);
        if inside && bars[x as usize] {
            Luma([(255 - contrast) as u8])
        } else {
            Luma([255])
        }
    })
}

/// Stripes of one period at an angle, with some bar-width jitter.
fn periodic_stripes(rng: &mut ChaCha8Rng, w: u32, h: u32) -> GrayImage {
    let period = rng.random_range(2.0..30.0f32);
    let duty = rng.random_range(0.2..0.8f32);
    let angle = if rng.random_bool(0.5) {
        0.0
    } else {
        rng.random_range(0.0..std::f32::consts::PI)
    };
    let (s, c) = angle.sin_cos();
    let smooth = rng.random_bool(0.5);
    GrayImage::from_fn(w, h, |x, y| {
        let t = (x as f32 * c + y as f32 * s) / period;
        let phase = t - t.floor();
        Luma([if smooth {
            (127.5 + 127.5 * (t * std::f32::consts::TAU).sin()) as u8
        } else if phase < duty {
            20
        } else {
            235
        }])
    })
}

/// Checkerboards, grids and plaids.
fn checks(rng: &mut ChaCha8Rng, w: u32, h: u32) -> GrayImage {
    let a = rng.random_range(2..40);
    let b = rng.random_range(2..40);
    let style = rng.random_range(0..3);
    GrayImage::from_fn(w, h, |x, y| {
        let v = match style {
            0 => ((x / a + y / b) % 2) * 255,
            1 => {
                if x % a < 2 || y % b < 2 {
                    0
                } else {
                    255
                }
            }
            _ => (((x / a) % 3) * 60 + ((y / b) % 3) * 60).min(255),
        };
        Luma([v as u8])
    })
}

/// Interference of sine waves, rings and wood-grain-like bands.
fn waves(rng: &mut ChaCha8Rng, w: u32, h: u32) -> GrayImage {
    let waves: Vec<(f32, f32, f32)> = (0..rng.random_range(1..4))
        .map(|_| {
            (
                rng.random_range(-0.3..0.3f32),
                rng.random_range(-0.3..0.3f32),
                rng.random_range(0.0..6.3f32),
            )
        })
        .collect();
    let rings = rng.random_bool(0.3);
    let (cx, cy) = (
        rng.random_range(0.0..w as f32),
        rng.random_range(0.0..h as f32),
    );
    let k = rng.random_range(0.05..0.6f32);
    GrayImage::from_fn(w, h, |x, y| {
        let (xf, yf) = (x as f32, y as f32);
        let mut v: f32 = waves
            .iter()
            .map(|(fx, fy, p)| (fx * xf + fy * yf + p).sin())
            .sum();
        if rings {
            v += (((xf - cx).powi(2) + (yf - cy).powi(2)).sqrt() * k).sin();
        }
        let n = waves.len() as f32 + f32::from(u8::from(rings));
        Luma([(127.5 + 127.5 * v / n) as u8])
    })
}

/// Lines of printed words (receipts, card text, labels).
fn text(rng: &mut ChaCha8Rng, w: u32, h: u32, background: Option<GrayImage>) -> GrayImage {
    let mut img = background.unwrap_or_else(|| GrayImage::from_pixel(w, h, Luma([255])));
    let (regular, bold) = super::print::fonts();
    let size = rng.random_range(9.0..48.0f32);
    let ink = rng.random_range(0..90u8);
    let mut y = rng.random_range(0.0..size);
    while y < h as f32 {
        let font = if rng.random_bool(0.3) {
            &bold
        } else {
            &regular
        };
        let scaled = font.as_scaled(PxScale::from(size));
        let mut x = rng.random_range(0.0..size * 2.0);
        while x < w as f32 {
            let word = WORDS[rng.random_range(0..WORDS.len())];
            for ch in word.chars() {
                let glyph = scaled.scaled_glyph(ch);
                let advance = scaled.h_advance(glyph.id);
                let mut glyph = glyph;
                glyph.position = ab_glyph::point(x, y + scaled.ascent());
                if let Some(outlined) = font.outline_glyph(glyph) {
                    let bounds = outlined.px_bounds();
                    outlined.draw(|gx, gy, cover| {
                        let px = bounds.min.x as i64 + i64::from(gx);
                        let py = bounds.min.y as i64 + i64::from(gy);
                        if (0..i64::from(w)).contains(&px) && (0..i64::from(h)).contains(&py) {
                            let p = img.get_pixel_mut(px as u32, py as u32);
                            let v = f32::from(p[0]) * (1.0 - cover) + f32::from(ink) * cover;
                            p[0] = v as u8;
                        }
                    });
                }
                x += advance;
            }
            x += size * rng.random_range(0.3..1.2f32);
        }
        y += size * rng.random_range(1.1..1.8f32);
    }
    img
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decoys_are_seeded_and_of_every_kind() {
        for n in 0..KINDS.len() as u64 {
            let (kind, a) = decoy(n);
            let (_, b) = decoy(n);
            assert_eq!(kind, KINDS[n as usize]);
            assert_eq!(a, b, "decoy {n} differs between runs");
            // Not blank: every kind has at least two levels.
            let first = a.get_pixel(0, 0)[0];
            assert!(
                a.pixels().any(|p| p[0] != first),
                "decoy {n} ({kind}) is flat"
            );
        }
    }
}
