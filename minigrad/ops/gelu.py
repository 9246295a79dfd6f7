"""GELU, ``x * Phi(x)`` (Phi the standard normal CDF), or its tanh approximation.

The activation of transformers: smooth, nearly 0 for very negative x, nearly x for large x.
``approximate='none'`` is ``x / 2 * (1 + erf(x / sqrt 2))``; ``'tanh'`` is
``x / 2 * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 x^3)))``.

As in PyTorch, the gradient is an op of its own (``gelu_backward``, node
``GeluBackwardBackward0``), and that op's own gradient is PyTorch's ``gelu_double_backward``,
written here with the same operations so that third-order graphs are PyTorch's too. Values
follow PyTorch's kernels step by step in the input's dtype: float32 through
``gelu_kernels.py`` (oneDNN's polynomial for contiguous tensors in the erf form, ATen's
vector and scalar loops otherwise); float64, and float32 tensors of more than
``cpu_loop_split.EXACT_UP_TO`` elements off oneDNN's path, with erf, exp and tanh correctly
rounded (float64 rounded once): ``1 + erf(x / sqrt 2)`` loses the digits of a very negative
x exactly as PyTorch's does (gelu(-7.) is -0.).
"""

from __future__ import annotations

import math

import numpy as np

from ..autograd.function import ArrayFunction
from ..tensor import Tensor, new_tensor
from . import arithmetic as A
from . import gelu_kernels
from ._common import LEGACY_NAMES
from .arithmetic import AddScalar, MulScalar
from .hyperbolic import Cosh
from .namespace import namespace
from .powers import PowScalar
from .unary import Tanh

_ERF = np.frompyfunc(math.erf, 1, 1)
SQRT1_2 = math.sqrt(0.5)
BETA_NONE = 2 / math.sqrt(math.pi) * SQRT1_2 * 0.5  # 1 / sqrt(2 pi): PyTorch's kBeta
BETA_TANH = math.sqrt(2) * 2 / math.sqrt(math.pi) * 0.5  # sqrt(2 / pi)
KAPPA = 0.044715


def _exact(fn, x: np.ndarray) -> np.ndarray:
    """``fn`` of ``x`` correctly rounded to ``x``'s dtype (computed in float64)."""
    out = fn(np.asarray(x, np.float64))
    return np.asarray(out, np.float64).astype(x.dtype)


def _erf(x: np.ndarray) -> np.ndarray:
    return _exact(lambda v: _ERF(v).astype(np.float64) if v.ndim else math.erf(v), x)


def gelu_values(x: np.ndarray, approximate: str) -> np.ndarray:
    """PyTorch's GeluKernelImpl, operation by operation in ``x``'s dtype."""
    c = lambda v: np.asarray(v, x.dtype)  # noqa: E731 - a constant in the kernel's dtype
    if gelu_kernels.exact(approximate, x):  # oneDNN's kernel, or ATen's two loops
        return gelu_kernels.gelu_tanh(x) if approximate == "tanh" else gelu_kernels.gelu(x)
    if approximate == "tanh":
        inner = c(BETA_TANH) * (x + c(KAPPA) * (x * x * x))
        return c(0.5) * x * (c(1) + _exact(np.tanh, inner))
    return x * c(0.5) * (c(1) + _erf(x * c(SQRT1_2)))


def gelu_backward_values(dy: np.ndarray, x: np.ndarray, approximate: str) -> np.ndarray:
    """PyTorch's GeluBackwardKernelImpl: ``dy * gelu'(x)``."""
    c = lambda v: np.asarray(v, x.dtype)  # noqa: E731
    if gelu_kernels.exact(approximate, x, dy):
        if approximate == "tanh":
            return gelu_kernels.gelu_tanh_backward(dy, x)
        return gelu_kernels.gelu_backward(dy, x)
    if approximate == "tanh":
        x_sq = x * x
        inner = c(BETA_TANH) * (x + c(KAPPA) * (x_sq * x))
        t = _exact(np.tanh, inner)
        left, right = c(0.5) * x, c(1) + t
        inner_derivative = c(BETA_TANH) * (c(1) + c(3) * c(KAPPA) * x_sq)
        return dy * (c(0.5) * right + left * (c(1) - t * t) * inner_derivative)
    cdf = c(0.5) * (c(1) + _erf(x * c(SQRT1_2)))
    pdf = c(BETA_NONE) * _exact(np.exp, x * x * c(-0.5))
    return dy * (cdf + x * pdf)


