"""Stacks from keyword arguments, one per row of the library's key schema.

``surflet.Stack(**keys)`` knows no key itself: each keyword is a row of
``surflet::stack::keys::KEYS`` (its path, ``.`` spelled ``_``), and the value
goes through the config reader every front end uses. So a key added to the
schema is a keyword here with no edit, and these tests check that every
keyword reads, writes back and evaluates like the config it stands for.
"""

import numpy as np
import pytest

import surflet
from conftest import bits

# Between them, every key of the schema at a value other than its default.
FULL = [
    {
        "noise": "cellular",
        "distance": "manhattan",
        "return": "f2-f1",
        "jitter": 0.5,
        "seed": 2**64 - 3,
        "frequency": 2.5,
        "fractal": {
            "kind": "ridged",
            "octaves": 5,
            "lacunarity": 2.5,
            "gain": 0.4,
            "amplitude": 2.0,
            "normalize": False,
            "offset": 0.9,
            "weight": 1.5,
            "rotation": 0.5,
        },
        "warp": {
            "kind": "single",
            "noise": "simplex",
            "seed": 9,
            "frequency": 0.5,
            "amplitude": 0.25,
            "fractal": {
                "kind": "ridged",
                "octaves": 3,
                "lacunarity": 3.0,
                "gain": 0.6,
                "amplitude": 0.5,
                "normalize": False,
                "offset": 1.1,
                "weight": 1.25,
                "rotation": -1.5,
            },
        },
    },
    {
        "noise": "perlin",
        "period": [8, 4],
        "offset": [0.25, -1.5],
        "antialias": True,
        "footprint": 0.125,
        "fractal": {"kind": "hybrid", "octaves": 5, "offset": 0.75},
        "warp": {"kind": "progressive", "amplitude": 2.0},
    },
]


def flat(d, prefix=""):
    """A config dict's keys as keywords: ``fractal.octaves`` is
    ``fractal_octaves``."""
    out = {}
    for k, v in d.items():
        if isinstance(v, dict):
            out.update(flat(v, prefix + k + "_"))
        else:
            out[prefix + ("ret" if k == "return" else k)] = v
    return out


def points(d):
    rng = np.random.default_rng(5)
    return rng.uniform(-20, 20, size=(200, d))


def test_every_keyword_is_a_schema_key_and_these_cover_them():
    given = set()
    for d in FULL:
        given |= set(flat(d))
    assert given == set(surflet.Stack.KEYWORDS)


@pytest.mark.parametrize("i", range(len(FULL)))
def test_keywords_make_the_config_stack(i):
    by_dict = surflet.Stack.from_dict({"version": 2, **FULL[i]})
    by_keywords = surflet.Stack(**flat(FULL[i]))
    assert by_keywords == by_dict
    assert by_keywords.to_toml() == by_dict.to_toml()
    assert by_dict.keys() == flat(FULL[i])
    assert surflet.Stack(**by_dict.keys()) == by_dict
    p = points(2)
    for dtype in (np.float64, np.float32):
        v, g = by_keywords.sample(p.astype(dtype), gradient=True)
        w, h = by_dict.sample(p.astype(dtype), gradient=True)
        assert np.array_equal(bits(v), bits(w))
        assert np.array_equal(bits(g), bits(h))


def test_no_keywords_is_the_default_stack():
    s = surflet.Stack()
    assert s.keys() == {}
    assert s == surflet.Stack(seed=0)
    # The kind of a table makes the table, at its default too.
    w = surflet.Stack(warp_kind="single")
    assert w.keys() == {"warp_kind": "single"}
    assert surflet.Stack(**w.keys()) == w != s
    # Seeds as the command line takes them: a negative n is 2^64 + n.
    assert surflet.Stack(seed=-3).keys() == {"seed": 2**64 - 3}


def test_keys_of_a_command_line_config(cli, tmp_path):
    path = tmp_path / "c.toml"
    code, _, err = cli(
        [
            "render",
            str(tmp_path / "c.png"),
            "--size",
            "16",
            "--noise",
            "simplex",
            "--octaves",
            "5",
            "--warp",
            "single",
            "--save-config",
            str(path),
        ]
    )
    assert code == 0, err
    saved = surflet.Stack.from_toml(path.read_text())
    made = surflet.Stack(noise="simplex", fractal_octaves=5, warp_kind="single")
    assert saved.keys() == made.keys()
    p = points(2)
    assert np.array_equal(bits(saved.sample(p)), bits(made.sample(p)))


def test_an_unknown_keyword_is_a_type_error_listing_the_keys():
    with pytest.raises(TypeError, match="'octaves'.*fractal_octaves"):
        surflet.Stack(octaves=4)


@pytest.mark.parametrize(
    "kw, match",
    [
        ({"fractal_octaves": 0}, "fractal.octaves: octaves must be in 1..=32"),
        ({"frequency": -1.0}, "frequency: must be positive"),
        ({"noise": "no-such"}, 'noise: unknown noise "no-such"'),
        ({"seed": 2**64}, "seed: .*expected a seed"),
        ({"warp_fractal_gain": float("nan")}, "warp_fractal_gain: must be finite"),
        ({"offset": [0.5, float("inf")]}, "offset: must be finite"),
        ({"jitter": 0.5}, "jitter: only cellular noise has a jitter"),
        ({"footprint": 0.5}, "footprint: is the spacing that antialias fades"),
        ({"antialias": True, "footprint": 0.0}, "footprint: must be positive"),
    ],
)
def test_a_bad_value_is_a_value_error_naming_the_key(kw, match):
    with pytest.raises(ValueError, match=match):
        surflet.Stack(**kw)


def test_antialiased_points_take_the_footprint_the_caller_states():
    p = points(2)
    plain = surflet.Stack(noise="perlin", fractal_octaves=8)
    unstated = surflet.Stack(noise="perlin", fractal_octaves=8, antialias=True)
    with pytest.raises(ValueError, match="antialias: needs the spacing"):
        unstated.sample(p)
    faded = surflet.Stack(
        noise="perlin", fractal_octaves=8, antialias=True, footprint=0.125
    )
    # Samples an eighth of a unit apart: octaves 3-7 are gone, octave 2
    # keeps 43 %, so the values differ but stay in the plain range.
    v, w = plain.sample(p), faded.sample(p)
    assert not np.array_equal(bits(v), bits(w))
    assert np.abs(w).max() <= 1.0
    # A footprint too small to reach any octave fades nothing.
    fine = surflet.Stack(
        noise="perlin", fractal_octaves=8, antialias=True, footprint=1e-4
    )
    assert np.array_equal(bits(fine.sample(p)), bits(v))
