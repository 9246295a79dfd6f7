"""float64 ``exp`` and ``log`` as PyTorch's vectorised CPU kernels compute them (SLEEF), in numpy.

PyTorch's softmax and log_softmax kernels (``SoftMaxKernel.cpp``) call
``Vectorized<double>::exp`` and ``::log``, which are SLEEF's ``Sleef_expd8_u10`` and
``Sleef_logd8_u10`` on AVX-512. Their results differ from numpy's ``exp`` and ``log`` in the
last bit for a few inputs in a hundred, and softmax's outputs are added up and printed:
``softmax(x, 0).sum()`` prints ``3.`` in PyTorch where the numpy sum gave 2.9999999999999996.

SLEEF's double functions lean on the fused multiply-add (one rounding of ``a * b + c``),
which numpy lacks: ``_fma.fma`` rebuilds it exactly.

- ``exp``: ``q = rint(x / ln 2)``, ``s = x - q ln 2`` in two fused steps (ln 2 in two
  parts), a degree-10 polynomial by Estrin's scheme then three Horner steps, all fused,
  and ``2**q`` applied in two halves; above ln(DBL_MAX) inf, below -1000 zero.
- ``log``: in ``sleef_log`` (with float32's ``logf``).
"""

from __future__ import annotations

import numpy as np

from ._fma import fma

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


def _estrin(s: np.ndarray, coefficients: tuple[float, ...]) -> np.ndarray:
    """SLEEF's POLY10 (Estrin's scheme: pairs, then by s**2, s**4, s**8), every step fused."""
    s2 = s * s
    s4 = s2 * s2
    s8 = s4 * s4
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
