"""Copies: ``clone()``, ``contiguous()``'s copy, and ``to(dtype)``: new memory, the
gradient passes straight through (cast back to the input's dtype for ``to``)."""

from __future__ import annotations

from ..autograd.function import ArrayFunction
from .namespace import namespace


class Clone(ArrayFunction):
    node_name = "CloneBackward0"

    @staticmethod
    def forward(ctx, a):
        return a.copy()

    @staticmethod
    def backward(ctx, grad):
        return grad


class ClonePreserve(Clone):
    """``x.clone()``: PyTorch's ``preserve_format`` keeps the order of the input's strides (a
    transposed tensor's copy is transposed too, so a later ``view`` may refuse it), as numpy's
    ``order="K"``; an expanded one (an element read twice) is copied in C order, as
    ``contiguous()`` and ``reshape`` copy with ``Clone``."""

    node_name = "CloneBackward0"

    @staticmethod
    def forward(ctx, a):
        if any(s == 0 and n > 1 for n, s in zip(a.shape, a.strides)):
            return a.copy()
        return a.copy(order="K")


class ToCopy(ArrayFunction):
    """A copy in another dtype (``.double()``, ``.to(minigrad.float64)``)."""

    node_name = "ToCopyBackward0"
    n_params = 1
    default_float = False

    @staticmethod
    def forward(ctx, a, np_dtype):
        ctx.dtype = a.dtype
        return a.astype(np_dtype)

    @staticmethod
    def backward(ctx, grad):
        return namespace(grad).astype(grad, ctx.dtype)
