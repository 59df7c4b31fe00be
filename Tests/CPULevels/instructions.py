#!/usr/bin/env python3
"""Every function of a release program that uses AVX (a VEX or EVEX instruction, a ymm, zmm or
mask register) must belong to the x86-64-v3 or -v4 pixel loops: Swift code of KiraKernelsV3 or
KiraKernelsV4, or a static C function of the lane headers they compile (one private copy per
level). Anything else can run on every CPU, and one such function crashes a v2 machine; the qemu
renders of run.sh reach only the paths they draw. The usual cause: a generic specialisation or an
out-of-line @inlinable function that each level's module emits under the same name, of which the
linker keeps one level's copy for all three.

Usage: Tests/CPULevels/instructions.py [PROGRAM...]   (default .build/release/kira)"""
import os
import platform
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
AVX = re.compile(r"^\s*[0-9a-f]+:\s+(v\S*\s|.*%[yz]mm|.*%k[0-7])")
KERNELS = re.compile(r"13KiraKernelsV[34]")


def fail(message):
    print(f"instructions.py: {message}", file=sys.stderr)
    sys.exit(2)


def check(program):
    """The names of the functions of `program` that use AVX, and those of them that may not."""
    # Each text symbol's extent: code past a symbol's end has no symbol of its own (private to
    # its module, so never shared by the linker) and is not the previous symbol's.
    extent, local = {}, set()
    for line in subprocess.run(["nm", "--defined-only", "--print-size", program],
                               capture_output=True, text=True, check=True).stdout.splitlines():
        fields = line.split()
        if len(fields) == 4 and fields[2] in ("t", "T"):
            extent[fields[3]] = int(fields[1], 16)
            if fields[2] == "t":
                local.add(fields[3])
    using, name, end = set(), None, 0
    disassembly = subprocess.Popen(["objdump", "-d", "--no-show-raw-insn", program], stdout=subprocess.PIPE, text=True)
    for line in disassembly.stdout:
        if line.endswith(">:\n") and not line.startswith(" "):
            address, _, label = line.partition(" ")
            name = label[1:-3]
            end = int(address, 16) + extent.get(name, 0)
        elif name not in using and AVX.match(line) and int(line.split(":")[0], 16) < end:
            using.add(name)
    if disassembly.wait() != 0:
        fail(f"objdump could not read {program}")
    wrong = sorted(n for n in using if not KERNELS.search(n) and not (n.startswith("kira_") and n in local))
    return using, wrong


def main():
    if platform.machine() != "x86_64":
        fail("x86-64 only")
    for tool in ("nm", "objdump"):
        if shutil.which(tool) is None:
            fail(f"needs {tool} (apt-get install binutils)")
    programs = sys.argv[1:] or [os.path.join(ROOT, ".build/release/kira")]
    status = 0
    for program in programs:
        if not os.access(program, os.X_OK):
            fail(f"no program at {program} (swift build -c release first)")
        using, wrong = check(program)
        for name in wrong:
            print(f"instructions.py: {os.path.basename(program)}: {name} uses AVX outside the v3/v4 pixel loops", file=sys.stderr)
        print(f"{os.path.basename(program)}: {len(using)} functions use AVX, {len(wrong)} outside the v3/v4 pixel loops")
        status = status or (1 if wrong else 0)
    return status


if __name__ == "__main__":
    sys.exit(main())
