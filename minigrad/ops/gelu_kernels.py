"""Which of PyTorch's three float32 GELU kernels computes an element, and their arithmetic.

``torch.nn.functional.gelu`` (erf form) of a float32 tensor takes one of three paths:

1. oneDNN (``onednn_gelu.py``) when the tensor is contiguous with more than one element
   (PyTorch's ``use_mkldnn``); its backward likewise, decided by the input ``self``;
2. otherwise ATen's GeluKernel, whose loop (``cpu_loop_split.py``) gives blocks of 32
   floats to a vector function: ``x * 0.5 * (1 + erf(x * sqrt(1/2)))`` with
   ``Vectorized<float>::erf`` (Abramowitz and Stegun 7.1.26 with fused multiply-adds and
   SLEEF's ``expf``) and, for the backward, ``dy * (cdf + x * pdf)`` with SLEEF's exp;
3. and the other elements to a scalar function, the same formula with glibc's ``erff`` and
   ``expf`` (``libm_float32.py``).

The tanh form (``approximate='tanh'``) takes paths 2 and 3 only, with SLEEF's and glibc's
``tanhf`` (see its section below).

The same float can get another last bit in a contiguous tensor, a strided one and alone,
and for a negative x the cancellation in ``1 + erf`` shows it in the printed digits
(replays 21, 198, 1494, 1536, 2296 of the fuzzer). The A&S constants in ``_vector_erf``
are the ones PyTorch's ``vec512_float.h`` writes out.
"""

from __future__ import annotations

import math

import numpy as np

from . import libm_float32, onednn_gelu, sleef_float32
from ._fma import fma
from .cpu_loop_split import EXACT_UP_TO, split
from .vector_kernels import vector_exp

_F32 = np.float32
_ONE, _HALF = _F32(1), _F32(0.5)
_ALPHA = _F32(math.sqrt(0.5))  # M_SQRT1_2
_BETA = _F32(2 / math.sqrt(math.pi) * math.sqrt(0.5) * 0.5)  # M_2_SQRTPI * M_SQRT1_2 * 0.5
_KAPPA = _F32(0.044715)
_BETA_TANH = _F32(math.sqrt(2) * 2 / math.sqrt(math.pi) * 0.5)  # M_SQRT2 * M_2_SQRTPI * 0.5
_P = _F32(0.3275911)
_A = [_F32(c) for c in (0.254829592, -0.284496736, 1.421413741, -1.453152027, 1.061405429)]


def uses_onednn(x: np.ndarray) -> bool:
    """PyTorch's ``use_mkldnn(self)``: contiguous float32 with more than one element."""
    return x.dtype == _F32 and x.size > 1 and x.flags.c_contiguous


def exact(approximate: str, x: np.ndarray, *others: np.ndarray) -> bool:
    """Whether these kernels compute the gelu (or its gradient) of ``x``: float32, and either
    oneDNN's path (about 0.3 us an element forward and backward, twice the cost of the
    correctly rounded erf it replaced: kept at any size) or at most ``EXACT_UP_TO`` elements."""
    if x.dtype != _F32 or any(o.dtype != _F32 for o in others):
        return False
    return x.size <= EXACT_UP_TO or (approximate == "none" and uses_onednn(x))


def _vector_erf(v: np.ndarray) -> np.ndarray:
    """``Vectorized<float>::erf``: ``sign(v) (1 - t p(t) exp(-v^2))``, ``t = 1/(1 + P|v|)``."""
    t = _ONE / fma(_P, np.abs(v), _ONE)
    p = np.full_like(t, _A[4])
    for c in _A[3::-1]:
        p = fma(p, t, c)
    out = fma(-vector_exp(-(v * v)) * t, p, _ONE)
    return np.where(np.signbit(v), -out, out)


def _gelu_vector(x):
    return x * _HALF * (_ONE + _vector_erf(x * _ALPHA))


def _gelu_scalar(x):
    return x * _HALF * (_ONE + libm_float32.erff(x * _ALPHA))


def gelu(x: np.ndarray) -> np.ndarray:
    """PyTorch's float32 ``gelu(x)`` (erf form), path by path."""
    if uses_onednn(x):
        return onednn_gelu.gelu(x)
    return split(_gelu_vector, _gelu_scalar, x.shape, x)


def _backward_vector(dy, x):
    cdf = _HALF * (_ONE + _vector_erf(x * _ALPHA))
    pdf = _BETA * vector_exp(x * x * _F32(-0.5))
    return dy * fma(x, pdf, cdf)  # the compiler fused this multiply-add


def _backward_scalar(dy, x):
    cdf = _HALF * (_ONE + libm_float32.erff(x * _ALPHA))
    pdf = _BETA * libm_float32.expf(x * x * _F32(-0.5))
    return dy * (cdf + x * pdf)


def gelu_backward(dy: np.ndarray, x: np.ndarray) -> np.ndarray:
    """PyTorch's float32 ``gelu_backward(dy, x)`` (erf form), path by path."""
    if uses_onednn(x):
        return onednn_gelu.gelu_backward(np.broadcast_to(dy, x.shape), x)
    return split(_backward_vector, _backward_scalar, np.broadcast_shapes(dy.shape, x.shape), dy, x)


# -- the tanh form: ATen's loops only (oneDNN's gelu_tanh is PyTorch's choice on ARM only) --
# ``0.5 x (1 + tanh(beta (x + kappa x^3)))`` with SLEEF's tanhf (vector) or glibc's (scalar);
# the compiler fuses ``x + kappa x^3``, ``1 - t^2`` and ``1 + 3 kappa x^2`` (measured, both
# loops), not the backward's last sum.


def _tanh_inner(x):
    return _BETA_TANH * fma(_KAPPA, x * x * x, x)


def _tanh_form(tanh):
    return lambda x: _HALF * x * (_ONE + tanh(_tanh_inner(x)))


def _tanh_form_backward(tanh):
    def grad(dy, x):
        t = tanh(_tanh_inner(x))
        left_derivative = _HALF * (_ONE + t)
        inner_derivative = _BETA_TANH * fma(_F32(3) * _KAPPA, x * x, _ONE)
        right_derivative = _HALF * x * fma(-t, t, _ONE) * inner_derivative
        return dy * (left_derivative + right_derivative)

    return grad


def gelu_tanh(x: np.ndarray) -> np.ndarray:
    """PyTorch's float32 ``gelu(x, approximate='tanh')``, path by path."""
    vector, scalar = _tanh_form(sleef_float32.tanhf), _tanh_form(libm_float32.tanhf)
    return split(vector, scalar, x.shape, x)


def gelu_tanh_backward(dy: np.ndarray, x: np.ndarray) -> np.ndarray:
    """PyTorch's float32 ``gelu_backward(dy, x, approximate='tanh')``, path by path."""
    vector = _tanh_form_backward(sleef_float32.tanhf)
    scalar = _tanh_form_backward(libm_float32.tanhf)
    return split(vector, scalar, np.broadcast_shapes(dy.shape, x.shape), dy, x)
