#!/usr/bin/env python3
"""Prints criterion's results under target/criterion as markdown tables.

One table per workload (criterion group), fastest row first. Benchmark ids are
`library/method/precision/isa` (see benches/noise.rs). Times are criterion's
median estimate per iteration divided by the points per iteration (the
group's throughput), so ns/point and Mpoints/s are per point of the workload.
The last column is the row's time over surflet's default-dispatch f32 `fill`
in the same workload: above 1.00 the row is slower than surflet, below faster.

Usage: table.py [CRITERION_DIR]   (default: target/criterion next to this file)
"""

import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "target", "criterion")

GROUP_ORDER = ["simplex", "perlin", "value", "fbm"]


def group_key(name):
    kind = next((i for i, k in enumerate(GROUP_ORDER) if name.startswith(k)), len(GROUP_ORDER))
    return (kind, name)


def load():
    groups = {}
    for dirpath, _dirs, files in os.walk(ROOT):
        if os.path.basename(dirpath) != "new" or "benchmark.json" not in files:
            continue
        with open(os.path.join(dirpath, "benchmark.json")) as f:
            bench = json.load(f)
        with open(os.path.join(dirpath, "estimates.json")) as f:
            est = json.load(f)
        elements = (bench.get("throughput") or {}).get("Elements")
        if not elements:
            continue
        ns = est["median"]["point_estimate"]
        lo = est["median"]["confidence_interval"]["lower_bound"]
        hi = est["median"]["confidence_interval"]["upper_bound"]
        parts = bench["function_id"].split("/")
        while len(parts) < 4:
            parts.append("")
        lib, method, prec, isa = parts[0], "/".join(parts[1:-2]), parts[-2], parts[-1]
        groups.setdefault(bench["group_id"], []).append(
            {
                "lib": lib,
                "method": method,
                "prec": prec,
                "isa": isa,
                "ns_pt": ns / elements,
                "spread": (hi - lo) / 2 / ns * 100 if ns else 0.0,
                "points": elements,
            }
        )
    return groups


def main():
    groups = load()
    if not groups:
        sys.exit(f"no criterion results under {ROOT}")
    for name in sorted(groups, key=group_key):
        rows = sorted(groups[name], key=lambda r: r["ns_pt"])
        ref = next(
            (
                r
                for r in rows
                if r["lib"] == "surflet" and r["method"] == "fill" and r["prec"] == "f32"
                and r["isa"].startswith("auto")
            ),
            None,
        )
        print(f"### {name} ({rows[0]['points']:,} points)\n")
        print("| library | method | precision | ISA | ns/point | Mpoints/s | time vs surflet `fill` f32 auto |")
        print("|---|---|---|---|--:|--:|--:|")
        for r in rows:
            rel = f"{r['ns_pt'] / ref['ns_pt']:.2f}×" if ref else "–"
            lib = f"**{r['lib']}**" if r["lib"] == "surflet" else r["lib"]
            print(
                f"| {lib} | {r['method']} | {r['prec']} | {r['isa']} | "
                f"{r['ns_pt']:.2f} ±{r['spread']:.0f}% | {1e3 / r['ns_pt']:.1f} | {rel} |"
            )
        print()


if __name__ == "__main__":
    main()
