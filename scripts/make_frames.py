#!/usr/bin/env python3
"""A second, independent generator of webcam-like frames (`barcodes/frames/`).

bterm's own generator (`examples/make_scans.rs`) made the photo-like scans
the pipeline was first tuned on. This one shares no code with it: the codes
are drawn by zxing-cpp's writer, the pictures by Pillow and numpy, with
other backgrounds and other damage — wood, cloth and cluttered desks, uneven
light, barrel distortion of a cheap lens, motion blur, glare on a laminated
card, a finger over part of the card — so that a figure measured on them
says something about pictures bterm did not make.

Each frame is 1280×720 with one card on it: a Code 128 card number (as
bterm prints), a bterm QR card, or a product's EAN-13 or UPC-A. What each
should read is in `expected.tsv`. Seeded: the same files every time (with
the pinned zxing-cpp, Pillow and numpy).

usage: make_frames.py OUT_DIR [PER_KIND]   (needs zxing-cpp, Pillow, numpy)
"""
import io
import math
import sys
from pathlib import Path

import numpy as np
import zxingcpp
from PIL import Image, ImageDraw, ImageFilter

W, H = 1280, 720
KINDS = ["plain", "wood", "cloth", "clutter", "dim", "glare", "finger", "motion", "lens", "all"]


def ean_check(digits: str) -> str:
    total = sum(int(d) * (3 if i % 2 else 1) for i, d in enumerate(digits))
    return str((10 - total % 10) % 10)


def upca_check(digits: str) -> str:
    total = sum(int(d) * (3 if i % 2 == 0 else 1) for i, d in enumerate(digits))
    return str((10 - total % 10) % 10)


def code_for(rng):
    """A code a card or a product carries: (zxing-cpp format, text, expected)."""
    r = rng.random()
    if r < 0.45:
        n = f"DA-{rng.integers(1, 71):03d}"
        return zxingcpp.BarcodeFormat.Code128, n, n
    if r < 0.65:
        n = f"DA-{rng.integers(1, 71):03d}"
        return zxingcpp.BarcodeFormat.QRCode, f"BTERM:{n}", n
    if r < 0.85:
        body = "".join(str(d) for d in rng.integers(0, 10, 12))
        text = body + ean_check(body)
        return zxingcpp.BarcodeFormat.EAN13, text, text
    body = "0" + "".join(str(d) for d in rng.integers(0, 10, 10))
    text = body + upca_check(body)
    return zxingcpp.BarcodeFormat.UPCA, text, text


