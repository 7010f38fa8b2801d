#!/usr/bin/env bash
# Tests the Slurm workflow of docs/cluster.md on a real single-node Slurm, brought up
# here from Debian's packages (slurm-wlm, munge) in a private temporary folder: its own
# munged socket, slurm.conf (SLURM_CONF), state, spool, logs and ports, so nothing of an
# installed Slurm or munge is used or changed. Needs root and apt-get (or the packages
# already installed); the daemons run directly, without systemd.
#
# The workflow, on a small committed experiment (experiments/speed-presets.toml with
# --games 200000, 4 shards, about a minute of CPU in all):
#   1. the array of 4 shard tasks through deploy/slurm.sbatch and a merge job with
#      --dependency=afterok --kill-on-invalid-dep=yes, where
#        - task 2 is requeued (scontrol requeue: SIGTERM) once its first checkpoint is
#          written: its second run must continue the checkpoint (--resume-if-any);
#        - task 3 fails: a folder stands where its output partial-3-of-4.json goes;
#        - task 4 is cancelled (scancel: SIGTERM) once its first checkpoint is written;
#      so Slurm must cancel the merge (DependencyNeverSatisfied) instead of leaving it
#      pending forever, and nothing is merged;
#   2. the folder in the way is removed and tasks 3 and 4 are rerun alone
#      (`sbatch --array=3,4 ... N`, as docs/cluster.md says): task 4 must continue its
#      checkpoint, and a new dependent merge must complete;
#   3. the merged folder must equal a single `cardsim run` of the same study byte for
#      byte (diff -r).
# Every wait polls the job state (scontrol) or a file with a deadline; no fixed sleeps.
#
# Uses the binary of this checkout (target/release/cardsim, built with `cargo build
# --release` first when cargo is there; TEST_SLURM_NO_BUILD=1 skips that). Prints PASS, FAIL (with the diff or the log
# that shows what went wrong) or SKIPPED (with the reason: not root, no packages, a
# daemon that would not start). Exit status: 0 PASS, 1 FAIL, 77 SKIPPED.
# KEEP=1 keeps the temporary folder (its path is printed).
set -uo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
shards=4
requeued=2  # the task requeued after its first checkpoint
failing=3   # the task whose output path is blocked
cancelled=4 # the task cancelled after its first checkpoint
games=200000
experiment="$repo/experiments/speed-presets.toml"
started=$(date +%s)

say() { echo "test-slurm [$(($(date +%s) - started)) s]: $*"; }
skip() { say "SKIPPED: $*"; exit 77; }
fail() { say "FAIL: $*"; failed=1; exit 1; }

[ "$(id -u)" = 0 ] || skip "needs root (to install slurm-wlm and munge and to run their daemons)"

# --- The binary of this checkout ---------------------------------------------------------
bin="$repo/target/release/cardsim"
if [ "${TEST_SLURM_NO_BUILD:-}" != 1 ] && command -v cargo >/dev/null; then
    say "building $bin (cargo build --release)"
    (cd "$repo" && timeout 1800 cargo build --release --quiet) || fail "cargo build --release failed"
fi
[ -x "$bin" ] || fail "$bin is missing and cargo is not there to build it"

# --- Packages ------------------------------------------------------------------------------
need=(munged mungekey slurmctld slurmd sbatch scontrol scancel sinfo)
missing() { for c in "${need[@]}"; do command -v "$c" >/dev/null || return 0; done; return 1; }
if missing; then
    command -v apt-get >/dev/null || skip "slurm-wlm or munge is not installed and there is no apt-get"
    say "installing slurm-wlm and munge (apt-get)"
    export DEBIAN_FRONTEND=noninteractive
    timeout 600 apt-get update -q >/tmp/test-slurm-apt.$$.log 2>&1 &&
        timeout 900 apt-get install -y -q --no-install-recommends slurm-wlm munge >>/tmp/test-slurm-apt.$$.log 2>&1 ||
        { tail -5 /tmp/test-slurm-apt.$$.log; rm -f /tmp/test-slurm-apt.$$.log; skip "apt-get could not install slurm-wlm and munge (see above)"; }
    rm -f /tmp/test-slurm-apt.$$.log
    missing && skip "slurm-wlm and munge installed but one of ${need[*]} is still missing"
fi
say "$(slurmctld -V), $(munged -V 2>&1 | head -1)"

