#!/usr/bin/env python3
"""Kira in the browser, in headless Chromium (Debian's chromium and chromium-driver, selenium),
from the web bundle (scripts/build-web's folder) served by Python's http.server on a free port:

(a) the same bytes: at 20 poses of the built-in sample card (the back, edge-on, every foil,
    intensity and glare, crossfades, other axes and perspectives, sizes, scales, fit),
    kira.render(...) in Chromium is byte for byte `kira render ... --background transparent`, and
    kira.shade(...) is `kira shade ...` (the CLI's PNG decoded to RGBA by ffmpeg; SHA-256 of both),
    with the card the module draws and with the bundle's sample.kira (kira card's file of it);
(b) <kira-card> on index.html: the server sends kira.wasm as application/wasm; the first frame is
    painted (in a Worker); the card on screen is kira.render's frame of the same pose (the
    compositor's perspective, and the exact one); a real pointer drag tilts it, it springs back
    when released and the drag does not flip it; a click flips it (aria-pressed says so); the
    space bar flips it back; the arrow keys tilt it, within tilt-limit; a keyboard focus shows a
    ring (a press focuses it without one); a value out of range is refused with an error event;
    prefers-reduced-motion jumps to each pose; a card file loads; a strict
    Content-Security-Policy (docs/web.md's) lets it render in a Worker, and one that refuses
    Workers leaves it on the main thread; the main-thread fallback renders and flips; no console
    errors. A screenshot is kept in the artefacts folder.

usage: web-card.py KIRA [WEB_DIR] [ARTEFACTS]   (KIRA: a release build of kira; WEB_DIR: default
.build/web; exit 0 when every check passed, 1 otherwise)
"""
import base64
import gzip
import hashlib
import os
import struct
import subprocess
import sys
import tempfile
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import staticweb  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402

KIRA = os.path.abspath(sys.argv[1])
WEB = sys.argv[2] if len(sys.argv) > 2 else ".build/web"
ARTEFACTS = sys.argv[3] if len(sys.argv) > 3 else ".build/browser-artefacts"
failures = []


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what, flush=True)
    if not condition:
        failures.append(what)


def wait_for(driver, script, timeout=30.0):
    """Polls `script` (JavaScript returning a value) until it is truthy; returns it, or None."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = driver.execute_script(script)
        if value:
            return value
        time.sleep(0.03)
    return None


# (a) The poses: kira render's values in kira.js's camel case. Each is rendered, and its faces
# shaded at its tilts (the back for a pose past 90°).
POSES = [
    {},
    {"tiltX": 8, "tiltY": -14},
    {"flip": 180, "foil": "rainbow"},
    {"flip": 90, "foil": "sparkle", "tiltX": 3},
    {"tiltX": -10, "tiltY": 10, "foil": "cosmos", "glare": 0.5},
    {"tiltY": 7.5, "foil": "gold", "intensity": 2},
    {"tiltX": 6, "tiltY": 4, "foil": "etched", "intensity": 0.5},
    {"tiltX": -4, "tiltY": -9, "foil": "reverse", "glare": 1},
    {"tiltX": 5, "intensity": 0},
    {"flip": 45, "crossfade": True, "tiltX": 4, "tiltY": -6},
    {"flip": 135, "crossfade": True, "foil": "cosmos", "glare": 0.3, "size": "760x1050", "scale": 0.8, "tiltY": 9},
    {"flip": -30, "axis": "x", "foil": "gold"},
    {"flip": 60, "axis": "xy", "foil": "etched", "tiltX": -3},
    {"tiltX": 30, "tiltY": -25, "foil": "rainbow", "glare": 0.7},
    {"flip": 30, "perspective": 0, "foil": "sparkle"},
    {"tiltX": 20, "tiltPerspective": 2.5, "foil": "reverse", "intensity": 1.5},
    {"flip": 20, "size": "400x560", "fit": True, "foil": "etched", "tiltY": 5},
    {"scale": 0.5, "foil": "gold", "glare": 0.3, "tiltX": -7},
    {"flip": 270, "crossfade": True, "tiltY": -8, "foil": "kira", "glare": 0.2},
    {"tiltX": -89, "tiltY": 3, "foil": "cosmos", "intensity": 1.2},
]
SHADE_NAMES = {"tiltX", "tiltY", "foil", "intensity", "glare"}


def shade_of(pose):
    options = {k: v for k, v in pose.items() if k in SHADE_NAMES}
    turned = abs(pose.get("flip", 0)) % 360
    if 90 < turned < 270:
        options["back"] = True
    return options


def command_line(options):
    arguments = []
    for key, value in options.items():
        flag = "--" + "".join("-" + c.lower() if c.isupper() else c for c in key)
        if value is True:
            arguments.append(flag)
        else:
            arguments += [flag, str(value)]
    return arguments


def cli_rgba(command, options, folder, index):
    """The CLI's image of `options`: (width, height, SHA-256 of its RGBA bytes)."""
    path = os.path.join(folder, f"{command}-{index}.png")
    extra = ["--background", "transparent"] if command == "render" else []
    subprocess.run([KIRA, command, *command_line(options), *extra, "-o", path], check=True, stdout=subprocess.DEVNULL)
    with open(path, "rb") as f:
        width, height = struct.unpack(">II", f.read(24)[16:24])
    rgba = subprocess.run(["ffmpeg", "-v", "error", "-i", path, "-f", "rawvideo", "-pix_fmt", "rgba", "-"],
                          check=True, capture_output=True).stdout
    return width, height, hashlib.sha256(rgba).hexdigest(), len(rgba)


