"""Short, one-line text for arrays: what fits in a graph node or on an edge.

A node label must stay small whatever the tensor's size, and must fit on one
line so that the browser can swap it during the backward animation. So values
use 4 significant digits (like PyTorch's 4 decimals, but shorter for whole
numbers: ``0.5``, ``2``, ``7.5``), a tensor with more than ``max_items``
entries is summarised with ``…``, and every piece of text has a hard bound
(``VALUE_CHARS``, ``SHAPE_CHARS``, ``NAME_CHARS``, ``CAPTION_CHARS``): an empty
``(100000, 0)`` tensor, a 64-dimensional one or a name of a thousand letters
all give a label of a few dozen characters, which ``dot`` and the browser draw
at once. The work is proportional to what is shown, never to the tensor's size.
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "short",
    "shape_text",
    "clip",
    "VALUE_CHARS",
    "SHAPE_CHARS",
    "NAME_CHARS",
    "CAPTION_CHARS",
]

VALUE_CHARS = 60  # a value: in a box, on an arrow
SHAPE_CHARS = 40  # a shape: [2, 2]
NAME_CHARS = 40  # a variable's name (or several: "x, y")
CAPTION_CHARS = 300  # a step's sentence, a note


def clip(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters, ending in ``…`` when cut."""
    return text if len(text) <= limit else text[: max(0, limit - 1)] + "…"


def _number(x: float | int | bool) -> str:
    if isinstance(x, (bool, np.bool_)):
        return str(bool(x))
    if isinstance(x, (int, np.integer)):
        return clip(str(int(x)), 24)
    if np.isnan(x):
        return "nan"
    if np.isinf(x):
        return "inf" if x > 0 else "-inf"
    if x == 0:
        return "0"  # also -0.0: a learner should not wonder about a signed zero
    return f"{x:.4g}"


def short(value: object, max_items: int = 6) -> str:
    """One line for ``value`` (an array, a number or None): ``[[0.5, 1], [1.5, 2]]``.

    At most ``VALUE_CHARS`` characters (more for a larger ``max_items``).
    """
    if value is None:
        return "None"
    if isinstance(value, tuple):  # what a node with several outputs received, one per output
        return clip("(" + ", ".join(short(v, max_items) for v in value) + ")", VALUE_CHARS * 2)
    array = np.asarray(value)
    limit = VALUE_CHARS if max_items <= 6 else VALUE_CHARS * max_items // 6
    if array.ndim == 0:
        return clip(_number(array.item()), limit)
    if array.size == 0:
        return "[]"  # the shape, shown beside it, says how it is empty
    if array.size <= max_items:
        return clip(_nested(array), limit)
    return clip(_summary(array), limit)


def _nested(array: np.ndarray) -> str:
    if array.ndim == 1:
        return "[" + ", ".join(_number(x) for x in array.tolist()) + "]"
    return "[" + ", ".join(_nested(row) for row in array) + "]"


def _summary(array: np.ndarray) -> str:
    """First and last entry along each dimension: ``[[1, …, 4], …, [9, …, 12]]``.

    Built from at most ``2**ndim`` corner entries (so, for many dimensions, from
    the first dimensions only), never from the whole array.
    """
    if array.ndim > 4:
        corner = array[(0,) * (array.ndim - 1)]  # one line through the last dimension
        inner = _summary(corner) if corner.size > 2 else _nested(corner)
        return "[" * (array.ndim - 1) + inner + ", …" + "]" * (array.ndim - 1)
    if array.ndim == 1:
        if array.size <= 2:
            return _nested(array)
        return f"[{_number(array[0].item())}, …, {_number(array[-1].item())}]"
    rows = [array[0]] if array.shape[0] == 1 else [array[0], array[-1]]
    parts = [_summary(r) if r.size > 2 else _nested(r) for r in rows]
    return "[" + ", …, ".join(parts) + "]" if len(parts) == 2 else "[" + parts[0] + "]"


def shape_text(shape: tuple[int, ...], scalar: str = "scalar") -> str:
    """``[2, 2]`` as PyTorch's ``Size`` prints it; ``scalar`` for a 0-d tensor.

    At most ``SHAPE_CHARS`` characters: a shape of many dimensions shows its
    first ones and how many there are.
    """
    if len(shape) == 0:
        return scalar
    text = "[" + ", ".join(str(n) for n in shape) + "]"
    if len(text) <= SHAPE_CHARS:
        return text
    tail = f"…] ({len(shape)} dims)"
    head = ""
    for n in shape:
        piece = f"{n}, "
        if len(head) + len(piece) + len(tail) + 1 > SHAPE_CHARS:
            break
        head += piece
    return clip("[" + head + tail, SHAPE_CHARS)
