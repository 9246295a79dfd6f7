"""``fmod`` as PyTorch's vectorised CPU loop computes it (``%`` and ``remainder`` use it).

One element at a time PyTorch calls ``std::fmod``, which is exact (numpy's ``fmod`` too).
Its vector loop (``Vectorized<float>::fmod``: SLEEF's ``fmodf``) divides by repeated
subtraction of ``trunc(x * (1 / y)) * y``: when that first quotient overflows (``-1. % 1e-40``,
``3e38 % 0.8``: a quotient past the float's largest value), the subtraction meets
``inf - inf`` and the result is nan, where the exact remainder is a small number. A learner
sees nan in print. Below that overflow SLEEF's result is the exact remainder, so this is
``np.fmod`` with nan where the vector loop's quotient overflows, at the elements the vector
loop computes (``_simd_ties.vectorised``: blocks of 16 float32 / 8 float64 along a
contiguous inner dim).
"""

from __future__ import annotations

import numpy as np

from ._simd_ties import vectorised

__all__ = ["fmod_as_pytorch"]

_SCALE = {np.dtype(np.float32): 2.0**25, np.dtype(np.float64): 2.0**54}


def fmod_as_pytorch(a, b, operands: list) -> np.ndarray:
    """``np.fmod(a, b)``, nan where PyTorch's vector loop overflows its quotient.
    ``operands``: the inputs as given (their layouts decide which elements are vectorised)."""
    mod = np.fmod(a, b)
    dtype = mod.dtype
    if dtype not in _SCALE or not mod.ndim:
        return mod
    overflow = _quotient_overflows(np.asarray(a, dtype), np.asarray(b, dtype))
    where = vectorised(mod.shape, operands, dtype) if overflow.any() else None
    return mod if where is None else np.where(where & overflow, np.array(np.nan, dtype), mod)


def _quotient_overflows(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """SLEEF's first quotient ``toward0(|a|) * toward0(1 / |b|)`` is inf (subnormal ``b``
    and ``a`` scaled up first, as there); not where ``|a| < |b|`` (``a`` is returned)."""
    tiny = np.finfo(a.dtype).tiny
    scale = np.array(_SCALE[a.dtype], a.dtype)
    nu, de = np.abs(a), np.abs(b)
    small = de < tiny
    nu, de = np.where(small, nu * scale, nu), np.where(small, de * scale, de)
    with np.errstate(all="ignore"):
        q = _toward0(nu) * _toward0(np.reciprocal(de))
    return np.isinf(q) & (nu >= de) & (de != 0)  # nu may overflow in the scaling too


def _toward0(x: np.ndarray) -> np.ndarray:
    """The next float toward 0 of a non-negative ``x`` (0 stays 0), by its bits as SLEEF."""
    bits = x.view(np.int32 if x.dtype == np.float32 else np.int64)
    return np.where(x == 0, x, (bits - 1).view(x.dtype))
