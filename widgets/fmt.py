"""Short, one-line text for arrays: what fits in a graph node or on an edge.

A node label must stay small whatever the tensor's size, and must fit on one
line so that the browser can swap it during the backward animation. So values
use 4 significant digits (like PyTorch's 4 decimals, but shorter for whole
numbers: ``0.5``, ``2``, ``7.5``), and a tensor with more than ``max_items``
entries is summarised with ``…``.
"""

from __future__ import annotations

import numpy as np

__all__ = ["short", "shape_text"]


def _number(x: float | int | bool) -> str:
    if isinstance(x, (bool, np.bool_)):
        return str(bool(x))
    if isinstance(x, (int, np.integer)):
        return str(int(x))
    if np.isnan(x):
        return "nan"
    if np.isinf(x):
        return "inf" if x > 0 else "-inf"
    if x == 0:
        return "0"  # also -0.0: a learner should not wonder about a signed zero
    return f"{x:.4g}"


def short(value: object, max_items: int = 6) -> str:
    """One line for ``value`` (an array, a number or None): ``[[0.5, 1], [1.5, 2]]``."""
    if value is None:
        return "None"
    array = np.asarray(value)
    if array.ndim == 0:
        return _number(array.item())
    if array.size <= max_items:
        return _nested(array)
    return (
        np.array2string(
            array,
            threshold=0,
            edgeitems=1,
            separator=", ",
            max_line_width=10**6,
            formatter={"all": lambda x: _number(x)},
        )
        .replace("\n", "")
        .replace("...", "…")
        .replace(" ", "")
        .replace(",", ", ")
    )


def _nested(array: np.ndarray) -> str:
    if array.ndim == 1:
        return "[" + ", ".join(_number(x) for x in array.tolist()) + "]"
    return "[" + ", ".join(_nested(row) for row in array) + "]"


def shape_text(shape: tuple[int, ...]) -> str:
    """``[2, 2]`` as PyTorch's ``Size`` prints it; ``scalar`` for a 0-d tensor."""
    return "scalar" if len(shape) == 0 else "[" + ", ".join(str(n) for n in shape) + "]"
