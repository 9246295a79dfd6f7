"""The relatives of exp and log: log1p, expm1, log2, log10, exp2, and rsqrt.

``log1p(x)`` and ``expm1(x)`` are ``log(1 + x)`` and ``exp(x) - 1`` without the rounding
error of forming ``1 + x`` first: for x = 1e-10 the plain forms give 0 or lose every digit.

Each backward is PyTorch's formula (tools/autograd/derivatives.yaml), written with the ops
PyTorch's C++ uses, so that a gradient taken with ``create_graph=True`` has PyTorch's graph:
``self * 0.693...`` is a tensor times a Scalar (``MulBackward1``), ``result + 1`` a tensor plus
a Scalar (``AddBackward1``). Like exp and log in ``unary.py``, float32 values are computed in
float64 and rounded once: PyTorch's are (nearly) correctly rounded, numpy's float32 ones are
off by an ulp for one input in ten to three. But for ``expm1`` and ``exp2``, which PyTorch
computes with SLEEF (``sleef_float``): float32 ``expm1`` over the whole tensor, ``exp2`` over
blocks of 32 with the C library's ``exp2f`` for the rest (``cpu_loop_split``), bit for bit for
tensors of up to ``EXACT_UP_TO`` elements (float64: ``sleef_double``, blocks of 16, and
glibc's ``exp2``). Integer and bool inputs compute in the default float dtype.
"""

from __future__ import annotations

import math

import numpy as np

from .._dtypes import as_float
from ..autograd.function import ArrayFunction
from . import libm_float, sleef_double, sleef_float
from .arithmetic import AddScalar, MulScalar
from .cpu_loop_split import split
from .hyperbolic import EXACT_UP_TO
from .powers import PowScalar

_F32 = np.dtype(np.float32)
LN2 = 0.6931471805599453  # the constants of PyTorch's formulas, as written there
LN10 = 2.3025850929940456


def _rounded(ufunc, a: np.ndarray) -> np.ndarray:
    """``ufunc(a)`` in the input's float dtype; float32 through float64, rounded once."""
    a = as_float(a)
    if a.dtype is _F32:
        return ufunc(a.astype(np.float64)).astype(_F32)
    return ufunc(a)


def _exp2_exact(a: np.ndarray) -> np.ndarray:
    """exp2 with PyTorch's bits: SLEEF's blocks, the C library's rest (see the docstring)."""
    if a.dtype is _F32:
        return split(sleef_float.exp2, libm_float.exp2f, a.shape, a)
    return split(sleef_double.exp2, _c_exp2, a.shape, a)


def _c_exp2_one(x: float) -> float:
    try:
        return math.exp2(x)  # glibc's exp2
    except OverflowError:
        return math.inf


_c_exp2 = np.vectorize(_c_exp2_one, otypes=[np.float64])


def _pytorch_values(name: str, a: np.ndarray) -> np.ndarray:
    """expm1 or exp2 of ``a`` as PyTorch's kernels round them (see the module docstring)."""
    a = as_float(a)
    if a.size > EXACT_UP_TO or a.dtype.kind != "f" or a.dtype.itemsize not in (4, 8):
        return _rounded(getattr(np, name), a)
    with np.errstate(all="ignore"):
        if name == "exp2":
            return _exp2_exact(a)
        kernel = sleef_float if a.dtype is _F32 else sleef_double
        return kernel.expm1(a).reshape(a.shape)


class Log1p(ArrayFunction):
    node_name = "Log1PBackward0"
    saved_names = ("self",)
    keeps_zeros = (True,)  # grad scaled: efficient zeros stay zeros (zero_grads.py)

    @staticmethod
    def forward(ctx, a):
        a = as_float(a)
        ctx.save_for_backward(a)
        return _rounded(np.log1p, a)

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        return grad / AddScalar.call(a, 1)  # log1p_backward: grad / (self + 1)


class Expm1(ArrayFunction):
    node_name = "Expm1Backward0"
    saved_names = ("result",)
    keeps_zeros = (True,)  # grad scaled: efficient zeros stay zeros (zero_grads.py)

    @staticmethod
    def forward(ctx, a):
        out = _pytorch_values("expm1", a)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        (out,) = ctx.saved_tensors
        return grad * AddScalar.call(out, 1)  # grad * (result + 1)


class Log2(ArrayFunction):
    node_name = "Log2Backward0"
    saved_names = ("self",)
    keeps_zeros = (True,)  # grad scaled: efficient zeros stay zeros (zero_grads.py)

    @staticmethod
    def forward(ctx, a):
        a = as_float(a)
        ctx.save_for_backward(a)
        return _rounded(np.log2, a)

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        return grad / MulScalar.call(a, LN2)  # grad / (self * ln 2)


class Log10(ArrayFunction):
    node_name = "Log10Backward0"
    saved_names = ("self",)
    keeps_zeros = (True,)  # grad scaled: efficient zeros stay zeros (zero_grads.py)

    @staticmethod
    def forward(ctx, a):
        a = as_float(a)
        ctx.save_for_backward(a)
        return _rounded(np.log10, a)

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        return grad / MulScalar.call(a, LN10)  # grad / (self * ln 10)


class Exp2(ArrayFunction):
    node_name = "Exp2Backward0"
    saved_names = ("result",)
    keeps_zeros = (True,)  # grad scaled: efficient zeros stay zeros (zero_grads.py)

    @staticmethod
    def forward(ctx, a):
        out = _pytorch_values("exp2", a)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        (out,) = ctx.saved_tensors
        return MulScalar.call(grad * out, LN2)  # grad * result * ln 2


class Rsqrt(ArrayFunction):
    """``1 / sqrt(x)``, rounded twice as PyTorch's kernel does (numpy's float32 gives the same)."""

    node_name = "RsqrtBackward0"
    saved_names = ("result",)
    keeps_zeros = (True,)  # grad scaled: efficient zeros stay zeros (zero_grads.py)

    @staticmethod
    def forward(ctx, a):
        a = as_float(a)
        out = np.asarray(1 / np.sqrt(a))
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        (out,) = ctx.saved_tensors
        return MulScalar.call(grad, -0.5) * PowScalar.call(out, 3)  # -0.5 * grad * result**3
