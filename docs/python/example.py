"""The example of docs/python.md: a hillshaded heightmap from the analytic
gradient, and its normal map. Run from the repository root:

    python docs/python/example.py      # writes docs/python/example.png
"""

import pathlib

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import surflet

terrain = surflet.Stack.from_dict(
    {
        "noise": "simplex",
        "seed": 7,
        "frequency": 0.5,
        "fractal": {"kind": "fbm", "octaves": 6},
    }
)
# 768 x 768 samples over [0, 6)^2, with the gradient: img[j, i] is at
# (i * step, j * step).
step = 6 / 768
height, grad = terrain.grid(origin=(0, 0), step=(step, step), shape=(768, 768), gradient=True)

# Hillshading from the exact gradient (no finite differences): light from
# the north-west, 45 degrees up.
normal = np.dstack([-grad[..., 0], -grad[..., 1], np.full(height.shape, 5.0)])
normal /= np.linalg.norm(normal, axis=-1, keepdims=True)
light = np.array([-1.0, 1.0, 1.4]) / np.linalg.norm([-1.0, 1.0, 1.4])
shade = np.clip(normal @ light, 0, 1)

fig, (a, b) = plt.subplots(1, 2, figsize=(10, 5), constrained_layout=True)
a.imshow(height, cmap="terrain", origin="lower", extent=(0, 6, 0, 6), vmin=-0.8, vmax=0.8)
a.imshow(shade, cmap="gray", origin="lower", extent=(0, 6, 0, 6), alpha=0.45)
a.set_title("6-octave fBm of simplex noise, hillshaded")
b.imshow(0.5 + 0.5 * normal, origin="lower", extent=(0, 6, 0, 6))
b.set_title("normal map from the analytic gradient")
out = pathlib.Path(__file__).with_name("example.png")
fig.savefig(out, dpi=80)
print(f"wrote {out}: height in [{height.min():.3f}, {height.max():.3f}]")
