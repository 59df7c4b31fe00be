#!/usr/bin/env bash
# Shading the flat face side by side: Mesa's llvmpipe running kira.frag over the face (render.c,
# one full-screen draw per flush) and `kira bench`'s cold shade (`simd`: the whole shader for
# every pixel, noise tables recomputed) and tilt sweep (`sweep`), in one run, with the ratios.
# Card 1260x1760 (`kira textures`), normal of tilt (4°, -10°), as `kira bench`'s first frame.
# Optional; not part of `swift test`. Needs what run.sh needs (libegl-dev, libgl-dev,
# libgl1-mesa-dri). Usage: Tests/LLVMPipe/shade-rate.sh [LLVMPIPE_DRAWS]   (writes into
# output/llvmpipe/shade/). Timings on a shared machine are noisy: llvmpipe is timed before and
# after Kira, and the ratios use the mean. KIRA_SCRATCH_PATH as for run.sh.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
here="$root/Tests/LLVMPipe"
out="$root/output/llvmpipe/shade"
mkdir -p "$out/card"
draws="${1:-60}"
threads="${LP_NUM_THREADS:-$(nproc)}"

also_need=()
source "$here/prepare.sh"
"$kira" textures --size 1260x1760 --output-dir "$out/card" >/dev/null

read -r nx ny nz <<< "$(normal_of 4 -10)"

llvmpipe() {
    (cd "$here" && GALLIUM_DRIVER=llvmpipe LP_NUM_THREADS="$threads" "$out/render" \
        "$out/card/front.png" "$out/card/mask.png" "$nx" "$ny" "$nz" "$out/llvmpipe.png" "$draws" 2>/dev/null) |
        sed -n 's/^llvmpipe: \([0-9.]*\) Mpx\/s.*/\1/p'
}

first=$(llvmpipe)
"$kira" bench --art "$out/card/front.png" --mask "$out/card/mask.png" --path simd --path sweep --threads "$threads" \
    --json --quiet > "$out/bench.json"
second=$(llvmpipe)

python3 - "$first" "$second" "$threads" "$out/bench.json" <<'PY'
import json, sys
first, second, threads, bench = sys.argv[1:]
threads = int(threads)
llvm = (float(first) + float(second)) / 2
paths = json.load(open(bench))["paths"]
def rate(name):
    return max(p["mpx_per_s"] for p in paths if p["name"] == name and p["threads"] == threads)
print(f"threads                    {threads}")
print(f"llvmpipe shade             {llvm:7.1f} Mpx/s   (before {float(first):.1f}, after {float(second):.1f})")
print(f"kira bench simd (cold)     {rate('simd'):7.1f} Mpx/s   {rate('simd') / llvm:5.2f}x llvmpipe")
print(f"kira bench sweep           {rate('sweep'):7.1f} Mpx/s   {rate('sweep') / llvm:5.2f}x llvmpipe")
PY
