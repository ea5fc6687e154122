#!/usr/bin/env python3
"""Prints docs/QUALITY.md's cost-against-dimension table from criterion's
results of `cargo bench --bench nd`, with least-squares fits of the growth.

For each noise, ns per sample t(N) for N = 1..8 is fitted (ordinary least
squares, through the 8 points) by a + b·g(N) for three models of growth:
g = N² (the simplex claim: N + 1 corners, each an N-term dot product and an
N-term distance), g = N·2^N (the Perlin claim: 2^N corners, each an N-term
dot product) and g = 2^N. The residual (root mean square, relative to the
mean cost) says which model fits; the last columns give the ratio of the
cost at 8 and at 4 dimensions against each model's prediction of it.

Usage: nd_fit.py [CRITERION_DIR] (default: target/criterion next to this file)
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
KINDS = ["simplex", "perlin", "value"]
MODELS = [("N²", lambda n: n * n), ("N·2^N", lambda n: n * 2**n), ("2^N", lambda n: 2**n)]


def ns_per_sample(root, kind, d):
    path = os.path.join(root, f"nd {kind}", str(d), "new", "estimates.json")
    with open(path) as f:
        est = json.load(f)
    return est["median"]["point_estimate"] / (1 << 14)


def fit(xs, ys):
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    b = sxy / sxx
    a = my - b * mx
    rms = (sum((a + b * x - y) ** 2 for x, y in zip(xs, ys)) / n) ** 0.5
    return a, b, rms / my


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "target", "criterion")
    dims = list(range(1, 9))
    table = {k: [ns_per_sample(root, k, d) for d in dims] for k in KINDS}
    print("| noise | " + " | ".join(f"{d}D" for d in dims) + " |")
    print("|---|" + "--:|" * len(dims))
    for k in KINDS:
        print(f"| {k} | " + " | ".join(f"{t:.2f}" for t in table[k]) + " |")
    print()
    print("| noise | model | a (ns) | b (ns) | rms residual / mean | t(8)/t(4) measured | model's t(8)/t(4) |")
    print("|---|---|--:|--:|--:|--:|--:|")
    for k in KINDS:
        ys = table[k]
        for name, g in MODELS:
            xs = [g(d) for d in dims]
            a, b, r = fit(xs, ys)
            pred = (a + b * g(8)) / (a + b * g(4))
            print(f"| {k} | {name} | {a:.2f} | {b:.4f} | {r:.3f} | {ys[7] / ys[3]:.2f} | {pred:.2f} |")


if __name__ == "__main__":
    main()
