#!/usr/bin/env python3
"""Throughput of surflet's Python module against the Python noise libraries.

Usage: python bench/python/bench_peers.py [--quick] [--markdown]
                                          [--repeats N] [--min-time S] [--only LIB,LIB]

Two workloads (see README.md next to this file for the details):

  grid2d    a 1024x1024 grid of 2D noise at x = j/64, y = i/64 (i, j from 0):
            the timed call goes from (origin, step, shape) to the finished
            (H, W) array, so it includes building coordinate arrays for
            libraries that have no grid call.
  points3d  10^6 random 3D points, uniform in [0, 100)^3 from a fixed numpy
            seed; each library gets them once, untimed, in the layout its
            call wants (an (N, 3) array, a (3, N) float32 array, three 1-D
            arrays, or a Python list of tuples for scalar calls).

Every library is called through its fastest API we know of: a grid call where
it has one, a vectorised call on all points where it has one, otherwise its
scalar function in a Python loop. Pure-Python loops time only a prefix of the
workload (the first 10^4 points, or the first rows of the grid up to 10^4
samples); the table says how many samples each row timed. Throughput is
samples timed / median time, in millions of samples per second, after one
untimed warm-up call (which also pays any JIT compilation). A fast call is
repeated within one timing so that each timing lasts at least --min-time.

The libraries compute different noise definitions (different lattices,
gradients, hashes, scales); only the throughput is compared, never the values.
Libraries that are not installed are skipped and listed with the reason.
"""

import argparse
import gc
import importlib
import importlib.metadata
import math
import os
import platform
import statistics
import sys
import time
from itertools import starmap

import numpy as np

SEED = 1
POINTS_SEED = 20240614  # numpy default_rng seed of the points3d workload
STEP = 1.0 / 64.0  # grid spacing: 16 lattice cells across a 1024 grid

# (distribution name for importlib.metadata, module to import)
LIBRARIES = [
    ("surflet", "surflet"),
    ("noise", "noise"),
    ("opensimplex", "opensimplex"),
    ("pyfastnoiselite", "pyfastnoiselite.pyfastnoiselite"),
    ("vnoise", "vnoise"),
    ("perlin-noise", "perlin_noise"),
]


class Config:
    def __init__(self, quick, repeats, min_time):
        self.quick = quick
        if quick:
            self.H = self.W = 256
            self.N = 10**5
            self.n_py = 500  # samples timed for pure-Python loops
            self.repeats = repeats or 3
            self.min_time = 0.02 if min_time is None else min_time
            self.max_case_time = 1.0
        else:
            self.H = self.W = 1024
            self.N = 10**6
            self.n_py = 10**4
            self.repeats = repeats or 7
            self.min_time = 0.2 if min_time is None else min_time
            self.max_case_time = 15.0


class Case:
    """One row: `fn()` computes `n` samples of `workload`."""

    def __init__(self, workload, library, noise, api, dtype, threads, n, fn,
                 expect_shape, setup=None, teardown=None):
        self.workload = workload
        self.library = library
        self.noise = noise
        self.api = api
        self.dtype = dtype
        self.threads = threads
        self.n = n
        self.fn = fn
        self.expect_shape = expect_shape
        self.setup = setup
        self.teardown = teardown
        self.result = None  # (median seconds per call, repeats, calls per repeat)
        self.problem = None


# ---------------------------------------------------------------- environment

def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def cpu_isa():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("flags"):
                    flags = set(line.split(":", 1)[1].split())
                    wanted = ["sse4_1", "avx2", "fma", "avx512f"]
                    return ", ".join(w for w in wanted if w in flags) or "none of sse4.1/avx2/avx512f"
    except OSError:
        pass
    return "unknown"


def usable_cores():
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count()


def version_of(dist):
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return None


def load_libraries(only):
    mods, missing = {}, {}
    for dist, modname in LIBRARIES:
        if only and dist not in only:
            continue
        try:
            mods[dist] = importlib.import_module(modname)
        except Exception as e:  # ImportError, or a broken build
            missing[dist] = f"{type(e).__name__}: {e}".splitlines()[0]
    return mods, missing


