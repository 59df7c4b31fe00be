#!/usr/bin/env bash
# examples/slurm-array.sh on a real Slurm: a single-node cluster (Debian's munge, slurmctld and
# slurmd, started as root with a generated slurm.conf, state and spool in a temporary folder)
# runs the example with `sbatch --wait`, overriding on the command line what a 2-core node cannot
# give (the example keeps values for a real cluster). Then:
#   1. a 40-row catalogue over 4 array tasks: every output byte-identical (cmp) to `kira render`
#      with the same values;
#   2. a catalogue large enough that a task takes several seconds: one task is cancelled
#      (scancel) once its first outputs appear, the job is submitted again, and the catalogue
#      must then be complete with no partial or temporary file.
# The daemons are stopped by their pid files on exit.
#
#   Tests/Slurm/run.sh            (from the package's root, as root; CI runs it)
#
# KIRA=path picks the kira binary (default: .build/release/kira, built when missing).
# KEEP_WORK=1 keeps the scratch folder (its path is printed) with the daemons' logs.
set -euo pipefail
cd "$(dirname "$0")/../.."
root="$(pwd)"
[ "$(id -u)" -eq 0 ] || { echo "Tests/Slurm/run.sh: needs root (slurmd and munged run as root here)" >&2; exit 2; }
for tool in munged slurmctld slurmd sbatch scancel squeue sinfo; do
    command -v "$tool" >/dev/null || { echo "Tests/Slurm/run.sh: $tool missing (Debian: munge slurmctld slurmd slurm-client)" >&2; exit 2; }
done
kira="${KIRA:-$root/.build/release/kira}"
[ -x "$kira" ] || swift build -c release --product kira >/dev/null
kira="$(cd "$(dirname "$kira")" && pwd)/$(basename "$kira")"

work="$(mktemp -d /tmp/kira-slurm.XXXXXX)"
chmod 755 "$work"
stop() {
    for pidfile in "$work/slurmd.pid" "$work/slurmctld.pid" "$work/munge/munged.pid"; do
        [ -s "$pidfile" ] || continue
        pid="$(cat "$pidfile")"
        kill "$pid" 2>/dev/null || continue
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    done
    if [ -n "${KEEP_WORK:-}" ]; then echo "kept $work"; else rm -rf "$work"; fi
}
trap stop EXIT
fail() {
    echo "Tests/Slurm/run.sh: FAILED: $*" >&2
    for log in "$work"/slurmctld.log "$work"/slurmd.log "$work"/munge/munged.log; do
        [ -f "$log" ] && { echo "--- $log (end)" >&2; tail -n 15 "$log" >&2; }
    done
    exit 1
}

# munge: a fresh key, its socket in the scratch folder.
mkdir -p "$work/munge" && chmod 700 "$work/munge"
dd if=/dev/urandom of="$work/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$work/munge/munge.key"
socket="$work/munge/munge.socket"
munged --force --key-file="$work/munge/munge.key" --socket="$socket" --pid-file="$work/munge/munged.pid" \
    --log-file="$work/munge/munged.log" --seed-file="$work/munge/munged.seed"

