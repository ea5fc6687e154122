"""Lazy grids on Dask: one task per chunk, each chunk one ``grid`` call.

Noise is a pure function of the seed and the coordinates, and every chunk
computes its coordinates as ``origin + index * step`` from its global index
(``grid(..., start=...)``), so the chunks of a Dask array are exactly the
bits of one ``grid`` call over the whole, on any scheduler and any machine.

    >>> import surflet, surflet.dask
    >>> n = surflet.Noise("perlin", seed=3)
    >>> a = surflet.dask.grid(n, origin=(0, 0), step=(0.01, 0.01),
    ...                       shape=(1000, 1000), chunks=250)
    >>> a.chunks[0]
    (250, 250, 250, 250)
    >>> bool((a.compute() == n.grid((0, 0), (0.01, 0.01), (1000, 1000))).all())
    True

On a ``dask.distributed`` cluster each worker needs the surflet wheel
installed, and nothing else: the field travels to the workers pickled (as
its name, seed and period, or its JSON config).
"""

from __future__ import annotations

from typing import Any, Sequence, Union

import numpy as np

from . import Noise, Stack

__all__ = ["grid"]


def grid(
    field: Union[Noise, Stack],
    origin: Sequence[float],
    step: Sequence[float],
    shape: Sequence[int],
    chunks: Any = "auto",
    *,
    dtype: Any = np.float64,
    threads: Union[int, None] = None,
) -> Any:
    """A lazy ``dask.array`` of ``field.grid(origin, step, shape)``.

    ``origin`` and ``step`` are given x first, ``shape`` and ``chunks`` in
    array order (x last), exactly as for ``grid``. ``chunks`` is anything
    ``dask.array`` accepts (an int, a tuple per axis, ``"auto"``).
    ``threads`` limits the threads of each chunk's call (by default each
    call uses every core; with many workers per machine, 1 is sensible).
    """
    import dask.array as da

    if not isinstance(field, (Noise, Stack)):
        raise TypeError(
            f"field must be a surflet.Noise or surflet.Stack, not {type(field).__name__}"
        )
    shape = tuple(int(s) for s in shape)
    origin = tuple(float(o) for o in origin)
    step = tuple(float(s) for s in step)
    if not (len(origin) == len(step) == len(shape)):
        raise ValueError(
            "origin, step and shape must have the same length, "
            f"got {len(origin)}, {len(step)} and {len(shape)}"
        )
    dtype = np.dtype(dtype)
    # Fail now, not in a worker: a zero-size probe checks every argument.
    field.grid(origin, step, (0,) * len(shape), dtype=dtype)

    def block(block_info: Any = None) -> np.ndarray:
        info = block_info[None]
        start = tuple(lo for lo, _ in info["array-location"])
        size = tuple(info["chunk-shape"])
        return field.grid(origin, step, size, start=start, dtype=dtype, threads=threads)

    chunks = da.core.normalize_chunks(chunks, shape, dtype=dtype)
    return da.map_blocks(block, dtype=dtype, chunks=chunks, meta=np.empty((0,) * len(shape), dtype))