BROWSER_IMAGES = """
const [calls, card, done] = [arguments[0], arguments[1], arguments[arguments.length - 1]];
(async () => {
  const { Kira } = await import('/kira.js');
  const kira = await Kira.load();
  if (card) await kira.loadCard(card);
  const results = [];
  for (const [call, options] of calls) {
    const image = call === 'shade' ? kira.shade(options) : kira.render(options);
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', image.data));
    results.push([image.width, image.height, [...digest].map((b) => b.toString(16).padStart(2, '0')).join(''), image.data.length]);
  }
  return results;
})().then(done, (error) => done(String(error)));
"""

# The card on screen against kira.render's frame of the pose it shows, composited on the page's
# white: the mean difference per channel (of 255) over the element's box and the room around it.
ON_SCREEN = """
const [shot, pose, x, y, width, height, done] = [...arguments];
(async () => {
  const card = document.getElementById('card'), box = card.getBoundingClientRect();
  const { Kira } = await import('/kira.js');
  const kira = await Kira.load();
  const face = kira.shade({});
  // The default canvas (the card centred, with room for any pose), compared where the window is.
  const frame = kira.render({ ...pose, crossfade: true, scale: box.width / face.width,
                              foil: card.getAttribute('foil') ?? undefined, background: '#ffffff' });
  const left = (frame.width - width) / 2, top = (frame.height - height) / 2;
  const bitmap = await createImageBitmap(await (await fetch('data:image/png;base64,' + shot)).blob());
  const canvas = new OffscreenCanvas(width, height), context = canvas.getContext('2d');
  context.drawImage(bitmap, -x, -y);
  const screen = context.getImageData(0, 0, width, height).data;
  let sum = 0, differing = 0;
  for (let i = 0; i < screen.length; i += 4) {
    const p = i / 4, j = 4 * ((top + Math.floor(p / width)) * frame.width + left + p % width);
    for (let c = 0; c < 3; c++) {
      const d = Math.abs(screen[i + c] - frame.data[j + c]);
      sum += d;
      if (d > 48) differing++;
    }
  }
  return { mean: sum / (3 * width * height), differing: differing / (3 * width * height), pose };
})().then(done, (error) => done(String(error)));
"""


