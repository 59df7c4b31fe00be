"""Screenshots of index.html from one warm headless Chromium, through the DevTools protocol
(Page.captureScreenshot), a new pose before each: the fastest a browser-based share-image
service gets. Prints 'images N seconds S'. Usage: warm-screenshots.py PAGE_URL COUNT OUT_DIR"""
import base64
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

url, count, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
options = webdriver.ChromeOptions()
for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars", "--window-size=800,1000"):
    options.add_argument(flag)
options.binary_location = "/usr/bin/chromium"
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
try:
    driver.get(url)
    driver.execute_cdp_cmd("Page.captureScreenshot", {"format": "png"})  # warm-up, not timed
    start = time.monotonic()
    for i in range(count):
        driver.execute_script(f"setPose({(i * 7) % 40 - 20}, {(i * 11) % 40 - 20})")
        shot = driver.execute_cdp_cmd("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True,
                                                                 "clip": {"x": 0, "y": 0, "width": 800, "height": 1000, "scale": 1}})
        with open(f"{out}/warm-{i}.png", "wb") as f:
            f.write(base64.b64decode(shot["data"]))
    print(f"images {count} seconds {time.monotonic() - start:.3f}")
finally:
    driver.quit()
