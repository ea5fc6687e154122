#!/usr/bin/env python3
"""Prints criterion's results under target/criterion as markdown tables.

Benchmark ids are `library/call/precision/isa` (see benches/noise.rs); each
criterion group is one workload. Rates are criterion's median time per
iteration over the samples per iteration (the group's throughput), in
Msamples/s (millions of samples a second, higher is faster).

First, one summary table per section of workloads (issue 11's table,
quick-noise's headline, the rest, issue 13's new noises), with the section's
note where it has one (NOTES): a row per workload, a column per library and
call, all single-threaded f32 except the column that says "2 threads":

* surflet `fill` (point arrays), `grid`, and `grid` on 2 threads;
* FastNoise2: the better of `GenUniformGrid` and `GenPositionArray`;
* quick-noise: batch (the better of coordinate slices and its grid
  iterators) and uniform grid;
* simdnoise and the scalar peers, where the group has them;
* "surflet best / best peer": surflet's faster single-threaded f32 call
  (`fill` or `grid`) over the fastest row of any other library, as a rate
  ratio (above 1: surflet is faster), with that peer named.

Then (unless --summary-only) one detailed table per workload with every
row, fastest first, f64 and single-point rows included.

Usage: table.py [--summary-only] [CRITERION_DIR]
       (default: target/criterion next to this file)
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

# (criterion group id, label) per section, in the order of issue 11.
SECTIONS = [
    (
        "Issue 11's workloads (spacing 0.03 unless stated)",
        [
            ("simplex2d 1024x1024", "2D simplex 1024²"),
            ("simplex3d 128x128x128", "3D simplex 128³"),
            ("perlin3d 128x128x128", "3D Perlin 128³"),
            ("simplex4d 64x64x64x64", "4D simplex 64⁴"),
            ("perlin2d 1024x1024", "2D Perlin 1024²"),
            ("fbm5 simplex3d 64x64x64", "fBm 3D simplex ×5, 64³"),
            ("value2d 1024x1024", "2D value 1024²"),
            ("fbm3 perlin2d 1024x1024 freq 1/64", "fBm ×3 Perlin 2D 1024², freq 1/64"),
            ("fbm3 value3d 128x128x128 freq 1/64", "fBm ×3 value 3D 128³, freq 1/64"),
        ],
    ),
    (
        "quick-noise's headline: 3-octave fBm, frequency 1/64 (spacing 1)",
        [
            ("fbm3 perlin2d 1024x1024 freq 1/64", "Perlin 2D 1024²"),
            ("fbm3 value2d 1024x1024 freq 1/64", "value 2D 1024²"),
            ("fbm3 simplex2d 1024x1024 freq 1/64", "simplex 2D 1024²"),
            ("fbm3 perlin3d 128x128x128 freq 1/64", "Perlin 3D 128³"),
            ("fbm3 value3d 128x128x128 freq 1/64", "value 3D 128³"),
            ("fbm3 simplex3d 128x128x128 freq 1/64", "simplex 3D 128³"),
        ],
    ),
    (
        "Also measured (spacing 0.03)",
        [
            ("value3d 128x128x128", "3D value 128³"),
        ],
    ),
    (
        "New noises (issue 13): OpenSimplex2, OpenSimplex2S, cellular (spacing 0.03)",
        [
            ("opensimplex2 2d 1024x1024", "2D OpenSimplex2 1024²"),
            ("opensimplex2 3d 128x128x128", "3D OpenSimplex2 128³"),
            ("opensimplex2s 2d 1024x1024", "2D OpenSimplex2S 1024²"),
            ("opensimplex2s 3d 128x128x128", "3D OpenSimplex2S 128³"),
            ("cellular2d 1024x1024", "2D cellular 1024²"),
            ("cellular3d 128x128x128", "3D cellular 128³"),
        ],
    ),
]

# Printed under a section's title: where its rows do not compute exactly
# surflet's function (details in benches/noise.rs, "The new noises").
NOTES = {
    SECTIONS[3][0]: (
        "Cellular: euclidean distance, f1 (distance to the nearest feature point), "
        "jitter 1, one feature point per unit cell in every library. surflet places "
        "the point uniformly in its cell (exact search), and so do quick-noise (the "
        "2ᴰ nearest cells, widened when a nearer point is possible) and libnoise "
        "(3×3(×3) cells); FastNoise2 and fastnoise-lite put it on a "
        "circle/sphere of radius 0.437/0.396 round the cell centre (their jitter 1), "
        "and simdnoise is given those radii; noise-rs's `Worley` searches only the "
        "2ᴰ nearest cells. simdnoise returns f1² and its 3D cellular search is broken "
        "(simdnoise 3.1.6: the z loop steps from the y cell), so its 3D row is not a "
        "Worley field. quick-noise's grid path has no 3D cellular. "
        "OpenSimplex2/2S: in 3D, FastNoise2, fastnoise-lite and the opensimplex2 crate "
        "use radius² 0.6 for OpenSimplex2 (surflet ½) and FastNoise2 its own lattice "
        "orientation. noise-rs has neither noise: its OpenSimplex2 column is the "
        "original 2014 OpenSimplex (coordinates scaled to the same lattice-point "
        "density) and its OpenSimplex2S column `SuperSimplex` (OpenSimplex2S's "
        "predecessor). quick-noise, simdnoise and libnoise have no OpenSimplex2."
    ),
}
OTHER = "Other workloads"

# Summary columns, in order: (title, matcher on a row).
COLUMNS = [
    ("surflet `fill`", lambda r: r["lib"] == "surflet" and r["method"] == "fill"),
    ("surflet `grid`", lambda r: r["lib"] == "surflet" and r["method"] == "grid"),
    (
        "surflet `grid`, 2 threads",
        lambda r: r["lib"] == "surflet" and r["method"].startswith("grid, 2 threads"),
    ),
    ("FastNoise2 (best of grid / positions)", lambda r: r["lib"] == "FastNoise2"),
    (
        "quick-noise batch (best of slices / grid iterators)",
        lambda r: r["lib"] == "quick-noise" and r["method"].startswith("BatchNoise"),
    ),
    (
        "quick-noise grid",
        lambda r: r["lib"] == "quick-noise" and r["method"].startswith("Grid"),
    ),
    ("simdnoise", lambda r: r["lib"] == "simdnoise"),
    ("fastnoise-lite", lambda r: r["lib"] == "fastnoise-lite"),
    ("noise-rs", lambda r: r["lib"] == "noise-rs"),
    ("libnoise", lambda r: r["lib"] == "libnoise"),
    ("opensimplex2", lambda r: r["lib"] == "opensimplex2"),
]


def load(root):
    groups = {}
    for dirpath, _dirs, files in os.walk(root):
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
                "rate": elements / ns * 1e3,  # Msamples/s
                "spread": (hi - lo) / 2 / ns * 100 if ns else 0.0,
                "points": elements,
            }
        )
    return groups


def fmt_rate(rate):
    return f"{rate:.0f}" if rate >= 100 else f"{rate:.1f}"


def surflet_best(rows):
    """surflet's faster single-threaded f32 call (fill or grid)."""
    cands = [
        r for r in rows
        if r["lib"] == "surflet" and r["prec"] == "f32" and r["method"] in ("fill", "grid")
    ]
    return max(cands, key=lambda r: r["rate"], default=None)


