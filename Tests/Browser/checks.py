"""The browser scripts' checks: each prints one line, ok or FAIL, and a failure is kept for the
exit status; and polling the page until a script of it holds."""
import time

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
