"""surflet.dask: chunked grids equal one grid call, bit for bit."""

import numpy as np
import pytest
import surflet
import surflet.dask
from conftest import bits

dask = pytest.importorskip("dask")
import dask.array as da  # noqa: E402

FIELDS = [
    surflet.Noise("simplex", seed=7),
    surflet.Stack.from_toml('noise = "perlin"\nfrequency = 0.5\n[fractal]\noctaves = 4\n[warp]\namplitude = 0.3\n'),
]
ORIGIN, STEP, SHAPE = (-1.25, 3.5), (0.0173, 0.0291), (400, 360)


@pytest.mark.parametrize("field", FIELDS)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_threaded_scheduler(field, dtype):
    a = surflet.dask.grid(field, ORIGIN, STEP, SHAPE, chunks=(100, 90), dtype=dtype)
    assert a.numblocks == (4, 4) and a.dtype == dtype
    whole = field.grid(ORIGIN, STEP, SHAPE, dtype=dtype)
    got = a.compute(scheduler="threads")
    assert got.dtype == dtype and (bits(got) == bits(whole)).all()
    # Uneven chunks and a slice of the lazy array.
    b = surflet.dask.grid(field, ORIGIN, STEP, SHAPE, chunks=(77, 130), dtype=dtype)
    assert (bits(b[50:300, 10:200].compute()) == bits(whole[50:300, 10:200])).all()


def test_3d_chunks():
    n = FIELDS[0]
    a = surflet.dask.grid(n, (0, 0, 0), (0.1, 0.2, 0.3), (20, 30, 40), chunks=(7, 11, 13))
    assert (bits(a.compute()) == bits(n.grid((0, 0, 0), (0.1, 0.2, 0.3), (20, 30, 40)))).all()


def test_bad_arguments_fail_at_once():
    with pytest.raises(ValueError, match="same length"):
        surflet.dask.grid(FIELDS[0], (0, 0), (1,), (3, 3))
    with pytest.raises(TypeError, match="surflet.Noise"):
        surflet.dask.grid("simplex", (0, 0), (1, 1), (3, 3))
    with pytest.raises(ValueError, match="period"):
        surflet.dask.grid(surflet.Noise("perlin", period=(4,)), (0, 0), (1, 1), (3, 3))


def test_distributed_local_cluster():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None
    ) as cluster, distributed.Client(cluster) as client:
        for field in FIELDS:
            a = surflet.dask.grid(field, ORIGIN, STEP, SHAPE, chunks=(100, 90), threads=1)
            got = client.compute(a).result()
            assert (bits(got) == bits(field.grid(ORIGIN, STEP, SHAPE))).all()
            # The work really ran on the workers (not in this process).
            workers = {w for ws in client.who_has().values() for w in ws}
            assert len(client.scheduler_info()["workers"]) == 2, workers


def test_every_chunk_is_the_cli_tile(cli, tmp_path):
    """A chunk of a Dask heightmap is the tile that `surflet render --tile`
    draws of the same image: both compute pixel (i, j) of the whole image
    at origin + index * step (Grid::window's arithmetic; render's
    origin + (index * A) / B is the same number for a dyadic scale like
    1/64), in float64, and round the value once to float32."""
    config = tmp_path / "fbm.toml"
    config.write_text(
        'version = 2\nnoise = "simplex"\nseed = 7\n[fractal]\nkind = "fbm"\noctaves = 6\n'
        "[view]\norigin = [-3.5, 2.25]\nscale = [0.015625, 0.015625]\n"
    )
    stack = surflet.Stack.from_toml(config.read_text())
    height, width, chunks = 96, 160, (32, 40)
    lazy = surflet.dask.grid(
        stack, (-3.5, 2.25), (1 / 64, 1 / 64), (height, width), chunks=chunks
    ).astype(np.float32)
    tiles = (width // chunks[1], height // chunks[0])
    assert lazy.numblocks == (tiles[1], tiles[0])
    for j in range(tiles[1]):
        for i in range(tiles[0]):
            out = tmp_path / f"t{i}-{j}.raw"
            code, _, err = cli(
                ["render", str(out), "--config", str(config), "--size", f"{width}x{height}",
                 "--tile", f"{i},{j}", "--tiles", f"{tiles[0]},{tiles[1]}"]
            )
            assert code == 0, err
            tile = np.fromfile(out, dtype="<f4").reshape(chunks)
            chunk = lazy.blocks[j, i].compute(scheduler="threads")
            assert chunk.dtype == np.float32
            assert (chunk.view(np.uint32) == tile.view(np.uint32)).all(), (i, j)
    # And not trivially: the tiles differ from one another.
    assert not np.array_equal(lazy.blocks[0, 0].compute(), lazy.blocks[0, 1].compute())
