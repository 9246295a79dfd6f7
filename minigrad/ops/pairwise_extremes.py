"""``maximum`` and ``minimum`` of two tensors: the gradient goes to the input picked.

(The largest element of one tensor, ``max()``, is a reduction: ``extremes.py``.)
"""

from __future__ import annotations

import numpy as np

from .._dtypes import result_dtype
from ..autograd.function import ArrayFunction
from ._simd_ties import extreme_as_pytorch
from .arithmetic import DivScalar, MaskedFill
from .namespace import namespace


def _in_dtype(a: np.ndarray, b: np.ndarray) -> tuple:
    """Both in PyTorch's result dtype, which it compares in (and vectorises by): float32
    and int32 are float32 there (numpy's float64)."""
    dtype = result_dtype(a, b)
    return a.astype(dtype, copy=False), b.astype(dtype, copy=False)


def split_between(grad, a_loses: np.ndarray, b_loses: np.ndarray, tie: np.ndarray) -> tuple:
    """The gradient goes to whichever input was picked; at a tie each side gets half.

    Each side is zeroed only where it lost, so a nan (which neither wins nor ties)
    passes the gradient to both sides, as in PyTorch.
    """
    # each side computes its own where(tie, grad / 2, grad), as PyTorch's two formulas do:
    # under create_graph each side has its own DivBackward1 and WhereBackward0, as there
    where = namespace(grad).where
    return (
        MaskedFill.call(where(tie, DivScalar.call(grad, 2), grad), a_loses),
        MaskedFill.call(where(tie, DivScalar.call(grad, 2), grad), b_loses),
    )


class Maximum(ArrayFunction):
    """Elementwise maximum; at a tie each side gets half the gradient (as in PyTorch)."""

    node_name = "MaximumBackward0"
    saved_names = ("self", "other")
    broadcasts = True

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return extreme_as_pytorch(np.maximum, *_in_dtype(a, b), [a, b])  # 0. or -0. at a tie

    @staticmethod
    def backward(ctx, grad):
        a, b = (namespace(grad).data(v) for v in ctx.saved_tensors)
        return split_between(grad, a < b, a > b, a == b)


class Minimum(ArrayFunction):
    node_name = "MinimumBackward0"
    saved_names = ("self", "other")
    broadcasts = True

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return extreme_as_pytorch(np.minimum, *_in_dtype(a, b), [a, b])

    @staticmethod
    def backward(ctx, grad):
        a, b = (namespace(grad).data(v) for v in ctx.saved_tensors)
        return split_between(grad, a > b, a < b, a == b)
