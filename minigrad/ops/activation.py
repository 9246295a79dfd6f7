"""Activations beyond relu, tanh and sigmoid (those are in ``unary.py``): leaky_relu."""

from __future__ import annotations

import numpy as np

from ..autograd.function import ArrayFunction
from ._common import LEGACY_NAMES
from .namespace import namespace


class LeakyRelu(ArrayFunction):
    """``x`` where positive, ``negative_slope * x`` elsewhere; the gradient is 1 or the slope."""

    node_name = "LeakyReluBackward0"
    n_params = 1

    @staticmethod
    def forward(ctx, a, negative_slope):
        if a.dtype.kind != "f":
            raise NotImplementedError(
                f"\"leaky_relu_cpu\" not implemented for '{LEGACY_NAMES[a.dtype]}'"
            )
        ctx.save_for_backward(a)
        ctx.slope = negative_slope
        return np.where(a > 0, a, a * np.asarray(negative_slope, a.dtype))

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        return LeakyReluBackward.call(grad, a, ctx.slope)


class LeakyReluBackward(ArrayFunction):
    """leaky_relu's gradient as an op of its own (``LeakyReluBackwardBackward0``, edges grad
    and self): linear in ``grad``; its derivative in ``self`` is zero (PyTorch's zeros_like)."""

    node_name = "LeakyReluBackwardBackward0"
    n_params = 1

    @staticmethod
    def forward(ctx, grad, a, negative_slope):
        ctx.save_for_backward(a)
        ctx.slope = negative_slope
        return np.where(a > 0, grad, grad * np.asarray(negative_slope, grad.dtype))

    @staticmethod
    def backward(ctx, gg):
        (a,) = ctx.saved_tensors
        xp = namespace(gg)
        zeros = xp.zeros(xp.data(a).shape, xp.dtype(gg))
        return LeakyReluBackward.call(gg, a, ctx.slope), zeros
