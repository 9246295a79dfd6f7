"""SLEEF's float64 ``exp``, ``exp2``, ``expm1``, ``sinh`` and ``cosh`` (1-ulp), in numpy.

PyTorch's softmax and log_softmax kernels (``SoftMaxKernel.cpp``) call
``Vectorized<double>::exp`` and ``::log``, which are SLEEF's ``Sleef_expd8_u10`` and
``Sleef_logd8_u10`` on AVX-512 (``log`` is in ``sleef_log``). Their results differ from
numpy's ``exp`` and ``log`` in the last bit for a few inputs in a hundred, and softmax's
outputs are added up and printed:
``softmax(x, 0).sum()`` prints ``3.`` in PyTorch where the numpy sum gave 2.9999999999999996.

SLEEF's double functions lean on the fused multiply-add (one rounding of ``a * b + c``),
which numpy lacks: ``_fma.fma`` rebuilds it exactly.

- ``exp``: ``q = rint(x / ln 2)``, ``s = x - q ln 2`` in two fused steps (ln 2 in two
  parts), a degree-10 polynomial by Estrin's scheme then three Horner steps, all fused,
  and ``2**q`` applied in two halves; above ln(DBL_MAX) inf, below -1000 zero.
- ``exp2``: ``q = rint(x)``, a degree-12 polynomial in ``x - q`` (Estrin, then two Horner
  steps), times ``2**q``; inf from 1024, zero below -2000.
- ``expk2``: exp of a double-word number (``double_word``), as in ``sleef_float`` with a
  degree-14 polynomial; ``expm1 = expk2 - 1``, ``sinh``/``cosh`` ``(e -+ 1/e) / 2``.
- ``log``: in ``sleef_log`` (with float32's ``logf``).

These are PyTorch's float64 values for the elements ``kernel_loop`` gives to vectors.
"""

from __future__ import annotations

import numpy as np

from ._fma import fma
from .double_word import add, add2, add_to_float, mul, reciprocal, square, sub

_F64 = np.dtype(np.float64)

# SLEEF's constants (its misc.h and xexp): ln 2 in a high part whose products with q are
# exact, and the low part; the polynomial's coefficients from c9 down to c0
_R_LN2 = 1.442695040888963407359924681001892137426645954152985934135449406931
_L2U = 0.69314718055966295651160180568695068359375
_L2L = 0.28235290563031577122588448175013436025525412068e-12
_LOG_DBL_MAX = 709.782712893384
_EXP_POLY = (
    0.2081276378237164457e-8,
    0.2511210703042288022e-7,
    0.2755762628169491192e-6,
    0.2755723402025388239e-5,
    0.2480158687479686264e-4,
    0.1984126989855865850e-3,
    0.1388888888914497797e-2,
    0.8333333333314938210e-2,
    0.4166666666666602598e-1,
    0.1666666666666669072e0,
)


def _estrin(s: np.ndarray, coefficients: tuple[float, ...], powers=None) -> np.ndarray:
    """SLEEF's POLY10 (Estrin's scheme: pairs, then by s**2, s**4, s**8), every step fused;
    ``powers`` gives s**2, s**4, s**8 when the caller has them (else plain products)."""
    if powers is None:
        s2 = s * s
        s4 = s2 * s2
        powers = (s2, s4, s4 * s4)
    s2, s4, s8 = powers
    c9, c8, c7, c6, c5, c4, c3, c2, c1, c0 = coefficients
    low = fma(s4, fma(s2, fma(s, c7, c6), fma(s, c5, c4)), fma(s2, fma(s, c3, c2), fma(s, c1, c0)))
    return fma(s8, fma(s, c9, c8), low)


def _times_power_of_two(u: np.ndarray, q: np.ndarray) -> np.ndarray:
    """``u * 2**q`` as two multiplications by ``2**(q >> 1)`` and ``2**(q - (q >> 1))``."""
    half = q >> 1
    return u * np.ldexp(1.0, half) * np.ldexp(1.0, q - half)


