//! Small grayscale image operations the decoder and the photo simulator
//! share: rotation, perspective warps, resizing, contrast and blur.

use image::{GrayImage, Luma};

/// A rectangle of a grayscale image to sample from, without copying it.
struct View<'a> {
    px: &'a [u8],
    stride: usize,
    x0: usize,
    y0: usize,
    w: i64,
    h: i64,
}

impl<'a> View<'a> {
    fn whole(img: &'a GrayImage) -> View<'a> {
        View::rect(img, 0, 0, img.width(), img.height())
    }

    /// `w × h` at `(x, y)`; the caller keeps the rectangle inside `img`.
    fn rect(img: &'a GrayImage, x: u32, y: u32, w: u32, h: u32) -> View<'a> {
        View {
            px: img.as_raw(),
            stride: img.width() as usize,
            x0: x as usize,
            y0: y as usize,
            w: i64::from(w),
            h: i64::from(h),
        }
    }

    #[inline]
    fn get(&self, x: i64, y: i64) -> f32 {
        let x = x.clamp(0, self.w - 1) as usize + self.x0;
        let y = y.clamp(0, self.h - 1) as usize + self.y0;
        f32::from(self.px[y * self.stride + x])
    }

    /// The view at a real position (bilinear); outside it gives `fill`.
    #[inline]
    fn sample(&self, x: f32, y: f32, fill: u8) -> u8 {
        if !(x >= -0.5 && y >= -0.5 && x <= self.w as f32 - 0.5 && y <= self.h as f32 - 0.5) {
            return fill;
        }
        let floor = |v: f32| {
            let t = v as i64;
            if t as f32 > v { t - 1 } else { t }
        };
        let x0 = floor(x);
        let y0 = floor(y);
        let fx = x - x0 as f32;
        let fy = y - y0 as f32;
        let (a, b, c, d) = if x0 >= 0 && y0 >= 0 && x0 + 1 < self.w && y0 + 1 < self.h {
            // Inside: the four neighbours straight from the buffer.
            let i = (y0 as usize + self.y0) * self.stride + x0 as usize + self.x0;
            let p = |j: usize| f32::from(self.px[j]);
            (p(i), p(i + 1), p(i + self.stride), p(i + self.stride + 1))
        } else {
            (
                self.get(x0, y0),
                self.get(x0 + 1, y0),
                self.get(x0, y0 + 1),
                self.get(x0 + 1, y0 + 1),
            )
        };
        let top = a * (1.0 - fx) + b * fx;
        let bottom = c * (1.0 - fx) + d * fx;
        let v = top * (1.0 - fy) + bottom * fy;
        (v + 0.5) as u8
    }
}

/// Rotates by `degrees` (counter-clockwise) about the centre; the result is
/// large enough to hold the whole turned image, and the corners are `fill`.
pub fn rotate(img: &GrayImage, degrees: f32, fill: u8) -> GrayImage {
    turn(&View::whole(img), degrees, 1.0, fill)
}

/// A rectangle of `img` (clamped to it) turned by `degrees` as [`rotate`]
/// turns a whole image, sampled straight from `img`.
pub fn upright_crop(
    img: &GrayImage,
    (x, y, w, h): (u32, u32, u32, u32),
    degrees: f32,
    fill: u8,
) -> GrayImage {
    let (x, y, w, h) = clamp_rect(img, x, y, w, h);
    if degrees == 0.0 {
        return image::imageops::crop_imm(img, x, y, w, h).to_image();
    }
    turn(&View::rect(img, x, y, w, h), degrees, 1.0, fill)
}

fn turned(w: f32, h: f32, degrees: f32) -> (u32, u32) {
    let (s, c) = degrees.to_radians().sin_cos();
    // Less a little before rounding up: sin and cos of a right angle are
    // not exactly 1 and 0, and must not add a column.
    (
        (w * c.abs() + h * s.abs() - 1e-3).ceil().max(1.0) as u32,
        (w * s.abs() + h * c.abs() - 1e-3).ceil().max(1.0) as u32,
    )
}

fn turn(view: &View, degrees: f32, factor: f32, fill: u8) -> GrayImage {
    let (s, c) = degrees.to_radians().sin_cos();
    let (w, h) = (view.w as f32, view.h as f32);
    let (nw, nh) = turned(w, h, degrees);
    let (cx, cy) = (w / 2.0, h / 2.0);
    let (ncx, ncy) = (nw as f32 / 2.0, nh as f32 / 2.0);
    let (ow, oh) = if factor == 1.0 {
        (nw, nh)
    } else {
        (
            ((nw as f32 * factor).round() as u32).max(1),
            ((nh as f32 * factor).round() as u32).max(1),
        )
    };
    // The inverse rotation (image y points down, so counter-clockwise on
    // screen is a negative angle in these coordinates), its per-column and
    // per-row products computed once.
    let dxs = (0..ow).map(|x| (x as f32 + 0.5) / factor - ncx);
    let (cdx, sdx): (Vec<f32>, Vec<f32>) = dxs.map(|dx| (c * dx, s * dx)).unzip();
    let mut out = vec![0u8; ow as usize * oh as usize];
    for (y, row) in out.chunks_exact_mut(ow as usize).enumerate() {
        let dy = (y as f32 + 0.5) / factor - ncy;
        let (sdy, cdy) = (s * dy, c * dy);
        for ((o, &cdx), &sdx) in row.iter_mut().zip(&cdx).zip(&sdx) {
            let sx = cdx - sdy + cx - 0.5;
            let sy = sdx + cdy + cy - 0.5;
            *o = view.sample(sx, sy, fill);
        }
    }
    GrayImage::from_raw(ow, oh, out).expect("the buffer is ow × oh")
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
    let view = View::whole(src);
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
                let v = view.sample(sx - 0.5, sy - 0.5, 255);
                out.put_pixel(x, y, Luma([v]));
            }
        }
    }
    out
}

