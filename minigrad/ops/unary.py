"""Elementwise functions of one tensor: exp, log, sqrt, abs, sign, sin, cos, tanh, sigmoid.

relu (the hot path of every hidden layer) is in ``activation.py`` with the other
activations, and clamp in ``clamp.py``.
"""

from __future__ import annotations

import numpy as np

from .._dtypes import as_float
from .._quiet import loud, quiet
from ..autograd import anomaly_mode, grad_mode
from ..autograd.array_apply import _apply_unary
from ..autograd.function import ArrayFunction
from ..autograd.zero_grads import efficient_zeros
from ..tensor import follows_base, new_tensor
from . import libm_float
from ._common import PRINTED_IN_FULL
from ._output_layout import elementwise_layout
from ._short_path import edge, node
from .arithmetic import AddScalar, MulScalar
from .array_kernels import sign_of
from .cpu_loop_split import split
from .namespace import NumpyNamespace, namespace
from .vector_kernels import scalar_exp, vector_exp

_BOOL = np.dtype(np.bool_)
_F32 = np.dtype(np.float32)
_anomaly = anomaly_mode.state
_state = grad_mode.state


class Exp(ArrayFunction):
    node_name = "ExpBackward0"
    saved_names = ("result",)
    keeps_zeros = (True,)  # grad * out, grad / a: PyTorch's efficient zeros stay zeros

    @staticmethod
    def forward(ctx, a):
        a = as_float(a)
        # numpy's float32 exp is off by an ulp for 4 inputs in 10; PyTorch's is correctly
        # rounded (exp(12.) prints 162754.7969): compute in float64 and round once
        out = np.exp(a.astype(np.float64)).astype(a.dtype) if a.dtype is _F32 else np.exp(a)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        (out,) = ctx.saved_tensors
        return grad * out


class Log(ArrayFunction):
    node_name = "LogBackward0"
    saved_names = ("self",)
    keeps_zeros = (True,)

    @staticmethod
    def forward(ctx, a):
        a = as_float(a)
        ctx.save_for_backward(a)
        return NumpyNamespace.log(a)  # float32 rounded once, as PyTorch

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        return grad / a


class Sqrt(ArrayFunction):
    node_name = "SqrtBackward0"
    saved_names = ("result",)
    keeps_zeros = (True,)

    @staticmethod
    def forward(ctx, a):
        a = as_float(a)
        out = np.sqrt(a)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        (out,) = ctx.saved_tensors
        return grad / MulScalar.call(out, 2)


class Abs(ArrayFunction):
    node_name = "AbsBackward0"
    saved_names = ("self",)
    keeps_zeros = (True,)  # grad * sgn(a): efficient zeros stay zeros, no -0.

    @staticmethod
    def forward(ctx, a):
        if a.dtype is _BOOL:
            raise NotImplementedError("\"abs_cpu\" not implemented for 'Bool'")
        ctx.save_for_backward(a)
        return np.abs(a)

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        return grad * namespace(grad).sign(a)


class Sign(ArrayFunction):
    """The sign (-1, 0 or 1): flat almost everywhere, so its gradient is zero."""

    node_name = "SignBackward0"

    @staticmethod
    def forward(ctx, a):
        return a.copy() if a.dtype is _BOOL else sign_of(a)  # numpy has no bool sign

    @staticmethod
    def backward(ctx, grad):
        return namespace(grad).zeros_like(grad)


class Sgn(Sign):
    """``sgn``: the sign as PyTorch's abs backward uses it (``SgnBackward0``)."""

    node_name = "SgnBackward0"

    @staticmethod
    def forward(ctx, a):
        out = Sign.forward(ctx, a)
        ctx.save_for_backward(a, out)  # PyTorch's formula (for complex numbers) reads both
        return out

    @staticmethod
    def backward(ctx, grad):  # PyTorch's efficient zeros: adding them adds nothing
        return efficient_zeros(namespace(grad).zeros_like(grad))


class Sin(ArrayFunction):
    node_name = "SinBackward0"
    saved_names = ("self",)
    keeps_zeros = (True,)  # grad * cos(a): PyTorch's efficient zeros stay zeros

    @staticmethod
    def forward(ctx, a):
        a = as_float(a)
        ctx.save_for_backward(a)
        return NumpyNamespace.sin(a)  # float32 rounded once, as PyTorch

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        return grad * namespace(grad).cos(a)


class Cos(ArrayFunction):
    node_name = "CosBackward0"
    saved_names = ("self",)
    keeps_zeros = (True,)  # grad * -sin(a): efficient zeros stay zeros

    @staticmethod
    def forward(ctx, a):
        a = as_float(a)
        ctx.save_for_backward(a)
        return NumpyNamespace.cos(a)  # float32 rounded once, as PyTorch

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        return grad * -namespace(grad).sin(a)


class Tanh(ArrayFunction):
    """tanh, the hidden layer of many a first network (makemore's): a float tensor takes a
    short ``apply`` (``_short_path``), the general path's values and node recorded directly."""

    node_name = "TanhBackward0"
    saved_names = ("result",)
    exact_grads = True  # the engine runs backward directly (function.py)

    @classmethod
    def apply(cls, a):
        try:
            data = a._data
        except AttributeError:  # not a tensor: the general path says so
            return _apply_unary(cls, a)
        if data.dtype.kind != "f" or not data.ndim or _anomaly.enabled:
            return _apply_unary(cls, a)  # anomaly mode's stack names the general path's frames
        token = quiet()
        try:
            out = tanh(data)
            if out.ndim > 1 and not out.flags.c_contiguous:  # numpy's, for x.expand()
                out = elementwise_layout(out, data)
        finally:
            loud(token)
        if not ((a._requires_grad or follows_base(a)) and _state.enabled):
            return new_tensor(out)
        ctx = node(cls, (edge(a),))
        ctx._saved = (out,)
        result = new_tensor(out, ctx, True)
        ctx._saved_checks = (result._vc, 0, -1)  # the saved result, watched for in-place changes
        return result

    @staticmethod
    def forward(ctx, a):
        out = tanh(as_float(a))
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        (out,) = ctx.saved_tensors
        if type(grad) is np.ndarray:  # an ordinary backward: the formula, nothing to record
            return (tanh_grad(grad, out),)
        return (TanhBackward.call(grad, out),)


