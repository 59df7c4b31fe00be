#!/usr/bin/env python3
"""Kira in the browser, measured in headless Chromium (Debian's chromium and chromium-driver,
selenium) from the web bundle (scripts/build-web's folder) on a local static server, beside
native `kira bench` on the same machine in the same run:

- <kira-card> on index.html?bench=120 (120 frames of a scripted drag through the element): frames
  a second, the 95th percentile from an input event to the first animation frame after its pose
  is on the canvas, the main thread's time a frame in the element's code, and the time from the
  page's start to the first painted frame, and the CPU time of Chromium's threads a frame (the
  page's main thread, the Worker, the compositors); for the compositor's perspective (the element's
  default; the demo page's card is the bundle's sample.kira, and with card= the module draws the
  sample card instead) and the exact projection in a Worker, and the compositor's on the main
  thread;
  ROUNDS rounds, interleaved;
- one thread of WebAssembly in Chromium: the face shaded (630×880, the sample card) and the
  on-screen frame `kira bench --path frame` draws (tilt 6°, flip 25°, the default canvas), each
  the best of 3 runs of 16 frames, as kira bench reports them, against
  `KIRA_CPU=v2` and `v3` `kira bench --threads 1 --size 630x880 --path simd --path frame`;
- the bundle's weight, gzip -9.

usage: Benchmarks/web-card.py KIRA [WEB_DIR] [ROUNDS]   (KIRA: a release build; WEB_DIR: default .build/web)
"""
import gzip
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Browser"))
import staticweb  # noqa: E402

KIRA = sys.argv[1]
WEB = sys.argv[2] if len(sys.argv) > 2 else ".build/web"
ROUNDS = int(sys.argv[3]) if len(sys.argv) > 3 else 3


def load():
    return f"{os.getloadavg()[0]:.1f}"


def cpu():
    flags = open("/proc/cpuinfo").read()
    return "Zen 4 (AVX-512)" if "avx512f" in flags else "Zen 3 (AVX2)" if "avx2" in flags else "x86-64"


WASM_TIMES = """
const done = arguments[arguments.length - 1];
(async () => {
  const { Kira } = await import('/kira.js');
  const kira = await Kira.load();
  kira.shadeView({});
  // As kira bench measures: 16 frames a run, the best of 3 runs; the shade sweeps the tilts.
  function best(frame) {
    let bestMs = Infinity;
    for (let run = 0; run < 3; run++) {
      const start = performance.now();
      for (let i = 0; i < 16; i++) frame(i);
      bestMs = Math.min(bestMs, (performance.now() - start) / 16);
    }
    return bestMs;
  }
  const shadeMs = best((i) => kira.shadeView({ tiltX: -10 + 20 * i / 15, tiltY: 10 - 20 * i / 15 }));
  const frame = kira.renderView({ tiltX: 6, flip: 25 });
  const frameMs = best(() => kira.renderView({ tiltX: 6, flip: 25 }));
  return { shadeMs, frameMs, face: '630x880', canvas: `${frame.width}x${frame.height}` };
})().then(done, (error) => done(String(error)));
"""


def native(level):
    out = subprocess.run([KIRA, "bench", "--threads", "1", "--size", "630x880", "--path", "simd", "--path", "frame", "--json", "--quiet"],
                         env={**os.environ, "KIRA_CPU": level}, check=True, capture_output=True, text=True).stdout
    return {p["name"]: 1000 * p["seconds"] / p["frames"] for p in json.loads(out)["paths"]}


def threads():
    """CPU time (clock ticks) of every thread of Chromium now, by (pid, tid): (thread name, ticks)."""
    times = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/comm") as f:
                if not f.read().startswith("chrom"):
                    continue
            tids = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for tid in tids:
            try:
                with open(f"/proc/{pid}/task/{tid}/stat") as f:
                    line = f.read()
            except OSError:
                continue
            fields = line[line.rindex(")") + 2:].split()
            times[(pid, tid)] = (line[line.index("(") + 1:line.rindex(")")], int(fields[11]) + int(fields[12]))
    return times


def cpu_split(before, after, frames):
    """Chromium's CPU during the drag, in ms per frame on screen: the page's main thread (all of
    it: the element's code, style, layout, paint), the Worker, the compositors (the page's and
    the display's), and all of Chromium."""
    tick = 1000 / os.sysconf("SC_CLK_TCK")
    delta = {key: (name, ticks - before[key][1]) for key, (name, ticks) in after.items() if key in before}
    renderers = {pid for (pid, tid), (name, _) in delta.items() if name == "Compositor"}
    # The page's renderer: the one that worked most (a spare renderer idles).
    page = max(renderers, key=lambda pid: sum(t for (p, _), (_, t) in delta.items() if p == pid), default=None)
    split = {"main": 0, "worker": 0, "compositor": 0, "chromium": 0}
    for (pid, tid), (name, ticks) in delta.items():
        split["chromium"] += ticks
        if pid == page and pid == tid:
            split["main"] += ticks
        elif pid == page and name.startswith("DedicatedWorker"):
            split["worker"] += ticks
        elif name in ("Compositor", "VizCompositorTh"):
            split["compositor"] += ticks
    return {key: value * tick / max(frames, 1) for key, value in split.items()}


