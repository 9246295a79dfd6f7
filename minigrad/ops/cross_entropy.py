"""``cross_entropy``'s usual case in one pass: (N, C) float scores and N int64 class indices.

``cross_entropy`` is ``log_softmax`` then ``nll_loss``, and a learner's graph shows both
nodes (``NllLossBackward0`` above ``LogSoftmaxBackward0``), as in PyTorch. A classifier's
training step ends here once per step, so for its usual case the two forwards run back to
back without the checks between them (``nll_loss``'s, which this case passes by its
shapes and dtypes) and both nodes are recorded directly: the same numpy calls
(``softmax.log_softmax``, then ``NllLoss.forward`` itself, with its own branches for
ignored targets and its error for a bad one), the same nodes, edges, saved values and
versions as the two ``apply`` calls make (``tests/test_fast_paths.py`` compares them).
Class weights, class-probability targets, other shapes and dtypes, inference tensors and
anomaly mode (whose stack of each node names the frames the general path goes through)
take the general path.
"""

from __future__ import annotations

import numpy as np

from .._quiet import loud, quiet
from ..autograd import anomaly_mode, grad_mode
from ..tensor import Tensor, follows_base, new_tensor
from ._short_path import edge, node
from .classification_loss import NllLoss, save_target
from .softmax import LogSoftmax, log_softmax

__all__ = ["log_softmax_nll_loss"]

_state = grad_mode.state
_anomaly = anomaly_mode.state
_INT64 = np.dtype(np.int64)


def log_softmax_nll_loss(
    input: Tensor, target: Tensor, ignore_index: int, reduction: str
) -> Tensor | None:
    """``nll_loss(log_softmax(input, 1), target)`` without class weights, or None when this
    is not the usual case (the caller then takes the general path, with its errors)."""
    try:
        a, t = input._data, target._data
    except AttributeError:
        return None
    if (
        a.ndim != 2
        or t.dtype is not _INT64
        or t.shape != a.shape[:1]
        or a.dtype.kind != "f"
        or not a.size
        or type(input._vc) is not list  # an inference tensor
        or _state.inference
        or _anomaly.enabled
    ):
        return None
    requires = (input._requires_grad or follows_base(input)) and _state.enabled
    if requires:  # the two nodes in the order the general path makes them
        soft = node(LogSoftmax, (edge(input),))
        token = quiet()
        try:
            out = log_softmax(a, 1)
            soft.axis, soft._saved = 1, (out,)
            log_probs = new_tensor(out, soft, True)
            vc = log_probs._vc
            soft._saved_checks = (vc, 0, -1)  # the saved result, watched for in-place changes
            nll = node(NllLoss, (soft,))
            loss = NllLoss.forward(nll, out, t, None, ignore_index, reduction)
        finally:
            loud(token)
        result = new_tensor(np.asarray(loss), nll, True)
        tvc = target._vc
        if type(tvc) is not list:  # an inference target: save_target's error
            save_target(result, target)
        nll._saved = (out, target)  # its saved input (the same tensor) and the target, watched
        nll._saved_checks = (vc, 0, 0, tvc, tvc[0], 1)  # as save_target watches it
        return result
    token = quiet()
    try:
        out = log_softmax(a, 1)
        loss = NllLoss.forward(NllLoss._Node(), out, t, None, ignore_index, reduction)
    finally:
        loud(token)
    return new_tensor(np.asarray(loss))
