#!/usr/bin/env bash
# The encoders Kira uses write the same bytes on every CPU: stills (libwebp, libjpeg-turbo,
# libswscale's downscaling, LittleCMS's colour conversion) and clips through ffmpeg (x264, libvpx,
# libwebp, GIF palettes). Each is made natively, then with the libraries as other CPUs run them:
#   - kira, and the ffmpeg it runs, under qemu-x86_64 as a Nehalem (x86-64-v2) and an EPYC-Milan
#     (Zen 3: AVX2, no AVX-512), so a Zen 4 machine tells what a Zen 3 one would write, and a
#     Zen 3 machine what a Nehalem would (qemu runs no AVX-512: Zen 4's paths are checked on Zen 4);
#   - natively with each library's SIMD off: ffmpeg's `-cpuflags 0`, libjpeg-turbo's
#     JSIMD_FORCENONE, libvpx's VPX_SIMD_CAPS_MASK=0.
# Under an emulated AVX2 CPU, kira's own pixels are rendered at v2 (KIRA_CPU=v2): qemu 7.2
# emulates some AVX2 forms wrongly (run.sh), and the level's bytes are the same anyway.
# Usage: Tests/CPULevels/encoders.sh [KIRA_BINARY] (default .build/release/kira)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
kira="${1:-$root/.build/release/kira}"
for program in qemu-x86_64 ffmpeg; do
    command -v "$program" >/dev/null || { echo "encoders: needs $program (apt-get install qemu-user ffmpeg)" >&2; exit 2; }
done
ffmpeg="$(command -v ffmpeg)"
work="$(mktemp -d)"
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
cd "$work"; [ -z "${KEEP:-}" ] || echo "encoders: working in $work" >&2
"$kira" textures --size 240x336 --output-dir card >/dev/null
# The art again with an Adobe RGB profile, which Kira converts to sRGB with LittleCMS.
python3 - card/front.png card/front-adobe.png /usr/share/color/icc/compatibleWithAdobeRGB1998.icc <<'EOF'
import struct, sys, zlib
source, target, profile = sys.argv[1:]
png = open(source, "rb").read()
data = b"Adobe RGB\0\0" + zlib.compress(open(profile, "rb").read())
chunk = struct.pack(">I", len(data)) + b"iCCP" + data + struct.pack(">I", zlib.crc32(b"iCCP" + data))
open(target, "wb").write(png[:33] + chunk + png[33:])
EOF

# stills NAME COMMAND...: every still into NAME-*, by kira run under COMMAND.
stills() {
    local name="$1"; shift
    "$@" "$kira" render --art card/front.png --mask card/mask.png --tilt-x 8 --tilt-y -14 --size 300x380 --fit \
        --background "#f3efe6" --output "$name-opaque.webp"
    "$@" "$kira" render --art card/front.png --mask card/mask.png --tilt-x -6 --size 300x380 --fit --output "$name-clear.webp"
    "$@" "$kira" render --art card/front.png --mask card/mask.png --tilt-x 8 --tilt-y -14 --size 300x380 --fit \
        --background "#1b1f2a" --output "$name-opaque.jpg"
    "$@" "$kira" render --art card/front.png --mask card/mask.png --flip 30 --size 600x760 --fit --width 240 \
        --output "$name-scaled.png"
    "$@" "$kira" render --art card/front-adobe.png --mask card/mask.png --tilt-y 10 --size 300x380 --fit \
        --output "$name-profile.png"
}
stills_made=(opaque.webp clear.webp opaque.jpg scaled.png profile.png)

# clips NAME COMMAND...: every clip into NAME-*, by kira run under COMMAND (give it the ffmpeg that
# runs as the same CPU: KIRA_FFMPEG).
clips() {
    local name="$1"; shift
    local card=(--art card/front.png --mask card/mask.png --preset showcase --fps 6 --duration 1 --size 160x200 --fit)
    "$@" "$kira" animate "${card[@]}" --background "#f3efe6" --threads 1 --video "$name-clip.mp4"
    "$@" "$kira" animate "${card[@]}" --threads 1 --video "$name-clip.webm"
    "$@" "$kira" animate "${card[@]}" --video-width 120 --video "$name-clip.webp"
    "$@" "$kira" animate "${card[@]}" --video "$name-clip.gif"
    "$@" "$kira" animate "${card[@]}" --size 300x380 --video-width 150 --background "#1b1f2a" --threads 1 --video "$name-scaled.mp4"
}
clips_made=(clip.mp4 clip.webm clip.webp clip.gif scaled.mp4)

# An ffmpeg that runs under qemu as CPU $1, or natively with its SIMD off.
wrapper() {
    case "$1" in
        simd-off) printf '#!/bin/sh\nexec %s -cpuflags 0 "$@"\n' "$ffmpeg" ;;
        *) printf '#!/bin/sh\nexec qemu-x86_64 -cpu %s %s "$@"\n' "$1" "$ffmpeg" ;;
    esac >"ffmpeg-$1"
    chmod +x "ffmpeg-$1"
}

fail=0
compare() {  # compare LABEL NAME FILES...: each NAME-FILE against native-FILE, byte for byte
    local label="$1" name="$2" file differs=0; shift 2
    for file in "$@"; do
        cmp -s "native-$file" "$name-$file" || { echo "encoders: $label: $file differs from the native bytes"; differs=1; }
    done
    if [ "$differs" -eq 0 ]; then echo "encoders: $label: $*: the native bytes"; else fail=1; fi
}

stills native env 2>/dev/null
clips native env 2>/dev/null
for cpu in Nehalem EPYC-Milan; do
    level=(); [ "$cpu" = Nehalem ] || level=(KIRA_CPU=v2)
    stills "$cpu" env "${level[@]}" qemu-x86_64 -cpu "$cpu" 2>qemu.log || { echo "encoders: $cpu: kira failed"; grep -v '^qemu-x86_64: warning' qemu.log; fail=1; }
    compare "stills, kira as $cpu" "$cpu" "${stills_made[@]}"
    wrapper "$cpu"
    clips "$cpu" env "${level[@]}" KIRA_FFMPEG="$PWD/ffmpeg-$cpu" qemu-x86_64 -cpu "$cpu" 2>qemu.log \
        || { echo "encoders: $cpu: a clip failed"; grep -v '^qemu-x86_64: warning' qemu.log; fail=1; }
    compare "clips, ffmpeg as $cpu" "$cpu" "${clips_made[@]}"
done
stills simd-off env JSIMD_FORCENONE=1 2>/dev/null
compare "stills, libjpeg-turbo's SIMD off" simd-off opaque.jpg
wrapper simd-off
clips simd-off env KIRA_FFMPEG="$PWD/ffmpeg-simd-off" VPX_SIMD_CAPS_MASK=0 2>/dev/null
compare "clips, ffmpeg's and libvpx's SIMD off" simd-off "${clips_made[@]}"
exit "$fail"
