#!/usr/bin/env bash
# Reruns every committed experiment (experiments/*.toml, as results/README.md and
# docs/experiments.md say the committed folders were made: `cardsim run
# experiments/NAME.toml`, with the file's own games and seed) into a scratch folder and
# lists every CSV cell that differs from the committed results/NAME.
#
#   scripts/compare-results.sh [SCRATCH] [NAME...]
#
# SCRATCH (default: target/compare-results) receives NAME/ for each rerun experiment and
# differences.csv: file, row, key, column, committed, rerun, abs_diff, rel_diff (one
# line per differing cell; rows present on one side only have an empty other side).
# The summary printed at the end counts the differing cells per file and column with
# the largest absolute and relative difference. Other files (charts, manifest) are
# compared byte for byte and named when they differ. Nothing under results/ is written.
# Exit status: 0 when every CSV is identical, 1 when some cell differs, 2 on an error.
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=${1:-target/compare-results}
shift || true
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
    for f in experiments/*.toml; do names+=("$(basename "$f" .toml)"); done
fi
cargo build --release --quiet
mkdir -p "$scratch"
# A copy, so that a rebuild during the reruns does not change the program midway.
bin=$scratch/cardsim
cp target/release/cardsim "$bin"
for name in "${names[@]}"; do
    [ -f "experiments/$name.toml" ] || { echo "compare-results: experiments/$name.toml: no such experiment" >&2; exit 2; }
    [ -d "results/$name" ] || { echo "compare-results: results/$name: no committed folder" >&2; exit 2; }
    rm -rf "${scratch:?}/$name"
    start=$(date +%s)
    "$bin" run "experiments/$name.toml" --out "$scratch/$name" --quiet > /dev/null
    echo "ran $name in $(( $(date +%s) - start )) s" >&2
done
python3 - "$scratch" "${names[@]}" <<'PY'
import csv, os, sys
scratch, names = sys.argv[1], sys.argv[2:]
# Columns that name a row in the listing, where a file has them; lengths.csv rows are
# identified by (cell, metric, value) and compared as a histogram.
KEYS = ["cell", "game", "bots", "flags", "bot", "seat", "after", "metric", "point", "figure", "rank"]
LENGTH_KEYS = ["cell", "metric", "value"]
out = open(os.path.join(scratch, "differences.csv"), "w", newline="")
w = csv.writer(out)
w.writerow(["file", "row", "key", "column", "committed", "rerun", "abs_diff", "rel_diff"])
summary = {}  # (file, column) -> [cells, max abs, max rel]
other = []

def num(x):
    try:
        return float(x)
    except ValueError:
        return None

def note(path, row, key, col, a, b):
    x, y = num(a), num(b)
    d = abs(x - y) if x is not None and y is not None else None
    r = d / abs(x) if d is not None and x != 0 else None
    w.writerow([path, row, key, col, a, b, "" if d is None else f"{d:.6g}", "" if r is None else f"{r:.3g}"])
    s = summary.setdefault((path, col), [0, 0.0, 0.0])
    s[0] += 1
    s[1] = max(s[1], d or 0.0)
    s[2] = max(s[2], r or 0.0)

def rows(path):
    with open(path, newline="") as f:
        return list(csv.reader(f))

for name in names:
    old_dir, new_dir = os.path.join("results", name), os.path.join(scratch, name)
    files = sorted(set(os.listdir(old_dir)) | set(os.listdir(new_dir)))
    for fn in files:
        path = os.path.join(name, fn)
        a, b = os.path.join(old_dir, fn), os.path.join(new_dir, fn)
        if not (os.path.exists(a) and os.path.exists(b)):
            other.append(f"{path}: only in {'the rerun' if os.path.exists(b) else 'the committed folder'}")
            continue
        if not fn.endswith(".csv"):
            if open(a, "rb").read() != open(b, "rb").read():
                other.append(f"{path}: differs")
            continue
        old, new = rows(a), rows(b)
        if old[0] != new[0]:
            other.append(f"{path}: the header differs: {old[0]} against {new[0]}")
            continue
        header = old[0]
        if fn == "lengths.csv":
            keys = [header.index(h) for h in LENGTH_KEYS]
            figures = [i for i in range(len(header)) if i not in keys]
            # A histogram: rows are (cell, metric, value) -> matches; compare as maps.
            def hist(rs):
                return {tuple(r[i] for i in keys): r for r in rs[1:]}
            ho, hn = hist(old), hist(new)
            total = lambda h: sum(int(r[header.index("matches")]) for r in h.values())
            if ho != hn:
                other.append(f"{path}: {len(ho)} rows committed, {len(hn)} rerun; matches {total(ho)} and {total(hn)}")
            for k in sorted(set(ho) | set(hn), key=lambda k: (int(k[0]), k[1], float(k[2]))):
                ro, rn = ho.get(k), hn.get(k)
                for i in figures:
                    va, vb = ro[i] if ro else "", rn[i] if rn else ""
                    if va != vb:
                        note(path, "", " ".join(k), header[i], va, vb)
            continue
        keys = [i for i, h in enumerate(header) if h in KEYS]
        for j in range(1, max(len(old), len(new))):
            ro = old[j] if j < len(old) else None
            rn = new[j] if j < len(new) else None
            key = " ".join((ro or rn)[i] for i in keys)
            for i in range(len(header)):
                va, vb = ro[i] if ro else "", rn[i] if rn else ""
                if va != vb:
                    note(path, j + 1, key, header[i], va, vb)
out.close()
for line in other:
    print(line)
if not summary:
    print("every CSV cell is identical")
    sys.exit(0)
print(f"{'file':40} {'column':24} {'cells':>7} {'max_abs':>10} {'max_rel':>9}")
for (path, col), (n, d, r) in sorted(summary.items()):
    print(f"{path:40} {col:24} {n:7} {d:10.6g} {r:9.3g}")
print(f"every differing cell: {os.path.join(scratch, 'differences.csv')}")
sys.exit(1)
PY
