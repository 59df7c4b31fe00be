#!/usr/bin/env bash
# The drag-file and video-memory reproductions at full scale (CI runs them smaller, with a lower
# --max-memory, in BudgetAndLimitTests): a 0.9 GB and a 250 MB drag file, a drag one sample over
# the limit, and the 8192² WebM that ffmpeg took 13.8 GiB for. Each run prints its exit status,
# its first line on stderr, its wall time and kira's peak memory (/usr/bin/time).
#
#   Tests/FullScale/run.sh        (from the package's root; needs ~2 GB of disk in $TMPDIR)
set -euo pipefail
kira="${KIRA:-$(pwd)/.build/release/kira}"
[ -x "$kira" ] || { echo "build first: swift build -c release" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"

run() {  # run LABEL ARGS…: one kira run, measured
    local label="$1"; shift
    local status=0
    /usr/bin/time -f "%e %M" -o time.txt "$kira" "$@" > /dev/null 2> err.txt || status=$?
    read -r seconds kilobytes < <(tail -n 1 time.txt)
    printf '%-34s exit %s, %6.2f s, peak %5d MiB: %s\n' "$label" "$status" "$seconds" $((kilobytes / 1024)) "$(grep -v '^Command' err.txt | head -n 1)"
}

# Drag files of time,dx,dy lines (13–20 bytes a line, times increasing).
drag() { awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) printf "%.7f,%d,%d\n", i / 1e7, i % 97, i % 89 }' > "$2"; }
drag 1000001 over-limit.csv
drag 15000000 drag-250MB.csv
drag 52000000 drag-900MB.csv
ls -l over-limit.csv drag-250MB.csv drag-900MB.csv | awk '{ print $5, $NF }'
animate=(animate --preset seed003-tilt --fps 1 --size 64x64 --fit --output-dir frames --quiet)
run "drag: 1 000 001 samples" "${animate[@]}" --drag over-limit.csv
run "drag: 250 MB" "${animate[@]}" --drag drag-250MB.csv
run "drag: 900 MB" "${animate[@]}" --drag drag-900MB.csv
run "drag: 900 MB, --max-memory 512M" "${animate[@]}" --drag drag-900MB.csv --max-memory 512M

# The WebM: refused before anything renders (ffmpeg's share is in the estimate).
run "8192² WebM at 2 fps" animate --preset seed003-tilt --size 8192x8192 --fps 2 --video v.webm --quiet
run "8192² WebM, --max-memory 24G" animate --preset seed003-tilt --size 8192x8192 --fps 2 --video v.webm --quiet --max-memory 24G --ffmpeg /bin/false
