//! Small grayscale image operations the decoder and the photo simulator
//! share: rotation, perspective warps, resizing, contrast and blur.

use image::{GrayImage, Luma};

/// Samples `img` at a real position (bilinear); outside the image gives `fill`.
fn sample(img: &GrayImage, x: f32, y: f32, fill: u8) -> u8 {
    let (w, h) = (img.width() as i64, img.height() as i64);
    if !(x >= -0.5 && y >= -0.5 && x <= w as f32 - 0.5 && y <= h as f32 - 0.5) {
        return fill;
    }
    let x0 = x.floor() as i64;
    let y0 = y.floor() as i64;
    let fx = x - x0 as f32;
    let fy = y - y0 as f32;
    let px = |xx: i64, yy: i64| -> f32 {
        let xx = xx.clamp(0, w - 1) as u32;
        let yy = yy.clamp(0, h - 1) as u32;
        f32::from(img.get_pixel(xx, yy).0[0])
    };
    let top = px(x0, y0) * (1.0 - fx) + px(x0 + 1, y0) * fx;
    let bottom = px(x0, y0 + 1) * (1.0 - fx) + px(x0 + 1, y0 + 1) * fx;
    (top * (1.0 - fy) + bottom * fy).round().clamp(0.0, 255.0) as u8
}

/// Rotates by `degrees` (counter-clockwise) about the centre; the result is
/// large enough to hold the whole turned image, and the corners are `fill`.
pub fn rotate(img: &GrayImage, degrees: f32, fill: u8) -> GrayImage {
    let (s, c) = degrees.to_radians().sin_cos();
    let (w, h) = (img.width() as f32, img.height() as f32);
    let nw = (w * c.abs() + h * s.abs()).ceil().max(1.0) as u32;
    let nh = (w * s.abs() + h * c.abs()).ceil().max(1.0) as u32;
    let (cx, cy) = (w / 2.0, h / 2.0);
    let (ncx, ncy) = (nw as f32 / 2.0, nh as f32 / 2.0);
    GrayImage::from_fn(nw, nh, |x, y| {
        let dx = x as f32 + 0.5 - ncx;
        let dy = y as f32 + 0.5 - ncy;
        // Inverse rotation (image y points down, so counter-clockwise on screen
        // is a negative angle in these coordinates).
        let sx = c * dx - s * dy + cx - 0.5;
        let sy = s * dx + c * dy + cy - 0.5;
        Luma([sample(img, sx, sy, fill)])
    })
}

/// A 3×3 projective transform, row-major, mapping destination to source.
pub type Homography = [f32; 9];

/// The homography taking the unit square's corners (0,0) (1,0) (1,1) (0,1)
/// to the four points `q` (in that order).
fn square_to_quad(q: [(f32, f32); 4]) -> Homography {
    let [(x0, y0), (x1, y1), (x2, y2), (x3, y3)] = q;
    let dx3 = x0 - x1 + x2 - x3;
    let dy3 = y0 - y1 + y2 - y3;
    if dx3.abs() < 1e-9 && dy3.abs() < 1e-9 {
        return [x1 - x0, x2 - x1, x0, y1 - y0, y2 - y1, y0, 0.0, 0.0, 1.0];
    }
    let dx1 = x1 - x2;
    let dx2 = x3 - x2;
    let dy1 = y1 - y2;
    let dy2 = y3 - y2;
    let den = dx1 * dy2 - dx2 * dy1;
    let g = (dx3 * dy2 - dx2 * dy3) / den;
    let h = (dx1 * dy3 - dx3 * dy1) / den;
    [
        x1 - x0 + g * x1,
        x3 - x0 + h * x3,
        x0,
        y1 - y0 + g * y1,
        y3 - y0 + h * y3,
        y0,
        g,
        h,
        1.0,
    ]
}

fn invert(m: &Homography) -> Homography {
    let [a, b, c, d, e, f, g, h, i] = *m;
    let det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g);
    let k = if det.abs() < 1e-12 { 0.0 } else { 1.0 / det };
    [
        (e * i - f * h) * k,
        (c * h - b * i) * k,
        (b * f - c * e) * k,
        (f * g - d * i) * k,
        (a * i - c * g) * k,
        (c * d - a * f) * k,
        (d * h - e * g) * k,
        (b * g - a * h) * k,
        (a * e - b * d) * k,
    ]
}

fn mul(a: &Homography, b: &Homography) -> Homography {
    let mut out = [0.0; 9];
    for r in 0..3 {
        for c in 0..3 {
            out[r * 3 + c] = (0..3).map(|k| a[r * 3 + k] * b[k * 3 + c]).sum();
        }
    }
    out
}

