"""dtypes, shapes, out=, strides, threads, errors and round trips."""

import pickle
import threading

import numpy as np
import pytest
import surflet
from conftest import bits, points_text

N = surflet.Noise("simplex", seed=7)


def test_dtypes_are_kept():
    p = np.random.default_rng(1).uniform(-5, 5, (50, 3))
    assert N.sample(p).dtype == np.float64
    assert N.sample(p.astype(np.float32)).dtype == np.float32
    v32, g32 = N.sample(p.astype(np.float32), gradient=True)
    assert v32.dtype == g32.dtype == np.float32


def test_integers_and_lists_become_float64():
    ints = np.arange(30, dtype=np.int32).reshape(10, 3)
    v = N.sample(ints)
    assert v.dtype == np.float64
    assert (bits(v) == bits(N.sample(ints.astype(np.float64)))).all()
    assert (bits(N.sample(ints.tolist())) == bits(v)).all()
    assert (bits(N.sample(ints.astype(np.uint8))) == bits(v)).all()
    f16 = np.array([[0.5, 0.25, 1.5]], dtype=np.float16)
    assert N.sample(f16).dtype == np.float64


def test_shapes():
    p = np.random.default_rng(2).uniform(-5, 5, (4, 5, 6, 2))
    n2 = surflet.Noise("perlin", seed=1)
    v, g = n2.sample(p, gradient=True)
    assert v.shape == (4, 5, 6) and g.shape == (4, 5, 6, 2)
    flat = n2.sample(p.reshape(-1, 2))
    assert (bits(v.reshape(-1)) == bits(flat)).all()
    one = n2.sample(p[1, 2, 3])
    assert one.shape == () and one == v[1, 2, 3]
    assert n2.sample(np.zeros((0, 2))).shape == (0,)


def test_strided_readonly_and_broadcast_inputs():
    rng = np.random.default_rng(3)
    base = rng.uniform(-5, 5, (64, 8))
    p = base[::3, 1:7:2]  # non-contiguous, shape (22, 3)
    want = N.sample(np.ascontiguousarray(p))
    assert (bits(N.sample(p)) == bits(want)).all()
    f = np.asfortranarray(p)
    assert (bits(N.sample(f)) == bits(want)).all()
    r = p.copy()
    r.setflags(write=False)
    assert (bits(N.sample(r)) == bits(want)).all()
    rev = p[::-1]
    assert (bits(N.sample(rev)) == bits(want[::-1])).all()
    b = np.broadcast_to(np.array([0.5, 1.5, 2.5]), (10, 3))  # zero strides, read-only
    assert (N.sample(b) == N.sample(np.array([0.5, 1.5, 2.5]))).all()


def test_out():
    p = np.random.default_rng(4).uniform(-5, 5, (20, 3))
    out = np.empty(20)
    r = N.sample(p, out=out)
    assert r is out and (bits(out) == bits(N.sample(p))).all()
    vo, go = np.empty(20), np.empty((20, 3))
    v, g = N.sample(p, gradient=True, out=(vo, go))
    assert v is vo and g is go
    wv, wg = N.sample(p, gradient=True)
    assert (bits(vo) == bits(wv)).all() and (bits(go) == bits(wg)).all()
    img = np.empty((30, 40), dtype=np.float32)
    assert N.grid((0, 0), (0.1, 0.1), (30, 40), out=img) is img
    assert (bits(img) == bits(N.grid((0, 0), (0.1, 0.1), (30, 40), dtype=np.float32))).all()


def test_out_errors():
    p = np.zeros((20, 3))
    with pytest.raises(TypeError, match="dtype"):
        N.sample(p, out=np.empty(20, dtype=np.float32))
    with pytest.raises(ValueError, match="shape"):
        N.sample(p, out=np.empty(21))
    with pytest.raises(ValueError, match="C-contiguous"):
        N.sample(p, out=np.empty(40)[::2])
    ro = np.empty(20)
    ro.setflags(write=False)
    with pytest.raises(ValueError, match="cannot be written"):
        N.sample(p, out=ro)
    with pytest.raises(TypeError, match="pair"):
        N.sample(p, gradient=True, out=np.empty(20))
    with pytest.raises(TypeError, match="numpy array"):
        N.sample(p, out=[0.0] * 20)
    # The output overlapping the points is caught, not undefined.
    q = np.zeros((20, 1))
    with pytest.raises(ValueError, match="cannot be written"):
        surflet.Noise("perlin").sample(q, out=q[:, 0])


