#!/usr/bin/env python3
"""The live preview in a real browser: headless Chromium (Debian's chromium and chromium-driver)
driven by selenium loads the page from a `kira serve --web WEB` this script starts. The server
stream (`/?render=server`): it drags the card with a real pointer, and checks that frames arrive
and follow the drag, that releasing a drag does not flip the card, that a click flips it, and
that the painted card matches the API's frame of the same pose; that the arrow keys tilt it and
the space bar flips it; that when the server goes away the page says so and reconnects by itself
once it is back; that its sliders show their values, its foil picker and sliders change the
frame, and at 360 px and desktop widths every control is on screen and none overlaps another. Screenshots are kept in the artefacts folder: the page with the
card held tilted (the README's picture: scripts/readme-pictures), and the page at 360 px and at a
desktop's width. The browser mode (the page's default with a bundle): <kira-card> paints its
first frame from the card's file, a drag tilts it while the server renders nothing (its
kira_renders_total, which the stream's drag raises), the controls set its attributes, and the
switch goes to the stream and back. And where the bundle cannot draw (a module that throws, a
kira.wasm that is not WebAssembly, a browser without WebAssembly, a server without a bundle) the
page shows the stream and says why.

usage: live-preview.py KIRA WEB [ARTEFACTS]   (WEB: the bundle, scripts/build-web's .build/web;
exit 0 when every check passed, 1 otherwise)
"""
import base64
import os
import re
import shutil
import sys
import tempfile
import time
import urllib.request

import kiraserve
from checks import check, failures, wait_for
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

if len(sys.argv) < 3:
    sys.exit(__doc__.split("usage: ")[1])
KIRA, WEB = sys.argv[1], sys.argv[2]
ARTEFACTS = sys.argv[3] if len(sys.argv) > 3 else ".build/browser-artefacts"
if not os.path.isfile(os.path.join(WEB, "kira-card.js")):
    sys.exit(f"live-preview.py: no kira-card.js in {WEB}: scripts/build-web writes the bundle")


def renders(origin):
    """The server's kira_renders_total: every frame it rendered (API, card files, live frames)."""
    with urllib.request.urlopen(origin + "/metrics", timeout=10) as response:
        text = response.read().decode()
    match = re.search(r"^kira_renders_total(?:\{[^}]*\})? (\d+)", text, re.M)
    if not match:
        sys.exit(f"live-preview.py: no kira_renders_total in {origin}/metrics")
    return int(match.group(1))


def drag_element(driver, element, steps=20):
    """Presses on `element` and moves right and up in steps, held (a real pointer)."""
    actions = ActionChains(driver, duration=16)
    actions.move_to_element(element).click_and_hold()
    for _ in range(steps):
        actions.move_by_offset(3, -2)
    actions.perform()


def fallback_line(driver):
    """Once the page streams instead of rendering in the browser and has painted a frame, the line
    that says why (None when it never does, or says nothing)."""
    if wait_for(driver, "const s = window.kiraPreviewStats; return s && s.mode === 'server' && s.framesPainted >= 1 && s.fallback", 30) is None:
        return None
    return driver.execute_script("const f = document.getElementById('fallback'); return f.hidden ? null : f.textContent")


# The layouts checked: a phone's and a desktop's.
LAYOUTS = (("360", (360, 780)), ("desktop", (1366, 900)))


def resize(driver, name, size):
    """A phone's viewport (its scroll bars take no width), or a desktop window."""
    if name == "360":
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": size[0], "height": size[1], "deviceScaleFactor": 1, "mobile": True})
    else:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        driver.set_window_size(*size)
    wait_for(driver, f"return Math.abs(innerWidth - {size[0]}) < 40", 5)


