"""var and std, whole tensor or by dim, with Bessel's ``correction``."""

from __future__ import annotations

import warnings

import numpy as np

from .._dtypes import get_default_dtype
from ..autograd.function import ArrayFunction
from ._common import c_order
from .arithmetic import MaskedFill, MulScalar
from .namespace import namespace
from .reduction import reduce_dims


class Var(ArrayFunction):
    """Variance with Bessel's correction by default (``correction=1``)."""

    node_name = "VarBackward0"
    saved_names = ("self",)
    n_params = 3

    @staticmethod
    def forward(ctx, a, dim, correction, keepdim, name="var", wide_result=False, stacklevel=4):
        if a.dtype.kind != "f":
            raise RuntimeError("std and var only support floating point and complex dtypes")
        axes = reduce_dims(dim, a.ndim)
        n = int(np.prod([a.shape[i] for i in axes])) if a.size else 0  # PyTorch: numel ratio
        if n - correction <= 0:
            warnings.warn(
                f"{name}(): degrees of freedom is <= 0. Correction should be strictly less than "
                "the reduction factor (input numel divided by output numel).",
                UserWarning,
                stacklevel=stacklevel,  # the learner's line
            )
        wide = a.astype(np.float64, copy=False)  # accumulate in float64 (as PyTorch), round once
        centred = (
            wide - np.add.reduce(wide, axis=axes, keepdims=True) / n
        )  # no numpy warning at n=0
        ctx.save_for_backward(a)  # centred again in backward: a value of the graph
        ctx.shape, ctx.axes, ctx.keepdim, ctx.denominator = a.shape, axes, keepdim, n - correction
        ctx.all_dims = dim is None or a.ndim == 0
        with np.errstate(divide="ignore", invalid="ignore"):
            out = (centred * centred).sum(axis=axes, keepdims=keepdim) / max(n - correction, 0)
        return c_order(out if wide_result else out.astype(a.dtype, copy=False))

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        return var_backward(grad, a, ctx)


def var_backward(grad, a, ctx):
    """``2 / (n - correction) * grad * (a - mean(a))``, the gradient broadcast back (PyTorch's)."""
    xp = namespace(grad)
    if (ctx.all_dims or not ctx.shape) and ctx.denominator <= 0:
        # no degree of freedom left: PyTorch's grad * where(a == a.mean(), nan, inf)
        values = xp.data(a)  # where() of two numbers: the default dtype, then cast back
        mean = values.sum() / max(values.size, 1)  # (no numpy warning when empty)
        fill = np.where(values == mean, np.nan, np.inf).astype(get_default_dtype().numpy)
        out = grad * xp.constant(fill)
        return out if xp.dtype(out) == values.dtype else xp.astype(out, values.dtype)
    if ctx.all_dims or not ctx.shape:
        mean = xp.mean(a, None)
    else:
        mean = xp.mean(a, ctx.axes, True)
        if not ctx.keepdim and len(ctx.shape) > 1:  # as PyTorch: a 1-d input's 0-d grad
            grad = xp.expand_dims(grad, ctx.axes)  # broadcasts as it is
    factor = float(np.float64(2.0) / ctx.denominator)  # no degree of freedom left: inf
    return MulScalar.call(grad, factor) * (a - mean)


class Std(ArrayFunction):
    node_name = "StdBackward0"
    saved_names = ("self", "result")
    n_params = 3

    @staticmethod
    def forward(ctx, a, dim, correction, keepdim):
        # the root of the float64 variance, rounded once (as PyTorch: a float32 variance of
        # 1e76 is inf, its std 1e38 is not)
        variance = Var.forward(ctx, a, dim, correction, keepdim, "std", True, stacklevel=5)
        out = np.sqrt(variance).astype(a.dtype, copy=False)
        ctx.save_for_backward(a, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        a, std = ctx.saved_tensors
        # a zero std passes no gradient (0 / 0 is silent: backward runs with numpy quiet)
        grad = MaskedFill.call(grad / MulScalar.call(std, 2), namespace(grad).data(std) == 0)
        return var_backward(grad, a, ctx)
