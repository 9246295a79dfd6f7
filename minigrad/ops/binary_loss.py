"""binary_cross_entropy, with and without logits: the losses of yes/no targets.

Each is one node, as in PyTorch (``BinaryCrossEntropyBackward0``,
``BinaryCrossEntropyWithLogitsBackward0``); what every loss shares (``reduce``,
``scale``) is in ``loss.py``.
"""

from __future__ import annotations

import numpy as np

from ..autograd.function import ArrayFunction
from .arithmetic import AddScalar, MulScalar
from .loss import reduce, scale
from .namespace import namespace
from .unary import Logit, LogSigmoid, Sigmoid


def _check_probabilities(input: np.ndarray, target: np.ndarray) -> None:
    """PyTorch checks each (input, target) pair in turn: the first one outside [0, 1] (nan
    included) names its side."""
    bad_input = ~((input >= 0) & (input <= 1))
    bad = bad_input | ~((target >= 0) & (target <= 1))
    if bad.any():
        side = "input" if bad_input.ravel()[np.argmax(bad.ravel())] else "target"
        raise RuntimeError(f"all elements of {side} should be between 0 and 1")


class BinaryCrossEntropy(ArrayFunction):
    """-(t * log(p) + (1 - t) * log(1 - p)), each log clamped at -100 as in PyTorch."""

    node_name = "BinaryCrossEntropyBackward0"
    saved_names = ("self", "target")
    n_params = 2

    @staticmethod
    def forward(ctx, input, target, weight, reduction):
        _check_probabilities(input, target)
        ctx.save_for_backward(input, target)
        ctx.weight, ctx.reduction = weight, reduction
        with np.errstate(divide="ignore"):
            log_p = np.maximum(np.log(input), -100)
            log_1mp = np.maximum(np.log1p(-input), -100)
        loss = (target - 1) * log_1mp - target * log_p
        return reduce(loss if weight is None else loss * weight, reduction)

    @staticmethod
    def backward(ctx, grad):
        input, target = ctx.saved_tensors
        need_input, need_target = ctx.needs_input_grad
        grad_input = grad_target = None
        if need_input:
            op = BinaryCrossEntropyBackward
            grad_input = op.call(grad, input, target, ctx.weight, ctx.reduction)
        if need_target:  # PyTorch's -logit(p) * grad
            grad_target = _weigh(-Logit.call(input) * grad, ctx.weight, ctx.reduction, grad)
        return grad_input, grad_target


def _weigh(g, weight, reduction: str, like):
    """``g * weight``, then divided by the number of elements for "mean" (PyTorch's order)."""
    xp = namespace(like)
    if weight is not None:
        g = g * xp.constant(weight)
    return scale(g, reduction, xp.data(g).size)


class BinaryCrossEntropyBackward(ArrayFunction):
    """binary_cross_entropy's gradient, ``grad * (p - t) / max(p (1 - p), eps)``, as an op of
    its own (PyTorch's ``BinaryCrossEntropyBackwardBackward0``, edges grad, self, target)."""

    node_name = "BinaryCrossEntropyBackwardBackward0"
    broadcasts = True
    n_params = 2

    @staticmethod
    def forward(ctx, grad, input, target, weight, reduction):
        ctx.save_for_backward(grad, input, target)
        ctx.weight, ctx.reduction = weight, reduction
        g = grad * (input - target) / np.maximum((1 - input) * input, 1e-12)
        if weight is not None:
            g = g * weight
        return g / input.size if reduction == "mean" else g

    @staticmethod
    def backward(ctx, gg):
        """PyTorch's three formulas (binary_cross_entropy_double_backward and its kin)."""
        grad, input, target = ctx.saved_tensors
        xp = namespace(gg)
        one = xp.constant(np.array(1, xp.dtype(gg)))
        need_grad, need_input, need_target = ctx.needs_input_grad
        w, r, eps = ctx.weight, ctx.reduction, 1e-12
        out_grad = out_input = out_target = None
        if need_input:  # each formula makes its own p + eps and 1 - p + eps, as PyTorch's
            near_p, near_q = AddScalar.call(input, eps), AddScalar.call(one - input, eps)
            top = input * input - MulScalar.call(input, 2) * target + target
            out_input = _weigh(top / (near_p**2 * near_q**2) * (gg * grad), w, r, gg)
        if need_target:
            denom = xp.clamp_min_values((one - input) * input, eps)
            out_target = _weigh(_weigh(-gg * grad, w, "sum", gg) / denom, None, r, gg)
        if need_grad:
            near_p, near_q = AddScalar.call(input, eps), AddScalar.call(one - input, eps)
            out_grad = _weigh((input - target) / (near_p * near_q) * gg, w, r, gg)
        return out_grad, out_input, out_target


def _log_sigmoid(x):
    """log(sigmoid(x)) without overflow for large |x|."""
    xp = namespace(x)
    return xp.clamp_max(x, 0) - xp.log1p(xp.exp(-xp.abs(x)))


class BinaryCrossEntropyWithLogits(ArrayFunction):
    """BCE on logits x: (1 - t) * x - log_weight * log(sigmoid(x)), stable for any x."""

    node_name = "BinaryCrossEntropyWithLogitsBackward0"
    saved_names = ("self", "target")
    n_params = 3

    @staticmethod
    def forward(ctx, input, target, weight, pos_weight, reduction):
        ctx.save_for_backward(input, target)
        ctx.weight, ctx.pos_weight, ctx.reduction = weight, pos_weight, reduction
        log_sig = _log_sigmoid(input)
        if pos_weight is not None:
            log_sig = log_sig * ((pos_weight - 1) * target + 1)
        loss = (1 - target) * input - log_sig
        return reduce(loss if weight is None else loss * weight, reduction)

    @staticmethod
    def backward(ctx, grad):
        """PyTorch's formulas, in its order: ``(sigmoid(x) - t) * grad``, weighed, / n."""
        input, target = ctx.saved_tensors
        xp = namespace(grad)
        pw = None if ctx.pos_weight is None else xp.constant(ctx.pos_weight)
        need_input, need_target = ctx.needs_input_grad
        grad_input = grad_target = None
        if need_input:
            if pw is None:
                grad_input = Sigmoid.call(input) - target
            else:
                t = pw * target
                grad_input = (AddScalar.call(t, 1) - target) * Sigmoid.call(input) - t
            grad_input = _weigh(grad_input * grad, ctx.weight, ctx.reduction, grad)
        if need_target:
            if pw is None:
                grad_target = -input * grad
            else:
                grad_target = (LogSigmoid.call(-input) - LogSigmoid.call(input) * pw) * grad
            grad_target = _weigh(grad_target, ctx.weight, ctx.reduction, grad)
        return grad_input, grad_target
