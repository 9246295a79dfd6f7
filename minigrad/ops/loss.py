"""Loss functions recorded as one node each, with PyTorch's node names.

PyTorch computes these losses in one kernel and records one node
(``MseLossBackward0``...), so a learner's graph shows one box for the loss; so
does minigrad. ``reduction`` is ``"mean"``, ``"sum"`` or ``"none"``. Settings
(the class indices of ``nll_loss``, weights, the reduction) are parameters, not
inputs: they get no edge in the graph, exactly as in PyTorch.
"""

from __future__ import annotations

import numpy as np

from ..autograd.function import ArrayFunction
from .arithmetic import AddScalar, DivScalar, MulScalar
from .namespace import namespace
from .unary import Logit, LogSigmoid, Sigmoid


def reduce(loss: np.ndarray, reduction: str) -> np.ndarray:
    if reduction == "mean":
        return loss.mean() if loss.size else np.array(np.nan, loss.dtype)
    return loss.sum() if reduction == "sum" else loss


def scale(grad: np.ndarray, reduction: str, size: int) -> np.ndarray:
    """The incoming gradient as seen by each element before the reduction."""
    return DivScalar.call(grad, size) if reduction == "mean" else grad


class MseLoss(ArrayFunction):
    """mean((input - target) ** 2); input and target already have the same shape."""

    node_name = "MseLossBackward0"
    saved_names = ("self", "target")
    n_params = 1

    @staticmethod
    def forward(ctx, input, target, reduction):
        ctx.save_for_backward(input, target)  # so that in-place changes are caught
        diff = input - target
        ctx.reduction = reduction
        if reduction == "none":
            return diff * diff
        flat = diff.reshape(-1)
        total = np.dot(flat, flat)  # the sum of squares in one call: this is the hot loss
        if reduction == "sum":
            return total
        return total / diff.size if diff.size else np.array(np.nan, diff.dtype)

    @staticmethod
    def backward(ctx, grad):
        input, target = ctx.saved_tensors
        need_input, need_target = ctx.needs_input_grad
        r = ctx.reduction
        if type(grad) is np.ndarray and not need_target:  # the hot case: a model's output
            return mse_grad(grad, input, target, r), None
        return (  # the target's is the same formula with the roles swapped, as in PyTorch
            MseLossBackward.call(grad, input, target, r) if need_input else None,
            MseLossBackward.call(grad, target, input, r) if need_target else None,
        )


def mse_grad(grad: np.ndarray, input: np.ndarray, target: np.ndarray, reduction: str):
    """``norm * (input - target) * grad``: the gradient of mse_loss on arrays."""
    norm = 2.0 / max(input.size, 1) if reduction == "mean" else 2.0
    return (input - target) * (grad * norm)


class MseLossBackward(ArrayFunction):
    """The gradient of mse_loss, ``norm * (input - target) * grad``, as an op of its own."""

    node_name = "MseLossBackwardBackward0"
    broadcasts = True
    n_params = 1

    @staticmethod
    def forward(ctx, grad, input, target, reduction):
        ctx.save_for_backward(grad, input, target)
        ctx.norm = 2.0 / max(input.size, 1) if reduction == "mean" else 2.0
        return mse_grad(grad, input, target, reduction)

    @staticmethod
    def backward(ctx, gg):
        grad, input, target = ctx.saved_tensors
        d = gg * ctx.norm
        return d * (input - target), d * grad, -(d * grad)


class NllLoss(ArrayFunction):
    """Negative log likelihood of the target classes: ``-log_probs[i, target[i]]``.

    ``log_probs`` is (N, C) or (C,) (then ``target`` is 0-d), or (N, C, d...) for
    ``NllLoss2d``; ``weight`` (C,) or None scales each class; targets equal to
    ``ignore_index`` count for nothing. "mean" divides by the total weight.

    The loss of every classifier (``cross_entropy`` ends here), so its usual case
    (N, C), no class weights, nothing to ignore, is one gather forward and one
    scatter backward; ``ctx.w`` is then None, meaning a weight of 1 for each row.
    """

    node_name = "NllLossBackward0"
    n_params = 4

    @staticmethod
    def forward(ctx, log_probs, target, weight, ignore_index, reduction):
        ctx.save_for_backward(log_probs)  # as PyTorch: an input of the gradient's node
        ctx.shape, ctx.index, ctx.reduction = log_probs.shape, target, reduction
        loss = None
        if log_probs.ndim == 2 and weight is None and ignore_index < 0 and target.size:
            loss = _pick(log_probs, target)
            ctx.w, ctx.total_weight = None, log_probs.dtype.type(target.size)
        if loss is None:
            loss = _weighted_loss(ctx, log_probs, target, weight, ignore_index)
        if reduction == "none":
            return loss
        total = loss.sum()
        if reduction == "sum" or ctx.w is None:
            return total if reduction == "sum" else total / ctx.total_weight
        with np.errstate(invalid="ignore", divide="ignore"):  # every target ignored: nan
            return total / ctx.total_weight

    @staticmethod
    def backward(ctx, grad):
        (log_probs,) = ctx.saved_tensors
        op = NllLoss2dBackward if ctx._function is NllLoss2d else NllLossBackward
        return op.call(grad, log_probs, ctx)


