"""`kira serve` started for a browser script: the server's process and its origin."""
import os
import re
import subprocess
import sys


def start(kira, *options, port=0):
    """Starts `kira serve --port PORT OPTIONS` (by default on a free port) and returns (process,
    origin) once it listens (its log lines come before the line that names the port)."""
    server = subprocess.Popen([kira, "serve", "--port", str(port), *options], stderr=subprocess.PIPE, text=True,
                              env={**os.environ, "NO_COLOR": "1"})
    for line in server.stderr:
        match = re.search(r"kira serve: listening on (http://\S+)", line)
        if match:
            return server, match.group(1)
    sys.exit("kira serve did not start")
