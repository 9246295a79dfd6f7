"""``atan2(y, x)``: the angle of the point ``(x, y)``, in (-pi, pi].

The one function that turns a direction back into an angle (a 2-D rotation, a phase), and the
quadrant is what makes it more than ``atan(y / x)``: ``atan2(1, -1)`` is ``3pi/4``, not
``-pi/4``, and the signs of zeros count (``atan2(-0., -1.)`` is ``-pi``).

Its gradient is that of ``atan(y / x)`` written without the division: ``x / (x^2 + y^2)`` for
``y`` and ``-y / (x^2 + y^2)`` for ``x``. At the origin both would be 0/0; PyTorch fills the
reciprocal with 0 where ``x^2 + y^2`` is 0 (``atan2_backward``, a ``masked_fill_``), so the
gradient there is 0, and so is it here.
"""

from __future__ import annotations

import numpy as np

from .._dtypes import get_default_dtype, result_dtype
from ..autograd.function import ArrayFunction
from ._common import in_grad_dtype
from .arithmetic import MaskedFill, Neg, Reciprocal
from .namespace import namespace


def float_result(a, b) -> np.dtype:
    """The dtype of a float function of two tensors: their promoted dtype, or the default
    float dtype when both are integers or bools (PyTorch's ``promoteIntegerToFloat``)."""
    dtype = result_dtype(np.asarray(a), np.asarray(b))
    return dtype if dtype.kind == "f" else get_default_dtype().numpy


class Atan2(ArrayFunction):
    """``atan2(self, other)``, computed in float64 and rounded to the result's dtype once.

    PyTorch's float32 kernel (SLEEF's ``atan2f``, within 1 ulp) and float64 kernel differ from
    the correctly rounded value in the last bit for a few elements in a hundred; in print
    (4 digits) that shows for about one value in 100,000.
    """

    node_name = "Atan2Backward0"
    broadcasts = True
    saved_names = ("self", "other")

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        dtype = float_result(a, b)
        a64, b64 = np.asarray(a, dtype), np.asarray(b, dtype)  # an integer is a float first
        return np.arctan2(a64.astype(np.float64), b64.astype(np.float64)).astype(dtype)

    @staticmethod
    def backward(ctx, grad):
        """``grad * other * recip``, ``grad * -self * recip`` with ``recip`` PyTorch's
        ``(self * self + other * other).reciprocal()``, set to 0 where the sum is 0. Each
        only when its input needs it (``-self`` of a bool ``self`` is refused, as there)."""
        xp = namespace(grad)
        a, b = ctx.saved_tensors
        denom = in_grad_dtype(a * a, grad) + in_grad_dtype(b * b, grad)
        recip = MaskedFill.call(Reciprocal.call(denom), xp.data(denom) == 0)
        grad_a = None if ctx._next[0] is None else grad * in_grad_dtype(b, grad) * recip
        grad_b = None if ctx._next[1] is None else grad * in_grad_dtype(Neg.call(a), grad) * recip
        return grad_a, grad_b
