"""The fused multiply-add ``a * b + c`` rounded once, which numpy lacks, rebuilt exactly.

SLEEF's functions (``sleef_double``, ``sleef_log``) are written with the processor's fused
multiply-add; computed with two roundings their last bits differ from PyTorch's.

- float32: the product is exact in float64, and the float64 sum rounded to odd (an inexact
  sum takes the neighbour with an odd last bit) then rounds to float32 as the exact value does.
- float64: Boldo and Melquiond's emulation with rounding to odd: the product split exactly
  into two doubles (Dekker/Veltkamp), ``c`` added to its high part exactly (TwoSum), the two
  low parts added rounded to odd, and that added to the high part rounded to nearest. It is
  exact while the product neither overflows nor underflows, as for the kernels' arguments.
"""

from __future__ import annotations

import numpy as np

_F32, _F64 = np.dtype(np.float32), np.dtype(np.float64)

_SPLIT = 134217729.0  # 2**27 + 1, Veltkamp's splitting constant for 53-bit doubles


def _two_sum(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``a + b`` rounded, and its rounding error exactly (Knuth's TwoSum)."""
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


def _two_product(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``a * b`` rounded, and its rounding error exactly (Dekker's product)."""
    p = a * b
    c = _SPLIT * a
    ah = c - (c - a)
    c = _SPLIT * b
    bh = c - (c - b)
    al, bl = a - ah, b - bh
    return p, ((ah * bh - p) + ah * bl + al * bh) + al * bl


def _add_round_to_odd(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a + b`` rounded to odd: an inexact sum gets the neighbour with an odd last bit."""
    s, e = _two_sum(a, b)
    inexact = (e != 0) & np.isfinite(s) & ((s.view(np.int64) & 1) == 0)
    if inexact.any():
        s = np.where(inexact, np.nextafter(s, np.where(e > 0, np.inf, -np.inf)), s)
    return s


def fma(a, b, c) -> np.ndarray:
    """``a * b + c`` rounded once in ``a``'s dtype (float32 or float64; see the docstring)."""
    with np.errstate(all="ignore"):
        a = np.asarray(a)
        if a.dtype == _F32:
            b, c = np.asarray(b, _F32), np.asarray(c, _F32)
            wide = a.astype(_F64) * b
            out = _add_round_to_odd(wide, c.astype(_F64)).astype(_F32)
            plain = (wide + c).astype(_F32)  # the product exact: 3e38 * 1.5 is no inf
        else:
            a, b, c = (np.asarray(v, _F64) for v in (a, b, c))
            uh, ul = _two_product(a, b)
            th, tl = _two_sum(c, uh)
            out = th + _add_round_to_odd(tl, ul)
            plain = a * b + c
        # infinities, nan, and a zero's sign: the plain operations give them
        return np.where(np.isfinite(out) & (out != 0), out, plain)