class Gelu(ArrayFunction):
    node_name = "GeluBackward0"
    elementwise = True  # its kernel builds the result in C order
    n_params = 1
    saved_names = ("self",)
    saved_settings = {"approximate": "approximate"}

    @staticmethod
    def forward(ctx, a, approximate):
        if a.dtype.kind != "f":
            raise NotImplementedError(
                f"\"GeluKernelImpl\" not implemented for '{LEGACY_NAMES[a.dtype]}'"
            )
        ctx.save_for_backward(a)
        ctx.approximate = approximate
        return gelu_values(a, approximate)

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        return GeluBackward.call(grad, a, ctx.approximate)


class GeluBackward(ArrayFunction):
    """gelu's gradient as an op (edges grad_output, self), differentiable again."""

    node_name = "GeluBackwardBackward0"
    n_params = 1
    saved_names = ("grad_output", "self")
    saved_settings = {"approximate": "approximate"}

    @staticmethod
    def forward(ctx, grad, a, approximate):
        ctx.save_for_backward(grad, a)
        ctx.approximate = approximate
        return gelu_backward_values(grad, a, approximate)

    @staticmethod
    def backward(ctx, gg):
        grad, a = ctx.saved_tensors
        approximate = ctx.approximate
        grad_self = gelu_double_backward(gg, grad, a, approximate)  # self's first, as PyTorch
        return GeluBackward.call(gg, a, approximate), grad_self


def _minus(number: float, t):
    """``number - t`` as PyTorch's C++ writes it: SubBackward0 with a constant first input."""
    if isinstance(t, Tensor):
        return A.Sub.apply(new_tensor(np.asarray(number, t._data.dtype)), t)
    return np.asarray(number, t.dtype) - t


def _over(number: float, t):
    """``number / t``: DivBackward0 with a constant first input."""
    if isinstance(t, Tensor):
        return A.Div.apply(new_tensor(np.asarray(number, t._data.dtype)), t)
    return np.asarray(number, t.dtype) / t


def gelu_double_backward(gg, grad, x, approximate: str):
    """``gg * grad * gelu''(x)``, in the operations of PyTorch's gelu_double_backward."""
    if approximate == "tanh":
        inner = MulScalar.call(x + MulScalar.call(PowScalar.call(x, 3), KAPPA), BETA_TANH)
        tanh_inner = Tanh.call(inner)
        sech_inner = _over(1, Cosh.call(inner))
        f = MulScalar.call(x, 0.5)
        g = _minus(1, tanh_inner * tanh_inner)
        h = MulScalar.call(AddScalar.call(MulScalar.call(x, 3 * KAPPA) * x, 1), BETA_TANH)
        f_prime_gh = MulScalar.call(g, 0.5) * h
        g_prime = MulScalar.call(sech_inner, 2) * (-sech_inner * tanh_inner) * h
        g_prime_fh = f * h * g_prime
        h_prime_fg = f * g * MulScalar.call(MulScalar.call(x, 6 * KAPPA), BETA_TANH)
        return gg * grad * (MulScalar.call(f_prime_gh, 2) + g_prime_fh + h_prime_fg)
    x_sq = x * x
    pdf = MulScalar.call(namespace(gg).exp(MulScalar.call(x_sq, -0.5)), BETA_NONE)
    return gg * grad * (MulScalar.call(pdf, 2) - x_sq * pdf)
