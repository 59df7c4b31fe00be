#!/usr/bin/env python3
"""The live preview behind a proxy that serves it under a path prefix: nginx with
examples/nginx-prefix.conf as shipped (its ports and scratch paths swapped for free ones) in
front of a `kira serve --web WEB` this script starts, and headless Chromium at
http://127.0.0.1:PORT/kira/. The page renders the card in the browser from the bundle and the
card file beside it; with ?render=server its WebSocket goes through the proxy and frames arrive;
its download link is a frame; /kira without its slash is sent to /kira/.

usage: behind-proxy.py KIRA WEB   (exit 0 when every check passed, 1 otherwise)
"""
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

import kiraserve
from checks import check, failures, wait_for
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

if len(sys.argv) < 3:
    sys.exit(__doc__.split("usage: ")[1])
KIRA, WEB = sys.argv[1], sys.argv[2]
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


work = tempfile.mkdtemp(prefix="kira-proxy-")
server, origin = kiraserve.start(KIRA, "--web", WEB)
port = origin.rsplit(":", 1)[1]
front = free_port()
with open(os.path.join(ROOT, "examples/nginx-prefix.conf")) as f:
    conf = f.read()
conf = (conf.replace("127.0.0.1:8081", f"127.0.0.1:{port}").replace("listen 127.0.0.1:8080", f"listen 127.0.0.1:{front}")
        .replace("/tmp/kira-prefix-nginx", os.path.join(work, "nginx")))
with open(os.path.join(work, "nginx.conf"), "w") as f:
    f.write(conf)
user = "user root;" if os.geteuid() == 0 else ""
subprocess.run([NGINX, "-p", work, "-c", os.path.join(work, "nginx.conf"), "-g", f"daemon on; {user}"], check=True)
base = f"http://127.0.0.1:{front}/kira/"
driver = None
try:
    for _ in range(100):
        try:
            urllib.request.urlopen(base + "healthz", timeout=2)
            break
        except (urllib.error.URLError, ConnectionError):
            time.sleep(0.1)

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None
    try:
        urllib.request.build_opener(NoRedirect).open(f"http://127.0.0.1:{front}/kira", timeout=5)
        check(False, "/kira is redirected to /kira/ (it was answered)")
    except urllib.error.HTTPError as error:
        check(error.code == 301 and error.headers.get("Location", "").endswith("/kira/"),
              f"/kira is redirected to /kira/ ({error.code} {error.headers.get('Location')})")

    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=980,760"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")), options=options)

    driver.get(base)
    painted = wait_for(driver, "const s = window.kiraPreviewStats; return s && s.browser.loaded && s.browser.framesPainted >= 1 ? s : null")
    check(painted is not None and painted["mode"] == "browser" and not painted["fallback"],
          f"under the prefix the page renders in the browser from the bundle and the card file beside it "
          f"({painted and painted['mode']}, fallback {painted and painted['fallback']})")

    driver.get(base + "?render=server")
    streamed = wait_for(driver, "const s = window.kiraPreviewStats; return s && s.framesPainted >= 1 ? s : null")
    check(streamed is not None and streamed["mode"] == "server", "with ?render=server the stream's WebSocket goes through the proxy and frames arrive")
    link = wait_for(driver, "const a = document.getElementById('download'); return a && a.href && a.href.includes('/v1/') ? a.href : null", 10)
    check(link is not None and link.startswith(base + "v1/cards/"), f"the download link is under the prefix ({link})")
    if link:
        status = driver.execute_async_script("const done = arguments[arguments.length - 1];"
                                             "fetch(arguments[0]).then(r => done(r.status + ' ' + r.headers.get('content-type'))).catch(e => done(String(e)))", link)
        check(status.startswith("200 image/"), f"the download link is a frame ({status})")
    # The browser asks the host for /favicon.ico, outside the prefix: the host's, not Kira's.
    logs = [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE" and "/favicon.ico" not in entry["message"]]
    check(not logs, f"no errors in the console ({logs[:2]})")
finally:
    if driver:
        driver.quit()
    pid_file = os.path.join(work, "nginx.pid")
    if os.path.exists(pid_file):
        with open(pid_file) as f:
            os.kill(int(f.read().strip()), 15)
    server.terminate()
    server.wait()
    shutil.rmtree(work, ignore_errors=True)

print(f"behind-proxy: {'all checks passed' if not failures else f'{len(failures)} failed'}")
sys.exit(1 if failures else 0)
