"""``bmm``: a batch of matrix products, and the checks of a batched ``matmul``."""

from __future__ import annotations

import numpy as np

from ..autograd.function import ArrayFunction
from ._common import LEGACY_NAMES, broadcast_shapes
from .linalg import check_not_bool
from .namespace import namespace


def check_batched(a: np.ndarray, b: np.ndarray) -> None:
    """PyTorch's errors for a batched matmul (bmm after expanding both batches; a matmul that
    folds its batch into one mm or mv is not computed here, see ``minigrad.matmul``)."""
    a2 = a if a.ndim > 1 else a[None, :]
    b2 = b if b.ndim > 1 else b[:, None]
    batch = broadcast_shapes(a2.shape[:-2], b2.shape[:-2])  # the batches first, as PyTorch
    if a2.shape[-1] != b2.shape[-2]:
        n = int(np.prod(batch))
        raise RuntimeError(
            f"Expected size for first two dimensions of batch2 tensor to be: [{n}, "
            f"{a2.shape[-1]}] but got: [{n}, {b2.shape[-2]}]."
        )
    _check_bmm_dtypes(a2, b2)


def _check_bmm_dtypes(a: np.ndarray, b: np.ndarray) -> None:
    """bmm's kernel reads both in one dtype; with nothing to compute (an empty result or an
    empty inner dim) it returns before reading, so it checks nothing (PyTorch)."""
    empty = a.shape[-1] == 0 or a.shape[-2] == 0 or b.shape[-1] == 0 or 0 in a.shape[:-2]
    if a.dtype != b.dtype and not empty:
        raise RuntimeError(
            f"expected scalar type {LEGACY_NAMES[a.dtype]} but found {LEGACY_NAMES[b.dtype]}"
        )


class Bmm(ArrayFunction):
    """``bmm``: a batch of matrix products, ``(b, n, m) @ (b, m, p)``, no broadcasting."""

    node_name = "BmmBackward0"
    saved_when = (1, 0)  # a is kept for b's gradient only, b for a's (as PyTorch)

    @staticmethod
    def forward(ctx, a, b):
        if a.ndim != 3:
            raise RuntimeError("batch1 must be a 3D tensor")
        if b.ndim != 3:
            raise RuntimeError("batch2 must be a 3D tensor")
        if a.shape[0] != b.shape[0] or a.shape[2] != b.shape[1]:
            raise RuntimeError(
                f"Expected size for first two dimensions of batch2 tensor to be: "
                f"[{a.shape[0]}, {a.shape[2]}] but got: [{b.shape[0]}, {b.shape[1]}]."
            )
        _check_bmm_dtypes(a, b)
        check_not_bool(a, b, "bmm")
        ctx.save_for_backward(a, b)
        small = a.shape[2] * a.shape[1] * b.shape[2] < 400 and a.size
        if small and a.dtype in (np.float32, np.float64):  # float16: PyTorch's own rounding
            return _small_bmm(a, b)
        return np.matmul(a, b).astype(b.dtype, copy=False)  # mixed only when empty: b's dtype

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        xp = namespace(grad)
        # bmm again (not matmul, which would fold the batch), mat2's first, as PyTorch
        grad_b = None if a is None else Bmm.call(xp.swapaxes(a, 1, 2), grad)
        return None if b is None else Bmm.call(grad, xp.swapaxes(b, 1, 2)), grad_b


def _small_bmm(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """bmm as PyTorch computes a small one (inner size x rows x columns below 400, its
    ``baddbmm_cpu_kernel``): each element a sum from 0. of the products, one after the other
    (numpy's matmul adds them in another order: an ulp apart in most results). ``cumsum``
    adds in that order; ``+ 0.`` turns its -0. into the 0. that a sum from 0. gives."""
    products = a[:, :, :, None] * b[:, None, :, :]  # (batch, rows, inner, columns)
    return np.add(np.cumsum(products, axis=2)[:, :, -1, :], 0.0, order="C")  # as matmul's
