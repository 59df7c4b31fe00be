#!/usr/bin/env bash
# How close a card drawn small comes to the same card drawn four times larger and downscaled
# with a Lanczos filter: PSNR over the whole canvas in RGB, for the built-in card and a
# photograph, at three scales.
#
#   kira render --tilt-x 6 --tilt-y -9 --scale S --size WxH --background '#203040'
#
# with S = 0.2, 0.35, 0.5 and W×H = 800·S × 1000·S rounded down to even, against the same
# command at scale 4·S and size 4W×4H, downscaled to W×H with Pillow's Image.LANCZOS. A face
# sampled without a prefilter aliases (its text breaks into jaggies) and scores low.
#
#   Benchmarks/minification-psnr.sh [path/to/kira]     (from the package's root)
#
# The photograph is the Hubble Deep Field (NASA/ESA, public domain) from scikit-image's sample
# data, cropped to 630×872. Needs Python 3 with Pillow and scikit-image:
#
#   pip install pillow scikit-image
#
# KEEP_WORK=1 keeps the scratch folder (its path is printed).
set -euo pipefail
kira="$(realpath "${1:-.build/release/kira}")"
[ -x "$kira" ] || { echo "build first: swift build -c release" >&2; exit 2; }
python3 -c 'import PIL, skimage' 2>/dev/null || { echo "needs Pillow and scikit-image: pip install pillow scikit-image" >&2; exit 2; }
work="$(mktemp -d)"
trap '[ -n "${KEEP_WORK:-}" ] && echo "kept $work" || rm -rf "$work"' EXIT

python3 - "$work/photo.png" <<'EOF'
import sys
from PIL import Image
from skimage import data
Image.fromarray(data.hubble_deep_field()[:872, 185:815]).save(sys.argv[1])
EOF

printf '%-10s %-6s %-9s %s\n' card scale canvas 'PSNR (dB)'
for card in sample photo; do
    art=()
    [ "$card" = photo ] && art=(--art "$work/photo.png")
    for s in 0.2 0.35 0.5; do
        read -r w h big bw bh <<< "$(python3 -c "
s = $s
w, h = int(800 * s) // 2 * 2, int(1000 * s) // 2 * 2
print(w, h, round(4 * s, 4), 4 * w, 4 * h)")"
        common=(render "${art[@]}" --tilt-x 6 --tilt-y -9 --background '#203040')
        # kira's notes (the photo has no mask: it shines all over) only when a render fails.
        for args in "--scale $s --size ${w}x${h} -o $work/small.png" "--scale $big --size ${bw}x${bh} -o $work/large.png"; do
            # shellcheck disable=SC2086
            "$kira" "${common[@]}" $args 2>"$work/log" || { cat "$work/log" >&2; exit 1; }
        done
        psnr="$(python3 - "$work/small.png" "$work/large.png" <<'EOF'
import math, sys
from PIL import Image
small = Image.open(sys.argv[1]).convert("RGB")
large = Image.open(sys.argv[2]).convert("RGB").resize(small.size, Image.LANCZOS)
a, b = small.tobytes(), large.tobytes()
mse = sum((x - y) ** 2 for x, y in zip(a, b)) / len(a)
print("inf" if mse == 0 else f"{10 * math.log10(255 ** 2 / mse):.1f}")
EOF
)"
        printf '%-10s %-6s %-9s %s\n' "$card" "$s" "${w}x${h}" "$psnr"
    done
done
