#!/usr/bin/env bash
# The on-screen frame side by side: Mesa's llvmpipe drawing it as a GPU app does (render.c
# --frame: pass 1 the kira shader into an RGBA8 texture of the face, pass 2 a bilinear
# perspective quad of it on a cleared canvas, no MSAA, one frame per flush), `kira bench`'s
# `frame` path (the same card, canvas and pose family), and `kira animate --apng` end to end
# (render, encode, write), all in one run, with the ratios. Card 1260x1760 (`kira textures`),
# canvas 2340x3170, tilt (6°, 0°), flip 25°. Optional; not part of `swift test`. Needs what
# run.sh needs (libegl-dev, libgl-dev, libgl1-mesa-dri), and GNU time for the peak memory.
# Usage: Tests/LLVMPipe/frame-rate.sh [LLVMPIPE_FRAMES]   (writes into output/llvmpipe/frame/)
# Timings on a shared machine are noisy: the llvmpipe frame is timed before and after the Kira
# runs, and the ratios use the mean. KIRA_SCRATCH_PATH as for run.sh.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
here="$root/Tests/LLVMPipe"
out="$root/output/llvmpipe/frame"
mkdir -p "$out/card"
frames="${1:-60}"
threads="${LP_NUM_THREADS:-$(nproc)}"

also_need=()
[ -x /usr/bin/time ] || also_need=(time)
source "$here/prepare.sh"
"$kira" textures --size 1260x1760 --output-dir "$out/card"
card=(--art "$out/card/front.png" --mask "$out/card/mask.png" --back "$out/card/back.png" --back-mask "$out/card/back-mask.png")

tx=6 ty=0 flip=25
read -r nx ny nz <<< "$(normal_of "$tx" "$ty")"
homography=$(python3 "$here/homography.py" 1260 1760 2340 3170 "$tx" "$ty" "$flip")

llvmpipe() {
    (cd "$here" && GALLIUM_DRIVER=llvmpipe LP_NUM_THREADS="$threads" "$out/render" --frame \
        "$out/card/front.png" "$out/card/mask.png" "$nx" "$ny" "$nz" 2340 3170 $homography "$out/llvmpipe.png" "$frames" 2>/dev/null) |
        sed -n 's/.*: \([0-9.]*\) frames\/s.*/\1/p'
}

first=$(llvmpipe)
bench=$("$kira" bench --art "$out/card/front.png" --mask "$out/card/mask.png" --path frame --threads "$threads" --json --quiet |
    python3 -c "import json, sys; r = json.load(sys.stdin); print(max(p['frames_per_s'] for p in r['paths'] if p['name'] == 'frame' and p['threads'] == $threads))")
rm -f "$out/animation.png"
/usr/bin/time -f "%e %M" -o "$out/animate.time" "$kira" animate --preset seed003-tilt-flip --fps 30 --size 2340x3170 \
    "${card[@]}" --threads "$threads" --apng "$out/animation.png" --quiet
second=$(llvmpipe)

read -r seconds peak_kb < "$out/animate.time"
count=$(python3 -c "import struct; b = open('$out/animation.png', 'rb').read(); i = b.index(b'acTL'); print(struct.unpack('>I', b[i + 4:i + 8])[0])")
bytes=$(stat -c %s "$out/animation.png")
# The same frame from both, compared (geometry check: they differ only along the edges).
"$kira" render "${card[@]}" --tilt-x "$tx" --tilt-y "$ty" --flip "$flip" --size 2340x3170 -o "$out/kira.png"
"$kira" compare "$out/llvmpipe.png" "$out/kira.png" --json > "$out/compare.json" || true

python3 - "$first" "$second" "$bench" "$count" "$seconds" "$peak_kb" "$bytes" "$threads" "$out/compare.json" <<'PY'
import json, sys
first, second, bench, count, seconds, peak_kb, size, threads, compare = sys.argv[1:]
llvm = (float(first) + float(second)) / 2
animate = int(count) / float(seconds)
comparison = json.load(open(compare))
print(f"threads                          {threads}")
print(f"llvmpipe two-pass frame          {llvm:6.1f} frames/s   (before {float(first):.1f}, after {float(second):.1f})")
print(f"kira bench frame                 {float(bench):6.1f} frames/s   {float(bench) / llvm:5.2f}x llvmpipe")
print(f"kira animate --apng, end to end  {animate:6.1f} frames/s   {animate / llvm:5.2f}x llvmpipe"
      f"   ({count} frames in {float(seconds):.2f} s, peak {int(peak_kb) / 1024:.0f} MiB, {int(size) / 1e6:.1f} MB)")
print(f"llvmpipe vs kira frame           PSNR {comparison['psnr']:.1f} dB, SSIM {comparison['ssim']:.4f}")
PY