/// Resizes by a factor (area-averaging when shrinking, bilinear when growing).
pub fn scale(img: &GrayImage, factor: f32) -> GrayImage {
    if factor < 1.0 {
        let w = ((img.width() as f32 * factor).round() as u32).max(1);
        let h = ((img.height() as f32 * factor).round() as u32).max(1);
        shrink(img, w, h)
    } else if factor == 2.0 {
        double(img)
    } else {
        turn(&View::whole(img), 0.0, factor, 0)
    }
}

/// Twice the size, bilinear, as `turn` enlarges by 2 (the same pixels, in
/// whole numbers): each output pixel lies a quarter of a source pixel from
/// its nearest source pixel, so its weights are 3/4 and 1/4 each way, and
/// the value `(9a + 3b + 3c + d) / 16` rounded is exactly what the general
/// path computes in floating point. A region crop is enlarged this way
/// before it is read, for every crop of every picture.
fn double(img: &GrayImage) -> GrayImage {
    let (w, h) = (img.width() as usize, img.height() as usize);
    let px = img.as_raw();
    // For output column 2i: 1/4 of source column i-1 and 3/4 of i; for
    // 2i+1: 3/4 of i and 1/4 of i+1 (clamped at the edges). Likewise rows.
    let near_far = |i: usize, n: usize| -> [(usize, usize); 2] {
        [(i, i.saturating_sub(1)), (i, (i + 1).min(n - 1))]
    };
    // Each source row widened: 4 × the weighted pair, per output column.
    let widen = |row: &[u8], out: &mut [u16]| {
        for i in 0..w {
            for (k, (near, far)) in near_far(i, w).into_iter().enumerate() {
                out[2 * i + k] = 3 * u16::from(row[near]) + u16::from(row[far]);
            }
        }
    };
    let mut wide = vec![0u16; 2 * w * h];
    for (row, out) in px.chunks_exact(w).zip(wide.chunks_exact_mut(2 * w)) {
        widen(row, out);
    }
    let mut out = vec![0u8; 4 * w * h];
    for (j, rows) in out.chunks_exact_mut(4 * w).enumerate() {
        let (top, bottom) = rows.split_at_mut(2 * w);
        for (k, (near, far)) in near_far(j, h).into_iter().enumerate() {
            let dst = if k == 0 { &mut *top } else { &mut *bottom };
            let (a, b) = (
                &wide[near * 2 * w..][..2 * w],
                &wide[far * 2 * w..][..2 * w],
            );
            for ((d, &a), &b) in dst.iter_mut().zip(a).zip(b) {
                *d = ((3 * u32::from(a) + u32::from(b) + 8) >> 4) as u8;
            }
        }
    }
    GrayImage::from_raw(2 * w as u32, 2 * h as u32, out).expect("the buffer is 2w × 2h")
}

