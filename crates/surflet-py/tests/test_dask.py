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