def opensimplex_has_numba():
    """opensimplex JIT-compiles its internals with numba when numba imports,
    and otherwise runs them as plain Python."""
    try:
        from opensimplex import internals
    except Exception:
        return False
    if not getattr(internals.njit, "__module__", "").startswith("numba"):
        return False
    import numba

    return not numba.config.DISABLE_JIT


# ---------------------------------------------------------------- cases

def grid_axes(cfg, rows=None, dtype=np.float64):
    xs = np.arange(cfg.W, dtype=dtype) * dtype(STEP)
    ys = np.arange(cfg.H if rows is None else rows, dtype=dtype) * dtype(STEP)
    return xs, ys


def grid_coords_last(cfg, dtype):
    """(H, W, 2) array of (x, y) for the grid, as a point-array call wants."""
    xs, ys = grid_axes(cfg, dtype=dtype)
    c = np.empty((cfg.H, cfg.W, 2), dtype=dtype)
    c[:, :, 0] = xs[None, :]
    c[:, :, 1] = ys[:, None]
    return c


def grid_coords_first(cfg, dtype):
    """(2, H*W) array of (x, y) rows, as pyfastnoiselite wants."""
    xs, ys = grid_axes(cfg, dtype=dtype)
    c = np.empty((2, cfg.H, cfg.W), dtype=dtype)
    c[0] = xs[None, :]
    c[1] = ys[:, None]
    return c.reshape(2, -1)


def py_rows(cfg):
    """Grid rows a pure-Python loop times: about cfg.n_py samples."""
    return max(1, min(cfg.H, math.ceil(cfg.n_py / cfg.W)))


def surflet_cases(cfg, mod, pts, ncores):
    cases = []
    for noise in ("simplex", "perlin"):
        n = mod.Noise(noise, seed=SEED)
        for dtype in (np.float64, np.float32):
            dname = np.dtype(dtype).name
            p = pts if dtype is np.float64 else pts.astype(np.float32)
            for threads in (1, None):
                tlabel = "1" if threads == 1 else f"all ({ncores})"
                cases.append(Case(
                    "grid2d", "surflet", noise, "Noise.grid", dname, tlabel, cfg.H * cfg.W,
                    lambda n=n, dtype=dtype, threads=threads: n.grid(
                        origin=(0.0, 0.0), step=(STEP, STEP), shape=(cfg.H, cfg.W),
                        dtype=dtype, threads=threads),
                    (cfg.H, cfg.W)))
                cases.append(Case(
                    "grid2d", "surflet", noise, "Noise.sample on (H, W, 2) coords", dname, tlabel,
                    cfg.H * cfg.W,
                    lambda n=n, dtype=dtype, threads=threads: n.sample(
                        grid_coords_last(cfg, dtype), threads=threads),
                    (cfg.H, cfg.W)))
                cases.append(Case(
                    "points3d", "surflet", noise, "Noise.sample on (N, 3)", dname, tlabel, len(p),
                    lambda n=n, p=p, threads=threads: n.sample(p, threads=threads),
                    (len(p),)))
    return cases


def noise_cases(cfg, mod, pts):
    # caseman's `noise`: C functions taking Python floats, one sample a call.
    cases = []
    plist = [tuple(r) for r in pts.tolist()]
    for noise, f2, f3, n2, n3 in (("perlin", mod.pnoise2, mod.pnoise3, "pnoise2", "pnoise3"),
                                  ("simplex", mod.snoise2, mod.snoise3, "snoise2", "snoise3")):
        def grid(f=f2):
            xs, ys = (a.tolist() for a in grid_axes(cfg))
            return np.array([f(x, y) for y in ys for x in xs]).reshape(cfg.H, cfg.W)
        cases.append(Case("grid2d", "noise", noise, f"{n2} in a Python loop", "float64", "1",
                          cfg.H * cfg.W, grid, (cfg.H, cfg.W)))
        cases.append(Case("points3d", "noise", noise, f"{n3} in a Python loop", "float64", "1",
                          len(plist),
                          lambda f=f3: np.fromiter(starmap(f, plist), np.float64, count=len(plist)),
                          (len(plist),)))
    return cases