/// Shrinks by averaging every source pixel into its destination pixel.
fn shrink(img: &GrayImage, w: u32, h: u32) -> GrayImage {
    let (sw, sh) = (img.width() as usize, img.height() as usize);
    let (w, h) = (w as usize, h as usize);
    // Which destination column and row each source column and row falls in.
    let xmap: Vec<usize> = (0..sw).map(|x| x * w / sw).collect();
    let mut cols = vec![0u32; w];
    for &dx in &xmap {
        cols[dx] += 1;
    }
    let mut sum = vec![0u32; w * h];
    let mut rows = vec![0u32; h];
    for (y, row) in img.as_raw().chunks_exact(sw).enumerate() {
        let dy = y * h / sh;
        rows[dy] += 1;
        let out = &mut sum[dy * w..(dy + 1) * w];
        for (&v, &dx) in row.iter().zip(&xmap) {
            out[dx] += u32::from(v);
        }
    }
    let px = sum
        .iter()
        .enumerate()
        .map(|(i, &s)| (s / (rows[i / w] * cols[i % w]).max(1)) as u8)
        .collect();
    GrayImage::from_raw(w as u32, h as u32, px).expect("the buffer is w × h")
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
    let px = img.as_raw().iter().map(|&v| lut[usize::from(v)]).collect();
    GrayImage::from_raw(img.width(), img.height(), px).expect("the buffer is the image's size")
}

/// A 3×3 box blur (takes the edge off sensor noise); the edges repeat the
/// border pixels. Sums of three along each row first, then three of those
/// down each column: a webcam frame in about a millisecond.
pub fn box_blur3(img: &GrayImage) -> GrayImage {
    let (w, h) = (img.width() as usize, img.height() as usize);
    if w == 0 || h == 0 {
        return img.clone();
    }
    let px = img.as_raw();
    // Each pixel with its left and right neighbours (clamped at the ends).
    let mut across = vec![0u16; w * h];
    for (row, out) in px.chunks_exact(w).zip(across.chunks_exact_mut(w)) {
        for (x, o) in out.iter_mut().enumerate() {
            let left = row[x.saturating_sub(1)];
            let right = row[(x + 1).min(w - 1)];
            *o = u16::from(left) + u16::from(row[x]) + u16::from(right);
        }
    }
    let mut out = Vec::with_capacity(w * h);
    for y in 0..h {
        let up = &across[y.saturating_sub(1) * w..][..w];
        let mid = &across[y * w..][..w];
        let down = &across[(y + 1).min(h - 1) * w..][..w];
        out.extend(
            up.iter()
                .zip(mid)
                .zip(down)
                .map(|((&a, &b), &c)| ((u32::from(a) + u32::from(b) + u32::from(c)) / 9) as u8),
        );
    }
    GrayImage::from_raw(img.width(), img.height(), out).expect("the buffer is the image's size")
}

/// A rectangle of `img` (clamped to it).
pub fn crop(img: &GrayImage, x: u32, y: u32, w: u32, h: u32) -> GrayImage {
    let (x, y, w, h) = clamp_rect(img, x, y, w, h);
    image::imageops::crop_imm(img, x, y, w, h).to_image()
}

/// A rectangle clamped to the image, at least one pixel.
fn clamp_rect(img: &GrayImage, x: u32, y: u32, w: u32, h: u32) -> (u32, u32, u32, u32) {
    let x = x.min(img.width().saturating_sub(1));
    let y = y.min(img.height().saturating_sub(1));
    let w = w.min(img.width() - x).max(1);
    let h = h.min(img.height() - y).max(1);
    (x, y, w, h)
}

