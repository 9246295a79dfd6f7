"""``gather`` and the scatters that are its gradient (and the gradient of max along a dim).

``gather`` is what label lookups are made of: its gradient goes back only to the elements
that were picked, and picks that repeat add up (``ScatterAdd``). Each scatter's own
gradient is ``gather`` again, so ``create_graph`` can go on through them.
"""

from __future__ import annotations

import numpy as np

from ..autograd.function import ArrayFunction
from ..tensor import wrap_dim
from .namespace import namespace


def _where_picked(index: np.ndarray, axis: int) -> tuple:
    """The full numpy index of the elements ``gather`` reads: ``index`` along ``axis``."""
    grid = list(np.indices(index.shape, sparse=True))
    grid[axis] = index
    return tuple(grid)


class Gather(ArrayFunction):
    """``out[i][j] = a[i][index[i][j]]`` (dim 1); repeated picks add up their gradients."""

    node_name = "GatherBackward0"
    n_params = 2

    @staticmethod
    def forward(ctx, a, dim, index):
        axis = wrap_dim(dim, a.ndim)
        if index.dtype not in (np.int64, np.int32):
            raise RuntimeError("gather(): Expected dtype int32/int64 for index")
        if index.ndim != a.ndim and not (index.ndim <= 1 and a.ndim <= 1):
            raise RuntimeError(
                "Index tensor must have the same number of dimensions as input tensor"
            )
        for d in range(index.ndim):
            if d != axis and index.shape[d] > a.shape[d]:
                raise RuntimeError(
                    f"Size does not match at dimension {d} expected index {list(index.shape)} to "
                    f"be no larger than self {list(a.shape)} apart from dimension {axis}"
                )
        size = a.shape[axis] if a.ndim else 1
        bad = index[(index < -size) | (index >= size)]
        if bad.size:
            raise RuntimeError(
                f"index {int(bad.flat[0])} is out of bounds for dimension {axis} with size {size}"
            )
        ctx.shape, ctx.axis, ctx.index = a.shape, axis, index
        ctx.save_for_backward(a, index)  # PyTorch's formula reads both: their versions are checked
        if a.ndim == 0:  # a 0-d tensor: every index (0 or -1) reads its one value
            ctx.where = None
            return np.broadcast_to(a, index.shape).copy()
        ctx.where = where = _where_picked(index, axis)
        return a[where]

    @staticmethod
    def backward(ctx, grad):
        ctx.saved_tensors  # noqa: B018 - a changed in place since: PyTorch's error
        zeros = namespace(grad).zeros(ctx.shape, namespace(grad).dtype(grad))
        return ScatterAdd.call(zeros, grad, ctx.where, ctx.axis, ctx.index)


class Scatter(ArrayFunction):
    """``zeros.scatter(dim, index, src)``: ``src`` written where ``index`` points.

    The gradient of max/min along a dim, as PyTorch writes it (``ScatterBackward0``): the
    first input is fresh zeros (a constant, no edge), so only ``src`` has a gradient, which
    is ``gg`` read back at the same places (gather).
    """

    node_name = "ScatterBackward0"
    grad_position = 1
    n_params = 2

    @staticmethod
    def forward(ctx, zeros, src, axis, index):
        ctx.axis, ctx.index = axis, index
        if not zeros.ndim:
            return np.array(src, order="C")
        np.put_along_axis(zeros, index, src, axis)  # fresh zeros, made for this call
        return zeros

    @staticmethod
    def backward(ctx, gg):  # a gather, of a 0-d gradient too (GatherBackward0 in the graph)
        return None, Gather.call(gg, ctx.axis, ctx.index)


class ScatterAdd(ArrayFunction):
    """Gather's gradient: ``grad`` added into zeros where gather read (repeats add up).

    Its own gradient is gather again, so ``create_graph`` can go on through it.
    """

    node_name = "ScatterAddBackward0"
    grad_position = 1
    n_params = 3

    @staticmethod
    def forward(ctx, zeros, grad, where, axis, index):
        """``zeros`` is fresh (PyTorch's ``grad.new_zeros(shape)``: a constant, no edge)."""
        ctx.where, ctx.axis, ctx.index = where, axis, index
        if zeros.ndim:
            np.add.at(zeros, where, grad)
        else:
            zeros += grad.sum()
        return zeros

    @staticmethod
    def backward(ctx, grad):
        return None, Gather.call(grad, ctx.axis, ctx.index)