def opensimplex_cases(cfg, mod, pts, ncores):
    cases = []
    jit = opensimplex_has_numba()
    gen = mod.OpenSimplex(SEED)
    if jit:
        import numba

        default_threads = numba.config.NUMBA_NUM_THREADS
        suffix = " (numba JIT)"
        rows = cfg.H
        npts = len(pts)
        thread_opts = [(1, "1"), (default_threads, f"all ({default_threads})")]
    else:
        numba = None
        suffix = " (plain Python, no numba)"
        rows = py_rows(cfg)
        npts = min(len(pts), cfg.n_py)
        thread_opts = [(None, "1")]
    for nthreads, tlabel in thread_opts:
        def setup(nthreads=nthreads):
            if numba is not None:
                numba.set_num_threads(nthreads)

        def teardown():
            if numba is not None:
                numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)

        def grid():
            xs, ys = grid_axes(cfg, rows)
            return gen.noise2array(xs, ys)
        cases.append(Case("grid2d", "opensimplex", "opensimplex", "OpenSimplex.noise2array" + suffix,
                          "float64", tlabel, rows * cfg.W, grid, (rows, cfg.W), setup, teardown))
    # noise3array(x, y, z) only evaluates the tensor-product grid
    # z.size x y.size x x.size, so scattered points need the scalar call.
    plist = [tuple(r) for r in pts[:npts].tolist()]
    f = gen.noise3
    cases.append(Case("points3d", "opensimplex", "opensimplex",
                      "OpenSimplex.noise3 in a Python loop" + suffix, "float64", "1", npts,
                      lambda: np.fromiter(starmap(f, plist), np.float64, count=len(plist)),
                      (npts,)))
    return cases


def pyfastnoiselite_cases(cfg, mod, pts):
    cases = []
    coords3 = np.ascontiguousarray(pts.T, dtype=np.float32)  # (3, N)
    for noise, ntype in (("simplex", mod.NoiseType.NoiseType_OpenSimplex2),
                         ("perlin", mod.NoiseType.NoiseType_Perlin)):
        fnl = mod.FastNoiseLite()
        fnl.seed = SEED
        fnl.noise_type = ntype
        fnl.fractal_type = mod.FractalType.FractalType_None
        fnl.frequency = 1.0  # coordinates as given (its default is 0.01)
        label = "OpenSimplex2" if noise == "simplex" else "Perlin"
        cases.append(Case(
            "grid2d", "pyfastnoiselite", label, "FastNoiseLite.gen_from_coords on (2, H*W) coords",
            "float32", "1", cfg.H * cfg.W,
            lambda fnl=fnl: fnl.gen_from_coords(grid_coords_first(cfg, np.float32)).reshape(cfg.H, cfg.W),
            (cfg.H, cfg.W)))
        cases.append(Case(
            "points3d", "pyfastnoiselite", label, "FastNoiseLite.gen_from_coords on (3, N)",
            "float32", "1", coords3.shape[1],
            lambda fnl=fnl: fnl.gen_from_coords(coords3), (coords3.shape[1],)))
    return cases


def vnoise_cases(cfg, mod, pts):
    gen = mod.Noise(SEED)
    x, y, z = (np.ascontiguousarray(pts[:, k]) for k in range(3))

    def grid():
        xs, ys = grid_axes(cfg)
        # grid_mode=True evaluates the outer product, indexed [x, y]; .T is a view.
        return gen.noise2(xs, ys, grid_mode=True).T
    return [
        Case("grid2d", "vnoise", "perlin", "Noise.noise2(xs, ys, grid_mode=True)", "float64", "1",
             cfg.H * cfg.W, grid, (cfg.H, cfg.W)),
        Case("points3d", "vnoise", "perlin", "Noise.noise3(x, y, z, grid_mode=False)", "float64", "1",
             len(x), lambda: gen.noise3(x, y, z, grid_mode=False), (len(x),)),
    ]