def best_peer(rows):
    return max((r for r in rows if r["lib"] != "surflet"), key=lambda r: r["rate"], default=None)


def peer_name(r):
    if r["lib"] == "quick-noise":
        return "quick-noise " + ("grid" if r["method"].startswith("Grid") else "batch")
    if r["lib"] == "FastNoise2":
        return "FastNoise2 " + ("grid" if "UniformGrid" in r["method"] else "positions")
    return r["lib"]


def ratio_cell(rows):
    s, p = surflet_best(rows), best_peer(rows)
    if not s or not p:
        return "–"
    return f"{s['rate'] / p['rate']:.2f} ({peer_name(p)})"


def summary(title, entries, groups):
    entries = [(g, label) for g, label in entries if g in groups]
    if not entries:
        return
    # Only the columns that some workload of the section has.
    cols = [
        (t, m) for t, m in COLUMNS
        if any(m(r) for g, _ in entries for r in groups[g])
    ]
    print(f"### {title}\n")
    if title in NOTES:
        print(NOTES[title] + "\n")
    print(
        "Msamples/s, one thread unless stated, f32 (noise-rs, libnoise and "
        "opensimplex2 compute in f64; the scalar peers are called per point in a loop).\n"
    )
    print("| workload | " + " | ".join(t for t, _ in cols) + " | surflet best / best peer |")
    print("|---|" + "--:|" * len(cols) + "---|")
    for g, label in entries:
        rows = groups[g]
        cells = []
        for t, m in cols:
            # surflet's columns are its f32 rows; a peer's is its fastest row.
            match = [r for r in rows if m(r) and (r["lib"] != "surflet" or r["prec"] == "f32")]
            cells.append(fmt_rate(max(r["rate"] for r in match)) if match else "–")
        print(f"| {label} | " + " | ".join(cells) + f" | {ratio_cell(rows)} |")
    print()


def details(name, rows):
    rows = sorted(rows, key=lambda r: r["ns_pt"])
    ref = surflet_best(rows)
    print(f"#### {name} ({rows[0]['points']:,} samples)\n")
    print("| library | call | precision | ISA | ns/sample | Msamples/s | rate vs surflet best |")
    print("|---|---|---|---|--:|--:|--:|")
    for r in rows:
        rel = f"{r['rate'] / ref['rate']:.2f}×" if ref else "–"
        lib = f"**{r['lib']}**" if r["lib"] == "surflet" else r["lib"]
        print(
            f"| {lib} | {r['method']} | {r['prec']} | {r['isa']} | "
            f"{r['ns_pt']:.3f} ±{r['spread']:.0f}% | {fmt_rate(r['rate'])} | {rel} |"
        )
    print()


def main():
    args = sys.argv[1:]
    summary_only = "--summary-only" in args
    args = [a for a in args if a != "--summary-only"]
    root = args[0] if args else os.path.join(HERE, "target", "criterion")
    groups = load(root)
    if not groups:
        sys.exit(f"no criterion results under {root}")
    known = {g for _, entries in SECTIONS for g, _ in entries}
    for title, entries in SECTIONS:
        summary(title, entries, groups)
    others = sorted(g for g in groups if g not in known)
    summary(OTHER, [(g, g) for g in others], groups)
    if summary_only:
        return
    order = [g for _, entries in SECTIONS for g, _ in entries] + others
    seen = set()
    for g in order:
        if g in groups and g not in seen:
            seen.add(g)
            details(g, groups[g])


if __name__ == "__main__":
    main()
