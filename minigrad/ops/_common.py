"""Small helpers the ops share: PyTorch's words for broadcasting errors and dtype names."""

from __future__ import annotations

import numpy as np

from .._dtypes import C_NAMES, LEGACY_NAMES  # noqa: F401 - C_NAMES is re-exported for the ops


def broadcast_shapes(*shapes: tuple) -> tuple:
    """The broadcast shape of ``shapes``, or PyTorch's RuntimeError naming the first mismatch.

    Shapes are combined left to right, as PyTorch does: ``a`` is the shape so far, ``b`` the next.
    """
    result = tuple(shapes[0])
    for shape in shapes[1:]:
        n = max(len(result), len(shape))
        pa = (1,) * (n - len(result)) + tuple(result)
        pb = (1,) * (n - len(shape)) + tuple(shape)
        for dim in range(n - 1, -1, -1):  # PyTorch reports the last mismatching dimension
            x, y = pa[dim], pb[dim]
            if x != y and x != 1 and y != 1:
                raise RuntimeError(
                    f"The size of tensor a ({x}) must match the size of tensor b ({y}) "
                    f"at non-singleton dimension {dim}"
                )
        result = tuple(y if x == 1 else x for x, y in zip(pa, pb, strict=True))
    return result


def check_expand(shape: tuple, target: tuple, dtype: np.dtype) -> None:
    """A tensor of ``shape`` must expand to ``target``; PyTorch's message when it does not."""
    while shape and shape[0] == 1:
        shape = shape[1:]  # leading ones are dropped, as PyTorch does
    if len(shape) > len(target):
        raise RuntimeError(
            f"expand(minigrad.{LEGACY_NAMES[dtype]}Tensor{{{list(shape)}}}, size={list(target)}): "
            "the number of "
            f"sizes provided ({len(target)}) must be greater or equal to the number of "
            f"dimensions in the tensor ({len(shape)})"
        )
    lead = len(target) - len(shape)
    for i, n in reversed(list(enumerate(shape))):  # PyTorch checks the last dim first
        want = target[lead + i]
        if n != want and n != 1:
            raise RuntimeError(
                f"The expanded size of the tensor ({want}) must match the existing size ({n}) at "
                f"non-singleton dimension {lead + i}.  Target sizes: {list(target)}.  Tensor "
                f"sizes: {list(shape)}"
            )
