#!/usr/bin/env python3
"""Webcam-like test frames with one barcode each (the `webcam3` set).

usage: make_webcam3.py OUTDIR [SEED] [--check]

Writes 120 frames `w3-NNN-SYMBOLOGY-DEGRADATION.jpg` (1280x720, JPEG as a
cheap USB webcam's MJPEG stream gives them), `expected.tsv` (`FILE<TAB>TEXT`,
the text each code holds) and `README.md` into OUTDIR. The same SEED (default
3) gives the same files; `--check` reads the frames back with zxing-cpp and
puts the count in the README. Frames `w3-*.jpg` already in OUTDIR are
removed first.

Each frame is made the way a camera would see it: a carrier (an ID-like card,
a product box, a thermal receipt or a phone showing the code) is drawn flat
at about the camera's resolution, held by a hand, placed in 3D in front of a
pinhole camera and projected onto a background scene; then the optics (defocus,
motion, rolling shutter, lens blur, vignetting, barrel distortion), the sensor
(photon and read noise, auto-exposure, the light's colour) and the webcam's
processing (noise reduction, sharpening, JPEG) are applied in that order, in
linear light until the tone curve.

Needs numpy, Pillow and zxing-cpp (3.1.1: its writer draws the symbols'
modules). About a second a frame.

SPDX-License-Identifier: MIT OR Apache-2.0
"""

import functools
import io
import math
import sys
from pathlib import Path

import numpy as np
import zxingcpp
from PIL import Image, ImageDraw, ImageFilter, ImageFont

W, H = 1280, 720
FOCAL = 950.0  # px: about a 68 degree wide webcam at 1280x720
CX, CY = W / 2, H / 2
YY, XX = np.mgrid[0:H, 0:W].astype(np.float32)
RR = ((XX + 0.5 - CX) ** 2 + (YY + 0.5 - CY) ** 2) / (CX ** 2 + CY ** 2)
FULL_WELL = 4000.0  # electrons for white paper at normal light
READ_NOISE = 4.0  # electrons

SYMBOLOGIES = ["code128"] * 48 + ["qr"] * 30 + ["ean13"] * 20 + ["upca"] * 14 + ["ean8"] * 8
DEGRADATIONS = (
    ["blur"] * 11 + ["motion"] * 10 + ["skew"] * 8 + ["dark"] * 11 + ["bright"] * 8
    + ["glare"] * 9 + ["thumb"] * 9 + ["thermal"] * 9 + ["screen"] * 10 + ["tilt"] * 9
    + ["far"] * 9 + ["jpeg"] * 8 + ["cast"] * 5 + ["corner"] * 4
)
assert len(SYMBOLOGIES) == len(DEGRADATIONS) == 120

FORMATS = {
    "code128": zxingcpp.BarcodeFormat.Code128,
    "qr": zxingcpp.BarcodeFormat.QRCode,
    "ean13": zxingcpp.BarcodeFormat.EAN13,
    "upca": zxingcpp.BarcodeFormat.UPCA,
    "ean8": zxingcpp.BarcodeFormat.EAN8,
}
# modules that run below the others (guard bars; UPC-A's first and last digit)
LONG_BARS = {
    "ean13": [(0, 3), (45, 50), (92, 95)],
    "upca": [(0, 10), (45, 50), (85, 95)],
    "ean8": [(0, 3), (31, 36), (64, 67)],
}
QUIET = {"code128": (10, 10), "qr": (4, 4), "ean13": (11, 7), "upca": (9, 9), "ean8": (7, 7)}

SKIN = [(241, 194, 167), (224, 172, 125), (198, 134, 86), (141, 85, 46), (92, 60, 40), (250, 214, 180)]


# ----------------------------------------------------------------- helpers


@functools.lru_cache(maxsize=None)
def font(size):
    return ImageFont.load_default(size=max(6, int(size)))


def _to_linear(a):
    a = np.asarray(a, dtype=np.float32) / 255.0
    return np.where(a <= 0.04045, a / 12.92, ((a + 0.055) / 1.055) ** 2.4).astype(np.float32)


def _to_srgb(a):
    a = np.clip(a, 0.0, 1.0)
    return np.where(a <= 0.0031308, a * 12.92, 1.055 * np.power(a, 1 / 2.4) - 0.055).astype(np.float32)


LINEAR_LUT = _to_linear(np.arange(256))
SRGB_STEPS = 16383
SRGB_LUT = _to_srgb(np.arange(SRGB_STEPS + 1) / SRGB_STEPS)


def to_linear(a):
    """sRGB 0..255 to linear 0..1 (float32)."""
    a = np.asarray(a)
    if a.dtype == np.uint8:
        return LINEAR_LUT[a]
    return _to_linear(a)


def to_srgb(a):
    """Linear to sRGB 0..1 (through a table)."""
    return SRGB_LUT[(np.clip(a, 0.0, 1.0) * SRGB_STEPS + 0.5).astype(np.int32)]


def lin_color(rgb):
    return to_linear(np.array(rgb, dtype=np.float32))


def check_digit(body):
    total = 0
    for k, d in enumerate(reversed(body)):
        total += int(d) * (3 if k % 2 == 0 else 1)
    return str((10 - total % 10) % 10)


def gblur(a, sigma):
    """Separable Gaussian blur of an (h, w[, c]) float32 array, edges repeated."""
    if sigma < 0.2:
        return a
    r = max(1, int(3 * sigma + 0.5))
    x = np.arange(-r, r + 1, dtype=np.float32)
    k = np.exp(-0.5 * (x / sigma) ** 2)
    k /= k.sum()
    for axis in (0, 1):
        pad = [(0, 0)] * a.ndim
        pad[axis] = (r, r)
        p = np.pad(a, pad, mode="edge")
        out = np.zeros_like(a)
        n = a.shape[axis]
        for j, kj in enumerate(k):
            sl = [slice(None)] * a.ndim
            sl[axis] = slice(j, j + n)
            out += kj * p[tuple(sl)]
        a = out
    return a


def fast_len(n):
    best = 1 << (n - 1).bit_length()
    for a in (1, 3, 5, 9, 15, 25, 27, 45, 75, 81):
        m = a
        while m < n:
            m *= 2
        best = min(best, m)
    return best