/// Draws `src` into a `width`×`height` canvas filled by `background`, with
/// the source's corners (top-left, top-right, bottom-right, bottom-left)
/// landing on the four points `corners`.
pub fn warp_into(src: &GrayImage, background: &GrayImage, corners: [(f32, f32); 4]) -> GrayImage {
    let (sw, sh) = (src.width() as f32, src.height() as f32);
    // destination quad <- unit square, source rect <- unit square
    let to_dst = square_to_quad(corners);
    let to_src = square_to_quad([(0.0, 0.0), (sw, 0.0), (sw, sh), (0.0, sh)]);
    let m = mul(&to_src, &invert(&to_dst));
    let mut out = background.clone();
    let (minx, maxx) = corners.iter().fold((f32::MAX, f32::MIN), |(lo, hi), p| {
        (lo.min(p.0), hi.max(p.0))
    });
    let (miny, maxy) = corners.iter().fold((f32::MAX, f32::MIN), |(lo, hi), p| {
        (lo.min(p.1), hi.max(p.1))
    });
    let x0 = minx.floor().max(0.0) as u32;
    let y0 = miny.floor().max(0.0) as u32;
    let x1 = (maxx.ceil().max(0.0) as u32).min(out.width());
    let y1 = (maxy.ceil().max(0.0) as u32).min(out.height());
    for y in y0..y1 {
        for x in x0..x1 {
            let (px, py) = (x as f32 + 0.5, y as f32 + 0.5);
            let zw = m[6] * px + m[7] * py + m[8];
            if zw.abs() < 1e-9 {
                continue;
            }
            let sx = (m[0] * px + m[1] * py + m[2]) / zw;
            let sy = (m[3] * px + m[4] * py + m[5]) / zw;
            if sx >= 0.0 && sy >= 0.0 && sx < sw && sy < sh {
                let v = sample(src, sx - 0.5, sy - 0.5, 255);
                out.put_pixel(x, y, Luma([v]));
            }
        }
    }
    out
}

/// Resizes by a factor (area-averaging when shrinking, bilinear when growing).
pub fn scale(img: &GrayImage, factor: f32) -> GrayImage {
    let w = ((img.width() as f32 * factor).round() as u32).max(1);
    let h = ((img.height() as f32 * factor).round() as u32).max(1);
    if factor < 1.0 {
        shrink(img, w, h)
    } else {
        image::imageops::resize(img, w, h, image::imageops::FilterType::Triangle)
    }
}

/// Shrinks by averaging every source pixel into its destination pixel.
fn shrink(img: &GrayImage, w: u32, h: u32) -> GrayImage {
    let (sw, sh) = (img.width(), img.height());
    let mut sum = vec![0u32; (w * h) as usize];
    let mut count = vec![0u32; (w * h) as usize];
    for y in 0..sh {
        let dy = (u64::from(y) * u64::from(h) / u64::from(sh)) as u32;
        for x in 0..sw {
            let dx = (u64::from(x) * u64::from(w) / u64::from(sw)) as u32;
            let i = (dy * w + dx) as usize;
            sum[i] += u32::from(img.get_pixel(x, y).0[0]);
            count[i] += 1;
        }
    }
    GrayImage::from_fn(w, h, |x, y| {
        let i = (y * w + x) as usize;
        Luma([(sum[i] / count[i].max(1)) as u8])
    })
}

/// Stretches the darkest 1% to black and the brightest 1% to white.
pub fn stretch_contrast(img: &GrayImage) -> GrayImage {
    let mut hist = [0u64; 256];
    for p in img.pixels() {
        hist[p.0[0] as usize] += 1;
    }
    let total: u64 = hist.iter().sum();
    let cut = total / 100;
    let mut acc = 0;
    let lo = hist
        .iter()
        .position(|&n| {
            acc += n;
            acc > cut
        })
        .unwrap_or(0) as i32;
    acc = 0;
    let hi = 255
        - hist
            .iter()
            .rev()
            .position(|&n| {
                acc += n;
                acc > cut
            })
            .unwrap_or(0) as i32;
    if hi - lo < 8 {
        return img.clone();
    }
    let span = (hi - lo) as f32;
    let lut: Vec<u8> = (0..256)
        .map(|v| (((v - lo) as f32 / span) * 255.0).round().clamp(0.0, 255.0) as u8)
        .collect();
    GrayImage::from_fn(img.width(), img.height(), |x, y| {
        Luma([lut[img.get_pixel(x, y).0[0] as usize]])
    })
}

/// A 3×3 box blur (takes the edge off sensor noise).
pub fn box_blur3(img: &GrayImage) -> GrayImage {
    let (w, h) = (img.width() as i64, img.height() as i64);
    GrayImage::from_fn(img.width(), img.height(), |x, y| {
        let mut s = 0u32;
        for dy in -1..=1 {
            for dx in -1..=1 {
                let xx = (x as i64 + dx).clamp(0, w - 1) as u32;
                let yy = (y as i64 + dy).clamp(0, h - 1) as u32;
                s += u32::from(img.get_pixel(xx, yy).0[0]);
            }
        }
        Luma([(s / 9) as u8])
    })
}

/// A rectangle of `img` (clamped to it).
pub fn crop(img: &GrayImage, x: u32, y: u32, w: u32, h: u32) -> GrayImage {
    let x = x.min(img.width().saturating_sub(1));
    let y = y.min(img.height().saturating_sub(1));
    let w = w.min(img.width() - x).max(1);
    let h = h.min(img.height() - y).max(1);
    image::imageops::crop_imm(img, x, y, w, h).to_image()
}

/// Unsharp mask: `img + amount × (img − blur(img, sigma))`, against blur.
pub fn sharpen(img: &GrayImage, sigma: f32, amount: f32) -> GrayImage {
    let blurred = image::imageops::blur(img, sigma);
    GrayImage::from_fn(img.width(), img.height(), |x, y| {
        let v = f32::from(img.get_pixel(x, y).0[0]);
        let b = f32::from(blurred.get_pixel(x, y).0[0]);
        Luma([(v + amount * (v - b)).round().clamp(0.0, 255.0) as u8])
    })
}