server, origin = kiraserve.start(KIRA, "--web", WEB)
driver = None
try:

    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=980,760"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")), options=options)
    driver.get(origin + "/?render=server")

    check(wait_for(driver, "return window.kiraPreviewStats && window.kiraPreviewStats.framesPainted >= 1") is not None,
          "the first frame is painted")
    check(driver.execute_script("return kiraPreviewStats.mode === 'server' && document.querySelector('input[name=render][value=server]').checked"
                                " && !document.querySelector('kira-card')"),
          "?render=server shows the server stream, and the switch says so")
    media = driver.execute_script("return kiraPreviewStats.lastFrame.mediaType")
    check(media == "application/x-kira-rgba", f"frames to a page on this machine are raw pixels ({media})")
    card = driver.find_element("id", "card")
    still = driver.execute_script("return document.getElementById('card').toDataURL()")
    painted = driver.execute_script("return kiraPreviewStats.framesPainted")
    rendered = renders(origin)

    # A real pointer drag: press, move right and up in steps, check the pose while held.
    drag_element(driver, card)
    held = wait_for(driver, "const f = kiraPreviewStats.lastFrame; return f && f.tiltY > 5 && f.tiltX > 3 ? f : null", 20)
    check(held is not None, f"the card tilts with the drag (last frame {driver.execute_script('return kiraPreviewStats.lastFrame')})")
    check(driver.execute_script("return kiraPreviewStats.framesPainted") > painted, "frames arrive during the drag")
    moved = driver.execute_script("return document.getElementById('card').toDataURL()")
    check(moved != still, "the painted card changes with the drag")
    stream_renders = renders(origin) - rendered
    check(stream_renders > 0, f"the server renders the stream's frames ({stream_renders} during the drag, its kira_renders_total)")
    ActionChains(driver).release().perform()
    rest = wait_for(driver, "const f = kiraPreviewStats.lastFrame; return f && f.tiltX == 0 && f.tiltY == 0 && !f.moving ? f : null", 20)
    check(rest is not None, "releasing springs the card back to rest")
    check(rest is not None and not rest["back"], "releasing a drag does not flip the card")

    # A click without moving flips it to the back.
    ActionChains(driver).move_to_element(card).click().perform()
    back = wait_for(driver, "const f = kiraPreviewStats.lastFrame; return f && f.back && f.flip == 180 && !f.moving ? f : null", 20)
    check(back is not None, "a click flips the card to its back")

    # The painted card is the API's frame of the same pose, within the live encoding's loss.
    difference = driver.execute_async_script("""
        const done = arguments[arguments.length - 1], canvas = document.getElementById('card');
        const image = new Image();
        image.onload = () => {
          const other = new OffscreenCanvas(canvas.width, canvas.height).getContext('2d');
          other.fillStyle = '#fff'; other.fillRect(0, 0, canvas.width, canvas.height);
          const w = kiraPreviewStats.lastFrame.window;
          other.drawImage(image, -w.x, -w.y);
          const a = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
          const b = other.getImageData(0, 0, canvas.width, canvas.height).data;
          let sum = 0, n = 0;
          for (let i = 0; i < a.length; i += 4) {
            // The live frame flattened onto white (JPEG) or with alpha: compare both on white.
            for (let c = 0; c < 3; c++) {
              const live = a[i + c] * a[i + 3] / 255 + 255 * (1 - a[i + 3] / 255);
              sum += Math.abs(live - b[i + c]); n++;
            }
          }
          done(sum / n);
        };
        image.onerror = () => done(-1);
        image.src = kiraPreviewStats.lastFrame.url;
    """)
    check(0 <= difference < 3, f"the painted card matches the API's PNG of the same pose (mean difference {difference:.2f} of 255)")

    # The keyboard: with the card focused, held arrow keys tilt it (8 points of drag a press),
    # letting go springs it back, and the space bar flips it (back to the front here).
    driver.execute_script("document.getElementById('card').focus()")
    keys = ActionChains(driver)
    for _ in range(3):
        keys.key_down(Keys.ARROW_RIGHT)
    keys.perform()
    tilted = wait_for(driver, "const f = kiraPreviewStats.lastFrame; return f && f.tiltY > 3 && !f.moving ? f : null", 20)
    check(tilted is not None, f"arrow keys tilt the card (last frame {driver.execute_script('return kiraPreviewStats.lastFrame')})")
    ActionChains(driver).key_up(Keys.ARROW_RIGHT).perform()
    check(wait_for(driver, "const f = kiraPreviewStats.lastFrame; return f && f.tiltY == 0 && !f.moving ? f : null", 20) is not None,
          "letting go of the keys springs the card back")
    ActionChains(driver).send_keys(Keys.SPACE).perform()
    front = wait_for(driver, "const f = kiraPreviewStats.lastFrame; return f && !f.back && !f.moving ? f : null", 20)
    check(front is not None, "the space bar flips the card")

    # The server goes away: the page says so over the card, and reconnects by itself to a server
    # on the same address.
    port = int(origin.rsplit(":", 1)[1])
    server.terminate()
    server.wait(timeout=30)
    gone = wait_for(driver, "const s = document.getElementById('status'); return !s.hidden && /reconnecting/.test(s.textContent) ? s.textContent : null", 20)
    check(gone is not None, f"the page says the server is gone ({gone})")
    painted = driver.execute_script("return kiraPreviewStats.framesPainted")
    server, _ = kiraserve.start(KIRA, "--web", WEB, port=port)
    back_again = wait_for(driver, f"return kiraPreviewStats.framesPainted > {painted} && document.getElementById('status').hidden", 30)
    check(back_again is not None, "the page reconnects by itself and paints frames again")

    # The README's picture: the page with the card held tilted, the live figures hidden (they
    # change from run to run).
    driver.execute_script("document.getElementById('stats').hidden = true")
    hold = ActionChains(driver, duration=16).move_to_element(card).click_and_hold()
    for _ in range(10):
        hold.move_by_offset(-4, -3)
    hold.perform()
    check(wait_for(driver, "const f = kiraPreviewStats.lastFrame; return f && f.tiltX > 4 && f.tiltY < -5 && !f.moving ? f : null", 20) is not None,
          "the card holds its tilt while the pointer is down")
    # The link and the command are the painted frame's.
    check(wait_for(driver, "const f = kiraPreviewStats.lastFrame; return document.getElementById('command').textContent === f.command"
                           " && document.getElementById('download').getAttribute('href') === '.' + f.url", 5) is not None,
          "the command and the download link show the frame on screen")
    driver.execute_script("document.getElementById('card').blur()")
    os.makedirs(ARTEFACTS, exist_ok=True)
    shot = os.path.join(ARTEFACTS, "live-preview.png")
    driver.save_screenshot(shot)
    check(os.path.getsize(shot) > 10_000, f"a screenshot is kept: {shot}")
    ActionChains(driver).release().perform()
    driver.execute_script("document.getElementById('stats').hidden = false")

    # The controls: sliders that show their values, a foil picker; at a phone's 360 px and at a
    # desktop's width every control is on screen, none overlaps another, and nothing scrolls
    # sideways. A screenshot of each is kept.
    layout = """
        const boxes = [...document.querySelectorAll('h1, #card, kira-card, #panel .control, #modes label, #foils label, #download, #copy')]
          .filter((e) => !e.closest('[hidden]') && !(document.body.dataset.mode === 'browser' && e.closest('.stream-only')))
          .map((e) => { const r = e.getBoundingClientRect(); return { id: e.id || e.textContent.trim().slice(0, 20), left: r.left, top: r.top + scrollY, right: r.right, bottom: r.bottom + scrollY }; });
        const problems = [], width = document.documentElement.clientWidth;
        for (const b of boxes) {
          if (b.right - b.left < 1 || b.bottom - b.top < 1) problems.push(b.id + ' is not visible');
          if (b.left < -0.5 || b.right > width + 0.5) problems.push(b.id + ' is outside the page (' + b.left + '...' + b.right + ' of ' + width + ')');
        }
        for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
          const a = boxes[i], b = boxes[j];
          if (Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5)
            problems.push(a.id + ' overlaps ' + b.id);
        }
        for (const row of document.querySelectorAll('#panel .control')) {
          const parts = [...row.children].map((e) => e.getBoundingClientRect());
          for (let i = 1; i < parts.length; i++) if (parts[i].left < parts[i - 1].right - 0.5) problems.push(row.textContent.trim() + ': its value overlaps its control');
        }
        if (document.documentElement.scrollWidth > width + 0.5) problems.push('the page scrolls sideways: ' + document.documentElement.scrollWidth + ' > ' + width);
        return { count: boxes.length, problems };
    """
    for name, size in LAYOUTS:
        resize(driver, name, size)
        inner = driver.execute_script("return innerWidth")
        result = driver.execute_script(layout)
        check(result["count"] >= 10 and not result["problems"], f"at {inner} px wide ({name}): {result['count']} controls, all visible, none overlapping {result['problems']}")
        # The whole page, below the fold too.
        shot = os.path.join(ARTEFACTS, f"live-preview-{name}.png")
        with open(shot, "wb") as f:
            f.write(base64.b64decode(driver.execute_cdp_cmd("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True})["data"]))
        check(os.path.getsize(shot) > 10_000, f"a screenshot at {name} width is kept: {shot}")

    shown = driver.execute_script("return ['tilt_limit', 'intensity', 'glare'].map((n) => document.querySelector('output[for=c-' + n + ']')?.textContent)")
    check(all(shown) and shown[1] == "1", f"tilt limit, intensity and glare are sliders showing their values ({shown})")
    check(not driver.execute_script("return [...document.querySelectorAll('input')].some((e) => /default/i.test(e.placeholder))"),
          "no text box says 'default'")
    driver.execute_script("const s = document.getElementById('c-intensity'); s.value = 1.5;"
                          " s.dispatchEvent(new Event('input')); s.dispatchEvent(new Event('change'))")
    check(driver.execute_script("return document.querySelector('output[for=c-intensity]').textContent") == "1.5", "the slider's value follows it")
    ActionChains(driver).click(driver.find_element("css selector", "#foils input[value=sparkle] + span")).perform()
    picked = wait_for(driver, "const f = kiraPreviewStats.lastFrame; return f && /foil[ =]sparkle/.test(f.command) && /intensity[ =]1.5/.test(f.command) ? f.command : null", 20)
    check(picked is not None, f"the foil picker and the slider change the frame ({driver.execute_script('return kiraPreviewStats.lastFrame.command')})")

    stats = driver.execute_script("return {framesPainted: kiraPreviewStats.framesPainted, fps: kiraPreviewStats.fps, latencyP95Ms: kiraPreviewStats.latencyP95Ms}")
    print(f"stats: {stats}")

    # The browser mode, the page's default when the server has the bundle: <kira-card> from the
    # bundle's module draws the card from its file, and the server renders nothing while it moves.
    before = renders(origin)
    driver.get(origin + "/")
    loaded = wait_for(driver, "const s = window.kiraPreviewStats; return s && s.browser.loaded && s.browser.framesPainted >= 1 ? s : null", 30)
    check(loaded is not None and loaded["mode"] == "browser", f"the page renders in the browser by default, and <kira-card> paints its first frame ({loaded and loaded['browser']})")
    time.sleep(0.5)  # a stream's first frame, were one opened, is rendered at once
    after = renders(origin)
    check(after - before == 1, f"the browser mode's page makes the server render only the card's file ({after - before} renders)")
    element = driver.find_element("css selector", "#stage > kira-card")
    check(driver.execute_script("const c = arguments[0]; return c.getAttribute('card') === './v1/cards/sample/card.kira' && c.rendering === 'worker'"
                                " && document.querySelector('input[name=render][value=browser]').checked && document.getElementById('card').hidden"
                                " && document.getElementById('fallback').hidden", element),
          "the element draws the card's file in a Worker, the switch says 'in your browser', the stream's canvas is hidden")
    shown = wait_for(driver, "const t = document.getElementById('stats').textContent; return /^In your browser \\(worker\\) .* frames\\/s/.test(t) ? t : null", 5)
    check(shown is not None, f"the page shows the mode and its frames/s ({shown})")
    before = renders(origin)
    painted = driver.execute_script("return arguments[0].stats.framesPainted", element)
    drag_element(driver, element)
    tilted = wait_for(driver, "const p = document.querySelector('kira-card').pose; return p.tiltY > 5 && p.tiltX > 3 ? p : null", 20)
    check(tilted is not None, f"a drag tilts the card in the browser ({driver.execute_script('return arguments[0].pose', element)})")
    check(driver.execute_script("return arguments[0].stats.framesPainted", element) > painted, "the element paints frames during the drag")
    ActionChains(driver).release().perform()
    check(wait_for(driver, "const c = document.querySelector('kira-card'); return !c.moving && c.pose.tiltX == 0 && c.pose.tiltY == 0", 20) is not None,
          "releasing springs the card back in the browser")
    check(wait_for(driver, "return kiraPreviewStats.browser.fps > 0 || kiraPreviewStats.browser.framesPainted > 5", 5) is not None,
          f"kiraPreviewStats.browser counts the element's frames ({driver.execute_script('return kiraPreviewStats.browser')})")
    after = renders(origin)
    check(after == before, f"the server renders no frame while the card is dragged in the browser (kira_renders_total {before} before, {after} after)")

    # The controls the element has set its attributes; the stream's own are greyed.
    ActionChains(driver).click(driver.find_element("css selector", "#foils input[value=sparkle] + span")).perform()
    driver.execute_script("for (const [n, v] of [['intensity', 1.5], ['glare', 0.4], ['tilt_limit', 20]]) { const s = document.getElementById('c-' + n);"
                          " s.value = v; s.dispatchEvent(new Event('input')); s.dispatchEvent(new Event('change')); }")
    attributes = driver.execute_script("const c = arguments[0]; return ['foil', 'intensity', 'glare', 'tilt-limit'].map((a) => c.getAttribute(a))", element)
    check(attributes == ["sparkle", "1.5", "0.4", "20"], f"the foil, intensity, glare and tilt limit controls set the element's attributes ({attributes})")
    check(driver.execute_script("return document.getElementById('c-background').disabled && !document.getElementById('c-intensity').disabled"),
          "the controls the element does not have are greyed in the browser mode")

    # The switch: to the stream (frames come, with the controls set meanwhile), and back.
    streamed = driver.execute_script("return kiraPreviewStats.framesPainted")
    ActionChains(driver).click(driver.find_element("css selector", "input[name=render][value=server] + span")).perform()
    switched = wait_for(driver, f"const s = kiraPreviewStats, f = s.lastFrame; return s.mode === 'server' && s.framesPainted > {streamed}"
                                " && /foil[ =]sparkle/.test(f.command) && !document.getElementById('card').hidden ? s.lastFrame.command : null", 20)
    check(switched is not None, f"the switch shows the server stream, with the controls set in the browser mode ({switched})")
    check(wait_for(driver, "return /^Server stream .* frames\\/s/.test(document.getElementById('stats').textContent)", 5) is not None,
          "the page shows the stream's mode and frames/s")
    check("render=server" in driver.current_url, f"the address keeps the mode ({driver.current_url})")
    ActionChains(driver).click(driver.find_element("css selector", "input[name=render][value=browser] + span")).perform()
    check(wait_for(driver, "return kiraPreviewStats.mode === 'browser' && !document.querySelector('kira-card').hidden", 10) is not None,
          "the switch goes back to the browser")
    time.sleep(1)  # a frame the stream was rendering when it closed
    before = renders(origin)
    drag_element(driver, driver.find_element("css selector", "#stage > kira-card"))
    check(wait_for(driver, "const p = document.querySelector('kira-card').pose; return p.tiltY > 5", 20) is not None, "a drag tilts the card after the switch")
    ActionChains(driver).release().perform()
    time.sleep(1)
    after = renders(origin)
    check(after == before, f"after the switch back the server renders nothing for a drag (kira_renders_total {before} before, {after} after)")
    shot = os.path.join(ARTEFACTS, "live-preview-browser.png")
    driver.save_screenshot(shot)
    check(os.path.getsize(shot) > 10_000, f"a screenshot of the browser mode is kept: {shot}")
    # The element's page fits a phone and a desktop as the stream's does.
    for name, size in LAYOUTS:
        resize(driver, name, size)
        result = driver.execute_script(layout)
        check(result["count"] >= 10 and not result["problems"] and driver.execute_script("return !!document.querySelector('kira-card').getBoundingClientRect().width"),
              f"the browser mode at {name} width: {result['count']} controls and the card, all visible, none overlapping {result['problems']}")
    server.terminate()
    server.wait(timeout=30)

    # A bundle that cannot draw: a module that throws, a kira.wasm that is not WebAssembly, a
    # browser without WebAssembly. Each page streams and says why in its line.
    broken = tempfile.mkdtemp(prefix="kira-broken-web-")
    for file, text, what, expected in (("kira-card.js", "throw new Error('a broken module');\n", "kira-card.js throws", "did not load"),
                                       ("kira.wasm", "not WebAssembly", "kira.wasm is not WebAssembly", "could not draw the card")):
        shutil.rmtree(broken)
        shutil.copytree(WEB, broken)
        with open(os.path.join(broken, file), "w") as f:
            f.write(text)
        server, origin = kiraserve.start(KIRA, "--web", broken)
        driver.get(origin + "/")
        line = fallback_line(driver)
        check(line is not None and expected in line, f"a bundle whose {what}: the page streams and says so ({line})")
        server.terminate()
        server.wait(timeout=30)
    shutil.rmtree(broken)
    server, origin = kiraserve.start(KIRA, "--web", WEB)
    script = driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": "delete globalThis.WebAssembly;"})
    driver.get(origin + "/")
    line = fallback_line(driver)
    check(line is not None and "no WebAssembly" in line, f"a browser without WebAssembly: the page streams and says so ({line})")
    driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": script["identifier"]})
    server.terminate()
    server.wait(timeout=30)

    # Without a bundle: the same programs where no web folder is beside them (kira serve looks
    # for one there when --web is not given) serve a page that streams and says why.
    alone = tempfile.mkdtemp(prefix="kira-no-web-")
    for program in ("kira", "kira-serve"):
        shutil.copy2(os.path.join(os.path.dirname(os.path.abspath(KIRA)), program), alone)
    server, origin = kiraserve.start(os.path.join(alone, "kira"))
    driver.get(origin + "/")
    line = fallback_line(driver)
    check(line is not None and "no browser bundle" in line and not driver.find_elements("css selector", "kira-card"),
          f"a server without a bundle: the page streams and says so ({line})")
    check(driver.execute_script("return document.querySelector('input[name=render][value=browser]').disabled"),
          "without a bundle the switch cannot choose the browser")
    shutil.rmtree(alone)
finally:
    if driver:
        driver.quit()
    server.terminate()
    server.wait(timeout=30)

sys.exit(1 if failures else 0)
