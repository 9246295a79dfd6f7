"""Smooth cousins of relu: softplus, silu (swish) and elu. (gelu is in ``gelu.py``.)

- ``softplus(x) = log(1 + exp(beta x)) / beta``, and ``x`` itself once ``beta x`` passes
  ``threshold`` (where the two agree to float precision and exp would overflow);
- ``silu(x) = x * sigmoid(x)``;
- ``elu(x) = x`` for x > 0, ``alpha * (exp(x) - 1)`` below: negative outputs, smooth at 0
  for alpha = 1.

Each backward is PyTorch's formula (tools/autograd/derivatives.yaml): softplus's and elu's
gradients are ops of their own (``SoftplusBackwardBackward0``, ``EluBackwardBackward0``) whose
gradients are PyTorch's double-backward formulas; silu's gradient, when it is to be
differentiated again, is PyTorch's ``grad * s * (1 + x * (1 - s))`` with ``s = sigmoid(x)``,
op by op. Values follow PyTorch's kernels in the input's dtype: float32 through
``smooth_kernels.py`` (SLEEF's functions in the vectorised blocks, glibc's elsewhere),
float64 and float32 above ``EXACT_UP_TO`` elements with exp, expm1 and log1p correctly rounded.
"""

from __future__ import annotations

import numpy as np

from ..autograd.function import ArrayFunction
from ..tensor import Tensor, new_tensor
from . import arithmetic as A
from . import smooth_kernels as K
from ._common import LEGACY_NAMES
from .arithmetic import AddScalar, MulScalar
from .cpu_loop_split import EXACT_UP_TO
from .namespace import namespace
from .unary import Sigmoid, SigmoidBackward

_F32 = np.dtype(np.float32)


def _exact(fn, x: np.ndarray) -> np.ndarray:
    """``fn(x)`` correctly rounded to ``x``'s dtype (float32 through float64)."""
    if x.dtype is _F32:
        return fn(x.astype(np.float64)).astype(_F32)
    return fn(x)


def _float32(*arrays: np.ndarray) -> bool:
    """Whether PyTorch's float32 kernels (``smooth_kernels.py``) compute this: float32 of up
    to ``EXACT_UP_TO`` elements (larger tensors take the faster formulas below)."""
    return all(a.dtype is _F32 and a.size <= EXACT_UP_TO for a in arrays)


def _floats_only(a: np.ndarray, kernel: str) -> None:
    if a.dtype.kind != "f":
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{LEGACY_NAMES[a.dtype]}'")


def _mask(condition: np.ndarray, like):
    """``condition.type_as(grad)``: a constant 0/1 tensor (or array) of ``like``'s dtype."""
    xp = namespace(like)
    return xp.constant(condition.astype(xp.dtype(like)))


# -- softplus -------------------------------------------------------------------------------


class Softplus(ArrayFunction):
    node_name = "SoftplusBackward0"
    elementwise = True  # its kernel builds the result in C order
    n_params = 2
    saved_names = ("self",)
    saved_settings = {"beta": "beta", "threshold": "threshold"}

    @staticmethod
    def forward(ctx, a, beta, threshold):
        _floats_only(a, "softplus_cpu")
        ctx.save_for_backward(a)
        ctx.beta, ctx.threshold = beta, threshold
        if _float32(a):
            return K.softplus(a, beta, threshold)
        x = a * beta
        soft = _exact(np.log1p, _exact(np.exp, x)) / np.asarray(beta, a.dtype)
        return np.where(x > threshold, a, soft)

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        return SoftplusBackward.call(grad, a, ctx.beta, ctx.threshold)


class SoftplusBackward(ArrayFunction):
    """softplus's gradient, ``grad * sigmoid(beta x)`` below the threshold, as an op."""

    node_name = "SoftplusBackwardBackward0"
    n_params = 2
    saved_names = ("grad_output", "self")
    saved_settings = {"beta": "beta", "threshold": "threshold"}

    @staticmethod
    def forward(ctx, grad, a, beta, threshold):
        ctx.save_for_backward(grad, a)
        ctx.beta, ctx.threshold = beta, threshold
        if _float32(grad, a):
            return K.softplus_backward(grad, a, beta, threshold)
        x = a * beta
        z = _exact(np.exp, x)
        return np.where(x > threshold, grad, grad * z / (z + np.asarray(1, z.dtype)))

    @staticmethod
    def backward(ctx, gg):
        grad, a = ctx.saved_tensors
        beta, threshold = ctx.beta, ctx.threshold
        # softplus_double_backward(gg * grad, self, beta, threshold), self's first
        x = MulScalar.call(a, beta)
        below = _mask(namespace(gg).data(x) < threshold, gg)
        slope = SigmoidBackward.call(gg * grad, Sigmoid.call(x)) * below
        return SoftplusBackward.call(gg, a, beta, threshold), MulScalar.call(slope, beta)


# -- silu -----------------------------------------------------------------------------------


def _sigmoid(x: np.ndarray) -> np.ndarray:
    one = np.asarray(1, x.dtype)
    return one / (one + _exact(np.exp, -x))