def on_screen(driver, margin=0.08):
    """Compares the card on screen (a screenshot of its box plus `margin` of its size around it)
    with kira.render's frame of its pose."""
    rect = driver.execute_script("const r = document.getElementById('card').getBoundingClientRect(); return [r.x, r.y, r.width, r.height]")
    x0, y0, w, h = rect
    # A window centred on the card's centre, in whole pixels (the page is at 1 device pixel a CSS
    # px), as wide as kira.render's default canvas is, modulo 2.
    width, height = round(w * (1 + 2 * margin) / 2) * 2, round(h * (1 + 2 * margin) / 2) * 2
    x, y = round(x0 + w / 2 - width / 2), round(y0 + h / 2 - height / 2)
    driver.execute_script("document.getElementById('card').style.outline = 'none'")  # no focus ring in the picture
    # A screenshot between two reads of the same pose and frame count: what it shows is that pose.
    state = "const c = document.getElementById('card'); return [c.pose, c.stats.framesPainted, c.moving]"
    for _ in range(50):
        before = driver.execute_script(state)
        shot = driver.get_screenshot_as_base64()
        if driver.execute_script(state) == before and not before[2]:
            break
        time.sleep(0.1)
    driver.execute_script("document.getElementById('card').style.outline = ''")
    result = driver.execute_async_script(ON_SCREEN, shot, before[0], x, y, width, height)
    if isinstance(result, dict):
        result["errors"] = driver.execute_script("return window.kiraErrors && kiraErrors.splice(0)")
        if result["mean"] > 0.5:
            os.makedirs(ARTEFACTS, exist_ok=True)
            with open(os.path.join(ARTEFACTS, f"web-card-difference-{time.monotonic():.0f}.png"), "wb") as f:
                f.write(base64.b64decode(shot))
    return result


def synthetic_card(folder):
    """A small card file of the layout kira card writes (docs/web.md): a 64×88 gradient face with
    a full mask, a plain back, gzip-compressed."""
    width, height = 64, 88
    art = bytes(v for y in range(height) for x in range(width) for v in (4 * x, 2 * y + 40, 200 - 2 * x, 255))
    mask = bytes([255, 255, 255, 255]) * (width * height)
    back = bytes([30, 60, 140, 255]) * (width * height)
    header = b"KIRACARD" + struct.pack("<I", 1)
    for image in ("art", "mask", None, "back", "mask", None):
        header += struct.pack("<B3xII", 8, width, height) if image else struct.pack("<B3xII", 0, 0, 0)
    path = os.path.join(folder, "test-card.kira.gz")
    with open(path, "wb") as f:
        f.write(gzip.compress(header + art + mask + back + mask))
    return path


