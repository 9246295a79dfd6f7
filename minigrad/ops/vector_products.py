"""Products with a vector: ``mv`` (matrix @ vector) and ``dot`` (vector @ vector).

Each gradient is the other operand, scaled by ``grad`` (an outer product for the matrix).
"""

from __future__ import annotations

import numpy as np

from ..autograd.function import ArrayFunction
from ._common import LEGACY_NAMES
from .linalg import check_not_bool, dims_text
from .namespace import namespace


class Mv(ArrayFunction):
    node_name = "MvBackward0"
    saved_names = ("self", "vec")
    saved_when = (1, 0)

    @staticmethod
    def forward(ctx, m, v):
        if m.ndim == 0:
            raise IndexError("Dimension specified as 0 but tensor has no dimensions")
        if m.ndim != 2 or v.ndim != 1:
            raise RuntimeError(f"vector + matrix @ vector expected, got 1, {m.ndim}, {v.ndim}")
        if m.ndim != 2 or v.ndim != 1 or m.shape[1] != v.shape[0]:
            raise RuntimeError(
                f"size mismatch, got input ({m.shape[0] if m.ndim else 0}), "
                f"mat ({dims_text(m.shape)}), vec ({dims_text(v.shape)})"
            )
        # the sizes first, then the dtypes, as PyTorch's addmv checks them
        if m.dtype != v.dtype:
            raise RuntimeError(
                "addmv input tensors must have the same dtype, but got "
                f"{LEGACY_NAMES[v.dtype]}, {LEGACY_NAMES[m.dtype]}, and {LEGACY_NAMES[v.dtype]}"
            )
        check_not_bool(m, v, "addmv_impl_cpu")
        ctx.save_for_backward(m, v)
        out = small_mv(m, v)
        return m @ v if out is None else out

    @staticmethod
    def backward(ctx, grad):
        m, v = ctx.saved_tensors
        xp = namespace(grad)
        grad_m = None if v is None else xp.reshape(grad, (-1, 1)) * v
        if m is not None and type(grad) is np.ndarray:  # PyTorch's self.t().mv(grad)
            grad_v = small_mv(m.T, grad)
            return grad_m, m.T @ grad if grad_v is None else grad_v
        return grad_m, None if m is None else xp.t(m) @ grad


def small_mv(m: np.ndarray, v: np.ndarray) -> np.ndarray | None:
    """``m @ v`` as PyTorch's BLAS gemv computes a small float one, or None when it is not
    one: each element a sum from 0. of the products in order (numpy adds in another order).
    Measured against torch for inner sizes up to 4 (up to 7 for a column-major ``m``, such
    as ``W.t()``, 8 for one row) and fewer than 400 products; others keep numpy's product."""
    if m.size >= 400 or m.dtype not in _BLAS_FLOATS or v.dtype != m.dtype or not m.size:
        return None
    n, k = m.shape
    if k > (8 if n == 1 else 7 if m.flags.f_contiguous and not m.flags.c_contiguous else 4):
        return None
    return np.cumsum(m * v, axis=1)[:, -1] + 0.0  # a sum from 0. is never -0.


_BLAS_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))


class Dot(ArrayFunction):
    node_name = "DotBackward0"
    saved_names = ("self", "tensor")
    saved_when = (1, 0)

    @staticmethod
    def forward(ctx, a, b):
        if a.ndim != 1 or b.ndim != 1:
            raise RuntimeError(f"1D tensors expected, but got {a.ndim}D and {b.ndim}D tensors")
        if a.dtype != b.dtype:
            raise RuntimeError(
                "dot : expected both vectors to have same dtype, but found "
                f"{LEGACY_NAMES[a.dtype]} and {LEGACY_NAMES[b.dtype]}"
            )
        if a.shape != b.shape:
            raise RuntimeError(
                f"inconsistent tensor size, expected tensor [{a.size}] and src [{b.size}] to have "
                f"the same number of elements, but got {a.size} and {b.size} elements respectively"
            )
        check_not_bool(a, b, "dot")
        ctx.save_for_backward(a, b)
        out = np.dot(a, b)  # BLAS sums from 0.: never -0. (numpy's -1. * 0. is -0.)
        return out + out.dtype.type(0) if out.dtype.kind == "f" else out

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return None if b is None else grad * b, None if a is None else grad * a
