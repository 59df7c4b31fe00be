"""The web bundle (scripts/build-web's folder) served by a plain static server, as any host would
serve it, and headless Chromium to open it: for Tests/Browser/web-card.py and
Benchmarks/web-card.py."""
import functools
import http.server
import os
import sys
import threading

from selenium import webdriver
from selenium.webdriver.chrome.service import Service


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


class _Server(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        # A browser that stops reading (a navigation away) is not an error of the page's.
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


def serve(folder):
    """Python's http.server on a free loopback port serving `folder`, in a thread: (server, origin)."""
    handler = functools.partial(_Quiet, directory=folder)
    server = _Server(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_port}"


def chromium(*arguments, size=(1280, 1100)):
    """Headless Chromium (Debian's chromium and chromium-driver; CHROMIUM and CHROMEDRIVER
    override their paths) with the page's console kept, and more `arguments`."""
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", f"--window-size={size[0]},{size[1]}",
                     *arguments, *os.environ.get("KIRA_CHROMIUM_FLAGS", "").split()):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")), options=options)
    driver.set_script_timeout(600)
    return driver
