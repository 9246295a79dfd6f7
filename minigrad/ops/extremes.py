"""max and min of a tensor, whole or along a dim: the gradient goes to the picked element.

(``maximum`` and ``minimum`` of two tensors are elementwise: ``pairwise_extremes.py``.)
"""

from __future__ import annotations

import numpy as np

from ..autograd.function import ArrayFunction
from ..tensor import wrap_dim
from .gather_scatter import Scatter
from .namespace import namespace


class Extreme(ArrayFunction):
    """max() / min() of all elements; ties share the gradient evenly, as in PyTorch."""

    node_name = "MaxBackward1"
    saved_names = ("self", "result")
    n_params = 1

    @staticmethod
    def forward(ctx, a, largest):
        if a.size == 0:
            raise RuntimeError(
                f"{'max' if largest else 'min'}(): Expected reduction dim to be specified for "
                "input.numel() == 0. Specify the reduction dim with the 'dim' argument."
            )
        out = a.max() if largest else a.min()
        ctx.save_for_backward(a, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        """PyTorch's ``grad.new_zeros(shape).masked_fill_(hits, grad / hits.sum())``."""
        xp = namespace(grad)
        a, out = (xp.data(v) for v in ctx.saved_tensors)
        hits = a == out
        if out != out:  # a nan is the max (and min): the gradient goes to the nans
            hits = a != a
        dtype = xp.dtype(grad)
        share = grad / xp.constant(np.array(hits.sum(), dtype))
        return xp.masked_fill_(xp.zeros(a.shape, dtype), hits, share)


class Min(Extreme):
    node_name = "MinBackward1"


class ExtremeDim(ArrayFunction):
    """max(dim) / min(dim): the values; the gradient goes to the chosen index."""

    node_name = "MaxBackward0"
    n_params = 3

    @staticmethod
    def forward(ctx, a, dim, keepdim, largest):
        axis = wrap_dim(dim, a.ndim)
        if a.ndim and a.shape[axis] == 0:
            raise IndexError(
                f"{'max' if largest else 'min'}(): Expected reduction dim {axis} to "
                "have non-zero size."
            )
        pick = np.argmax if largest else np.argmin
        index = np.expand_dims(pick(a, axis=axis), axis) if a.ndim else np.zeros((), np.int64)
        values = np.take_along_axis(a, index, axis) if a.ndim else a.copy()
        ctx.shape, ctx.axis, ctx.index, ctx.keepdim = a.shape, axis, index, keepdim
        ctx.indices = index if keepdim or not a.ndim else np.squeeze(index, axis)
        ctx.save_for_backward(index)  # PyTorch saves the indices: a second backward raises
        return values if keepdim or not a.ndim else np.squeeze(values, axis)

    @staticmethod
    def backward(ctx, grad):
        """PyTorch's ``zeros.scatter(dim, indices, grad)`` (``ScatterBackward0``)."""
        xp = namespace(grad)
        if ctx.shape and not ctx.keepdim:
            grad = xp.expand_dims(grad, ctx.axis)
        return Scatter.call(xp.zeros(ctx.shape, xp.dtype(grad)), grad, ctx.axis, ctx.index)


class MinDim(ExtremeDim):
    node_name = "MinBackward0"
