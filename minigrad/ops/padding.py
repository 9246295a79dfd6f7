"""``constant_pad_nd``: a border of a constant around the last dimensions (``F.pad``).

A convolution tutorial pads images so that the borders count as much as the middle; a
sequence model pads sentences to one length. PyTorch's op crops first (a negative pad narrows
that side), then fills a new tensor with the value and copies the input into its middle, so
its gradient is the output's gradient cropped back: the same op with the pads negated.
"""

from __future__ import annotations

import numpy as np

from ..autograd.function import ArrayFunction
from .copies import preserve_format
from .logsumexp import as_unsigned
from .number_range import check_number_fits

__all__ = ["ConstantPadNd"]


def _narrowed(a: np.ndarray, dim: int, start: int, length: int) -> np.ndarray:
    if length < 0:
        raise RuntimeError("narrow(): length must be non-negative.")
    return a[(slice(None),) * dim + (slice(start, start + length),)]


class ConstantPadNd(ArrayFunction):
    """``pad`` is (left, right) of the last dim, then of the one before, ...; ``value`` fills."""

    node_name = "ConstantPadNdBackward0"
    saved_settings = {"pad": "saved_pad"}
    n_params = 2

    @staticmethod
    def forward(ctx, a, pad, value):
        ctx.pad, ctx.saved_pad = pad, tuple(as_unsigned(p) for p in pad)  # -1: 2**64 - 1
        n = a.ndim
        first = n - len(pad) // 2  # the first padded dimension
        cropped, grows = a, False
        for i in range(first, n):
            lo, hi = pad[2 * (n - i - 1)], pad[2 * (n - i - 1) + 1]
            if lo < 0:
                cropped = _narrowed(cropped, i, -lo, cropped.shape[i] + lo)
            if hi < 0:
                cropped = _narrowed(cropped, i, 0, cropped.shape[i] + hi)
            grows = grows or lo > 0 or hi > 0
        if not grows:  # only crops: PyTorch's clone of the narrowed input
            return preserve_format(cropped, cropped.copy(order="K"))
        shape = list(a.shape)
        key = [slice(None)] * n
        for i in range(first, n):
            lo, hi = pad[2 * (n - i - 1)], pad[2 * (n - i - 1) + 1]
            shape[i] += lo + hi
            key[i] = slice(max(lo, 0), shape[i] - max(hi, 0))
        out = np.empty(shape, a.dtype)
        out.fill(check_number_fits(value, a.dtype, filling=True))
        out[tuple(key)] = cropped
        return out

    @staticmethod
    def backward(ctx, grad):
        return ConstantPadNd.call(grad, tuple(-p for p in ctx.pad), 0)
