"""surflet: gradient noise done exactly, numpy in and numpy out.

>>> import numpy as np, surflet
>>> n = surflet.Noise("simplex", seed=7)
>>> img = n.grid(origin=(0.0, 0.0), step=(1 / 64, 1 / 64), shape=(128, 256))
>>> img.shape, img.dtype
((128, 256), dtype('float64'))
>>> bool(img[5, 3] == n.sample(np.array([3 / 64, 5 / 64])))
True

Values are the same bits as the Rust library and the ``surflet`` command
line for the same noise, point and precision. See ``docs/python.md``.
"""

from ._surflet import NOISES, Graph, Noise, Stack, __version__

__all__ = ["NOISES", "Graph", "Noise", "Stack", "__version__"]