# --- A private single-node cluster -----------------------------------------------------------
work="$(mktemp -d /tmp/test-slurm.XXXXXX)" || skip "mktemp failed"
chmod 755 "$work" # munged wants its socket's folders searchable by all
mkdir -p "$work"/{munge,run,state,spool,log,submit}
chmod 700 "$work/munge"
chmod 755 "$work/run"
pids=()
failed=0
# Every process of this test's cluster (the daemons, their job steps, the jobs) inherits
# this mark, so that cleanup can end what is left of them by process id.
export CARDSIM_TEST_SLURM="$work"

# Runs `scontrol -o show job ID`: one line per job (array task), or nothing.
jobs_of() { timeout 30 scontrol -o show job "$1" 2>/dev/null; }
# "TASK STATE REASON" per array task of job $1 (TASK is - for a job that is not an array).
states() {
    jobs_of "$1" | while read -r line; do
        task=$(grep -o ' ArrayTaskId=[^ ]*' <<<"$line" | cut -d= -f2)
        state=$(grep -o ' JobState=[^ ]*' <<<"$line" | cut -d= -f2)
        reason=$(grep -o ' Reason=[^ ]*' <<<"$line" | cut -d= -f2)
        echo "${task:--} $state $reason"
    done | sort -n
}
# Waits until every task of the jobs given has ended; FAIL after $1 seconds.
wait_jobs() {
    local limit="$1"; shift
    local deadline=$(($(date +%s) + limit))
    while :; do
        local busy=0
        for j in "$@"; do
            if states "$j" | grep -Eq ' (PENDING|RUNNING|CONFIGURING|COMPLETING|REQUEUED|RESIZING|SUSPENDED|STOPPED)\b'; then busy=1; fi
            [ -n "$(jobs_of "$j")" ] || fail "job $j is unknown to slurmctld"
        done
        [ "$busy" = 0 ] && return 0
        [ "$(date +%s)" -lt "$deadline" ] || { for j in "$@"; do states "$j"; done; fail "jobs $* still not finished after ${limit}s"; }
        sleep 0.2
    done
}
# Prints the Slurm logs' last lines (for a daemon that would not start, or a failure).
show_logs() {
    for f in "$work"/log/*; do [ -s "$f" ] && { echo "--- $f (last 15 lines)"; tail -15 "$f"; }; done
}
cleanup() {
    local rc=$?
    trap - EXIT INT TERM HUP
    if [ -n "${SLURM_CONF:-}" ] && [ -S "$work/run/munge.sock" ]; then
        timeout 30 scancel -Q --user=root 2>/dev/null
        local deadline=$(($(date +%s) + 30))
        while [ -n "$(timeout 30 squeue -h -u root 2>/dev/null)" ] && [ "$(date +%s)" -lt "$deadline" ]; do sleep 0.2; done
    fi
    [ "$failed" = 1 ] && show_logs
    # The daemons this script started, newest first, by their process ids.
    for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
        kill "${pids[i]}" 2>/dev/null
        local deadline=$(($(date +%s) + 20))
        while kill -0 "${pids[i]}" 2>/dev/null && [ "$(date +%s)" -lt "$deadline" ]; do sleep 0.1; done
        kill -9 "${pids[i]}" 2>/dev/null
        wait "${pids[i]}" 2>/dev/null
    done
    # Job steps (slurmstepd) and job processes that outlived slurmd, found by the mark
    # (read with builtins only, so no process of this cleanup carries it but this shell).
    local left=0 e p kv
    for e in /proc/[0-9]*/environ; do
        p="${e#/proc/}"; p="${p%/environ}"
        [ "$p" = $$ ] && continue
        while IFS= read -r -d '' kv; do
            [ "$kv" = "CARDSIM_TEST_SLURM=$work" ] && { kill -9 "$p" 2>/dev/null && left=$((left + 1)); break; }
        done 2>/dev/null <"$e"
    done
    [ "$left" = 0 ] || say "ended $left leftover process(es) of the test cluster"
    if [ "${KEEP:-}" = 1 ]; then say "kept $work"; else rm -rf "$work"; fi
    say "took $(($(date +%s) - started)) s"
    exit "$rc"
}
trap cleanup EXIT
trap 'fail "interrupted"' INT TERM HUP

# Waits up to $2 seconds for the test $1 (a shell condition) to hold.
wait_for() {
    local deadline=$(($(date +%s) + $2))
    until eval "$1"; do
        [ "$(date +%s)" -lt "$deadline" ] || return 1
        sleep 0.1
    done
}

