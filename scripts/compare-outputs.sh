#!/usr/bin/env bash
# The comparison set for changes that must not change any output (issue 19's rule:
# every optimisation keeps outputs byte-identical): match CSVs and JSONL traces of
# every game under its default bots, other bots, and every flag value that changes
# the engine's path, plus Lopti sessions.
#
#   scripts/compare-outputs.sh make DIR [BIN]    write the set into DIR (must not exist)
#   scripts/compare-outputs.sh check DIR [BIN]   write it again into a scratch folder and
#                                                compare every file with DIR byte for byte
#
# BIN defaults to target/release/cardsim (built first when it is the default). Make the
# reference with the binary before a change, check with the binary after it. `check`
# exits 0 when every file is identical, 1 naming each file that differs or is missing,
# 2 on an error. Takes about a minute on one core.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-}
dir=${2:-}
bin=${3:-}
if [ -z "$mode" ] || [ -z "$dir" ] || { [ "$mode" != make ] && [ "$mode" != check ]; }; then
    echo "usage: scripts/compare-outputs.sh make|check DIR [BIN]" >&2
    exit 2
fi
if [ -z "$bin" ]; then
    cargo build --release --quiet
    bin=target/release/cardsim
fi
[ -x "$bin" ] || { echo "compare-outputs: $bin: not an executable" >&2; exit 2; }

# One line per output: NAME|COMMAND ARGS (run as "$bin" COMMAND ARGS; the output is
# the CSV written with --csv, or standard output for traces).
cases() {
    cat <<'EOF'
spit-default|match spit --games 4000 --threads 2
spit-smart-greedy-expert|match spit --bot smart@expert --bot greedy@expert --games 4000
spit-random|match spit --bot random@novice --bot smart@machine --games 2000
spit-four-slots-colours|match spit --set spit.num_stockpiles=4 --set spit.alternate_colors=true --games 2000
spit-own-any-abort|match spit --set spit.play_target=own --set spit.stall_spit_target=any --set spit.allow_abort=true --games 2000
spit-first-out-pilewise|match spit --set spit.round_end_allocation=first_out_chooses --set spit.short_deal=pilewise --games 2000
spit-points|match spit --set spit.scoring=points --games 400
spit-points-fresh|match spit --set spit.scoring=points --set spit.points_round_mode=fresh_deal --games 400
spit-points-carry|match spit --set spit.scoring=points --set spit.points_round_mode=carry_over --games 400
spit-cap|match spit --bot random --bot random --set sim.max_actions=300 --games 1000
speed-default|match speed --games 10000 --threads 2
speed-random|match speed --bot random@novice --bot greedy@expert --games 4000
speed-side5-straight|match speed --set speed.side_pile_size=5 --set speed.wrap=false --games 4000
speed-target|match speed --set speed.target=20 --set speed.score_counts=hand_and_stock --games 500
nerts-default|match nerts --set nerts.target=10 --games 200 --threads 2
nerts-2p|match nerts --players 2 --bot random@skilled --set nerts.target=20 --games 200
nerts-6p-teams|match nerts --players 6 --bot balanced@skilled --set nerts.target=10 --games 60
nerts-4p-pairs-separate|match nerts --players 4 --bot lazy@expert --set nerts.partnerships=pairs --set nerts.partnership_mode=separate_layouts_summed --set nerts.target=10 --games 60
nerts-flip1-anytime|match nerts --players 3 --bot nerts-first --set nerts.flip_count=1 --set nerts.rotate_when=any_time --set nerts.target=10 --games 100
nerts-short-flip|match nerts --players 3 --bot foundation-first --set nerts.short_packet=flip --set nerts.global_reset_rotate=0 --set nerts.max_global_resets=1 --set nerts.target=10 --games 100
nerts-jokers|match nerts --players 4 --bot random@casual --set nerts.jokers_per_deck=2 --set nerts.joker_identity=until_uncovered --set nerts.target=10 --games 60
nerts-strict-whole|match nerts --players 4 --bot balanced --set nerts.tie_policy=first_only --set nerts.partial_stack_moves=false --set nerts.slip_under_sources=waste_only --set nerts.target=10 --games 60
nerts-8p|match nerts --players 8 --bot balanced@machine --set nerts.partnerships=none --set nerts.target=5 --games 24
lopti-default|match lopti --games 20000 --threads 2
lopti-2p|match lopti --bot lowest --bot burner --games 20000
lopti-5p|match lopti --players 5 --bot random --games 5000
lopti-flags|match lopti --set lopti.seven_on_seven=free --set lopti.draw_timing=end_of_turn --set lopti.empty_clear_bonus=false --set lopti.facedown_may_pickup=true --set lopti.bonus_optional=true --games 10000
lopti-order-rankings|match lopti --set lopti.swap_order=clockwise_from_starter --set lopti.play_for_rankings=true --games 10000
lopti-mcts|match lopti --bot mcts --bot lowest --set lopti.mcts_iterations=20 --games 200
spit-search|match spit --bot search@expert --bot smart@expert --games 100
speed-search|match speed --bot search@expert --bot smart@expert --games 1000
speed-search-memory-off|match speed --bot search@expert,memory=0 --bot greedy@expert --games 500
nerts-search|match nerts --bot search@skilled --bot lazy@skilled --set nerts.target=20 --games 40
EOF
}