server, origin = staticweb.serve(WEB)
driver = None
scratch = tempfile.mkdtemp(prefix="kira-web-")
card_file = None
try:
    # The MIME type WebAssembly's streaming compile needs, from a plain static server.
    with urllib.request.urlopen(origin + "/kira.wasm") as response:
        kind = response.headers.get("Content-Type")
    check(kind == "application/wasm", f"the static server sends kira.wasm as application/wasm ({kind})")

    driver = staticweb.chromium(size=(1280, 1500))
    driver.get(origin + "/index.html")

    # (a) The same bytes.
    calls = []
    for pose in POSES:
        calls += [["render", pose], ["shade", shade_of(pose)]]
    expected = [cli_rgba(call, options, scratch, index) for index, (call, options) in enumerate(calls)]
    # The built-in card as the module draws it, then as the bundle's card file (kira card's).
    for card, source in ((None, "the built-in sample card"), ("/sample.kira", "sample.kira, its card file")):
        started = time.monotonic()
        browser = driver.execute_async_script(BROWSER_IMAGES, calls, card)
        check(isinstance(browser, list) and len(browser) == len(calls),
              f"Chromium made {len(calls)} images of {source} ({time.monotonic() - started:.1f} s)" + ("" if isinstance(browser, list) else f": {browser}"))
        if not isinstance(browser, list):
            continue
        same = {"render": 0, "shade": 0}
        for (call, options), image, cli in zip(calls, browser, expected):
            if tuple(image) == cli:
                same[call] += 1
            else:
                print(f"     kira {call} {' '.join(command_line(options))}: CLI {cli[0]}x{cli[1]} {cli[2][:16]}…,"
                      f" Chromium {image[0]}x{image[1]} {image[2][:16]}…")
        check(same["render"] == len(POSES), f"{source}: kira.render is kira render --background transparent, byte for byte, at {same['render']} of {len(POSES)} poses")
        check(same["shade"] == len(POSES), f"{source}: kira.shade is kira shade, byte for byte, at {same['shade']} of {len(POSES)} poses")

    # (b) The element.
    driver.get(origin + "/index.html")
    painted = wait_for(driver, "const c = document.getElementById('card'); return c.stats.firstPaintMs !== null && c.stats", 60)
    check(painted is not None, "the first frame is painted" + (f" ({painted['firstPaintMs']:.0f} ms after the page's start)" if painted else ""))
    card = driver.find_element("id", "card")
    # Every error event the element fires, for the checks' messages.
    driver.execute_script("window.kiraErrors = []; document.getElementById('card').addEventListener('error', (e) => kiraErrors.push(e.detail.message))")
    rendering = driver.execute_script("return document.getElementById('card').rendering")
    check(rendering == "worker", f"frames are rendered in a Worker ({rendering})")
    attributes = driver.execute_script("const c = document.getElementById('card'); return [c.getAttribute('role'), c.getAttribute('aria-label'), c.tabIndex, c.getAttribute('aria-pressed')]")
    check(attributes[0] == "button" and attributes[1] and attributes[2] == 0 and attributes[3] == "false",
          f"an accessible name, a role, a tab stop and the face shown ({attributes})")

    rest = on_screen(driver)
    check(isinstance(rest, dict) and rest["mean"] < 1.5 and rest["differing"] < 0.005,
          f"the card at rest on screen is kira.render's frame ({rest})")

    # A real pointer drag: press, move right and up in steps; the card tilts and holds.
    actions = ActionChains(driver, duration=16)
    actions.move_to_element(card).click_and_hold()
    for _ in range(20):
        actions.move_by_offset(3, -2)
    actions.perform()
    held = wait_for(driver, "const c = document.getElementById('card'), p = c.pose; return p.tiltY > 5 && p.tiltX > 3 && !c.moving ? p : null", 20)
    check(held is not None, f"a pointer drag tilts the card ({driver.execute_script('return document.getElementById(`card`).pose')})")
    pressed = driver.execute_script("const c = document.getElementById('card'); return [document.activeElement === c, c.matches(':focus-visible')]")
    check(pressed == [True, False], f"the press focuses the card without a focus ring (focused, ring: {pressed})")
    tilted = on_screen(driver)
    check(isinstance(tilted, dict) and tilted["mean"] < 0.5 and tilted["differing"] < 0.002,
          f"the tilted card on screen (the compositor's perspective) is kira.render's frame of its pose ({tilted})")
    os.makedirs(ARTEFACTS, exist_ok=True)
    shot = os.path.join(ARTEFACTS, "web-card.png")
    driver.save_screenshot(shot)
    check(os.path.getsize(shot) > 10_000, f"a screenshot is kept: {shot}")
    ActionChains(driver).release().perform()
    at_rest = wait_for(driver, "const c = document.getElementById('card'), p = c.pose; return p.tiltX == 0 && p.tiltY == 0 && !c.moving ? {p, back: c.showsBack} : null", 20)
    check(at_rest is not None, "releasing it springs the card back to rest")
    check(at_rest is not None and not at_rest["back"] and at_rest["p"]["flip"] == 0, "a drag does not flip the card")

    # A click flips it to the back, with the spring (frames between 0 and 180 degrees).
    driver.execute_script("document.getElementById('card').resetStats()")
    ActionChains(driver).move_to_element(card).click().perform()
    back = wait_for(driver, "const c = document.getElementById('card'); return c.showsBack && c.pose.flip == 180 && !c.moving && c.getAttribute('aria-pressed') === 'true'", 20)
    check(back is not None, "a click flips the card to its back (aria-pressed true)")
    flips = driver.execute_script("return document.getElementById('card').stats.flips")
    check(any(0 < f < 180 for f in flips), f"the flip springs through the angles between ({len(flips)} frames)")
    turned = on_screen(driver)
    check(isinstance(turned, dict) and turned["mean"] < 1.5, f"the back on screen is kira.render's frame at flip 180 ({turned})")

    # The keyboard: the space bar flips it back; held arrow keys tilt it and letting go releases it.
    ActionChains(driver).send_keys(Keys.SPACE).perform()
    check(wait_for(driver, "const c = document.getElementById('card'); return !c.showsBack && c.pose.flip == 0 && !c.moving && c.getAttribute('aria-pressed') === 'false'", 20) is not None,
          "the space bar flips the card back to its front")
    keys = ActionChains(driver)
    for _ in range(3):
        keys.key_down(Keys.ARROW_RIGHT)
    keys.key_down(Keys.ARROW_UP)
    keys.perform()
    arrows = wait_for(driver, "const c = document.getElementById('card'), p = c.pose; return p.tiltY > 3 && p.tiltX > 0.5 && !c.moving ? p : null", 20)
    check(arrows is not None, f"the arrow keys tilt the card ({driver.execute_script('return document.getElementById(`card`).pose')})")
    ActionChains(driver).key_up(Keys.ARROW_UP).key_up(Keys.ARROW_RIGHT).perform()
    check(wait_for(driver, "const c = document.getElementById('card'), p = c.pose; return p.tiltX == 0 && p.tiltY == 0 && !c.moving", 20) is not None,
          "letting go of the keys springs it back")

    # tilt-limit: the clamp (5 presses, 6°, held to 3°); without it, the library's own again.
    driver.execute_script("document.getElementById('card').setAttribute('tilt-limit', '3')")
    keys = ActionChains(driver)
    for _ in range(5):
        keys.key_down(Keys.ARROW_RIGHT)
    keys.perform()
    clamped = wait_for(driver, "const c = document.getElementById('card'); return c.pose.tiltY == 3 && !c.moving", 20)
    check(clamped is not None, f"tilt-limit=3 clamps the tilt to 3° ({driver.execute_script('return document.getElementById(`card`).pose')})")
    driver.execute_script("document.getElementById('card').removeAttribute('tilt-limit')")
    ActionChains(driver).key_down(Keys.ARROW_RIGHT).perform()
    unclamped = wait_for(driver, "const c = document.getElementById('card'); return c.pose.tiltY > 6 && !c.moving", 20)
    check(unclamped is not None, f"without tilt-limit the library's clamp is back ({driver.execute_script('return document.getElementById(`card`).pose')})")
    ActionChains(driver).key_up(Keys.ARROW_RIGHT).perform()
    wait_for(driver, "const c = document.getElementById('card'); return c.pose.tiltY == 0 && !c.moving", 20)

    # The focus ring shows for a keyboard focus (Tab from the page's start), not for a click.
    # (a click on the heading moves the keyboard's starting point before the card).
    ActionChains(driver).click(driver.find_element("css selector", "h1")).send_keys(Keys.TAB).perform()
    ring = driver.execute_script("const c = document.getElementById('card'), s = getComputedStyle(c);"
                                 " return [document.activeElement === c, c.matches(':focus-visible'), s.outlineStyle, parseFloat(s.outlineWidth)]")
    check(ring[0] and ring[1] and ring[2] == "solid" and ring[3] >= 2, f"Tab focuses the card and shows a focus ring ({ring})")

    # A value out of the table's range: refused with an error event that says what is valid;
    # the card keeps rendering.
    refused = driver.execute_async_script("""
        const done = arguments[arguments.length - 1], c = document.getElementById('card');
        c.addEventListener('error', (e) => done(e.detail.message), { once: true });
        c.setAttribute('intensity', '7');""")
    check(refused and "0 to 2" in refused, f"an intensity out of range is refused with its range ({refused})")
    frames = driver.execute_script("const c = document.getElementById('card'), n = c.stats.framesPainted;"
                                   " c.setAttribute('foil', 'cosmos'); c.removeAttribute('intensity'); return n")
    check(wait_for(driver, f"return document.getElementById('card').stats.framesPainted > {frames}", 10) is not None, "a new foil paints a new frame")
    driver.execute_script("document.getElementById('card').resetStats()")
    cosmos = on_screen(driver)
    check(isinstance(cosmos, dict) and cosmos["mean"] < 1.5, f"the cosmos foil on screen is kira.render's ({cosmos})")

    # prefers-reduced-motion: the card jumps to each pose (the first frame after a click is the back).
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
    time.sleep(0.2)
    driver.execute_script("document.getElementById('card').resetStats()")
    ActionChains(driver).move_to_element(card).click().perform()
    jumped = wait_for(driver, "const c = document.getElementById('card'); return c.showsBack && !c.moving && c.stats.framesPainted > 0", 20)
    flips = driver.execute_script("return document.getElementById('card').stats.flips")
    check(jumped and flips and all(f == 180 for f in flips), f"with prefers-reduced-motion a click jumps to the back (flips painted: {flips},"
          f" {driver.execute_script('const c = document.getElementById(`card`); return [c.pose, c.showsBack, matchMedia(`(prefers-reduced-motion: reduce)`).matches]')})")

    # The exact projection, at the front tilted by held keys (still without springs): the same
    # frames as kira.render, drawn by the module.
    driver.execute_script("document.getElementById('card').focus()")
    ActionChains(driver).send_keys(Keys.SPACE).perform()
    wait_for(driver, "const c = document.getElementById('card'); return c.pose.flip == 0 && !c.moving", 20)
    ActionChains(driver).key_down(Keys.ARROW_LEFT).key_down(Keys.ARROW_DOWN).perform()
    driver.execute_script("document.getElementById('card').setAttribute('projection', 'exact'); document.getElementById('card').resetStats()")
    check(wait_for(driver, "const c = document.getElementById('card'); return c.stats.framesPainted > 0 && !c.shadowRoot.querySelector('.exact').hidden && c.pose.flip == 0 && c.pose.tiltY < 0 && !c.moving", 20) is not None,
          "projection=exact paints")
    exact = on_screen(driver)
    ActionChains(driver).key_up(Keys.ARROW_DOWN).key_up(Keys.ARROW_LEFT).perform()
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-reduced-motion", "value": "no-preference"}]})
    check(isinstance(exact, dict) and exact["mean"] < 0.5, f"projection=exact on screen is kira.render's frame ({exact})")

    # A card file (the layout kira card writes, gzip-compressed) given by URL.
    card_file = synthetic_card(WEB)
    driver.execute_script(f"document.getElementById('card').setAttribute('card', '{os.path.basename(card_file)}')")
    size = wait_for(driver, "const c = document.getElementById('card'); return c.style.getPropertyValue('--kira-face-width') === '64' && c.stats.framesPainted > 0"
                            " && c.getBoundingClientRect().width", 20)
    check(size == 64, f"a card file loads: the element takes its 64×88 face ({size})")

    logs = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
    check(not logs, f"no console errors ({logs})")

    # A page whose Content-Security-Policy allows no inline script or style and no eval, but
    # WebAssembly ('wasm-unsafe-eval') and a Worker of its own origin: the card renders in a Worker.
    csp_page = os.path.join(WEB, "test-csp.html")
    with open(csp_page, "w") as f:
        f.write("""<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,">
<meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'">
<script type="module" src="kira-card.js"></script><kira-card id="card"></kira-card>""")
    driver.get(origin + "/test-csp.html")
    strict = wait_for(driver, "const c = document.getElementById('card'); return c.stats && c.stats.firstPaintMs !== null && c.rendering", 60)
    os.remove(csp_page)
    check(strict == "worker", f"under a strict Content-Security-Policy the card paints from a Worker ({strict})")
    logs = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
    check(not logs, f"no console errors under the policy ({logs})")

    # A policy that refuses Workers: the card renders on the main thread instead (another page:
    # the first is in the browser's cache, and a second's Last-Modified may be the same second).
    csp_page = os.path.join(WEB, "test-csp-no-worker.html")
    with open(csp_page, "w") as f:
        f.write("""<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,">
<meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'none'">
<script type="module" src="kira-card.js"></script><kira-card id="card"></kira-card>""")
    driver.get(origin + "/test-csp-no-worker.html")
    refused = wait_for(driver, "const c = document.getElementById('card'); return c.stats && c.stats.firstPaintMs !== null && c.rendering", 60)
    os.remove(csp_page)
    check(refused == "main thread", f"where the policy refuses Workers the card paints from the main thread ({refused})")
    driver.get_log("browser")  # the policy's own report of the refused Worker

    # The fallback without a Worker: the main thread renders, and a click still flips.
    driver.get(origin + "/index.html?worker=off")
    fallback = wait_for(driver, "const c = document.getElementById('card'); return c.stats.firstPaintMs !== null && c.rendering", 60)
    check(fallback == "main thread", f"worker=off renders on the main thread ({fallback})")
    ActionChains(driver).move_to_element(driver.find_element("id", "card")).click().perform()
    check(wait_for(driver, "const c = document.getElementById('card'); return c.showsBack && c.pose.flip == 180 && !c.moving", 20) is not None,
          "on the main thread a click flips the card")
    main_thread = on_screen(driver)
    check(isinstance(main_thread, dict) and main_thread["mean"] < 1.5, f"on the main thread the back on screen is kira.render's ({main_thread})")
    logs = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
    check(not logs, f"no console errors on the main thread ({logs})")
finally:
    if driver:
        driver.quit()
    server.shutdown()
    if card_file:
        os.remove(card_file)

sys.exit(1 if failures else 0)