def tanh(a: np.ndarray) -> np.ndarray:
    """numpy's tanh of a float array, correctly rounded where a learner reads the digits."""
    if a.dtype is _F32 and a.size <= PRINTED_IN_FULL:  # see PRINTED_IN_FULL
        return np.tanh(a.astype(np.float64)).astype(_F32)
    return np.tanh(a)


def tanh_grad(grad: np.ndarray, out: np.ndarray) -> np.ndarray:
    """``grad * (1 - out * out)``, tanh's gradient from its result ``out``."""
    if out.dtype is _F32 and out.size <= PRINTED_IN_FULL:
        # PyTorch's kernel rounds 1 - out * out once (a fused multiply-add)
        return grad * (1 - np.square(out, dtype=np.float64)).astype(_F32)
    if grad.dtype is not out.dtype or grad.shape != out.shape or not out.ndim:
        return grad * (1 - out * out)
    one_minus = out * out  # the same three operations, two of them in place
    np.subtract(1, one_minus, out=one_minus)
    np.multiply(grad, one_minus, out=one_minus)
    return one_minus


class TanhBackward(ArrayFunction):
    """tanh's gradient as an op of its own, so that it can be differentiated again."""

    node_name = "TanhBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, out):
        ctx.save_for_backward(grad, out)
        return tanh_grad(grad, out)

    @staticmethod
    def backward(ctx, gg):
        grad, out = ctx.saved_tensors
        return TanhBackward.call(gg, out), gg * (MulScalar.call(out, -2) * grad)


class Sigmoid(ArrayFunction):
    node_name = "SigmoidBackward0"
    saved_names = ("result",)

    @staticmethod
    def forward(ctx, a):
        a = as_float(a)
        out = sigmoid(a)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        (out,) = ctx.saved_tensors
        return SigmoidBackward.call(grad, out)


def _sigmoid_with(exp):
    return lambda x: np.reciprocal(exp(-x) + x.dtype.type(1))


_SIGMOID_KERNELS = {
    np.dtype(np.float32): (_sigmoid_with(vector_exp), _sigmoid_with(libm_float.expf)),
    np.dtype(np.float64): (_sigmoid_with(vector_exp), _sigmoid_with(scalar_exp)),
}


def sigmoid(a: np.ndarray) -> np.ndarray:
    """PyTorch's ``1 / (1 + exp(-x))`` in the input's dtype: its kernel takes SLEEF's exp for
    whole blocks of 32 floats (16 doubles) and the C library's for the rest (``cpu_loop_split``),
    redone bit for bit for up to ``PRINTED_IN_FULL`` elements; larger tensors take exp
    correctly rounded (within an ulp). exp(-x) = inf gives 0, no warning (numpy is quiet)."""
    with np.errstate(all="ignore"):
        if a.size <= PRINTED_IN_FULL and a.dtype in _SIGMOID_KERNELS:
            return split(*_SIGMOID_KERNELS[a.dtype], a.shape, a)
        if a.dtype is _F32:
            e = np.exp(np.negative(a, dtype=np.float64)).astype(_F32)
        else:
            e = np.exp(-a)
        return np.asarray(np.reciprocal(e + 1))  # an array also for a 0-d input


class SigmoidBackward(ArrayFunction):
    """sigmoid's gradient as an op of its own, so that it can be differentiated again."""

    node_name = "SigmoidBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, out):
        ctx.save_for_backward(grad, out)
        return grad * (1 - out) * out  # PyTorch's order (its rounding)

    @staticmethod
    def backward(ctx, gg):
        grad, out = ctx.saved_tensors  # PyTorch's gg * grad * (-2 * out + 1)
        return SigmoidBackward.call(gg, out), gg * grad * AddScalar.call(MulScalar.call(out, -2), 1)


class Logit(ArrayFunction):
    """``log(p / (1 - p))``: here only for binary_cross_entropy's target gradient, which
    PyTorch writes as ``-logit(p) * grad`` (so its graph shows ``LogitBackward0``)."""

    node_name = "LogitBackward0"

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return np.log(a / (1 - a))

    @staticmethod
    def backward(ctx, grad):
        """``grad / (p (1 - p))`` for p in [0, 1], nan elsewhere (PyTorch's formula)."""
        (a,) = ctx.saved_tensors
        xp = namespace(grad)
        values, dtype = xp.data(a), xp.dtype(grad)
        inside = (values >= 0) & (values <= 1)
        one, nan = xp.constant(np.array(1, dtype)), xp.constant(np.array(np.nan, dtype))
        return xp.where(inside, grad / (a * (one - a)), nan)


class LogSigmoid(ArrayFunction):
    """``log(sigmoid(x))`` without overflow: here only for the target gradient of
    binary_cross_entropy_with_logits with ``pos_weight`` (``LogSigmoidBackward0``)."""

    node_name = "LogSigmoidBackward0"

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return np.minimum(a, 0) - np.log1p(np.exp(-np.abs(a)))

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        return grad * (1 - Sigmoid.call(a))
