"""Loss functions recorded as one node each, with PyTorch's node names: the regression losses.

PyTorch computes these losses in one kernel and records one node
(``MseLossBackward0``...), so a learner's graph shows one box for the loss; so
does minigrad. ``reduction`` is ``"mean"``, ``"sum"`` or ``"none"``. Settings
(the class indices of ``nll_loss``, weights, the reduction) are parameters, not
inputs: they get no edge in the graph, exactly as in PyTorch.

This module has what every loss shares (``reduce``, ``scale``) and the regression
losses: mse, smooth_l1, huber. The classification losses have their own:
``classification_loss.py`` (nll_loss, which cross_entropy ends in) and
``binary_loss.py`` (binary_cross_entropy, with and without logits).
"""

from __future__ import annotations

import numpy as np

from .._quiet import loud, quiet
from ..autograd import anomaly_mode, grad_mode
from ..autograd.anomaly_mode import remember_forward
from ..autograd.function import ArrayFunction
from ..autograd.node import sequence
from ..tensor import new_tensor
from ._short_path import edge, late
from ._summation import float_mean, float_sum, summable
from .arithmetic import DivScalar, MulScalar
from .namespace import namespace

_grad_state = grad_mode.state
_anomaly = anomaly_mode.state


def reduce(loss: np.ndarray, reduction: str) -> np.ndarray:
    """The loss's reduction, as PyTorch's kernels end: ``mean()`` or ``sum()`` of it."""
    if reduction == "none":
        return loss
    if loss.dtype.char in summable:  # added in PyTorch's order
        every = tuple(range(loss.ndim))
        return float_mean(loss, every) if reduction == "mean" else float_sum(loss, every)
    if reduction == "mean":
        return loss.mean() if loss.size else np.array(np.nan, loss.dtype)
    return loss.sum()


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
    exact_grads = True

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
            diff = a - t
            out = np.asarray(mse_of(diff, reduction))
        finally:
            loud(token)
        if not (
            _grad_state.enabled
            and (input._requires_grad or target._requires_grad or late(input, target))
        ):
            return new_tensor(out)
        ni = input._grad_fn  # edge() twice and node() written out for a model's output
        if ni is None or not input._requires_grad or input._base is not None:
            ni = edge(input)
        nt = None if not target._requires_grad and target._base is None else edge(target)
        ctx = cls._Node()
        ctx._next, ctx._seq = (ni, nt), next(sequence)
        if _anomaly.enabled:
            remember_forward(ctx)
        ctx.reduction = reduction
        if diff.size >= _DOT_FROM:  # mse_of left it as it was: backward needs it again
            ctx.diff = diff
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
        need_input, need_target = ctx._next[0] is not None, ctx._next[1] is not None
        r = ctx.reduction
        if type(grad) is np.ndarray and not need_target:  # the hot case: a model's output
            diff = ctx.__dict__.get("diff")  # input - target, kept by the short apply
            return mse_grad(grad, input, target, r, diff), None
        return (  # the target's is the same formula with the roles swapped, as in PyTorch
            MseLossBackward.call(grad, input, target, r) if need_input else None,
            MseLossBackward.call(grad, target, input, r) if need_target else None,
        )


def mse(input: np.ndarray, target: np.ndarray, reduction: str):
    """The loss itself: the squares, then PyTorch's sum or mean of them (``mse_of``)."""
    return mse_of(input - target, reduction)


def mse_of(diff: np.ndarray, reduction: str):
    """The loss of ``diff = input - target``: the squares, then PyTorch's sum or mean of them
    (``reduce``), squared in place. From 64 elements (a training batch, this is the hot
    loss) one ``np.dot`` instead, which leaves ``diff`` as it is: PyTorch's order of
    additions costs 4 us there, a third of an MLP step's loss and backward (a last-bit
    difference)."""
    if reduction == "none" or diff.size < _DOT_FROM:
        diff *= diff
        return diff if reduction == "none" else reduce(diff, reduction)
    flat = diff.reshape(-1)
    total = flat.dot(flat)
    return total if reduction == "sum" else total / diff.size


_DOT_FROM = 64


def mse_grad(
    grad: np.ndarray,
    input: np.ndarray,
    target: np.ndarray,
    reduction: str,
    diff: np.ndarray | None = None,
):
    """``norm * (input - target) * grad``: the gradient of mse_loss on arrays, in the order of
    PyTorch's kernel (``norm`` in the tensor's dtype times the difference, then the gradient:
    ``grad * norm`` first rounds otherwise for a mean; -0. times 2 * -3e38 is nan, not 0.).
    ``diff``: ``input - target`` already computed (by forward, kept as it is), the same values."""
    norm = 2.0 / max(input.size, 1) if reduction == "mean" else 2.0
    if diff is None:
        diff = input - target
    # norm as a 0-d array of the dtype: the same value as the dtype's scalar, which numpy
    # multiplies more slowly (0.4 us against 0.3 on a batch's (100, 1), and is slower to make)
    return diff * np.array(norm, diff.dtype) * grad


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
            return scale(MulScalar.call(g, 2), r, ctx.size)

        out_target = -double(gg * grad) if need_target else None
        out_input = double(gg * grad) if need_input else None
        out_grad = MseLossBackward.call(gg, input, target, r) if need_grad else None
        return out_grad, out_input, out_target


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
            d = DivScalar.call(_inside(gg, grad, input, target, beta), beta)
            d = scale(d, r, values.size)
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
            d = scale(_inside(gg, grad, input, target, delta), r, xp.data(input).size)
        return out_grad, d if need_input else None, -d if need_target else None


def _inside(gg, grad, input, target, bound: float):
    """``gg * grad`` where ``|input - target| < bound``, 0 elsewhere: where smooth_l1's and
    huber's second derivatives are not zero."""
    xp = namespace(gg)
    inside = np.abs(xp.data(input) - xp.data(target)) < bound
    return gg * grad * xp.constant(inside.astype(xp.dtype(gg)))


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
