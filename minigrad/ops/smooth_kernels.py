"""PyTorch's float32 silu, elu and softplus kernels, forward and backward, path by path.

Each is one ``cpu_kernel_vec`` in PyTorch (``aten/src/ATen/native/cpu/Activation.cpp``,
``Elu.h``): a vector function for blocks of 32 floats and a scalar one for the rest
(``cpu_loop_split.py`` says which element gets which). They compute the same formula with
other exps: the vector one SLEEF's ``expf``/``expm1f``/``log1pf`` (``vector_kernels.py``,
``sleef_float.py``, ``sleef_float32.py``), the scalar one glibc's (``libm_float32.py``).
The formulas, with PyTorch's order of operations and its fused multiply-adds (measured,
not written in the source: the compiler contracts ``1 + x * (1 - s)`` in silu's backward):

- silu: ``x / (1 + exp(-x))``; backward ``dy * s * (1 + x * (1 - s))``, ``s = 1/(1 + exp(-x))``;
- elu: ``expm1(x * input_scale) * (alpha * scale)`` below 0, ``x * scale`` from 0 (the scalar
  loop tests ``x < 0``, the vector loop ``x >= 0``: the same sides, nan included); backward
  ``dy * input_scale * negcoef * exp(b * input_scale)`` (or ``* (b + negcoef)`` from the
  result) where the scalar loop sees ``b <= 0`` and the vector loop ``!(b > 0)``;
- softplus: ``log1p(exp(x * beta)) / beta`` unless ``x * beta > threshold``; backward
  ``dy * z / (z + 1)``, ``z = exp(x * beta)``.

float64 tensors keep the callers' correctly rounded numpy formulas.
"""

from __future__ import annotations

import numpy as np

from . import libm_float32, sleef_float, sleef_float32
from ._fma import fma
from .cpu_loop_split import split
from .vector_kernels import vector_exp

_F32 = np.float32
_ONE = _F32(1)


# -- silu ---------------------------------------------------------------------------------


def silu(x: np.ndarray) -> np.ndarray:
    return split(
        lambda v: v / (_ONE + vector_exp(-v)),
        lambda v: v / (_ONE + libm_float32.expf(-v)),
        x.shape,
        x,
    )


def _silu_grad(exp):
    def grad(dy, x):
        s = _ONE / (_ONE + exp(-x))
        return dy * s * fma(x, _ONE - s, _ONE)

    return grad


def silu_backward(dy: np.ndarray, x: np.ndarray) -> np.ndarray:
    shape = np.broadcast_shapes(dy.shape, x.shape)
    return split(_silu_grad(vector_exp), _silu_grad(libm_float32.expf), shape, dy, x)


# -- elu ----------------------------------------------------------------------------------


def elu(x: np.ndarray, alpha, scale, input_scale) -> np.ndarray:
    negcoef, poscoef, iscale = _F32(alpha) * _F32(scale), _F32(scale), _F32(input_scale)
    return split(
        lambda v: np.where(v >= 0, v * poscoef, sleef_float.expm1(v * iscale) * negcoef),
        lambda v: np.where(v < 0, libm_float32.expm1f(v * iscale) * negcoef, v * poscoef),
        x.shape,
        x,
    )


def elu_backward(dy, b, alpha, scale, input_scale, is_result: bool) -> np.ndarray:
    negcoef, poscoef, iscale = _F32(alpha) * _F32(scale), _F32(scale), _F32(input_scale)

    def kernel(exp, negative_side):
        def grad(g, v):
            if is_result:
                negative = g * iscale * (v + negcoef)
            else:
                negative = g * iscale * negcoef * exp(v * iscale)
            return np.where(negative_side(v), negative, g * poscoef)

        return grad

    shape = np.broadcast_shapes(dy.shape, b.shape)
    vector = kernel(vector_exp, lambda v: ~(v > 0))
    return split(vector, kernel(libm_float32.expf, lambda v: v <= 0), shape, dy, b)


# -- softplus -----------------------------------------------------------------------------


def softplus(x: np.ndarray, beta, threshold) -> np.ndarray:
    beta, threshold = _F32(beta), _F32(threshold)

    def kernel(exp, log1p):
        return lambda v: np.where(v * beta > threshold, v, log1p(exp(v * beta)) / beta)

    vector = kernel(vector_exp, sleef_float32.log1pf)
    return split(vector, kernel(libm_float32.expf, libm_float32.log1pf), x.shape, x)


def softplus_backward(dy: np.ndarray, x: np.ndarray, beta, threshold) -> np.ndarray:
    beta, threshold = _F32(beta), _F32(threshold)

    def kernel(exp):
        def grad(g, v):
            z = exp(v * beta)
            return np.where(v * beta > threshold, g, g * z / (z + _ONE))

        return grad

    shape = np.broadcast_shapes(dy.shape, x.shape)
    return split(kernel(vector_exp), kernel(libm_float32.expf), shape, dy, x)
