#!/usr/bin/env bash
# Cycle estimates of the shipped inner loops: llvm-mca's model of the CPU run over the machine code
# of the release build (`swift build -c release`, AVX-512 on this project's machines), so that
# the figures do not move with the machine's load. Two loops, each sixteen pixels an iteration:
#
#   shade    the cold shade's loop over a row (`ShadeKernel.shadeRows`, kira foil, RGBA8 in and
#            out, no glare): load art and mask, noise, colours, store; one frame (the loop over
#            frames inside it taken once)
#   project  the on-screen frame's loop over a canvas row's runs of sixteen pixels
#            (`LaneProjectionJob`, the C kernels of kira_projection.h): inverse homography,
#            texel window, bilinear filter, blend, store
#
# Each loop is the smallest one in its function that holds the loop's telltale instructions
# (the shade's divisions and square root; the projection's divisions and
# texel permutes), cut out of `objdump -d` and marked for llvm-mca. llvm-mca ignores control
# flow: the figure is for the loop's body as one straight line, every branch in it included and
# none taken, repeated.
# Needs llvm-mca with a Zen 4 model: LLVM 17 or later (Debian's llvm-19; the Swift toolchain
# ships none). Usage: Benchmarks/loop-cycles.sh [MCPU]   (default znver4)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
mcpu="${1:-znver4}"
mca="$(command -v llvm-mca-19 || command -v llvm-mca || true)"
if [ -z "$mca" ] || [[ "$("$mca" -mtriple=x86_64 -mcpu=help 2>&1 || true)" != *znver4* ]]; then
    echo "loop-cycles.sh: needs llvm-mca from LLVM 17 or later (apt-get install llvm-19)" >&2
    exit 2
fi
scratch="${KIRA_SCRATCH_PATH:-$root/.build}"
(cd "$root" && swift build -c release --product kira --scratch-path "$scratch" >/dev/null)
out="$root/output/loop-cycles"
mkdir -p "$out"

python3 - "$scratch/release/kira" "$mca" "$mcpu" "$out" <<'PY'
import re, subprocess, sys
binary, mca, mcpu, out = sys.argv[1:]

symbols = subprocess.run(["nm", "--defined-only", binary], capture_output=True, text=True, check=True).stdout.split("\n")
def functions(*parts):
    return [line.split()[-1] for line in symbols if line and all(p in line.split()[-1] for p in parts)]

def disassemble(symbol):
    text = subprocess.run(["objdump", "-d", "--no-show-raw-insn", f"--disassemble={symbol}", binary],
                          capture_output=True, text=True, check=True).stdout
    lines = []
    for line in text.splitlines():
        m = re.match(r"^\s+([0-9a-f]+):\s+(\S.*)$", line)
        if m:
            lines.append((int(m.group(1), 16), m.group(2).split("#")[0].strip()))
    return lines

def smallest_loop(lines, telltales):
    """The shortest backward branch's range holding every telltale mnemonic."""
    index = {address: i for i, (address, _) in enumerate(lines)}
    best = None
    for i, (address, text) in enumerate(lines):
        m = re.match(r"^j\w+\s+([0-9a-f]+)\b", text)
        if not m:
            continue
        target = int(m.group(1), 16)
        if target > address or target not in index:
            continue
        body = lines[index[target]:i + 1]
        mnemonics = {t.split()[0] for _, t in body}
        if all(any(m.startswith(tell) for m in mnemonics) for tell in telltales):
            if best is None or len(body) < len(best):
                best = body
    return best

def estimate(name, candidates, telltales):
    best = None
    for symbol in candidates:
        body = smallest_loop(disassemble(symbol), telltales)
        if body and (best is None or len(body) < len(best[1])):
            best = (symbol, body)
    if best is None:
        print(f"{name}: no loop with {telltales} found")
        return
    symbol, body = best
    asm = [f"# LLVM-MCA-BEGIN {name}"]
    for _, text in body:
        # Branch and call targets are addresses in objdump's output: point them at a label.
        text = re.sub(r"^((?:j\w+|call)\s+)[0-9a-f]+\s*(<[^>]*>)?", r"\1.Lloop", text)
        asm.append(text)
    asm.append("# LLVM-MCA-END")
    path = f"{out}/{name}.s"
    open(path, "w").write(".Lloop:\n" + "\n".join(asm) + "\n")
    report = subprocess.run([mca, "-mtriple=x86_64", f"-mcpu={mcpu}", "-iterations=200", path],
                            capture_output=True, text=True).stdout
    open(f"{out}/{name}.mca.txt", "w").write(report)
    cycles = int(re.search(r"Total Cycles:\s+(\d+)", report).group(1)) / 200
    rthroughput = float(re.search(r"Block RThroughput:\s+([\d.]+)", report).group(1))
    vector = sum(1 for _, t in body if "zmm" in t or "ymm" in t)
    print(f"{name}: {len(body)} instructions ({vector} on vector registers) per 16 pixels, "
          f"{cycles:.1f} cycles per iteration ({cycles / 16:.2f} per pixel), "
          f"block reciprocal throughput {rthroughput:.1f}  [{mcpu}; {path}]")

estimate("shade", functions("ShadeKernel", "shadeRows"), ["vdivps", "vsqrtps"])
estimate("project", functions("LaneProjectionJob"), ["vdivps", "vpermt2d"])
PY
