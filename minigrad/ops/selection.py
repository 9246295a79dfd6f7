"""Repeating and splitting: ``repeat`` and the parts of ``split``/``chunk``.

Each is one Function, forward and backward side by side: the copies of ``repeat`` send
their gradients back and they add up; the parts of ``split`` join theirs back together.
``gather`` is in ``gather_scatter.py``, ``masked_fill`` in ``masked.py``, ``round`` in
``rounding.py``, ``normal`` in ``normal.py``.
"""

from __future__ import annotations

import numpy as np

from ..autograd.function import ArrayFunction
from ..autograd.multi_function import MultiArrayFunction, zeros_for
from ..tensor import Tensor
from . import joining as J
from .indexing import Slice  # noqa: F401 - narrow() is SEL.Slice
from .namespace import namespace


class Repeat(ArrayFunction):
    """Tile ``a`` ``sizes`` times; each copy sends its gradient back, and they add up."""

    node_name = "RepeatBackward0"
    n_params = 1

    @staticmethod
    def forward(ctx, a, sizes):
        if len(sizes) < a.ndim:
            raise RuntimeError(
                "Number of dimensions of repeat dims can not be smaller than number of "
                "dimensions of tensor"
            )
        if any(s < 0 for s in sizes):
            raise RuntimeError(
                f"Trying to create tensor with negative dimension {min(sizes)}: {list(sizes)}"
            )
        ctx.shape, ctx.sizes = a.shape, tuple(sizes)
        return np.tile(a.reshape((1,) * (len(sizes) - a.ndim) + a.shape), sizes)

    @staticmethod
    def backward(ctx, grad):
        """PyTorch's repeat_backward: the new leading dims summed one by one, then each
        repeated dim split in (copies, size) and the copies summed, in one sum."""
        xp = namespace(grad)
        if 0 in ctx.sizes:
            return xp.zeros(ctx.shape, xp.dtype(grad))
        lead = len(ctx.sizes) - len(ctx.shape)
        for _ in range(lead):
            grad = xp.sum(grad, 0)
        split, copies = [], []
        for repeat, size in zip(ctx.sizes[lead:], ctx.shape, strict=True):
            if repeat != 1:
                split.append(repeat)
                copies.append(len(split) - 1)
            split.append(size)
        if not copies:
            return grad
        return xp.sum(xp.reshape(grad, tuple(split)), tuple(copies))


class Split(MultiArrayFunction):
    """``split(size)`` and ``chunk(n)``: one node, one output (a view) per part.

    Its backward concatenates the parts' gradients, zeros for those that got none (under
    ``create_graph`` a CatBackward0 with None edges for them, as PyTorch's).
    """

    node_name = "SplitBackward0"
    n_params = 2
    is_view = True

    @staticmethod
    def forward(ctx, a, dim, sizes):
        ctx.axis, ctx.shapes = dim, [a.shape[:dim] + (n,) + a.shape[dim + 1 :] for n in sizes]
        key, parts, start = (slice(None),) * dim, [], 0
        for n in sizes:
            parts.append(a[key + (slice(start, start + n),)])
            start += n
        return tuple(parts)

    @staticmethod
    def backward(ctx, grads):
        grads = zeros_for(grads, ctx.shapes)
        if isinstance(grads[0], Tensor):
            return J.Cat.apply(*grads, ctx.axis)
        return np.concatenate(grads, axis=ctx.axis)


class SplitWithSizes(Split):
    """``split([sizes])``."""

    node_name = "SplitWithSizesBackward0"