traces() {
    cat <<'EOF'
trace-spit|trace spit --bot smart@expert --bot greedy@expert --seed 3 --index 5 --format jsonl
trace-spit-points|trace spit --set spit.scoring=points --seed 2 --index 1 --format jsonl
trace-speed|trace speed --seed 4 --index 2 --format jsonl
trace-speed-random|trace speed --bot random --bot smart --seed 9 --index 0 --format jsonl
trace-nerts-2p|trace nerts --players 2 --bot random@skilled --set nerts.target=20 --seed 1 --index 0 --format jsonl
trace-nerts-4p|trace nerts --set nerts.target=5 --seed 5 --index 3 --format jsonl
trace-nerts-jokers|trace nerts --players 3 --bot balanced --set nerts.jokers_per_deck=1 --set nerts.target=5 --seed 6 --index 1 --format jsonl
trace-nerts-6p|trace nerts --players 6 --bot lazy --set nerts.target=3 --seed 7 --index 0 --format jsonl
trace-lopti|trace lopti --bot lowest --bot lowest --bot random --seed 777 --index 9 --format jsonl
trace-lopti-4p|trace lopti --players 4 --bot burner --seed 8 --index 3 --format jsonl
session-lopti|session lopti --sessions 300 --rounds 5 --seed 11
session-lopti-trace|session lopti --sessions 20 --rounds 5 --seed 12 --trace-index 3 --format jsonl
EOF
}

run_set() {
    local out=$1
    mkdir "$out"
    local name command
    while IFS='|' read -r name command; do
        # shellcheck disable=SC2086
        "$bin" $command --csv "$out/$name.csv" > /dev/null 2> "$out/$name.stderr" \
            || { echo "compare-outputs: $name failed: $(tail -1 "$out/$name.stderr")" >&2; exit 2; }
        rm "$out/$name.stderr"
    done < <(cases)
    while IFS='|' read -r name command; do
        # A session's standard output names its run time: only its CSV is compared.
        local stdout=$out/$name.out
        case $command in
            session*--trace-index*) ;;
            session*) command="$command --csv $out/$name.csv --quiet"; stdout=/dev/null ;;
        esac
        # shellcheck disable=SC2086
        "$bin" $command > "$stdout" 2> "$out/$name.stderr" \
            || { echo "compare-outputs: $name failed: $(tail -1 "$out/$name.stderr")" >&2; exit 2; }
        rm "$out/$name.stderr"
    done < <(traces)
}

case $mode in
    make)
        [ -e "$dir" ] && { echo "compare-outputs: $dir exists; the reference is never overwritten" >&2; exit 2; }
        run_set "$dir"
        echo "wrote $(ls "$dir" | wc -l) files into $dir"
        ;;
    check)
        [ -d "$dir" ] || { echo "compare-outputs: $dir: no reference folder (make it first)" >&2; exit 2; }
        scratch=$(mktemp -d "${TMPDIR:-/tmp}/compare-outputs.XXXXXX")
        trap 'rm -rf "$scratch"' EXIT
        run_set "$scratch/now"
        status=0
        for ref in "$dir"/*; do
            file=$(basename "$ref")
            if [ ! -e "$scratch/now/$file" ]; then
                echo "missing: $file"; status=1
            elif ! cmp -s "$ref" "$scratch/now/$file"; then
                echo "differs: $file ($(cmp "$ref" "$scratch/now/$file" | head -1))"; status=1
            fi
        done
        for now in "$scratch/now"/*; do
            [ -e "$dir/$(basename "$now")" ] || { echo "new (not in the reference): $(basename "$now")"; status=1; }
        done
        [ $status -eq 0 ] && echo "all $(ls "$dir" | wc -l) files identical"
        exit $status
        ;;
esac