def perlin_noise_cases(cfg, mod, pts):
    gen = mod.PerlinNoise(octaves=1, seed=SEED)  # octaves=1: coordinates as given
    rows = py_rows(cfg)
    npts = min(len(pts), cfg.n_py)
    plist = pts[:npts].tolist()

    def grid():
        xs, ys = (a.tolist() for a in grid_axes(cfg, rows))
        return np.array([gen([x, y]) for y in ys for x in xs]).reshape(rows, cfg.W)
    return [
        Case("grid2d", "perlin-noise", "perlin", "PerlinNoise([x, y]) in a Python loop", "float64",
             "1", rows * cfg.W, grid, (rows, cfg.W)),
        Case("points3d", "perlin-noise", "perlin", "PerlinNoise([x, y, z]) in a Python loop",
             "float64", "1", npts, lambda: np.array([gen(p) for p in plist]), (npts,)),
    ]


# ---------------------------------------------------------------- timing

def check(case, out):
    out = np.asarray(out)
    if out.shape != case.expect_shape:
        return f"result shape {out.shape}, expected {case.expect_shape}"
    if not np.all(np.isfinite(out)):
        return "non-finite values in the result"
    if out.size > 1 and float(np.std(out)) == 0.0:
        return "constant result"
    return None


def measure(case, cfg):
    if case.setup:
        case.setup()
    try:
        gc.collect()
        t0 = time.perf_counter()
        out = case.fn()  # warm-up: caches, page faults, JIT compilation
        first = time.perf_counter() - t0
        case.problem = check(case, out)
        del out
        if first < 1.0:  # calibrate on a call that paid no JIT compilation
            t0 = time.perf_counter()
            case.fn()
            first = time.perf_counter() - t0
        inner = max(1, math.ceil(cfg.min_time / max(first, 1e-9)))
        times = []
        gc_was_on = gc.isenabled()
        gc.disable()
        start = time.perf_counter()
        try:
            for r in range(cfg.repeats):
                t0 = time.perf_counter()
                for _ in range(inner):
                    case.fn()
                times.append((time.perf_counter() - t0) / inner)
                if r + 1 >= 3 and time.perf_counter() - start > cfg.max_case_time:
                    break
        finally:
            if gc_was_on:
                gc.enable()
        case.result = (statistics.median(times), len(times), inner)
    finally:
        if case.teardown:
            case.teardown()


# ---------------------------------------------------------------- output

WORKLOAD_TITLES = {
    "grid2d": "2D grid {H}x{W}, spacing 1/64 (x = j/64, y = i/64)",
    "points3d": "{N:,} random 3D points, uniform in [0, 100)^3",
}

COLUMNS = ["library", "noise", "API", "dtype", "threads", "samples timed", "Msamples/s"]


def rows_of(cases, workload):
    rows = []
    for c in cases:
        if c.workload != workload:
            continue
        if c.result is None:
            rate = "failed"
        else:
            med = c.result[0]
            rate = f"{c.n / med / 1e6:.3g}" if med > 0 else "inf"
        if c.problem:
            rate += " (!)"
        rows.append([c.library, c.noise, c.api, c.dtype, c.threads, f"{c.n:,}", rate])
    return rows