mungekey -c -k "$work/munge/munge.key" >/dev/null 2>&1 || skip "mungekey could not create a key"
munged -F -S "$work/run/munge.sock" --key-file="$work/munge/munge.key" --log-file="$work/log/munged.log" \
    --pid-file="$work/run/munged.pid" --seed-file="$work/munge/munged.seed" >"$work/log/munged.out" 2>&1 &
pids+=($!)
wait_for '[ -S "$work/run/munge.sock" ]' 20 || { show_logs; skip "munged would not start"; }

node="$(slurmd -C 2>/dev/null | head -1)"
[[ "$node" == NodeName=* ]] || skip "slurmd -C did not describe this node: $node"
name="$(hostname -s)"
node="NodeName=$name ${node#NodeName=* }" # the name slurmctld and slurmd agree on
# Ports of this test's own, apart from a Slurm that may run here (6817/6818).
port=$((20000 + 2 * ($$ % 10000)))
export SLURM_CONF="$work/slurm.conf"
cat >"$SLURM_CONF" <<EOF
ClusterName=cardsimtest
SlurmctldHost=$name(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$work/run/munge.sock
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/run/slurmctld.pid
SlurmdPidFile=$work/run/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
MailProg=/bin/true
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU_Memory
DefMemPerCPU=512
ReturnToService=2
MinJobAge=3600
KillWait=30
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
$node NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=test Nodes=$name Default=YES MaxTime=INFINITE State=UP
EOF
say "node: $node"
slurmctld -D -f "$SLURM_CONF" >"$work/log/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" >"$work/log/slurmd.out" 2>&1 &
pids+=($!)
wait_for '[ "$(timeout 10 sinfo -h -o %t 2>/dev/null)" = idle ]' 60 || { show_logs; skip "slurmctld and slurmd would not bring the node up (idle)"; }
say "slurm is up: $(sinfo -h -o '%P %t %c CPUs %m MB' 2>/dev/null)"

# --- The documented workflow -------------------------------------------------------------------
parts="$work/parts"
merged="$work/merged"
mkdir -p "$parts/partial-$failing-of-$shards.json" # a folder where task 3's output goes
cd "$work/submit" || fail "cd $work/submit"
export CARDSIM="$bin" # deploy/slurm.sbatch runs $CARDSIM, else cardsim from the PATH
sbatch=(timeout 30 sbatch --parsable --cpus-per-task=1)
shard_job=("$repo/deploy/slurm.sbatch" "$experiment" "$parts" "$shards" --games "$games")
merge_cmd="$(printf '%q ' "$bin" merge "$parts" --out "$merged")"
checkpoint() { echo "$parts/.resume-$1-of-$shards.json"; }
# Waits for task $2 of job $1 to write its first checkpoint; FAIL if it ends first.
wait_checkpoint() {
    local job="$1" task="$2" # (wait_for's condition sees these, not $1 and $2)
    wait_for '[ -e "$(checkpoint $task)" ] || states "$job" | grep -q "^$task \(COMPLETED\|FAILED\|CANCELLED\)"' 180 ||
        fail "task $task wrote no checkpoint within 180 s"
    [ -e "$(checkpoint $task)" ] || fail "task $task ended before its first checkpoint was seen: $(states "$job" | grep "^$task ")"
}

jid=$("${sbatch[@]}" --array=1-$shards "${shard_job[@]}") || fail "sbatch of the array failed"
mid=$("${sbatch[@]}" --dependency=afterok:$jid --kill-on-invalid-dep=yes --job-name=cardsim-merge --output=merge-%j.log --wrap "$merge_cmd") || fail "sbatch of the merge failed"
say "submitted array job $jid (tasks 1-$shards) and merge job $mid (afterok:$jid, kill-on-invalid-dep)"

wait_checkpoint "$jid" "$requeued"
timeout 30 scontrol requeue "${jid}_$requeued" || fail "scontrol requeue ${jid}_$requeued failed"
say "requeued task $requeued (SIGTERM) after its first checkpoint"
# Slurm holds a requeued job back for a while (Reason=BeginTime): let it start now.
wait_for 'states "$jid" | grep -q "^$requeued PENDING"' 120 || fail "requeued task $requeued did not return to the queue"
timeout 30 scontrol update jobid="${jid}_$requeued" StartTime=now || fail "scontrol update StartTime=now failed"
wait_checkpoint "$jid" "$cancelled"
timeout 30 scancel "${jid}_$cancelled" || fail "scancel ${jid}_$cancelled failed"
say "cancelled task $cancelled (SIGTERM) after its first checkpoint"
wait_jobs 300 "$jid" "$mid"
say "first round:"
states "$jid" | sed 's/^/  task /'
states "$mid" | sed 's/^/  merge /'
for k in $(seq 1 $shards); do
    case $k in
        "$failing") want=FAILED ;;
        "$cancelled") want=CANCELLED ;;
        *) want=COMPLETED ;;
    esac
    states "$jid" | grep -q "^$k $want " || fail "task $k is not $want"
