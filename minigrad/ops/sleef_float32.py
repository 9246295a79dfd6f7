"""SLEEF's float32 ``log1pf`` and ``tanhf`` (u10), as PyTorch's vectorised CPU loops call them.

``Vectorized<float>::log1p`` and ``::tanh`` (softplus's ``log1p(exp(x))``, gelu's tanh
form) are ``Sleef_log1pf16_u10`` and ``Sleef_tanhf16_u10`` on AVX-512 (``expm1``, elu's
negative side, is ``sleef_float.expm1``). Both carry their intermediate results as
double-floats, a float plus a smaller float that holds the rounding error of the first
(``double_word``'s pairs), so that the final float is within an ulp, but not always the correctly
rounded one: about 1 softplus output in 20 ended in another last bit than numpy's.

Everything is float32 arithmetic in numpy, a fused multiply-add rounded once (``_fma.py``).
The algorithms and constants are SLEEF's (``src/libm/sleefsimdsp.c``: ``xtanhf``,
``xlog1pf``; ``expk2f`` is ``sleef_float.expk2``, and ``src/common/df.h``'s double-float
operations in their FMA versions are ``double_word``'s), Naoki Shibata's, Boost licence;
the code is written anew. ``log1pf`` of an argument above 1e38 is SLEEF's ``logf``
(``sleef_log.log``), as SLEEF's own.
"""

from __future__ import annotations

import numpy as np

from . import sleef_log
from ._fma import fma as _fma
from .double_word import add, mul, reciprocal, sub
from .sleef_float import expk2

_F32 = np.float32
_ONE = _F32(1)


def _getexp(x: np.ndarray) -> np.ndarray:
    """AVX-512's ``getexp``: floor(log2 |x|) as a float (-inf for 0, inf for inf)."""
    _, e = np.frexp(x)
    out = (e - 1).astype(_F32)
    out = np.where(x == 0, _F32(-np.inf), out)
    return np.where(np.isinf(x), _F32(np.inf), out)


def log1pf(d: np.ndarray) -> np.ndarray:
    """SLEEF's ``log1pf`` (u10, its AVX-512 branch) of a float32 array."""
    d = np.asarray(d, _F32)
    with np.errstate(all="ignore"):
        e = _getexp((d + _ONE) * (_ONE / _F32(0.75)))
        e = np.where(np.isposinf(e), _F32(128), e)
        shift = -np.rint(np.nan_to_num(e, nan=0.0, neginf=0.0)).astype(np.int32)
        t = (np.int32(0x3F800000) + (shift << 23)).astype(np.int32).view(_F32)  # ldexp3(1, -e)
        m = _fma(d, t, t - _ONE)
        s = mul((_F32(0.69314718246459960938), _F32(-1.904654323148236017e-09)), e)
        # x = m / (2 + m) as a double-float (dfdiv with the denominator dfadd(2, m))
        den_x = _F32(2) + m
        den_y = (_F32(2) - den_x) + m
        r = _ONE / den_x
        q = m * r
        u = _fma(r, m, -q)
        v = _fma(-den_y, r, _fma(-den_x, r, _ONE))
        x = (q, _fma(q, v, u))
        x2 = x[0] * x[0]
        t = np.full_like(x2, _F32(0.3027294874))
        for c in (0.3996108174, 0.6666694880):
            t = _fma(t, x2, _F32(c))
        # s + 2x (dfadd: |s| >= |2x|), then + x^3 t (dfadd of a float: no low part to add)
        s = add(s, (x[0] * _F32(2), x[1] * _F32(2)))
        extra = (x2 * x[0]) * t
        hi = s[0] + extra
        out = hi + (((s[0] - hi) + extra) + s[1])
        big = d > _F32(float.fromhex("0x1.2ced32p+126"))
        out = np.where(big, sleef_log.log(d), out)
        out = np.where(d < -1, _F32(np.nan), out)
        out = np.where(d == -1, _F32(-np.inf), out)
        out = np.where((d == 0) & np.signbit(d), _F32(-0.0), out)
    return np.where(np.isnan(d), d, out).astype(_F32)


def tanhf(x: np.ndarray) -> np.ndarray:
    """SLEEF's ``tanhf`` (u10): ``(e - 1/e) / (e + 1/e)`` of ``e = exp|x|`` in double-floats."""
    x = np.asarray(x, _F32)
    with np.errstate(all="ignore"):
        d = expk2(np.abs(x))
        e = reciprocal(d)
        num, den = sub(d, e), add(d, e)
        t = _ONE / den[0]  # dfdiv(num, den)
        s = num[0] * t
        u = _fma(t, num[0], -s)
        v = _fma(-den[1], t, _fma(-den[0], t, _ONE))
        y = s + _fma(s, v, _fma(num[1], t, u))
        y = np.where((np.abs(x) > _F32(8.664339742)) | np.isnan(y), _ONE, y)
        y = np.where(np.signbit(x), -y, y)
    return np.where(np.isnan(x), x, y).astype(_F32)
