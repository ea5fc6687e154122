"""Type stubs of the compiled module (see the docstrings at run time)."""

from typing import Any, Optional, Sequence, Tuple, Union, final

import numpy as np
import numpy.typing as npt

__version__: str
__all__ = ["NOISES", "Graph", "Noise", "Stack", "__version__"]
NOISES: list[str]

_Points = npt.ArrayLike
_Out = Union[npt.NDArray[np.floating[Any]], Tuple[npt.NDArray[np.floating[Any]], npt.NDArray[np.floating[Any]]], None]

@final
class Noise:
    """One family noise: ``Noise(name, seed=0, period=None, distance=None,
    ret=None, jitter=None)``; the last three are cellular noise's options."""

    def __new__(
        cls,
        name: str,
        seed: Optional[int] = None,
        period: Optional[Sequence[int]] = None,
        distance: Optional[str] = None,
        ret: Optional[str] = None,
        jitter: Optional[float] = None,
    ) -> "Noise": ...
    @property
    def name(self) -> str: ...
    @property
    def seed(self) -> int: ...
    @property
    def period(self) -> Optional[list[int]]: ...
    @property
    def distance(self) -> Optional[str]: ...
    @property
    def ret(self) -> Optional[str]: ...
    @property
    def jitter(self) -> Optional[float]: ...
    def sample(
        self,
        points: _Points,
        *,
        gradient: bool = False,
        out: _Out = None,
        threads: Optional[int] = None,
    ) -> Any:
        """Values at ``points`` (shape ``(..., D)``, float32 or float64;
        integers become float64), shape ``(...)``, same dtype. With
        ``gradient=True``, a pair ``(values, gradient)`` with the gradient of
        shape ``(..., D)``. ``out`` is the array to fill (a pair with
        ``gradient=True``), C-contiguous and of the right dtype and shape.
        ``threads`` limits the threads (default: every core)."""
    def grid(
        self,
        origin: Sequence[float],
        step: Sequence[float],
        shape: Sequence[int],
        *,
        start: Optional[Sequence[int]] = None,
        gradient: bool = False,
        out: _Out = None,
        dtype: Optional[npt.DTypeLike] = None,
        threads: Optional[int] = None,
    ) -> Any:
        """Values on a uniform 1D-4D grid. ``origin`` and ``step`` are x
        first; the result has ``shape`` with x as the last axis:
        ``img[j, i]`` is the value at ``(x0 + i*dx, y0 + j*dy)``, each
        coordinate computed in ``dtype`` (default float64, or ``out``'s) as
        ``origin + index * step``. ``start`` offsets the indices (in array
        order), so a window of a larger grid has exactly its bits."""

@final
class Stack:
    """A noise stack, from a config file of any front end (``render
    --save-config``, ``sample --save-config``, the explorer's export).
    Written back with ``version = 2`` and its other tables kept. Or from
    its keys as keywords: ``Stack(noise="simplex", fractal_octaves=6)``."""

    KEYWORDS: list[str]
    """Every stack key's keyword (its config path with ``_`` for ``.``;
    ``ret`` for ``return``), in the library's schema order."""
    def __new__(cls, **keys: Any) -> "Stack": ...
    def keys(self) -> dict[str, Any]:
        """The keys the stack gives, by keyword: ``Stack(**s.keys())``."""
    @staticmethod
    def from_toml(text: str) -> "Stack": ...
    @staticmethod
    def from_json(text: str) -> "Stack": ...
    @staticmethod
    def from_dict(d: dict[str, Any]) -> "Stack": ...
    def to_toml(self) -> str: ...
    def to_json(self) -> str: ...
    def to_dict(self) -> dict[str, Any]: ...
    @property
    def view(self) -> dict[str, Any]: ...
    @property
    def pixels(self) -> dict[str, Any]: ...
    @property
    def animation(self) -> dict[str, Any]: ...
    def sample(
        self,
        points: _Points,
        *,
        gradient: bool = False,
        out: _Out = None,
        threads: Optional[int] = None,
    ) -> Any:
        """Values at ``points`` (shape ``(..., D)``, float32 or float64;
        integers become float64), shape ``(...)``, same dtype. With
        ``gradient=True``, a pair ``(values, gradient)`` with the gradient of
        shape ``(..., D)``. ``out`` is the array to fill (a pair with
        ``gradient=True``), C-contiguous and of the right dtype and shape.
        ``threads`` limits the threads (default: every core)."""
    def grid(
        self,
        origin: Sequence[float],
        step: Sequence[float],
        shape: Sequence[int],
        *,
        start: Optional[Sequence[int]] = None,
        gradient: bool = False,
        out: _Out = None,
        dtype: Optional[npt.DTypeLike] = None,
        threads: Optional[int] = None,
    ) -> Any:
        """Values on a uniform 1D-4D grid. ``origin`` and ``step`` are x
        first; the result has ``shape`` with x as the last axis:
        ``img[j, i]`` is the value at ``(x0 + i*dx, y0 + j*dy)``, each
        coordinate computed in ``dtype`` (default float64, or ``out``'s) as
        ``origin + index * step``. ``start`` offsets the indices (in array
        order), so a window of a larger grid has exactly its bits."""

@final
class Graph:
    """A noise graph: ``Graph.parse(expression)`` (``surflet help graphs``)
    or a config file holding a ``[graph]`` table."""

    @staticmethod
    def parse(expr: str) -> "Graph": ...
    def to_expr(self) -> str: ...
    @staticmethod
    def from_toml(text: str) -> "Graph": ...
    @staticmethod
    def from_json(text: str) -> "Graph": ...
    @staticmethod
    def from_dict(d: dict[str, Any]) -> "Graph": ...
    def to_toml(self) -> str: ...
    def to_json(self) -> str: ...
    def to_dict(self) -> dict[str, Any]: ...
    @property
    def view(self) -> dict[str, Any]: ...
    @property
    def pixels(self) -> dict[str, Any]: ...
    @property
    def animation(self) -> dict[str, Any]: ...
    def sample(
        self,
        points: _Points,
        *,
        gradient: bool = False,
        out: _Out = None,
        threads: Optional[int] = None,
    ) -> Any:
        """Values at ``points`` (shape ``(..., D)``, float32 or float64;
        integers become float64), shape ``(...)``, same dtype. With
        ``gradient=True``, a pair ``(values, gradient)`` with the gradient of
        shape ``(..., D)``. ``out`` is the array to fill (a pair with
        ``gradient=True``), C-contiguous and of the right dtype and shape.
        ``threads`` limits the threads (default: every core)."""
    def grid(
        self,
        origin: Sequence[float],
        step: Sequence[float],
        shape: Sequence[int],
        *,
        start: Optional[Sequence[int]] = None,
        gradient: bool = False,
        out: _Out = None,
        dtype: Optional[npt.DTypeLike] = None,
        threads: Optional[int] = None,
    ) -> Any:
        """Values on a uniform 1D-4D grid. ``origin`` and ``step`` are x
        first; the result has ``shape`` with x as the last axis:
        ``img[j, i]`` is the value at ``(x0 + i*dx, y0 + j*dy)``, each
        coordinate computed in ``dtype`` (default float64, or ``out``'s) as
        ``origin + index * step``. ``start`` offsets the indices (in array
        order), so a window of a larger grid has exactly its bits."""
