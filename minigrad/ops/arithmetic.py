"""Elementwise arithmetic: + - * / ** and neg, maximum, minimum (all broadcast)."""

from __future__ import annotations

import numpy as np

from ..autograd.function import ArrayFunction


class Add(ArrayFunction):
    node_name = "AddBackward0"
    broadcasts = True

    @staticmethod
    def forward(ctx, a, b):
        return a + b

    @staticmethod
    def backward(ctx, grad):
        return grad, grad


class Sub(ArrayFunction):
    node_name = "SubBackward0"
    broadcasts = True

    @staticmethod
    def forward(ctx, a, b):
        return a - b

    @staticmethod
    def backward(ctx, grad):
        return grad, -grad


class RSub(ArrayFunction):
    """``number - tensor``: PyTorch records it as its own node, with one edge."""

    node_name = "RsubBackward1"
    n_params = 1

    @staticmethod
    def forward(ctx, a, number):
        return number - a

    @staticmethod
    def backward(ctx, grad):
        return -grad


class Mul(ArrayFunction):
    node_name = "MulBackward0"
    broadcasts = True

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return a * b

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return grad * b, grad * a


class Div(ArrayFunction):
    node_name = "DivBackward0"
    broadcasts = True

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return a / b

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        grad_a = grad / b
        return grad_a, -grad_a * a / b


class Reciprocal(ArrayFunction):
    """``1 / x``; ``number / tensor`` is ``reciprocal(tensor) * number``, as in PyTorch."""

    node_name = "ReciprocalBackward0"

    @staticmethod
    def forward(ctx, a):
        out = 1 / a
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        (out,) = ctx.saved_tensors
        return -grad * out * out


class Neg(ArrayFunction):
    node_name = "NegBackward0"

    @staticmethod
    def forward(ctx, a):
        return -a

    @staticmethod
    def backward(ctx, grad):
        return -grad


class PowScalar(ArrayFunction):
    """``tensor ** number``: the exponent is a setting, not an input."""

    node_name = "PowBackward0"
    n_params = 1

    @staticmethod
    def forward(ctx, a, exponent):
        ctx.save_for_backward(a)
        ctx.exponent = exponent
        return a**exponent

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        e = ctx.exponent
        if e == 0:
            return grad * 0
        return grad * e * a ** (e - 1)


class Pow(ArrayFunction):
    """``tensor ** tensor``."""

    node_name = "PowBackward1"
    broadcasts = True

    @staticmethod
    def forward(ctx, a, b):
        out = a**b
        ctx.save_for_backward(a, b, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        a, b, out = ctx.saved_tensors
        grad_a = grad * b * a ** (b - 1) if ctx.needs_input_grad[0] else None
        grad_b = grad * out * np.log(np.where(a > 0, a, 1)) if ctx.needs_input_grad[1] else None
        return grad_a, grad_b


class RPow(ArrayFunction):
    """``number ** tensor``."""

    node_name = "PowBackward2"
    n_params = 1

    @staticmethod
    def forward(ctx, b, number):
        out = np.power(number, b)
        ctx.save_for_backward(out)
        ctx.log_base = np.log(number)
        return out

    @staticmethod
    def backward(ctx, grad):
        (out,) = ctx.saved_tensors
        return grad * out * ctx.log_base


class Maximum(ArrayFunction):
    """Elementwise maximum; at a tie each side gets half the gradient (as in PyTorch)."""

    node_name = "MaximumBackward0"
    broadcasts = True

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return np.maximum(a, b)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        share = np.where(a > b, 1.0, np.where(a == b, 0.5, 0.0)).astype(grad.dtype)
        return grad * share, grad * (1 - share)


class Minimum(ArrayFunction):
    node_name = "MinimumBackward0"
    broadcasts = True

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return np.minimum(a, b)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        share = np.where(a < b, 1.0, np.where(a == b, 0.5, 0.0)).astype(grad.dtype)
        return grad * share, grad * (1 - share)
