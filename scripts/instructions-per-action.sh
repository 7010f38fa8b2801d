#!/usr/bin/env bash
# Instructions per landed action of one table, counted by callgrind (load does not change
# it): plays DEALS and then 2 x DEALS deals of the table on one thread
# (`cardsim bench --deals`), and divides the difference of the two instruction totals by
# the difference of the actions landed, so start-up and set-up cancel out.
#
#   scripts/instructions-per-action.sh DEALS GAME BOT BOT [BOT...] [-- BIN]
#
# e.g. scripts/instructions-per-action.sh 200 spit smart@expert greedy@expert
#      scripts/instructions-per-action.sh 20 nerts balanced@skilled balanced@skilled balanced@skilled balanced@skilled
# BIN defaults to target/release/cardsim (built first). For Lopti an "action" is a turn.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 4 ] || { echo "usage: scripts/instructions-per-action.sh DEALS GAME BOT BOT [BOT...] [-- BIN]" >&2; exit 2; }
deals=$1 game=$2
shift 2
bots=() bin=
while [ $# -gt 0 ]; do
    if [ "$1" = -- ]; then bin=${2:?"-- needs a binary"}; break; fi
    bots+=(--bot "$1"); shift
done
if [ -z "$bin" ]; then cargo build --release --quiet; bin=target/release/cardsim; fi
command -v valgrind > /dev/null || { echo "instructions-per-action: valgrind is not installed" >&2; exit 2; }
scratch=$(mktemp -d "${TMPDIR:-/tmp}/instructions.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
count() { # DEALS -> "INSTRUCTIONS ACTIONS"
    local out=$scratch/callgrind.$1
    local line
    line=$(valgrind --tool=callgrind --callgrind-out-file="$out" "$bin" bench --game "$game" "${bots[@]}" --deals "$1" 2> "$scratch/log.$1") \
        || { echo "instructions-per-action: the run of $1 deals failed: $(tail -3 "$scratch/log.$1")" >&2; exit 2; }
    local actions=${line% actions}; actions=${actions##*| }
    local instructions
    instructions=$(sed -n 's/^summary: \([0-9]*\).*/\1/p' "$out")
    echo "$instructions $actions"
}
read -r i1 a1 < <(count "$deals")
read -r i2 a2 < <(count $((2 * deals)))
python3 - "$game" "${bots[*]}" "$deals" "$i1" "$a1" "$i2" "$a2" <<'PY'
import sys
game, bots, deals, i1, a1, i2, a2 = sys.argv[1], sys.argv[2].replace('--bot ', ''), int(sys.argv[3]), *map(int, sys.argv[4:])
print(f"{game} | {bots} | {deals} and {2 * deals} deals: {i1} and {i2} instructions, {a1} and {a2} actions")
print(f"instructions per action: {(i2 - i1) / (a2 - a1):.1f}")
PY
