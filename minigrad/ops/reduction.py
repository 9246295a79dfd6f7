"""Reductions: sum and mean (whole tensor or by dim), and the helpers every reduction uses.

``reduce_dims`` normalises a ``dim`` argument, ``expand_back`` broadcasts a reduced
gradient back over the reduced axes. The other reductions have a module each:
``extremes.py`` (max, min), ``variance.py`` (var, std) and ``softmax.py``
(softmax, log_softmax).
"""

from __future__ import annotations

import numpy as np

from ..autograd.function import ArrayFunction
from ..tensor import wrap_dim
from ._common import LEGACY_NAMES, c_order
from ._summation import float_mean, float_sum, summable
from .arithmetic import DivScalar
from .namespace import namespace


def reduce_dims(dim, ndim: int) -> tuple[int, ...]:
    """Normalise ``dim`` (an int, a tuple of ints or None = all) to sorted axes."""
    if dim is None:
        return tuple(range(ndim))
    dims = (dim,) if isinstance(dim, int) else tuple(dim)
    axes = tuple(sorted({wrap_dim(d, ndim) for d in dims}))
    if len(axes) != len(dims):
        raise RuntimeError(
            f"dim {_repeated(dims, ndim)} appears multiple times in the list of dims"
        )
    if ndim == 0:
        return ()  # a 0-d tensor accepts dim 0 or -1, and there is nothing to reduce
    return axes


def _repeated(dims: tuple, ndim: int) -> int:
    seen = set()
    for d in dims:
        w = wrap_dim(d, ndim)
        if w in seen:
            return w
        seen.add(w)
    return dims[0]


def expand_back(grad, shape: tuple, axes: tuple, keepdim: bool):
    """Broadcast a reduced gradient back over the reduced axes."""
    xp = namespace(grad)
    if not keepdim:
        grad = xp.expand_dims(grad, axes)
    return xp.broadcast_to(grad, shape)


class Sum(ArrayFunction):
    """Sum of all elements."""

    node_name = "SumBackward0"

    @staticmethod
    def forward(ctx, a):
        ctx.shape = a.shape
        if a.dtype.char in summable:
            return float_sum(a, tuple(range(a.ndim)))
        return a.sum(dtype=np.int64 if a.dtype.kind in "biu" else None)

    @staticmethod
    def backward(ctx, grad):
        return namespace(grad).broadcast_to(grad, ctx.shape)


class SumDim(ArrayFunction):
    node_name = "SumBackward1"
    n_params = 2

    @staticmethod
    def forward(ctx, a, dim, keepdim):
        ctx.shape, ctx.axes, ctx.keepdim = a.shape, reduce_dims(dim, a.ndim), keepdim
        if a.dtype.char in summable:
            return float_sum(a, ctx.axes, keepdim)
        dtype = np.int64 if a.dtype.kind in "biu" else None
        return c_order(a.sum(axis=ctx.axes, keepdims=keepdim, dtype=dtype))

    @staticmethod
    def backward(ctx, grad):
        return expand_back(grad, ctx.shape, ctx.axes, ctx.keepdim)


def _check_floating(a: np.ndarray, name: str) -> None:
    if a.dtype.kind != "f":
        kind = LEGACY_NAMES[a.dtype]
        raise RuntimeError(
            f"{name}(): could not infer output dtype. Input dtype must be either a floating "
            f"point or complex dtype. Got: {kind}"
        )


_EXACT_COUNT = 1 << 24  # counts up to this are exact in float32: grad / n rounds the same


class Mean(ArrayFunction):
    """Mean of all elements: ``mean(x*x)`` is the lessons' first graph."""

    node_name = "MeanBackward0"
    exact_grads = True  # the engine runs backward directly (function.py): it keeps nothing

    @staticmethod
    def forward(ctx, a):
        if a.dtype.kind != "f":
            _check_floating(a, "mean")
        size = a.size
        ctx.shape, ctx.size = a.shape, size
        if not size:
            return np.array(np.nan, a.dtype)
        if size <= 4 and a.flags.c_contiguous or a.dtype.char not in summable:
            # up to 4 elements in a row PyTorch adds left to right, from 0., as numpy does
            return np.asarray(np.add.reduce(a, axis=None) / size)  # a 0-d array, not a scalar
        return float_mean(a, tuple(range(a.ndim)))  # PyTorch's order of additions

    @staticmethod
    def backward(ctx, grad):
        if type(grad) is np.ndarray and 0 < ctx.size <= _EXACT_COUNT:  # the ordinary backward
            # grad is 0-d: one division in Python floats, rounded once into the array. The
            # quotient of two float32 (or float16) values computed in float64 and rounded is
            # the correctly rounded float32 one, as PyTorch's; numpy dividing by a Python int
            # costs 0.5 us more, on every mean() of a training loop.
            out = np.empty(ctx.shape, grad.dtype)
            out.fill(grad.item() / ctx.size)
            return (out,)
        if type(grad) is np.ndarray:
            out = np.empty(ctx.shape, grad.dtype)
            out[...] = grad / ctx.size
            return (out,)
        return (DivScalar.call(namespace(grad).broadcast_to(grad, ctx.shape), ctx.size),)


