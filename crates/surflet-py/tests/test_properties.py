"""Property tests: random shapes, dtypes and options never crash, and the
documented range holds."""

import numpy as np
import surflet
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

dtypes = st.sampled_from([np.float32, np.float64])
names = st.sampled_from(surflet.NOISES)
seeds = st.integers(min_value=-(2**63), max_value=2**64 - 1)


@st.composite
def point_arrays(draw):
    d = draw(st.integers(1, 4))
    lead = draw(hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=6))
    dtype = draw(dtypes)
    elems = st.floats(-1e6, 1e6, allow_nan=False, width=32 if dtype == np.float32 else 64)
    return draw(hnp.arrays(dtype, lead + (d,), elements=elems))


@settings(max_examples=300, deadline=None)
@given(point_arrays(), names, seeds, st.booleans())
def test_noise_range_and_shapes(p, name, seed, gradient):
    n = surflet.Noise(name, seed=seed)
    r = n.sample(p, gradient=gradient)
    v, g = r if gradient else (r, None)
    assert v.shape == p.shape[:-1] and v.dtype == p.dtype
    assert np.isfinite(v).all() and (np.abs(v) <= 1).all()
    if gradient:
        assert g.shape == p.shape and np.isfinite(g).all()


@settings(max_examples=150, deadline=None)
@given(
    names,
    seeds,
    st.sampled_from(["fbm", "ridged", "billow", "turbulence", "hybrid"]),
    st.integers(1, 8),
    st.floats(1.5, 3.0),
    st.floats(0.2, 0.9),
    st.booleans(),
    dtypes,
    st.integers(1, 4),
)
def test_normalized_stacks_stay_in_range(name, seed, kind, octaves, lac, gain, warp, dtype, d):
    desc = {
        "noise": name,
        "seed": seed % 2**64,
        "fractal": {"kind": kind, "octaves": octaves, "lacunarity": lac, "gain": gain},
    }
    if warp:
        desc["warp"] = {"amplitude": 0.5}
    s = surflet.Stack.from_dict(desc)
    p = np.random.default_rng(seed % 2**32).uniform(-30, 30, (256, d)).astype(dtype)
    v = s.sample(p)
    assert np.isfinite(v).all() and (np.abs(v) <= 1).all(), (v.min(), v.max())


@settings(max_examples=100, deadline=None)
@given(
    names,
    st.lists(st.integers(0, 9), min_size=1, max_size=4),
    st.lists(st.floats(-1e3, 1e3, allow_nan=False), min_size=4, max_size=4),
    st.lists(st.floats(-10, 10, allow_nan=False), min_size=4, max_size=4),
    dtypes,
)
def test_grids_any_shape(name, shape, origin, step, dtype):
    d = len(shape)
    n = surflet.Noise(name, seed=3)
    img = n.grid(origin[:d], step[:d], shape, dtype=dtype)
    assert img.shape == tuple(shape) and img.dtype == dtype
    assert np.isfinite(img).all() and (np.abs(img) <= 1).all()
