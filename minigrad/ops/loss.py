"""Loss functions recorded as one node each, with PyTorch's node names.

PyTorch computes these losses in one kernel and records one node
(``MseLossBackward0``...), so a learner's graph shows one box for the loss; so
does minigrad. ``reduction`` is ``"mean"``, ``"sum"`` or ``"none"``. Settings
(the class indices of ``nll_loss``, weights, the reduction) are parameters, not
inputs: they get no edge in the graph, exactly as in PyTorch.
"""

from __future__ import annotations

import numpy as np

from .._quiet import loud, quiet
from ..autograd import grad_mode
from ..autograd.function import ArrayFunction
from ..autograd.saved_values import _FREED, _SECOND_BACKWARD
from ..tensor import new_tensor
from ._common import positions
from ._short_path import edge, node
from .arithmetic import AddScalar, DivScalar, MulScalar
from .namespace import namespace
from .unary import Logit, LogSigmoid, Sigmoid

_grad_state = grad_mode.state


def reduce(loss: np.ndarray, reduction: str) -> np.ndarray:
    if reduction == "mean":
        return loss.mean() if loss.size else np.array(np.nan, loss.dtype)
    return loss.sum() if reduction == "sum" else loss


def scale(grad: np.ndarray, reduction: str, size: int) -> np.ndarray:
    """The incoming gradient as seen by each element before the reduction."""
    return DivScalar.call(grad, size) if reduction == "mean" else grad


class MseLoss(ArrayFunction):
    """mean((input - target) ** 2); input and target already have the same shape.

    The loss of every regression, once per step: two tensors of one float dtype and
    a reduction have an ``apply`` of its own (``_short_path``), the same node as the
    general path's.
    """

    node_name = "MseLossBackward0"
    saved_names = ("self", "target")
    n_params = 1

    @classmethod
    def apply(cls, input, target, reduction):
        try:
            a, t = input._data, target._data
        except AttributeError:  # not two tensors: the general path
            return ArrayFunction.apply.__func__(cls, input, target, reduction)
        if not (
            t.dtype is a.dtype
            and a.dtype.kind == "f"
            and a.shape == t.shape
            and reduction != "none"
            and type(input._vc) is list  # not an inference tensor (the general path refuses it)
            and type(target._vc) is list
        ):
            return ArrayFunction.apply.__func__(cls, input, target, reduction)
        token = quiet()
        try:
            out = np.asarray(mse(a, t, reduction))
        finally:
            loud(token)
        if not (_grad_state.enabled and (input._requires_grad or target._requires_grad)):
            return new_tensor(out)
        ctx = node(cls, (edge(input), edge(target)))
        ctx.reduction = reduction
        ctx._saved = (a, t)  # both, so that in-place changes are caught
        vi, vt = input._vc, target._vc
        ctx._saved_checks = (vi, vi[0], 0, vt, vt[0], 1)
        return new_tensor(out, ctx, True)

    @staticmethod
    def forward(ctx, input, target, reduction):
        ctx.save_for_backward(input, target)  # so that in-place changes are caught
        ctx.reduction = reduction
        return mse(input, target, reduction)

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


def mse(input: np.ndarray, target: np.ndarray, reduction: str):
    """The loss itself; a sum of squares is one ``np.dot`` (this is the hot loss)."""
    diff = input - target
    if reduction == "none":
        return diff * diff
    flat = diff.reshape(-1)
    total = np.dot(flat, flat)
    if reduction == "sum":
        return total
    return total / diff.size if diff.size else np.array(np.nan, diff.dtype)


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
        ctx.reduction, ctx.size = reduction, input.size
        return mse_grad(grad, input, target, reduction)

    @staticmethod
    def backward(ctx, gg):
        """PyTorch's formulas, in its order: target's, self's (``2 * gg * grad``, / n for
        "mean"), then grad_output's (this op again, on ``gg``)."""
        grad, input, target = ctx.saved_tensors
        need_grad, need_input, need_target = ctx.needs_input_grad
        r = ctx.reduction

        def double(g):  # mse_loss_double_backward
            g = MulScalar.call(g, 2)
            return DivScalar.call(g, ctx.size) if r == "mean" else g

        out_target = -double(gg * grad) if need_target else None
        out_input = double(gg * grad) if need_input else None
        out_grad = MseLossBackward.call(gg, input, target, r) if need_grad else None
        return out_grad, out_input, out_target