def bench(driver, origin, query):
    driver.get(f"{origin}/index.html?bench=120{query}")
    deadline = time.monotonic() + 180
    before = None
    while time.monotonic() < deadline:
        if before is None and driver.execute_script("return window.kiraBenchDragging === true"):
            before = threads()
        result = driver.execute_script("return window.kiraBench || null")
        if result:
            if before is not None:
                result["cpu"] = cpu_split(before, threads(), result["frames"])
            return result
        time.sleep(0.02)
    sys.exit(f"index.html?bench=120{query} set no window.kiraBench")


server, origin = staticweb.serve(WEB)
driver = staticweb.chromium(size=(1280, 1300))
print(f"# {cpu()}, {os.cpu_count()} cores; headless Chromium {driver.capabilities.get('browserVersion')}; load {load()} at the start")
try:
    variants = [("compositor's perspective, Worker (the element's default)", ""),
                ("the same, the sample card drawn by the module (card=)", "&card="),
                ("exact projection in wasm, Worker", "&projection=exact"),
                ("compositor's perspective, main thread", "&worker=off")]
    rows = {name: [] for name, _ in variants}
    for round in range(ROUNDS):
        for name, query in variants:
            result = bench(driver, origin, query)
            result["load"] = load()
            rows[name].append(result)

    def span(values, digits=0):
        low, high = min(values), max(values)
        return f"{low:.{digits}f}" if f"{low:.{digits}f}" == f"{high:.{digits}f}" else f"{low:.{digits}f}–{high:.{digits}f}"

    print(f"\n## index.html?bench=120, {ROUNDS} rounds (ranges over the rounds)")
    print("| path | frames/s | p95 input to screen ms | main thread ms/frame: the element's | render ms (median) "
          "| CPU ms/frame: page's main thread, all of it | Worker | compositors | all Chromium | first paint ms | load |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for name, _ in variants:
        r = rows[name]
        cpu = lambda key: span([x["cpu"][key] for x in r if "cpu" in x], 1) if any("cpu" in x for x in r) else "?"
        print(f"| {name} | {span([x['fps'] for x in r])} | {span([x['p95Ms'] for x in r])} | {span([x['mainThreadMs'] for x in r], 2)} "
              f"| {span([x['renderMedianMs'] for x in r], 1)} | {cpu('main')} | {cpu('worker')} | {cpu('compositor')} | {cpu('chromium')} "
              f"| {span([x['firstPaintMs'] for x in r])} | {span([float(x['load']) for x in r], 1)} |")
    print("# CPU: each thread's time over the drag (/proc, 10 ms ticks) over the frames on screen")
    for name, _ in variants:
        r = rows[name]
        print(f"# first paint, {name}: {span([x['firstPaintMs'] for x in r])} ms after the page's start; in the renderer, the module's"
              f" load {span([x['loadMs']['wasmMs'] for x in r])} ms and the card's (read or drawn, and its first shade)"
              f" {span([x['loadMs']['cardMs'] for x in r])} ms")

    # One thread: wasm in Chromium against native, paired (v2, wasm, v3, each round).
    print(f"\n## one thread, 630×880 face, {ROUNDS} paired rounds (ms a frame; best of 3 runs of 16 frames)")
    print("| round | load | native v2 shade | wasm shade | native v3 shade | native v2 frame | wasm frame | native v3 frame |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    driver.get(origin + "/index.html?worker=off")
    pairs = []
    for round in range(ROUNDS):
        at = load()
        v2 = native("v2")
        wasm = driver.execute_async_script(WASM_TIMES)
        if not isinstance(wasm, dict):
            sys.exit(f"the wasm timing failed: {wasm}")
        v3 = native("v3")
        pairs.append((v2, wasm, v3))
        print(f"| {round + 1} | {at} | {v2['simd']:.2f} | {wasm['shadeMs']:.2f} | {v3['simd']:.2f} | {v2['frame']:.1f} | {wasm['frameMs']:.1f} | {v3['frame']:.1f} |")
    print(f"# the frame: tilt 6°, flip 25°, on the default {pairs[0][1]['canvas']} canvas (kira bench --path frame's)")
    for what, key, native_key in (("shade", "shadeMs", "simd"), ("frame", "frameMs", "frame")):
        for level, index in (("v2", 0), ("v3", 2)):
            ratios = [p[index][native_key] / p[1][key] for p in pairs]
            print(f"# wasm {what} speed / native {level}: {span(ratios, 2)}×")

    print("\n## weight (gzip -9)")
    total = 0
    for name in ("kira.wasm", "kira-card.js", "kira-worker.js", "kira.js", "parameters.js", "sample.kira"):
        data = open(os.path.join(WEB, name), "rb").read()
        if name == "sample.kira":  # gzip-compressed already, as served
            print(f"# sample.kira (the demo page's card): {len(data)} bytes")
            continue
        packed = len(gzip.compress(data, 9))
        total += packed
        print(f"# {name}: {len(data)} bytes, {packed} gzipped")
        if name == "kira-card.js":
            core = packed + len(gzip.compress(open(os.path.join(WEB, "kira.wasm"), "rb").read(), 9))
            print(f"# kira.wasm + kira-card.js: {core} bytes gzipped ({core / 1024:.1f} KiB)")
    print(f"# all five files a page loads: {total} bytes gzipped ({total / 1024:.1f} KiB)")
    print(f"# load {load()} at the end")
finally:
    driver.quit()
    server.shutdown()