class NllLossBackward(ArrayFunction):
    """nll_loss's gradient (``grad`` scattered to the target classes) as an op of its own.

    It is linear in ``grad``: its own gradient is ``gg`` read back at the same places.
    """

    node_name = "NllLossBackwardBackward0"
    n_params = 1

    @staticmethod
    def forward(ctx, grad, log_probs, fwd):  # log_probs: an input it does not depend on
        ctx.fwd, ctx.grad_shape = fwd, grad.shape
        if fwd.w is None:
            per_item = -grad / fwd.total_weight if fwd.reduction == "mean" else -grad
        else:  # ignored targets get 0, even when the total weight is 0, as in PyTorch
            g = -grad / fwd.total_weight if fwd.reduction == "mean" else -grad
            per_item = np.where(fwd.keep, fwd.w * g, 0).astype(grad.dtype, copy=False)
        shape, index = fwd.shape, fwd.index
        out = np.zeros(shape, grad.dtype)
        if len(shape) == 2:
            out[np.arange(shape[0]), index] = per_item
        elif len(shape) == 1:
            out[index] = per_item
        else:  # (N, C, d...): scattered along the classes moved last
            np.put_along_axis(np.moveaxis(out, 1, -1), index[..., None], per_item[..., None], -1)
        return out

    @staticmethod
    def backward(ctx, gg):
        xp = namespace(gg)
        unit = NllLossBackward.forward(ctx, np.ones(ctx.grad_shape, xp.dtype(gg)), None, ctx.fwd)
        if not ctx.grad_shape:
            return xp.sum(gg * unit), None
        return xp.sum(gg * unit, 1 if len(unit.shape) > 1 else 0), None


def _pick(log_probs: np.ndarray, target: np.ndarray) -> np.ndarray | None:
    """``-log_probs[i, target[i]]`` for (N, C) ``log_probs``, or None if a target is no class
    (the general path then says which, in PyTorch's words)."""
    if target.min() < 0:
        return None
    try:
        return -log_probs[np.arange(target.size), target]
    except IndexError:  # a target >= C
        return None


def _weighted_loss(ctx, log_probs, target, weight, ignore_index) -> np.ndarray:
    """The general case: class weights, ignored targets, any number of dimensions."""
    classes = log_probs.shape[1] if log_probs.ndim > 1 else log_probs.shape[0]
    keep = target != ignore_index
    bad = keep & ((target < 0) | (target >= classes))
    if bad.any():
        raise IndexError(f"Target {target[bad].flat[0]} is out of bounds.")
    index = np.where(keep, target, 0)
    w = (np.ones(classes, log_probs.dtype) if weight is None else weight)[index] * keep
    w = w.astype(log_probs.dtype, copy=False)
    logp = np.moveaxis(log_probs, 1, -1) if log_probs.ndim > 1 else log_probs
    picked = np.take_along_axis(logp, index[..., None], -1)[..., 0]
    ctx.index, ctx.keep, ctx.w, ctx.total_weight = index, keep, w, w.sum()
    return -picked * w


class NllLoss2dBackward(NllLossBackward):
    node_name = "NllLoss2DBackwardBackward0"


class NllLoss2d(NllLoss):
    """The same loss on (N, C, H, W) inputs, under PyTorch's name for it."""

    node_name = "NllLoss2DBackward0"


class BinaryCrossEntropy(ArrayFunction):
    """-(t * log(p) + (1 - t) * log(1 - p)), each log clamped at -100 as in PyTorch."""

    node_name = "BinaryCrossEntropyBackward0"
    saved_names = ("self", "target")
    n_params = 2

    @staticmethod
    def forward(ctx, input, target, weight, reduction):
        if ((input < 0) | (input > 1)).any():
            raise RuntimeError("all elements of input should be between 0 and 1")
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
    return DivScalar.call(g, xp.data(g).size) if reduction == "mean" else g


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
        if need_input or need_grad:  # p + eps and 1 - p + eps
            near_p, near_q = AddScalar.call(input, eps), AddScalar.call(one - input, eps)
        if need_input:
            top = input * input - MulScalar.call(input, 2) * target + target
            out_input = _weigh(top / (near_p**2 * near_q**2) * (gg * grad), w, r, gg)
        if need_target:
            denom = xp.clamp_min_values((one - input) * input, eps)
            out_target = _weigh(_weigh(-gg * grad, w, "sum", gg) / denom, None, r, gg)
        if need_grad:
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