class NllLoss(ArrayFunction):
    """Negative log likelihood of the target classes: ``-log_probs[i, target[i]]``.

    ``log_probs`` is (N, C) or (C,) (then ``target`` is 0-d), or (N, C, d...) for
    ``NllLoss2d``; ``weight`` (C,) or None scales each class; targets equal to
    ``ignore_index`` count for nothing. "mean" divides by the total weight.

    The loss of every classifier (``cross_entropy`` ends here), so its usual case
    (N, C), no class weights, every target a class, reads and writes at
    ``(ctx.rows, target)``, a few numpy calls each way; ``ctx.w`` is then None, meaning
    a weight of 1 for each row. The node keeps what PyTorch's keeps
    (``_saved_self``, ``_saved_target``, ``_saved_weight``, ``_saved_total_weight``).
    """

    node_name = "NllLossBackward0"
    saved_names = ("self",)  # target, weight, total_weight: _kept_as_saved below
    n_params = 4

    @classmethod
    def apply(cls, log_probs, target, weight, ignore_index, reduction):
        """The short path (``_short_path``): the same forward and node, recorded directly."""
        if type(log_probs._vc) is not list:  # an inference tensor: the general path refuses it
            return ArrayFunction.apply.__func__(
                cls, log_probs, target, weight, ignore_index, reduction
            )
        requires = log_probs._requires_grad and _grad_state.enabled
        ctx = node(cls, (edge(log_probs),)) if requires else cls._Node()
        token = quiet()
        try:
            out = np.asarray(
                cls.forward(ctx, log_probs._data, target, weight, ignore_index, reduction)
            )
        finally:
            loud(token)
        if not requires:
            return new_tensor(out)
        vc = log_probs._vc
        ctx._saved_checks = (vc, vc[0], 0)  # the saved input, watched for in-place changes
        return new_tensor(out, ctx, True)

    @staticmethod
    def forward(ctx, log_probs, target, weight, ignore_index, reduction):
        ctx.save_for_backward(log_probs)
        shape = log_probs.shape
        ctx.shape, ctx.target, ctx.weight = shape, target, weight
        ctx.ignore_index, ctx.reduction, ctx.rows = ignore_index, reduction, None
        picked = None
        if (
            len(shape) == 2
            and weight is None
            and target.size
            and not 0 <= ignore_index < shape[1]
            and target.min() >= 0  # numpy would read a negative target from the end
        ):
            rows = positions(shape[0])
            try:
                picked = log_probs[rows, target]
            except IndexError:  # a target past the last class: the general path says which
                pass
            else:
                ctx.rows, ctx.w, ctx.total_weight = rows, None, log_probs.dtype.type(shape[0])
        if picked is None:
            picked = _weighted_pick(ctx, log_probs, target, weight, ignore_index)
        # PyTorch sums -w * x from 0., so a zero loss is 0., not -0. (only the 'none' losses of
        # a batch are plain negations, -0. included)
        if reduction == "none":
            return -picked if len(shape) > 1 else 0.0 - picked
        total = 0.0 - np.add.reduce(picked, None)  # the sum of the losses, negated (exact)
        return total if reduction == "sum" else total / ctx.total_weight  # all ignored: nan

    @staticmethod
    def backward(ctx, grad):
        log_probs = ctx.saved_tensors[0]
        if type(grad) is np.ndarray:  # an ordinary backward: the formula, nothing to record
            return nll_grad(grad, ctx)
        op = NllLoss2dBackward if ctx._function is NllLoss2d else NllLossBackward
        return op.call(grad, log_probs, ctx)


class NllLossBackward(ArrayFunction):
    """nll_loss's gradient (``-grad`` put at the target classes) as an op of its own.

    It is linear in ``grad``, and its own gradient is ``gg`` read back at the same
    places: nll_loss of ``gg`` with the same targets, as PyTorch's formula says.
    """

    node_name = "NllLossBackwardBackward0"
    n_params = 1

    @staticmethod
    def forward(ctx, grad, log_probs, fwd):  # log_probs: an input it does not depend on
        ctx.fwd = fwd
        return nll_grad(grad, fwd)

    @staticmethod
    def backward(ctx, gg):
        fwd = ctx.fwd
        loss = NllLoss2d if fwd._function is NllLoss2d else NllLoss
        grad_grad = loss.call(gg, fwd.target, fwd.weight, fwd.ignore_index, fwd.reduction)
        return grad_grad, namespace(gg).zeros_like(gg)  # PyTorch's self: zeros_like(grad)


