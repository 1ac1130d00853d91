#!/usr/bin/env python3
"""Copy the public test photographs in barcodes/real and barcodes/none from a
checkout of rxing (https://github.com/rxing-core/rxing, Apache-2.0), whose
`test_resources/blackbox` folders come from ZXing's (Apache-2.0).

Sets are copied whole: every picture with its expected text (NAME.txt).
Pictures of the sets over 1 MB as PNG are stored as JPEG at quality 92 to
keep the repository small (both engines read the same files in the bench).

usage: import_real.py RXING_CHECKOUT OUT_DIR   (needs Pillow)
"""
import shutil
import sys
from pathlib import Path

from PIL import Image

REAL = [
    "code128-1", "code128-2", "code128-3",
    "ean13-1", "ean13-2", "ean13-3", "ean13-4", "ean13-5", "ean8-1",
    "upca-1", "upca-2", "upca-3", "upca-4", "upca-5", "upca-6",
    "upce-1", "upce-2", "upce-3",
    "qrcode-1", "qrcode-2", "qrcode-3", "qrcode-4", "qrcode-5", "qrcode-6",
]
NONE = ["falsepositives", "falsepositives-2"]
BIG = 1 << 20


def copy_set(src: Path, dst: Path):
    dst.mkdir(parents=True, exist_ok=True)
    pictures = sorted(p for p in src.iterdir() if p.suffix.lower() in {".png", ".jpg", ".gif"})
    big = sum(p.stat().st_size for p in pictures) > BIG
    for p in pictures:
        if big and p.suffix.lower() == ".png":
            img = Image.open(p)
            img = img.convert("L" if img.mode in ("L", "LA", "1", "P") and img.mode != "P" else "RGB")
            img.save(dst / (p.stem + ".jpg"), quality=92)
        else:
            shutil.copy(p, dst / p.name)
        txt = p.with_suffix(".txt")
        if txt.exists():
            shutil.copy(txt, dst / txt.name)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    root = Path(sys.argv[1]) / "test_resources" / "blackbox"
    out = Path(sys.argv[2])
    for name in REAL:
        copy_set(root / name, out / "real" / name)
    for name in NONE:
        copy_set(root / name, out / "none" / name)


if __name__ == "__main__":
    main()
