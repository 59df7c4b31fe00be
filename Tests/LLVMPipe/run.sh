#!/usr/bin/env bash
# An independent reference: the kira shader as GLSL (kira.frag), rendered by Mesa's llvmpipe
# (EGL, surfaceless) and compared with Kira's render of the same face. Optional; not part of
# `swift test`. Needs Debian's libegl-dev, libgl-dev (or libgl1-mesa-dev) and libgl1-mesa-dri.
# Usage: Tests/LLVMPipe/run.sh [TILT_X TILT_Y]   (from anywhere; writes into output/llvmpipe/)
# KIRA_SCRATCH_PATH=DIR builds kira there instead of .build (swift build --scratch-path).
# Why the two differ, built-in by built-in: Tests/LLVMPipe/diagnose.py (after this script).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
here="$root/Tests/LLVMPipe"
out="$root/output/llvmpipe"
mkdir -p "$out"
tx="${1:--8}" ty="${2:-10}"

also_need=()
source "$here/prepare.sh"

read -r nx ny nz <<< "$(normal_of "$tx" "$ty")"

cd "$here"
GALLIUM_DRIVER=llvmpipe LP_NUM_THREADS="${LP_NUM_THREADS:-2}" \
    "$out/render" "$root/textures/front.png" "$root/textures/mask.png" "$nx" "$ny" "$nz" "$out/llvmpipe.png" 20
"$kira" shade --art "$root/textures/front.png" --mask "$root/textures/mask.png" --normal "$nx,$ny,$nz" -o "$out/kira.png"
"$kira" compare "$out/llvmpipe.png" "$out/kira.png" --diff "$out/diff.png" --min-psnr 50
