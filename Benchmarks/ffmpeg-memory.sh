#!/usr/bin/env bash
# ffmpeg's own peak memory (maximum resident set size, /usr/bin/time -v) while it encodes what
# `kira animate --video` sends it, per format, frame size, encoder thread count and clip length:
# the figures behind the video share of kira's memory estimate (docs/robustness.md, "Memory
# budget"). Kira runs ffmpeg through a wrapper that measures it and, with FFM_THREADS, sets its
# `-threads` (unset: the arguments Kira itself passes).
#
#   Benchmarks/ffmpeg-memory.sh [sizes] [threads] [formats] [frames]    (from the package's root)
#   e.g. Benchmarks/ffmpeg-memory.sh "512 1024 2048" "1 2 4" "mp4 webm webp gif" "24 48"
#
# Prints one line per run: format, size, threads, frames, peak MiB, seconds, file bytes.
# Needs ffmpeg, GNU time (/usr/bin/time) and a release build (swift build -c release).
set -euo pipefail
sizes="${1:-512 1024 2048}"
threads="${2:-1 2 4}"
formats="${3:-mp4 webm webp gif}"
frames="${4:-48}"
kira="$(pwd)/.build/release/kira"
[ -x "${KIRA:-$kira}" ] && kira="${KIRA:-$kira}" || { echo "build first: swift build -c release" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cat > "$work/ffmpeg" <<'WRAP'
#!/usr/bin/env bash
args=("$@"); n=${#args[@]}; extra=()
[ -n "${FFM_THREADS:-}" ] && extra+=(-threads "$FFM_THREADS")
exec /usr/bin/time -v -o "$FFM_LOG" ffmpeg "${args[@]:0:n-2}" "${extra[@]}" "${args[@]:n-2}"
WRAP
chmod +x "$work/ffmpeg"
printf '%-5s %-10s %-7s %-6s %-9s %-8s %s\n' format size threads frames peak_MiB seconds bytes
for size in $sizes; do
  for format in $formats; do
    for t in $threads; do
      for n in $frames; do
        export FFM_LOG="$work/time.log" FFM_THREADS="$t"
        [ "$t" = auto ] && unset FFM_THREADS
        # seed003-tilt at 24 frames/s: n frames are n/24 seconds.
        duration=$(awk "BEGIN { print $n / 24 }")
        "$kira" animate --preset seed003-tilt --fps 24 --duration "$duration" --size "${size}x${size}" --fit \
            --video "$work/v.$format" --ffmpeg "$work/ffmpeg" --max-memory 64G --quiet
        peak=$(awk '/Maximum resident/ { printf "%.0f", $6 / 1024 }' "$work/time.log")
        secs=$(awk -F': ' '/Elapsed/ { split($2, p, ":"); printf "%.1f", (length(p) == 3 ? p[1] * 3600 + p[2] * 60 + p[3] : p[1] * 60 + p[2]) }' "$work/time.log")
        printf '%-5s %-10s %-7s %-6s %-9s %-8s %s\n' "$format" "${size}x${size}" "$t" "$n" "$peak" "$secs" "$(stat -c %s "$work/v.$format")"
        rm -f "$work/v.$format"
      done
    done
  done
done