class MeanDim(ArrayFunction):
    node_name = "MeanBackward1"
    n_params = 2

    @staticmethod
    def forward(ctx, a, dim, keepdim):
        _check_floating(a, "mean")
        ctx.shape, ctx.axes, ctx.keepdim = a.shape, reduce_dims(dim, a.ndim), keepdim
        if a.dtype.char in summable:
            return float_mean(a, ctx.axes, keepdim)  # (a count of 0: nan, no warning)
        count = int(np.prod([a.shape[i] for i in ctx.axes]))
        return c_order(np.add.reduce(a, axis=ctx.axes, keepdims=keepdim) / count)  # no warning

    @staticmethod
    def backward(ctx, grad):
        count = int(np.prod([ctx.shape[i] for i in ctx.axes]))
        return DivScalar.call(expand_back(grad, ctx.shape, ctx.axes, ctx.keepdim), count)


class SumAs(ArrayFunction):
    """``sum(dtype=...)``: summed in ``dtype`` in one node, as PyTorch records it (no cast
    node before it); the gradient goes back in the input's dtype."""

    node_name = "SumBackward0"
    n_params = 1
    default_float = False  # the dtype asked for, float64 included

    @staticmethod
    def forward(ctx, a, dtype):
        ctx.shape, ctx.dtype = a.shape, a.dtype
        if np.dtype(dtype).char in summable:  # PyTorch casts, then sums in dtype
            return float_sum(a.astype(dtype, order="K", copy=False), tuple(range(a.ndim)))
        return np.asarray(a.sum(dtype=dtype))

    @staticmethod
    def backward(ctx, grad):
        xp = namespace(grad)
        return xp.astype(xp.broadcast_to(grad, ctx.shape), ctx.dtype)


class SumDimAs(ArrayFunction):
    """``sum(dim, keepdim, dtype=...)``."""

    node_name = "SumBackward1"
    n_params = 3
    default_float = False  # the dtype asked for, float64 included

    @staticmethod
    def forward(ctx, a, dim, keepdim, dtype):
        ctx.shape, ctx.axes, ctx.keepdim = a.shape, reduce_dims(dim, a.ndim), keepdim
        ctx.dtype = a.dtype
        if np.dtype(dtype).char in summable:  # PyTorch casts, then sums in dtype
            return float_sum(a.astype(dtype, order="K", copy=False), ctx.axes, keepdim)
        return c_order(a.sum(axis=ctx.axes, keepdims=keepdim, dtype=dtype))

    @staticmethod
    def backward(ctx, grad):
        xp = namespace(grad)
        return xp.astype(expand_back(grad, ctx.shape, ctx.axes, ctx.keepdim), ctx.dtype)


class MeanAs(ArrayFunction):
    """``mean(dtype=...)``: the mean in a floating ``dtype``, in one node."""

    node_name = "MeanBackward0"
    n_params = 1
    default_float = False  # the dtype asked for, float64 included

    @staticmethod
    def forward(ctx, a, dtype):
        ctx.shape, ctx.size, ctx.dtype = a.shape, a.size, a.dtype
        if not a.size:
            return np.array(np.nan, dtype)
        wide = a.astype(dtype, order="K", copy=False)  # PyTorch casts, then sums in dtype
        if wide.dtype.char in summable:
            return float_mean(wide, tuple(range(a.ndim)))
        return np.asarray(wide.mean())

    @staticmethod
    def backward(ctx, grad):
        xp = namespace(grad)
        return xp.astype(DivScalar.call(xp.broadcast_to(grad, ctx.shape), ctx.size), ctx.dtype)


class MeanDimAs(ArrayFunction):
    """``mean(dim, keepdim, dtype=...)``."""

    node_name = "MeanBackward1"
    n_params = 3
    default_float = False  # the dtype asked for, float64 included

    @staticmethod
    def forward(ctx, a, dim, keepdim, dtype):
        ctx.shape, ctx.axes, ctx.keepdim = a.shape, reduce_dims(dim, a.ndim), keepdim
        ctx.dtype = a.dtype
        wide = a.astype(dtype, order="K", copy=False)  # PyTorch casts, then sums in dtype
        if wide.dtype.char in summable:
            return float_mean(wide, ctx.axes, keepdim)
        count = int(np.prod([a.shape[i] for i in ctx.axes]))
        return c_order(wide.sum(axis=ctx.axes, keepdims=keepdim) / count)

    @staticmethod
    def backward(ctx, grad):
        xp = namespace(grad)
        count = int(np.prod([ctx.shape[i] for i in ctx.axes]))
        grad = DivScalar.call(expand_back(grad, ctx.shape, ctx.axes, ctx.keepdim), count)
        return xp.astype(grad, ctx.dtype)
