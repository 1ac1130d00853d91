#!/usr/bin/env python3
"""Decode the committed photo-like scans with bterm and with zxing-cpp and
print both engines' decode rates and times side by side (`make bench-scan`).

Both engines are timed the same way: one file at a time, on one thread,
from reading the file to having the symbols. A file counts as decoded when
an engine reads the card's code from it (the Code 128 text, or the QR's
BTERM: text); the expected code is the file name's start (DA-030-webcam.jpg
is DA-030).

usage: bench_scan.py BTERM_BINARY SCAN_DIR
"""

import json
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

import zxingcpp
from PIL import Image


def expected(path: Path) -> str:
    stem = path.stem
    parts = stem.split("-")
    return "-".join(parts[:2])


def kind(path: Path) -> str:
    parts = path.stem.split("-")
    return parts[2] if len(parts) > 2 else "card"


def fold(code: str) -> str:
    """A card number or code text as the Code 128 writes it (Dα-001 is DA-001)."""
    return code.upper().replace("BTERM:", "").replace("Α", "A")


def run_zxing(files):
    results = {}
    for f in files:
        start = time.perf_counter()
        img = Image.open(f).convert("L")
        found = zxingcpp.read_barcodes(img)
        ms = (time.perf_counter() - start) * 1000
        texts = {fold(r.text) for r in found}
        results[f] = (expected(f) in texts, ms)
    return results


def run_bterm(binary, folder, files):
    out = subprocess.run(
        [binary, "scan", "--json", "--threads", "1", str(folder)],
        capture_output=True,
        text=True,
        check=False,
    )
    results = {}
    for line in out.stdout.splitlines():
        r = json.loads(line)
        f = Path(r["file"])
        card = r.get("card") or {}
        number = fold(card.get("number", "")) if card else ""
        results[f] = (number == expected(f), r["ms"])
    missing = [f for f in files if f not in results]
    if missing:
        sys.exit(f"bterm did not report {len(missing)} files (first: {missing[0]}); stderr:\n{out.stderr}")
    return results


def summary(name, results):
    ok = sum(1 for good, _ in results.values() if good)
    times = [ms for _, ms in results.values()]
    return f"{name:<10} {ok:>4}/{len(results):<4} {100 * ok / len(results):6.1f}%  median {statistics.median(times):8.1f} ms  mean {statistics.mean(times):8.1f} ms"


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    binary, folder = sys.argv[1], Path(sys.argv[2])
    files = sorted(p for p in folder.rglob("*") if p.suffix.lower() in {".png", ".jpg", ".jpeg"})
    if not files:
        sys.exit(f"no scans in {folder}; run `make scans` first")
    zx = run_zxing(files)
    bt = run_bterm(binary, folder, files)
    from importlib.metadata import version

    print(f"{len(files)} scans in {folder}; zxing-cpp {version('zxing-cpp')}, one file at a time, one thread each")
    print("engine     decoded       rate   time per file")
    print(summary("bterm", bt))
    print(summary("zxing-cpp", zx))
    print()
    by_kind = defaultdict(list)
    for f in files:
        by_kind[kind(f)].append(f)
    print(f"{'kind':<12} {'files':>5} {'bterm':>6} {'zxing':>6} {'bterm ms':>9} {'zxing ms':>9}")
    for k in sorted(by_kind):
        fs = by_kind[k]
        b = sum(bt[f][0] for f in fs)
        z = sum(zx[f][0] for f in fs)
        bm = statistics.median(bt[f][1] for f in fs)
        zm = statistics.median(zx[f][1] for f in fs)
        print(f"{k:<12} {len(fs):>5} {b:>6} {z:>6} {bm:>9.1f} {zm:>9.1f}")


if __name__ == "__main__":
    main()
