#!/usr/bin/env bash
# How closely Kira's on-screen frame agrees with Mesa's llvmpipe drawing it as a GPU app does
# (render.c --frame: the kira shader into a texture of the face, then a bilinear perspective
# quad of it, no MSAA), at several poses: ꟻLIP over the whole canvas (kira compare --metric
# flip), and PSNR over the whole canvas and inside the card alone
# (the pixels both draw opaque, one pixel in from any that is not), so that a change to how
# Kira maps canvas pixels onto the face shows apart from the edges, where Kira weighs the exact
# covered area and llvmpipe samples pixel centres. Card 1260x1760 (`kira textures`), canvas
# 2340x3170. Optional; not part of `swift test`. Needs what run.sh needs, NumPy and Pillow
# (pip install numpy pillow). Usage: Tests/LLVMPipe/frame-agreement.sh   (writes into
# output/llvmpipe/agreement/). KIRA_SCRATCH_PATH as for run.sh.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
here="$root/Tests/LLVMPipe"
out="$root/output/llvmpipe/agreement"
mkdir -p "$out/card"

also_need=()
source "$here/prepare.sh"
"$kira" textures --size 1260x1760 --output-dir "$out/card" >/dev/null
card=(--art "$out/card/front.png" --mask "$out/card/mask.png")

# Tilt x, tilt y, flip: the frame benchmark's pose, the seed's default drag extremes, a card
# seen straight on, and a strong flip (the face foreshortened, partly minified).
poses=("6 0 25" "-8 10 0" "0 0 0" "10 -10 50")
for pose in "${poses[@]}"; do
    read -r tx ty flip <<< "$pose"
    read -r nx ny nz <<< "$(normal_of "$tx" "$ty")"
    homography=$(python3 "$here/homography.py" 1260 1760 2340 3170 "$tx" "$ty" "$flip")
    name="pose_${tx}_${ty}_${flip}"
    (cd "$here" && GALLIUM_DRIVER=llvmpipe "$out/render" --frame "$out/card/front.png" "$out/card/mask.png" \
        "$nx" "$ny" "$nz" 2340 3170 $homography "$out/$name-llvmpipe.png" 1 >/dev/null 2>&1)
    "$kira" render "${card[@]}" --tilt-x "$tx" --tilt-y "$ty" --flip "$flip" --size 2340x3170 -o "$out/$name-kira.png"
done

python3 - "$out" "${poses[@]}" <<'PY'
import sys
import numpy as np
from PIL import Image

out, poses = sys.argv[1], sys.argv[2:]


def psnr(a, b):
    mse = np.mean((a.astype(np.float64) - b.astype(np.float64)) ** 2)
    return float("inf") if mse == 0 else 10 * np.log10(255.0 ** 2 / mse)


print(f"{'tilt x, tilt y, flip':<22} {'whole':>9} {'inside':>9} {'inside px':>10} {'inside off >1':>14}")
for pose in poses:
    tx, ty, flip = pose.split()
    name = f"{out}/pose_{tx}_{ty}_{flip}"
    gl = np.asarray(Image.open(f"{name}-llvmpipe.png").convert("RGBA"))
    kira = np.asarray(Image.open(f"{name}-kira.png").convert("RGBA"))
    opaque = (gl[..., 3] == 255) & (kira[..., 3] == 255)
    # One pixel in from every pixel that is not opaque in both: edge pixels drop out.
    inside = opaque.copy()
    inside[1:, :] &= opaque[:-1, :]
    inside[:-1, :] &= opaque[1:, :]
    inside[:, 1:] &= opaque[:, :-1]
    inside[:, :-1] &= opaque[:, 1:]
    whole = psnr(gl, kira)
    a, b = gl[inside][:, :3], kira[inside][:, :3]
    off = np.mean(np.max(np.abs(a.astype(int) - b.astype(int)), axis=1) > 1) * 100
    print(f"{tx + ', ' + ty + ', ' + flip:<22} {whole:7.2f} dB {psnr(a, b):6.2f} dB {int(inside.sum()):>10} {off:12.3f} %")
PY

# ꟻLIP at the default viewing distance (67 pixels per degree), the whole canvas, alpha over black:
# how visible the differences are when flipping between the two frames.
for pose in "${poses[@]}"; do
    read -r tx ty flip <<< "$pose"
    name="pose_${tx}_${ty}_${flip}"
    "$kira" compare "$out/$name-llvmpipe.png" "$out/$name-kira.png" --metric flip --json |
        python3 -c "import json, sys; f = json.load(sys.stdin)['flip']; print(f\"$tx, $ty, $flip: FLIP mean {f['mean']:.5f}, weighted median {f['weighted_median']:.5f}, max {f['max']:.3f}\")"
done