# Two free ports for the daemons.
free_port() {
    local port
    while :; do
        port=$((20000 + RANDOM % 30000))
        ss -ltn | awk '{ print $4 }' | grep -q ":$port\$" || { echo "$port"; return; }
    done
}
controller_port="$(free_port)"
node_port="$(free_port)"
[ "$node_port" != "$controller_port" ] || node_port=$((controller_port + 1))
memory_mb=$(( $(awk '/MemTotal/ { print $2 }' /proc/meminfo) / 1024 ))
mkdir -p "$work/state" "$work/spool"
export SLURM_CONF="$work/slurm.conf"
cat > "$SLURM_CONF" <<EOF
ClusterName=kira-test
SlurmctldHost=$(hostname -s)(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$controller_port
SlurmdPort=$node_port
AuthType=auth/munge
AuthInfo=socket=$socket
CredType=cred/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
PlugStackConfig=$work/plugstack.conf
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
MpiDefault=none
ReturnToService=2
SchedulerType=sched/backfill
SchedulerParameters=sched_interval=1
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
NodeName=localhost NodeAddr=127.0.0.1 CPUs=2 RealMemory=$memory_mb State=UNKNOWN
PartitionName=kira Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
: > "$work/plugstack.conf"
slurmctld -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF" -N localhost
for _ in $(seq 100); do
    sinfo -h -o %t 2>/dev/null | grep -qE '^(idle|mix|alloc)' && break
    sleep 0.2
done
sinfo -h -o %t | grep -qE '^(idle|mix|alloc)' || fail "the node did not come up: $(sinfo -h -o '%t %E' 2>&1)"
echo "slurm: up in ${SECONDS} s (controller port $controller_port, node port $node_port, RealMemory $memory_mb MB)"

# Shared storage: the scratch folder. Textures from kira itself.
cd "$work"
"$kira" textures --output-dir textures
submit() {  # submit MANIFEST LOGNAME: the example as an array of 4 tasks; waits for it
    sbatch --wait --array=0-3 --cpus-per-task=1 --mem=1G --output="$work/$2-%A_%a.log" \
        --export=ALL,KIRA="$kira" "$root/examples/slurm-array.sh" "$work/$1" >/dev/null
}

# 1. 40 rows: 5 cards (one art file each) × 8 poses; each output against `kira render`.
mkdir -p art
echo "output,art,mask,back,back_mask,tilt_x,tilt_y,flip,size,background" > small.csv
poses=("0 0 0 200x260" "-8 10 0 200x260" "6 -12 0 180x240" "12 14 0 200x260" "5 0 60 200x260" "0 0 180 160x220" "-20 5 0 200x260" "3 3 30 240x300")
backgrounds=("" "#1b1f2a" "" "#ffffff" "" "" "#202020" "")
for card in 0 1 2 3 4; do
    cp textures/front.png "art/card$card.png"
    for p in 0 1 2 3 4 5 6 7; do
        read -r tx ty flip size <<< "${poses[$p]}"
        echo "small/card$card-$p.png,art/card$card.png,textures/mask.png,textures/back.png,textures/back-mask.png,$tx,$ty,$flip,$size,${backgrounds[$p]}" >> small.csv
    done
done
submit small.csv small || fail "the array job failed: $(cat "$work"/small-*.log)"
rows=0
while IFS=, read -r output art mask back backmask tx ty flip size background; do
    [ "$output" = output ] && continue
    rows=$((rows + 1))
    [ -f "$output" ] || fail "row $rows: $output was not written"
    set -- render --art "$art" --mask "$mask" --back "$back" --back-mask "$backmask" "--tilt-x=$tx" "--tilt-y=$ty" --size "$size" -o reference.png
    [ -n "$flip" ] && set -- "$@" "--flip=$flip"
    [ -n "$background" ] && set -- "$@" --background "$background"
    "$kira" "$@"
    cmp -s reference.png "$output" || fail "$output differs from kira render with the same values"
done < small.csv
[ "$rows" -eq 40 ] || fail "expected 40 rows, read $rows"
grep -h '"rendered"' small-*.log > /dev/null || fail "no task summary in the logs"
echo "slurm: 40 rows over 4 array tasks, each output identical to kira render (${SECONDS} s)"

# 2. A larger catalogue: a task takes several seconds. One task is cancelled once its first
#    outputs appear; a second submission completes the catalogue.
echo "output,art,mask,back,back_mask,tilt_x,tilt_y,size" > large.csv
for row in $(seq 0 159); do
    echo "large/frame$row.png,art/card$((row % 5)).png,textures/mask.png,textures/back.png,textures/back-mask.png,$(( row % 31 - 15 )),$(( row % 17 - 8 )),900x1200" >> large.csv
done
sbatch --array=0-3 --cpus-per-task=1 --mem=1G --output="$work/large-%A_%a.log" \
    --export=ALL,KIRA="$kira" "$root/examples/slurm-array.sh" "$work/large.csv" > submitted.txt
job="$(awk '{ print $NF }' submitted.txt)"
# Task 0 writes rows 0…39: cancel it once some of them exist.
task0() { find large -name 'frame[0-9]*.png' 2>/dev/null | awk -F'frame' '{ split($NF, n, "."); if (n[1] < 40) c++ } END { print c + 0 }'; }
for _ in $(seq 600); do
    [ "$(task0)" -ge 2 ] && break
    sleep 0.1
done
[ "$(task0)" -ge 2 ] || fail "task 0 wrote no two outputs in 60 s: nothing to cancel mid-way"
scancel "${job}_0"
for _ in $(seq 600); do
    [ -z "$(squeue -h -j "$job" 2>/dev/null)" ] && break
    sleep 0.2
done
[ -z "$(squeue -h -j "$job" 2>/dev/null)" ] || fail "job $job still queued 120 s after the cancel"
first=$(find large -name 'frame*.png' | wc -l)
[ "$(task0)" -lt 40 ] || fail "the cancelled task had finished its rows already: make the catalogue larger"
echo "slurm: task 0 cancelled with $(task0) of its 40 rows written, $first of 160 in all"
submit large.csv large-again || fail "the second submission failed: $(cat "$work"/large-again-*.log)"
count=$(find large -name 'frame*.png' | wc -l)
[ "$count" -eq 160 ] || fail "after resubmitting, $count of 160 outputs"
leftovers=$(find large .large.csv.kira-state -name '*.kira-[0-9]*' | wc -l)
[ "$leftovers" -eq 0 ] || fail "temporary files left: $(find large .large.csv.kira-state -name '*.kira-[0-9]*')"
hidden=$(find large small -name '.*' | wc -l)
[ "$hidden" -eq 0 ] || fail "the output folders hold more than the outputs: $(find large small -name '.*' | head -3)"
records=$(find .large.csv.kira-state -name '*.kira-batch' | wc -l)
[ "$records" -eq 160 ] || fail "$records records in the state folder, not 160"
for f in large/frame*.png; do "$kira" compare "$f" "$f" --json >/dev/null || fail "$f is not a whole PNG"; done
skipped=$(cat large-again-*.log | grep -o '"skipped":[0-9]*' | awk -F: '{ s += $2 } END { print s + 0 }')
[ "$skipped" -ge 1 ] || fail "the second submission redid everything (nothing up to date)"
echo "slurm: resubmitted, 160 of 160 outputs, $skipped up to date, no partial or temporary file (${SECONDS} s)"
