# LDR-ꟻLIP of `kira compare --metric flip` against NVIDIA's flip-evaluator, over 20 image pairs
# made here: Kira renders against perturbed copies (noise, blur, hue shift, a missing shine, a
# one-pixel shift), two renders at different tilts, and photographs from scikit-image's data
# module. Passes when every mean is within 0.001 of flip-evaluator's and the 99th percentile of
# the per-pixel |difference| is within 0.01; exits 1 otherwise.
#
#   pip install flip-evaluator==1.7 numpy==2.4.6 scikit-image==0.26.0
#   swift build -c release --product kira
#   python3 Tests/KiraCompareTests/flip_reference.py [--kira PATH] [--speed]
#
# Kira's per-pixel errors are read back from its --flip-map (the magma index round(255 e), read
# from FLIPMap.swift), so they carry up to 1/510 of rounding. Images with alpha are composited
# over black in their stored sRGB values before flip-evaluator sees them, as Kira does.
# --speed also times flip_evaluator.evaluate (in-process) against a whole `kira compare
# --metric flip` process on a 1260×1760 pair.
import argparse, json, os, re, subprocess, sys, tempfile, time
import numpy as np
import flip_evaluator as flip
from PIL import Image
from skimage import color, data, filters

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
parser = argparse.ArgumentParser()
parser.add_argument("--kira", default=os.path.join(ROOT, ".build", "release", "kira"))
parser.add_argument("--speed", action="store_true")
args = parser.parse_args()
work = tempfile.mkdtemp(prefix="kira-flip-")
rng = np.random.default_rng(2020)

with open(os.path.join(ROOT, "Sources", "KiraCompare", "FLIPMap.swift")) as f:
    magma = [int(h, 16) for h in re.findall(r"0x([0-9a-f]{6})", f.read())]
assert len(magma) == 256, "FLIPMap.swift's magma table"
index_of = {m: i for i, m in enumerate(magma)}

def kira(*arguments):
    run = subprocess.run([args.kira, *arguments], capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"kira {' '.join(arguments)}: {run.stderr.strip()}")
    return run.stdout

def render(name, *arguments):
    path = os.path.join(work, name + ".png")
    kira(*arguments, "-o", path)
    return np.asarray(Image.open(path).convert("RGBA"))

def rgb_only(image, f):
    """`f` applied to the colour of an RGBA image (0...255 floats in, rounded out), alpha kept."""
    out = image.copy()
    out[..., :3] = np.clip(np.rint(f(image[..., :3].astype(np.float64))), 0, 255).astype(np.uint8)
    return out

noise = lambda im: rgb_only(im, lambda c: c + rng.normal(0, 6, c.shape))
blur = lambda im: rgb_only(im, lambda c: filters.gaussian(c, sigma=1.0, channel_axis=-1, preserve_range=True))
def hue(im):
    def shift(c):
        hsv = color.rgb2hsv(c / 255)
        hsv[..., 0] = (hsv[..., 0] + 0.03) % 1
        return color.hsv2rgb(hsv) * 255
    return rgb_only(im, shift)
def shifted(im):
    out = im.copy()
    out[:, 1:] = im[:, :-1]
    return out

def opaque(image):
    """0...1 float32 RGB over black, from the stored sRGB values (as Kira composites)."""
    image = image.astype(np.float32) / np.float32(255)
    if image.shape[-1] == 4:
        return image[..., :3] * image[..., 3:4]
    return image

def rgba(image):
    return image if image.shape[-1] == 4 else np.dstack([image, np.full(image.shape[:2], 255, np.uint8)])

