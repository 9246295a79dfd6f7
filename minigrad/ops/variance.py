"""var and std, whole tensor or by dim, with Bessel's ``correction``."""

from __future__ import annotations

import warnings

import numpy as np

from .._dtypes import get_default_dtype
from ..autograd.function import ArrayFunction
from ._common import c_order
from ._summation import float_mean, summable
from ._tensor_walk import memory_runs, reduced_order
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
        ctx.save_for_backward(a)  # centred again in backward: a value of the graph
        ctx.shape, ctx.axes, ctx.keepdim, ctx.denominator = a.shape, axes, keepdim, n - correction
        ctx.all_dims = dim is None or a.ndim == 0
        if a.size and n == a.size and a.dtype.char in summable:  # one result: PyTorch's own
            shape = tuple(1 for d in range(a.ndim) if keepdim or d not in axes)
            out = np.full(shape, _var_all(a, correction))
            return out if wide_result else out.astype(a.dtype)
        if a.dtype == np.float64 and 0 < n <= _WELFORD_MAX and a.size:
            out = _welford(a, axes, correction).reshape(_kept(a.shape, axes, keepdim))
            return c_order(out)
        wide = a.astype(np.float64, copy=False)  # accumulate in float64 (as PyTorch), round once
        centred = (
            wide - np.add.reduce(wide, axis=axes, keepdims=True) / n
        )  # no numpy warning at n=0
        with np.errstate(divide="ignore", invalid="ignore"):
            out = (centred * centred).sum(axis=axes, keepdims=keepdim) / max(n - correction, 0)
        return c_order(out if wide_result else out.astype(a.dtype, copy=False))

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        return var_backward(grad, a, ctx)


def _var_all(a: np.ndarray, correction) -> float:
    """PyTorch's variance of a whole float32 or float64 tensor (``std_var_all_cpu``): the
    mean in the tensor's dtype (its sum kernel's), then the squared deviations from it
    added in float64 one after the other, in memory order, and divided by n - correction."""
    mean = float(float_mean(a, tuple(range(a.ndim))))
    runs = memory_runs(a).astype(np.float64)
    runs -= mean
    runs *= runs
    total = 0.0
    for run in runs:  # each run of the inner loop from 0., then added to the total
        total += float(np.add.accumulate(run)[-1])
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.float64(total) / max(0.0, a.size - correction)


_WELFORD_MAX = 4096  # longer float64 reductions: the two-pass sum (a last-bit difference)


def _kept(shape: tuple, axes: tuple, keepdim: bool) -> tuple:
    return tuple(1 if d in axes else n for d, n in enumerate(shape) if keepdim or d not in axes)


def _welford(a: np.ndarray, axes: tuple, correction) -> np.ndarray:
    """PyTorch's variance by dim (``WelfordOps`` in float64): each output's elements taken
    one at a time in the kernel's order, a running mean and sum of squares updated. It only
    shows in float64 (a float32 variance rounds the same as the two-pass sum's)."""
    kept = [d for d in range(a.ndim) if d not in axes]
    order = reduced_order(a, axes)
    count = a.size // int(np.prod([a.shape[d] for d in kept]))
    rows = a.transpose(order + kept).reshape(count, -1)
    mean = np.zeros(rows.shape[1:])
    m2 = np.zeros(rows.shape[1:])
    for k, x in enumerate(rows):
        delta = x - mean
        mean = mean + delta / float(k + 1)
        m2 = m2 + delta * (x - mean)
    with np.errstate(divide="ignore", invalid="ignore"):
        return m2 / max(0.0, len(rows) - correction)


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
