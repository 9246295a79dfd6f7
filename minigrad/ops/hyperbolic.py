"""sinh and cosh (tanh is in ``unary.py``): each the other's derivative.

PyTorch's gradient of gelu(approximate='tanh') differentiated a second time goes through
``1 / cosh(inner)``, so ``CoshBackward0`` appears in those third-order graphs; the two are
also ``minigrad.sinh`` and ``minigrad.cosh``. Their values are PyTorch's bits: its kernel
computes whole blocks of 32 floats (16 doubles) with SLEEF and the rest with the C library
(``cpu_loop_split``); float32 redoes both (``sleef_float``, ``libm_float``), float64 SLEEF's
(``sleef_double``) and takes glibc's own functions for the rest (``math``). Tensors of more
than ``EXACT_UP_TO`` elements are computed in float64 and rounded once, within an ulp of
PyTorch and much faster.
"""

from __future__ import annotations

import math

import numpy as np

from .._dtypes import as_float
from ..autograd.function import ArrayFunction
from . import libm_float, sleef_double, sleef_float
from .cpu_loop_split import split

_F32 = np.dtype(np.float32)


#: tensors of up to this many elements get PyTorch's bits (see the module docstring)
EXACT_UP_TO = 4096


def _rounded(ufunc, a: np.ndarray) -> np.ndarray:
    if a.dtype is _F32:
        return ufunc(a.astype(np.float64)).astype(_F32)
    return ufunc(a)


def _c_library(function):
    """glibc's double ``function`` (``math``'s) elementwise, inf where it overflows."""

    def call(x: float) -> float:
        try:
            return function(x)
        except OverflowError:
            return math.copysign(math.inf, x) if function is math.sinh else math.inf

    vectorised = np.vectorize(call, otypes=[np.float64])
    return lambda a: vectorised(a).reshape(a.shape)


_KERNELS = {
    "sinh": ((sleef_float.sinh, libm_float.sinhf), (sleef_double.sinh, _c_library(math.sinh))),
    "cosh": ((sleef_float.cosh, libm_float.coshf), (sleef_double.cosh, _c_library(math.cosh))),
}


def pytorch_values(name: str, a: np.ndarray) -> np.ndarray:
    """``name`` of a float array with PyTorch's CPU bits (``EXACT_UP_TO`` elements or fewer)."""
    ufunc = getattr(np, name)
    if a.size > EXACT_UP_TO or a.dtype.kind != "f" or a.dtype.itemsize not in (4, 8):
        return _rounded(ufunc, a)
    vector, scalar = _KERNELS[name][a.dtype is not _F32]
    with np.errstate(all="ignore"):
        return split(vector, scalar, a.shape, a)


class Sinh(ArrayFunction):
    node_name = "SinhBackward0"
    keeps_zeros = (True,)  # grad scaled: efficient zeros stay zeros (zero_grads.py)
    elementwise = True  # its kernel builds the result in C order
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, a):
        a = as_float(a)
        ctx.save_for_backward(a)
        return pytorch_values("sinh", a)

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        return grad * Cosh.call(a)


class Cosh(ArrayFunction):
    node_name = "CoshBackward0"
    keeps_zeros = (True,)  # grad scaled: efficient zeros stay zeros (zero_grads.py)
    elementwise = True  # its kernel builds the result in C order
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, a):
        a = as_float(a)
        ctx.save_for_backward(a)
        return pytorch_values("cosh", a)

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        return grad * Sinh.call(a)