/// Unsharp mask: `img + amount × (img − blur(img, sigma))`, against blur.
pub fn sharpen(img: &GrayImage, sigma: f32, amount: f32) -> GrayImage {
    let blurred = image::imageops::blur(img, sigma);
    let px = img
        .as_raw()
        .iter()
        .zip(blurred.as_raw())
        .map(|(&v, &b)| {
            let (v, b) = (f32::from(v), f32::from(b));
            // Rounded to nearest; `as` saturates at 255.
            ((v + amount * (v - b)).max(0.0) + 0.5) as u8
        })
        .collect();
    GrayImage::from_raw(img.width(), img.height(), px).expect("the buffer is the image's size")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ramp(w: u32, h: u32) -> GrayImage {
        GrayImage::from_fn(w, h, |x, y| Luma([((x * 7 + y * 13) % 256) as u8]))
    }

    #[test]
    fn the_box_blur_is_the_mean_of_each_pixel_s_clamped_3x3_neighbourhood() {
        // Noise-like values, so that no sum is the same by chance.
        let img = GrayImage::from_fn(7, 5, |x, y| {
            Luma([((x * 37 + y * 91 + x * y * 13) % 256) as u8])
        });
        let blurred = box_blur3(&img);
        for y in 0..5i64 {
            for x in 0..7i64 {
                let mut sum = 0u32;
                for dy in -1..=1 {
                    for dx in -1..=1 {
                        let (xx, yy) = ((x + dx).clamp(0, 6) as u32, (y + dy).clamp(0, 4) as u32);
                        sum += u32::from(img.get_pixel(xx, yy).0[0]);
                    }
                }
                assert_eq!(
                    blurred.get_pixel(x as u32, y as u32).0[0],
                    (sum / 9) as u8,
                    "at {x},{y}"
                );
            }
        }
        // One row and one column: the neighbours are the pixel itself.
        let line = GrayImage::from_raw(3, 1, vec![0, 90, 180]).unwrap();
        assert_eq!(box_blur3(&line).as_raw(), &vec![30, 90, 150]);
    }

    #[test]
    fn doubling_gives_the_general_enlargement_s_pixels() {
        for (w, h) in [(1, 1), (2, 3), (7, 5), (33, 17)] {
            let img = GrayImage::from_fn(w, h, |x, y| {
                Luma([((x * 37 + y * 91 + x * y * 13) % 256) as u8])
            });
            let general = turn(&View::whole(&img), 0.0, 2.0, 0);
            assert_eq!(double(&img), general, "{w}×{h}");
            assert_eq!(scale(&img, 2.0), general, "{w}×{h}");
        }
    }

    #[test]
    fn shrink_averages_each_source_pixel_into_one_destination_pixel() {
        let img = ramp(37, 23);
        let (w, h) = (10, 6);
        let got = shrink(&img, w, h);
        // The plain definition: every destination pixel is the mean of the
        // source pixels whose scaled position falls in it.
        let mut sum = vec![0u32; (w * h) as usize];
        let mut n = vec![0u32; (w * h) as usize];
        for y in 0..img.height() {
            for x in 0..img.width() {
                let i = ((y * h / img.height()) * w + x * w / img.width()) as usize;
                sum[i] += u32::from(img.get_pixel(x, y).0[0]);
                n[i] += 1;
            }
        }
        for (i, p) in got.pixels().enumerate() {
            assert_eq!(u32::from(p.0[0]), sum[i] / n[i], "pixel {i}");
        }
    }

    #[test]
    fn an_unturned_unenlarged_crop_is_the_plain_crop() {
        let img = ramp(50, 40);
        let rect = (5, 7, 30, 20);
        assert_eq!(upright_crop(&img, rect, 0.0, 255), crop(&img, 5, 7, 30, 20));
        // Clamped to the image like `crop`.
        let past = (40, 30, 30, 30);
        assert_eq!(
            upright_crop(&img, past, 0.0, 255),
            crop(&img, 40, 30, 30, 30)
        );
    }

    #[test]
    fn a_turned_crop_is_the_crop_rotated() {
        let img = ramp(60, 50);
        for degrees in [-45.0, 20.0, 90.0] {
            let got = upright_crop(&img, (10, 5, 30, 25), degrees, 255);
            assert_eq!(got, rotate(&crop(&img, 10, 5, 30, 25), degrees, 255));
        }
    }

    #[test]
    fn rotating_a_quarter_turn_moves_a_corner_where_expected() {
        let mut img = GrayImage::from_pixel(8, 4, Luma([0]));
        img.put_pixel(7, 0, Luma([200]));
        // Counter-clockwise on screen: the top-right corner goes top-left.
        let turned = rotate(&img, 90.0, 255);
        assert_eq!(turned.dimensions(), (4, 8));
        let hot: Vec<_> = turned
            .enumerate_pixels()
            .filter(|p| p.2.0[0] > 100)
            .map(|p| (p.0, p.1))
            .collect();
        assert_eq!(hot, vec![(0, 0)]);
        assert_eq!(turned.get_pixel(3, 7).0[0], 0);
    }

    #[test]
    fn enlarging_doubles_the_size_and_interpolates_between_pixels() {
        let img = GrayImage::from_fn(4, 2, |x, _| Luma([if x < 2 { 0 } else { 200 }]));
        let big = scale(&img, 2.0);
        assert_eq!(big.dimensions(), (8, 4));
        let row: Vec<u8> = (0..8).map(|x| big.get_pixel(x, 1).0[0]).collect();
        // Flat where the source is flat, a ramp across the step, never fill.
        assert_eq!(row[..3], [0, 0, 0]);
        assert_eq!(row[5..], [200, 200, 200]);
        assert!(row[3] > 0 && row[3] < row[4] && row[4] < 200, "{row:?}");
    }
}
