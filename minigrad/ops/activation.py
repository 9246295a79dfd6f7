"""Activations beyond relu, tanh and sigmoid (those are in ``unary.py``): leaky_relu."""

from __future__ import annotations

import numpy as np

from ..autograd.function import ArrayFunction
from .namespace import namespace


class LeakyRelu(ArrayFunction):
    """``x`` where positive, ``negative_slope * x`` elsewhere; the gradient is 1 or the slope."""

    node_name = "LeakyReluBackward0"
    n_params = 1

    @staticmethod
    def forward(ctx, a, negative_slope):
        if a.dtype.kind != "f":
            raise NotImplementedError(
                f"\"leaky_relu_cpu\" not implemented for '{_LEGACY[a.dtype.kind]}'"
            )
        ctx.save_for_backward(a)
        ctx.slope = negative_slope
        return np.where(a > 0, a, a * np.asarray(negative_slope, a.dtype))

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        xp = namespace(grad)
        return xp.where(xp.data(a) > 0, grad, grad * ctx.slope)


_LEGACY = {"b": "Bool", "i": "Long", "u": "Byte"}
