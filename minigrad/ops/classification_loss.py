"""nll_loss (and its 2-d form): the end of every cross_entropy, recorded as one node.

``cross_entropy`` is ``log_softmax`` then ``nll_loss``, as in PyTorch, so a learner's
graph shows ``NllLossBackward0`` above ``LogSoftmaxBackward0``. What every loss shares
(``reduce``, ``scale``) is in ``loss.py``.
"""

from __future__ import annotations

import numpy as np

from .._quiet import loud, quiet
from ..autograd import grad_mode
from ..autograd.function import ArrayFunction
from ..autograd.saved_values import (
    _FREED,
    _INFERENCE_SAVED,
    _SECOND_BACKWARD,
    _modified_message,
)
from ..tensor import Tensor, follows_base, new_tensor
from ._common import positions
from ._short_path import edge, node
from ._summation import sequential, summable
from .namespace import namespace
from .softmax import LogSoftmax

_grad_state = grad_mode.state


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
    exact_grads = True  # the engine runs backward directly (function.py)
    saved_names = ("self",)  # target, weight, total_weight: _kept_as_saved below
    n_params = 4

    @classmethod
    def apply(cls, log_probs, target, weight, ignore_index, reduction):
        """The short path (``_short_path``): the same forward and node, recorded directly."""
        if type(log_probs._vc) is not list:  # an inference tensor: the general path refuses it
            return ArrayFunction.apply.__func__(
                cls, log_probs, target, weight, ignore_index, reduction
            )
        requires = (log_probs._requires_grad or follows_base(log_probs)) and _grad_state.enabled
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
            and np.minimum.reduce(target, None) >= 0  # numpy reads a negative one from the end
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
        total = 0.0 - _added(picked, ctx)  # the sum of the losses, negated (exact)
        return total if reduction == "sum" else total / ctx.total_weight  # all ignored: nan

    @staticmethod
    def backward(ctx, grad):
        log_probs = ctx.saved_tensors[0]
        if type(grad) is np.ndarray:  # an ordinary backward: the formula, nothing to record
            out = nll_grad(grad, ctx)
            if ctx.rows is not None and ctx.reduction != "none":
                _tell_row_sum(ctx, out)
            return (out,)
        op = NllLoss2dBackward if ctx._function is NllLoss2d else NllLossBackward
        return (op.call(grad, log_probs, ctx),)


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


def _tell_row_sum(ctx, out: np.ndarray) -> None:
    """Tell the log_softmax node below (cross_entropy's) the sum of each row of ``out``, which
    its backward needs: in the usual case every row holds one number, the same in each, and
    zeros. Not when that number is 0 or nan (numpy's sum picks the sign of 0 and nan's bits),
    nor when a hook after this node could change ``out``; the node uses it only for this very
    array, and only if no hook of its own ran (``softmax.LogSoftmax.backward``)."""
    soft = ctx._next[0]
    if type(soft) is LogSoftmax._Node and soft.axis == 1 and ctx._post_hooks is None:
        value = out[0, ctx.target[0]]
        if value != 0 and value == value:
            soft._row_sum = (out, value)


def nll_grad(grad: np.ndarray, fwd) -> np.ndarray:
    """``-grad`` (divided by the total weight for "mean") put at the targets of the
    forward whose node is ``fwd``, in zeros shaped like its log-probabilities."""
    if fwd.rows is not None and grad.ndim == 0:  # a reduced loss: the same division (or
        grad = grad[()]  # negation) of a scalar takes a fifth of a 0-d array's time
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
    ctx.index, ctx.keep, ctx.w = index, keep, w
    ctx.total_weight = _added(w, ctx) if weight is not None else w.dtype.type(keep.sum())
    return picked * w


def _added(terms: np.ndarray, ctx):
    """The terms of the kept rows added in the kernel's order (``nll_sum``), for a float32 or
    float64 loss."""
    if terms.dtype.char not in summable:
        return np.add.reduce(terms, None)
    if ctx.rows is not None:  # every row kept (the usual case)
        return _nll_short(terms) if len(terms) <= 256 else nll_sum(terms)
    keep = ctx.keep
    if keep.all():
        return nll_sum(terms.reshape(-1))
    keep = keep.reshape(-1)
    return nll_sum(terms.reshape(-1)[keep], np.flatnonzero(keep))


class NllLoss2dBackward(NllLossBackward):
    node_name = "NllLoss2DBackwardBackward0"


class NllLoss2d(NllLoss):
    """The same loss on (N, C, H, W) inputs, under PyTorch's name for it."""

    node_name = "NllLoss2DBackward0"


