#!/usr/bin/env python3
"""Ratios of toolgate's side-by-side benchmarks, from criterion's saved estimates.

Run after `cargo bench -p toolgate-bench`:

    python3 benches/ratios.py [CRITERION_DIR]

CRITERION_DIR defaults to the workspace's `target/criterion` (pass another one when
CARGO_TARGET_DIR points elsewhere).

For each group of the `decode` bench (V, C, I, I3) it prints every decoder's median time
and its ratio to the group's `serde_floor` (1.00x = as fast as serde alone), with the
target toolgate is held to where there is one. For the `runtime_road` group it prints the
median time of one pass over the corpus and the calls per second. For the `scale` bench's
groups it prints the cost per item at each size and how much it grew. For the `boundary`
bench it prints `Toolbox::call` (with no hooks, and with three that pass) against the gate
alone.
"""

import json
import sys
from pathlib import Path

# Issue 29's musts for toolgate, as a ratio to the floor.
TARGETS = {"V": 1.85, "C": 2.5, "I": 3.0, "IM": 3.0}
# What each group's floor decodes.
FLOOR_INPUT = {
    "V": "serde on V",
    "C": "serde on V (serde cannot decode C)",
    "I": "serde on I (stops at the first error)",
    "I3": "serde on I3 (accepts it: checks nothing)",
    "IM": "serde on IM (stops at the first error)",
}
ORDER = [
    "serde_floor",
    "validator",
    "garde",
    "jsonschema",
    "toolgate",
    "toolgate_validate",
    "toolgate_lenient",
]


def median_ns(bench_dir):
    estimates = bench_dir / "new" / "estimates.json"
    if not estimates.is_file():
        return None
    return json.loads(estimates.read_text())["median"]["point_estimate"]


def elements(bench_dir):
    benchmark = bench_dir / "new" / "benchmark.json"
    if not benchmark.is_file():
        return None
    throughput = json.loads(benchmark.read_text()).get("throughput") or {}
    return throughput.get("Elements")


def human(ns):
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("µs", 1e3)):
        if ns >= scale:
            return f"{ns / scale:.2f} {unit}"
    return f"{ns:.0f} ns"


def main():
    default = Path(__file__).resolve().parent.parent / "target" / "criterion"
    root = Path(sys.argv[1]) if len(sys.argv) > 1 else default
    if not root.is_dir():
        sys.exit(f"{root} not found: run `cargo bench -p toolgate-bench` first")
    found = False
    for group in ["V", "C", "I", "IM", "I3"]:
        group_dir = root / group
        if not group_dir.is_dir():
            continue
        times = {d.name: median_ns(d) for d in group_dir.iterdir() if d.is_dir()}
        times = {name: ns for name, ns in times.items() if ns is not None}
        floor = times.get("serde_floor")
        if not floor:
            continue
        found = True
        print(f"{group}: floor = {FLOOR_INPUT[group]}")
        print(f"  {'decoder':<17} {'median':>10} {'ratio':>7}")
        names = [n for n in ORDER if n in times] + sorted(set(times) - set(ORDER))
        for name in names:
            ratio = times[name] / floor
            line = f"  {name:<17} {human(times[name]):>10} {ratio:>6.2f}x"
            if name == "toolgate" and group in TARGETS:
                target = TARGETS[group]
                verdict = "meets" if ratio <= target else f"misses by {ratio / target:.2f}x"
                line += f"   must <= {target:.2f}x: {verdict}"
            if name == "toolgate_lenient" and times.get("toolgate"):
                against = times[name] / times["toolgate"]
                verdict = "meets" if against <= 1.10 else "misses"
                line += f"   {against:.2f}x toolgate (target <= 1.10x: {verdict})"
            print(line)
        print()
    boundary = root / "boundary"
    if boundary.is_dir():
        found = True
        print("boundary: Toolbox::call against the gate alone (issue 13's aim: <= 1.05x)")
        print(f"  {'payload':<8} {'gate':>10} {'toolbox':>10} {'ratio':>7} {'3 no-op hooks':>14} {'ratio':>7}")
        for label in ["V", "C", "I"]:
            gate = median_ns(boundary / "gate" / label)
            plain = median_ns(boundary / "toolbox" / label)
            hooks = median_ns(boundary / "toolbox_noop3" / label)
            if not (gate and plain and hooks):
                continue
            print(
                f"  {label:<8} {human(gate):>10} {human(plain):>10} {plain / gate:>6.2f}x"
                f" {human(hooks):>14} {hooks / gate:>6.2f}x"
            )
        gate = median_ns(boundary / "gate" / "empty")
        plain = median_ns(boundary / "toolbox" / "empty")
        if gate and plain:
            print(f"  empty tool: gate {human(gate)}, toolbox {human(plain)}: the boundary's fixed cost {human(plain - gate)}")
        print()
    road = root / "runtime_road"
    if road.is_dir():
        found = True
        print("runtime_road: one pass over the BFCL corpus")
        print(f"  {'id':<18} {'calls':>7} {'median':>10} {'calls/s':>12}")
        for bench_dir in sorted(d for d in road.iterdir() if d.is_dir() and d.name != "report"):
            ns, n = median_ns(bench_dir), elements(bench_dir)
            if ns is None or not n:
                continue
            print(f"  {bench_dir.name:<18} {n:>7} {human(ns):>10} {n / (ns / 1e9):>12,.0f}")
        print()
    for group in ["scale_object", "scale_enum", "scale_array", "scale_nesting"]:
        group_dir = root / group
        if not group_dir.is_dir():
            continue
        sizes = sorted(
            (int(d.name), d) for d in group_dir.iterdir() if d.is_dir() and d.name.isdigit()
        )
        rows = []
        for size, bench_dir in sizes:
            ns, n = median_ns(bench_dir), elements(bench_dir)
            if ns is not None and n:
                rows.append((size, ns, ns / n))
        if not rows:
            continue
        found = True
        print(f"{group}: cost per item at each size (flat = linear)")
        print(f"  {'size':>7} {'median':>10} {'per item':>10}")
        for size, ns, per_item in rows:
            print(f"  {size:>7} {human(ns):>10} {human(per_item):>10}")
        if len(rows) >= 2:
            growth = rows[-1][2] / rows[0][2]
            print(f"  per-item cost at {rows[-1][0]} is {growth:.2f}x that at {rows[0][0]}")
        print()
    if not found:
        sys.exit(f"no toolgate-bench results under {root}: run `cargo bench -p toolgate-bench` first")


if __name__ == "__main__":
    main()
