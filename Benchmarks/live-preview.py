#!/usr/bin/env python3
"""The live preview's two modes side by side, then its stream per frame encoding, measured by the
page itself (window.kiraPreviewStats) in headless Chromium on loopback while a scripted drag
moves continuously.

The modes: one `kira serve --web WEB`, the page rendering in the browser (<kira-card>) and
streaming from the server (`?render=server`), in turn for KIRA_REPEATS passes; each row gives the
frames/s the page shows and the server's CPU time during the drag (utime + stime of its process,
from /proc/PID/stat). The encodings: as a reference, the frame rate the same Chromium reaches on a
CSS holo card page of its own (a pointer-tracked 3-D transform and gradient, no server), then the
stream in each encoding.

usage: [KIRA_WEB=.build/web] [KIRA_REPEATS=2] [KIRA_PARTS="modes encodings"] [KIRA_ENCODINGS="raw png"]
       Benchmarks/live-preview.py KIRA [SECONDS] [WIDTH...]   (KIRA: a release build; WEB: scripts/build-web's bundle)
"""
import math
import os
import sys
import time
from urllib.parse import quote

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Browser"))
import kiraserve  # noqa: E402
from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service

KIRA = sys.argv[1]
SECONDS = float(sys.argv[2]) if len(sys.argv) > 2 else 10.0
WIDTHS = [int(w) for w in sys.argv[3:]] or [630, 1260]
# The encodings measured, in turn: KIRA_ENCODINGS="raw png" measures only those.
ENCODINGS = os.environ.get("KIRA_ENCODINGS", "raw png jpeg webp").split()
# More `kira serve` options for every row, e.g. KIRA_SERVE_OPTIONS="--threads 2".
SERVE_OPTIONS = os.environ.get("KIRA_SERVE_OPTIONS", "").split()
PARTS = os.environ.get("KIRA_PARTS", "modes encodings").split()
WEB = os.environ.get("KIRA_WEB", ".build/web")
REPEATS = int(os.environ.get("KIRA_REPEATS", "2"))
if "modes" in PARTS and not os.path.isfile(os.path.join(WEB, "kira-card.js")):
    sys.exit(f"live-preview.py: no bundle in {WEB} (scripts/build-web writes it; KIRA_WEB names another, KIRA_PARTS=encodings leaves the modes out)")

