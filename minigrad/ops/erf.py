"""``erf``, ``erfc`` and ``erfinv``: the error function, its complement and its inverse.

``erf`` is the Gaussian's cumulative distribution in disguise, ``Phi(x) = (1 + erf(x / sqrt 2))
/ 2``: exact GELU, a normal CDF, a probit; ``erfinv`` turns uniform numbers into normal ones
(``sqrt(2) * erfinv(2u - 1)``, as weight initialisers do). Their gradients are the Gaussian
bell itself: ``2 / sqrt(pi) * exp(-x^2)`` for ``erf`` (negated for ``erfc = 1 - erf``), and
``sqrt(pi) / 2 * exp(erfinv(x)^2)`` for ``erfinv``, PyTorch's formulas node for node (``pow``,
``neg``, ``exp``, a multiplication by the number, then by ``grad``).

Values: PyTorch takes float32 and float64 ``erf``/``erfc`` from Intel MKL (closed source,
within an ulp); here they are the C library's double ``erf``/``erfc`` (Python's ``math``),
rounded once to float32: PyTorch's bits for all but 1-6 elements in a hundred, which the four
printed digits show about once in 10,000 values. ``erfinv`` is PyTorch's rational first guess
refined by Newton's method, on ``erfc`` in the tails (near 1, ``erf`` is 1 to the last bit
and cannot tell the answers apart): within an ulp of PyTorch's float64 everywhere, its
float32 rounded from that (PyTorch's bits for all but about 1 element in 3,000).
"""

from __future__ import annotations

import math

import numpy as np

from .._dtypes import as_float
from ..autograd.function import ArrayFunction
from .arithmetic import MulScalar
from .namespace import namespace
from .powers import PowScalar

_F64 = np.dtype(np.float64)
_ERF = np.frompyfunc(math.erf, 1, 1)
_ERFC = np.frompyfunc(math.erfc, 1, 1)
_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)
_HALF_SQRT_PI = 0.5 * math.sqrt(math.pi)


def _in_double(fn, a: np.ndarray) -> np.ndarray:
    """``fn`` of ``a`` (a float, or an integer or bool read as the default float) computed in
    float64 and rounded once to ``a``'s float dtype."""
    x = as_float(np.asarray(a))
    out = np.asarray(fn(np.asarray(x, _F64)), _F64)
    return out.astype(x.dtype)


def _erfinv64(y: np.ndarray) -> np.ndarray:
    """erfinv in float64: PyTorch's first guess (``calc_erfinv``: a rational function, another
    in ``sqrt(-log((1 - |y|) / 2))`` beyond 0.7), then Newton steps."""
    y = np.asarray(y, _F64)
    a = (-0.140543331, 0.914624893, -1.645349621, 0.886226899)
    b = (0.012229801, -0.329097515, 1.442710462, -2.118377725, 1.0)
    c = (1.641345311, 3.429567803, -1.624906493, -1.970840454)
    d = (1.637067800, 3.543889200, 1.0)
    ya = np.abs(y)
    with np.errstate(all="ignore"):
        z = y * y
        central = y * np.polyval(a, z) / np.polyval(b, z)
        w = np.sqrt(-np.log((1.0 - ya) / 2.0))
        x = np.where(ya <= 0.7, central, np.copysign(np.polyval(c, w), y) / np.polyval(d, w))
        # Newton on erf(x) = y near 0, on erfc(|x|) = 1 - |y| in the tails (where erf(x) is
        # 1 to the last bit and only 1 - |y|, exact there, still tells the x apart)
        tail = ya > 0.5
        for _ in range(3):
            slope = _TWO_OVER_SQRT_PI * np.exp(-x * x)
            central_step = (np.asarray(_ERF(x), _F64) - y) / slope
            tail_step = np.sign(y) * ((1.0 - ya) - np.asarray(_ERFC(np.abs(x)), _F64)) / slope
            step = np.where(tail, tail_step, central_step)
            x = np.where(np.isfinite(step), x - step, x)
    x = np.where(ya == 1, np.copysign(np.inf, y), x)
    return np.where(ya > 1, np.nan, x)


def _bell(grad, a, factor: float):
    """``factor * exp(-(a.pow(2))) * grad``: PyTorch's gradient of erf and erfc."""
    return MulScalar.call(namespace(grad).exp(-PowScalar.call(a, 2)), factor) * grad


class Erf(ArrayFunction):
    node_name = "ErfBackward0"
    elementwise = True
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return _in_double(_ERF, a)

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        return _bell(grad, a, _TWO_OVER_SQRT_PI)


class Erfc(ArrayFunction):
    node_name = "ErfcBackward0"
    elementwise = True
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return _in_double(_ERFC, a)

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        return _bell(grad, a, -_TWO_OVER_SQRT_PI)


class Erfinv(ArrayFunction):
    node_name = "ErfinvBackward0"
    elementwise = True
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return _in_double(_erfinv64, a)

    @staticmethod
    def backward(ctx, grad):
        """``sqrt(pi) / 2 * exp(self.erfinv().pow(2)) * grad`` (erfinv computed again)."""
        (a,) = ctx.saved_tensors
        inverse = Erfinv.call(a)
        return MulScalar.call(namespace(grad).exp(PowScalar.call(inverse, 2)), _HALF_SQRT_PI) * grad
