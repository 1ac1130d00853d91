#!/usr/bin/env python3
"""Copy the camera photographs of barcodes/quagga2 from a clone (or bare
mirror) of Quagga2 (https://github.com/ericblade/quagga2, MIT), whose
`test/fixtures` pictures Christoph Oberhofer took for QuaggaJS in 2014-2016.

The pictures are copied byte for byte (640x480 and 800x600 JPEGs: nothing to
shrink). What each one holds is taken from Quagga2's own test tables,
`test/integration/decoders/<set>.spec.ts`, with the changes listed in FIXES
and ADD_ON below (see barcodes/quagga2/README.md). Pictures that are not
camera photographs, or that Quagga2 gives no text for, are left out.

usage: import_quagga2.py QUAGGA2_GIT_DIR OUT_DIR   (needs git)
       e.g. import_quagga2.py /work/.mirror/ericblade+quagga2/repo barcodes/quagga2
"""
import re
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_scan import upce_to_upca  # noqa: E402

COMMIT = "330ed96ef2c3508148beceab50eb6b97ddbf4163"

# Quagga2 fixture folder -> (our folder, Quagga2 spec file)
SETS = {
    "ean": ("ean13", "ean"),
    "ean_extended": ("ean13-addon", "ean_extended"),
    "ean_8": ("ean8", "ean_8"),
    "upc": ("upca", "upc"),
    "upc_e": ("upce", "upc_e"),
    "code_128": ("code128", "code_128"),
}

# Left out: not a camera photograph (code_128/image-011.png is a rendered
# 1200x200 strip), or added in 2025 from pictures posted to an issue
# (code_128/image-012..014: no clear licence from the person who took them;
# 013 and 014 have no expected text, 014 is not in the snapshot).
SKIP = {
    "code_128/image-011.png",
    "code_128/image-012.jpg",
    "code_128/image-013.jpg",
    "code_128/image-014.jpg",
}

# Changes to Quagga2's table, each checked against the digits printed under
# the bars, the check digit, and zxing-cpp 3.1.1 (on rotated copies).
FIXES = {
    # Commented out in the spec (Quagga2 cannot read them), texts kept there.
    "ean_8/image-005.jpg": "90162602",
    "ean_8/image-007.jpg": "42176817",
    # Spec says 412056690699101; the label reads 4 190566 906901, add-on 01.
    "ean_extended/image-006.jpg": "419056690690101",
    # The spec writes the FNC1 separators as ASCII 29: GS1-128
    # (420)95747(94)99907123456123456781. Kept as its digits, as readers that
    # are not asked for GS1 output give it (rxing drops the FNC1s).
    "code_128/image-007.jpg": "420957479499907123456123456781",
}

# ean_extended: the spec's text is the EAN-13 followed by its 2- or 5-digit
# add-on; readers report the add-on apart (or not at all), so only the
# 13 digits of the main symbol are expected.
ADD_ON = {"ean_extended"}

ROW = re.compile(r"""^\s*\{\s*['"]?name['"]?\s*:\s*['"]([^'"]+)['"]\s*,\s*['"]?result['"]?\s*:\s*(['"`])(.*?)\2""")


def git(gitdir: Path, *args) -> bytes:
    return subprocess.run(["git", "--git-dir", str(gitdir), *args], check=True, capture_output=True).stdout


def spec_table(gitdir: Path, spec: str) -> dict:
    text = git(gitdir, "show", f"{COMMIT}:test/integration/decoders/{spec}.spec.ts").decode()
    table = {}
    for line in text.splitlines():
        m = ROW.match(line)
        if m:
            table[m.group(1)] = m.group(3).replace("${FNC1}", "\x1d")
    return table


def check_digit_ok(digits: str) -> bool:
    if not digits.isdigit() or len(digits) not in (8, 12, 13):
        return False
    body = [int(c) for c in digits[:-1]][::-1]
    total = sum(d * (3 if i % 2 == 0 else 1) for i, d in enumerate(body))
    return (10 - total % 10) % 10 == int(digits[-1])


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    gitdir = Path(sys.argv[1])
    if (gitdir / ".git").exists():
        gitdir = gitdir / ".git"
    out = Path(sys.argv[2])
    rows = []
    for src, (dst, spec) in SETS.items():
        table = spec_table(gitdir, spec)
        listing = git(gitdir, "ls-tree", "--name-only", f"{COMMIT}:test/fixtures/{src}").decode().split()
        (out / dst).mkdir(parents=True, exist_ok=True)
        for name in sorted(listing):
            key = f"{src}/{name}"
            if key in SKIP:
                continue
            text = FIXES.get(key, table.get(name))
            if not text:
                sys.exit(f"no expected text for {key}")
            if src in ADD_ON:
                text = text[:13]
            if src in ("ean", "ean_extended", "ean_8", "upc"):
                assert check_digit_ok(text), key
            if src == "upc_e":
                assert len(text) == 8 and check_digit_ok(upce_to_upca(text)), key
            data = git(gitdir, "show", f"{COMMIT}:test/fixtures/{key}")
            (out / dst / name).write_bytes(data)
            rows.append((f"{dst}/{name}", text))
    with open(out / "expected.tsv", "w", encoding="utf-8") as f:
        f.write(f"# quagga2 {COMMIT[:12]} test/fixtures; see README.md\n")
        for name, text in rows:
            f.write(f"{name}\t{text}\n")
    lic = git(gitdir, "show", f"{COMMIT}:LICENSE")
    (out / "LICENSE-MIT-quagga2").write_bytes(lic)
    print(f"{len(rows)} pictures into {out}")


if __name__ == "__main__":
    main()
