"""Activations beyond tanh and sigmoid (those are in ``unary.py``): relu, leaky_relu."""

from __future__ import annotations

import numpy as np

from .._quiet import loud, quiet
from ..autograd import anomaly_mode, grad_mode
from ..autograd.anomaly_mode import remember_forward
from ..autograd.function import ArrayFunction
from ..autograd.node import sequence
from ..tensor import Tensor, follows_base, new_tensor
from ._common import LEGACY_NAMES
from ._short_path import edge
from .namespace import namespace

_BOOL = np.dtype(np.bool_)
_grad_state = grad_mode.state
_anomaly = anomaly_mode.state


class LeakyRelu(ArrayFunction):
    """``x`` where positive, ``negative_slope * x`` elsewhere; the gradient is 1 or the slope."""

    node_name = "LeakyReluBackward0"
    n_params = 1

    @staticmethod
    def forward(ctx, a, negative_slope):
        if a.dtype.kind != "f":
            raise NotImplementedError(
                f"\"leaky_relu_cpu\" not implemented for '{LEGACY_NAMES[a.dtype]}'"
            )
        ctx.save_for_backward(a)
        ctx.slope = negative_slope
        return np.where(a > 0, a, a * np.asarray(negative_slope, a.dtype))

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        return LeakyReluBackward.call(grad, a, ctx.slope)


class LeakyReluBackward(ArrayFunction):
    """leaky_relu's gradient as an op of its own (``LeakyReluBackwardBackward0``, edges grad
    and self): linear in ``grad``; its derivative in ``self`` is zero (PyTorch's zeros_like)."""

    node_name = "LeakyReluBackwardBackward0"
    n_params = 1

    @staticmethod
    def forward(ctx, grad, a, negative_slope):
        ctx.save_for_backward(a)
        ctx.slope = negative_slope
        return np.where(a > 0, grad, grad * np.asarray(negative_slope, grad.dtype))

    @staticmethod
    def backward(ctx, gg):
        (a,) = ctx.saved_tensors
        xp = namespace(gg)
        zeros = xp.zeros(xp.data(a).shape, xp.dtype(gg))
        return LeakyReluBackward.call(gg, a, ctx.slope), zeros


try:  # np.where's C function, without the dispatcher's Python call (0.1 us a call)
    from numpy._core._multiarray_umath import where as _where
except ImportError:  # pragma: no cover - a numpy that moved it
    _where = np.where

_BITS_OF_FLOAT = {
    np.dtype(np.float16): np.uint16,
    np.dtype(np.float32): np.uint32,
    np.dtype(np.float64): np.uint64,
}
# 0 and 1 as 0-d arrays of each dtype: numpy converts a Python number on every ufunc call
# (a quarter of a microsecond on a (100, 16) relu); the same values, so the same bits
_ZERO = {t: np.zeros((), t) for t in _BITS_OF_FLOAT}
_ONE = {np.dtype(t): np.ones((), t) for t in _BITS_OF_FLOAT.values()}
_WHERE_UP_TO = 2048  # threshold_backward: where() up to this size (measured: equal at ~4,000)


class Relu(ArrayFunction):
    """max(0, x). Every hidden layer runs it, so a float tensor takes a short ``apply``
    (``_short_path``) that records the general path's node."""

    node_name = "ReluBackward0"
    saved_names = ("result",)
    exact_grads = True

    @classmethod
    def apply(cls, a):
        data = getattr(a, "_data", None)
        if data is None or data.dtype.kind != "f":  # not a float tensor: the general path
            return ArrayFunction.apply.__func__(cls, a)
        token = quiet()
        try:
            out = np.maximum(_ZERO.get(data.dtype, 0), data)  # as forward computes it
            if type(out) is not np.ndarray:  # a 0-d input gives a numpy scalar
                out = np.asarray(out)
        finally:
            loud(token)
        if not ((a._requires_grad or follows_base(a)) and _grad_state.enabled):
            return new_tensor(out)
        na = a._grad_fn  # edge(a) and node() written out for a hidden layer's input
        if na is None or not a._requires_grad or a._base is not None:
            na = edge(a)
        ctx = cls._Node()
        ctx._next, ctx._seq = (na,), next(sequence)
        if _anomaly.enabled:
            remember_forward(ctx)
        result = new_tensor(out, ctx, True)
        ctx._saved = (out,)  # the result, watched by its own version
        vc = result._vc
        ctx._saved_checks = (vc, vc[0], -1)
        return result

    @staticmethod
    def forward(ctx, a):
        if a.dtype is _BOOL:
            raise RuntimeError("Boolean inputs not supported for relu")
        out = np.maximum(0, a)  # 0 first: -0. stays -0. (numpy keeps the second at a tie)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        (out,) = ctx.saved_tensors
        if type(grad) is np.ndarray and grad.size <= _WHERE_UP_TO and out.dtype is grad.dtype:
            zero = _ZERO.get(grad.dtype)
            if zero is not None:  # relu's output is never below 0: out <= 0 is out == 0,
                return (_where(out, grad, zero),)  # its truth value (a nan passes)
        if isinstance(grad, Tensor):  # under create_graph: recorded, to differentiate again
            return (ThresholdBackward.apply(grad, out),)
        return (threshold_backward(grad, out),)  # ThresholdBackward.call without its dispatch


def threshold_backward(grad: np.ndarray, out: np.ndarray) -> np.ndarray:
    """PyTorch's threshold_backward, a select: where out <= 0 the gradient is 0 (not the -0. or
    nan of grad * False); elsewhere, a nan output included, it passes.

    Done on the bits (grad AND all-ones or all-zeros): numpy's masked copy or where() on a
    random mask is ten times slower than this on large arrays, and than relu's forward. On a
    small one (a hidden layer of a small model, (100, 16)) where() is the faster, by a third:
    two numpy calls instead of four, the same values (a +0. where out <= 0).
    """
    bits = _BITS_OF_FLOAT.get(grad.dtype)
    if bits is None:
        selected = np.zeros_like(grad)
        np.copyto(selected, grad, where=~(out <= 0))
        return selected
    zero = _ZERO[grad.dtype]
    if grad.size <= _WHERE_UP_TO and out.dtype is grad.dtype:
        return np.where(np.less_equal(out, zero), zero, grad)
    keep = np.asarray(np.less_equal(out, _ZERO.get(out.dtype, 0)), bits)  # a cast, then a
    keep -= _ONE[keep.dtype]  # subtraction in one dtype (faster): False - 1 wraps to all ones
    return np.bitwise_and(grad.view(bits), keep).view(grad.dtype)


class ThresholdBackward(ArrayFunction):
    """relu's gradient (``grad`` where the output is positive) as an op of its own."""

    node_name = "ThresholdBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, out):
        ctx.save_for_backward(grad, out)
        return threshold_backward(grad, out)

    @staticmethod
    def backward(ctx, gg):
        grad, out = ctx.saved_tensors
        return ThresholdBackward.call(gg, out), namespace(gg).zeros_like(out)
