"""What the short ``apply`` of the hottest ops (addmm, mm, relu, the losses) share.

``ArrayFunction.apply`` serves every op: it loops over the arguments, asks the op
which saved values each gradient needs and matches every saved value to an input.
A training step runs Linear's addmm and relu once per layer and its loss once, always
on a few tensors of one dtype; their own ``apply`` checks that this is the case (else
it takes the general path, with its errors) and records the same node directly: the
same edges, saved values and versions (``tests/test_nn_fast_paths.py`` and
``tests/test_fast_paths.py`` compare the two nodes).
"""

from __future__ import annotations

from ..autograd import anomaly_mode
from ..autograd.accumulate_grad import accumulator_of
from ..autograd.node import Node, sequence
from ..autograd.saved_values import BackwardNode
from ..autograd.views import view_history
from ..tensor import Tensor, follows_base

__all__ = ["edge", "late", "node", "NOT_KEPT"]

NOT_KEPT = (None, -1, 0)  # the version check of a saved slot no gradient needs (saved_when)
_anomaly = anomaly_mode.state


def edge(x: Tensor) -> Node | None:
    """Where the gradient of input ``x`` goes (None: nowhere), as the general apply finds it."""
    if not x._requires_grad:  # a view that requires grad through its base: no edge of its
        base = x._base  # own, unless the base changed in place since (tensor.follows_base)
        return None if base is None or not base._requires_grad else view_history(x)
    fn = x._grad_fn if x._base is None else view_history(x)
    return fn if fn is not None else x._accumulator or accumulator_of(x)


def late(*inputs: Tensor) -> bool:
    """Whether one of the inputs, none of which requires grad itself, does through its base
    (``tensor.follows_base``): asked only when nothing else would record a node."""
    return any([follows_base(x) for x in inputs])


def node(cls: type, nexts: tuple) -> BackwardNode:
    """A new node of ``cls`` with its edges, in creation order (as the general apply makes it)."""
    ctx = cls._Node()
    ctx._next = nexts
    ctx._seq = next(sequence)
    if _anomaly.enabled:
        anomaly_mode.remember_forward(ctx)
    return ctx
