"""Reductions: sum, mean, max, min, var, std (whole tensor or by dim), softmax, log_softmax."""

from __future__ import annotations

import warnings

import numpy as np

from .._dtypes import get_default_dtype
from .._quiet import loud, quiet
from ..autograd import grad_mode
from ..autograd.function import ArrayFunction
from ..tensor import new_tensor, wrap_dim
from ._common import LEGACY_NAMES, c_order
from ._short_path import edge, node
from .arithmetic import DivScalar, MaskedFill, MulScalar
from .namespace import namespace
from .selection import Scatter

_grad_state = grad_mode.state


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

    @staticmethod
    def forward(ctx, a):
        if a.dtype.kind != "f":
            _check_floating(a, "mean")
        ctx.shape, ctx.size = a.shape, a.size
        if not a.size:
            return np.array(np.nan, a.dtype)
        return np.asarray(np.add.reduce(a, axis=None) / a.size)  # a 0-d array, not a scalar

    @staticmethod
    def backward(ctx, grad):
        if type(grad) is np.ndarray and 0 < ctx.size <= _EXACT_COUNT:  # the ordinary backward
            # grad is 0-d: one division in Python floats, rounded once into the array. The
            # quotient of two float32 (or float16) values computed in float64 and rounded is
            # the correctly rounded float32 one, as PyTorch's; numpy dividing by a Python int
            # costs 0.5 us more, on every mean() of a training loop.
            out = np.empty(ctx.shape, grad.dtype)
            out.fill(grad.item() / ctx.size)
            return out
        if type(grad) is np.ndarray:
            out = np.empty(ctx.shape, grad.dtype)
            out[...] = grad / ctx.size
            return out
        return DivScalar.call(namespace(grad).broadcast_to(grad, ctx.shape), ctx.size)


class MeanDim(ArrayFunction):
    node_name = "MeanBackward1"
    n_params = 2

    @staticmethod
    def forward(ctx, a, dim, keepdim):
        _check_floating(a, "mean")
        ctx.shape, ctx.axes, ctx.keepdim = a.shape, reduce_dims(dim, a.ndim), keepdim
        count = int(np.prod([a.shape[i] for i in ctx.axes]))
        return c_order(np.add.reduce(a, axis=ctx.axes, keepdims=keepdim) / count)  # no warning

    @staticmethod
    def backward(ctx, grad):
        count = int(np.prod([ctx.shape[i] for i in ctx.axes]))
        return DivScalar.call(expand_back(grad, ctx.shape, ctx.axes, ctx.keepdim), count)


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