class SmoothL1Loss(ArrayFunction):
    """``0.5 * d ** 2 / beta`` where ``|d| < beta``, ``|d| - 0.5 * beta`` elsewhere (d = x - y)."""

    node_name = "SmoothL1LossBackward0"
    n_params = 2

    @staticmethod
    def forward(ctx, input, target, reduction, beta):
        ctx.save_for_backward(input, target)
        diff = input - target
        ctx.reduction, ctx.beta = reduction, beta
        small = np.abs(diff) < beta
        loss = np.where(small, 0.5 * diff * diff / beta, np.abs(diff) - 0.5 * beta)
        return reduce(loss.astype(diff.dtype), reduction)

    @staticmethod
    def backward(ctx, grad):
        input, target = ctx.saved_tensors
        need_input, need_target = ctx.needs_input_grad
        r, beta = ctx.reduction, ctx.beta
        return (  # the target's is the same op with the roles swapped, as in PyTorch
            SmoothL1LossBackward.call(grad, input, target, r, beta) if need_input else None,
            SmoothL1LossBackward.call(grad, target, input, r, beta) if need_target else None,
        )


class SmoothL1LossBackward(ArrayFunction):
    """smooth_l1_loss's gradient, ``grad * clamp(d / beta, -1, 1)``, as an op of its own
    (``SmoothL1LossBackwardBackward0``): the second derivative is ``1 / beta`` inside."""

    node_name = "SmoothL1LossBackwardBackward0"
    broadcasts = True
    n_params = 2

    @staticmethod
    def forward(ctx, grad, input, target, reduction, beta):
        ctx.save_for_backward(grad, input, target)
        ctx.reduction, ctx.beta = reduction, beta
        diff = input - target
        slope = np.where(np.abs(diff) < beta, diff / beta if beta else diff, np.sign(diff))
        return slope.astype(diff.dtype, copy=False) * scale(grad, reduction, diff.size)

    @staticmethod
    def backward(ctx, gg):
        grad, input, target = ctx.saved_tensors
        xp = namespace(gg)
        r, beta = ctx.reduction, ctx.beta
        need_grad, need_input, need_target = ctx.needs_input_grad
        out_grad = SmoothL1LossBackward.call(gg, input, target, r, beta) if need_grad else None
        if not (need_input or need_target):
            return out_grad, None, None
        values = xp.data(input)
        if beta == 0:  # PyTorch's special case: zeros, no graph
            d = xp.zeros(values.shape, xp.dtype(gg))
        else:
            inside = np.abs(values - xp.data(target)) < beta
            d = gg * grad * xp.constant(inside.astype(xp.dtype(gg))) / beta
            d = DivScalar.call(d, values.size) if r == "mean" else d
        return out_grad, d, -d if need_target else None


class HuberLoss(ArrayFunction):
    """``0.5 * d ** 2`` where ``|d| < delta``, ``delta * (|d| - 0.5 * delta)`` elsewhere."""

    node_name = "HuberLossBackward0"
    n_params = 2

    @staticmethod
    def forward(ctx, input, target, reduction, delta):
        ctx.save_for_backward(input, target)
        diff = input - target
        ctx.reduction, ctx.delta = reduction, delta
        small = np.abs(diff) < delta
        loss = np.where(small, 0.5 * diff * diff, delta * (np.abs(diff) - 0.5 * delta))
        return reduce(loss.astype(diff.dtype), reduction)

    @staticmethod
    def backward(ctx, grad):
        input, target = ctx.saved_tensors
        need_input, need_target = ctx.needs_input_grad
        r, delta = ctx.reduction, ctx.delta
        return (
            HuberLossBackward.call(grad, input, target, r, delta) if need_input else None,
            HuberLossBackward.call(grad, target, input, r, delta) if need_target else None,
        )


class HuberLossBackward(ArrayFunction):
    """huber_loss's gradient, ``grad * clamp(d, -delta, delta)``, as an op of its own
    (``HuberLossBackwardBackward0``): the second derivative is 1 inside."""

    node_name = "HuberLossBackwardBackward0"
    broadcasts = True
    n_params = 2

    @staticmethod
    def forward(ctx, grad, input, target, reduction, delta):
        ctx.save_for_backward(grad, input, target)
        ctx.reduction, ctx.delta = reduction, delta
        diff = input - target
        slope = np.where(np.abs(diff) < delta, diff, np.sign(diff) * delta)
        return slope.astype(diff.dtype, copy=False) * scale(grad, reduction, diff.size)

    @staticmethod
    def backward(ctx, gg):
        grad, input, target = ctx.saved_tensors
        xp = namespace(gg)
        r, delta = ctx.reduction, ctx.delta
        need_grad, need_input, need_target = ctx.needs_input_grad
        out_grad = d = None
        if need_grad:  # PyTorch's huber_loss_double_backward_grad_output
            if r == "none":
                out_grad = HuberLossBackward.call(gg, input, target, r, delta)
            else:
                ones = xp.constant(np.ones(xp.data(grad).shape, xp.dtype(gg)))
                out_grad = xp.sum(HuberLossBackward.call(ones, input, target, r, delta) * gg)
        if need_input or need_target:
            values = xp.data(input)
            inside = np.abs(values - xp.data(target)) < delta
            d = gg * grad * xp.constant(inside.astype(xp.dtype(gg)))
            d = DivScalar.call(d, values.size) if r == "mean" else d
        return out_grad, d if need_input else None, -d if need_target else None