def save_target(loss: Tensor, target: Tensor) -> None:
    """PyTorch's node saves the target tensor itself (``_saved_target`` is it): changed in
    place before backward, it raises the version error, as any saved value does.

    ``loss`` is the node's output; the target is kept after ``self`` in ``_saved``, watched
    by its version counter (its ``which`` is past the node's edges: no node made it).
    """
    node = loss._grad_fn
    if node is None:
        return
    vc = target._vc
    if type(vc) is not list:
        raise RuntimeError(_INFERENCE_SAVED)
    node._saved = (*node._saved, target)
    node._saved_checks = (*node._saved_checks, vc, vc[0], len(node._next))


def _kept_as_saved(attribute: str) -> property:
    """``grad_fn._saved_target``, ``_saved_weight``, ``_saved_total_weight``: what PyTorch's
    node saves beside ``self``. The target is saved as it came (``save_target``); the
    weights are settings of the node (nothing to watch for in-place changes, nothing to
    record per call), read back as Tensors; all gone once backward has freed the graph."""

    def get(node):
        if node._saved is _FREED:
            raise RuntimeError(_SECOND_BACKWARD)
        if attribute == "target" and len(node._saved) > 1:
            counter, version = node._saved_checks[3:5]
            if counter[0] != version:
                raise RuntimeError(_modified_message(node, 1))
            return node._saved[1]
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


def nll_sum(values: np.ndarray, positions: np.ndarray | None = None):
    """The sum of nll_loss's terms in its kernel's order (``nll_loss_out_frame`` in
    ``LossNLL.cpp``, which keeps its own cascade, not the sum kernel's): the term of batch
    row ``b`` goes into the first of 8 levels; after a row ``b`` that is a multiple of 16
    the first level is passed on into the second, after a multiple of 256 the second into
    the third, and so on; the levels are added last, from 0. Row 0 is a multiple of every
    step, so its term alone reaches the top level. ``positions`` are the rows of the terms
    when some rows were ignored (an ignored row passes nothing on); None: 0, 1, 2, ..."""
    if positions is None and len(values) <= _NLL_STEP * _NLL_STEP:
        return _nll_short(values)
    sums = []
    first = None
    for level in range(_NLL_LEVELS - 1):
        step = _NLL_STEP ** (level + 1)
        if positions is None:  # every row: the first term, then blocks of 16
            if len(values) and first is None:
                first, values = values[:1], values[1:]
            blocks = len(values) // _NLL_STEP
            sums.append(sequential(values[blocks * _NLL_STEP :], 0))
            values = sequential(values[: blocks * _NLL_STEP].reshape(blocks, _NLL_STEP), 1)
            if not blocks:
                break
            continue
        ends = np.flatnonzero(positions % step == 0)  # rows after which a level passes on
        last = ends[-1] + 1 if len(ends) else 0
        sums.append(sequential(values[last:], 0))
        values, positions = _segments(values[:last], ends), positions[ends]
    if first is not None:
        values = np.concatenate((first, values)) if len(values) else first
    sums.append(sequential(values, 0))
    zero = np.zeros((), values.dtype)
    return sequential(np.stack([zero, *sums]), 0)


_NLL_LEVELS, _NLL_STEP = 8, 16


def _nll_short(values: np.ndarray):
    """``nll_sum`` of at most 256 rows, none ignored, in few numpy calls: row 0 on top, the
    blocks of rows 1-16, 17-32, ... in the second level, the rows after the last block in
    the first: (first level + second level) + row 0."""
    n = len(values)
    if n <= 8:  # numpy adds up to 7 numbers left to right, from 0.
        return np.add.reduce(values[1:]) + values[0] + 0.0 if n else np.add.reduce(values)
    blocks = (n - 1) // _NLL_STEP
    rest = values[1 + blocks * _NLL_STEP :]
    total = np.add.reduce(rest) if len(rest) < 8 else np.add.accumulate(rest)[-1]
    if blocks == 1:
        total = total + np.add.accumulate(values[1 : 1 + _NLL_STEP])[-1]
    elif blocks:
        block_sums = np.add.accumulate(values[1 : 1 + blocks * _NLL_STEP].reshape(blocks, -1), 1)
        total = total + sequential(block_sums[:, -1], 0)
    return total + values[0] + 0.0  # from 0.: never -0.


def _segments(values: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """Left-to-right sums of the runs of ``values`` that end at the indices ``ends``."""
    if not len(ends):
        return values[:0]
    starts = np.concatenate(([0], ends[:-1] + 1))
    lengths = ends - starts + 1
    table = np.zeros((lengths.max(), len(ends)), values.dtype)  # a run per column, 0 after
    table[
        np.arange(len(values)) - np.repeat(starts, lengths),
        np.repeat(np.arange(len(ends)), lengths),
    ] = values
    return sequential(table, 0)