def test_shape_errors():
    for bad in (np.zeros((5, 5)), np.zeros((5, 0)), np.float64(1.0)):
        with pytest.raises(ValueError, match=r"shape \(\.\.\., D\)"):
            N.sample(bad)
    with pytest.raises(TypeError, match="real numbers"):
        N.sample(np.array([[1 + 2j, 0]]))
    with pytest.raises(TypeError, match="real numbers"):
        N.sample(np.array([["a", "b"]]))
    with pytest.raises(ValueError, match="same length"):
        N.grid((0, 0), (1,), (3, 3))
    with pytest.raises(ValueError, match="1 to 4"):
        N.grid((0,) * 5, (1,) * 5, (2,) * 5)
    with pytest.raises(TypeError, match="float32 or float64"):
        N.grid((0, 0), (1, 1), (3, 3), dtype=np.int32)


def test_name_seed_and_period_errors():
    with pytest.raises(ValueError, match='unknown noise "fractal"'):
        surflet.Noise("fractal")
    for seed in (2**64, -(2**63) - 1, 10**30):
        with pytest.raises(ValueError, match="out of range"):
            surflet.Noise("perlin", seed=seed)
    for seed in (1.5, "3", True):
        with pytest.raises(TypeError):
            surflet.Noise("perlin", seed=seed)
    assert surflet.Noise("perlin", seed=np.int64(-5)).seed == 2**64 - 5
    for period in ((0, 4), (4, 65537), (-2,), (1, 2, 3, 4, 5)):
        with pytest.raises(ValueError, match="period"):
            surflet.Noise("perlin", period=period)
    with pytest.raises(ValueError, match="y period must be even"):
        surflet.Noise("simplex", period=(4, 3))
    with pytest.raises(ValueError, match="no periodic form in 4D"):
        surflet.Noise("simplex", period=(4, 4, 4, 4))
    with pytest.raises(ValueError, match="2 entries, but the noise is evaluated in 3D"):
        surflet.Noise("perlin", period=(4, 4)).sample(np.zeros((1, 3)))
    with pytest.raises(TypeError):
        surflet.Noise("perlin", octaves=3)
    with pytest.raises(ValueError, match="threads"):
        N.sample(np.zeros((1, 2)), threads=0)


def test_errors_say_what_the_cli_says(cli, tmp_path):
    cases = [
        ('noise = "perlin"\n[fractal]\noctaves = 0\n'),
        ('noise = "perlin"\nfrequency = -1\n'),
        ('x = 1\n'),
        ('noise = "perlin"\n[fractal]\nkind = "fbm"\ngain = "half"\n'),
    ]
    for toml in cases:
        with pytest.raises(ValueError) as e:
            surflet.Stack.from_toml(toml)
        cfg = tmp_path / "bad.toml"
        cfg.write_text(toml)
        code, _, err = cli(["sample", "--config", str(cfg)], "0,0\n")
        assert code != 0 and str(e.value) in err, (str(e.value), err)
    with pytest.raises(ValueError) as e:
        surflet.Noise("simplex", seed=2**64)
    code, _, err = cli(["sample", "simplex", f"--seed={2**64}"], "0,0\n")
    assert code != 0 and str(e.value) in err
    with pytest.raises(ValueError) as e:
        surflet.Noise("simplex", period=(8, 7))
    code, _, err = cli(["sample", "simplex", "--period", "8,7"], "0,0\n")
    assert code != 0 and str(e.value) in err


def test_non_finite_coordinates_give_nan():
    p = np.array([[np.nan, 0.0], [np.inf, 1.0], [0.5, -np.inf], [1e300, 0.5], [0.25, 0.5]])
    for name in surflet.NOISES:
        v, g = surflet.Noise(name).sample(p, gradient=True)
        assert np.isnan(v[:3]).all() and np.isnan(g[:3]).all()
        assert np.isfinite(v[3:]).all() and (np.abs(v[3:]) <= 1).all()


def test_negative_seeds_are_twos_complement():
    p = np.random.default_rng(6).uniform(-5, 5, (50, 2))
    a = surflet.Noise("value", seed=-1).sample(p)
    b = surflet.Noise("value", seed=2**64 - 1).sample(p)
    c = surflet.Noise("value", seed=0).sample(p)
    assert (bits(a) == bits(b)).all() and not (bits(a) == bits(c)).all()


