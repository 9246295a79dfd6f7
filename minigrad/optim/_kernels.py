"""The in-place tensor updates PyTorch's optimizers are written with, to the last bit.

``torch.optim`` writes its single-tensor updates as ``addcmul_``, ``addcdiv_``, ``add_(x,
alpha=...)`` and ``lerp_``. On the CPU minigrad reproduces (``ops/_cpu_vectors.py``) their
kernels round ``self + value * t1 * t2``, ``self + alpha * other`` and ``self + w * (end -
self)`` once, a fused multiply-add, and ``addcdiv`` as ``self + (value * t1) / t2`` (a division
does not fuse). numpy would round twice and drift from PyTorch in the last bit after a few
steps; these helpers write the once-rounded value into ``out``'s memory, as the ``_`` of
PyTorch's names says. The scalar (``value``, ``alpha``) is taken in the tensor's dtype, as
PyTorch's kernels see it. One step is not PyTorch's to the bit: its float32 ``sqrt`` is Intel
MKL's, which rounds about one input in six the other way (``sqrt`` below).
"""

from __future__ import annotations

import numpy as np

from ..ops._fma import fma
from ..ops.lerp import _lerp

__all__ = ["add_", "addcdiv_", "addcmul_", "lerp_", "sqrt"]


def _scalar(value: float, like: np.ndarray) -> np.ndarray:
    return np.asarray(value, like.dtype)


def add_(out: np.ndarray, other: np.ndarray, alpha: float = 1) -> np.ndarray:
    """``out += alpha * other``, rounded once (``Tensor.add_(other, alpha=alpha)``)."""
    out[...] = fma(np.asarray(other, out.dtype), _scalar(alpha, out), out)
    return out


def addcmul_(out: np.ndarray, t1: np.ndarray, t2: np.ndarray, value: float = 1) -> np.ndarray:
    """``out += value * t1 * t2``: the product ``value * t1`` rounded, then one fma."""
    out[...] = fma(_scalar(value, out) * t1, t2, out)
    return out


def addcdiv_(out: np.ndarray, t1: np.ndarray, t2: np.ndarray, value: float = 1) -> np.ndarray:
    """``out += (value * t1) / t2``, three roundings in PyTorch's order."""
    out += (_scalar(value, out) * t1) / t2
    return out


def lerp_(out: np.ndarray, end: np.ndarray, weight: float) -> np.ndarray:
    """``out += weight * (end - out)``, PyTorch's two halves of the weight (``ops/lerp.py``)."""
    out[...] = _lerp(out, end, weight, out.dtype, (out, end))
    return out


def sqrt(a: np.ndarray) -> np.ndarray:
    """A new array of square roots, correctly rounded. PyTorch takes float32 ``sqrt`` from
    MKL's VML, closed source and not correctly rounded (tests/difffuzz/FINDINGS.md): there its
    value is one ulp away, and a trajectory drifts by that much. The tests swap this function
    for PyTorch's to check that every other step is PyTorch's to the bit."""
    return np.sqrt(a)
