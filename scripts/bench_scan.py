#!/usr/bin/env python3
"""bterm against zxing-cpp on sets of pictures, side by side (`make bench-scan`).

Each set is a folder. What a picture should give is found, in order:
- `NAME.txt` beside `NAME.png` (the blackbox convention of ZXing and rxing):
  the text of the code on it;
- `expected.tsv` in the set's folder: `FILE<TAB>TEXT` lines (TEXT empty for
  a picture with no barcode);
- otherwise the file name's start (`DA-030-webcam.jpg` is the card DA-030),
  or, in a set whose folder name starts with `none`, nothing at all.

A file counts as **read** when an engine gives the expected text, as **wrong**
when it gives a symbol but not the expected one (for a picture with no
barcode: any symbol at all). Both engines are timed the same way: one file at
a time, on one thread, from reading the file to having the symbols.

usage: bench_scan.py BTERM_BINARY SET_DIR [SET_DIR ...]
"""

import json
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

IMAGES = {".png", ".jpg", ".jpeg", ".gif", ".bmp"}


def fold(code: str) -> str:
    """A code's text as compared: line ends as \\n, trimmed, and a card number
    as its Code 128 writes it (Dα-001 is DA-001; a custom QR card's BTERM:
    prefix dropped)."""
    code = code.replace("\r\n", "\n").strip()
    if code.upper().startswith("BTERM:"):
        code = code[6:]
    return code.upper().replace("Α", "A") if len(code) < 16 else code


def upce_to_upca(t: str) -> str:
    ns, d, check = t[0], t[1:7], t[7]
    last = d[5]
    if last in "012":
        body = d[0:2] + last + "0000" + d[2:5]
    elif last == "3":
        body = d[0:3] + "00000" + d[3:5]
    elif last == "4":
        body = d[0:4] + "00000" + d[4]
    else:
        body = d[0:5] + "0000" + last
    return ns + body + check


def forms(text: str):
    """The ways one retail code is written: UPC-A as 12 digits or as an
    EAN-13 with a leading 0, UPC-E as 8 digits or expanded (zxing-cpp
    reports the expanded form)."""
    out = {text}
    if text.isdigit():
        if len(text) == 12:
            out.add("0" + text)
        if len(text) == 13 and text[0] == "0":
            out.add(text[1:])
        if len(text) == 8 and text[0] in "01":
            upca = upce_to_upca(text)
            out |= {upca, "0" + upca}
    return out


def expectations(folder: Path, files):
    tsv = folder / "expected.tsv"
    table = {}
    if tsv.exists():
        for line in tsv.read_text(encoding="utf-8").splitlines():
            if line.strip() and not line.startswith("#"):
                name, _, text = line.partition("\t")
                table[name] = text
    out = {}
    for f in files:
        txt = f.with_suffix(".txt")
        rel = str(f.relative_to(folder))
        if txt.exists():
            out[f] = txt.read_text(encoding="utf-8", errors="replace")
        elif rel in table:
            out[f] = table[rel]
        elif folder.name.startswith("none"):
            out[f] = ""
        else:
            out[f] = "-".join(f.stem.split("-")[:2])
    return {f: fold(t) for f, t in out.items()}


def judge(expected: str, texts) -> str:
    if expected == "":
        return "wrong" if texts else "right"
    if any(forms(expected) & forms(t) for t in texts):
        return "read"
    return "wrong" if texts else "missed"


def run_zxing(files, expect):
    # Imported here: other scripts import this one for its helpers without
    # zxing-cpp (scripts/import_quagga2.py).
    import zxingcpp
    from PIL import Image

    results = {}
    for f in files:
        start = time.perf_counter()
        img = Image.open(f).convert("L")
        found = zxingcpp.read_barcodes(img)
        ms = (time.perf_counter() - start) * 1000
        texts = {fold(r.text) for r in found}
        results[f] = (judge(expect[f], texts), ms)
    return results


def run_bterm(binary, folder, files, expect):
    out = subprocess.run(
        [binary, "scan", "--json", "--no-collect", "--threads", "1", str(folder)],
        capture_output=True,
        text=True,
        check=False,
    )
    results = {}
    for line in out.stdout.splitlines():
        r = json.loads(line)
        f = Path(r["file"])
        texts = {fold(c["text"]) for c in r.get("codes") or []}
        card = r.get("card") or {}
        if card.get("source") == "printed" or card.get("source") == "custom":
            texts.add(fold(card.get("number", "")))
        results[f] = (judge(expect.get(f, ""), texts), r["ms"])
    missing = [f for f in files if f not in results]
    if missing:
        sys.exit(f"bterm did not report {len(missing)} files (first: {missing[0]}); stderr:\n{out.stderr}")
    return results


def p90(values):
    values = sorted(values)
    return values[min(len(values) - 1, int(0.9 * len(values)))]


def line(name, results, nothing):
    n = len(results)
    good = sum(1 for v, _ in results.values() if v in ("read", "right"))
    wrong = sum(1 for v, _ in results.values() if v == "wrong")
    times = [ms for _, ms in results.values()]
    what = "no symbol" if nothing else "read"
    return (
        f"  {name:<10} {what} {good:>4}/{n:<4} wrong {wrong:>3}   "
        f"median {statistics.median(times):7.1f} ms   p90 {p90(times):7.1f} ms   "
        f"mean {statistics.mean(times):7.1f} ms"
    )


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    binary = sys.argv[1]
    from importlib.metadata import version

    print(f"zxing-cpp {version('zxing-cpp')}; one file at a time, one thread each\n")
    for arg in sys.argv[2:]:
        folder = Path(arg)
        files = sorted(p for p in folder.rglob("*") if p.suffix.lower() in IMAGES and p.is_file())
        if not files:
            sys.exit(f"no pictures in {folder}")
        expect = expectations(folder, files)
        nothing = all(v == "" for v in expect.values())
        zx = run_zxing(files, expect)
        bt = run_bterm(binary, folder, files, expect)
        print(f"{folder}: {len(files)} pictures")
        print(line("bterm", bt, nothing))
        print(line("zxing-cpp", zx, nothing))
        by_group = defaultdict(list)
        for f in files:
            rel = f.relative_to(folder)
            if len(rel.parts) > 1:
                group = rel.parts[0]
            elif (folder / "expected.tsv").exists():
                group = f.stem.partition("-")[2] or "-"
            else:
                group = "-".join(f.stem.split("-")[2:]) or "-"
            by_group[group].append(f)
        if len(by_group) > 1:
            print(f"    {'group':<18} {'files':>5} {'bterm':>6} {'zxing':>6} {'b wrong':>7} {'z wrong':>7} {'bterm ms':>9} {'zxing ms':>9}")
            for g in sorted(by_group):
                fs = by_group[g]
                b = sum(bt[f][0] in ("read", "right") for f in fs)
                z = sum(zx[f][0] in ("read", "right") for f in fs)
                bw = sum(bt[f][0] == "wrong" for f in fs)
                zw = sum(zx[f][0] == "wrong" for f in fs)
                bm = statistics.median(bt[f][1] for f in fs)
                zm = statistics.median(zx[f][1] for f in fs)
                print(f"    {g:<18} {len(fs):>5} {b:>6} {z:>6} {bw:>7} {zw:>7} {bm:>9.1f} {zm:>9.1f}")
        print()


if __name__ == "__main__":
    main()
