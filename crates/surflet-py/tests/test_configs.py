"""One config document, read and written by every front end.

The command line (``render --save-config``, ``sample --save-config``), the
Python module (``Stack`` and ``Graph``) and the explorer's server
(``POST /api/export``) each write config files; each reads the others'. A
file read and written back is the same text, and every reader draws or
samples the same bits from it.
"""

import json
import pathlib
import subprocess
import urllib.request

import numpy as np
import pytest

import surflet
from conftest import _find_cli, bits, points_text


@pytest.fixture(scope="module")
def server():
    """``surflet serve`` on a free loopback port; yields a POST function."""
    proc = subprocess.Popen(
        [str(_find_cli()), "serve", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    line = proc.stdout.readline()
    assert line.startswith("surflet serve: listening on "), line
    url = line.split(" on ", 1)[1].strip()

    def post(path, body, headers=False):
        req = urllib.request.Request(
            url + path.lstrip("/"),
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(req, timeout=120) as r:
            return (r.read(), r.headers) if headers else r.read()

    yield post
    proc.terminate()
    proc.wait(timeout=30)


def render(cli, tmp_path, config, name):
    """The PNG that ``surflet render --config`` makes of ``config`` (a path)."""
    out = tmp_path / f"{name}.png"
    code, _, err = cli(["render", str(out), "--config", str(config), "--quiet"])
    assert code == 0, err
    return out.read_bytes()


def write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text)
    return p


POINTS = np.random.default_rng(30).uniform(-3, 3, (64, 2))

# What the command line saves: a stack with every table, and a graph.
CLI_CASES = [
    (
        "stack",
        ["--octaves", "3", "--seed", "-5", "--fractal", "ridged", "--ramp", "terrain",
         "--size", "40x24", "--origin", "1.5,-2", "--scale", "1/24", "--warp-amplitude", "0.25"],
    ),
    (
        "graph",
        ["--expr", "select(fbm(simplex(seed=1), octaves=4), perlin(seed=2) * 0.5, "
         "control=value(seed=3, frequency=0.25), falloff=0.1) + 0.1",
         "--size", "32x32", "--mode", "gray", "--range", "-1,1.25"],
    ),
]


@pytest.mark.parametrize("case,args", CLI_CASES, ids=[c[0] for c in CLI_CASES])
def test_cli_files_read_everywhere(cli, server, tmp_path, case, args):
    cls = surflet.Graph if case == "graph" else surflet.Stack
    texts = {}
    for ext in ("toml", "json"):
        cfg = tmp_path / f"saved.{ext}"
        code, _, err = cli(["render", str(tmp_path / "first.png"), *args, "--save-config", str(cfg)])
        assert code == 0, err
        texts[ext] = cfg.read_text()
    assert texts["toml"].startswith("version = 2\n")
    png = render(cli, tmp_path, tmp_path / "saved.toml", "cli")
    assert png == (tmp_path / "first.png").read_bytes()

    # Python reads both and writes back the same text.
    from_toml = cls.from_toml(texts["toml"])
    from_json = cls.from_json(texts["json"])
    assert from_toml == from_json
    assert from_toml.to_toml() == texts["toml"]
    assert from_json.to_json() == texts["json"]
    assert cls.from_dict(from_toml.to_dict()) == from_toml
    assert from_toml.view["size"] == [int(n) for n in args[args.index("--size") + 1].split("x")]

    # The server reads either and exports the same text.
    for body in ({"toml": texts["toml"]}, {"config": json.loads(texts["json"])}):
        exported = json.loads(server("/api/export", body))
        assert exported["toml"] == texts["toml"]
        assert exported["json"] == texts["json"]
        # ... and renders the command line's pixels at the saved size.
        assert server("/api/render", body) == png

    # The command line reads what Python and the server wrote.
    py = write(tmp_path, "python.toml", from_json.to_toml())
    assert render(cli, tmp_path, py, "python") == png
    srv = write(tmp_path, "server.json", exported["json"])
    assert render(cli, tmp_path, srv, "server") == png


def test_sample_files_read_everywhere(cli, tmp_path):
    cfg = tmp_path / "sample.toml"
    pts = points_text(POINTS)
    args = ["sample", "perlin", "--octaves", "4", "--seed", "-2", "--frequency", "0.7"]
    code, out, err = cli([*args, "--save-config", str(cfg)], pts)
    assert code == 0, err
    text = cfg.read_text()
    assert text.startswith("version = 2\n")
    s = surflet.Stack.from_toml(text)
    assert s.to_toml() == text
    want = np.array([float(v) for v in out.split()])
    assert (bits(s.sample(POINTS)) == bits(want)).all()
    # And the command line samples Python's file the same.
    py = write(tmp_path, "python.json", s.to_json())
    code, again, err = cli(["sample", "--config", str(py)], pts)
    assert code == 0 and again == out, err


def test_python_files_read_everywhere(cli, server, tmp_path):
    stack = surflet.Stack.from_dict(
        {"version": 2, "noise": "opensimplex2", "seed": -9, "frequency": 0.5,
         "fractal": {"kind": "billow", "octaves": 5}, "view": {"size": [48, 32]},
         "pixels": {"mode": "ramp", "ramp": "terrain"}}
    )
    graph = surflet.Graph.parse("abs(fbm(perlin(seed=4), octaves=3)) * 2 - 1")
    for obj in (stack, graph):
        for ext, text in (("toml", obj.to_toml()), ("json", obj.to_json())):
            assert text.startswith("version = 2\n") or json.loads(text)["version"] == 2
            f = write(tmp_path, f"py.{ext}", text)
            png = render(cli, tmp_path, f, "py")
            # The command line saves it with its defaults filled in; that
            # file draws the same, and Python reads it as the same noise.
            again = tmp_path / f"again.{ext}"
            code, _, err = cli(["render", str(tmp_path / "x.png"), "--config", str(f),
                                "--save-config", str(again)])
            assert code == 0, err
            assert render(cli, tmp_path, again, "again") == png
            back = type(obj).from_toml(again.read_text()) if ext == "toml" else type(obj).from_json(again.read_text())
            assert (bits(back.sample(POINTS)) == bits(obj.sample(POINTS))).all()
            # The server draws Python's file as the command line does.
            body = {"toml": text} if ext == "toml" else {"config": json.loads(text)}
            assert server("/api/render", body) == png


def test_graph_api():
    g = surflet.Graph.parse("fbm(simplex(seed=1), octaves=3) * 0.5 + 0.25")
    assert surflet.Graph.parse(g.to_expr()) == g
    assert str(g) == g.to_expr()
    assert eval(repr(g), {"surflet": surflet}) == g
    import pickle

    assert pickle.loads(pickle.dumps(g)) == g
    v, grad = g.sample(POINTS, gradient=True)
    assert v.shape == (64,) and grad.shape == (64, 2)
    # The graph's value is the expression's: 0.5 * fbm + 0.25.
    fbm = surflet.Graph.parse("fbm(simplex(seed=1), octaves=3)").sample(POINTS)
    assert (bits(v) == bits(fbm * 0.5 + 0.25)).all()
    img = g.grid((0.0, 0.0), (0.25, 0.25), (4, 8))
    assert img.shape == (4, 8)
    assert img[2, 3] == g.sample(np.array([0.75, 0.5]))
    with pytest.raises(ValueError, match=r"column \d+"):
        surflet.Graph.parse("fbm(simplex(), octaves=5")


def test_each_class_names_the_other():
    with pytest.raises(ValueError, match=r"surflet\.Graph\.from_toml"):
        surflet.Stack.from_toml('version = 2\n[graph]\nnoise = "perlin"\n')
    with pytest.raises(ValueError, match=r"surflet\.Stack\.from_json"):
        surflet.Graph.from_json('{"version": 2, "noise": "perlin"}')


def test_version_1_files_keep_their_pixels(cli, server, tmp_path):
    old = 'noise = "perlin"\nseed = 3\nfrequency = 0.05\n'
    f = write(tmp_path, "old.toml", old)
    s = surflet.Stack.from_toml(old)
    new = s.to_toml()
    assert new.startswith("version = 2\n") and "[view]\nscale = 1.0" in new
    code, _, err = cli(["render", str(tmp_path / "old.png"), "--config", str(f), "--size", "16"])
    assert code == 0 and "version = 2" in err
    g = write(tmp_path, "new.toml", new)
    code, _, err = cli(["render", str(tmp_path / "new.png"), "--config", str(g), "--size", "16"])
    assert code == 0 and err == "", err
    assert (tmp_path / "old.png").read_bytes() == (tmp_path / "new.png").read_bytes()
    # The server draws the old file the same, and says what the CLI says.
    png, headers = server("/api/render", {"toml": old, "size": [16, 16]}, headers=True)
    assert png == (tmp_path / "old.png").read_bytes()
    assert "version = 2" in headers["X-Surflet-Warning"]
    png, headers = server("/api/render", {"toml": new, "size": [16, 16]}, headers=True)
    assert png == (tmp_path / "old.png").read_bytes() and "X-Surflet-Warning" not in headers


def test_dict_errors_name_the_key_not_a_position():
    with pytest.raises(ValueError) as e:
        surflet.Stack.from_dict({"noise": "perlin", "fractal": {"octaves": "many"}})
    assert str(e.value).startswith("fractal.octaves: ") and "line" not in str(e.value), e.value