CSS_CARD = "data:text/html," + quote("""<style>body{margin:0;display:grid;place-items:center;height:100vh;perspective:800px}
#card{width:630px;height:880px;border-radius:20px;background:linear-gradient(115deg,#f0a,#0af,#af0,#fa0);
background-size:400% 400%;box-shadow:0 20px 60px #0008}</style><div id=card></div><script>
const card=document.getElementById('card');let frames=[];
addEventListener('pointermove',e=>{const x=e.clientX/innerWidth-.5,y=e.clientY/innerHeight-.5;
card.style.transform=`rotateY(${x*20}deg) rotateX(${-y*20}deg)`;card.style.backgroundPosition=`${50+x*100}% ${50+y*100}%`});
(function tick(){const t=performance.now();frames.push(t);while(frames.length&&t-frames[0]>2000)frames.shift();
window.kiraPreviewStats={fps:frames.length>1?1000*(frames.length-1)/(t-frames[0]):0};requestAnimationFrame(tick)})();
</script>""")


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=2200,2400", *os.environ.get("KIRA_CHROMIUM_FLAGS", "").split()):
        options.add_argument(argument)
    return webdriver.Chrome(service=Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")), options=options)


def cpu_shares(before, after, seconds):
    """Each program's CPU between two `kiraserve.cpu_times()`, as a share of one core: Chromium
    (every process of it), kira, and the driver (this script and chromedriver); only the processes
    this script started, not others of the same names on the machine."""
    ours = kiraserve.family()
    def group(name):
        if name in ("python3", "chromedriver"):
            return "driver"
        if name.startswith("chrom"):  # the browser, its renderers and crash handler
            return "chromium"
        return "kira" if name in ("kira", "kira-serve") else None  # `kira serve` runs as kira-serve

    groups = {"chromium": 0, "kira": 0, "driver": 0}
    for pid, (name, ticks) in after.items():
        if pid in before and pid in ours and before[pid][0] == name and group(name):
            groups[group(name)] += ticks - before[pid][1]
    ticks_per_second = os.sysconf("SC_CLK_TCK")
    return " · ".join(f"{name} {100 * ticks / ticks_per_second / seconds:.0f} %" for name, ticks in groups.items())


def drag(driver, seconds, centre):
    """A pointer pressed at `centre` circling ±150 × ±100 points once a second, moved 60 times a
    second (on a fixed schedule: each DevTools call takes milliseconds of its own) through the
    DevTools protocol (real input events); returns the samples each second of the fps the page
    reports, the input events sent a second, and the CPU each program took meanwhile."""
    mouse = lambda kind, x, y, **extra: driver.execute_cdp_cmd(
        "Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left", "buttons": 1, **extra})
    x0, y0 = centre
    mouse("mousePressed", x0, y0, clickCount=1)
    start, samples, next_sample, moves, cpu = time.monotonic(), [], 2.0, 0, kiraserve.cpu_times()
    while (elapsed := time.monotonic() - start) < seconds:
        angle = 2 * math.pi * elapsed
        mouse("mouseMoved", x0 + 150 * math.sin(angle), y0 + 100 * math.sin(2 * angle))
        moves += 1
        if elapsed >= next_sample:  # the page's fps covers its last 2 s
            samples.append(driver.execute_script("return window.kiraPreviewStats"))
            next_sample += 1
        time.sleep(max(0.0, start + moves / 60 - time.monotonic()))
    elapsed = time.monotonic() - start
    shares = cpu_shares(cpu, kiraserve.cpu_times(), elapsed)
    mouse("mouseReleased", x0, y0, clickCount=1)
    return samples, moves / elapsed, shares


def process_ticks(pid):
    """utime + stime of one process, in clock ticks (/proc/PID/stat)."""
    return kiraserve.cpu_times()[str(pid)][1]


def wait_until(driver, script, timeout=30):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if driver.execute_script(script):
            return
        time.sleep(0.1)
    sys.exit(f"live-preview.py: timed out waiting for: {script}")


def mode_row(driver, server, origin, mode, width):
    """One drag in `mode` ('browser' or 'server') on a fresh page: the frames/s the page shows and
    the server's CPU time during the drag."""
    driver.get(origin + ("/?render=server" if mode == "server" else "/"))
    figures = "kiraPreviewStats.browser" if mode == "browser" else "kiraPreviewStats"
    wait_until(driver, f"return window.kiraPreviewStats && kiraPreviewStats.mode === '{mode}' && {figures}.framesPainted >= 1")
    driver.execute_script(f"const w = document.getElementById('c-width'); w.value = {width}; w.onchange();")
    if mode == "server":
        wait_until(driver, f"const f = kiraPreviewStats.lastFrame; return f && f.width == {width}")
    time.sleep(1)  # the card at rest: the server's work for the page so far is done
    element = "#stage > kira-card" if mode == "browser" else "#card"
    rect = driver.execute_script(f"const r = document.querySelector('{element}').getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]")
    before, ticks = driver.execute_script(f"return {figures}.framesPainted"), process_ticks(server.pid)
    start = time.monotonic()
    samples, moves, shares = drag(driver, SECONDS, rect)
    kira_seconds = (process_ticks(server.pid) - ticks) / os.sysconf("SC_CLK_TCK")
    elapsed = time.monotonic() - start
    painted = driver.execute_script(f"return {figures}.framesPainted") - before
    fps = [(s["browser"] if mode == "browser" else s)["fps"] for s in samples]
    where = {"browser": "in the browser", "server": "server stream"}[mode]
    per_frame = f"{1000 * kira_seconds / painted:.1f}" if painted else "–"
    windows = f"{min(fps):.1f}–{max(fps):.1f}" if fps else "–"  # none in a drag under 2 s
    return (f"| {where} | {width} | {moves:.0f} | {painted / elapsed:.1f} | {windows} "
            f"| {kira_seconds:.2f} s ({100 * kira_seconds / elapsed:.0f} %) | {per_frame} | {shares} |")


