"""clamp to [min, max], by numbers or by tensors: the gradient passes inside the range."""

from __future__ import annotations

import numpy as np

from .._dtypes import get_default_dtype, result_dtype
from ..autograd.function import ArrayFunction
from ._common import broadcast_shapes
from ._simd_ties import clamp_as_pytorch
from .namespace import namespace
from .number_range import scalar_beside


def _in_dtype(values, dtype: np.dtype) -> list:
    """The arrays in ``dtype``, without a copy where they are in it (a number, or None, as is)."""
    return [v.astype(dtype, copy=False) if type(v) is np.ndarray else v for v in values]


def _clamp(a, lo, hi):
    """``min(max(a, lo), hi)`` keeping ``a`` at a tie, as PyTorch (``clamp(-0., max=0)`` is
    -0.; numpy's clip and maximum keep their second argument)."""
    out = a if lo is None else np.maximum(lo, a)
    return out if hi is None else np.minimum(hi, out)


class Clamp(ArrayFunction):
    """Clamp to [min, max] (either may be None); the gradient passes inside the range."""

    node_name = "ClampBackward1"
    saved_names = ("self",)
    n_params = 2

    @staticmethod
    def forward(ctx, a, lo, hi):
        if lo is None and hi is None:
            raise RuntimeError("minigrad.clamp: At least one of 'min' or 'max' must not be None")
        given = [v for v in (lo, hi) if v is not None]
        if a.dtype == np.bool_ and all(type(v) is bool for v in given):  # PyTorch: no kernel
            kernel = "clamp" if len(given) == 2 else "clamp_min" if hi is None else "clamp_max"
            raise NotImplementedError(f"\"{kernel}_scalar_cpu\" not implemented for 'Bool'")
        ctx.save_for_backward(a)
        ctx.bounds = lo, hi
        floats = get_default_dtype().numpy
        lo, hi = (None if v is None else scalar_beside(v, a.dtype, floats) for v in (lo, hi))
        return _clamp(a, lo, hi)

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        xp = namespace(grad)
        a = xp.data(a)
        lo, hi = ctx.bounds
        inside = np.ones(a.shape, dtype=bool)
        if lo is not None:
            inside &= a >= lo
        if hi is not None:
            inside &= a <= hi
        return xp.where(inside, grad, 0.0)


class ClampTensor(ArrayFunction):
    """``clamp(x, min=tensor, max=tensor)``: the bounds broadcast and get gradients too."""

    node_name = "ClampBackward0"
    saved_names = ("self", "min", "max")
    broadcasts = True

    @staticmethod
    def forward(ctx, a, lo, hi):
        shapes = [np.shape(v) for v in (a, lo, hi) if v is not None]
        broadcast_shapes(*shapes)  # PyTorch's error when the bounds do not broadcast
        ctx.save_for_backward(a, lo, hi)
        # all three in PyTorch's result dtype: a 0-d float64 bound keeps a float32 x float32
        ctx.dtype = result_dtype(*[v for v in (a, lo, hi) if type(v) is np.ndarray])
        operands = [v for v in (a, lo, hi) if v is not None]  # their layouts, before the cast
        return clamp_as_pytorch(*_in_dtype((a, lo, hi), ctx.dtype), operands)  # -0. at a tie

    @staticmethod
    def backward(ctx, grad):
        xp = namespace(grad)  # compared in the forward's dtype, as PyTorch compares
        a, lo, hi = _in_dtype([xp.data(v) for v in ctx.saved_tensors], ctx.dtype)
        zero = np.zeros((), xp.dtype(grad))
        raised = a if lo is None else np.maximum(a, lo)  # clamp is min(max(a, lo), hi)
        kept = True if hi is None else raised <= hi
        grad_a = xp.where((True if lo is None else a >= lo) & kept, grad, zero)
        grad_lo = None if lo is None else xp.where((a < lo) & kept, grad, zero)
        grad_hi = None if hi is None else xp.where(raised > hi, grad, zero)
        return grad_a, grad_lo, grad_hi
