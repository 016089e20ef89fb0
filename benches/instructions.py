#!/usr/bin/env python3
"""Instructions per call of each decoder of the `decode` bench, and their ratio to the serde
floor, counted by valgrind (cachegrind without cache simulation): the same in every run, so
a change's effect shows below the timing noise of a shared machine. A development aid: the
README's tables come from criterion (`benches/ratios.py`).

    cargo build --release -p toolgate-bench --example instructions
    python3 benches/instructions.py [target-dir] [--no-bfcl]

Each count is (instructions for N runs - instructions for 0 runs) / N, so the setup (the
model, its plan, the process) is left out.
"""
import os
import re
import subprocess
import sys

RUNS = 200
BFCL_RUNS = 2
SHAPES = ["V", "C", "I", "IM", "I3"]
FLOORS = {"C": "V"}  # serde cannot decode C: its floor is serde on V


def instructions(binary, decoder, shape, runs):
    done = subprocess.run(
        ["valgrind", "--tool=cachegrind", "--cache-sim=no",
         "--cachegrind-out-file=/dev/null", binary, decoder, shape, str(runs)],
        capture_output=True, text=True, check=True)
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    return int(found.group(1).replace(",", ""))


def per_call(binary, decoder, shape):
    return (instructions(binary, decoder, shape, RUNS)
            - instructions(binary, decoder, shape, 0)) / RUNS


def per_stream(binary, decoder, size, runs=4):
    shape = f"STREAM{size}"
    return (instructions(binary, decoder, shape, runs)
            - instructions(binary, decoder, shape, 0)) / runs


def main():
    positional = [arg for arg in sys.argv[1:] if not arg.startswith("--")]
    target = positional[0] if positional else os.environ.get(
        "CARGO_TARGET_DIR", os.path.join(os.path.dirname(__file__), "..", "target"))
    binary = os.path.join(target, "release", "examples", "instructions")
    # `value`: the run-time road on the call read already as a `serde_json::Value` (an MCP
    # server's arguments), for the same shapes; not a must, a road to watch.
    print(f"{'shape':<6}{'serde_floor':>14}{'toolgate':>14}{'ratio':>9}{'value':>14}")
    for shape in SHAPES:
        floor = per_call(binary, "serde_floor", FLOORS.get(shape, shape))
        ours = per_call(binary, "toolgate", shape)
        value = per_call(binary, "runtime_value", shape)
        print(f"{shape:<6}{floor:>14,.0f}{ours:>14,.0f}{ours / floor:>8.2f}x{value:>14,.0f}")
    # A streamed argument (issue 45): pieces of N bytes then `finish`, against one shot.
    for size in [1024, 16 * 1024]:
        one_shot = per_stream(binary, "one_shot", size)
        shown = [f"STREAM {size:>6} B: one shot {one_shot:,.0f}"]
        for pieces in [1, 16, 64]:
            ours = per_stream(binary, f"pieces_{pieces}", size)
            shown.append(f"pieces of {pieces}: {ours / one_shot:.2f}x")
        print(", ".join(shown))
    if "--no-bfcl" in sys.argv:
        return
    # The run-time road over the whole BFCL corpus, against serde_json's Value on the same
    # texts: per pass, and the floor's share (the must: at least 0.4x Value's throughput).
    setup = instructions(binary, "runtime", "BFCL", 0)
    ours = (instructions(binary, "runtime", "BFCL", BFCL_RUNS) - setup) / BFCL_RUNS
    floor = (instructions(binary, "serde_json_value", "BFCL", BFCL_RUNS) - setup) / BFCL_RUNS
    print(f"BFCL pass: DynamicTool {ours:,.0f}, serde_json Value {floor:,.0f}: "
          f"Value's throughput share {floor / ours:.2f}x")


if __name__ == "__main__":
    main()
