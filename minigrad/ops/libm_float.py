"""The C library's float32 ``expm1f``, ``sinhf`` and ``coshf`` (glibc's), in numpy.

PyTorch's ``sinh``/``cosh`` kernels compute whole blocks of 32 floats with SLEEF
(``sleef_float``) and the elements past the last block with ``std::sinh``/``std::cosh``,
i.e. glibc's ``sinhf``/``coshf``: the fdlibm algorithms in float arithmetic (each operation
rounded to float32), off the correctly rounded result for 1 input in 5. A tensor of a few
elements, which a lesson prints, is all tail. The steps:

- ``expm1f``: ``x = k ln 2 + r`` (ln 2 in two parts, ``k`` the nearest integer; 1 or -1 for
  0.35 < |x| < 1.04), ``r`` kept as ``hi - lo`` with the correction ``c``; ``expm1(r)``
  from a rational form with a degree-5 polynomial in ``r**2 / 2``; then scaled by ``2**k``
  in one of five ways by the size of ``k``; -1 below -18.7, inf above 88.72.
- ``sinhf``: ``(t + t / (t + 1)) / 2`` with ``t = expm1f(|x|)`` (below 1:
  ``(2t - t**2 / (t + 1)) / 2``), ``exp(|x|) / 2`` from 22, ``(e / 2) * e`` with
  ``e = exp(|x| / 2)`` near overflow; x's sign.
- ``coshf``: ``1 + t**2 / (2 (1 + t))`` below ln 2 / 2, ``e / 2 + 1 / (2 e)`` below 22,
  ``e / 2`` and ``(e / 2) * e`` above, ``e = expf(|x|)``.

- ``expf``/``exp2f`` (glibc 2.27's, in double precision): ``x = k/32 + r`` (for ``expf``,
  ``x * 32 / ln 2 = k + r``), ``2**(k/32)`` from a table of 32 powers, a cubic in ``r``, the
  product rounded once to float32 (within 0.502 ulp; the correctly rounded value differs
  for 1 input in 2,000). The table is computed here (``decimal``), not copied.
"""

from __future__ import annotations

from decimal import Decimal, localcontext

import numpy as np

_F32 = np.float32
_ONE, _HALF, _TWO = _F32(1), _F32(0.5), _F32(2)

# fdlibm's constants (as float32 bit patterns in its source)
_O_THRESHOLD = _F32(8.8721679688e01)
_LN2_HI, _LN2_LO = _F32(6.9313812256e-01), _F32(9.0580006145e-06)
_INV_LN2 = _F32(1.4426950216e00)
_Q = tuple(_F32(c) for c in (-3.3333335072e-02, 1.5873016091e-03, -7.9365076090e-05))
_Q4, _Q5 = _F32(4.0082177293e-06), _F32(-2.0109921195e-07)


def _bits(x: np.ndarray) -> np.ndarray:
    return x.view(np.int32) & 0x7FFFFFFF


def _powers_of_two(n: int) -> np.ndarray:
    """2**(i/n) for i < n, each correctly rounded to a double."""
    with localcontext() as context:
        context.prec = 50
        return np.array([float(Decimal(2) ** (Decimal(i) / n)) for i in range(n)])


_N = 32
_TABLE = _powers_of_two(_N)
_POLY = tuple(
    float.fromhex(c) / _N**power
    for c, power in (
        ("0x1.c6af84b912394p-5", 3),
        ("0x1.ebfce50fac4f3p-3", 2),
        ("0x1.62e42ff0c52d6p-1", 1),
    )
)
_INV_LN2_N = float.fromhex("0x1.71547652b82fep+0") * _N