class Silu(ArrayFunction):
    node_name = "SiluBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, a):
        _floats_only(a, "silu_cpu")
        ctx.save_for_backward(a)
        if _float32(a):
            return K.silu(a)
        return a / (np.asarray(1, a.dtype) + _exact(np.exp, -a))

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        if isinstance(grad, Tensor):  # PyTorch's infinitely_differentiable_silu_backward
            s = Sigmoid.call(a)
            one = new_tensor(np.asarray(1.0, s._data.dtype))
            right = AddScalar.call(a * A.Sub.apply(one, s), 1.0)  # PyTorch's C++ makes it first
            return grad * s * right
        if _float32(grad, a):
            return K.silu_backward(grad, a)
        s = _sigmoid(a)  # silu_backward's kernel
        one = np.asarray(1, a.dtype)
        return grad * s * (one + a * (one - s))


# -- elu ------------------------------------------------------------------------------------


class Elu(ArrayFunction):
    node_name = "EluBackward0"
    elementwise = True  # its kernel builds the result in C order
    n_params = 3
    saved_names = ("self",)
    saved_settings = {"alpha": "alpha", "scale": "scale", "input_scale": "input_scale"}

    @staticmethod
    def forward(ctx, a, alpha, scale, input_scale):
        _floats_only(a, "elu_cpu")
        ctx.save_for_backward(a)
        ctx.alpha, ctx.scale, ctx.input_scale = alpha, scale, input_scale
        return elu_values(a, alpha, scale, input_scale)

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        return EluBackward.call(grad, a, ctx.alpha, ctx.scale, ctx.input_scale, False)


class EluInPlace(Elu):
    """``elu_`` (``F.elu(x, inplace=True)``): the gradient reads the result, not the input."""

    node_name = "EluBackward1"
    saved_names = ("result",)

    @staticmethod
    def forward(ctx, a, alpha, scale, input_scale):
        _floats_only(a, "elu_cpu")
        ctx.alpha, ctx.scale, ctx.input_scale = alpha, scale, input_scale
        out = elu_values(a, alpha, scale, input_scale)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        (out,) = ctx.saved_tensors
        return EluBackward.call(grad, out, ctx.alpha, ctx.scale, ctx.input_scale, True)


def elu_values(a: np.ndarray, alpha, scale, input_scale) -> np.ndarray:
    """PyTorch's elu kernel: ``expm1(x * input_scale) * alpha * scale`` where x <= 0."""
    if _float32(a):
        return K.elu(a, alpha, scale, input_scale)
    c = lambda v: np.asarray(v, a.dtype)  # noqa: E731 - a Scalar in the kernel's dtype
    negative = _exact(np.expm1, a * c(input_scale)) * (c(alpha) * c(scale))
    return np.where(a <= 0, negative, a * c(scale))


def _negative_side(b: np.ndarray) -> np.ndarray:
    """Where elu_backward's kernel takes its negative branch. PyTorch's scalar loop tests
    ``b <= 0`` (nan: the positive side), its vectorised loop ``!(b > 0)`` (nan: the negative
    side, a nan gradient); the vectorised loop runs over whole blocks of two 64-byte vectors,
    the scalar loop over the rest (a small tensor is all rest)."""
    side = b <= 0
    if side.size >= 128 // b.itemsize and np.isnan(b).any():
        block = 128 // b.itemsize
        flat = np.isnan(b).reshape(-1) & (np.arange(b.size) < b.size // block * block)
        side = side | flat.reshape(b.shape)
    return side


class EluBackward(ArrayFunction):
    """elu's gradient as an op (edges grad_output, self_or_result), differentiable again."""

    node_name = "EluBackwardBackward0"
    n_params = 4
    saved_names = ("grad_output", "self_or_result")
    saved_settings = {
        "alpha": "alpha",
        "scale": "scale",
        "input_scale": "input_scale",
        "is_result": "is_result",
    }

    @staticmethod
    def forward(ctx, grad, b, alpha, scale, input_scale, is_result):
        ctx.save_for_backward(grad, b)
        ctx.alpha, ctx.scale, ctx.input_scale, ctx.is_result = alpha, scale, input_scale, is_result
        if _float32(grad, b):
            return K.elu_backward(grad, b, alpha, scale, input_scale, is_result)
        c = lambda v: np.asarray(v, grad.dtype)  # noqa: E731
        negcoef, iscale = c(alpha) * c(scale), c(input_scale)
        if is_result:
            negative = grad * iscale * (b + negcoef)
        else:
            negative = grad * iscale * negcoef * _exact(np.exp, b * iscale)
        return np.where(_negative_side(b), negative, grad * c(scale))

    @staticmethod
    def backward(ctx, gg):
        grad, b = ctx.saved_tensors
        settings = (ctx.alpha, ctx.scale, ctx.input_scale, ctx.is_result)
        # elu_double_backward(gg, grad_output, ...), self_or_result's first
        negative = _mask(namespace(gg).data(b) < 0, gg)
        scaled = MulScalar.call(gg * grad, ctx.input_scale)
        if ctx.is_result:
            grad_b = scaled * negative
        else:
            grad_b = EluBackward.call(scaled, b, *settings) * negative
        return EluBackward.call(gg, b, *settings), grad_b
