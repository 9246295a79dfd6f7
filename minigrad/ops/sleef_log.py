"""SLEEF's ``log`` (1-ulp), float32 and float64, as PyTorch's log_softmax computes it.

PyTorch's log_softmax along the last dim (``_vec_log_softmax_lastdim``) takes the log of
each row's sum with ``Vectorized<scalar_t>::log``: SLEEF's ``Sleef_logf16_u10`` /
``Sleef_logd8_u10`` on AVX-512. Its result is within an ulp of the true log, not always the
correctly rounded one (float32: 1 row in 100 differs), and the last bit shows in
``x - max - log(sum)``. This redoes SLEEF's AVX-512 steps with numpy:

- ``d = m * 2**e`` with ``e`` the exponent of ``d / 0.75`` (``getexp``) and ``m`` the
  significand normalised to [0.75, 1.5) (``getmant``);
- ``x = (m - 1) / (m + 1)`` as a double-word number (a pair of floats, ``hi + lo``);
- ``log d = e ln 2 + 2x + x**3 P(x**2)``, ``e ln 2`` and ``2x`` in double-word arithmetic,
  the polynomial (float32: degree 2, float64: degree 6 by Estrin's scheme) in plain fused
  multiply-adds, and the pair's two parts added at the end;
- 0 gives -inf, a negative number nan, inf inf (AVX-512's ``fixupimm``).
"""

from __future__ import annotations

import numpy as np

from ._fma import fma

_F32 = np.dtype(np.float32)

# ln 2 as a double-word constant, and the polynomial's coefficients (highest first)
_CONSTANTS = {
    np.dtype(np.float32): (
        (0.69314718246459960938, -1.904654323148236017e-09),
        (0.3027294874, 0.3996108174, 0.6666694880),
        128.0,
    ),
    np.dtype(np.float64): (
        (0.693147180559945286226764, 2.319046813846299558417771e-17),
        (
            0.1532076988502701353,
            0.1525629051003428716,
            0.1818605932937785996,
            0.2222214519839380009,
            0.2857142932794299317,
            0.3999999999635251990,
            0.6666666666667333541,
        ),
        1024.0,
    ),
}


def _two_sum(x, y):
    """``x + y`` as a double-word number (hi, lo) exactly."""
    s = x + y
    v = s - x
    return s, (x - (s - v)) + (y - v)


def _divide(nh, nl, dh, dl):
    """``n / d`` of double-word numbers, SLEEF's FMA form (``dfdiv``/``dddiv``)."""
    one = nh.dtype.type(1)
    t = one / dh
    s = nh * t
    u = fma(t, nh, -s)
    v = fma(-dl, t, fma(-dh, t, one))
    return s, fma(s, v, fma(nl, t, u))


def _exponent(y: np.ndarray) -> np.ndarray:
    """AVX-512 ``getexp``: floor(log2 |y|) as a float (finite, nonzero y)."""
    return (np.frexp(y)[1] - 1).astype(y.dtype)


def _significand(d: np.ndarray) -> np.ndarray:
    """AVX-512 ``getmant`` to [0.75, 1.5): the significand in [1, 2), halved from 1.5."""
    m = np.frexp(d)[0] * 2
    return np.where(m >= 1.5, m * d.dtype.type(0.5), m).astype(d.dtype)


def _polynomial(x2: np.ndarray, coefficients: tuple[float, ...]) -> np.ndarray:
    """float32: Horner's rule; float64: SLEEF's POLY7 in x**2 (Estrin's scheme)."""
    c = [x2.dtype.type(v) for v in coefficients]
    if len(c) == 3:
        return fma(fma(np.full_like(x2, c[0]), x2, c[1]), x2, c[2])
    x4 = x2 * x2
    x8 = x4 * x4
    high = fma(x4, c[0], fma(x2, c[1], c[2]))  # POLY3 of the three highest
    low = fma(x4, fma(x2, c[3], c[4]), fma(x2, c[5], c[6]))  # POLY4 of the rest
    return fma(x8, high, low)


def log(d: np.ndarray) -> np.ndarray:
    """SLEEF's ``logf_u1``/``log_u1`` of a float32 or float64 array, bit for bit."""
    d = np.asarray(d)
    dt = d.dtype
    (ln2_hi, ln2_lo), coefficients, inf_exponent = _CONSTANTS[dt]
    one = dt.type(1)
    with np.errstate(all="ignore"):
        scaled = d * dt.type(1 / 0.75)
        finite = np.isfinite(scaled) & (scaled != 0)
        safe = np.where(finite, scaled, one)
        e = np.where(np.isinf(scaled), dt.type(inf_exponent), _exponent(safe))
        m = _significand(np.where(np.isfinite(d) & (d != 0), d, one))
        sh = dt.type(ln2_hi) * e  # (ln2_hi, ln2_lo) * e, SLEEF's dfmul by a float
        sl = fma(dt.type(ln2_lo), e, fma(dt.type(ln2_hi), e, -sh))
        xh, xl = _divide(*_two_sum(-one, m), *_two_sum(one, m))
        x2 = xh * xh
        t = _polynomial(x2, coefficients)
        yh, yl = xh * dt.type(2), xl * dt.type(2)
        s = sh + yh  # double-word add, |e ln 2| >= |2x| or e = 0
        sl = (((sh - s) + yh) + sl) + yl
        term = (x2 * xh) * t
        r = s + term
        rl = ((s - r) + term) + sl
        out = r + rl
    out = np.where(d == 0, -np.inf, out)
    out = np.where(d < 0, np.nan, out)
    out = np.where(np.isposinf(d), np.inf, out)
    return np.where(np.isnan(d), d, out).astype(dt)
