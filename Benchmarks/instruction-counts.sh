#!/usr/bin/env bash
# Instruction counts of the shader and the on-screen frame: a measure that does not move with the
# machine's load, unlike wall-clock time. Callgrind (valgrind) counts the instructions executed
# (Ir) by an AVX2 build, since valgrind 3.19 runs no AVX-512 and reads no DWARF 5 (the binary is
# stripped of its debug information; function names come from its symbol table).
#
# Each measure runs `kira bench --threads 1 --repeats 1` on a 1260x1760 card (`kira textures`)
# with 1 and with 3 frames; half the difference is one frame, so start-up, reading the textures
# and the untimed first frame cancel. Printed: Ir per cold shade of the face (`--path simd`,
# noise tables recomputed) and per on-screen frame (`--path frame`: shading the front face,
# projecting it onto the 2340x3170 canvas), per face pixel, and the functions that execute them.
# Takes 1-2 minutes beside the build. Usage: Benchmarks/instruction-counts.sh [OUT_DIR]
# KIRA_AVX2_SCRATCH_PATH=DIR builds there (default .build-avx2; keep it apart from .build).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$root/output/instruction-counts}"
mkdir -p "$out/card"
scratch="${KIRA_AVX2_SCRATCH_PATH:-$root/.build-avx2}"
command -v valgrind >/dev/null || { echo "instruction-counts.sh: needs valgrind (apt-get install valgrind)" >&2; exit 2; }

# x86-64-v3 (AVX2, FMA, BMI2): swiftc's -target-cpu takes CPU names only, and haswell is that set.
(cd "$root" && swift build -c release --product kira --scratch-path "$scratch" --disable-default-traits \
    -Xswiftc -target-cpu -Xswiftc haswell -Xcc -march=haswell >/dev/null)
kira="$out/kira-avx2"
strip --strip-debug -o "$kira" "$scratch/release/kira"
"$kira" textures --size 1260x1760 --output-dir "$out/card" >/dev/null

count() {  # count PATH FRAMES: callgrind's output file of one bench run
    local file="$out/callgrind.$1.$2"
    valgrind --tool=callgrind --callgrind-out-file="$file" "$kira" bench --art "$out/card/front.png" \
        --mask "$out/card/mask.png" --path "$1" --threads 1 --frames "$2" --repeats 1 --quiet --json \
        >/dev/null 2>"$file.log"
}

for path in simd frame; do
    count "$path" 1
    count "$path" 3
done

python3 - "$out" <<'PY'
import re, subprocess, sys
out = sys.argv[1]
pixels = 1260 * 1760

def functions(file):
    """Exclusive Ir per function of one callgrind output file."""
    text = subprocess.run(["callgrind_annotate", "--threshold=100", "--inclusive=no", file],
                          capture_output=True, text=True, check=True).stdout
    total = int(re.search(r"^([\d,]+)\s+\(100.0%\)\s+PROGRAM TOTALS", text, re.M).group(1).replace(",", ""))
    per = {}
    for line in text.splitlines():
        m = re.match(r"^\s*([\d,]+)\s+\([\s\d.]+%\)\s+(?:\S+:)?(\S+)\s+\[", line)
        if m:
            name = m.group(2)
            per[name] = per.get(name, 0) + int(m.group(1).replace(",", ""))
    return total, per

def demangle(names):
    text = subprocess.run(["swift", "demangle", "--simplified", "--compact"], input="\n".join(names),
                          capture_output=True, text=True).stdout
    return text.splitlines() if text else names

labels = {"simd": "cold shade of the 1260x1760 face", "frame": "on-screen frame (face shaded, projected onto 2340x3170)"}
for path in ("simd", "frame"):
    one_total, one = functions(f"{out}/callgrind.{path}.1")
    three_total, three = functions(f"{out}/callgrind.{path}.3")
    frame = (three_total - one_total) / 2
    print(f"{labels[path]}: {frame / 1e6:8.1f} M instructions, {frame / pixels:6.1f} per face pixel")
    diff = {name: (three.get(name, 0) - one.get(name, 0)) / 2 for name in set(one) | set(three)}
    top = sorted((item for item in diff.items() if item[1] > frame * 0.005), key=lambda item: -item[1])
    for (name, ir), nice in zip(top, demangle([name for name, _ in top])):
        print(f"  {ir / 1e6:8.1f} M  {ir / pixels:6.1f}/px  {100 * ir / frame:5.1f}%  {nice[:110]}")
PY