def _exp2_scaled(z: np.ndarray) -> np.ndarray:
    """2**(z / 32) for a float64 array z (glibc's expf/exp2f core), rounded to float32."""
    kd = np.rint(np.nan_to_num(z, nan=0.0, posinf=0.0, neginf=0.0))
    r = z - kd
    k = kd.astype(np.int64)
    s = np.ldexp(_TABLE[k % _N], k // _N)
    y = (_POLY[0] * r + _POLY[1]) * (r * r) + (_POLY[2] * r + 1)
    return (y * s).astype(_F32)


def expf(x) -> np.ndarray:
    """glibc's ``expf`` (see the module docstring)."""
    x = np.asarray(x, _F32)
    with np.errstate(all="ignore"):
        out = _exp2_scaled(_INV_LN2_N * x.astype(np.float64))
    out = np.where(x > _F32(float.fromhex("0x1.62e42ep6")), _F32(np.inf), out)
    out = np.where(x < _F32(float.fromhex("-0x1.9fe368p6")), _F32(0), out)
    return np.where(np.isnan(x), x, out).astype(_F32)


def exp2f(x) -> np.ndarray:
    """glibc's ``exp2f`` (see the module docstring)."""
    x = np.asarray(x, _F32)
    with np.errstate(all="ignore"):
        out = _exp2_scaled(x.astype(np.float64) * _N)
    out = np.where(x >= 128, _F32(np.inf), out)
    out = np.where(x <= -150, _F32(0), out)
    return np.where(np.isnan(x), x, out).astype(_F32)


_expf = expf


def _scale(y: np.ndarray, k: np.ndarray) -> np.ndarray:
    """y times 2**k (fdlibm adds k to the exponent bits)."""
    with np.errstate(over="ignore"):
        return np.ldexp(y, k).astype(_F32)


def expm1f(x) -> np.ndarray:
    """glibc's ``expm1f`` (see the module docstring)."""
    x = np.asarray(x, _F32)
    hx = _bits(x)
    negative = np.signbit(x)
    with np.errstate(all="ignore"):
        near = (hx > 0x3EB17218) & (hx < 0x3F851592)  # 0.5 ln 2 < |x| < 1.5 ln 2
        far = hx >= 0x3F851592
        sign = np.where(negative, _F32(-1), _ONE)
        k = np.where(near, sign.astype(np.int32), 0)
        kf = np.trunc(_INV_LN2 * x + sign * _HALF)  # C's float-to-int conversion truncates
        kf = np.nan_to_num(kf, nan=0, posinf=0, neginf=0).clip(-200, 200)
        k = np.where(far, kf.astype(np.int32), k)
        t = k.astype(_F32)
        hi = np.where(near, x - sign * _LN2_HI, x - t * _LN2_HI)
        lo = np.where(near, sign * _LN2_LO, t * _LN2_LO)
        reduced = k != 0
        r = np.where(reduced, hi - lo, x)
        c = np.where(reduced, (hi - r) - lo, _F32(0))
        hfx = _HALF * r
        hxs = r * hfx
        p = _Q4 + hxs * _Q5
        for q in reversed(_Q):
            p = q + hxs * p
        r1 = _ONE + hxs * p
        t = _F32(3) - r1 * hfx
        e = hxs * ((r1 - t) / (_F32(6) - r * t))
        out = r - (r * e - hxs)  # k = 0
        e = (r * (e - c) - c) - hxs
        k_minus1 = _HALF * (r - e) - _HALF
        k_plus1 = np.where(r < _F32(-0.25), -_TWO * (e - (r + _HALF)), _ONE + _TWO * (r - e))
        big = _scale(_ONE - (e - r), k) - _ONE  # k <= -2 or k > 56
        two_k = np.ldexp(_ONE, -np.clip(k, 0, 60)).astype(_F32)
        small_k = _scale((_ONE - two_k) - (e - r), k)  # 2 <= k < 23
        mid_k = _scale((r - (e + two_k)) + _ONE, k)  # 23 <= k <= 56
        out = np.select(
            [k == 0, k == -1, k == 1, (k <= -2) | (k > 56), k < 23],
            [out, k_minus1, k_plus1, big, small_k],
            mid_k,
        )
    out = np.where(hx < 0x33000000, x, out)  # |x| < 2**-25
    out = np.where((hx >= 0x4195B844) & negative, _F32(-1), out)  # x <= -27 ln 2
    out = np.where(x > _O_THRESHOLD, _F32(np.inf), out)
    out = np.where(np.isneginf(x), _F32(-1), out)
    return np.where(np.isnan(x), x, out).astype(_F32)


def _near_overflow(ax: np.ndarray, h) -> np.ndarray:
    w = _expf(_HALF * ax)
    return (h * w) * w


def sinhf(x) -> np.ndarray:
    """glibc's ``sinhf`` (see the module docstring)."""
    x = np.asarray(x, _F32)
    ix, ax = _bits(x), np.abs(x)
    h = np.where(np.signbit(x), -_HALF, _HALF)
    with np.errstate(all="ignore"):
        t = expm1f(ax)
        below_one = h * (_TWO * t - t * t / (t + _ONE))
        below_22 = h * (t + t / (t + _ONE))
        out = np.select(
            [ix < 0x31800000, ix < 0x3F800000, ix < 0x41B00000, ix < 0x42B17180, ix <= 0x42B2D4FC],
            [x, below_one, below_22, h * _expf(ax), _near_overflow(ax, h)],
            x * _F32(1e37),
        )
    return out.astype(_F32)


def coshf(x) -> np.ndarray:
    """glibc's ``coshf`` (see the module docstring)."""
    x = np.asarray(x, _F32)
    ix, ax = _bits(x), np.abs(x)
    with np.errstate(all="ignore"):
        t = expm1f(ax)
        w = _ONE + t
        small = np.where(ix < 0x24000000, w, _ONE + (t * t) / (w + w))
        e = _expf(ax)
        out = np.select(
            [ix < 0x3EB17218, ix < 0x41B00000, ix < 0x42B17180, ix <= 0x42B2D4FC],
            [small, _HALF * e + _HALF / e, _HALF * e, _near_overflow(ax, _HALF)],
            x * x * _F32(1e30) * _F32(1e30),
        )
    return out.astype(_F32)
