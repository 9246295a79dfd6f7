"""clamp_min and clamp_max: one bound only, a number or a tensor.

``x.clamp(min=0)`` is ``ClampBackward1`` in PyTorch; ``x.clamp_min(0)`` is an op of its own
(``ClampMinBackward0``, and ``ClampMinBackward1`` for a tensor bound, which gets a gradient
too). The gradient passes where the input was kept: ``where(x >= min, grad, 0)``; a tensor
bound gets it where it won: ``where(x < min, grad, 0)``.
"""

from __future__ import annotations

import numpy as np

from .._dtypes import result_dtype
from ..autograd.function import ArrayFunction
from ._simd_ties import clamp_as_pytorch
from .clamp import Clamp, _in_dtype
from .namespace import namespace


class ClampMin(ArrayFunction):
    node_name = "ClampMinBackward0"
    saved_names = ("self",)
    saved_settings = {"min": "bound"}
    n_params = 1

    @staticmethod
    def forward(ctx, a, lo):
        out = Clamp.forward(ctx, a, lo, None)  # the checks and the tie rule of clamp
        ctx.bound = lo
        return out

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        xp = namespace(grad)
        return xp.where(xp.data(a) >= ctx.bound, grad, 0.0)


class ClampMax(ArrayFunction):
    node_name = "ClampMaxBackward0"
    saved_names = ("self",)
    saved_settings = {"max": "bound"}
    n_params = 1

    @staticmethod
    def forward(ctx, a, hi):
        out = Clamp.forward(ctx, a, None, hi)
        ctx.bound = hi
        return out

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        xp = namespace(grad)
        return xp.where(xp.data(a) <= ctx.bound, grad, 0.0)


class ClampMinTensor(ArrayFunction):
    """``clamp_min(x, bound)`` with a tensor bound: both broadcast, both get a gradient."""

    node_name = "ClampMinBackward1"
    saved_names = ("self", "min")
    broadcasts = True

    @staticmethod
    def forward(ctx, a, lo):
        ctx.save_for_backward(a, lo)
        ctx.dtype = result_dtype(a, lo)  # compared in PyTorch's result dtype, as it compares
        operands = [a, lo]  # their layouts, before the cast
        a, lo = _in_dtype((a, lo), ctx.dtype)
        return clamp_as_pytorch(a, lo, None, operands)

    @staticmethod
    def backward(ctx, grad):
        xp = namespace(grad)
        a, lo = _in_dtype([xp.data(v) for v in ctx.saved_tensors], ctx.dtype)
        zero = np.zeros((), xp.dtype(grad))
        return xp.where(a >= lo, grad, zero), xp.where(a < lo, grad, zero)


class ClampMaxTensor(ArrayFunction):
    node_name = "ClampMaxBackward1"
    saved_names = ("self", "max")
    broadcasts = True

    @staticmethod
    def forward(ctx, a, hi):
        ctx.save_for_backward(a, hi)
        ctx.dtype = result_dtype(a, hi)
        operands = [a, hi]  # their layouts, before the cast
        a, hi = _in_dtype((a, hi), ctx.dtype)
        return clamp_as_pytorch(a, None, hi, operands)

    @staticmethod
    def backward(ctx, grad):
        xp = namespace(grad)
        a, hi = _in_dtype([xp.data(v) for v in ctx.saved_tensors], ctx.dtype)
        zero = np.zeros((), xp.dtype(grad))
        return xp.where(a <= hi, grad, zero), xp.where(a > hi, grad, zero)