def print_table(rows, markdown):
    if markdown:
        print("| " + " | ".join(COLUMNS) + " |")
        print("|" + "|".join("--:" if h in ("threads", "samples timed", "Msamples/s") else "---"
                             for h in COLUMNS) + "|")
        for r in rows:
            print("| " + " | ".join(r) + " |")
    else:
        widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(COLUMNS)]
        right = {4, 5, 6}
        fmt = lambda r: "  ".join(s.rjust(w) if i in right else s.ljust(w)
                                  for i, (s, w) in enumerate(zip(r, widths)))
        print(fmt(COLUMNS))
        print("  ".join("-" * w for w in widths))
        for r in rows:
            print(fmt(r))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true",
                    help="smoke run: 256x256 grid, 10^5 points, 3 repeats (< 20 s)")
    ap.add_argument("--markdown", action="store_true", help="print markdown tables")
    ap.add_argument("--repeats", type=int, default=None,
                    help="timed repeats per row (default 7, or 3 with --quick)")
    ap.add_argument("--min-time", type=float, default=None,
                    help="least seconds per timed repeat; fast calls run several times "
                         "within one (default 0.2, or 0.02 with --quick)")
    ap.add_argument("--only", default="",
                    help="comma-separated libraries to run (names as in the table)")
    args = ap.parse_args()
    cfg = Config(args.quick, args.repeats, args.min_time)
    only = {s.strip() for s in args.only.split(",") if s.strip()}
    unknown = only - {dist for dist, _ in LIBRARIES}
    if unknown:
        ap.error(f"unknown --only names {sorted(unknown)}; choose from "
                 + ", ".join(dist for dist, _ in LIBRARIES))
    wall0 = time.perf_counter()
    load0 = os.getloadavg() if hasattr(os, "getloadavg") else None

    mods, missing = load_libraries(only)
    ncores = usable_cores()
    rng = np.random.default_rng(POINTS_SEED)
    pts = rng.uniform(0.0, 100.0, size=(cfg.N, 3))

    builders = {
        "surflet": lambda m: surflet_cases(cfg, m, pts, ncores),
        "noise": lambda m: noise_cases(cfg, m, pts),
        "opensimplex": lambda m: opensimplex_cases(cfg, m, pts, ncores),
        "pyfastnoiselite": lambda m: pyfastnoiselite_cases(cfg, m, pts),
        "vnoise": lambda m: vnoise_cases(cfg, m, pts),
        "perlin-noise": lambda m: perlin_noise_cases(cfg, m, pts),
    }
    cases = []
    for dist, _ in LIBRARIES:
        if dist in mods:
            try:
                cases += builders[dist](mods[dist])
            except Exception as e:
                missing[dist] = f"could not set up: {type(e).__name__}: {e}"
    print(f"timing {len(cases)} rows", end="", file=sys.stderr, flush=True)
    for c in cases:
        try:
            measure(c, cfg)
        except Exception as e:
            c.result = None
            c.problem = f"{type(e).__name__}: {e}".splitlines()[0]
        print(".", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)

    # ---- report
    h = "## " if args.markdown else ""
    bullet = "* " if args.markdown else "  "
    print(f"{h}surflet against Python noise libraries" + (" (--quick smoke run)" if cfg.quick else ""))
    print()
    print(f"{bullet}CPU: {cpu_model()} ({cpu_isa()}); {ncores} usable cores "
          f"(os.cpu_count() = {os.cpu_count()})")
    if load0 is not None:
        print(f"{bullet}load average at start: {load0[0]:.2f} {load0[1]:.2f} {load0[2]:.2f}")
    print(f"{bullet}Python {platform.python_version()} ({platform.python_implementation()}), "
          f"numpy {np.__version__}, {platform.system()} {platform.machine()}")
    vers = []
    for dist, _ in LIBRARIES:
        if only and dist not in only:
            continue
        v = version_of(dist)
        vers.append(f"{dist} {v}" if dist in mods and v else f"{dist} (skipped)")
    nb = version_of("numba")
    print(f"{bullet}versions: " + ", ".join(vers)
          + (f"; numba {nb}" if nb else "; numba not installed"))
    print(f"{bullet}Msamples/s = samples timed / median seconds per call; "
          f"{cfg.repeats} timed repeats (at least 3; fewer if a row passes "
          f"{cfg.max_case_time:g} s) after one warm-up call")
    for dist, why in missing.items():
        print(f"{bullet}SKIPPED {dist}: {why}")
    for workload in ("grid2d", "points3d"):
        rows = rows_of(cases, workload)
        if not rows:
            continue
        print()
        title = WORKLOAD_TITLES[workload].format(H=cfg.H, W=cfg.W, N=cfg.N)
        print(f"{'### ' if args.markdown else ''}{workload}: {title}")
        print()
        print_table(rows, args.markdown)
    problems = [c for c in cases if c.problem]
    notes = [
        "Rows that time fewer samples than the workload (pure-Python loops) time a prefix "
        "of it: the first grid rows, or the first points; throughput is per sample.",
        "grid2d rows include building any coordinate arrays the call needs; points3d rows "
        "get the points ready-made in the call's layout.",
        "The libraries compute different noise functions (lattices, gradients, ranges); "
        "this compares throughput only.",
    ]
    print()
    for n in notes:
        print(f"{bullet}{n}")
    for c in problems:
        print(f"{bullet}(!) {c.workload} {c.library} {c.noise} {c.api} {c.dtype} "
              f"threads={c.threads}: {c.problem}")
    print(f"{bullet}total wall time {time.perf_counter() - wall0:.1f} s")


if __name__ == "__main__":
    main()
