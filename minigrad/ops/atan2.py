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
from ..autograd.array_apply import _apply_arrays
from ..autograd.function import ArrayFunction
from ._common import broadcast_shapes, in_grad_dtype
from ._simd_ties import vectorised
from .arithmetic import MaskedFill, Neg, Reciprocal
from .libm_atan2f import atan2f
from .namespace import namespace


def float_result(a, b) -> np.dtype:
    """The dtype of a float function of two tensors: their promoted dtype, or the default
    float dtype when both are integers or bools (PyTorch's ``promoteIntegerToFloat``)."""
    dtype = result_dtype(np.asarray(a), np.asarray(b))
    return dtype if dtype.kind == "f" else get_default_dtype().numpy


class Atan2(ArrayFunction):
    """``atan2(self, other)`` as PyTorch's CPU kernel computes it: the elements of its scalar
    loop (a tensor of fewer than 16 floats, a strided one, a row's tail) by the C library's
    ``atan2f`` (``libm_atan2f``), bit for bit; those of its vector loop (SLEEF's ``atan2f``,
    within an ulp) and float64 ones correctly rounded, which SLEEF's and glibc's are for all
    but a few elements in a hundred (the last bit; 4 printed digits show it about once in
    100,000 values).
    """

    node_name = "Atan2Backward0"
    broadcasts = True
    saved_names = ("self", "other")
    keeps_zeros = (True, True)  # grad * ...: PyTorch's efficient zeros stay zeros
    # the general apply: a 0-d input is saved as given (the binary short path would save it
    # promoted: -self of a 0-d bool must still be refused in backward); forward promotes
    apply = classmethod(_apply_arrays)

    @staticmethod
    def forward(ctx, a, b):
        broadcast_shapes(np.shape(a), np.shape(b))  # PyTorch's error for sizes that differ
        ctx.save_for_backward(a, b)
        dtype = float_result(a, b)
        y, x = np.asarray(a, dtype), np.asarray(b, dtype)  # an integer is a float first
        if dtype == np.float64:
            return np.arctan2(y, x)  # the C library's atan2, as PyTorch's scalar loop
        out = atan2f(y, x)
        vector = vectorised(out.shape, [np.asarray(a), np.asarray(b)], dtype)
        if vector is not None:  # SLEEF's atan2f there: the correctly rounded value, mostly
            with np.errstate(all="ignore"):
                exact = np.arctan2(y.astype(np.float64), x.astype(np.float64)).astype(dtype)
            out = np.where(vector, exact, out)
        return out.astype(dtype)

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