def convolve_fft(img, kernel):
    """Linear convolution of (h, w, c) with a small 2D kernel, same size."""
    kh, kw = kernel.shape
    h, w = img.shape[:2]
    fh, fw = fast_len(h + kh), fast_len(w + kw)
    kf = np.fft.rfft2(kernel, s=(fh, fw))
    out = np.empty_like(img)
    for c in range(img.shape[2]):
        f = np.fft.rfft2(img[:, :, c], s=(fh, fw))
        full = np.fft.irfft2(f * kf, s=(fh, fw))
        out[:, :, c] = full[kh // 2:kh // 2 + h, kw // 2:kw // 2 + w]
    return out


def blur_kernel(radius, length, angle):
    """A defocus disc of `radius` px swept along a `length` px line at `angle`."""
    half = int(math.ceil(radius + length / 2 + 2))
    y, x = np.mgrid[-half:half + 1, -half:half + 1].astype(np.float32)
    steps = max(1, int(length * 2) + 1)
    k = np.zeros_like(x)
    dx, dy = math.cos(angle), math.sin(angle)
    for t in np.linspace(-length / 2, length / 2, steps):
        d = np.hypot(x - t * dx, y - t * dy)
        k += np.clip(radius + 0.5 - d, 0.0, 1.0)
    return (k / k.sum()).astype(np.float32)


def box_resample(a, n, axis):
    """Area-average `a` along `axis` to `n` samples (exact box filter)."""
    a = np.moveaxis(a, axis, 0).astype(np.float32)
    m = a.shape[0]
    c = np.concatenate([np.zeros((1,) + a.shape[1:], np.float32), np.cumsum(a, axis=0)])
    edges = np.linspace(0, m, n + 1)
    lo = np.minimum(np.floor(edges).astype(int), m - 1)
    fr = (edges - lo).reshape((-1,) + (1,) * (a.ndim - 1)).astype(np.float32)
    # cumulative sum at fractional positions (linear between integer points)
    cum = c[lo] + fr * (c[lo + 1] - c[lo])
    out = (cum[1:] - cum[:-1]) / (m / n)
    return np.moveaxis(out, 0, axis)


# ----------------------------------------------------------------- symbols


def payload(sym, rng):
    if sym in ("code128", "qr"):
        prefix = rng.choice(["DA", "DA", "DA", "DA", "DA", "DA", "DM", "DM", "DB"])
        card = f"{prefix}-{int(rng.integers(1, 61)):03d}"
        return card if sym == "code128" else "BTERM:" + card
    if sym == "ean13":
        body = str(int(rng.integers(1, 10))) + "".join(str(d) for d in rng.integers(0, 10, 11))
    elif sym == "upca":
        body = str(rng.choice(["0", "0", "0", "1", "3", "6", "7"])) + "".join(str(d) for d in rng.integers(0, 10, 10))
    else:
        body = str(int(rng.integers(1, 10))) + "".join(str(d) for d in rng.integers(0, 10, 6))
    return body + check_digit(body)


def symbol_modules(sym, text, rng):
    """Dark modules: a 1D bool row for linear codes, a 2D bool matrix for QR."""
    kw = {}
    if sym == "qr":
        kw["ec_level"] = str(rng.choice(["M", "Q"]))
    bc = zxingcpp.create_barcode(text, FORMATS[sym], **kw)
    a = np.asarray(bc.to_image(scale=1, add_quiet_zones=False)) < 128
    if sym == "qr":
        return a
    return a[a.shape[0] // 2]


def linear_coverage(row, module_px, bar_px, sym, spread, sub=8):
    """Ink coverage (0..1) of a linear symbol `module_px` wide modules, bars
    `bar_px` high (guard bars longer for EAN/UPC). `spread` is the ink gain in
    modules (negative: thin bars)."""
    hi = np.repeat(row.astype(np.float32), sub)
    g = int(round(spread * sub / 2))
    if g > 0:
        d = hi.copy()
        for s in range(1, g + 1):
            d[s:] = np.maximum(d[s:], hi[:-s])
            d[:-s] = np.maximum(d[:-s], hi[s:])
        hi = d
    elif g < 0:
        e = hi.copy()
        for s in range(1, -g + 1):
            e[s:] = np.minimum(e[s:], hi[:-s])
            e[:-s] = np.minimum(e[:-s], hi[s:])
        hi = e
    wpx = max(2, int(round(len(row) * module_px)))
    line = box_resample(hi, wpx, 0)
    ext = int(round(5 * module_px)) if sym in LONG_BARS else 0
    cov = np.repeat(line[None, :], int(round(bar_px)) + ext, axis=0)
    if ext:
        mask = np.zeros(len(row) * sub, np.float32)
        for a, b in LONG_BARS[sym]:
            mask[a * sub:b * sub] = 1
        keep = box_resample(mask, wpx, 0)
        cov[int(round(bar_px)):, :] *= keep[None, :]
    return cov


def matrix_coverage(mat, module_px, spread, sub=6):
    hi = np.kron(mat.astype(np.float32), np.ones((sub, sub), np.float32))
    g = int(round(spread * sub / 2))
    if g > 0:
        img = Image.fromarray((hi * 255).astype(np.uint8)).filter(ImageFilter.MaxFilter(2 * g + 1))
        hi = np.asarray(img, np.float32) / 255
    elif g < 0:
        img = Image.fromarray((hi * 255).astype(np.uint8)).filter(ImageFilter.MinFilter(-2 * g + 1))
        hi = np.asarray(img, np.float32) / 255
    n = max(2, int(round(mat.shape[0] * module_px)))
    return box_resample(box_resample(hi, n, 0), n, 1)


# ----------------------------------------------------------------- carriers


class Carrier:
    """A flat thing in front of the camera, as premultiplied linear RGBA at
    `tpm` texture pixels per mm, with the code's centre at (ox, oy) px."""

    def __init__(self, tex, tpm, ox, oy, code_w_mm, code_h_mm, screen=None, light=True, quiet=1.2):
        self.quiet = quiet
        self.tex, self.tpm, self.ox, self.oy = tex.astype(np.float32), tpm, ox, oy
        self.code_w_mm, self.code_h_mm = code_w_mm, code_h_mm
        self.screen = None if screen is None else screen.astype(np.float32)  # the screen's mask
        self.lit = light


def capsule(tex, tpm, tip, direction, width_mm, length_mm, skin, under=False, nail=True):
    """Paint a finger into premultiplied `tex` in place: an ellipse from `tip`
    (mm) running along `direction` (unit vector), shaded like a cylinder,
    over the texture or (`under`) behind it. Returns the finger's alpha as
    (patch, (y0, y1, x0, x1)) or None."""
    h, w = tex.shape[:2]
    dx, dy = direction
    tx, ty = tip[0] * tpm, tip[1] * tpm
    wl, ll = width_mm * tpm / 2, length_mm * tpm / 2
    cx, cy = tx + dx * ll, ty + dy * ll
    ext = ll + wl + 2
    x0, x1 = int(max(0, cx - ext)), int(min(w, cx + ext))
    y0, y1 = int(max(0, cy - ext)), int(min(h, cy + ext))
    if x1 <= x0 or y1 <= y0:
        return None
    yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
    px, py = xx + 0.5 - cx, yy + 0.5 - cy
    s = px * dx + py * dy  # along, from centre
    t = -px * dy + py * dx  # across
    e = np.sqrt((s / ll) ** 2 + (t / wl) ** 2)
    alpha = np.clip((1.0 - e) * wl, 0.0, 1.0)
    shade = np.sqrt(np.clip(1.0 - (t / wl) ** 2, 0.0, 1.0))
    col = lin_color(skin)[None, None, :] * (0.45 + 0.55 * shade[..., None])
    if nail:
        ns = (s + ll) / tpm  # mm from the tip
        nmask = np.clip(1.0 - np.sqrt(((ns - 7.0) / 6.0) ** 2 + (t / (0.55 * wl)) ** 2), 0, 1)
        nmask = np.clip(nmask * 6, 0, 1)[..., None]
        nail_col = np.minimum(lin_color(skin) * 1.25 + np.array([0.08, 0.03, 0.03], np.float32), 1.0)
        col = col * (1 - nmask) + nail_col * (0.5 + 0.5 * shade[..., None]) * nmask
    layer = np.concatenate([col * alpha[..., None], alpha[..., None]], axis=2)
    region = tex[y0:y1, x0:x1]
    if under:
        region[:] = region + layer * (1.0 - region[..., 3:4])
    else:
        region[:] = layer + region * (1.0 - alpha[..., None])
    return alpha, (y0, y1, x0, x1)


def rounded_mask(size, box, radius, ss=2):
    """An antialiased rounded-rectangle mask (float32 0..1) of `size` (w, h)."""
    w, h = size
    m = Image.new("L", (w * ss, h * ss), 0)
    ImageDraw.Draw(m).rounded_rectangle([v * ss for v in box], radius=radius * ss, fill=255)
    m = m.resize((w, h), Image.BOX)
    return np.asarray(m, np.float32) / 255.0


def text_lines(draw, x, y, width, rows, size, color, rng, line_gap=1.6):
    """Scribble `rows` lines of word-like blocks or real words."""
    words = ["bterm", "CARD", "No.", "valid", "2027", "DATA", "club", "member", "Tokyo", "series",
             "TOTAL", "item", "qty", "12.50", "3.99", "thank", "you", "visit", "ref", "#4471"]
    f = font(size)
    for r in range(rows):
        cx = x
        while True:
            wd = str(rng.choice(words))
            tw = draw.textlength(wd, font=f)
            if cx + tw > x + width:
                break
            draw.text((cx, y + r * size * line_gap), wd, fill=color, font=f)
            cx += tw + size * 0.5


def place_code(tex, cov, x, y, ink):
    """Print coverage `cov` at integer (x, y) of premultiplied `tex` with
    linear `ink` colour (ink replaces what is under it, alpha unchanged)."""
    h, w = cov.shape
    region = tex[y:y + h, x:x + w]
    a = region[..., 3:4]
    c = cov[: region.shape[0], : region.shape[1], None]
    region[..., :3] = region[..., :3] * (1 - c) + ink[None, None, :] * a * c


def add_hand(tex, tpm, card_box, rng, skin, thumb_tip=None, thumb_dir=None, side=None):
    """Fingers behind the card on one side, a thumb over it, painted into
    `tex` in place; `card_box` is (x0, y0, x1, y1) in mm. Returns the thumb's
    alpha (see `capsule`)."""
    x0, y0, x1, y1 = card_box
    fw = rng.uniform(15, 19)
    if side is None:
        side = str(rng.choice(["left", "right", "bottom"]))
    if side in ("left", "right"):
        ex = x0 if side == "left" else x1
        sgn = -1 if side == "left" else 1
        for k in range(3):
            fy = y0 + (y1 - y0) * (0.2 + 0.3 * k) + rng.uniform(-3, 3)
            tip = (ex + sgn * rng.uniform(-10, -4), fy)
            capsule(tex, tpm, tip, (sgn, 0.15 * (k - 1)), fw, 30, skin, under=True, nail=False)
        if thumb_tip is None:
            thumb_tip = (ex - sgn * rng.uniform(3, 8), y0 + (y1 - y0) * rng.uniform(0.55, 0.85))
            thumb_dir = (sgn * 0.9, 0.45)
    else:
        ey, sgn = (y1, 1) if side == "bottom" else (y0, -1)
        for k in range(3):
            fx = x0 + (x1 - x0) * (0.3 + 0.2 * k) + rng.uniform(-3, 3)
            tip = (fx, ey + sgn * rng.uniform(-10, -4))
            capsule(tex, tpm, tip, (0.1 * (k - 1), sgn), fw, 30, skin, under=True, nail=False)
        if thumb_tip is None:
            thumb_tip = (x0 + (x1 - x0) * rng.uniform(0.15, 0.85), ey - sgn * rng.uniform(3, 7))
            thumb_dir = (0.3 * rng.uniform(-1, 1), sgn)
    n = math.hypot(*thumb_dir)
    return capsule(tex, tpm, thumb_tip, (thumb_dir[0] / n, thumb_dir[1] / n), rng.uniform(18, 22), 55, skin)


# coloured light (an LED strip, a gaming room) and an ink of about its colour
CASTS = [((1.0, 0.25, 0.12), (225, 60, 70)), ((0.2, 0.35, 1.0), (70, 110, 235)), ((0.3, 1.0, 0.25), (70, 200, 90))]


def make_carrier(kind, sym, text, modules, target, rng, deg, cast=0):
    """Draw the card/box/receipt/phone; returns a Carrier."""
    ink = lin_color((20, 20, 22))
    spread = rng.uniform(-0.1, 0.25)
    if kind == "card" and rng.random() < 0.3:
        ink = lin_color([(20, 30, 90), (15, 60, 30), (90, 15, 20)][int(rng.integers(3))])
    if deg == "cast":
        ink = lin_color(CASTS[cast][1]) * rng.uniform(0.6, 1.05)
    if kind == "phone":
        return make_phone(sym, text, modules, rng)


    linear = sym != "qr"
    ink_srgb = tuple(int(v) for v in np.round(to_srgb(ink) * 255)) + (255,)
    # physical sizes (mm)
    if kind == "receipt":
        dot = 25.4 / 203
        module = dot * int(rng.choice([2, 3])) if linear else dot * int(rng.choice([4, 5, 6]))
    elif kind == "package":
        module = rng.uniform(0.27, 0.38)
    else:
        module = rng.uniform(0.33, 0.5) if linear else rng.uniform(0.85, 1.35)
    n = len(modules) if linear else modules.shape[0]
    code_w = n * module
    if linear:
        bar_h = code_w * (rng.uniform(0.55, 0.75) if sym != "code128" else rng.uniform(0.22, 0.35))
    else:
        bar_h = code_w
    ql, qr_ = QUIET[sym]

    if kind == "card":
        cw, ch = 85.6, 54.0
        if code_w + (ql + qr_) * module > cw - 6:
            module = (cw - 6) / (n + ql + qr_)
            code_w = n * module
            bar_h = code_w * 0.25 if linear else code_w
    elif kind == "package":
        cw = max(code_w + 30, rng.uniform(70, 110))
        ch = max(bar_h + 40, rng.uniform(60, 100))
    else:  # receipt
        cw = float(rng.choice([58.0, 80.0]))
        ch = rng.uniform(95, 140)

    # about 1.25 texels per frame pixel, the texture at most 1800 px
    margin = 26.0
    tpm = min(1.25 * target / code_w, 1800.0 / (max(cw, ch) + 2 * margin))
    tw, th = int((cw + 2 * margin) * tpm), int((ch + 2 * margin) * tpm)
    img = Image.new("RGBA", (tw, th), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    P = lambda v: v * tpm  # noqa: E731
    X0, Y0 = margin, margin  # card's top-left (mm)
    mmbox = (X0, Y0, X0 + cw, Y0 + ch)
    hri = None

    if kind == "card":
        base = tuple(int(v) for v in rng.integers(215, 250, 3))
        band = tuple(int(v) for v in rng.integers(20, 200, 3))
        d.rectangle([P(X0), P(Y0), P(X0 + cw), P(Y0 + ch)], fill=base + (255,))
        bh = rng.uniform(10, 15)
        d.rectangle([P(X0), P(Y0), P(X0 + cw), P(Y0 + bh)], fill=band + (255,))
        d.ellipse([P(X0 + 3), P(Y0 + 2), P(X0 + bh + 1), P(Y0 + bh - 2)], fill=(250, 250, 250, 255))
        d.text((P(X0 + bh + 4), P(Y0 + bh * 0.22)), str(rng.choice(["bterm", "DATA CARD", "BATTLE TERMINAL", "MEMBER"])),
               fill=(255, 255, 255, 255), font=font(P(bh * 0.5)))
        # a stripe of art along the bottom
        for k in range(int(rng.integers(3, 8))):
            c = tuple(int(v) for v in rng.integers(60, 240, 3)) + (255,)
            r = rng.uniform(3, 9)
            ex, ey = X0 + rng.uniform(0, cw), Y0 + ch - rng.uniform(0, 6)
            d.ellipse([P(ex - r), P(ey - r), P(ex + r), P(ey + r)], fill=c)
        if linear:
            cx = X0 + cw / 2 + rng.uniform(-1, 1) * max(0, (cw - code_w - (ql + qr_) * module) / 2 - 2)
            cy = Y0 + bh + 4 + bar_h / 2 + rng.uniform(0, max(0.1, ch - bh - bar_h - 18))
            hri = (text, cy + bar_h / 2 + 1.0, 3.0)
        else:
            cx = X0 + cw - 4 - (code_w / 2 + 4 * module)
            cy = Y0 + bh + (ch - bh) / 2
            text_lines(d, P(X0 + 4), P(Y0 + bh + 5), P(max(10, cw - code_w - 18)), 4, P(2.6), (60, 60, 70, 255), rng)
        # white panel under the code with its quiet zone
        pad_l, pad_r = ql * module + 1, qr_ * module + 1
        top = cy - bar_h / 2 - 1.5
        bot = cy + bar_h / 2 + (5 if linear else 1.5)
        d.rectangle([P(cx - code_w / 2 - pad_l), P(top), P(cx + code_w / 2 + pad_r), P(bot)], fill=(247, 247, 244, 255))
        radius = 3.2
    elif kind == "package":
        base = [(200, 30, 40), (30, 80, 170), (30, 140, 70), (240, 200, 40), (240, 120, 20), (110, 40, 140), (230, 230, 225)]
        base = base[int(rng.integers(len(base)))]
        d.rectangle([P(X0), P(Y0), P(X0 + cw), P(Y0 + ch)], fill=base + (255,))
        for k in range(int(rng.integers(2, 6))):
            c = tuple(int(v) for v in rng.integers(30, 255, 3)) + (255,)
            r = rng.uniform(5, 20)
            ex, ey = X0 + rng.uniform(0, cw), Y0 + rng.uniform(0, ch)
            d.ellipse([P(ex - r), P(ey - r), P(ex + r), P(ey + r)], fill=c)
        name = str(rng.choice(["CRUNCH", "Mango Tea", "OAT BAR", "Bolt Nuts", "SPARK", "Dino Gum", "FIZZ"]))
        d.text((P(X0 + 4), P(Y0 + 3)), name, fill=(255, 255, 255, 255), font=font(P(rng.uniform(7, 11))))
        cx = X0 + cw / 2 + rng.uniform(-1, 1) * max(0, (cw - code_w) / 2 - (ql + 2) * module - 3)
        cy = Y0 + ch - 6 - bar_h / 2 - 5 * module - rng.uniform(0, 8)
        pad_l, pad_r = (ql + 2) * module, (qr_ + 2) * module
        d.rectangle([P(cx - code_w / 2 - pad_l), P(cy - bar_h / 2 - 2), P(cx + code_w / 2 + pad_r),
                     P(cy + bar_h / 2 + 9 * module + 1)], fill=(250, 250, 248, 255))
        text_lines(d, P(X0 + 4), P(Y0 + 16), P(cw - 8), 2, P(2.4), (250, 250, 250, 255), rng)
        radius = 1.0
    else:  # receipt
        paper = tuple(int(v) for v in (rng.integers(236, 250), rng.integers(236, 250), rng.integers(234, 248)))
        d.rectangle([P(X0), P(Y0), P(X0 + cw), P(Y0 + ch)], fill=paper + (255,))
        grey = int(rng.integers(70, 140))
        d.text((P(X0 + 6), P(Y0 + 4)), str(rng.choice(["BTERM ARCADE", "CARD SHOP", "GAME CORNER"])),
               fill=(grey, grey, grey, 255), font=font(P(4.5)))
        text_lines(d, P(X0 + 4), P(Y0 + 13), P(cw - 8), int(rng.integers(4, 9)), P(2.6), (grey, grey, grey, 255), rng)
        cx = X0 + cw / 2
        cy = Y0 + ch - 14 - bar_h / 2
        hri = (text, cy + bar_h / 2 + 1.2, 2.6) if sym == "code128" else None
        radius = 0.2

    if linear and sym != "code128":
        # EAN/UPC digits under the bars, between the long guard bars
        f = font(P(module * 8))
        yt = cy + bar_h / 2 + 0.2 * module
        left = cx - code_w / 2
        def put(s, mx):  # noqa: E306
            d.text((P(left + mx * module), P(yt)), s, fill=ink_srgb, font=f, anchor="mt")
        if sym == "ean13":
            put(text[0], -6)
            for k, ch_ in enumerate(text[1:7]):
                put(ch_, 3 + 7 * k + 3.5)
            for k, ch_ in enumerate(text[7:]):
                put(ch_, 50 + 7 * k + 3.5)
        elif sym == "upca":
            put(text[0], -5)
            for k, ch_ in enumerate(text[1:6]):
                put(ch_, 10 + 7 * k + 3.5)
            for k, ch_ in enumerate(text[6:11]):
                put(ch_, 50 + 7 * k + 3.5)
            put(text[11], 100)
        else:
            for k, ch_ in enumerate(text[:4]):
                put(ch_, 3 + 7 * k + 3.5)
            for k, ch_ in enumerate(text[4:]):
                put(ch_, 36 + 7 * k + 3.5)
    if hri:
        s, y, size = hri
        d.text((P(cx), P(y)), s, fill=ink_srgb, font=font(P(size)), anchor="mt")

    # to linear premultiplied, with an antialiased outline
    arr = np.asarray(img)
    rgb = to_linear(arr[..., :3])
    mask = rounded_mask((tw, th), [P(X0), P(Y0), P(X0 + cw), P(Y0 + ch)], P(radius))
    alpha = np.minimum(arr[..., 3] / 255.0, mask)
    tex = np.concatenate([rgb * alpha[..., None], alpha[..., None]], axis=2)

    # the code itself
    mpx = module * tpm
    if linear:
        cov = linear_coverage(modules, mpx, bar_h * tpm, sym, spread)
    else:
        cov = matrix_coverage(modules, mpx, spread * 0.6)
    density = 1.0
    if kind == "receipt":
        # thermal print: weak and uneven darkness, a dead heating dot or two
        density = rng.uniform(0.45, 0.8) if deg == "thermal" else rng.uniform(0.75, 0.95)
        fade = np.linspace(rng.uniform(0.7, 1.0), rng.uniform(0.7, 1.0), cov.shape[1], dtype=np.float32)
        cov = cov * fade[None, :]
        if rng.random() < 0.5:
            for _ in range(int(rng.integers(1, 3))):
                xcol = rng.uniform(0.05, 0.95) * cov.shape[1]
                wcol = max(0.35, dot * tpm)
                xs = np.arange(cov.shape[1]) + 0.5
                gap = np.clip(wcol / 2 + 0.5 - np.abs(xs - xcol), 0, 1)
                cov = cov * (1 - gap[None, :] * 0.85)
    bx = int(round(P(cx) - cov.shape[1] / 2))
    by = int(round(P(cy) - (bar_h * tpm) / 2))
    place_code(tex, cov * density, bx, by, ink)
    ox, oy = bx + cov.shape[1] / 2, by + bar_h * tpm / 2

    # the hand holding it
    skin = SKIN[int(rng.integers(len(SKIN)))]
    tip = tdir = None
    side = None
    code_box = (cx - code_w / 2, cy - bar_h / 2, cx + code_w / 2, cy + bar_h / 2)
    if deg == "thumb":
        # a thumb reaching over one end of the code
        side = str(rng.choice(["left", "right"])) if linear else str(rng.choice(["left", "right", "bottom"]))
        bite = rng.uniform(-0.04, 0.14 if linear else 0.3) * code_w
        if side == "left":
            tip = (code_box[0] + bite, cy + rng.uniform(-0.3, 0.6) * bar_h)
            tdir = (-0.95, rng.uniform(0.1, 0.5))
        elif side == "right":
            tip = (code_box[2] - bite, cy + rng.uniform(-0.3, 0.6) * bar_h)
            tdir = (0.95, rng.uniform(0.1, 0.5))
        else:
            tip = (cx + rng.uniform(-0.4, 0.4) * code_w, code_box[3] - bite)
            tdir = (rng.uniform(-0.3, 0.3), 1.0)
    elif kind == "receipt":
        side = "top"
        tip = (X0 + cw * rng.uniform(0.3, 0.7), Y0 + rng.uniform(3, 8))
        tdir = (rng.uniform(-0.3, 0.3), -1.0)
    else:
        # keep the thumb off the code and its quiet zone
        for _ in range(20):
            side = str(rng.choice(["left", "right", "bottom"]))
            if side == "left":
                tip = (X0 + rng.uniform(3, 9), Y0 + ch * rng.uniform(0.5, 0.9))
                tdir = (-0.9, 0.45)
            elif side == "right":
                tip = (X0 + cw - rng.uniform(3, 9), Y0 + ch * rng.uniform(0.5, 0.9))
                tdir = (0.9, 0.45)
            else:
                tip = (X0 + cw * rng.uniform(0.1, 0.9), Y0 + ch - rng.uniform(2, 6))
                tdir = (rng.uniform(-0.3, 0.3), 1.0)
            qz = (ql + 1) * module
            if not (code_box[0] - qz - 10 < tip[0] < code_box[2] + qz + 10 and code_box[1] - 12 < tip[1] < code_box[3] + 12):
                break
    add_hand(tex, tpm, mmbox, rng, skin, tip, tdir, side)
    return Carrier(tex, tpm, ox, oy, code_w, bar_h, quiet=(ql + qr_ + n) / n)


def make_phone(sym, text, modules, rng):
    """A phone showing the code; the texture is at screen-pixel resolution
    and carries a screen mask so the warp can draw its RGB subpixels."""
    pitch = rng.uniform(0.058, 0.085)  # mm per screen pixel (300-440 ppi)
    tpm = 1.0 / pitch
    linear = sym != "qr"
    mpx = int(rng.integers(4, 7)) if linear else int(rng.integers(11, 19))
    n = len(modules) if linear else modules.shape[0]
    pw, ph = rng.uniform(66, 76), rng.uniform(138, 158)
    margin = 28.0
    tw, th = int((pw + 2 * margin) * tpm), int((ph + 2 * margin) * tpm)
    P = lambda v: v * tpm  # noqa: E731
    X0, Y0 = margin, margin
    sx0, sy0, sx1, sy1 = X0 + 3, Y0 + 9, X0 + pw - 3, Y0 + ph - 9
    img = Image.new("RGB", (tw, th), (0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rectangle([P(sx0), P(sy0), P(sx1), P(sy1)], fill=(246, 246, 248))
    bar = tuple(int(v) for v in rng.integers(20, 180, 3))
    d.rectangle([P(sx0), P(sy0), P(sx1), P(sy0 + 12)], fill=bar)
    d.text((P(sx0 + 4), P(sy0 + 3)), str(rng.choice(["Wallet", "bterm", "My Cards", "Tickets"])), fill=(255, 255, 255), font=font(P(5)))
    code_w_px = n * mpx
    scr_w = P(sx1 - sx0)
    if code_w_px > scr_w * 0.92:
        mpx = max(2, int(scr_w * 0.92 / n))
        code_w_px = n * mpx
    bar_h_px = int(code_w_px * (0.3 if sym == "code128" else 0.6)) if linear else code_w_px
    cxp = P((sx0 + sx1) / 2)
    cyp = P(sy0 + 30) + bar_h_px / 2 + rng.uniform(0, P(20))
    if linear:
        cov = linear_coverage(modules, float(mpx), float(bar_h_px), sym, 0.0, sub=4)
    else:
        cov = matrix_coverage(modules, float(mpx), 0.0, sub=2)
    bx, by = int(cxp - cov.shape[1] / 2), int(cyp - bar_h_px / 2)
    d.text((cxp, by + cov.shape[0] + P(2)), text, fill=(40, 40, 40), font=font(P(3.2)), anchor="mt")
    text_lines(d, P(sx0 + 4), by + cov.shape[0] + P(9), P(sx1 - sx0 - 8), 3, P(2.6), (120, 120, 130), rng)
    rgb = to_linear(np.asarray(img))
    c = cov[..., None]
    region = rgb[by:by + cov.shape[0], bx:bx + cov.shape[1]]
    region[:] = region * (1 - c) + 0.0 * c
    screen = rounded_mask((tw, th), [P(sx0), P(sy0), P(sx1), P(sy1)], P(3))
    body = rounded_mask((tw, th), [P(X0), P(Y0), P(X0 + pw), P(Y0 + ph)], P(8))
    bright = rng.uniform(1.1, 2.2)
    black = rng.uniform(0.004, 0.03)  # LCD leak
    body_col = lin_color(tuple(int(v) for v in rng.integers(15, 60, 3)))
    col = screen[..., None] * (black + rgb * bright) + (1 - screen[..., None]) * body_col
    tex = np.concatenate([col * body[..., None], body[..., None]], axis=2)
    skin = SKIN[int(rng.integers(len(SKIN)))]
    thumb = add_hand(tex, tpm, (X0, Y0, X0 + pw, Y0 + ph), rng, skin,
                     (X0 + pw * rng.uniform(0.2, 0.8), Y0 + ph - rng.uniform(4, 8)), (rng.uniform(-0.4, 0.4), 1.0), "bottom")
    if thumb is not None:
        alpha, (y0, y1, x0, x1) = thumb
        screen[y0:y1, x0:x1] *= 1 - alpha
    ox, oy = bx + cov.shape[1] / 2, by + bar_h_px / 2
    ql, qr_ = QUIET[sym]
    return Carrier(tex, tpm, ox, oy, code_w_px * pitch, bar_h_px * pitch, screen=screen, light=False,
                   quiet=(ql + qr_ + n) / n)


# ----------------------------------------------------------------- scenes


def scene(kind, rng):
    """A background, 1280x720 sRGB uint8, drawn at half size and enlarged
    (the webcam is focused on the card, the room is soft)."""
    w, h = W // 2, H // 2
    img = Image.new("RGB", (w, h))
    d = ImageDraw.Draw(img)
    R = lambda lo, hi: int(rng.integers(lo, hi))  # noqa: E731

    def vgrad(c0, c1, box=(0, 0, w, h)):
        x0, y0, x1, y1 = box
        for y in range(y0, y1):
            t = (y - y0) / max(1, y1 - y0 - 1)
            d.line([(x0, y), (x1, y)], fill=tuple(int(a + (b - a) * t) for a, b in zip(c0, c1)))

    if kind in ("room", "wall", "window"):
        wall = (R(120, 220), R(110, 210), R(100, 200))
        vgrad(tuple(min(255, c + 25) for c in wall), tuple(max(0, c - 40) for c in wall))
        if kind == "window":
            wx0, wy0 = R(20, 300), R(10, 60)
            wx1, wy1 = wx0 + R(200, 320), wy0 + R(180, 260)
            vgrad((R(200, 240), R(220, 250), 255), (250, 250, 250), (wx0, wy0, wx1, wy1))
            d.rectangle([wx0, wy0, wx1, wy1], outline=(235, 235, 230), width=8)
            d.line([((wx0 + wx1) // 2, wy0), ((wx0 + wx1) // 2, wy1)], fill=(235, 235, 230), width=6)
            d.rectangle([wx0 - 40, wy0 - 10, wx0 - 5, wy1 + 60], fill=(R(60, 160), R(40, 120), R(40, 120)))
        elif kind == "wall":
            sx, sy = R(40, 600), R(120, 250)
            d.rounded_rectangle([sx, sy, sx + 26, sy + 40], radius=3, fill=(240, 240, 235))
            d.rectangle([sx + 9, sy + 12, sx + 17, sy + 28], fill=(220, 220, 215))
            px_, py_ = R(0, 500), R(0, 120)
            d.rectangle([px_, py_, px_ + R(80, 160), py_ + R(100, 180)], fill=(R(30, 230), R(30, 230), R(30, 230)),
                        outline=(40, 30, 20), width=4)
        else:
            dx_ = R(0, 560)
            d.rectangle([dx_, 30, dx_ + 110, h], fill=tuple(max(0, c - R(20, 60)) for c in wall),
                        outline=(230, 230, 225), width=5)
        if kind in ("room", "window") or rng.random() < 0.5:
            # the person holding the card
            fx, fy = R(200, 440), R(130, 190)
            skin = SKIN[R(0, len(SKIN))]
            shirt = (R(10, 200), R(10, 200), R(10, 200))
            d.ellipse([fx - 170, fy + 110, fx + 170, fy + 420], fill=shirt)
            d.rectangle([fx - 28, fy + 50, fx + 28, fy + 130], fill=tuple(int(c * 0.85) for c in skin))
            hair = (R(10, 90), R(5, 70), R(0, 50))
            d.ellipse([fx - 72, fy - 95, fx + 72, fy + 40], fill=hair)
            d.ellipse([fx - 62, fy - 75, fx + 62, fy + 85], fill=skin)
            for ex in (-24, 24):
                d.ellipse([fx + ex - 9, fy - 8, fx + ex + 9, fy + 4], fill=(245, 245, 245))
                d.ellipse([fx + ex - 4, fy - 6, fx + ex + 4, fy + 3], fill=(40, 30, 25))
                d.line([(fx + ex - 12, fy - 18), (fx + ex + 12, fy - 20)], fill=hair, width=4)
            d.polygon([(fx, fy), (fx - 8, fy + 30), (fx + 6, fy + 32)], fill=tuple(int(c * 0.82) for c in skin))
            d.arc([fx - 20, fy + 35, fx + 20, fy + 58], 20, 160, fill=(150, 70, 70), width=3)
    elif kind == "keyboard":
        vgrad((R(20, 60),) * 3, (R(50, 90),) * 3)
        d.rectangle([0, 0, w, R(40, 110)], fill=(R(10, 40), R(10, 40), R(15, 50)))  # monitor bezel
        kb = (R(20, 70),) * 3
        top = R(100, 160)
        d.rounded_rectangle([10, top, w - 10, h + 20], radius=10, fill=kb)
        key = R(34, 44)
        f = font(11)
        letters = "QWERTYUIOPASDFGHJKLZXCVBNM1234567890"
        for row in range(6):
            y = top + 10 + row * (key + 5)
            x = 18 + row * 9
            while x + key < w - 18:
                kw = key * (2 if rng.random() < 0.08 else 1)
                cap = tuple(min(255, c + R(25, 45)) for c in kb)
                d.rounded_rectangle([x, y, x + kw, y + key], radius=5, fill=cap)
                d.rounded_rectangle([x + 4, y + 3, x + kw - 4, y + key - 7], radius=4, fill=tuple(min(255, c + 12) for c in cap))
                d.text((x + 8, y + 6), letters[R(0, len(letters))], fill=(210, 210, 210), font=f)
                x += kw + 5
    elif kind == "desk":
        wood = (R(120, 190), R(80, 130), R(40, 80))
        img_a = np.zeros((h, w, 3), np.float32) + np.array(wood, np.float32)
        yy = np.arange(h, dtype=np.float32)[:, None]
        xx = np.arange(w, dtype=np.float32)[None, :]
        grain = np.sin(yy * 0.35 + 3 * np.sin(xx * 0.01 + yy * 0.02)) * 10 + np.sin(yy * 1.7 + xx * 0.004) * 5
        img_a += grain[..., None]
        img = Image.fromarray(np.clip(img_a, 0, 255).astype(np.uint8))
        d = ImageDraw.Draw(img)
        for _ in range(R(2, 4)):
            sheet = Image.new("RGBA", (R(180, 240), R(240, 300)), (R(235, 252), R(235, 252), R(230, 248), 255))
            sd = ImageDraw.Draw(sheet)
            text_lines(sd, 14, 18, sheet.width - 28, 12, 9, (90, 90, 100, 255), rng)
            sheet = sheet.rotate(rng.uniform(-40, 40), expand=True, resample=Image.BILINEAR)
            img.paste(sheet, (R(-60, w - 120), R(-60, h - 120)), sheet)
        mx, my = R(40, w - 120), R(40, h - 120)
        d.ellipse([mx, my, mx + 90, my + 90], fill=(R(100, 240), R(30, 200), R(30, 200)))
        d.ellipse([mx + 12, my + 12, mx + 78, my + 78], fill=(60, 35, 20))
        d.line([(R(0, w), R(0, h)), (R(0, w), R(0, h))], fill=(20, 20, 120), width=5)
    else:  # shelf
        vgrad((R(60, 110), R(40, 80), R(20, 50)), (R(30, 60), R(20, 40), R(10, 30)))
        for shelf_y in (R(110, 150), R(250, 300)):
            x = R(0, 20)
            while x < w:
                bw, bh = R(10, 34), R(70, 110)
                c = (R(20, 230), R(20, 230), R(20, 230))
                d.rectangle([x, shelf_y - bh, x + bw, shelf_y], fill=c)
                if bw > 18:
                    d.rectangle([x + 3, shelf_y - bh + 12, x + bw - 3, shelf_y - bh + 18], fill=(230, 220, 180))
                x += bw + R(0, 3)
            d.rectangle([0, shelf_y, w, shelf_y + 10], fill=(90, 60, 35))
    return img.resize((W, H), Image.BICUBIC).filter(ImageFilter.GaussianBlur(rng.uniform(0.8, 1.6)))


# ----------------------------------------------------------------- camera


def rotation(roll, tilt_x, tilt_y):
    cz, sz = math.cos(roll), math.sin(roll)
    cx, sx = math.cos(tilt_x), math.sin(tilt_x)
    cy, sy = math.cos(tilt_y), math.sin(tilt_y)
    Rz = np.array([[cz, -sz, 0], [sz, cz, 0], [0, 0, 1]])
    Rx = np.array([[1, 0, 0], [0, cx, -sx], [0, sx, cx]])
    Ry = np.array([[cy, 0, sy], [0, 1, 0], [-sy, 0, cy]])
    return Rx @ Ry @ Rz


def homography(R, T, car):
    K = np.array([[FOCAL, 0, CX], [0, FOCAL, CY], [0, 0, 1.0]])
    s = 1.0 / car.tpm
    A = np.array([[s, 0, -car.ox * s], [0, s, -car.oy * s], [0, 0, 1.0]])
    return K @ np.column_stack([R[:, 0], R[:, 1], T]) @ A


def project(Hm, pts):
    p = np.column_stack([pts, np.ones(len(pts))]) @ Hm.T
    return p[:, :2] / p[:, 2:3]


def warp(car, Hm, shear=0.0, wobble=None, ss=1, pad=0):
    """Render the carrier into frame space: premultiplied RGBA over the
    projected bounding box (returned with the box). Bilinear, no prefilter
    (the texture is drawn at about the frame's resolution)."""
    th, tw = car.tex.shape[:2]
    corners = project(Hm, np.array([[0, 0], [tw, 0], [tw, th], [0, th]], float))
    corners[:, 0] += shear * (corners[:, 1] - CY)
    pad = pad + 4 + (3 if wobble is not None else 0)
    x0 = int(max(0, math.floor(corners[:, 0].min()) - pad))
    x1 = int(min(W, math.ceil(corners[:, 0].max()) + pad))
    y0 = int(max(0, math.floor(corners[:, 1].min()) - pad))
    y1 = int(min(H, math.ceil(corners[:, 1].max()) + pad))
    Hi = np.linalg.inv(Hm)
    if x1 <= x0 or y1 <= y0:
        return np.zeros((0, 0, 4), np.float32), (0, 0, 0, 0)
    if car.screen is None:
        # output (x, y) of the box is frame (x + x0, y + y0), sheared back
        M = Hi @ np.array([[1, -shear, shear * CY], [0, 1, 0], [0, 0, 1.0]]) @ np.array([[1, 0, x0], [0, 1, y0], [0, 0, 1.0]])
        M = M / M[2, 2]
        coeffs = tuple(M.ravel()[:8])
        acc = np.stack([np.asarray(Image.fromarray(np.ascontiguousarray(car.tex[..., c], dtype=np.float32), "F").transform(
            (x1 - x0, y1 - y0), Image.PERSPECTIVE, coeffs, Image.BILINEAR)) for c in range(4)], -1)
        if wobble is not None:
            # rows read at different moments see the card at different places
            shift = wobble(np.arange(y0, y1, dtype=np.float32) + 0.5)
            xs = np.arange(x1 - x0, dtype=np.float32)[None, :] - shift[:, None]
            ix = np.clip(np.floor(xs), 0, x1 - x0 - 2).astype(np.int32)
            fx = np.clip(xs - ix, 0, 1)[..., None]
            rows = np.arange(y1 - y0)[:, None]
            acc = acc[rows, ix] * (1 - fx) + acc[rows, ix + 1] * fx
        return acc, (x0, y0, x1, y1)
    tex = np.pad(car.tex, ((1, 1), (1, 1), (0, 0)))
    scr = np.pad(car.screen, 1) if car.screen is not None else None
    acc = np.zeros((y1 - y0, x1 - x0, 4), np.float32)
    offs = [(k + 0.5) / ss for k in range(ss)]
    yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float64)
    for oy in offs:
        for ox in offs:
            X = xx + ox
            Y = yy + oy
            X = X - shear * (Y - CY)
            if wobble is not None:
                X = X - wobble(Y)
            den = Hi[2, 0] * X + Hi[2, 1] * Y + Hi[2, 2]
            u = (Hi[0, 0] * X + Hi[0, 1] * Y + Hi[0, 2]) / den
            v = (Hi[1, 0] * X + Hi[1, 1] * Y + Hi[1, 2]) / den
            if scr is None:
                # bilinear, texel centres at +0.5, +1 for the zero border
                uu, vv = u + 0.5, v + 0.5
                iu, iv = np.floor(uu), np.floor(vv)
                fu, fv = (uu - iu).astype(np.float32)[..., None], (vv - iv).astype(np.float32)[..., None]
                iu = np.clip(iu, 0, tw).astype(np.int32)
                iv = np.clip(iv, 0, th).astype(np.int32)
                iu1, iv1 = np.minimum(iu + 1, tw + 1), np.minimum(iv + 1, th + 1)
                s = (tex[iv, iu] * (1 - fu) * (1 - fv) + tex[iv, iu1] * fu * (1 - fv)
                     + tex[iv1, iu] * (1 - fu) * fv + tex[iv1, iu1] * fu * fv)
            else:
                # a screen: nearest screen pixel, lit through its RGB stripes
                iu = np.clip(np.floor(u) + 1, 0, tw + 1).astype(np.int32)
                iv = np.clip(np.floor(v) + 1, 0, th + 1).astype(np.int32)
                s = tex[iv, iu].copy()
                fu = (u - np.floor(u)).astype(np.float32)
                fv = (v - np.floor(v)).astype(np.float32)
                lit = (fv < 0.82).astype(np.float32)
                sub = np.stack([(fu > 0.03) & (fu < 0.30), (fu > 0.36) & (fu < 0.63), (fu > 0.69) & (fu < 0.96)], -1)
                mask = sub.astype(np.float32) * lit[..., None] / (0.27 * 0.82)
                m = scr[iv, iu][..., None]
                s[..., :3] = s[..., :3] * (1 - m) + s[..., :3] * m * mask
            acc += s
    acc /= ss * ss
    return acc, (x0, y0, x1, y1)


def barrel(img, k1, tile=40):
    """Cheap wide lens: barrel distortion, `k1` at the corners."""
    def src(x, y):
        nx, ny = x - CX, y - CY
        f = 1 + k1 * (nx * nx + ny * ny) / (CX * CX + CY * CY)
        return min(max(CX + nx * f, 0.0), W - 0.01), min(max(CY + ny * f, 0.0), H - 0.01)
    mesh = []
    for y in range(0, H, tile):
        for x in range(0, W, tile):
            quad = []
            for qx, qy in ((x, y), (x, y + tile), (x + tile, y + tile), (x + tile, y)):
                quad += src(qx, qy)
            mesh.append(((x, y, x + tile, y + tile), tuple(quad)))
    return np.stack([np.asarray(Image.fromarray(np.ascontiguousarray(img[..., c], dtype=np.float32), "F").transform(
        (W, H), Image.MESH, mesh, Image.BILINEAR)) for c in range(img.shape[2])], -1)


# ----------------------------------------------------------------- one frame


def make_frame(index, sym, deg, seed):
    rng = np.random.default_rng([seed, index])
    text = payload(sym, rng)
    modules = symbol_modules(sym, text, rng)
    linear = sym != "qr"
    kind = "phone" if deg == "screen" else "receipt" if deg == "thermal" else "package" if sym in ("ean13", "upca", "ean8") else "card"
    if kind == "card" and rng.random() < 0.12 and deg not in ("cast",):
        kind = "receipt"

    # how big the code is in the frame, and how it is held
    if deg == "far":
        target = rng.uniform(118, 150) if linear else rng.uniform(118, 132)
    elif linear:
        target = math.exp(rng.uniform(math.log(175), math.log(560)))
    else:
        target = math.exp(rng.uniform(math.log(130), math.log(420)))
    r = rng.random()
    if r < 0.55:
        roll = rng.normal(0, 8)
    elif r < 0.75:
        roll = rng.uniform(-40, 40)
    elif r < 0.87:
        roll = rng.uniform(0, 360)
    else:
        roll = 180 + rng.normal(0, 8)
    if deg == "tilt":
        mag = rng.uniform(24, 38)
        a = rng.uniform(0, 2 * math.pi)
        tx, ty = mag * math.sin(a), mag * math.cos(a)
    else:
        tx, ty = np.clip(rng.normal(0, 9, 2), -20, 20)
    R = rotation(math.radians(roll), math.radians(tx), math.radians(ty))

    cast = int(rng.integers(len(CASTS)))
    car = make_carrier(kind, sym, text, modules, target, rng, deg, cast)
    Z = FOCAL * car.code_w_mm / target

    # where the code's centre lands: keep the code and its quiet zone inside
    if deg == "corner":
        want = np.array([CX + rng.choice([-1, 1]) * rng.uniform(330, 430), CY + rng.choice([-1, 1]) * rng.uniform(150, 200)])
    else:
        want = np.array([CX + rng.normal(0, 150), CY + rng.normal(0, 70)])
    hw, hh = car.code_w_mm / 2 * car.quiet + 1, car.code_h_mm / 2 + 3
    box_mm = np.array([[-hw, -hh], [hw, -hh], [hw, hh], [-hw, hh]])
    for attempt in range(40):
        T = np.array([(want[0] - CX) * Z / FOCAL, (want[1] - CY) * Z / FOCAL, Z])
        Hm = homography(R, T, car)
        q = project(Hm, box_mm * car.tpm + np.array([car.ox, car.oy]))
        if q[:, 0].min() > 6 and q[:, 0].max() < W - 6 and q[:, 1].min() > 6 and q[:, 1].max() < H - 6:
            break
        want = want + (np.array([CX, CY]) - want) * 0.25
        if attempt > 8:
            Z *= 1.05
    ends = project(Hm, np.array([[car.ox - car.code_w_mm / 2 * car.tpm, car.oy],
                                 [car.ox + car.code_w_mm / 2 * car.tpm, car.oy]]))
    code_px = float(np.hypot(*(ends[1] - ends[0])))
    module_px = max(0.5, target / (len(modules) if linear else modules.shape[0]))

    # the motion of the hand: rolling-shutter shear, wobble, motion blur
    shear, wobble, mlen = 0.0, None, rng.uniform(0, 1.2)
    if deg == "motion":
        mlen = min(40.0, module_px * rng.uniform(0.4, 1.5) + rng.uniform(1, 3))
    if deg == "skew":
        shear = rng.choice([-1, 1]) * rng.uniform(0.08, 0.3)
        amp, per, ph = rng.uniform(0.8, 3.0), rng.uniform(300, 1400), rng.uniform(0, 6.3)
        wobble = lambda y: amp * np.sin(y / per * 2 * np.pi + ph)  # noqa: E731
        mlen = rng.uniform(1, 4)
    radius = rng.uniform(0.3, 1.1)
    if deg == "blur":
        radius = max(1.5, module_px * rng.uniform(0.45, 1.05))
    elif deg == "dark":
        mlen += rng.uniform(0, 3)  # long exposure
    kernel = blur_kernel(radius, mlen, rng.uniform(0, math.pi))
    layer, (x0, y0, x1, y1) = warp(car, Hm, shear, wobble, ss=3 if kind == "phone" else 1, pad=kernel.shape[0] // 2)
    if (x1 - x0) > 0 and (y1 - y0) > 0:
        layer = convolve_fft(layer, kernel)

    # the room, lit unevenly, and the light's colour
    bg_kind = str(rng.choice(["room", "room", "room", "keyboard", "desk", "wall", "shelf", "window"]))
    if deg == "dark" and rng.random() < 0.4:
        bg_kind = "window"
    bg = to_linear(np.asarray(scene(bg_kind, rng)))
    if bg_kind == "window":
        bg *= rng.uniform(1.2, 2.5)
    gx, gy = rng.normal(0, 0.25, 2)
    yy, xx = YY, XX
    illum = 1.0 + gx * (xx - CX) / W + gy * (yy - CY) / H
    lx, ly = rng.uniform(0, W), rng.uniform(0, H / 2)
    illum += rng.uniform(0, 0.6) * np.exp(-((xx - lx) ** 2 + (yy - ly) ** 2) / (2 * rng.uniform(200, 500) ** 2))
    illum = np.clip(illum, 0.3, 2.0).astype(np.float32)[..., None]
    frame = bg * illum
    card_light = rng.uniform(0.75, 1.1)
    a = layer[..., 3:4]
    sub = frame[y0:y1, x0:x1]
    if car.lit:
        lay = layer[..., :3] * illum[y0:y1, x0:x1] * card_light
    else:
        lay = layer[..., :3]
        # a window or lamp reflected on the glass
        refl = rng.uniform(0.02, 0.12) if deg != "screen" else rng.uniform(0.05, 0.35)
        ang = rng.uniform(0, math.pi)
        band = np.cos(ang) * (xx[y0:y1, x0:x1] - (x0 + x1) / 2) + np.sin(ang) * (yy[y0:y1, x0:x1] - (y0 + y1) / 2)
        lay = lay + refl * np.exp(-(band / rng.uniform(40, 160)) ** 2)[..., None] * a
    sub[:] = sub * (1 - a) + lay

    # a specular hotspot on a glossy card
    if deg == "glare" or (kind in ("card", "package") and rng.random() < 0.2):
        cc = project(Hm, np.array([[car.ox, car.oy]]))[0]
        off = rng.normal(0, 0.22, 2) * code_px
        sig = code_px * (rng.uniform(0.12, 0.3) if deg == "glare" else rng.uniform(0.05, 0.12))
        amp = rng.uniform(0.7, 2.8) if deg == "glare" else rng.uniform(0.2, 0.8)
        ratio = rng.uniform(0.4, 1.0)
        ang = rng.uniform(0, math.pi)
        px_, py_ = xx[y0:y1, x0:x1] - cc[0] - off[0], yy[y0:y1, x0:x1] - cc[1] - off[1]
        u_ = np.cos(ang) * px_ + np.sin(ang) * py_
        v_ = -np.sin(ang) * px_ + np.cos(ang) * py_
        spot = amp * np.exp(-(u_ ** 2 + (v_ / ratio) ** 2) / (2 * sig ** 2))
        sub += spot[..., None] * a * np.array([1.0, 0.97, 0.9], np.float32)

    # lens: softness, vignetting, barrel distortion
    frame = gblur(frame.astype(np.float32), rng.uniform(0.35, 0.6))
    rr = RR
    vig = rng.uniform(0.5, 0.75) if deg == "corner" else rng.uniform(0.1, 0.35)
    frame *= (1 - vig * rr)[..., None]
    frame = barrel(frame, rng.uniform(0.06, 0.1) if deg == "corner" else rng.uniform(0.0, 0.04))

    # the light's colour (the white balance does not quite undo it)
    if deg == "cast":
        tint = np.array(CASTS[cast][0], np.float32) + rng.uniform(0, 0.15)
    else:
        tint = np.clip(1 + rng.normal(0, 0.07, 3), 0.8, 1.2).astype(np.float32)
    frame *= tint

    # sensor: photons, noise, auto-exposure
    lux = rng.uniform(0.02, 0.07) if deg == "dark" else rng.uniform(0.3, 1.0)
    luma = frame[..., 0] * 0.3 + frame[..., 1] * 0.59 + frame[..., 2] * 0.11
    weight = np.exp(-rr * 2.0)
    mean = float((luma * weight).sum() / weight.sum()) * lux
    gmax = 10.0
    gain = min(gmax, max(0.3, 0.2 / max(mean, 1e-4)))
    if deg == "bright":
        gain *= rng.uniform(2.2, 4.0)
    elif deg == "dark":
        gain *= rng.uniform(0.5, 0.9)
    else:
        gain *= math.exp(rng.normal(0, 0.2))
    raw = np.maximum(frame, 0) * (lux * FULL_WELL)
    noise = rng.standard_normal(raw.shape, dtype=np.float32) * np.sqrt(raw + READ_NOISE ** 2)
    colfpn = rng.normal(0, 1.5 if deg == "dark" else 0.5, W).astype(np.float32)[None, :, None]
    out = (raw + noise + colfpn) * (gain / FULL_WELL)
    if deg == "bright":
        # blooming: light past white spills into its neighbours
        excess = np.maximum(out - 1.0, 0)
        out = out + gblur(excess, rng.uniform(2, 5)) * rng.uniform(0.4, 0.9) + rng.uniform(0.02, 0.08)

    # the webcam's processing: noise reduction (chroma more), tone curve,
    # sharpening, JPEG
    out = np.clip(out, 0, 1.2)
    y_ = out[..., 0] * 0.3 + out[..., 1] * 0.59 + out[..., 2] * 0.11
    chroma = out - y_[..., None]
    nr = 0.4 + min(1.0, 0.06 * math.sqrt(gain / lux))
    y_ = gblur(y_[..., None], nr)[..., 0]
    chroma = gblur(chroma[::2, ::2], 1.2)
    chroma = np.repeat(np.repeat(chroma, 2, 0), 2, 1)[:H, :W]
    out = y_[..., None] + chroma
    srgb = to_srgb(out)
    contrast = rng.uniform(0.05, 0.25)
    srgb = srgb + contrast * (srgb - 0.5) * (1 - np.abs(2 * srgb - 1))
    img = Image.fromarray(np.clip(srgb * 255 + 0.5, 0, 255).astype(np.uint8))
    img = img.filter(ImageFilter.UnsharpMask(radius=rng.uniform(1.0, 2.0), percent=int(rng.integers(40, 140)), threshold=2))
    if deg == "jpeg":
        buf = io.BytesIO()
        img.save(buf, "JPEG", quality=int(rng.integers(10, 26)))
        img = Image.open(io.BytesIO(buf.getvalue())).convert("RGB")
    buf = io.BytesIO()
    img.save(buf, "JPEG", quality=int(rng.integers(80, 89)), subsampling=2)
    centre = project(Hm, np.array([[car.ox, car.oy]]))[0]
    info = dict(kind=kind, bg=bg_kind, centre=(round(float(centre[0])), round(float(centre[1]))), target=round(target), code_px=round(code_px), roll=round(roll),
                tilt=(round(float(tx)), round(float(ty))), module_px=round(module_px, 2))
    return buf.getvalue(), text, info


README = """# webcam3: webcam-like frames, one barcode each

{n} frames of 1280x720 as a cheap USB webcam sends them (MJPEG: JPEG quality
80-88, 4:2:0 chroma), each showing one barcode held up to the camera, made by
`scripts/make_webcam3.py` (`python scripts/make_webcam3.py barcodes/webcam3
{seed} --check`; the same seed gives the same files). `expected.tsv` gives
each file's text (`FILE<TAB>TEXT`: a QR code's whole text with its `BTERM:`
prefix, UPC-A as 12 digits). File names are
`w3-INDEX-SYMBOLOGY-DEGRADATION.jpg`, the degradation being the main one of
that frame; every frame also has the mild ones.

Symbols: Code 128 card numbers (`DA-017`, `DM-012`, `DB-001`), QR codes
holding `BTERM:` and a card number, EAN-13 and UPC-A product codes and a few
EAN-8, all with valid check digits ({mix}).

How a frame is made: the code is printed on a carrier - an ID-like card with
a coloured header, art and text (Code 128, QR), a product box with the code
on a white label and its digits underneath (EAN/UPC), a thermal receipt, or
a phone screen - drawn flat at about the camera's resolution with a little
ink spread or thinning. A hand holds it: fingers behind one edge, a thumb
over the front (kept off the code unless the frame is a `thumb` one). The
carrier is placed in 3D in front of a pinhole camera (68 degrees wide) with
the code 120-600 px wide, turned to any angle (mostly near upright, some
upside down) and tilted up to 20 degrees (24-38 for `tilt`), then projected
over a background: a person in a room, a keyboard, a desk with papers and a
mug, a bare wall, a bookshelf, or a bright window behind. The light falls
unevenly and has a colour.

Every frame then goes through a camera: a small defocus and hand shake on the
card, lens softness, vignetting and a little barrel distortion, photon
(shot) and read noise that grow as the light gets dimmer, column noise,
auto-exposure, the webcam's noise reduction (colour smeared more than
brightness), a tone curve, over-sharpening with halos, and JPEG.

The main degradations:
- `blur`: the card out of the fixed-focus lens's focus: a blur disc with a
  radius of 0.45-1 module;
- `motion`: the card moving during the exposure: a smear of 0.4-1.5 modules
  (plus 1-3 px) in any direction;
- `skew`: a rolling shutter: the card moving sideways while the rows are read,
  so it is sheared, with a shake that bends the bars a little;
- `dark`: a dim room (or a bright window behind that the exposure follows):
  underexposed, the gain at its limit, heavy noise and noise reduction;
- `bright`: overexposed, white clipped and spilling over the bars (blooming),
  with a veil of flare;
- `glare`: a lamp's reflection on the glossy card: a white hotspot over part
  of the code;
- `thumb`: the thumb over one end of the code, or over part of the QR;
- `thermal`: a faded thermal-printer receipt: grey, uneven print, sometimes a
  dead heating dot leaving a thin white line through the bars;
- `screen`: the code on a phone: its RGB subpixels beat against the camera's
  pixels (moire), with a reflection on the glass;
- `tilt`: strong perspective;
- `far`: the code small in the frame (about 120-150 px; under 1.5 px a
  module for Code 128 and EAN/UPC);
- `jpeg`: a starved MJPEG stream: coded at quality 10-25 first (blocking,
  ringing), then stored at 80-88;
- `cast`: coloured light (an LED strip) on a code printed in an ink of about
  the same colour, so less contrast is left in grey;
- `corner`: the code near a corner, where vignetting and distortion are worst.

zxing-cpp 3.1.1 (`zxingcpp.read_barcodes` on the frame as grey, default
options) {reads}.

Licence: the script and these frames are the project's own work, MIT OR
Apache-2.0.
"""


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    if not args:
        sys.exit(__doc__)
    out = Path(args[0])
    seed = int(args[1]) if len(args) > 1 else 3
    check = "--check" in argv
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("w3-*.jpg"):
        old.unlink()
    order = np.random.default_rng(seed)
    syms = list(order.permutation(SYMBOLOGIES))
    degs = list(order.permutation(DEGRADATIONS))
    rows = []
    for i, (sym, deg) in enumerate(zip(syms, degs)):
        data, text, info = make_frame(i, str(sym), str(deg), seed)
        name = f"w3-{i:03d}-{sym}-{deg}.jpg"
        (out / name).write_bytes(data)
        rows.append((name, text, info))
        print(name, text, info, flush=True)
    (out / "expected.tsv").write_text("".join(f"{n}\t{t}\n" for n, t, _ in rows), encoding="utf-8")
    reads = "was not run on them (`--check` runs it)"
    if check:
        ok = 0
        for name, text, _ in rows:
            found = zxingcpp.read_barcodes(Image.open(out / name).convert("L"))
            got = {r.text for r in found}
            if text in got or (len(text) == 12 and "0" + text in got) or (len(text) == 13 and text[1:] in got and text[0] == "0"):
                ok += 1
            else:
                print("missed", name, text, got)
        reads = f"reads {ok} of the {len(rows)}"
        print(f"zxing-cpp reads {ok} of {len(rows)}")
    mix = ", ".join(f"{SYMBOLOGIES.count(s)} {s}" for s in FORMATS)
    (out / "README.md").write_text(README.format(n=len(rows), seed=seed, mix=mix, reads=reads), encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv)
