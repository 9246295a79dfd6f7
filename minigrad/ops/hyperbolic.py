"""sinh and cosh (tanh is in ``unary.py``): each the other's derivative.

PyTorch's gradient of gelu(approximate='tanh') differentiated a second time goes through
``1 / cosh(inner)``, so ``CoshBackward0`` appears in those third-order graphs; the two are
also ``minigrad.sinh`` and ``minigrad.cosh``. float32 values are computed in float64 and
rounded once, as PyTorch's are (nearly) correctly rounded.
"""

from __future__ import annotations

import numpy as np

from .._dtypes import as_float
from ..autograd.function import ArrayFunction

_F32 = np.dtype(np.float32)


def _rounded(ufunc, a: np.ndarray) -> np.ndarray:
    if a.dtype is _F32:
        return ufunc(a.astype(np.float64)).astype(_F32)
    return ufunc(a)


class Sinh(ArrayFunction):
    node_name = "SinhBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, a):
        a = as_float(a)
        ctx.save_for_backward(a)
        return _rounded(np.sinh, a)

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        return grad * Cosh.call(a)


def _cosh32(a: np.ndarray) -> np.ndarray:
    """PyTorch's float32 cosh: its vectorised loop (whole blocks of 32, SLEEF) is nearly
    correctly rounded; the rest goes through the C library's coshf, which rounds as
    ``(exp(x) + exp(-x)) / 2`` with each exp rounded to float32 does."""
    flat = a.reshape(-1)
    out = np.empty(flat.shape, _F32)
    k = flat.size // 32 * 32
    out[:k] = _rounded(np.cosh, flat[:k])
    wide = flat[k:].astype(np.float64)
    out[k:] = (np.exp(wide).astype(_F32) + np.exp(-wide).astype(_F32)) * _F32.type(0.5)
    return out.reshape(a.shape)


class Cosh(ArrayFunction):
    node_name = "CoshBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, a):
        a = as_float(a)
        ctx.save_for_backward(a)
        return _cosh32(a) if a.dtype is _F32 else np.cosh(a)

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        return grad * Sinh.call(a)
