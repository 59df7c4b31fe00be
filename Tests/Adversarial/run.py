#!/usr/bin/env python3
"""An adversarial round against a release `kira serve` (docs/robustness.md, "The server under attack").

Starts its own servers (and nginx, when installed) on free ports in a scratch folder, sends about a
thousand hostile requests, card folders, connections and signals, checks each answer against what
docs/serve.md and docs/live-preview.md promise, prints one line per case that fails and a summary
per category, and exits 1 when any case failed (2 when it could not run).

    swift build -c release --product kira && swift build -c release --product kira-serve
    python3 Tests/Adversarial/run.py [--kira .build/release/kira] [--only http,queries] [--verbose]

Python 3 standard library only; curl is not needed, nginx is used when found.
"""
import argparse
import base64
import concurrent.futures
import hashlib
import hmac
import json
import os
import random
import re
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import zlib
from collections import OrderedDict

RENDER = "/v1/cards/sample/render.png"
SMALL = "size=48x60"


class Round:
    """The cases' outcomes, by category."""

    def __init__(self, verbose):
        self.verbose = verbose
        self.counts = OrderedDict()
        self.lock = threading.Lock()

    def check(self, category, name, ok, detail=""):
        with self.lock:
            passed, failed = self.counts.get(category, (0, 0))
            self.counts[category] = (passed + (1 if ok else 0), failed + (0 if ok else 1))
            if not ok:
                print(f"FAIL [{category}] {name}: {detail}"[:600], flush=True)
            elif self.verbose:
                print(f"ok   [{category}] {name}", flush=True)
        return ok

    def summary(self):
        total_failed = 0
        print("\ncategory      cases  failed")
        for category, (passed, failed) in self.counts.items():
            print(f"{category:<12} {passed + failed:>6} {failed:>7}")
            total_failed += failed
        total = sum(p + f for p, f in self.counts.values())
        print(f"{'total':<12} {total:>6} {total_failed:>7}")
        return total_failed


# --- HTTP on raw sockets -----------------------------------------------------------------------

def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def connect(port, timeout=10, receive_buffer=None):
    s = socket.socket()
    if receive_buffer:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    s.settimeout(timeout)
    s.connect(("127.0.0.1", port))
    return s


def exchange(port, data, timeout=15):
    """Sends `data`, reads until the server closes: (bytes, closed, seconds)."""
    start = time.monotonic()
    s = connect(port, timeout)
    received = bytearray()
    closed = False

    def send():
        try:
            s.sendall(data)
        except OSError:
            pass  # the server answered and closed before it read everything: fine

    sender = threading.Thread(target=send, daemon=True)
    sender.start()
    try:
        while time.monotonic() - start < timeout:
            s.settimeout(max(0.05, timeout - (time.monotonic() - start)))
            chunk = s.recv(65536)
            if not chunk:
                closed = True
                break
            received += chunk
    except socket.timeout:
        pass
    except OSError:
        closed = True  # reset after the answer: closed
    finally:
        s.close()
    return bytes(received), closed, time.monotonic() - start


def parse_response(raw):
    """(status, headers with lower-case names, body) of the first response in `raw`."""
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    match = re.match(rb"HTTP/1\.[01] (\d{3})", lines[0] if lines else b"")
    if not match:
        return None, {}, b""
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(b":")
        headers.setdefault(name.strip().lower().decode("latin-1"), value.strip().decode("latin-1"))
    if "content-length" in headers:
        body = body[: int(headers["content-length"])]
    return int(match.group(1)), headers, body


def request(port, target, method="GET", headers=None, timeout=30):
    lines = [f"{method} {target} HTTP/1.1", "Host: 127.0.0.1", "Connection: close"]
    lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
    raw, _, seconds = exchange(port, ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"), timeout)
    status, response_headers, body = parse_response(raw)
    return status, response_headers, body, seconds


def is_problem(headers, body, status):
    if headers.get("content-type") != "application/problem+json" or headers.get("cache-control") != "no-store":
        return False
    try:
        problem = json.loads(body)
    except ValueError:
        return False
    return problem.get("status") == status and problem.get("type", "").startswith("/problems/")


def problem_type(body):
    try:
        return json.loads(body).get("type")
    except ValueError:
        return None


# --- servers -------------------------------------------------------------------------------------

class Server:
    """`kira serve ARGS` on a free port, its standard error in a file."""

    def __init__(self, kira, work, name, args, wait=True):
        self.log_path = os.path.join(work, f"{name}.log")
        self.log = open(self.log_path, "wb")
        self.proc = subprocess.Popen([kira, "serve", "--port", "0", *args], stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=self.log)
        self.port = None
        if wait:
            self.wait_listening()

    def wait_listening(self, seconds=120):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            match = re.search(r"listening on http://127\.0\.0\.1:(\d+)", self.text())
            if match:
                self.port = int(match.group(1))
                return
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited {self.proc.returncode}: {self.text()[-500:]}")
            time.sleep(0.05)
        raise RuntimeError(f"server did not start: {self.text()[-500:]}")

    def text(self):
        with open(self.log_path, "rb") as f:
            return f.read().decode("utf-8", "replace")

    def alive(self):
        if self.proc.poll() is not None:
            return False
        status, _, body, _ = request(self.port, "/healthz", timeout=10)
        return status == 200

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()


def rss_kib(pid):
    """(VmRSS, VmHWM) in KiB."""
    values = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(("VmRSS:", "VmHWM:")):
                values[line.split(":")[0]] = int(line.split()[1])
    return values.get("VmRSS", 0), values.get("VmHWM", 0)


def run_measured(arguments, cwd, stdin_data=None, stdin_path=None, timeout=60, shell=False):
    """Runs a command to its end: (exit status or None on timeout, stdout, stderr, seconds, peak RSS in KiB of
    that process alone, from wait4)."""
    start = time.monotonic()
    stdin = open(stdin_path, "rb") if stdin_path else (subprocess.PIPE if stdin_data is not None else subprocess.DEVNULL)
    proc = subprocess.Popen(arguments, cwd=cwd, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE, shell=shell,
                            executable="/bin/bash" if shell else None)
    out, err = [], []
    readers = [threading.Thread(target=lambda: out.append(proc.stdout.read()), daemon=True),
               threading.Thread(target=lambda: err.append(proc.stderr.read()), daemon=True)]
    for reader in readers:
        reader.start()
    if stdin_data is not None:
        def feed():
            try:
                proc.stdin.write(stdin_data)
                proc.stdin.close()
            except OSError:
                pass
        threading.Thread(target=feed, daemon=True).start()
    status, peak = None, 0
    while True:
        pid, code, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            status, peak = os.waitstatus_to_exitcode(code), usage.ru_maxrss
            proc.returncode = status
            break
        if time.monotonic() - start > timeout:
            proc.kill()
            _, code, usage = os.wait4(proc.pid, 0)
            proc.returncode, peak = -9, usage.ru_maxrss
            break
        time.sleep(0.01)
    seconds = time.monotonic() - start
    for reader in readers:
        reader.join(5)
    if stdin_path:
        stdin.close()
    return status, b"".join(out), b"".join(err), seconds, peak


# --- PNGs ----------------------------------------------------------------------------------------

def write_png(path, width, height, colour=6, seed=0, noise=False):
    """A PNG of zeros (8-bit, `colour` type), written row by row; `seed` makes its bytes unique,
    `noise` fills it with random bytes (opaque), which no encoder compresses."""
    channels = {0: 1, 2: 3, 6: 4}[colour]
    compressor = zlib.compressobj(1)
    row = bytes(1 + width * channels)
    chunks = []
    rows = random.Random(seed)
    for y in range(height):
        if noise:
            data = bytearray(rows.randbytes(len(row)))
            data[0] = 0
            if channels == 4:
                data[4::4] = b"\xff" * width
            chunks.append(compressor.compress(bytes(data)))
        elif y == 0 and seed:
            data = bytearray(row)
            data[1:5] = struct.pack(">I", seed)[: min(4, width * channels)]
            chunks.append(compressor.compress(bytes(data)))
        else:
            chunks.append(compressor.compress(row))
    chunks.append(compressor.flush())
    idat = b"".join(chunks)

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.write(chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, colour, 0, 0, 0)))
        f.write(chunk(b"IDAT", idat))
        f.write(chunk(b"IEND", b""))


