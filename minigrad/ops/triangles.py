"""``tril`` and ``triu``: the lower or upper triangle of the last two dims, zeros elsewhere.

A causal attention mask starts as ``tril(ones(T, T))``. Each keeps the elements on and below
(``tril``) or on and above (``triu``) the ``diagonal``-th diagonal (0 the main one, positive
above it, negative below); the gradient is the incoming one cut to the same triangle.
"""

from __future__ import annotations

import numpy as np

from ..autograd.function import ArrayFunction
from .logsumexp import as_unsigned


def _cut(ctx, a: np.ndarray, diagonal: int, cut, name: str) -> np.ndarray:
    if a.ndim < 2:
        raise RuntimeError(f"{name}: input tensor must have at least 2 dimensions")
    ctx.diagonal, ctx.saved_diagonal = diagonal, as_unsigned(diagonal)  # as PyTorch keeps it
    return np.ascontiguousarray(cut(a, diagonal))


class Tril(ArrayFunction):
    """The lower triangle; the node keeps the diagonal (``_saved_diagonal``)."""

    node_name = "TrilBackward0"
    saved_settings = {"diagonal": "saved_diagonal"}
    n_params = 1

    @staticmethod
    def forward(ctx, a, diagonal):
        return _cut(ctx, a, diagonal, np.tril, "tril")

    @staticmethod
    def backward(ctx, grad):
        return Tril.call(grad, ctx.diagonal)


class Triu(ArrayFunction):
    """The upper triangle."""

    node_name = "TriuBackward0"
    saved_settings = {"diagonal": "saved_diagonal"}
    n_params = 1

    @staticmethod
    def forward(ctx, a, diagonal):
        return _cut(ctx, a, diagonal, np.triu, "triu")

    @staticmethod
    def backward(ctx, grad):
        return Triu.call(grad, ctx.diagonal)
