#!/usr/bin/env bash
# kira batch against one `kira render` process per frame, side by side with hyperfine: a catalogue
# of 100 frames (25 cards × 4 tilts) of 630×880 cards on 800×1000 canvases, every frame written
# to a fresh folder in each run. Both make the same bytes (checked before timing). A third entry
# runs two shards as two processes of one thread each (the one-machine xargs recipe).
#
#   Benchmarks/batch-vs-render.sh [standard|fast] [runs]     (from the package's root)
#
# KEEP_WORK=1 keeps the scratch folder (its path is printed) to profile or re-time by hand.
#
# Needs hyperfine (Debian: hyperfine) and a release build (swift build -c release).
set -euo pipefail
compression="${1:-standard}"
runs="${2:-3}"
kira="$(pwd)/.build/release/kira"
[ -x "$kira" ] || { echo "build first: swift build -c release" >&2; exit 2; }
work="$(mktemp -d)"
trap '[ -n "${KEEP_WORK:-}" ] && echo "kept $work" || rm -rf "$work"' EXIT

cd "$work"
mkdir -p textures && "$kira" textures --output-dir textures >/dev/null
mkdir -p art
echo "output,art,mask,back,back_mask,tilt_x,tilt_y,size,compression" > cards.csv
: > separate.sh
tilts=("0 0" "-8 10" "6 -12" "12 14")
for card in $(seq -w 0 24); do
    cp textures/front.png "art/card$card.png"   # 25 distinct files: each is read and decoded
    for t in 0 1 2 3; do
        read -r x y <<< "${tilts[$t]}"
        echo "out/card$card-$t.png,art/card$card.png,textures/mask.png,textures/back.png,textures/back-mask.png,$x,$y,800x1000,$compression" >> cards.csv
        echo "\"$kira\" render --art art/card$card.png --mask textures/mask.png --back textures/back.png --back-mask textures/back-mask.png --tilt-x=$x --tilt-y=$y --size 800x1000 --compression $compression -o out/card$card-$t.png" >> separate.sh
    done
done

# The same bytes both ways.
rm -rf out && mkdir out && bash separate.sh && mv out render-out
"$kira" batch cards.csv --quiet >/dev/null
for f in render-out/*.png; do cmp -s "$f" "out/${f#render-out/}" || { echo "differs: $f" >&2; exit 1; }; done
echo "100 frames, batch and render outputs identical (compression $compression)"

hyperfine --runs "$runs" --prepare 'rm -rf out; mkdir out' \
    -n "kira batch (100 rows)" "\"$kira\" batch cards.csv --quiet" \
    -n "2 shards × kira batch --threads 1 (xargs -P 2)" "seq 0 1 | xargs -P 2 -I{} \"$kira\" batch cards.csv --shard {}/2 --threads 1 --quiet" \
    -n "100 × kira render" "bash separate.sh"