done
states "$mid" | grep -q '^- CANCELLED DependencyNeverSatisfied' || fail "the merge was not cancelled for its failed dependency"
[ ! -e "$merged" ] || fail "the cancelled merge wrote $merged"
# SIGTERM is handled like Ctrl-C: the finished units stay saved in the checkpoint.
for k in "$requeued" "$cancelled"; do
    log="cardsim-${jid}_$k.log"
    grep -q "^interrupted: .* units are saved in" "$log" || { cat "$log"; fail "task $k did not save its work on SIGTERM"; }
    say "task $k on SIGTERM: $(grep '^interrupted: .* units are saved in' "$log" | head -1)"
done
log="cardsim-${jid}_$requeued.log"
grep -q "^resuming .*units already played" "$log" || { cat "$log"; fail "requeued task $requeued did not continue its checkpoint"; }
say "requeued task $requeued, second run: $(grep '^resuming' "$log")"
say "task $failing's log: $(grep -v '^slurm.sbatch: shard' "cardsim-${jid}_$failing.log" | tail -1)"
[ -e "$(checkpoint $cancelled)" ] || fail "task $cancelled left no checkpoint after scancel"

# The operator removes what made task 3 fail and reruns the failed tasks alone.
rmdir "$parts/partial-$failing-of-$shards.json" || fail "could not remove the folder in the way"
rid=$("${sbatch[@]}" --array=$failing,$cancelled "${shard_job[@]}") || fail "sbatch --array=$failing,$cancelled failed"
mid2=$("${sbatch[@]}" --dependency=afterok:$rid --kill-on-invalid-dep=yes --job-name=cardsim-merge --output=merge-%j.log --wrap "$merge_cmd") || fail "sbatch of the second merge failed"
say "reran tasks $failing and $cancelled alone (job $rid, --array=$failing,$cancelled); merge job $mid2 (afterok:$rid)"
wait_jobs 300 "$rid" "$mid2"
say "second round:"
states "$rid" | sed 's/^/  task /'
states "$mid2" | sed 's/^/  merge /'
for k in "$failing" "$cancelled"; do
    states "$rid" | grep -q "^$k COMPLETED " || { cat "cardsim-${rid}_$k.log"; fail "rerun task $k did not complete"; }
done
states "$mid2" | grep -q '^- COMPLETED ' || { cat "merge-$mid2.log"; fail "the merge did not complete"; }
log="cardsim-${rid}_$cancelled.log"
grep -q "^resuming .*units already played" "$log" || { cat "$log"; fail "rerun task $cancelled did not continue its checkpoint"; }
say "rerun task $cancelled: $(grep '^resuming' "$log")"
for k in $(seq 1 $shards); do
    [ -f "$parts/partial-$k-of-$shards.json" ] || fail "partial-$k-of-$shards.json is missing"
    [ ! -e "$(checkpoint $k)" ] || fail "the finished task $k left its checkpoint behind"
done
say "merge: $(tail -1 "merge-$mid2.log")"

# --- The same study in one run -------------------------------------------------------------------
single="$work/single"
timeout 600 "$bin" run "$experiment" --games "$games" --out "$single" --quiet >"$work/single.log" 2>&1 || { cat "$work/single.log"; fail "the single run failed"; }
if diff -r "$single" "$merged" >"$work/diff" 2>&1; then
    say "merged folder = single run, byte for byte: $(cd "$merged" && for f in *; do printf '%s %s B, ' "$f" "$(stat -c %s "$f")"; done)"
    say "PASS"
else
    head -50 "$work/diff"
    say "FAIL: the merged folder differs from the single run (diff -r above, its first 50 lines)"
    exit 1
fi
