"""Copies: ``clone()``, ``contiguous()``'s copy, and ``to(dtype)``: new memory, the
gradient passes straight through (cast back to the input's dtype for ``to``)."""

from __future__ import annotations

import numpy as np

from ..autograd.function import ArrayFunction
from ._output_layout import iterator_layout
from .namespace import namespace


def preserve_format(a: np.ndarray, out: np.ndarray) -> np.ndarray:
    """``out`` (a copy of ``a`` in numpy's ``order="K"``) laid out as PyTorch's
    ``preserve_format``: an expanded ``a`` (an element read twice) is not dense, so PyTorch
    takes ``infer_dense_strides``, TensorIterator's order of the dims where a stride-0 dim
    has no say (``ones(2, 1, 3).expand(2, 4, 3).permute(2, 0, 1)`` copies to strides
    (4, 12, 1)); numpy's ``K`` order places the stride-0 dims elsewhere."""
    if any(s == 0 and n > 1 for n, s in zip(a.shape, a.strides)):
        return iterator_layout(out, (a,))
    return out


class Clone(ArrayFunction):
    node_name = "CloneBackward0"

    @staticmethod
    def forward(ctx, a):
        return a.copy()

    @staticmethod
    def backward(ctx, grad):
        return grad


class ClonePreserve(Clone):
    """``x.clone()``: PyTorch's ``preserve_format`` keeps the order of the input's strides (a
    transposed tensor's copy is transposed too, so a later ``view`` may refuse it), as numpy's
    ``order="K"``; an expanded one as ``preserve_format`` says."""

    node_name = "CloneBackward0"

    @staticmethod
    def forward(ctx, a):
        return preserve_format(a, a.copy(order="K"))


class ToCopy(ArrayFunction):
    """A copy in another dtype (``.double()``, ``.to(minigrad.float64)``), laid out as
    ``clone()``'s (PyTorch's ``_to_copy`` with ``preserve_format``)."""

    node_name = "ToCopyBackward0"
    n_params = 1
    default_float = False

    @staticmethod
    def forward(ctx, a, np_dtype):
        ctx.dtype = a.dtype
        return preserve_format(a, a.astype(np_dtype))

    @staticmethod
    def backward(ctx, grad):
        return namespace(grad).astype(grad, ctx.dtype)