def exp(x: np.ndarray) -> np.ndarray:
    """SLEEF's ``xexp`` (1-ulp), bit for bit (see the module docstring)."""
    x = np.asarray(x, _F64)
    with np.errstate(all="ignore"):
        u = np.rint(x * _R_LN2)
        q = np.nan_to_num(u, nan=0.0, posinf=0.0, neginf=0.0).clip(-2000, 2000).astype(np.int64)
        s = fma(u, -_L2L, fma(u, -_L2U, x))
        p = _estrin(s, _EXP_POLY)
        for c in (0.5, 1.0, 1.0):
            p = fma(p, s, c)
        out = _times_power_of_two(p, q)
    out = np.where(x > _LOG_DBL_MAX, np.inf, out)
    out = np.where(x < -1000, 0.0, out)
    return np.where(np.isnan(x), x, out)


_EXP2_POLY = (
    0.4434359082926529454e-9,
    0.7073164598085707425e-8,
    0.1017819260921760451e-6,
    0.1321543872511327615e-5,
    0.1525273353517584730e-4,
    0.1540353045101147808e-3,
    0.1333355814670499073e-2,
    0.9618129107597600536e-2,
    0.5550410866482046596e-1,
    0.2402265069591012214e0,
)
_EXPK2_POLY = (
    0.1602472219709932072e-9,
    0.2092255183563157007e-8,
    0.2505230023782644465e-7,
    0.2755724800902135303e-6,
    0.2755731892386044373e-5,
    0.2480158735605815065e-4,
    0.1984126984148071858e-3,
    0.1388888888886763255e-2,
    0.8333333333333347095e-2,
    0.4166666666666669905e-1,
)


def _rint_int(u: np.ndarray) -> np.ndarray:
    return np.nan_to_num(u, nan=0.0, posinf=0.0, neginf=0.0).clip(-4000, 4000).astype(np.int64)


def exp2(x: np.ndarray) -> np.ndarray:
    """SLEEF's ``xexp2`` (1-ulp), bit for bit (see the module docstring)."""
    x = np.asarray(x, _F64)
    with np.errstate(all="ignore"):
        u = np.rint(x)
        s = x - u
        p = fma(_estrin(s, _EXP2_POLY), s, 0.6931471805599452862)
        out = _times_power_of_two(fma(p, s, 1.0), _rint_int(u))
    out = np.where(x >= 1024, np.inf, out)
    out = np.where(x < -2000, 0.0, out)
    return np.where(np.isnan(x), x, out)


def _expk2(x: np.ndarray):
    """exp(x) as a double-word number (SLEEF's ``expk2`` of (x, 0))."""
    u = np.rint(x * _R_LN2)
    s = add2(add2((x, np.zeros_like(x)), u * -_L2U), u * -_L2L)
    s2 = square(s)
    s4 = square(s2)
    p = _estrin(s[0], _EXPK2_POLY, (s2[0], s4[0], s4[0] * s4[0]))
    t = add_to_float(0.5, mul(s, 0.1666666666666666574))
    t = add_to_float(1.0, mul(t, s))
    t = add_to_float(1.0, mul(t, s))
    hi, lo = add(t, mul(s4, p))
    q = _rint_int(u)
    under = x < -1000
    return (
        np.where(under, 0.0, _times_power_of_two(hi, q)),
        np.where(under, 0.0, _times_power_of_two(lo, q)),
    )


def expm1(a: np.ndarray) -> np.ndarray:
    """SLEEF's ``xexpm1`` (1-ulp), bit for bit."""
    a = np.asarray(a, _F64)
    with np.errstate(all="ignore"):
        hi, lo = add2(_expk2(a), -1.0)
        x = hi + lo
    x = np.where(a > 709.782712893383996732223, np.inf, x)
    x = np.where(a < -36.736800569677101399113302437, -1.0, x)
    x = np.where((a == 0) & np.signbit(a), a, x)
    return np.where(np.isnan(a), a, x)


def _hyperbolic(x: np.ndarray, combine) -> np.ndarray:
    with np.errstate(all="ignore"):
        d = _expk2(np.abs(x))
        d = combine(d, reciprocal(d))
        y = (d[0] + d[1]) * 0.5
    return np.where((np.abs(x) > 710) | np.isnan(y), np.inf, y)


def sinh(x: np.ndarray) -> np.ndarray:
    """SLEEF's ``xsinh`` (1-ulp), bit for bit."""
    x = np.asarray(x, _F64)
    return np.where(np.isnan(x), x, np.copysign(_hyperbolic(x, sub), x))


def cosh(x: np.ndarray) -> np.ndarray:
    """SLEEF's ``xcosh`` (1-ulp), bit for bit."""
    x = np.asarray(x, _F64)
    return np.where(np.isnan(x), x, _hyperbolic(x, add))