def modes():
    server, origin = kiraserve.start(KIRA, "--web", WEB, *SERVE_OPTIONS)
    driver = None
    try:
        driver = browser()
        print(f"# the modes: {SECONDS:.0f} s of continuous drag per row, {REPEATS} passes in turn; load {os.getloadavg()[0]:.2f} at the start")
        print("| rendered | card width | input events/s | frames/s (mean) | frames/s (2 s windows) | kira serve CPU during the drag "
              "| kira ms a frame | CPU during the drag (100 % = one core) |")
        print("|---|---:|---:|---:|---:|---:|---:|---|")
        for width in WIDTHS:
            for _ in range(REPEATS):
                for mode in ("server", "browser"):
                    print(mode_row(driver, server, origin, mode, width), flush=True)
        print(f"# load at the end of the modes: {os.getloadavg()[0]:.2f}", flush=True)
    finally:
        if driver:
            driver.quit()
        server.terminate()
        server.wait(timeout=30)


def live(encoding, width):
    server, origin = kiraserve.start(KIRA, "--live-encoding", encoding, *SERVE_OPTIONS)
    driver = None
    try:
        driver = browser()
        # The stream, whether or not a bundle is beside the program.
        driver.get(origin + "/?render=server")
        driver.execute_script(f"const w = document.getElementById('c-width'); w.value = {width}; w.onchange();")
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not driver.execute_script(
                f"const f = kiraPreviewStats.lastFrame; return f && f.width == {width}"):
            time.sleep(0.1)
        rect = driver.execute_script("const r = document.getElementById('card').getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]")
        before = driver.execute_script("return kiraPreviewStats.framesPainted")
        samples, moves, shares = drag(driver, SECONDS, rect)
        stats = driver.execute_script("return kiraPreviewStats")
        fps = [s["fps"] for s in samples]
        painted = stats["framesPainted"] - before
        return (f"| {encoding} | {width} | {moves:.0f} | {painted / SECONDS:.1f} | {min(fps):.1f}–{max(fps):.1f} | {stats['latencyP95Ms']:.0f} "
                f"| {stats['lastFrame']['renderMilliseconds']:.0f} | {shares} |")
    finally:
        if driver:
            driver.quit()
        server.terminate()
        server.wait(timeout=30)


def reference():
    driver = browser()
    try:
        driver.get(CSS_CARD)
        time.sleep(0.5)
        samples, moves, shares = drag(driver, SECONDS, (1100, 1200))
        fps = [s["fps"] for s in samples]
        return f"| CSS holo card, Chromium alone | 630 | {moves:.0f} | | {min(fps):.1f}–{max(fps):.1f} | | | {shares} |"
    finally:
        driver.quit()


if "modes" in PARTS:
    modes()
if "encodings" not in PARTS:
    sys.exit(0)
print(f"# {SECONDS:.0f} s of continuous drag per row; load: {os.getloadavg()[0]:.2f} at the start")
print("| encoding | card width | input events/s | frames/s (mean) | frames/s (2 s windows) | p95 latency ms | last render+encode ms "
      "| CPU during the drag (100 % = one core) |")
print("|---|---:|---:|---:|---:|---:|---:|---|")
print(reference(), flush=True)
for width in WIDTHS:
    for encoding in ENCODINGS:
        print(live(encoding, width), flush=True)
print(f"# load at the end: {os.getloadavg()[0]:.2f}")
