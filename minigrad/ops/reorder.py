"""flip and roll: the same elements in another order, always a copy (not a view).

Their gradients are the same reordering undone: flip again along the same dims, roll back by
the opposite shifts (PyTorch's ``grad.flip(dims)`` and ``grad.roll(-shifts, dims)``, reversed).
"""

from __future__ import annotations

import numpy as np

from ..autograd.function import ArrayFunction
from ..tensor import Tensor, wrap_dim
from .logsumexp import as_unsigned
from .reduction import reduce_dims


def copy_in_layout(a: np.ndarray) -> np.ndarray:
    """A copy with the input's order of strides, as PyTorch's ``empty_like`` (an expanded
    input, whose elements repeat, is copied in C order)."""
    if any(s == 0 and n > 1 for n, s in zip(a.shape, a.strides)):
        return a.copy()
    return a.copy(order="K")


class Flip(ArrayFunction):
    node_name = "FlipBackward0"
    saved_settings = {"dims": "dims"}
    n_params = 1

    @staticmethod
    def forward(ctx, a, dims):
        ctx.axes, ctx.given = reduce_dims(dims, a.ndim), dims
        ctx.dims = tuple(as_unsigned(d) for d in dims)
        return copy_in_layout(np.flip(a, ctx.axes)) if ctx.axes else a.copy(order="K")

    @staticmethod
    def backward(ctx, grad):
        if isinstance(grad, Tensor):  # create_graph: recorded, as PyTorch's FlipBackward0
            return Flip.apply(grad, ctx.given)
        return np.flip(grad, ctx.axes) if ctx.axes else grad


class Roll(ArrayFunction):
    """``roll(shifts, dims)``: elements leaving one end come back at the other; with no dims,
    the tensor is rolled as one flat row and keeps its shape."""

    node_name = "RollBackward0"
    saved_settings = {"dims": "dims", "shifts": "shifts"}
    n_params = 2

    @staticmethod
    def forward(ctx, a, shifts, dims):
        if not shifts:
            raise RuntimeError("`shifts` required")
        if dims or len(shifts) != 1:
            if len(shifts) != len(dims):
                raise RuntimeError(
                    f"shifts and dimensions must align. shifts: {len(shifts)}, dims:{len(dims)}"
                )
            # PyTorch returns an empty tensor before it reads the dims: any dim goes
            ctx.axes = tuple(wrap_dim(d, a.ndim, scalar_ok=False) for d in dims) if a.size else ()
        else:
            ctx.axes = None
        ctx.steps, ctx.given = shifts, dims
        ctx.shifts = tuple(as_unsigned(s) for s in shifts)
        ctx.dims = tuple(as_unsigned(d) for d in dims)
        a = np.asarray(a, order="C")  # PyTorch rolls a contiguous copy: a C-ordered result
        if not a.size:
            return a.copy()
        if ctx.axes is None:  # rolled as one flat row
            return np.roll(a, shifts[0]).reshape(a.shape)
        return np.roll(a, shifts, ctx.axes)

    @staticmethod
    def backward(ctx, grad):
        back = tuple(-s for s in reversed(ctx.steps))
        if isinstance(grad, Tensor):
            return Roll.apply(grad, back, tuple(reversed(ctx.given)))
        grad = np.asarray(grad)  # a 0-d gradient may come as a numpy scalar
        if not grad.size:
            return grad
        if ctx.axes is None:
            return np.roll(grad, back[0]).reshape(grad.shape)
        return np.roll(grad, back, ctx.axes[::-1])