def test_threads_do_not_change_bits():
    p = np.random.default_rng(7).uniform(-50, 50, (300_000, 3))
    one = N.sample(p, threads=1)
    assert (bits(N.sample(p, threads=2)) == bits(one)).all()
    assert (bits(N.sample(p, threads=3)) == bits(one)).all()
    assert (bits(N.sample(p)) == bits(one)).all()
    g1 = N.grid((0, 0, 0), (0.1, 0.1, 0.1), (40, 64, 128), threads=1)
    assert (bits(N.grid((0, 0, 0), (0.1, 0.1, 0.1), (40, 64, 128), threads=2)) == bits(g1)).all()


def test_repr_pickle_and_equality():
    n = surflet.Noise("perlin", seed=-3, period=(4, 8))
    assert eval(repr(n), {"surflet": surflet}) == n
    assert pickle.loads(pickle.dumps(n)) == n
    assert n != surflet.Noise("perlin", seed=-3)
    assert hash(n) == hash(surflet.Noise("perlin", seed=2**64 - 3, period=[4, 8]))
    assert (n.name, n.seed, n.period) == ("perlin", 2**64 - 3, [4, 8])
    s = surflet.Stack.from_toml('noise = "simplex"\n[fractal]\noctaves = 3\n[warp]\namplitude = 0.25\n')
    assert eval(repr(s), {"surflet": surflet}) == s
    assert pickle.loads(pickle.dumps(s)) == s


def test_config_round_trips():
    toml = 'noise = "simplex"\nseed = "18446744073709551615"\nfrequency = 0.3\n[fractal]\nkind = "ridged"\noctaves = 5\n[warp]\namplitude = 0.5\n'
    s = surflet.Stack.from_toml(toml)
    p = np.random.default_rng(8).uniform(-5, 5, (100, 2))
    want = s.sample(p)
    for t in (
        surflet.Stack.from_toml(s.to_toml()),
        surflet.Stack.from_json(s.to_json()),
        surflet.Stack.from_dict(s.to_dict()),
    ):
        assert t == s and (bits(t.sample(p)) == bits(want)).all()
    assert s.to_dict()["seed"] in (2**64 - 1, str(2**64 - 1))
    with pytest.raises(TypeError):
        surflet.Stack.from_dict([1, 2])
    with pytest.raises(ValueError, match="empty"):
        surflet.Stack.from_dict({})


def test_stack_seed_from_dict_accepts_big_ints():
    s = surflet.Stack.from_dict({"noise": "perlin", "seed": 2**64 - 1})
    t = surflet.Stack.from_toml('noise = "perlin"\nseed = "18446744073709551615"\n')
    p = np.random.default_rng(9).uniform(-5, 5, (10, 2))
    assert (bits(s.sample(p)) == bits(t.sample(p))).all()


def test_negative_seeds_in_configs_are_twos_complement():
    # As on the command line and in Noise(seed=-1): n means 2**64 + n.
    want = surflet.Stack.from_dict({"noise": "perlin", "seed": 2**64 - 1})
    for s in (
        surflet.Stack.from_dict({"noise": "perlin", "seed": -1}),
        surflet.Stack.from_toml('noise = "perlin"\nseed = -1\n'),
        surflet.Stack.from_json('{"noise": "perlin", "seed": -1}'),
    ):
        assert s == want


def test_one_noise_from_many_python_threads():
    p = np.random.default_rng(10).uniform(-5, 5, (20_000, 3))
    want = N.sample(p)
    results = [None] * 8

    def work(k):
        results[k] = N.sample(p, threads=1 + k % 2)

    ts = [threading.Thread(target=work, args=(k,)) for k in range(8)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert all((bits(r) == bits(want)).all() for r in results)


def test_grid_sizes():
    assert N.grid((0, 0), (1, 1), (0, 5)).shape == (0, 5)
    for shape in ((-1, 5), (3, -2)):
        with pytest.raises(ValueError, match="non-negative"):
            N.grid((0, 0), (1, 1), shape)
    with pytest.raises(ValueError, match="non-negative"):
        N.grid((0, 0), (1, 1), (3, 3), start=(0, -1))
    # More than fits in memory: a clear error, not an attempt.
    with pytest.raises((MemoryError, ValueError)):
        N.grid((0, 0), (1, 1), (10**7, 10**7))
    with pytest.raises(ValueError, match="do not fit"):
        N.grid((0, 0, 0, 0), (1, 1, 1, 1), (2**62, 2**62, 2, 2))
