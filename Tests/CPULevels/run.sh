#!/usr/bin/env bash
# The default release `kira` on older CPUs, under qemu-x86_64 (Debian's qemu-user 7.2): as a
# Nehalem (x86-64-v2) and as a Haswell (x86-64-v3, AVX2) it names the level it chose and writes
# the same bytes as natively: a shade, frames and short animations. It refuses a KIRA_CPU the
# CPU lacks with one line and exit status 2. qemu runs no AVX-512: the tests cover v4 on the
# machines that have it. Usage: Tests/CPULevels/run.sh [KIRA_BINARY] (default .build/release/kira)
#
# qemu 7.2's AVX2 emulation gets the projection of minified and of 16-bit faces wrong (up to
# 250/255 on a few % of pixels) where the same binary on a real AVX2 CPU, or forced to v3 on an
# AVX-512 one, writes the reference bytes (KernelLevelTests, GoldenLevelTests): the Haswell run
# compares the renders that avoid those two paths; the Nehalem run compares them all.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
kira="${1:-$root/.build/release/kira}"
command -v qemu-x86_64 >/dev/null || { echo "CPULevels: needs qemu-x86_64 (apt-get install qemu-user)" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
"$kira" textures --size 240x336 --output-dir card >/dev/null
card=(--art card/front.png --mask card/mask.png)
every=(shade tilt-frame tilt-animation flip-frame deep-frame flip-animation)
avx2=(shade tilt-frame tilt-animation)

# run NAME COMMAND...: every render into NAME-*.png, by kira run under COMMAND.
run() {
    local name="$1"; shift
    "$@" "$kira" shade "${card[@]}" --foil etched --tilt-x 12 --tilt-y -20 --glare 0.4 --depth 16 --output "$name-shade.png"
    "$@" "$kira" render "${card[@]}" --tilt-x 14 --tilt-y -9 --size 300x400 --scale 1.2 --output "$name-tilt-frame.png"
    "$@" "$kira" animate "${card[@]}" --preset seed002-tilt --fps 8 --duration 0.5 --size 300x400 --scale 1.2 --apng "$name-tilt-animation.png"
    "$@" "$kira" render "${card[@]}" --flip 35 --tilt-x 10 --size 300x380 --fit --output "$name-flip-frame.png"
    "$@" "$kira" render "${card[@]}" --tilt-x 14 --size 300x400 --scale 1.2 --depth 16 --output "$name-deep-frame.png"
    "$@" "$kira" animate "${card[@]}" --preset seed002-flip --fps 8 --duration 0.5 --size 200x250 --fit --apng "$name-flip-animation.png"
}

fail=0
run native env 2>/dev/null
for cpu in Nehalem:x86-64-v2 Haswell:x86-64-v3; do
    name="${cpu%%:*}" level="${cpu#*:}"
    qemu=(qemu-x86_64 -cpu "$name")
    version="$("${qemu[@]}" "$kira" --version 2>/dev/null)"
    if [[ "$version" != *"pixel code for $level"* ]]; then echo "CPULevels: $name: expected $level in: $version"; fail=1; fi
    run "$name" "${qemu[@]}" 2>qemu.log || { echo "CPULevels: $name: kira failed"; grep -v '^qemu-x86_64: warning' qemu.log; fail=1; }
    compared=("${every[@]}")
    [ "$name" = Haswell ] && compared=("${avx2[@]}")
    for what in "${compared[@]}"; do
        cmp -s "native-$what.png" "$name-$what.png" || { echo "CPULevels: $name ($level): $what differs from the native run"; fail=1; }
    done
    echo "CPULevels: $name ($level): ${compared[*]}: the native bytes"
done

# A level the CPU lacks is refused, in one line, with status 2, before anything is written.
set +e
message="$(KIRA_CPU=v3 qemu-x86_64 -cpu Nehalem "$kira" shade --output refused.png 2>&1 >/dev/null | grep -v '^qemu-x86_64: warning')"
status="$(KIRA_CPU=v3 qemu-x86_64 -cpu Nehalem "$kira" shade --output refused.png >/dev/null 2>&1; echo $?)"
set -e
if [[ "$status" != 2 || "$(wc -l <<<"$message")" != 1 || -e refused.png ]]; then
    echo "CPULevels: KIRA_CPU=v3 on a Nehalem: expected one line and status 2, got $status: $message"; fail=1
fi
exit "$fail"