front = render("front", "shade")
tilted = render("tilted", "shade", "--tilt-x", "-8", "--tilt-y", "12")
back = render("back", "shade", "--back-face")
frame = render("frame", "render", "--size", "700x900", "--tilt-y", "20", "--background", "#1b1f2a")
pairs = [
    ("front, noise", front, noise(front)),
    ("front, blur", front, blur(front)),
    ("front, hue shift", front, hue(front)),
    ("front, one-pixel shift", front, shifted(front)),
    ("front, no shine", front, render("front-plain", "shade", "--intensity", "0")),
    ("tilted, noise", tilted, noise(tilted)),
    ("tilted, blur", tilted, blur(tilted)),
    ("tilted, hue shift", tilted, hue(tilted)),
    ("tilted, no shine", tilted, render("tilted-plain", "shade", "--tilt-x", "-8", "--tilt-y", "12", "--intensity", "0")),
    ("back, blur", back, blur(back)),
    ("back, one-pixel shift", back, shifted(back)),
    ("frame, noise", frame, noise(frame)),
    ("frame, hue shift", frame, hue(frame)),
    ("frame, one-pixel shift", frame, shifted(frame)),
    ("front against tilted", front, tilted),
    ("frame, glare", frame, render("frame-glare", "render", "--size", "700x900", "--tilt-y", "20", "--background", "#1b1f2a", "--glare", "0.6")),
    ("astronaut, noise", rgba(data.astronaut()), noise(rgba(data.astronaut()))),
    ("coffee, blur", rgba(data.coffee()), blur(rgba(data.coffee()))),
    ("chelsea, hue shift", rgba(data.chelsea()), hue(rgba(data.chelsea()))),
    ("coffee, one-pixel shift", rgba(data.coffee()), shifted(rgba(data.coffee()))),
]

failed = False
worst_mean, worst_p99 = 0.0, 0.0
for i, (name, a, b) in enumerate(pairs):
    pa, pb, pm = (os.path.join(work, f"pair{i}-{s}.png") for s in ("a", "b", "map"))
    Image.fromarray(a).save(pa)
    Image.fromarray(b).save(pb)
    reference_map, reference_mean, _ = flip.evaluate(opaque(a), opaque(b), "LDR", applyMagma=False)
    result = json.loads(kira("compare", pa, pb, "--metric", "flip", "--json", "--flip-map", pm))
    h, w = a.shape[:2]
    rgb = np.asarray(Image.open(pm).convert("RGB"))[:h, :w].astype(np.int64)
    codes = (rgb[..., 0] << 16) | (rgb[..., 1] << 8) | rgb[..., 2]
    kira_map = np.vectorize(index_of.__getitem__)(codes) / 255.0
    mean_diff = abs(result["flip"]["mean"] - float(reference_mean))
    p99 = float(np.percentile(np.abs(kira_map - reference_map[..., 0]), 99))
    ok = mean_diff <= 0.001 and p99 <= 0.01
    failed |= not ok
    worst_mean, worst_p99 = max(worst_mean, mean_diff), max(worst_p99, p99)
    print(f"{'ok  ' if ok else 'FAIL'} {name:26} {w}×{h}  mean {result['flip']['mean']:.5f} vs {float(reference_mean):.5f}"
          f"  |Δmean| {mean_diff:.6f}  p99 |Δmap| {p99:.4f}")
print(f"{len(pairs)} pairs: max |Δmean| {worst_mean:.6f} (limit 0.001), worst p99 |Δmap| {worst_p99:.4f} (limit 0.01)")

if args.speed:
    big = render("big", "render", "--size", "1260x1760", "--fit", "--background", "#1b1f2a")
    big_b = noise(big)
    pa, pb = os.path.join(work, "big-a.png"), os.path.join(work, "big-b.png")
    Image.fromarray(big).save(pa)
    Image.fromarray(big_b).save(pb)
    ra, rb = opaque(big), opaque(big_b)
    import resource
    def children_cpu():
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        return usage.ru_utime + usage.ru_stime
    reference, ours, reference_cpu, ours_cpu = [], [], [], []
    for _ in range(5):
        start, cpu = time.perf_counter(), time.process_time()
        flip.evaluate(ra, rb, "LDR")
        reference.append(time.perf_counter() - start)
        reference_cpu.append(time.process_time() - cpu)
        start, cpu = time.perf_counter(), children_cpu()
        kira("compare", pa, pb, "--metric", "flip")
        ours.append(time.perf_counter() - start)
        ours_cpu.append(children_cpu() - cpu)
    span = lambda xs: f"{min(xs):.3f}–{max(xs):.3f} s"
    print(f"1260×1760 on {os.cpu_count()} cores: flip_evaluator.evaluate {span(reference)} (CPU {span(reference_cpu)}), "
          f"kira compare --metric flip, whole process, {span(ours)} (CPU {span(ours_cpu)}): "
          f"{min(reference) / max(ours):.1f}–{max(reference) / min(ours):.1f}× faster")
sys.exit(1 if failed else 0)