# --- categories ----------------------------------------------------------------------------------

NUMBER_PARAMETERS = ["tilt_x", "tilt_y", "flip", "perspective", "tilt_perspective", "scale", "angle_strength",
                     "intensity", "glare", "width", "height"]
# Values no number parameter takes.
HOSTILE_NUMBERS = ["nan", "NaN", "-nan", "inf", "-inf", "Infinity", "1e308", "-1e308", "1e999", "%00", "1%00", "%001",
                   "", "-", "--1", "1e", "1_0", "1,5", "1..5", ".", "e5", "%zz", "%", "%2", "%C0%80",
                   "%EF%BC%91", "%D9%A3", "9" * 400, "-" + "9" * 400, "true", "1/2", "1e400", "%2B%2B1", "1%2F2",
                   "%E2%88%921", "1%001", "%FF", "1;2", "1%2C5", "(1)", "1e1e1", "0b1", "1f", "1d", "one"]
# Values some parameters take and others refuse: never a 500, and a refusal names the parameter.
EITHER_NUMBERS = ["1e1", "1E1", "-0", "+1", "%2B1", "0.5", "-0.5", "1e-400", "00001", "1.", ".5", "-90", "90", "720",
                  "-720", "10", "0", "4096", "-1", "1e-5", "3.4028235e38",
                  # Spaces around a number are trimmed, as on the command line; Swift reads hexadecimal floats.
                  "1%20", "%201", "%091", "%0A1", "1%0D%0A", "0x1A", "0x1p3", "0e99999999999999999999"]


def route_for(parameter):
    return RENDER


def queries(rnd, servers, pool):
    port = servers["main"].port
    cases = []
    for parameter in NUMBER_PARAMETERS:
        for value in HOSTILE_NUMBERS:
            cases.append((f"{parameter}={value[:20]}", f"{RENDER}?{SMALL}&{parameter}={value}", {400}, parameter))
        for value in EITHER_NUMBERS:
            cases.append((f"{parameter}={value[:20]} (maybe)", f"{RENDER}?{SMALL}&{parameter}={value}", {200, 400}, parameter))
        cases.append((f"{parameter} twice", f"{RENDER}?{SMALL}&{parameter}=1&{parameter}=1", {400}, parameter))
        cases.append((f"{parameter} twice, unlike", f"{RENDER}?{SMALL}&{parameter}=1&{parameter}=0.5", {400}, parameter))
    for quality in ["50", "nan", "-1", "101", "0", "100"]:
        cases.append((f"quality={quality} on png", f"{RENDER}?{SMALL}&quality={quality}", {400}, "quality"))
        cases.append((f"quality={quality} on jpg", f"/v1/cards/sample/render.jpg?{SMALL}&quality={quality}",
                      {400} if quality in ("nan", "-1", "101", "0") else {200}, "quality"))
    for lossless in ["true", "1", "yes", "maybe", ""]:
        cases.append((f"lossless={lossless} on png", f"{RENDER}?{SMALL}&lossless={lossless}", {400}, "lossless"))
    cases.append(("depth=16 on webp", f"/v1/cards/sample/render.webp?{SMALL}&depth=16", {400}, "depth"))
    for side, value in [("width", 49), ("height", 61), ("width", 100000), ("height", 16385)]:
        cases.append((f"{side}={value} beyond a 48x60 canvas", f"{RENDER}?{SMALL}&{side}={value}", {400}, side))
    cases.append(("width within the canvas", f"{RENDER}?{SMALL}&width=24", {200}, None))
    for name in ["tiltx", "TILT_X", "tilt-x", "art", "mask", "back", "back_mask", "foil_map", "output", "threads",
                 "max_memory", "sig2", "tilt_x%00", "x" * 300, "callback", "utm_source", "tilt_x%20", "%20tilt_x"]:
        cases.append((f"unknown or file parameter {name[:20]}", f"{RENDER}?{SMALL}&{name}=1", {400}, None))
    for size in ["4097x10", "10x4097", "16384x16384", "0x0", "-1x5", "5x-1", "99999999999999999999x1", "1x", "x1", "axb",
                 "10x10x10", "%00x1", "1e3x1e3", "4096x4097", "nanxnan"]:
        cases.append((f"size={size[:20]}", f"{RENDER}?size={size}", {400}, None))
    for length in [4097, 5000, 8000, 16384, 65536]:
        filler = "tilt_x=1&" + "a" * (length - 9)
        cases.append((f"a {length}-byte query", f"{RENDER}?{filler}", {414}, None))
    for value in ["%38", "-%38", "8%2E5", "%2D8"]:
        cases.append((f"percent-encoded name and tilt_x={value}", f"{RENDER}?{SMALL}&%74ilt_x={value}", {200}, None))
        cases.append((f"percent-encoded tilt_x={value}", f"{RENDER}?{SMALL}&tilt_x={value}", {200}, None))
    for raw in ["%", "%g0", "%0", "a%zzb=1", "=1", "&&&", "tilt_x", "tilt_x==1", "tilt_x=1=2", ";", "%FF%FE", "%ED%A0%80"]:
        cases.append((f"raw query {raw}", f"{RENDER}?{SMALL}&{raw}", {200, 400}, None))
    for path in ["/v1/cards/../render.png", "/v1/cards/%2e%2e/render.png", "/v1/cards/nope/render.png",
                 "/v1/cards/sample/render.gif", "/v1/cards//render.png", "/v1/cards/sample%00/render.png",
                 "/v1/cards/SAMPLE/render.png", "/v1/cards/sample/render.png/x", "/v2/cards/sample/render.png",
                 "/v1/cards/" + "a" * 2000 + "/render.png", "/%2F%2F", "/v1/cards/%ZZ/render.png"]:
        cases.append((f"path {path[:40]}", path, {404}, None))
    for scale in ["4", "0.01", "0.001", "5"]:
        cases.append((f"scale={scale} on the default canvas", f"{RENDER}?scale={scale}&width=16",
                      {200, 400}, None))

    def run(case):
        name, target, statuses, parameter = case
        method = "GET"
        status, headers, body, _ = request(port, target, method, timeout=60)
        if status not in statuses:
            return rnd.check("queries", name, False, f"{status}, expected {sorted(statuses)}: {body[:200]!r}")
        if status >= 400:
            if not is_problem(headers, body, status):
                return rnd.check("queries", name, False, f"{status} without a problem: {headers} {body[:200]!r}")
            named = json.loads(body).get("parameter")
            # A value that is not percent-encoded correctly fails before it is a parameter's.
            if status == 400 and parameter and named not in (parameter, "size", "scale") and not (named is None and "%" in target):
                return rnd.check("queries", name, False, f"names {named}, not {parameter}")
        elif headers.get("content-type", "").split(";")[0] not in ("image/png", "image/jpeg", "image/webp"):
            return rnd.check("queries", name, False, f"200 with {headers.get('content-type')}")
        # HEAD answers as GET does, without a body.
        if random.Random(name).random() < 0.25:
            head_status, head_headers, head_body, _ = request(port, target, "HEAD", timeout=60)
            if head_status != status or head_body:
                return rnd.check("queries", name + " (HEAD)", False, f"HEAD {head_status} with {len(head_body)} bytes, GET {status}")
        return rnd.check("queries", name, True)

    list(pool.map(run, cases))
    rnd.check("queries", "the server answers after every query", servers["main"].alive())


