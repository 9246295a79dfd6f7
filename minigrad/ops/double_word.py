"""Double-word arithmetic: a number kept as a pair of floats ``hi + lo``, as SLEEF does.

SLEEF's 1-ulp functions (``sleef_float``, ``sleef_double``) keep their intermediate values
as unevaluated sums of two floats, about twice the precision, with these operations (its
``df.h`` and ``dd.h`` in their fused multiply-add forms). They work on float32 or float64
arrays alike: the pair's dtype is its arrays'. A plain float where a pair is expected is
written ``(x, 0)`` by the caller, or passed as a float where the operation takes one.
"""

from __future__ import annotations

import numpy as np

from ._fma import fma

Pair = tuple[np.ndarray, np.ndarray]


def add2(x: Pair, y) -> Pair:
    """``x + y`` for a pair ``y`` or a float, without assuming which is larger (``add2``)."""
    (xh, xl), (yh, yl) = x, y if isinstance(y, tuple) else (y, None)
    s = xh + yh
    v = s - xh
    t = (xh - (s - v)) + (yh - v)
    return s, t + xl if yl is None else t + (xl + yl)


def add(x: Pair, y: Pair) -> Pair:
    """``x + y``, ``|x| >= |y|``."""
    s = x[0] + y[0]
    return s, (((x[0] - s) + y[0]) + x[1]) + y[1]


def add_to_float(x, y: Pair) -> Pair:
    """The float ``x`` plus the pair ``y``, ``|x| >= |y|``."""
    s = x + y[0]
    return s, ((x - s) + y[0]) + y[1]


def sub(x: Pair, y: Pair) -> Pair:
    """``x - y``, ``|x| >= |y|``."""
    s = x[0] - y[0]
    return s, (((x[0] - s) - y[0]) + x[1]) - y[1]


def mul(x: Pair, y) -> Pair:
    """``x * y`` for a pair or a float ``y``."""
    if isinstance(y, tuple):
        s = x[0] * y[0]
        return s, fma(x[0], y[1], fma(x[1], y[0], fma(x[0], y[0], -s)))
    s = x[0] * y
    return s, fma(x[1], y, fma(x[0], y, -s))


def square(x: Pair) -> Pair:
    s = x[0] * x[0]
    return s, fma(x[0] + x[0], x[1], fma(x[0], x[0], -s))


def reciprocal(d: Pair) -> Pair:
    """``1 / d``."""
    one = d[0].dtype.type(1)
    s = one / d[0]
    return s, s * fma(-d[1], s, fma(-d[0], s, one))