def nll_grad(grad: np.ndarray, fwd) -> np.ndarray:
    """``-grad`` (divided by the total weight for "mean") put at the targets of the
    forward whose node is ``fwd``, in zeros shaped like its log-probabilities."""
    g = grad / -fwd.total_weight if fwd.reduction == "mean" else -grad
    out = np.zeros(fwd.shape, grad.dtype)
    if fwd.rows is not None:  # the usual case: (N, C), one weight per row
        out[fwd.rows, fwd.target] = g
        return out
    # ignored targets get 0, even when the total weight is 0, as in PyTorch
    per_item = np.where(fwd.keep, fwd.w * g, 0).astype(grad.dtype, copy=False)
    shape, index = fwd.shape, fwd.index
    if len(shape) == 2:
        out[np.arange(shape[0]), index] = per_item
    elif len(shape) == 1:
        out[index] = per_item
    else:  # (N, C, d...): scattered along the classes moved last
        np.put_along_axis(np.moveaxis(out, 1, -1), index[..., None], per_item[..., None], -1)
    return out


def _weighted_pick(ctx, log_probs, target, weight, ignore_index) -> np.ndarray:
    """The general case: class weights, ignored targets, any number of dimensions.

    Returns ``log_probs`` at the targets times their weights (0 where ignored), and
    leaves the weights and their total on ``ctx``.
    """
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
    return picked * w


class NllLoss2dBackward(NllLossBackward):
    node_name = "NllLoss2DBackwardBackward0"


class NllLoss2d(NllLoss):
    """The same loss on (N, C, H, W) inputs, under PyTorch's name for it."""

    node_name = "NllLoss2DBackward0"


def _kept_as_saved(attribute: str) -> property:
    """``grad_fn._saved_target``, ``_saved_weight``, ``_saved_total_weight``: what PyTorch's
    node saves beside ``self``. minigrad keeps them as settings of the node (nothing to
    watch for in-place changes, nothing to record per call); read back as Tensors, and
    gone with the rest once backward has freed the graph."""

    def get(node):
        if node._saved is _FREED:
            raise RuntimeError(_SECOND_BACKWARD)
        value = getattr(node, attribute)
        if value is None:
            return None
        value = np.asarray(value)
        if attribute == "total_weight" and node.reduction == "none":
            value = np.zeros((), value.dtype)  # PyTorch adds up no total for "none": 0
        return new_tensor(value)

    return property(get)


for _node in (NllLoss._Node, NllLoss2d._Node):
    for _name in ("target", "weight", "total_weight"):
        setattr(_node, f"_saved_{_name}", _kept_as_saved(_name))


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
        return _kinked(grad, input, target, reduction, beta, huber=False)

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
            d = DivScalar.call(gg * grad * xp.constant(inside.astype(xp.dtype(gg))), beta)
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
        return _kinked(grad, input, target, reduction, delta, huber=True)

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


def _kinked(grad, input, target, reduction: str, bound: float, huber: bool) -> np.ndarray:
    """smooth_l1's and huber's gradients as PyTorch's kernels compute them, element by element:
    ``x = input - target``; ``-norm * grad (* delta)`` where ``x <= -bound``, ``norm * grad
    (* delta)`` where ``x >= bound``, else ``norm * x * grad`` (huber) or ``norm * (x / beta) *
    grad`` (smooth_l1); a nan ``x`` falls through to the last, so the gradient is nan. The
    target's is the same with the roles swapped (not the negated input's: the zeros keep the
    sign of grad)."""
    x = input - target
    norm = 1.0 / max(x.size, 1) if reduction == "mean" else 1.0
    below, above = grad * -norm, grad * norm
    if huber:
        below, above = below * bound, above * bound
    inside = (x if huber else x / bound) * norm * grad
    out = np.where(x <= -bound, below, np.where(x >= bound, above, inside))
    return out.astype(np.result_type(x, grad), copy=False)
