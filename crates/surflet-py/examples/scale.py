"""A large heightmap end to end: 6-octave fBm of simplex noise as a chunked
Dask array, computed on a LocalCluster of worker processes and written to
Zarr, with the wall time and each worker's peak memory measured, and
chunks checked against `surflet render --tile` (docs/scale.md).

    python crates/surflet-py/examples/scale.py --size 16384 --chunk 2048 \\
        --workers 2 --out /tmp/fbm.zarr --cli target/release/surflet

Pixel (i, j) is the world point (i/64, j/64), as `surflet render` draws it
by default; the noise is computed in float64 and stored as float32 (the
value rounded once, as render's TIFF and raw outputs store it), so
--size 16384 writes 1 GiB. It prints one JSON object with the
measurements.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

CONFIG = """version = 2
noise = "simplex"
seed = 7

[fractal]
kind = "fbm"
octaves = 6

[view]
origin = [0.0, 0.0]
scale = [0.015625, 0.015625]
"""
STEP = 1 / 64


def peak_rss_mib() -> float:
    """This process's peak resident memory so far (Linux: ru_maxrss in KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def cpu_seconds() -> float:
    """The CPU time this process has used, user and system."""
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--size", type=int, default=4096, help="pixels per side")
    p.add_argument("--chunk", type=int, default=1024, help="pixels per chunk side")
    p.add_argument("--workers", type=int, default=2, help="worker processes")
    p.add_argument("--threads", type=int, default=1,
                   help="threads of each worker (and of each chunk's grid call)")
    p.add_argument("--out", type=pathlib.Path, required=True, help="the Zarr store to write")
    p.add_argument("--cli", type=pathlib.Path,
                   help="a surflet binary: check --check chunks against render --tile")
    p.add_argument("--check", type=int, default=3, help="chunks to check (with --cli)")
    args = p.parse_args()
    if args.size % args.chunk:
        p.error("--chunk must divide --size, so that chunks are the CLI's tiles")

    import dask.array as da
    import distributed
    import zarr

    import surflet
    import surflet.dask

    stack = surflet.Stack.from_toml(CONFIG)
    shape = (args.size, args.size)
    heights = surflet.dask.grid(
        stack, (0.0, 0.0), (STEP, STEP), shape, chunks=args.chunk, threads=args.threads
    ).astype(np.float32)

    if args.out.exists():
        shutil.rmtree(args.out)
    started = time.perf_counter()
    with distributed.LocalCluster(
        n_workers=args.workers,
        threads_per_worker=args.threads,
        processes=True,
        dashboard_address=None,
    ) as cluster, distributed.Client(cluster) as client:
        cluster_up = time.perf_counter()
        client.run(lambda: __import__("surflet"))  # import before timing
        cpu0 = client.run(cpu_seconds)
        t0 = time.perf_counter()
        da.to_zarr(heights, str(args.out), compute=True)
        compute = time.perf_counter() - t0
        cpu = client.run(cpu_seconds)
        peaks = client.run(peak_rss_mib)
        workers = len(client.scheduler_info()["workers"])
    total = time.perf_counter() - started

    stored = zarr.open_array(str(args.out), mode="r")
    assert stored.shape == shape and stored.dtype == np.float32
    result = {
        "size": args.size,
        "chunk": args.chunk,
        "chunks": heights.npartitions,
        "workers": workers,
        "threads_per_worker": args.threads,
        "bytes": args.size * args.size * 4,
        "cluster_start_s": round(cluster_up - started, 2),
        "compute_and_write_s": round(compute, 2),
        "total_s": round(total, 2),
        "msamples_per_s": round(args.size * args.size / compute / 1e6, 2),
        # CPU time the workers spent on the render: with other work on the
        # machine, a better measure of the work than the wall time.
        "worker_cpu_s": round(sum(cpu[w] - cpu0[w] for w in cpu), 2),
        "worker_peak_rss_mib": sorted(round(v, 1) for v in peaks.values()),
        "load_average": [round(v, 2) for v in __import__("os").getloadavg()],
    }

    if args.cli:
        n = args.size // args.chunk
        rng = random.Random(args.size)
        picks = {(0, 0), (n - 1, n - 1)}
        while len(picks) < min(args.check, n * n):
            picks.add((rng.randrange(n), rng.randrange(n)))
        with tempfile.TemporaryDirectory() as tmp:
            config = pathlib.Path(tmp) / "fbm.toml"
            config.write_text(CONFIG)
            for i, j in sorted(picks):
                tile = pathlib.Path(tmp) / "tile.raw"
                subprocess.run(
                    [str(args.cli), "render", str(tile), "--config", str(config),
                     "--size", str(args.size), "--tile", f"{i},{j}", "--tiles", f"{n},{n}",
                     "--quiet"],
                    check=True,
                )
                want = np.fromfile(tile, dtype="<f4").reshape(args.chunk, args.chunk)
                c = args.chunk
                got = stored[j * c:(j + 1) * c, i * c:(i + 1) * c]
                if not (got.view(np.uint32) == want.view(np.uint32)).all():
                    print(f"chunk {i},{j} differs from surflet render --tile", file=sys.stderr)
                    return 1
        result["chunks_checked_against_cli"] = sorted(picks)

    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
