#!/usr/bin/env python3
"""The live preview in a real browser: headless Chromium (Debian's chromium and chromium-driver)
driven by selenium loads the page from a `kira serve` this script starts, drags the card with a
real pointer, and checks that frames arrive and follow the drag, that releasing a drag does not
flip the card, that a click flips it, and that the painted card matches the API's frame of the
same pose; that the arrow keys tilt it and the space bar flips it; that when the server goes away
the page says so and reconnects by itself once it is back. A screenshot of the page with the card
held tilted is kept in the artefacts folder (the README's picture: scripts/readme-pictures).

usage: live-preview.py KIRA [ARTEFACTS]   (exit 0 when every check passed, 1 otherwise)
"""
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
    stats = driver.execute_script("return {framesPainted: kiraPreviewStats.framesPainted, fps: kiraPreviewStats.fps, latencyP95Ms: kiraPreviewStats.latencyP95Ms}")
    print(f"stats: {stats}")
finally:
    if driver:
        driver.quit()
    server.terminate()
    server.wait(timeout=30)

sys.exit(1 if failures else 0)
