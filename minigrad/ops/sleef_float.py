"""SLEEF's float32 ``expm1``, ``sinh``, ``cosh`` and ``exp2`` (1-ulp), bit for bit in numpy.

PyTorch computes these with ``Vectorized<float>``, i.e. SLEEF's ``Sleef_*f16_u10`` on AVX-512
(``expm1`` over the whole tensor; ``sinh``, ``cosh`` and ``exp2`` over blocks of 32 elements,
see ``ops/hyperbolic``). SLEEF keeps intermediate values as double-word numbers, a pair of
floats ``hi + lo`` holding about 48 bits, so that the last bit comes out right more often
than plain float arithmetic would; its result still differs from the correctly rounded one
for a few inputs in a hundred, which the printed digits show. The steps, as SLEEF's
AVX-512 build runs them (every multiply-add fused, ``_fma``):

- ``expk2``: ``exp`` of a double-word number: ``q = rint(x / ln 2)``, ``s = x - q ln 2``
  (ln 2 in two parts, double-word subtractions), a degree-4 polynomial for the high terms,
  then ``1 + s + s**2 (1/2 + s (1/6 + s P(s)))`` in double-word arithmetic, times ``2**q``
  in two halves; zero below -104.
- ``expm1(x) = expk2(x) - 1`` (double-word), inf above 88.72, -1 below -16.64, -0. kept.
- ``sinh``/``cosh``: ``e = expk2(|x|)``, ``(e -+ 1/e) / 2`` with ``1/e`` a double-word
  reciprocal; inf beyond 89; sinh takes x's sign.
- ``exp2``: ``q = rint(x)``, a degree-6 polynomial in ``x - q``, times ``2**q``; inf from
  128, zero below -150.
"""

from __future__ import annotations

import numpy as np

from ._fma import fma
from .double_word import add, add2, add_to_float, mul, reciprocal, square, sub

_F32 = np.float32

# SLEEF's constants (misc.h, sleefsimdsp.c)
_R_LN2 = _F32(1.442695040888963407359924681001892137426645954152985934135449406931)
_L2U = _F32(0.693145751953125)
_L2L = _F32(1.428606765330187045e-06)
_EXPK2_POLY = tuple(_F32(c) for c in (0.1980960224e-3, 0.1394256484e-2, 0.8333456703e-2))
_EXPK2_C3, _EXPK2_C2 = _F32(0.4166637361e-1), _F32(0.166666659414234244790680580464)
_EXP2_POLY = tuple(
    _F32(c)
    for c in (
        0.1535920892e-3,
        0.1339262701e-2,
        0.9618384764e-2,
        0.5550347269e-1,
        0.2402264476e0,
        0.6931471825e0,
    )
)
_ONE, _HALF = _F32(1), _F32(0.5)


def _times_power_of_two(u: np.ndarray, q: np.ndarray) -> np.ndarray:
    """``u * 2**q`` as two multiplications, by ``2**(q >> 1)`` and ``2**(q - (q >> 1))``."""
    half = q >> 1
    return (u * np.ldexp(_ONE, half) * np.ldexp(_ONE, q - half)).astype(_F32)


def _rint_int(u: np.ndarray) -> np.ndarray:
    """The nearest integer (ties to even) as an int32, 0 for nan and the infinities."""
    return np.nan_to_num(np.rint(u), nan=0, posinf=0, neginf=0).clip(-512, 512).astype(np.int32)


def expk2(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """exp(x) as a double-word number (SLEEF's ``expk2f`` of (x, 0))."""
    q = _rint_int(x * _R_LN2)
    qf = q.astype(_F32)
    s = add2((x, np.zeros_like(x)), qf * -_L2U)
    s = add2(s, qf * -_L2L)
    u = np.full_like(x, _EXPK2_POLY[0])
    for c in (*_EXPK2_POLY[1:], _EXPK2_C3):
        u = fma(u, s[0], c)
    t = add2(mul(s, u), _EXPK2_C2)
    t = add2(mul(s, t), _HALF)
    t = add2(s, mul(square(s), t))
    hi, lo = add_to_float(_ONE, t)
    under = x < -104
    hi = np.where(under, _F32(0), _times_power_of_two(hi, q))
    lo = np.where(under, _F32(0), _times_power_of_two(lo, q))
    return hi, lo


def _float32(x) -> np.ndarray:
    return np.asarray(x, dtype=_F32)


def expm1(a) -> np.ndarray:
    """SLEEF's ``expm1f`` (see the module docstring)."""
    a = _float32(a)
    with np.errstate(all="ignore"):
        h, lo = add2(expk2(a), _F32(-1))
        x = h + lo
    x = np.where(a > _F32(88.72283172607421875), _F32(np.inf), x)
    x = np.where(a < _F32(-16.635532333438687426013570), _F32(-1), x)
    x = np.where((a == 0) & np.signbit(a), a, x)
    return np.where(np.isnan(a), a, x).astype(_F32)


def _hyperbolic(x: np.ndarray, combine) -> np.ndarray:
    with np.errstate(all="ignore"):
        d = expk2(np.abs(x))
        d = combine(d, reciprocal(d))
        y = (d[0] + d[1]) * _HALF
    y = np.where((np.abs(x) > 89) | np.isnan(y), _F32(np.inf), y)
    return y


def sinh(x) -> np.ndarray:
    """SLEEF's ``sinhf`` (see the module docstring)."""
    x = _float32(x)
    y = np.copysign(_hyperbolic(x, sub), x)
    return np.where(np.isnan(x), x, y).astype(_F32)


def cosh(x) -> np.ndarray:
    """SLEEF's ``coshf`` (see the module docstring)."""
    x = _float32(x)
    return np.where(np.isnan(x), x, _hyperbolic(x, add)).astype(_F32)


def exp2(d) -> np.ndarray:
    """SLEEF's ``exp2f`` (see the module docstring)."""
    d = _float32(d)
    with np.errstate(all="ignore"):
        u = np.rint(d)
        s = d - u
        p = np.full_like(d, _EXP2_POLY[0])
        for c in _EXP2_POLY[1:]:
            p = fma(p, s, c)
        p = fma(p, s, _ONE)
        out = _times_power_of_two(p, _rint_int(u))
    out = np.where(d >= 128, _F32(np.inf), out)
    out = np.where(d < -150, _F32(0), out)
    return np.where(np.isnan(d), d, out).astype(_F32)
