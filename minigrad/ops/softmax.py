"""softmax and log_softmax along a dim.

Their gradients are ops of their own (``SoftmaxBackwardDataBackward0``,
``LogSoftmaxBackwardDataBackward0``), so that a gradient of a gradient goes through
them as in PyTorch.
"""

from __future__ import annotations

import numpy as np

from .._quiet import loud, quiet
from ..autograd import grad_mode
from ..autograd.function import ArrayFunction
from ..tensor import follows_base, new_tensor, wrap_dim
from ._common import LEGACY_NAMES
from ._short_path import edge, node
from .exact_softmax import exact_log_softmax as _exact_log_softmax
from .exact_softmax import exact_log_softmax_grad as _exact_log_softmax_grad
from .exact_softmax import exact_softmax as _exact_softmax
from .exact_softmax import exact_softmax_grad as _exact_softmax_grad
from .namespace import namespace
from .vector_kernels import EXACT_UP_TO, LANES

_grad_state = grad_mode.state


class Softmax(ArrayFunction):
    node_name = "SoftmaxBackward0"
    saved_names = ("result",)
    n_params = 1

    @staticmethod
    def forward(ctx, a, dim):
        return _forward(ctx, a, dim, "softmax", softmax)

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
        if out.size <= EXACT_UP_TO and out.dtype in LANES and grad.dtype == out.dtype:
            return _exact_softmax_grad(grad, out, axis)
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
    exact_grads = True  # the engine runs backward directly (function.py)
    n_params = 1

    @classmethod
    def apply(cls, input, dim):
        try:
            a = input._data
        except AttributeError:  # not a tensor: the general path says so
            return ArrayFunction.apply.__func__(cls, input, dim)
        if a.dtype.kind != "f":  # PyTorch's "not implemented for" error, on the general path
            return ArrayFunction.apply.__func__(cls, input, dim)
        requires = (input._requires_grad or follows_base(input)) and _grad_state.enabled
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
        return _forward(ctx, a, dim, "log_softmax", _log_softmax_array)

    @staticmethod
    def backward(ctx, grad):
        (out,) = ctx.saved_tensors
        if type(grad) is np.ndarray:  # an ordinary backward: the formula, nothing to record
            known = ctx._row_sum  # told by nll_loss's backward (classification_loss.py)
            if known is not None:
                ctx._row_sum = None
                known = known[1] if known[0] is grad and not ctx._hooked else None
            return (log_softmax_grad(grad, out, ctx.axis, known),)
        return (LogSoftmaxBackward.call(grad, out, ctx.axis),)


LogSoftmax._Node._row_sum = None  # (gradient, the sum of each of its rows): see backward


def _forward(ctx, a: np.ndarray, dim: int, name: str, compute) -> np.ndarray:
    """softmax's and log_softmax's forward around ``compute(a, axis)``: PyTorch's dim check,
    a C-ordered input, the empty case and the dtype check, then the result saved."""
    axis = wrap_dim(dim, a.ndim)
    a = np.asarray(a, order="C")  # PyTorch works on input.contiguous(): a C-ordered result
    if a.size == 0:  # nothing to normalise: an empty result (any dtype), as in PyTorch
        out = a.copy()
    else:
        _check_softmax_dtype(a, axis, name)
        out = compute(a, axis)
    ctx.save_for_backward(out)
    ctx.axis = axis
    return out


def softmax(a: np.ndarray, axis: int) -> np.ndarray:
    """``exp(a - max) / sum(exp(a - max))`` along ``axis``, of a non-empty float array."""
    if a.size <= EXACT_UP_TO and a.dtype in LANES:
        return _exact_softmax(a, axis)
    e = np.exp(a - np.maximum.reduce(a, axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def _log_softmax_array(a: np.ndarray, axis: int) -> np.ndarray:
    """``log_softmax`` as an array: a 0-d input gives a numpy scalar (and the short path
    has no ``_as_array`` after forward)."""
    out = log_softmax(a, axis)
    return out if type(out) is np.ndarray else np.asarray(out)


def log_softmax(a: np.ndarray, axis: int) -> np.ndarray:
    """``a - max - log(sum(exp(a - max)))`` along ``axis``, of a non-empty float array."""
    if a.size <= EXACT_UP_TO and a.dtype in LANES:
        return _exact_log_softmax(a, axis)
    out = a - np.maximum.reduce(a, axis, keepdims=True)  # the ufuncs: no wrapper calls
    out -= np.log(np.add.reduce(np.exp(out), axis, keepdims=True))
    return out


def log_softmax_grad(grad: np.ndarray, out: np.ndarray, axis: int, sums=None) -> np.ndarray:
    """``grad - softmax * sum(grad)``: log_softmax's gradient, ``out`` its result. ``sums``:
    the one sum of every row of ``grad`` (along ``axis``), when the caller knows it."""
    if out.size <= EXACT_UP_TO and out.dtype in LANES and grad.dtype == out.dtype:
        return _exact_log_softmax_grad(grad, out, axis)
    if sums is None:
        sums = np.add.reduce(grad, axis, keepdims=True)
    return grad - np.exp(out) * sums


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
