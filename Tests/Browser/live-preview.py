#!/usr/bin/env python3
"""The live preview in a real browser: headless Chromium (Debian's chromium and chromium-driver)
driven by selenium loads the page from a `kira serve` this script starts, drags the card with a
real pointer, and checks that frames arrive and follow the drag, that releasing a drag does not
flip the card, that a click flips it, and that the painted card matches the API's frame of the
same pose; that the arrow keys tilt it and the space bar flips it; that when the server goes away
the page says so and reconnects by itself once it is back; that its sliders show their values, its
foil picker and sliders change the frame, and at 360 px and desktop widths every control is on
screen and none overlaps another. Screenshots are kept in the artefacts folder: the page with the
card held tilted (the README's picture: scripts/readme-pictures), and the page at 360 px and at a
desktop's width.

usage: live-preview.py KIRA [ARTEFACTS]   (exit 0 when every check passed, 1 otherwise)
"""
import base64
import os
import sys
import time

import kiraserve
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

KIRA = sys.argv[1]
ARTEFACTS = sys.argv[2] if len(sys.argv) > 2 else ".build/browser-artefacts"
failures = []


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what)
    if not condition:
        failures.append(what)


def wait_for(driver, script, timeout=30.0):
    """Polls `script` (JavaScript returning a value) until it is truthy; returns it, or None."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = driver.execute_script(script)
        if value:
            return value
        time.sleep(0.05)
    return None


server, origin = kiraserve.start(KIRA)
driver = None
try:

    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=980,760"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")), options=options)
    driver.get(origin + "/")

    check(wait_for(driver, "return window.kiraPreviewStats && window.kiraPreviewStats.framesPainted >= 1") is not None,
          "the first frame is painted")
    media = driver.execute_script("return kiraPreviewStats.lastFrame.mediaType")
    check(media == "application/x-kira-rgba", f"frames to a page on this machine are raw pixels ({media})")
    card = driver.find_element("id", "card")
    still = driver.execute_script("return document.getElementById('card').toDataURL()")
    painted = driver.execute_script("return kiraPreviewStats.framesPainted")

    # A real pointer drag: press, move right and up in steps, check the pose while held.
    actions = ActionChains(driver, duration=16)
    actions.move_to_element(card).click_and_hold()
    for step in range(1, 21):
        actions.move_by_offset(3, -2)
    actions.perform()
    held = wait_for(driver, "const f = kiraPreviewStats.lastFrame; return f && f.tiltY > 5 && f.tiltX > 3 ? f : null", 20)
    check(held is not None, f"the card tilts with the drag (last frame {driver.execute_script('return kiraPreviewStats.lastFrame')})")
    check(driver.execute_script("return kiraPreviewStats.framesPainted") > painted, "frames arrive during the drag")
    moved = driver.execute_script("return document.getElementById('card').toDataURL()")
    check(moved != still, "the painted card changes with the drag")
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
    server, _ = kiraserve.start(KIRA, port=port)
    back_again = wait_for(driver, f"return kiraPreviewStats.framesPainted > {painted} && document.getElementById('status').hidden", 30)
    check(back_again is not None, "the page reconnects by itself and paints frames again")

    # The README's picture: the page with the card held tilted, the live figures hidden (they
    # change from run to run).
    driver.execute_script("document.getElementById('stats').style.visibility = 'hidden'")
    hold = ActionChains(driver, duration=16).move_to_element(card).click_and_hold()
    for _ in range(10):
        hold.move_by_offset(-4, -3)
    hold.perform()
    check(wait_for(driver, "const f = kiraPreviewStats.lastFrame; return f && f.tiltX > 4 && f.tiltY < -5 && !f.moving ? f : null", 20) is not None,
          "the card holds its tilt while the pointer is down")
    # The link and the command are the painted frame's.
    check(wait_for(driver, "const f = kiraPreviewStats.lastFrame; return document.getElementById('command').textContent === f.command"
                           " && document.getElementById('download').getAttribute('href') === f.url", 5) is not None,
          "the command and the download link show the frame on screen")
    driver.execute_script("document.getElementById('card').blur()")
    os.makedirs(ARTEFACTS, exist_ok=True)
    shot = os.path.join(ARTEFACTS, "live-preview.png")
    driver.save_screenshot(shot)
    check(os.path.getsize(shot) > 10_000, f"a screenshot is kept: {shot}")
    ActionChains(driver).release().perform()

    # The controls: sliders that show their values, a foil picker; at a phone's 360 px and at a
    # desktop's width every control is on screen, none overlaps another, and nothing scrolls
    # sideways. A screenshot of each is kept.
    layout = """
        const boxes = [...document.querySelectorAll('h1, #card, #panel .control, #foils label, #download, #copy')]
          .filter((e) => !e.closest('[hidden]'))
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
    for name, size in (("360", (360, 780)), ("desktop", (1366, 900))):
        # A phone's viewport (its scroll bars take no width), then a desktop window.
        if name == "360":
            driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": size[0], "height": size[1], "deviceScaleFactor": 1, "mobile": True})
        else:
            driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
            driver.set_window_size(*size)
        wait_for(driver, f"return Math.abs(innerWidth - {size[0]}) < 40", 5)
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
finally:
    if driver:
        driver.quit()
    server.terminate()
    server.wait(timeout=30)

sys.exit(1 if failures else 0)
