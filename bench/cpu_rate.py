#!/usr/bin/env python3
"""cpu_rate.py OLD NEW KIND DIM MODE REPS: Msamples per CPU-second of two
builds of bench/examples/instructions.rs (AVX2, one rayon thread): user
time of REPS calls less one call, best of 5, the two run alternately.
MODE is fill, grid or fbm; KIND value, perlin or simplex; DIM 2 or 3."""
import os, resource, subprocess, sys
old, new, kind, dim, mode, reps = sys.argv[1:6] + [int(sys.argv[6])]
bins = {'old': old, 'new': new}
n = {'2': 512 * 512, '3': 64 ** 3}[dim]
env = dict(os.environ, RAYON_NUM_THREADS='1')
def cpu(b, r):
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
    subprocess.run([b, kind, dim, str(r)] + ([mode] if mode != 'fill' else []), env=env, check=True, stdout=subprocess.DEVNULL)
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - before
best = {k: 1e9 for k in bins}
for _ in range(5):
    for k, b in bins.items():
        best[k] = min(best[k], cpu(b, reps) - cpu(b, 1))
rate = {k: n * (reps - 1) / v / 1e6 for k, v in best.items()}
print(f"{kind} {dim}D {mode}: old {rate['old']:.0f}, new {rate['new']:.0f} Msamples/CPU-s ({rate['new']/rate['old']:.2f}x)")