def symbol(fmt, text, module):
    code = zxingcpp.create_barcode(text, fmt)
    img = Image.fromarray(np.array(code.to_image(scale=module, add_quiet_zones=True))).convert("L")
    if fmt != zxingcpp.BarcodeFormat.QRCode:
        # Linear codes come one pixel tall per scale: make the bars tall.
        img = img.resize((img.width, max(img.width // 3, 40)), Image.NEAREST)
    return img


def card(rng, fmt, text):
    """A card face, upright: a border, art, a text box, and the code low on it."""
    cw = 630
    ch = 880
    face = Image.new("RGB", (cw, ch), tuple(int(v) for v in rng.integers(30, 220, 3)))
    d = ImageDraw.Draw(face)
    inner = (24, 24, cw - 24, ch - 24)
    d.rounded_rectangle(inner, 18, fill=(245, 242, 232))
    art = np.clip(rng.normal(128, 60, (40, 30, 3)), 0, 255).astype(np.uint8)
    art_img = Image.fromarray(art).resize((cw - 96, 380), Image.BICUBIC)
    face.paste(art_img, (48, 60))
    for k in range(4):
        y = 470 + k * 28
        d.rectangle((60, y, 60 + int(rng.integers(200, 500)), y + 10), fill=(90, 90, 90))
    module = 3 if fmt != zxingcpp.BarcodeFormat.QRCode else 8
    code = symbol(fmt, text, module)
    scale = min((cw - 110) / code.width, 260 / code.height)
    code = code.resize((int(code.width * scale), int(code.height * scale)), Image.NEAREST)
    face.paste(code.convert("RGB"), ((cw - code.width) // 2, ch - 60 - code.height))
    return face


def background(rng, kind):
    y, x = np.mgrid[0:H, 0:W].astype(np.float32)
    if kind == "wood" or (kind not in ("cloth", "clutter") and rng.random() < 0.4):
        base = np.array(rng.integers(110, 180, 3), dtype=np.float32) * np.array([1.0, 0.75, 0.5])
        grain = np.sin((y + 25 * np.sin(x / 180 + rng.random() * 6)) / rng.uniform(4, 9))
        rings = 0.5 + 0.5 * grain
        img = base[None, None, :] * (0.75 + 0.3 * rings[..., None])
    elif kind == "cloth":
        base = np.array(rng.integers(40, 200, 3), dtype=np.float32)
        period = rng.uniform(6, 14)
        weave = 0.5 + 0.25 * (np.sin(x / period * math.pi) + np.sin(y / period * math.pi))
        img = base[None, None, :] * (0.7 + 0.4 * weave[..., None])
    else:
        img = np.full((H, W, 3), rng.integers(90, 200), dtype=np.float32)
    img = Image.fromarray(np.clip(img, 0, 255).astype(np.uint8))
    if kind == "clutter" or rng.random() < 0.3:
        d = ImageDraw.Draw(img)
        for _ in range(int(rng.integers(6, 16))):
            x0, y0 = int(rng.integers(-100, W)), int(rng.integers(-100, H))
            w, h = int(rng.integers(60, 400)), int(rng.integers(40, 300))
            colour = tuple(int(v) for v in rng.integers(0, 255, 3))
            if rng.random() < 0.5:
                d.rectangle((x0, y0, x0 + w, y0 + h), fill=colour)
            else:
                d.ellipse((x0, y0, x0 + w, y0 + h), fill=colour)
            if rng.random() < 0.5:
                # A page of print: lines of "text".
                for k in range(int(rng.integers(3, 10))):
                    yy = y0 + 8 + k * 14
                    d.line((x0 + 6, yy, x0 + int(w * rng.uniform(0.3, 0.95)), yy), fill=(20, 20, 20), width=4)
    return img


def place(rng, frame, face, kind):
    """The card turned, in perspective, and small or not, pasted on the frame."""
    height = rng.uniform(330, 560) if kind != "all" else rng.uniform(300, 420)
    scale = height / face.height
    fw, fh = face.width * scale, face.height * scale
    angle = math.radians(rng.uniform(-50, 50))
    cx = rng.uniform(fw / 2 + 40, W - fw / 2 - 40) if W - fw > 100 else W / 2
    cy = rng.uniform(min(fh / 2, H / 2), max(H - fh / 2, H / 2))
    tilt = rng.uniform(0.0, 0.18)
    corners = []
    for sx, sy in [(-1, -1), (1, -1), (1, 1), (-1, 1)]:
        # A tilt shrinks the far edge.
        shrink = 1 - tilt if sy < 0 else 1.0
        px, py = sx * fw / 2 * shrink, sy * fh / 2
        corners.append(
            (cx + px * math.cos(angle) - py * math.sin(angle), cy + px * math.sin(angle) + py * math.cos(angle))
        )
    coeffs = perspective_coeffs(corners, [(0, 0), (face.width, 0), (face.width, face.height), (0, face.height)])
    warped = face.transform((W, H), Image.PERSPECTIVE, coeffs, Image.BICUBIC)
    mask = Image.new("L", face.size, 255).transform((W, H), Image.PERSPECTIVE, coeffs, Image.BILINEAR)
    frame.paste(warped, (0, 0), mask)
    return corners


def perspective_coeffs(dst, src):
    """Pillow's PERSPECTIVE maps output (frame) points to input (face) points."""
    a = []
    b = []
    for (x, y), (u, v) in zip(dst, src):
        a.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        a.append([0, 0, 0, x, y, 1, -v * x, -v * y])
        b += [u, v]
    return np.linalg.solve(np.array(a, dtype=np.float64), np.array(b, dtype=np.float64)).tolist()


def finger(rng, frame, corners):
    """A finger over the card's lower edge, its tip on the code's lower bars."""
    d = ImageDraw.Draw(frame)
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = corners
    t = rng.uniform(0.15, 0.85)
    ex, ey = x3 + (x2 - x3) * t, y3 + (y2 - y3) * t
    # Inwards: towards the top edge, by a tenth of the card's height.
    ux, uy = (x0 - x3), (y0 - y3)
    norm = math.hypot(ux, uy)
    ux, uy = ux / norm, uy / norm
    tip = rng.uniform(0.06, 0.12) * norm
    cx, cy = ex + ux * tip, ey + uy * tip
    skin = tuple(int(v) for v in np.array([224, 172, 140]) * rng.uniform(0.7, 1.05))
    r = rng.uniform(26, 38)
    for k in np.linspace(0, 8, 30):
        px, py = cx - ux * r * k, cy - uy * r * k
        d.ellipse((px - r, py - r, px + r, py + r), fill=skin)


def spot_on(rng, corners):
    """A point on the card's lower half, where its code is."""
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = corners
    s, t = rng.uniform(0.2, 0.8), rng.uniform(0.6, 0.9)
    top = (x0 + (x1 - x0) * s, y0 + (y1 - y0) * s)
    bottom = (x3 + (x2 - x3) * s, y3 + (y2 - y3) * s)
    return top[0] + (bottom[0] - top[0]) * t, top[1] + (bottom[1] - top[1]) * t


def light(rng, arr, kind, corners):
    y, x = np.mgrid[0:H, 0:W].astype(np.float32)
    gx, gy = rng.uniform(-1, 1, 2)
    ramp = 1 + 0.35 * (gx * (x / W - 0.5) + gy * (y / H - 0.5))
    level = rng.uniform(0.3, 0.5) if kind in ("dim", "all") else rng.uniform(0.8, 1.05)
    arr = arr * (ramp * level)[..., None]
    if kind in ("glare", "all") or rng.random() < 0.15:
        # Glare on the laminated card, by its code.
        gx0, gy0 = spot_on(rng, corners)
        sx, sy = rng.uniform(25, 70), rng.uniform(15, 45)
        spot = np.exp(-(((x - gx0) / sx) ** 2 + ((y - gy0) / sy) ** 2))
        arr = arr + 255 * rng.uniform(0.5, 0.9) * spot[..., None]
    return arr


def barrel(rng, arr):
    k = rng.uniform(0.08, 0.2)
    y, x = np.mgrid[0:H, 0:W].astype(np.float32)
    nx, ny = (x - W / 2) / (W / 2), (y - H / 2) / (W / 2)
    r2 = nx * nx + ny * ny
    f = 1 + k * r2
    sx = np.clip(nx * f * (W / 2) + W / 2, 0, W - 1).astype(np.int32)
    sy = np.clip(ny * f * (W / 2) + H / 2, 0, H - 1).astype(np.int32)
    return arr[sy, sx]


def motion(rng, arr):
    length = int(rng.integers(4, 10))
    angle = rng.uniform(0, math.pi)
    out = np.zeros_like(arr)
    for i in range(length):
        t = i - (length - 1) / 2
        dx, dy = int(round(t * math.cos(angle))), int(round(t * math.sin(angle)))
        out += np.roll(np.roll(arr, dy, axis=0), dx, axis=1)
    return out / length


def frame(rng, kind):
    fmt, text, expected = code_for(rng)
    img = background(rng, kind)
    corners = place(rng, img, card(rng, fmt, text), kind)
    if kind in ("finger", "all"):
        finger(rng, img, corners)
    if rng.random() < 0.5:
        img = img.filter(ImageFilter.GaussianBlur(rng.uniform(0.3, 1.0)))
    arr = np.asarray(img).astype(np.float32)
    arr = light(rng, arr, kind, corners)
    if kind in ("lens", "all"):
        arr = barrel(rng, arr)
    if kind in ("motion", "all"):
        arr = motion(rng, arr)
    arr = arr + rng.normal(0, 6 if kind == "dim" or kind == "all" else 3, arr.shape)
    out = Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8))
    buf = io.BytesIO()
    out.save(buf, "JPEG", quality=int(rng.integers(60, 88)))
    return buf.getvalue(), expected


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    out = Path(sys.argv[1])
    per_kind = int(sys.argv[2]) if len(sys.argv) == 3 else 8
    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(20261125)
    lines = ["# file\texpected text (made by scripts/make_frames.py)"]
    n = 0
    for kind in KINDS:
        for _ in range(per_kind):
            n += 1
            data, expected = frame(rng, kind)
            name = f"{n:03d}-{kind}.jpg"
            (out / name).write_bytes(data)
            lines.append(f"{name}\t{expected}")
    (out / "expected.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
