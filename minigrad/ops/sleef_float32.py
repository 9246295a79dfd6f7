"""SLEEF's float32 ``log1pf`` and ``tanhf`` (u10), as PyTorch's vectorised CPU loops call them.

``Vectorized<float>::log1p`` and ``::tanh`` (softplus's ``log1p(exp(x))``, gelu's tanh
form) are ``Sleef_log1pf16_u10`` and ``Sleef_tanhf16_u10`` on AVX-512 (``expm1``, elu's
negative side, is ``sleef_float.expm1``). Both carry their intermediate results as
double-floats, a float plus a smaller float that holds the rounding error of the first
(``_DF`` below), so that the final float is within an ulp, but not always the correctly
rounded one: about 1 softplus output in 20 ended in another last bit than numpy's.

Everything is float32 arithmetic in numpy, a fused multiply-add rounded once (``_fma.py``).
The algorithms and constants are SLEEF's (``src/libm/sleefsimdsp.c``: ``expk2f``,
``xtanhf``, ``xlog1pf``; ``src/common/df.h``: the double-float operations in their FMA
versions), Naoki Shibata's, Boost licence; the code is written anew. ``log1pf`` of an
argument above 1e38 is SLEEF's ``logf`` (``sleef_log.log``), as SLEEF's own.
"""

from __future__ import annotations

import numpy as np

from . import sleef_log
from ._fma import fma as _fma

_F32 = np.float32
_ONE = _F32(1)


class _DF:
    """A double-float ``x + y`` (|y| at most half an ulp of x) and SLEEF's operations on it."""

    def __init__(self, x, y):
        self.x, self.y = np.asarray(x, _F32), np.asarray(y, _F32)

    def add2(self, other) -> _DF:
        """``dfadd2``: the exact sum of the high parts, then the low parts added."""
        ox, oy = (other.x, other.y) if isinstance(other, _DF) else (np.asarray(other, _F32), None)
        s = self.x + ox
        v = s - self.x
        t = (self.x - (s - v)) + (ox - v)
        return _DF(s, t + (self.y if oy is None else self.y + oy))

    def mul(self, other) -> _DF:
        """``dfmul`` by a float or a double-float, with the product's error from an fma."""
        if isinstance(other, _DF):
            s = self.x * other.x
            error = _fma(self.x, other.x, -s)
            return _DF(s, _fma(self.x, other.y, _fma(self.y, other.x, error)))
        s = self.x * other
        return _DF(s, _fma(self.y, other, _fma(self.x, other, -s)))

    def square(self) -> _DF:
        s = self.x * self.x
        return _DF(s, _fma(self.x + self.x, self.y, _fma(self.x, self.x, -s)))

    def total(self) -> np.ndarray:
        return self.x + self.y


def _ldexp2(d: np.ndarray, q: np.ndarray) -> np.ndarray:
    """``d * 2**q`` in two steps (``2**(q >> 1)`` then the rest), each rounded."""
    half = q >> 1
    return d * _pow2(half) * _pow2(q - half)


def _pow2(q: np.ndarray) -> np.ndarray:
    return ((q + 127) << 23).astype(np.uint32).view(_F32)


def _expk2(a: np.ndarray) -> _DF:
    """SLEEF's ``expk2f`` of a float: ``exp(a)`` as a double-float."""
    u = a * _F32(1.442695040888963407359924681001892137426645954152985934135449406931)
    q = np.rint(np.nan_to_num(u)).astype(np.int32)
    qf = q.astype(_F32)
    s = _DF(a, np.zeros_like(a)).add2(qf * _F32(-0.693145751953125))
    s = s.add2(qf * _F32(-1.428606765330187045e-06))
    u = np.full_like(a, _F32(0.1980960224e-3))
    for c in (0.1394256484e-2, 0.8333456703e-2, 0.4166637361e-1):
        u = _fma(u, s.x, _F32(c))
    t = s.mul(u).add2(_F32(0.166666659414234244790680580464))
    t = s.mul(t).add2(_F32(0.5))
    t = s.add2(s.square().mul(t))
    high = _ONE + t.x  # dfadd(1, t)
    t = _DF(high, ((_ONE - high) + t.x) + t.y)
    underflow = a < -104
    x = np.where(underflow, _F32(0), _ldexp2(t.x, q))
    y = np.where(underflow, _F32(0), _ldexp2(t.y, q))
    return _DF(x, y)


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
        s = _DF(_F32(0.69314718246459960938), _F32(-1.904654323148236017e-09)).mul(e)
        # x = m / (2 + m) as a double-float (dfdiv with the denominator dfadd(2, m))
        den_x = _F32(2) + m
        den_y = (_F32(2) - den_x) + m
        r = _ONE / den_x
        q = m * r
        u = _fma(r, m, -q)
        v = _fma(-den_y, r, _fma(-den_x, r, _ONE))
        x = _DF(q, _fma(q, v, u))
        x2 = x.x * x.x
        t = np.full_like(x2, _F32(0.3027294874))
        for c in (0.3996108174, 0.6666694880):
            t = _fma(t, x2, _F32(c))
        # s + 2x (dfadd: |s| >= |2x|), then + x^3 t
        hi = s.x + x.x * _F32(2)
        s = _DF(hi, (((s.x - hi) + x.x * _F32(2)) + s.y) + x.y * _F32(2))
        extra = (x2 * x.x) * t
        hi = s.x + extra
        out = hi + (((s.x - hi) + extra) + s.y)
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
        d = _expk2(np.abs(x))
        r = _ONE / d.x  # dfrec: 1 / d
        e = _DF(r, r * _fma(-d.y, r, _fma(-d.x, r, _ONE)))
        num, den = _sum(d, _DF(-e.x, -e.y)), _sum(d, e)
        t = _ONE / den.x  # dfdiv(num, den)
        s = num.x * t
        u = _fma(t, num.x, -s)
        v = _fma(-den.y, t, _fma(-den.x, t, _ONE))
        y = s + _fma(s, v, _fma(num.y, t, u))
        y = np.where((np.abs(x) > _F32(8.664339742)) | np.isnan(y), _ONE, y)
        y = np.where(np.signbit(x), -y, y)
    return np.where(np.isnan(x), x, y).astype(_F32)


def _sum(a: _DF, b: _DF) -> _DF:
    """``dfadd`` of two double-floats, the larger first."""
    s = a.x + b.x
    return _DF(s, (((a.x - s) + b.x) + a.y) + b.y)
