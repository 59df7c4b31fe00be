"""`kira serve` started for a browser script: the server's process and its origin; and the CPU
the processes on the machine have taken, for the benchmarks that measure it."""
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


def processes():
    """Every process now, by pid: (name, the fields of /proc/PID/stat after the name)."""
    found = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat") as stat:
                line = stat.read()
        except OSError:
            continue
        found[pid] = (line[line.index("(") + 1:line.rindex(")")], line[line.rindex(")") + 2:].split())
    return found


def cpu_times():
    """CPU time (user + system, in clock ticks) of every process now, by pid: (name, ticks)."""
    return {pid: (name, int(fields[11]) + int(fields[12])) for pid, (name, fields) in processes().items()}


def family(pid=None):
    """This process (or `pid`) and every process it started, and they started, now: on a machine
    shared with other work, the processes a benchmark's CPU figures may count."""
    children = {}
    for child, (_, fields) in processes().items():
        children.setdefault(fields[1], []).append(child)
    found, todo = set(), [str(pid or os.getpid())]
    while todo:
        found.add(todo[-1])
        todo.extend(children.get(todo.pop(), []))
    return found
