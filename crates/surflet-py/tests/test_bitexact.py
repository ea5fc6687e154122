"""The Python module returns the same bits as the ``surflet`` command line
(values and gradients, every family noise, 1D-4D, float32 and float64), and
its grids the same bits as its point calls."""

import numpy as np
import pytest
import surflet
from conftest import bits, parse_cli, points_text

SEEDS = [0, 7, -1, 2**64 - 1, -(2**63), 1234567890123456789]


def random_points(rng, n, d, dtype):
    # Cell-scale points, a few far out, negative, and lattice points.
    p = rng.uniform(-20, 20, size=(n, d))
    p[: n // 8] *= 1e5
    p[n // 8 : n // 4] = np.round(p[n // 8 : n // 4])
    return p.astype(dtype)


def cli_sample(cli, args, points, d, gradient=True):
    code, out, err = cli(["sample", *args, *(["--gradient"] if gradient else [])], points_text(points))
    assert code == 0, err
    a = parse_cli(out, 1 + d if gradient else 1)
    return a[:, 0], a[:, 1:]


@pytest.mark.parametrize("name", surflet.NOISES)
@pytest.mark.parametrize("d", [1, 2, 3, 4])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_noise_matches_cli(cli, name, d, dtype):
    rng = np.random.default_rng(d * 100 + len(name))
    pts = random_points(rng, 400, d, dtype)
    for seed in SEEDS[:3] if d > 1 else SEEDS:
        n = surflet.Noise(name, seed=seed)
        v, g = n.sample(pts, gradient=True)
        assert v.dtype == dtype and g.dtype == dtype
        args = [name, f"--seed={seed}"] + (["--f32"] if dtype == np.float32 else [])
        cv, cg = cli_sample(cli, args, pts, d)
        assert (bits(v) == bits(cv)).all(), (name, d, seed)
        assert (bits(g) == bits(cg)).all(), (name, d, seed)


@pytest.mark.parametrize(
    "name,period",
    [("perlin", (8,)), ("value", (3, 5)), ("simplex", (6, 4)), ("simplex-value", (4, 6, 8)), ("perlin", (2, 3, 4, 5))],
)
def test_periodic_matches_cli(cli, name, period):
    d = len(period)
    pts = random_points(np.random.default_rng(5), 300, d, np.float64)
    n = surflet.Noise(name, seed=99, period=period)
    v, g = n.sample(pts, gradient=True)
    cv, cg = cli_sample(cli, [name, "--seed=99", "--period", ",".join(map(str, period))], pts, d)
    assert (bits(v) == bits(cv)).all() and (bits(g) == bits(cg)).all()


STACKS = [
    'noise = "perlin"\nseed = 3\nfrequency = 0.25\n[fractal]\nkind = "fbm"\noctaves = 5\n',
    'noise = "simplex"\nseed = "18446744073709551615"\n[fractal]\nkind = "ridged"\noctaves = 4\n'
    '[warp]\namplitude = 0.5\n',
    'noise = "value"\nfrequency = 0.5\nperiod = [8, 8]\n[fractal]\nkind = "billow"\noctaves = 3\n',
    'noise = "simplex-value"\n[fractal]\nkind = "hybrid"\noctaves = 6\n[warp]\nkind = "progressive"\n',
]


@pytest.mark.parametrize("toml", STACKS)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_stack_matches_cli(cli, tmp_path, toml, dtype):
    s = surflet.Stack.from_toml(toml)
    cfg = tmp_path / "stack.toml"
    cfg.write_text(toml)
    dims = [2] if "period" in toml else [1, 2, 3, 4]
    for d in dims:
        pts = random_points(np.random.default_rng(d), 200, d, dtype)
        v, g = s.sample(pts, gradient=True)
        args = ["--config", str(cfg)] + (["--f32"] if dtype == np.float32 else [])
        cv, cg = cli_sample(cli, args, pts, d)
        assert (bits(v) == bits(cv)).all() and (bits(g) == bits(cg)).all(), d


def grid_points(origin, step, shape, dtype):
    """The points of ``grid`` as the documentation computes them: in the
    grid's dtype, ``origin + index * step`` (numpy rounds each operation
    separately, as the library does)."""
    d = len(origin)
    axes = []
    for a in range(d):
        n = shape[d - 1 - a]
        i = np.arange(n).astype(dtype)
        axes.append(dtype(origin[a]) + i * dtype(step[a]))
    mesh = np.meshgrid(*axes[::-1], indexing="ij")  # array order: x last
    return np.stack(mesh[::-1], axis=-1)  # coordinates x first


@pytest.mark.parametrize("name", surflet.NOISES)
@pytest.mark.parametrize("d", [1, 2, 3, 4])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_grid_equals_sample(name, d, dtype):
    origin = (-3.3, 0.1, 7.0, -0.5)[:d]
    step = (0.37, 1 / 3, 0.05, 0.9)[:d]
    shape = (33, 20, 6, 5)[:d]
    n = surflet.Noise(name, seed=11)
    img, g = n.grid(origin, step, shape, gradient=True, dtype=dtype)
    assert img.shape == shape and g.shape == shape + (d,) and img.dtype == dtype
    pts = grid_points(origin, step, shape, dtype)
    v, gs = n.sample(pts, gradient=True)
    assert (bits(img) == bits(v)).all() and (bits(g) == bits(gs)).all()
    # The values alone are the same bits too.
    assert (bits(n.grid(origin, step, shape, dtype=dtype)) == bits(img)).all()


def test_image_convention():
    n = surflet.Noise("simplex", seed=7)
    x0, y0, dx, dy = 0.25, -1.5, 1 / 64, 1 / 32
    img = n.grid(origin=(x0, y0), step=(dx, dy), shape=(40, 60))
    j, i = 13, 37
    assert img[j, i] == n.sample(np.array([x0 + i * dx, y0 + j * dy]))


def test_stack_grid_equals_sample():
    s = surflet.Stack.from_toml(STACKS[1])
    for dtype in (np.float32, np.float64):
        img, g = s.grid((0.5, -2.0, 3.0), (0.11, 0.07, 0.3), (4, 9, 17), gradient=True, dtype=dtype)
        v, gs = s.sample(grid_points((0.5, -2.0, 3.0), (0.11, 0.07, 0.3), (4, 9, 17), dtype), gradient=True)
        assert (bits(img) == bits(v)).all() and (bits(g) == bits(gs)).all()


def test_windows_are_the_whole():
    n = surflet.Noise("perlin", seed=5)
    for dtype in (np.float32, np.float64):
        whole = n.grid((0.1, -7.0), (0.013, 0.029), (120, 90), dtype=dtype)
        part = n.grid((0.1, -7.0), (0.013, 0.029), (50, 40), start=(70, 30), dtype=dtype)
        assert (bits(part) == bits(whole[70:, 30:70])).all()


CELLULAR_DISTANCES = ["euclidean", "euclidean-squared", "manhattan", "chebyshev", "hybrid"]
CELLULAR_RETURNS = ["f1", "f2", "f2-f1", "f1+f2", "f1*f2", "f1/f2", "cell-value"]


@pytest.mark.parametrize("distance", CELLULAR_DISTANCES)
@pytest.mark.parametrize("ret", CELLULAR_RETURNS)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_cellular_options_match_cli(cli, distance, ret, dtype):
    # Every distance and return, a jitter of 0 (the cell centres), one in
    # between and the default 1, each dimension, and a periodic case:
    # values and gradients, bit for bit.
    k = CELLULAR_DISTANCES.index(distance) + CELLULAR_RETURNS.index(ret)
    for i, jitter in enumerate([None, 0.0, 0.37]):
        d = 1 + (k + i) % 4
        pts = random_points(np.random.default_rng(17 * k + i), 150, d, dtype)
        opts = {"distance": distance, "ret": ret}
        args = ["cellular", "--seed=5", "--distance", distance, "--return", ret]
        if jitter is not None:
            opts["jitter"] = jitter
            args += ["--jitter", repr(jitter)]
        if i == 2:
            period = tuple([3, 1, 4, 2][:d])
            opts["period"] = period
            args += ["--period", ",".join(map(str, period))]
        n = surflet.Noise("cellular", seed=5, **opts)
        assert (n.distance, n.ret) == (distance, ret)
        assert n.jitter == (1.0 if jitter is None else jitter)
        v, g = n.sample(pts, gradient=True)
        cv, cg = cli_sample(cli, args + (["--f32"] if dtype == np.float32 else []), pts, d)
        assert (bits(v) == bits(cv)).all(), (distance, ret, jitter, d)
        assert (bits(g) == bits(cg)).all(), (distance, ret, jitter, d)
        # The options change the field: not the default's values.
        if (distance, ret, jitter) != ("euclidean", "f1", None):
            dv = surflet.Noise("cellular", seed=5, **({"period": opts["period"]} if i == 2 else {})).sample(pts)
            assert not (bits(v) == bits(dv)).all(), (distance, ret, jitter)