def card_folders(rnd, kira, work):
    base = os.path.join(work, "folders")
    os.makedirs(base)
    good = os.path.join(work, "good-art.png")
    write_png(good, 63, 88)

    def folder(name, make):
        root = os.path.join(base, name)
        card = os.path.join(root, "card")
        os.makedirs(card)
        make(card)
        return root

    def link(target, file="art.png"):
        return lambda card: (shutil.copy(good, os.path.join(card, "art.png")) if file != "art.png" else None,
                             os.symlink(target, os.path.join(card, file)))

    def write(file, data):
        def make(card):
            if file != "art.png":
                shutil.copy(good, os.path.join(card, "art.png"))
            with open(os.path.join(card, file), "wb") as f:
                f.write(data)
        return make

    def big(card):
        write_png(os.path.join(card, "art.png"), 16384, 16384, colour=0)

    def wide(card):
        write_png(os.path.join(card, "art.png"), 16385, 1, colour=0)

    def fifo(card):
        os.mkfifo(os.path.join(card, "art.png"))

    def many(card):
        root = os.path.dirname(card)
        shutil.rmtree(card)
        for index in range(8):
            os.makedirs(os.path.join(root, f"card{index}"))
            write_png(os.path.join(root, f"card{index}", "art.png"), 4096, 4096, seed=index + 1)

    png = open(good, "rb").read()
    refused = [
        ("art linked to /dev/zero", link("/dev/zero"), []),
        ("art linked to /dev/urandom", link("/dev/urandom"), []),
        ("mask linked to /dev/zero", link("/dev/zero", "mask.png"), []),
        ("back linked to /dev/urandom", link("/dev/urandom", "back.png"), []),
        ("art is a FIFO", fifo, []),
        ("art is a directory", lambda card: os.makedirs(os.path.join(card, "art.png")), []),
        ("art is empty", write("art.png", b""), []),
        ("art is random bytes", write("art.png", random.Random(1).randbytes(5000)), []),
        ("art is a truncated PNG", write("art.png", png[: len(png) // 2]), []),
        ("art is a JPEG", write("art.png", b"\xff\xd8\xff\xe0" + bytes(100)), []),
        ("mask has a bad CRC", write("mask.png", png[:29] + bytes([png[29] ^ 0xFF]) + png[30:]), []),
        ("a typo: front.png", write("front.png", png), []),
        ("art is 16385 wide", wide, []),
        ("16384x16384 art over 512M", big, ["--max-memory", "512M"]),
        ("eight 4096x4096 cards over 256M", many, ["--max-memory", "256M", "--cache", "16M"]),
    ]
    for name, make, args in refused:
        root = folder(name.replace(" ", "-").replace("/", "-"), make)
        start = time.monotonic()
        try:
            proc = subprocess.run([kira, "serve", "--port", "0", "--cards", root, *args], stdin=subprocess.DEVNULL,
                                  capture_output=True, timeout=60)
        except subprocess.TimeoutExpired:
            rnd.check("cards", name, False, "still running after 60 s")
            continue
        lines = proc.stderr.decode("utf-8", "replace").strip().split("\n")
        ok = proc.returncode == 2 and len(lines) == 1 and lines[0].startswith("kira serve: ")
        rnd.check("cards", name, ok, f"exit {proc.returncode} after {time.monotonic() - start:.1f} s: {proc.stderr[:300]!r}")
    # What is served: hidden folders and files that are not PNGs are ignored.
    root = folder("served", lambda card: shutil.copy(good, os.path.join(card, "art.png")))
    os.makedirs(os.path.join(root, ".hidden"))
    os.symlink("/dev/zero", os.path.join(root, ".hidden", "art.png"))
    with open(os.path.join(root, "card", "notes.txt"), "w") as f:
        f.write("ignored")
    server = Server(kira, work, "cards-served", ["--cards", root], wait=False)
    try:
        server.wait_listening(60)
        status, _, _, _ = request(server.port, f"/v1/cards/card/render.png?{SMALL}")
        rnd.check("cards", "a folder with hidden and non-PNG files serves its card", status == 200, f"{status}")
    except RuntimeError as error:
        rnd.check("cards", "a folder with hidden and non-PNG files serves its card", False, str(error))
    finally:
        server.stop()


def startup_memory(rnd, kira, work, results):
    """`kira serve --cards` with textures over the budget is refused from the PNG headers, card by card, before
    anything is decoded: its peak stays near the program's own (docs/serve.md)."""
    base = os.path.join(work, "startup")
    idle = Server(kira, work, "startup-idle", [])
    try:
        _, baseline = rss_kib(idle.proc.pid)
    finally:
        idle.stop()
    results["baseline"] = baseline
    cases = [("one 8192x8192 art", [("big", 8192, 6)], "512M"),
             ("one 8192x8192 art (fits by its own size)", [("big", 8192, 6)], "600M"),
             ("one 16384x16384 grey art", [("big", 16384, 0)], "1500M"),
             ("six 4096x4096 cards", [(f"c{i}", 4096, 6) for i in range(6)], "512M"),
             ("six 4096x4096 cards (three fit)", [(f"c{i}", 4096, 6) for i in range(6)], "1G")]
    for name, cards, memory in cases:
        root = os.path.join(base, name.replace(" ", "-").replace("(", "").replace(")", ""))
        for index, (card, side, colour) in enumerate(cards):
            os.makedirs(os.path.join(root, card))
            write_png(os.path.join(root, card, "art.png"), side, side, colour=colour, seed=index + 1)
        status, _, err, seconds, peak = run_measured([kira, "serve", "--port", "0", "--cards", root, "--max-memory", memory], work,
                                                     timeout=120)
        lines = err.decode("utf-8", "replace").strip().split("\n")
        ok = status == 2 and len(lines) == 1 and "--max-memory" in lines[0] and peak <= baseline + 16 * 1024
        results.setdefault("startup", []).append((name, memory, peak, seconds))
        rnd.check("startup", f"{name} against --max-memory {memory}", ok,
                  f"exit {status} after {seconds:.1f} s, peak {peak / 1024:.0f} MiB (idle server {baseline / 1024:.0f} MiB): {err[:300]!r}")


def batch_cases(rnd, kira, work, results):
    """`kira batch` on hostile manifests and textures: every input bounded before it is read, a bad row failing alone
    and at once, lines that quote a value kept short (docs/batch.md, docs/robustness.md)."""
    base = os.path.join(work, "batch")
    os.makedirs(base)
    counter = [0]

    def folder():
        counter[0] += 1
        path = os.path.join(base, str(counter[0]))
        os.makedirs(path)
        return path

    def one_line(err, prefix="kira batch: "):
        lines = err.decode("utf-8", "replace").strip().split("\n")
        return len(lines) == 1 and lines[0].startswith(prefix)

    # Manifests that are streams: read to 64 MiB and no further.
    for name, make in [("a link to /dev/zero", lambda d: os.symlink("/dev/zero", os.path.join(d, "z.csv"))),
                       ("a link to /dev/urandom", lambda d: os.symlink("/dev/urandom", os.path.join(d, "z.csv"))),
                       ("a FIFO fed by yes", lambda d: os.mkfifo(os.path.join(d, "z.csv")))]:
        d = folder()
        make(d)
        feeder = None
        if "FIFO" in name:
            feeder = subprocess.Popen(f"yes 'out/a.png,1' > {d}/z.csv", shell=True, stderr=subprocess.DEVNULL)
        status, _, err, seconds, peak = run_measured([kira, "batch", "z.csv", "--state", "st"], d, timeout=60)
        if feeder:
            feeder.kill()
            feeder.wait()
        results.setdefault("batch", []).append((f"manifest: {name}", peak, seconds))
        rnd.check("batch", f"manifest {name}: refused at 64 MiB", status == 2 and one_line(err) and peak <= 128 * 1024 and seconds < 10,
                  f"exit {status} after {seconds:.1f} s, peak {peak / 1024:.0f} MiB: {err[:300]!r}")
    # Textures that are not regular files: the row fails alone, at once; the other rows render.
    for name, make in [("a FIFO with no writer", lambda p: os.mkfifo(p)), ("a link to /dev/zero", lambda p: os.symlink("/dev/zero", p)),
                       ("a link to /dev/urandom", lambda p: os.symlink("/dev/urandom", p)), ("a directory", lambda p: os.makedirs(p))]:
        for column in ("art", "mask", "back"):
            d = folder()
            make(os.path.join(d, "t.png"))
            with open(os.path.join(d, "m.csv"), "w") as f:
                f.write(f"output,{column},size\nout/a.png,t.png,60x80\nout/b.png,,60x80\n")
            status, _, err, seconds, peak = run_measured([kira, "batch", "m.csv"], d, timeout=30)
            results.setdefault("batch", []).append((f"{column}: {name}", peak, seconds))
            ok = status == 1 and one_line(err, "kira batch: row 1 (out/a.png): t.png: ") and os.path.exists(os.path.join(d, "out", "b.png")) \
                and not os.path.exists(os.path.join(d, "out", "a.png")) and seconds < 10 and peak <= 128 * 1024
            rnd.check("batch", f"{column} is {name}: its row fails alone, at once", ok,
                      f"exit {status} after {seconds:.1f} s, peak {peak / 1024:.0f} MiB: {err[:300]!r}")
    # Manifests from standard input and a process substitution, read by their content; records need --state.
    d = folder()
    rows = b'{"output": "out/a.png", "size": "60x80"}\n'
    status, _, err, _, _ = run_measured([kira, "batch", "-"], d, stdin_data=rows)
    rnd.check("batch", "standard input without --state: one line", status == 2 and one_line(err) and b"--state" in err, f"{status} {err[:200]!r}")
    status, _, err, _, _ = run_measured([kira, "batch", "-", "--state", "st"], d, stdin_data=rows)
    rnd.check("batch", "standard input as the manifest", status == 0 and os.path.exists(os.path.join(d, "out", "a.png")), f"{status} {err[:200]!r}")
    status, _, err, _, _ = run_measured(f"'{kira}' batch <(printf 'output,size\\nout/b.png,60x80\\n') --state st", d, shell=True)
    rnd.check("batch", "a process substitution as the manifest", status == 0 and os.path.exists(os.path.join(d, "out", "b.png")),
              f"{status} {err[:200]!r}")
    status, out, err, _, peak = run_measured(f"yes 'out/c.png,60x80' | '{kira}' batch - --state st", d, shell=True, timeout=60)
    rnd.check("batch", "an endless standard input: refused at 64 MiB", status == 2 and one_line(err) and b"64 MiB" in err and peak <= 128 * 1024,
              f"{status} peak {peak / 1024:.0f} MiB {err[:200]!r}")
    # Malformed manifests: one line, exit 2, nothing rendered.
    malformed = {"empty.csv": b"", "junk.csv": random.Random(3).randbytes(4000), "nul.csv": b"output\nout/\x00a.png\n",
                 "latin1.csv": b"output\nout/\xe9.png\n", "quote.csv": b'output,art\n"out/a.png,x\n', "width.csv": b"output,art\na.png\n",
                 "unknown.csv": b"output,tilt\na.png,1\n", "twice.csv": b"output,output\na.png,b.png\n", "dash.csv": b"output\n-\n",
                 "same.csv": b"output\na.png\n./a.png\n", "array.jsonl": b"[1]\n", "nested.jsonl": b'{"output": {"a": 1}}\n',
                 "noout.jsonl": b'{"art": "a.png"}\n', "bom.csv": b"\xef\xbb\xbfoutput,tilt\n", "name.txt": b"output\na.png\n",
                 "huge-header.csv": b"output," + b"x" * (1 << 20) + b"\n"}
    d = folder()
    for name, data in malformed.items():
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)
        status, _, err, seconds, _ = run_measured([kira, "batch", name, "--state", "st"], d, timeout=30)
        rnd.check("batch", f"malformed manifest {name}", status == 2 and one_line(err) and len(err) < 1000 and seconds < 10,
                  f"exit {status}: {err[:300]!r}")
    rnd.check("batch", "nothing rendered from malformed manifests", not os.path.exists(os.path.join(d, "out")) and not os.path.exists(os.path.join(d, "a.png")))
    # A 1 MiB value, output name or column: the line quotes a few hundred bytes and says the length.
    d = folder()
    huge = "a" * (1 << 20)
    with open(os.path.join(d, "m.csv"), "w") as f:
        f.write(f"output,background,size,art\nout/a.png,{huge},60x80,\n{huge}.png,,60x80,\nout/{huge}.png,,60x80,\nout/d.png,,60x80,{huge}.png\n")
    status, _, err, _, _ = run_measured([kira, "batch", "m.csv"], d, timeout=60)
    lines = err.decode("utf-8", "replace").strip().split("\n")
    rnd.check("batch", "1 MiB values and names: short lines", status == 1 and len(lines) == 4 and all(len(l) < 1000 and "(10485" in l for l in lines),
              f"exit {status}, lines of {[len(l) for l in lines]} bytes: {err[:300]!r}")
    long = "b" * 100_000
    for name, arguments in [("render --background", ["render", "--background", long]), ("render --threads", ["render", "--threads", long]),
                            ("an unknown option", ["render", "--frob" + long]), ("an unknown command", [long]),
                            ("render -o", ["render", "--size", "8x8", "-o", long + ".png"]), ("batch --shard", ["batch", "--shard", long, "m.csv"])]:
        status, _, err, _, _ = run_measured([kira, *arguments], d, timeout=60)
        rnd.check("batch", f"a 100 kB value for {name}: a short line", status == 2 and len(err) < 1000 and b"(100" in err, f"{status}: {err[:300]!r}")


def sign(key, path, query_pairs):
    text = path + ("?" + "&".join(f"{k}={urllib.parse.quote(v, safe='-._~')}" for k, v in query_pairs) if query_pairs else "")
    return base64.urlsafe_b64encode(hmac.new(key, text.encode(), hashlib.sha256).digest()).rstrip(b"=").decode()


def signatures(rnd, servers, kira, work, pool):
    port = servers["signed"].port
    key_file = servers["signed_key"]
    cases = []
    poses = [f"tilt_x={x}&size=48x60" for x in range(-30, 31, 6)]
    signed = []
    for pose in poses:
        url = subprocess.run([kira, "sign", "--key-file", key_file, f"http://127.0.0.1:{port}{RENDER}?{pose}"],
                             capture_output=True, text=True, check=True).stdout.strip()
        signed.append(url[len(f"http://127.0.0.1:{port}"):])
    for target in signed:
        cases.append((f"signed {target[-60:]}", target, {200}))
        path, _, query = target.partition("?")
        pairs = query.split("&")
        cases.append((f"reordered {target[-40:]}", path + "?" + "&".join(reversed(pairs)), {200}))
    path, _, query = signed[0].partition("?")
    pairs = query.split("&")
    sig = [p for p in pairs if p.startswith("sig=")][0][4:]
    rest = [p for p in pairs if not p.startswith("sig=")]
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    for index in range(len(sig)):
        # The last character's two low bits pad 32 bytes to 43 characters: changing them alone
        # names the same bytes (a decoder may take them), so the last character changes by 4.
        step = 4 if index == len(sig) - 1 else 1
        other = alphabet[(alphabet.index(sig[index]) + step) % 64]
        tampered = sig[:index] + other + sig[index + 1:]
        cases.append((f"sig changed at {index}", path + "?" + "&".join(rest + ["sig=" + tampered]), {403}))
    for name, value in [("truncated", sig[:-1]), ("padded", sig + "="), ("standard base64", sig.replace("-", "+").replace("_", "/")),
                        ("empty", ""), ("bad percent-encoding", "%zz"), ("doubled", sig + sig), ("NUL", sig + "%00"),
                        ("spaces", "%20" + sig), ("long", "A" * 5000)]:
        # Standard base64 spells a signature without - and _ the same: then it is the signature.
        statuses = {403, 414} if name == "long" else {200} if value == sig else {403}
        cases.append((f"sig {name}", path + "?" + "&".join(rest + ["sig=" + value]), statuses))
    cases.append(("no sig", path + "?" + "&".join(rest), {403}))
    cases.append(("no sig, bad percent-encoding", path + "?" + "&".join(rest + ["tilt_y=%zz"]), {403}))
    cases.append(("no sig, unknown parameter", path + "?" + "&".join(rest + ["frob=1"]), {403}))
    cases.append(("no sig, NaN", path + "?tilt_x=nan", {403}))
    cases.append(("no query", path, {403}))
    cases.append(("two sigs", path + "?" + "&".join(rest + ["sig=" + sig, "sig=" + sig]), {400, 403}))
    cases.append(("a value changed", path + "?" + "&".join(["tilt_x=-29"] + rest[1:] + ["sig=" + sig]), {403}))
    cases.append(("another route's signature", path.replace(".png", ".webp") + "?" + query, {403}))
    cases.append(("another card's signature", path.replace("sample", "card") + "?" + query, {403}))
    wrong = sign(b"another key, 32 bytes long......", path, [p.split("=", 1) for p in rest])
    cases.append(("signed with another key", path + "?" + "&".join(rest + ["sig=" + wrong]), {403}))
    right = sign(open(key_file, "rb").read().rstrip(), path, [p.split("=", 1) for p in rest])
    cases.append(("signed by the documented scheme", path + "?" + "&".join(rest + ["sig=" + right]), {200}))

    def run(case):
        name, target, statuses = case
        status, headers, body, _ = request(port, target, timeout=60)
        ok = status in statuses and (status == 200 or is_problem(headers, body, status))
        if ok and status == 403:
            ok = problem_type(body) == "/problems/bad-signature"
        return rnd.check("signatures", name, ok, f"{status}, expected {sorted(statuses)}: {body[:200]!r}")

    list(pool.map(run, cases))
    rnd.check("signatures", "the signed server answers after every case", servers["signed"].alive())


MALFORMED = [
    ("lower-case method", b"get /healthz HTTP/1.1\r\nHost: a\r\n\r\n", 501),
    ("lower-case head", b"head /healthz HTTP/1.1\r\nHost: a\r\n\r\n", 501),
    ("mixed-case method", b"Get /healthz HTTP/1.1\r\nHost: a\r\n\r\n", 501),
    ("unknown method FROB", b"FROB /healthz HTTP/1.1\r\nHost: a\r\n\r\n", 501),
    ("unknown method BREW", b"BREW / HTTP/1.1\r\nHost: a\r\n\r\n", 501),
    ("HTTP/2 preface", b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", 505),
    ("HTTP/2.0 GET", b"GET /healthz HTTP/2.0\r\nHost: a\r\n\r\n", 505),
    ("HTTP/3.0 GET", b"GET /healthz HTTP/3.0\r\nHost: a\r\n\r\n", 505),
    ("TLS ClientHello", bytes([0x16, 0x03, 0x01, 0x00, 0xA5, 0x01, 0x00, 0x00, 0xA1, 0x03, 0x03]) + b"\x2a" * 160, 400),
    ("header without a colon", b"GET /healthz HTTP/1.1\r\nHost: a\r\nNoColonHere\r\n\r\n", 400),
    ("two Content-Lengths", b"GET /healthz HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab", 400),
    ("Content-Length and chunked", b"GET /healthz HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400),
    ("negative Content-Length", b"GET /healthz HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n", 400),
    ("NUL in the request line", b"GET /health\0z HTTP/1.1\r\nHost: a\r\n\r\n", 400),
    ("NUL in a header", b"GET /healthz HTTP/1.1\r\nHost: a\0b\r\n\r\n", 400),
    ("space before a colon", b"GET /healthz HTTP/1.1\r\nHost : a\r\n\r\n", 400),
    ("1 MiB header", b"GET /healthz HTTP/1.1\r\nHost: a\r\nX-Big: " + b"a" * (1 << 20) + b"\r\n\r\n", 431),
    ("1 MiB request line", b"GET /" + b"a" * (1 << 20) + b" HTTP/1.1\r\nHost: a\r\n\r\n", 414),
    ("100 KiB request line", b"GET /" + b"a" * 100_000 + b" HTTP/1.1\r\nHost: a\r\n\r\n", 414),
    ("10,000 headers", b"GET /healthz HTTP/1.1\r\nHost: a\r\n" + b"".join(b"X-%d: v\r\n" % i for i in range(10_000)) + b"\r\n", 431),
    ("a second request with a lower-case method", b"GET /healthz HTTP/1.1\r\nHost: a\r\n\r\nget /healthz HTTP/1.1\r\n\r\n", 501),
    ("a second request over 1 MiB", b"GET /healthz HTTP/1.1\r\nHost: a\r\n\r\nGET /" + b"b" * (1 << 20) + b" HTTP/1.1\r\n\r\n", 414),
]


def http(rnd, servers, pool):
    port = servers["main"].port
    cases = list(MALFORMED)
    for seed in range(30):
        junk = bytes([0x80 + random.Random(seed).randrange(128)]) + random.Random(seed).randbytes(300 + seed * 37)
        cases.append((f"binary junk {seed}", junk, 400))

    def run_malformed(case):
        name, data, status = case
        raw, closed, seconds = exchange(port, data, timeout=10)
        # A second request's answer follows the first one's.
        got, headers, body = parse_response(raw)
        rest = raw
        while got == 200 and "content-length" in headers:
            rest = rest[rest.index(b"\r\n\r\n") + 4 + int(headers["content-length"]):]
            got, headers, body = parse_response(rest)
        ok = got == status and closed and is_problem(headers, body, status) \
            and problem_type(body) == "/problems/malformed-request" and seconds < 5
        return rnd.check("http", name, ok, f"{got} (expected {status}), closed={closed} in {seconds:.1f} s: {raw[:200]!r}")

    list(pool.map(run_malformed, cases))

    paths = ["/healthz", "/readyz", "/metrics", "/", f"{RENDER}?{SMALL}", "/v1/cards/sample/render.webp?size=48x60"]
    method_cases = []
    for path in paths:
        for method in ["PUT", "POST", "DELETE", "PATCH", "OPTIONS", "TRACE", "PROPFIND", "MKCOL", "PURGE", "LINK"]:
            method_cases.append((method, path))

    def run_method(case):
        method, path = case
        status, headers, body, _ = request(port, path, method)
        if method in ("PURGE", "LINK", "MKCOL", "PROPFIND") and status == 501:
            ok = is_problem(headers, body, 501)  # methods the decoder does not know
        else:
            ok = status == 405 and headers.get("allow") == "GET, HEAD" and is_problem(headers, body, 405)
        return rnd.check("http", f"{method} {path[:40]}", ok, f"{status} allow={headers.get('allow')} {body[:150]!r}")

    list(pool.map(run_method, method_cases))
    for method in ["PUT", "DELETE"]:
        status, headers, body, _ = request(port, "/nope", method)
        rnd.check("http", f"{method} at an unknown path", status == 404 and is_problem(headers, body, 404), f"{status}")

    def run_head(path):
        get_status, get_headers, get_body, _ = request(port, path)
        head_status, head_headers, head_body, _ = request(port, path, "HEAD")
        ok = get_status == head_status and not head_body and get_headers.get("content-type") == head_headers.get("content-type")
        return rnd.check("http", f"HEAD {path[:40]}", ok, f"GET {get_status} HEAD {head_status} {len(head_body)} bytes")

    list(pool.map(run_head, paths + ["/nope", f"{RENDER}?tilt_x=nan"]))

    # The first-head deadline (--idle-timeout 2): whatever a connection sends short of a head.
    def run_silent(case):
        name, data = case
        start = time.monotonic()
        s = connect(port, timeout=10)
        closed = False
        try:
            if data:
                s.sendall(data)
            while not closed:
                closed = s.recv(4096) == b""
        except socket.timeout:
            pass
        except OSError:
            closed = True
        finally:
            s.close()
        seconds = time.monotonic() - start
        return rnd.check("http", f"first-head deadline: {name}", closed and seconds < 4.5, f"closed={closed} after {seconds:.1f} s")

    list(pool.map(run_silent, [("nothing", b""), ("half a request line", b"GET /heal"), ("a request line", b"GET / HTTP/1.1\r\n"),
                               ("half a header", b"GET / HTTP/1.1\r\nHost: a\r\nX-"), ("one CR LF", b"\r\n"),
                               ("a lone byte", b"G")]))
    rnd.check("http", "the server answers after every request", servers["main"].alive())


ROUTES = ["/healthz", "/readyz", "/metrics", "/", "/live", RENDER, "/v1/cards/sample/render.webp", "/v1/cards/sample/render.jpg"]


def respellings(path):
    """The other spellings of `path` Hummingbird's router, which skips empty segments, once took for it."""
    if path == "/":
        return ["//", "///"]
    inner = path.replace("/", "//")
    return [path + "/", "/" + path, inner, inner + "/", path + "//", "/" + path + "/"]


def paths(rnd, servers, pool):
    """Every path has one spelling: an empty segment or a trailing slash is a 404 problem at every route (docs/serve.md),
    and a signed URL is valid under its one spelling only; CONNECT is a whole problem."""
    port, signed_port = servers["main"].port, servers["signed"].port
    cases = []
    for route in ROUTES:
        query = "?" + SMALL if "render" in route else ""
        cases.append((f"{route} as spelled", port, route + query, "GET", None))
        for spelling in respellings(route):
            for method in ("GET", "HEAD", "DELETE"):
                cases.append((f"{method} {spelling}", port, spelling + query, method, 404))
    key = servers["signed_key"]
    url = subprocess.run([servers["kira"], "sign", "--key-file", key, f"http://127.0.0.1:{signed_port}{RENDER}?tilt_x=3&{SMALL}"],
                         capture_output=True, text=True, check=True).stdout.strip()
    target = url[len(f"http://127.0.0.1:{signed_port}"):]
    path, _, query = target.partition("?")
    cases.append(("a signed URL as signed", signed_port, target, "GET", 200))
    for spelling in respellings(path):
        cases.append((f"the signed URL as {spelling}", signed_port, spelling + "?" + query, "GET", 404))
    for spelling in ["/v1/cards/%73ample/render.png", "/v1/cards/sample/render%2Epng", "/v1/./cards/sample/render.png",
                     "/v1/cards/sample/./render.png", "/v1/cards/x/../sample/render.png", "/V1/cards/sample/render.png"]:
        cases.append((f"the signed URL as {spelling}", signed_port, spelling + "?" + query, "GET", {403, 404}))

    def run(case):
        name, at, target, method, expected = case
        status, headers, body, _ = request(at, target, method, timeout=60)
        if expected is None:
            return rnd.check("paths", name, status not in (404, None) and status < 500, f"{status}")
        statuses = expected if isinstance(expected, set) else {expected}
        ok = status in statuses
        if ok and status == 404:
            ok = headers.get("content-type") == "application/problem+json" and (method == "HEAD" or problem_type(body) == "/problems/not-found")
        return rnd.check("paths", name, ok, f"{status}, expected {sorted(statuses)}: {body[:150]!r}")

    list(pool.map(run, cases))
    # CONNECT: SwiftNIO frames any answer to it as a tunnel's; the server writes a whole problem and closes.
    for name, data in [("CONNECT authority", b"CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n"),
                       ("CONNECT path", b"CONNECT /healthz HTTP/1.1\r\nHost: a\r\n\r\ntunnel bytes"),
                       ("CONNECT after a GET", b"GET /healthz HTTP/1.1\r\nHost: a\r\n\r\nCONNECT / HTTP/1.1\r\nHost: a\r\n\r\n")]:
        raw, closed, seconds = exchange(port, data, timeout=10)
        last = raw[raw.rfind(b"HTTP/1.1 "):] if b"HTTP/1.1 " in raw else raw
        status, headers, body = parse_response(last)
        length = headers.get("content-length")
        ok = status == 405 and closed and seconds < 5 and is_problem(headers, body, 405) and headers.get("allow") == "GET, HEAD" \
            and length is not None and int(length) == len(last.partition(b"\r\n\r\n")[2])
        rnd.check("paths", name, ok, f"{status} closed={closed} in {seconds:.1f} s: {last[:300]!r}")
    rnd.check("paths", "the server answers after every case", servers["main"].alive())


def ws_frame(opcode, payload, fin=True, mask=True, rsv=0):
    first = (0x80 if fin else 0) | rsv | opcode
    key = os.urandom(4) if mask else b""
    length = len(payload)
    if length < 126:
        header = bytes([first, (0x80 if mask else 0) | length])
    elif length < 65536:
        header = bytes([first, (0x80 if mask else 0) | 126]) + struct.pack(">H", length)
    else:
        header = bytes([first, (0x80 if mask else 0) | 127]) + struct.pack(">Q", length)
    if mask:
        payload = bytes(b ^ key[i % 4] for i, b in enumerate(payload))
    return header + key + payload


def ws_open(port, path="/live", extra=b""):
    """Opens a WebSocket at `path`, sending `extra` in the same packet as the upgrade request."""
    s = connect(port, timeout=10)
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode() + extra)
    response = b""
    while b"\r\n\r\n" not in response:
        chunk = s.recv(4096)
        if not chunk:
            break
        response += chunk
    head, _, rest = response.partition(b"\r\n\r\n")
    return s, head, rest


def ws_close_code(s, buffered, seconds):
    """The close code the server sends (0 for a close without code), or None if it stays open."""
    data = bytearray(buffered)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        while len(data) >= 2:
            length = data[1] & 0x7F
            offset = 2
            if length == 126:
                if len(data) < 4:
                    break
                length, offset = struct.unpack(">H", data[2:4])[0], 4
            elif length == 127:
                if len(data) < 10:
                    break
                length, offset = struct.unpack(">Q", data[2:10])[0], 10
            if len(data) < offset + length:
                break
            opcode, payload = data[0] & 0x0F, bytes(data[offset:offset + length])
            del data[:offset + length]
            if opcode == 0x8:
                return struct.unpack(">H", payload[:2])[0] if len(payload) >= 2 else 0
        try:
            s.settimeout(max(0.05, deadline - time.monotonic()))
            chunk = s.recv(1 << 20)
        except socket.timeout:
            return None
        except OSError:
            return 0
        if not chunk:
            return 0
        data += chunk
    return None


def websocket(rnd, servers, pool):
    port = servers["main"].port
    for path in ["/healthz", "/", f"{RENDER}?{SMALL}", "/nope", "/live/x", "/v1/cards/sample"]:
        s, head, rest = ws_open(port, path)
        s.close()
        status, headers, body = parse_response(head + b"\r\n\r\n" + rest)
        ok = status == 400 and headers.get("content-type") == "application/problem+json" and b"/problems/" in body
        rnd.check("websocket", f"upgrade at {path[:30]}", ok, f"{status} {headers.get('content-type')} {body[:100]!r}")
    text = 0x1
    cases = [
        ("a 4097-byte message", [ws_frame(text, b"x" * 4097)], {1009}),
        ("a 65536-byte message", [ws_frame(text, b"x" * 65536)], {1009}),
        ("a 1 MiB binary message", [ws_frame(0x2, b"x" * (1 << 20))], {1009, 1003}),
        ("a 4097-byte message in 3 fragments", [ws_frame(text, b"x" * 2000, fin=False), ws_frame(0x0, b"x" * 2000, fin=False),
                                                ws_frame(0x0, b"x" * 97)], {1009}),
        ("4097 bytes in 4097 fragments", [ws_frame(text, b"x", fin=False)] + [ws_frame(0x0, b"x", fin=False)] * 4095
         + [ws_frame(0x0, b"x")], {1009}),
        ("an endless fragmented message", [ws_frame(text, b"x" * 1000, fin=False)] + [ws_frame(0x0, b"x" * 1000, fin=False)] * 9,
         {1009}),
        ("a new message inside a fragmented one", [ws_frame(text, b"x", fin=False), ws_frame(text, b"x")], {1002}),
        ("reserved opcode 3", [ws_frame(0x3, b"x")], {1002}),
        ("reserved opcode 0xB", [ws_frame(0xB, b"x")], {1002}),
        ("an unmasked frame", [ws_frame(text, b"{}", mask=False)], {1002}),
        ("RSV1 set", [ws_frame(text, b"{}", rsv=0x40)], {1002}),
        ("a 200-byte ping", [ws_frame(0x9, b"x" * 200)], {1002}),
        ("a fragmented ping", [ws_frame(0x9, b"x", fin=False)], {1002}),
        ("a continuation first", [ws_frame(0x0, b"x")], {1002}),
        ("a close with code 1000", [ws_frame(0x8, struct.pack(">H", 1000))], {1000, 0}),
    ]
    for seed in range(8):
        junk = random.Random(seed).randbytes(64 + seed * 50)
        cases.append((f"junk bytes {seed}", [junk], {1002, 1009, 1003, 1007, 0}))

    def run(case):
        name, frames, codes = case
        s, head, rest = ws_open(port)
        if not head.startswith(b"HTTP/1.1 101"):
            s.close()
            return rnd.check("websocket", name, False, f"no upgrade: {head[:100]!r}")
        try:
            for frame in frames:
                s.sendall(frame)
        except OSError:
            pass
        code = ws_close_code(s, rest, 8)
        s.close()
        return rnd.check("websocket", name, code in codes, f"close {code}, expected {sorted(codes)}")

    list(pool.map(run, cases))
    # Frames sent with the upgrade request, in one packet.
    for name, extra, codes in [("a message with the upgrade", ws_frame(text, b'{"type":"frob","id":1}'), {None}),
                               ("4097 bytes with the upgrade", ws_frame(text, b"x" * 4097), {1009}),
                               ("an unmasked frame with the upgrade", ws_frame(text, b"{}", mask=False), {1002}),
                               ("junk with the upgrade", random.Random(9).randbytes(500), {0, 1002, 1003, 1007, 1009})]:
        s, head, rest = ws_open(port, extra=extra)
        code = ws_close_code(s, rest, 3) if head.startswith(b"HTTP/1.1 101") else "no upgrade"
        s.close()
        rnd.check("websocket", name, code in codes and servers["main"].alive(), f"close {code}, expected {codes}")
    # Within the limit: an unknown message is answered, the connection stays open.
    s, head, rest = ws_open(port)
    s.sendall(ws_frame(text, b'{"type":"frob","id":1,' + b'"x":"' + b"y" * 4000 + b'"}'))
    code = ws_close_code(s, rest, 1.5)
    s.close()
    rnd.check("websocket", "a 4030-byte unknown message keeps the connection", code is None, f"closed {code}")
    rnd.check("websocket", "the server answers after every case", servers["main"].alive())


def load(rnd, kira, work, results):
    # --deadline 1 holds whatever renders do.
    server = Server(kira, work, "deadline", ["--deadline", "1", "--max-wait", "30", "--max-inflight", "2", "--threads", "1"])
    try:
        times = []

        def heavy(index):
            status, _, body, seconds = request(server.port, f"{RENDER}?size=4096x4096&depth=16&tilt_x={index / 7:.3f}", timeout=30)
            times.append((index, status, seconds, problem_type(body)))

        threads = [threading.Thread(target=heavy, args=(i,)) for i in range(8)]
        for t in threads:
            t.start()
        time.sleep(0.3)
        health = []
        for _ in range(10):
            start = time.monotonic()
            status, _, _, _ = request(server.port, "/healthz")
            health.append((status, time.monotonic() - start))
            time.sleep(0.05)
        for t in threads:
            t.join()
        for index, status, seconds, kind in sorted(times):
            ok = seconds < 1.2 and (status == 200 or (status == 503 and kind in ("/problems/deadline", "/problems/overloaded")))
            rnd.check("load", f"a 4096x4096 16-bit frame under --deadline 1 (#{index})", ok, f"{status} {kind} after {seconds:.2f} s")
        worst = max(s for _, s in health)
        rnd.check("load", "/healthz while renders run", all(st == 200 for st, _ in health) and worst < 0.3,
                  f"statuses {[st for st, _ in health]}, slowest {worst:.2f} s")
    finally:
        server.stop()

    # Never-reading clients against --max-memory 512M, of frames of noise filling the canvas
    # (fast compression: about 40 MB each, which no client takes).
    noisy = os.path.join(work, "noisy", "noise")
    os.makedirs(noisy)
    write_png(os.path.join(noisy, "art.png"), 1024, 1434, seed=5, noise=True)
    server = Server(kira, work, "memory", ["--cards", os.path.dirname(noisy), "--max-memory", "512M", "--cache", "64M",
                                           "--max-wait", "8", "--deadline", "60", "--max-inflight", "2"])
    clients = []
    try:
        pid = server.proc.pid
        idle, _ = rss_kib(pid)
        peak = 0
        for index in range(14):
            s = connect(server.port, timeout=5, receive_buffer=4096)
            s.sendall(f"GET /v1/cards/noise/render.png?size=4096x4096&scale=3&compression=fast&tilt_y={index}.5 HTTP/1.1\r\n"
                      "Host: a\r\n\r\n".encode())
            clients.append(s)
        start = time.monotonic()
        settled = 0
        while time.monotonic() - start < 45:
            rss, hwm = rss_kib(pid)
            peak = max(peak, hwm, rss)
            if time.monotonic() - start > 3:
                _, _, body, _ = request(server.port, "/metrics")
                text = body.decode()
                busy = re.search(r"^kira_renders_in_flight (\d+)", text, re.M)
                waiting = re.search(r"^kira_renders_waiting (\d+)", text, re.M)
                if busy and waiting and busy.group(1) == "0" and waiting.group(1) == "0":
                    settled += 1
                    if settled >= 3:
                        break
            time.sleep(0.1)
        _, _, body, _ = request(server.port, "/metrics")
        renders = re.search(r"^kira_renders_total (\d+)", body.decode(), re.M)
        textures = re.search(r"^kira_texture_bytes ([0-9.e+]+)", body.decode(), re.M)
        # The budget counts textures, cache and frames, not the program itself: what an idle
        # server holds beside its textures.
        program = idle - (float(textures.group(1)) / 1024 if textures else 0)
        results["rss"] = (idle, peak, renders.group(1) if renders else "?", time.monotonic() - start)
        rnd.check("load", "peak RSS with 14 never-reading clients of 4096x4096 frames of noise within --max-memory 512M",
                  peak - program <= 512 * 1024, f"peak {peak / 1024:.0f} MiB, {(peak - program) / 1024:.0f} MiB beside the "
                  f"program's own {program / 1024:.0f} MiB")
        rnd.check("load", "the server answers while clients do not read", server.alive())
    finally:
        for s in clients:
            s.close()
        server.stop()


def lifecycle(rnd, kira, work):
    for signame in ["SIGTERM", "SIGINT"]:
        server = Server(kira, work, f"grace-{signame}", ["--grace-period", "2", "--threads", "1", "--max-wait", "30", "--deadline", "60"])
        held = []
        try:
            for data in [b"", b"GET /heal", b"GET / HTTP/1.1\r\nHost: a\r\nX-", b"FROB", b"GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n",
                         f"GET {RENDER}?size=4096x4096&depth=16 HTTP/1.1\r\nHost: a\r\n\r\n".encode(),
                         b"GET /healthz HTTP/1.1\r\nHost: a\r\nContent-Length: 100\r\n\r\nabc"]:
                s = connect(server.port)
                if data:
                    s.sendall(data)
                held.append(s)
            ws, _, _ = ws_open(server.port)
            held.append(ws)
            time.sleep(0.3)
            start = time.monotonic()
            server.proc.send_signal(getattr(signal, signame))
            try:
                code = server.proc.wait(10)
            except subprocess.TimeoutExpired:
                code = None
            seconds = time.monotonic() - start
            rnd.check("lifecycle", f"{signame} with half-sent, malformed and busy connections open", code == 0 and seconds < 3.0,
                      f"exit {code} after {seconds:.1f} s (grace period 2 s)")
        finally:
            for s in held:
                s.close()
            server.stop()
    busy = Server(kira, work, "port-holder", [])
    try:
        proc = subprocess.run([kira, "serve", "--port", str(busy.port)], capture_output=True, timeout=60, stdin=subprocess.DEVNULL)
        lines = proc.stderr.decode().strip().split("\n")
        rnd.check("lifecycle", "a port in use: one line, exit 2", proc.returncode == 2 and len(lines) == 1 and str(busy.port) in lines[0],
                  f"exit {proc.returncode}: {proc.stderr[:300]!r}")
    finally:
        busy.stop()


def logging_cases(rnd, kira, work):
    server = Server(kira, work, "log", ["--grace-period", "1", "--threads", "1", "--max-inflight", "1", "--max-wait", "30", "--deadline", "60"])
    try:
        s = connect(server.port)
        s.sendall(f"GET {RENDER}?size=4096x4096&depth=16&tilt_x=3 HTTP/1.1\r\nHost: a\r\n\r\n".encode())
        time.sleep(0.3)
        s.close()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not re.search(r"render\.png\?size=4096x4096&depth=16&tilt_x=3 499 ", server.text()):
            time.sleep(0.1)
        rnd.check("logging", "a client leaving mid-render is logged as 499",
                  re.search(r"tilt_x=3 499 ", server.text()) is not None, server.text()[-300:])
        # Three renders one at a time (a second each here, one slot): whatever the machine's speed,
        # the last ones are still waiting or rendering when the 1 s grace period ends.
        cuts = []
        for tilt in (4, 5, 6):
            cut = connect(server.port)
            cut.sendall(f"GET {RENDER}?size=4096x4096&depth=16&tilt_x={tilt} HTTP/1.1\r\nHost: a\r\n\r\n".encode())
            cuts.append(cut)
        time.sleep(0.3)
        server.proc.send_signal(signal.SIGTERM)
        server.proc.wait(15)
        for cut in cuts:
            cut.close()
        rnd.check("logging", "a request cut by the grace period is logged as 499",
                  re.search(r"tilt_x=6 499 ", server.text()) is not None, server.text()[-300:])
        rnd.check("logging", "no error-level line", not re.search(r" error ", server.text()),
                  "\n".join(line for line in server.text().split("\n") if " error " in line)[:300])
    finally:
        server.stop()
    rnd.check("logging", "no error-level line in the main server's log", not re.search(r" error ", SERVERS_LOGS()),
              "\n".join(line for line in SERVERS_LOGS().split("\n") if " error " in line)[:300])


SERVERS_LOGS = lambda: ""


def nginx_cases(rnd, kira, work, root):
    nginx = shutil.which("nginx") or ("/usr/sbin/nginx" if os.path.exists("/usr/sbin/nginx") else None)
    if not nginx:
        rnd.check("nginx", "nginx is installed", False, "nginx not found: install it (apt-get install nginx) for this category")
        return
    replicas = [Server(kira, work, f"replica{i}", ["--max-inflight", "1", "--max-wait", "0.2", "--threads", "1"]) for i in (1, 2)]
    front = free_port()
    conf = open(os.path.join(root, "examples", "nginx-cache.conf")).read()
    conf = conf.replace("127.0.0.1:8081", f"127.0.0.1:{replicas[0].port}").replace("127.0.0.1:8082", f"127.0.0.1:{replicas[1].port}")
    conf = conf.replace("listen 127.0.0.1:8080", f"listen 127.0.0.1:{front}").replace("/tmp/kira-nginx", os.path.join(work, "nginx"))
    conf_path = os.path.join(work, "nginx.conf")
    with open(conf_path, "w") as f:
        f.write(conf)
    user = "user root;" if os.geteuid() == 0 else ""
    # Its output to a file: the daemon keeps the descriptors it was given, and a pipe would never end.
    with open(os.path.join(work, "nginx.log"), "wb") as log:
        started = subprocess.run([nginx, "-p", work, "-c", conf_path, "-g", f"daemon on; {user}"], stdin=subprocess.DEVNULL,
                                 stdout=log, stderr=log, timeout=30)
    try:
        if started.returncode != 0:
            rnd.check("nginx", "nginx starts", False, open(os.path.join(work, "nginx.log"), "rb").read().decode()[:300])
            return
        for _ in range(100):
            if request(front, "/healthz")[0] == 200:
                break
            time.sleep(0.1)
        # Overload: 40 distinct uncached frames at once against one render slot a replica.
        statuses = []

        def heavy(index):
            statuses.append(request(front, f"{RENDER}?size=1024x1280&tilt_x={index}.25", timeout=60)[0])

        threads = [threading.Thread(target=heavy, args=(i,)) for i in range(40)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        rnd.check("nginx", "overload is 200 or 503, never 502", all(s in (200, 503) for s in statuses), f"{sorted(statuses)}")
        start = time.monotonic()
        outage = []
        for index in range(10):
            status, _, _, _ = request(front, f"{RENDER}?{SMALL}&tilt_y={index}", timeout=15)
            outage.append(status)
        seconds = time.monotonic() - start
        rnd.check("nginx", "right after overload, frames are served (no outage)", all(s == 200 for s in outage) and seconds < 5,
                  f"{outage} in {seconds:.1f} s")
        status, _, _, _ = request(front, "/healthz")
        rnd.check("nginx", "/healthz through nginx after overload", status == 200, f"{status}")
        s, head, rest = ws_open(front)
        rnd.check("nginx", "the WebSocket upgrade is forwarded", head.startswith(b"HTTP/1.1 101"), f"{head[:600]!r}")
        s.close()
        s, head, rest = ws_open(front)
        s.sendall(ws_frame(0x1, b"x" * 5000))
        code = ws_close_code(s, rest, 8)
        s.close()
        rnd.check("nginx", "a message over the limit through nginx closes with 1009", code == 1009, f"{code}")
        first = request(front, f"{RENDER}?{SMALL}&tilt_x=7")
        second = request(front, f"{RENDER}?{SMALL}&tilt_x=7")
        rnd.check("nginx", "a frame is cached by nginx", second[1].get("x-cache-status") == "HIT" and first[2] == second[2],
                  f"{second[1].get('x-cache-status')}")
        bad = request(front, f"{RENDER}?tilt_x=nan")
        again = request(front, f"{RENDER}?tilt_x=nan")
        rnd.check("nginx", "a problem is never cached", bad[0] == 400 and again[1].get("x-cache-status") != "HIT",
                  f"{bad[0]} {again[1].get('x-cache-status')}")
    finally:
        pid_path = os.path.join(work, "nginx.pid")
        if os.path.exists(pid_path):
            os.kill(int(open(pid_path).read().strip()), signal.SIGTERM)
        for replica in replicas:
            replica.stop()


def main():
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kira", default=os.path.join(root, ".build", "release", "kira"))
    parser.add_argument("--only", help="categories to run, comma-separated")
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--keep", action="store_true", help="keep the scratch folder (logs) and print it")
    options = parser.parse_args()
    if not os.access(options.kira, os.X_OK) or not os.access(os.path.join(os.path.dirname(options.kira), "kira-serve"), os.X_OK):
        print(f"run.py: {options.kira} and kira-serve beside it are needed: swift build -c release --product kira "
              "&& swift build -c release --product kira-serve", file=sys.stderr)
        return 2
    only = set(options.only.split(",")) if options.only else None
    wanted = lambda name: only is None or name in only
    rnd = Round(options.verbose)
    work = tempfile.mkdtemp(prefix="kira-adversarial-")
    servers = {}
    results = {}
    started = time.monotonic()
    try:
        key_file = os.path.join(work, "key")
        with open(key_file, "w") as f:
            f.write(os.urandom(32).hex() + "\n")
        cards = os.path.join(work, "cards", "card")
        os.makedirs(cards)
        write_png(os.path.join(cards, "art.png"), 126, 176)
        common = ["--idle-timeout", "2", "--max-wait", "30", "--deadline", "60", "--threads", "1", "--max-live-connections", "64"]
        servers["main"] = Server(options.kira, work, "main", ["--cards", os.path.dirname(cards), *common])
        servers["signed"] = Server(options.kira, work, "signed", ["--cards", os.path.dirname(cards), "--key-file", key_file, *common])
        servers["signed_key"] = key_file
        servers["kira"] = options.kira
        global SERVERS_LOGS
        SERVERS_LOGS = lambda: servers["main"].text() + servers["signed"].text()
        with concurrent.futures.ThreadPoolExecutor(max_workers=6) as pool:
            if wanted("queries"):
                queries(rnd, servers, pool)
            if wanted("signatures"):
                signatures(rnd, servers, options.kira, work, pool)
            if wanted("http"):
                http(rnd, servers, pool)
            if wanted("websocket"):
                websocket(rnd, servers, pool)
            if wanted("paths"):
                paths(rnd, servers, pool)
        if wanted("cards"):
            card_folders(rnd, options.kira, work)
        if wanted("startup"):
            startup_memory(rnd, options.kira, work, results)
        if wanted("batch"):
            batch_cases(rnd, options.kira, work, results)
        if wanted("load"):
            load(rnd, options.kira, work, results)
        if wanted("lifecycle"):
            lifecycle(rnd, options.kira, work)
        if wanted("nginx"):
            nginx_cases(rnd, options.kira, work, root)
        if wanted("logging"):
            logging_cases(rnd, options.kira, work)
    finally:
        for name in ("main", "signed"):
            if name in servers:
                servers[name].stop()
        if options.keep:
            print(f"scratch folder: {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    if "rss" in results:
        idle, peak, renders, seconds = results["rss"]
        print(f"RSS with never-reading clients: idle {idle / 1024:.0f} MiB, peak {peak / 1024:.0f} MiB "
              f"(--max-memory 512M; {renders} renders in {seconds:.0f} s)")
    if "startup" in results:
        print(f"kira serve --cards refused from the headers (idle server {results['baseline'] / 1024:.0f} MiB):")
        for name, memory, peak, seconds in results["startup"]:
            print(f"  {name}, --max-memory {memory}: peak {peak / 1024:.0f} MiB, {seconds:.2f} s")
    if "batch" in results:
        print("kira batch on streams and hostile textures (peak RSS, seconds):")
        for name, peak, seconds in results["batch"]:
            print(f"  {name}: {peak / 1024:.0f} MiB, {seconds:.2f} s")
    failed = rnd.summary()
    print(f"{time.monotonic() - started:.0f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