class Var(ArrayFunction):
    """Variance with Bessel's correction by default (``correction=1``)."""

    node_name = "VarBackward0"
    saved_names = ("self",)
    n_params = 3

    @staticmethod
    def forward(ctx, a, dim, correction, keepdim, name="var", wide_result=False):
        if a.dtype.kind != "f":
            raise RuntimeError("std and var only support floating point and complex dtypes")
        axes = reduce_dims(dim, a.ndim)
        n = int(np.prod([a.shape[i] for i in axes])) if a.size else 0  # PyTorch: numel ratio
        if n - correction <= 0:
            warnings.warn(
                f"{name}(): degrees of freedom is <= 0. Correction should be strictly less than "
                "the reduction factor (input numel divided by output numel).",
                UserWarning,
                stacklevel=4,
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
        variance = Var.forward(ctx, a, dim, correction, keepdim, "std", wide_result=True)
        out = np.sqrt(variance).astype(a.dtype, copy=False)
        ctx.save_for_backward(a, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        a, std = ctx.saved_tensors
        # a zero std passes no gradient (0 / 0 is silent: backward runs with numpy quiet)
        grad = MaskedFill.call(grad / MulScalar.call(std, 2), namespace(grad).data(std) == 0)
        return var_backward(grad, a, ctx)


class Softmax(ArrayFunction):
    node_name = "SoftmaxBackward0"
    saved_names = ("result",)
    n_params = 1

    @staticmethod
    def forward(ctx, a, dim):
        axis = wrap_dim(dim, a.ndim)
        a = np.asarray(a, order="C")  # PyTorch works on input.contiguous(): a C-ordered result
        if a.size == 0:  # nothing to normalise: an empty result (any dtype), as in PyTorch
            out = a.copy()
            ctx.save_for_backward(out)
            ctx.axis = axis
            return out
        _check_softmax_dtype(a, axis, "softmax")
        e = np.exp(a - np.maximum.reduce(a, axis, keepdims=True))
        out = e / e.sum(axis=axis, keepdims=True)
        ctx.save_for_backward(out)
        ctx.axis = axis
        return out

    @staticmethod
    def backward(ctx, grad):
        (out,) = ctx.saved_tensors
        return SoftmaxBackward.call(grad, out, ctx.axis)


class SoftmaxBackward(ArrayFunction):
    """softmax's gradient as an op of its own, so that it can be differentiated again."""

    node_name = "SoftmaxBackwardDataBackward0"
    n_params = 1

    @staticmethod
    def forward(ctx, grad, out, axis):
        ctx.save_for_backward(grad, out)
        ctx.axis = axis
        return out * (grad - (grad * out).sum(axis=axis, keepdims=True))

    @staticmethod
    def backward(ctx, gg):
        grad, out = ctx.saved_tensors
        sum_, axis = namespace(gg).sum, ctx.axis
        # PyTorch's softmax_double_backward, term by term
        grad_out = grad * gg - sum_(out * grad, axis, True) * gg - grad * sum_(out * gg, axis, True)
        return SoftmaxBackward.call(gg, out, axis), grad_out


class LogSoftmax(ArrayFunction):
    """log(softmax(x)) along ``dim``, computed as ``x - max - log(sum(exp(x - max)))``.

    ``cross_entropy`` makes one per training step, so a float tensor has an ``apply`` of
    its own (``_short_path``): the same forward and the same node, recorded directly.
    """

    node_name = "LogSoftmaxBackward0"
    saved_names = ("result",)
    n_params = 1

    @classmethod
    def apply(cls, input, dim):
        try:
            a = input._data
        except AttributeError:  # not a tensor: the general path says so
            return ArrayFunction.apply.__func__(cls, input, dim)
        if a.dtype.kind != "f":  # PyTorch's "not implemented for" error, on the general path
            return ArrayFunction.apply.__func__(cls, input, dim)
        requires = input._requires_grad and _grad_state.enabled
        ctx = node(cls, (edge(input),)) if requires else cls._Node()
        token = quiet()
        try:
            if a.ndim == 2 and (dim == 1 or dim == -1) and a.size:  # (N, C) scores, by class
                ctx.axis = 1
                ctx._saved = (out := log_softmax(a, 1),)
            else:
                out = cls.forward(ctx, a, dim)
        finally:
            loud(token)
        if type(out) is not np.ndarray:  # a 0-d input: numpy's arithmetic gave a scalar
            out = np.asarray(out)
            ctx._saved = (out,)
        if not requires:
            return new_tensor(out)
        result = new_tensor(out, ctx, True)
        vc = result._vc
        ctx._saved_checks = (vc, vc[0], -1)  # the saved result, watched for in-place changes
        return result

    @staticmethod
    def forward(ctx, a, dim):
        axis = wrap_dim(dim, a.ndim)
        a = np.asarray(a, order="C")  # PyTorch works on input.contiguous(): a C-ordered result
        if a.size == 0:  # nothing to normalise: an empty result (any dtype), as in PyTorch
            out = a.copy()
            ctx.save_for_backward(out)
            ctx.axis = axis
            return out
        _check_softmax_dtype(a, axis, "log_softmax")
        out = log_softmax(a, axis)
        if type(out) is not np.ndarray:  # a 0-d input gave a numpy scalar (the short path
            out = np.asarray(out)  # has no _as_array after forward)
        ctx.save_for_backward(out)
        ctx.axis = axis
        return out

    @staticmethod
    def backward(ctx, grad):
        (out,) = ctx.saved_tensors
        if type(grad) is np.ndarray:  # an ordinary backward: the formula, nothing to record
            return log_softmax_grad(grad, out, ctx.axis)
        return LogSoftmaxBackward.call(grad, out, ctx.axis)


def log_softmax(a: np.ndarray, axis: int) -> np.ndarray:
    """``a - max - log(sum(exp(a - max)))`` along ``axis``, of a non-empty float array."""
    out = a - np.maximum.reduce(a, axis, keepdims=True)  # the ufuncs: no wrapper calls
    out -= np.log(np.add.reduce(np.exp(out), axis, keepdims=True))
    return out


def log_softmax_grad(grad: np.ndarray, out: np.ndarray, axis: int) -> np.ndarray:
    """``grad - softmax * sum(grad)``: log_softmax's gradient, ``out`` its result."""
    return grad - np.exp(out) * np.add.reduce(grad, axis, keepdims=True)


class LogSoftmaxBackward(ArrayFunction):
    """log_softmax's gradient as an op of its own, so that it can be differentiated again."""

    node_name = "LogSoftmaxBackwardDataBackward0"
    n_params = 1

    @staticmethod
    def forward(ctx, grad, out, axis):
        ctx.save_for_backward(grad, out)
        ctx.axis = axis
        return log_softmax_grad(grad, out, axis)

    @staticmethod
    def backward(ctx, gg):
        grad, out = ctx.saved_tensors
        xp, axis = namespace(gg), ctx.axis
        grad_grad = gg - xp.sum(gg * xp.exp(out), axis, True)  # PyTorch's two formulas
        return grad_grad, -xp.sum(grad, axis, True) * xp.exp(out) * gg


def _check_softmax_dtype(a: np.ndarray, axis: int, name: str) -> None:
    if a.dtype.kind != "f":
        kernel = "lastdim_kernel_impl" if axis == a.ndim - 1 or a.ndim == 0 else "kernel_impl"
        raise NotImplementedError(
            f"\"{name}_{kernel}\" not implemented for '{LEGACY_NAMES[a.dtype]}'"
        )


class SumAs(ArrayFunction):
    """``sum(dtype=...)``: summed in ``dtype`` in one node, as PyTorch records it (no cast
    node before it); the gradient goes back in the input's dtype."""

    node_name = "SumBackward0"
    n_params = 1
    default_float = False  # the dtype asked for, float64 included

    @staticmethod
    def forward(ctx, a, dtype):
        ctx.shape, ctx.dtype = a.shape, a.dtype
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
        return np.asarray(a.astype(dtype).mean() if a.size else np.array(np.nan, dtype))

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
        count = int(np.prod([a.shape[i] for i in ctx.axes]))
        return c_order(a.astype(dtype).sum(axis=ctx.axes, keepdims=keepdim) / count)

    @staticmethod
    def backward(ctx, grad):
        xp = namespace(grad)
        count = int(np.prod([ctx.shape[i] for i in ctx.axes]))
        grad = DivScalar.call(expand_back(grad, ctx.shape, ctx.axes, ctx.keepdim), count)
        return xp.astype(grad, ctx.dtype)
