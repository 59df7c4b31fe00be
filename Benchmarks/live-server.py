#!/usr/bin/env python3
"""The live preview's server side alone: frames a second and `kira`'s CPU per frame for a client
that drags the card continuously and acknowledges each frame as soon as it has it, with no
browser sharing the machine (Benchmarks/live-preview.py measures the page in Chromium).

usage: Benchmarks/live-server.py KIRA [SECONDS] [WIDTH...]   (KIRA: a release build; needs websocket-client from PyPI, which selenium installs)
"""
import json
import math
import os
import struct
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Browser"))
import kiraserve  # noqa: E402
import websocket  # noqa: E402

KIRA = sys.argv[1]
SECONDS = float(sys.argv[2]) if len(sys.argv) > 2 else 6.0
WIDTHS = [int(w) for w in sys.argv[3:]] or [630, 1260]
# More `kira serve` options for every row, e.g. KIRA_SERVE_OPTIONS="--threads 1".
SERVE_OPTIONS = os.environ.get("KIRA_SERVE_OPTIONS", "").split()


def measure(width):
    server, origin = kiraserve.start(KIRA, "--live-encoding", "raw", *SERVE_OPTIONS)
    try:
        socket = websocket.create_connection(origin.replace("http", "ws", 1) + "/live")
        socket.send(json.dumps({"type": "set", "name": "width", "value": str(width), "id": 1}))
        start, next_id, counted, renders, sizes, began, ticks = time.monotonic(), 2, 0, [], 0, None, 0
        while True:
            elapsed = time.monotonic() - start
            angle = 2 * math.pi * elapsed
            socket.send(json.dumps({"type": "drag", "id": next_id, "dx": 150 * math.sin(angle), "dy": 100 * math.sin(2 * angle)}))
            next_id += 1
            message = socket.recv()
            if isinstance(message, str):
                sys.exit(f"the server said: {message}")
            length = struct.unpack(">I", message[:4])[0]
            header = json.loads(message[4:4 + length])
            socket.send(json.dumps({"type": "ack"}))
            if header["width"] != width:
                continue
            # The first second warms the renderer up; then count.
            if began is None and elapsed > 1:
                began, ticks = time.monotonic(), kiraserve.cpu_times()[str(server.pid)][1]
            elif began is not None:
                counted += 1
                renders.append(header["renderMilliseconds"])
                sizes += len(message)
                if time.monotonic() - began >= SECONDS:
                    break
        if not counted:
            sys.exit(f"no frame of width {width} came in {SECONDS:.0f} s")
        seconds = time.monotonic() - began
        cpu = (kiraserve.cpu_times()[str(server.pid)][1] - ticks) / os.sysconf("SC_CLK_TCK") / seconds
        renders.sort()
        rate = counted / seconds
        return (f"| {width} | {rate:.1f} | {100 * cpu:.0f} % | {1000 * cpu / rate:.1f} | {renders[len(renders) // 2]:.1f} "
                f"| {sizes / counted / 1e6:.1f} |")
    finally:
        server.terminate()
        server.wait(timeout=30)


print(f"# {SECONDS:.0f} s of continuous drag per row, raw frames; load: {os.getloadavg()[0]:.2f} at the start")
print("| card width | frames/s | kira CPU (100 % = one core) | kira CPU ms per frame | render ms (median) | MB per frame |")
print("|---:|---:|---:|---:|---:|---:|")
for width in WIDTHS:
    print(measure(width), flush=True)
