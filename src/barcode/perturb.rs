//! Photo-like damage: a printed card put on a desk and shot with a webcam.
//! Used to make the committed test scans (`examples/make_scans.rs`), by the
//! tests, and by the benches. Everything is seeded: the same shot twice is
//! the same picture.

use image::{GrayImage, Luma};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::imageops;

/// The frame size of a shot: a 720p webcam.
pub const FRAME: (u32, u32) = (1280, 720);

/// How a card is shot.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Shot {
    /// The card's height as a share of the frame's height.
    pub scale: f32,
    /// Turned by this many degrees.
    pub angle: f32,
    /// Perspective: the card's far edge is this much shorter (0 = none).
    pub tilt: f32,
    /// Gaussian blur sigma in pixels (0 = sharp).
    pub blur: f32,
    /// Sensor noise sigma in grey levels.
    pub noise: f32,
    /// Light: 1 is well lit, 0.3 is dim.
    pub light: f32,
    /// JPEG quality the frame is saved with (100 = barely touched).
    pub jpeg: u8,
}

impl Shot {
    /// A clean, flat, well-lit shot.
    pub const CLEAN: Shot = Shot {
        scale: 0.9,
        angle: 0.0,
        tilt: 0.0,
        blur: 0.0,
        noise: 0.0,
        light: 1.0,
        jpeg: 95,
    };
}

/// The named kinds of the committed photo-like scans.
pub const KINDS: [(&str, Shot); 10] = [
    ("clean", Shot::CLEAN),
    (
        "small",
        Shot {
            scale: 0.38,
            ..Shot::CLEAN
        },
    ),
    (
        "rotated20",
        Shot {
            angle: 20.0,
            scale: 0.8,
            ..Shot::CLEAN
        },
    ),
    (
        "rotated45",
        Shot {
            angle: -45.0,
            scale: 0.75,
            ..Shot::CLEAN
        },
    ),
    (
        "perspective",
        Shot {
            tilt: 0.25,
            angle: 8.0,
            ..Shot::CLEAN
        },
    ),
    (
        "blurred",
        Shot {
            blur: 1.6,
            ..Shot::CLEAN
        },
    ),
    (
        "noisy",
        Shot {
            noise: 22.0,
            ..Shot::CLEAN
        },
    ),
    (
        "dim",
        Shot {
            light: 0.28,
            noise: 3.0,
            ..Shot::CLEAN
        },
    ),
    (
        "jpeg",
        Shot {
            jpeg: 20,
            scale: 0.6,
            ..Shot::CLEAN
        },
    ),
    (
        "webcam",
        Shot {
            scale: 0.6,
            angle: -14.0,
            tilt: 0.15,
            blur: 1.0,
            noise: 8.0,
            light: 0.6,
            jpeg: 60,
        },
    ),
];

/// A desk: a soft gradient with some grain.
fn desk(rng: &mut ChaCha8Rng) -> GrayImage {
    let (w, h) = FRAME;
    let base: f32 = rng.random_range(90.0..150.0);
    let slope: f32 = rng.random_range(-40.0..40.0);
    GrayImage::from_fn(w, h, |x, y| {
        let v = base + slope * (x as f32 / w as f32) + 10.0 * ((x / 37 + y / 23) % 2) as f32;
        Luma([v.clamp(0.0, 255.0) as u8])
    })
}

/// Shoots a card (a clean, upright picture of it) as `shot` says.
pub fn shoot(card: &GrayImage, shot: &Shot, seed: u64) -> GrayImage {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (fw, fh) = (FRAME.0 as f32, FRAME.1 as f32);
    let h = shot.scale * fh;
    let w = h * card.width() as f32 / card.height() as f32;
    // Where the card sits: somewhere its turned bounding box fits.
    let (s, c) = shot.angle.to_radians().sin_cos();
    let bw = w * c.abs() + h * s.abs();
    let bh = w * s.abs() + h * c.abs();
    let cx = if bw < fw {
        rng.random_range(bw / 2.0..=fw - bw / 2.0)
    } else {
        fw / 2.0
    };
    let cy = if bh < fh {
        rng.random_range(bh / 2.0..=fh - bh / 2.0)
    } else {
        fh / 2.0
    };
    // Corners in the card's own frame (top edge shortened by the tilt).
    let top = w * (1.0 - shot.tilt) / 2.0;
    let local = [
        (-top, -h / 2.0),
        (top, -h / 2.0),
        (w / 2.0, h / 2.0),
        (-w / 2.0, h / 2.0),
    ];
    // Counter-clockwise on screen (y down).
    let corners = local.map(|(x, y)| (cx + c * x + s * y, cy - s * x + c * y));
    let mut img = imageops::warp_into(card, &desk(&mut rng), corners);
    if shot.blur > 0.0 {
        img = image::imageops::blur(&img, shot.blur);
    }
    if shot.light < 1.0 || shot.noise > 0.0 {
        for p in img.pixels_mut() {
            // Sum of uniforms: close enough to Gaussian noise.
            let n: f32 = (0..4).map(|_| rng.random_range(-1.0f32..1.0)).sum::<f32>() * 0.866;
            let v = f32::from(p.0[0]) * shot.light + 8.0 * (1.0 - shot.light) + n * shot.noise;
            p.0[0] = v.round().clamp(0.0, 255.0) as u8;
        }
    }
    if shot.jpeg < 100 {
        img = jpeg_round_trip(&img, shot.jpeg);
    }
    img
}

/// Encodes as JPEG at `quality` and decodes it again.
pub fn jpeg_round_trip(img: &GrayImage, quality: u8) -> GrayImage {
    let bytes = jpeg_bytes(img, quality);
    image::load_from_memory(&bytes).map_or_else(|_| img.clone(), |i| i.to_luma8())
}

/// The JPEG file of a picture.
pub fn jpeg_bytes(img: &GrayImage, quality: u8) -> Vec<u8> {
    let mut bytes = Vec::new();
    let mut enc =
        image::codecs::jpeg::JpegEncoder::new_with_quality(&mut bytes, quality.clamp(1, 100));
    if enc.encode_image(img).is_err() {
        bytes.clear();
    }
    bytes
}
