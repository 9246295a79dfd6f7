"""The autograd methods of Tensor: ``grad_fn``, ``output_nr``, ``backward``, ``register_hook``,
``retain_grad``; ``_tensor_methods.py`` binds this table with the others."""

from __future__ import annotations

from typing import Any

from .autograd.accumulate_grad import AccumulateGrad
from .autograd.backward_api import tensor_backward
from .autograd.function import accumulator_of, retain_grad_hook
from .autograd.views import view_history


def _grad_fn(self):
    """The backward node that produced this tensor (None for a leaf).

    For a view whose base has changed in place since, the history is brought up
    to date first (``AsStridedBackward0`` from the base), as PyTorch does.
    """
    fn = self._grad_fn if self._base is None else view_history(self)
    return fn if fn is None or fn._owner is None else fn._owner  # an output of several


def _output_nr(self) -> int:
    """Which output of its grad_fn this tensor is (``unbind``'s k-th part: k)."""
    fn = self._grad_fn
    return 0 if fn is None or fn._owner is None else fn._nr


def _register_hook(self, hook):
    """Call ``hook(grad)`` when this tensor's gradient is computed; it may return a new one."""
    if not self.requires_grad:
        raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
    node = self._grad_fn
    if node is None:  # a view that requires grad only through its base gets no gradient:
        node = accumulator_of(self) if self._requires_grad else AccumulateGrad(self)  # unused
    return node._add_pre_hook(hook)


def _retain_grad(self):
    """Keep ``.grad`` on a non-leaf tensor after backward (a no-op on leaves)."""
    if not self.requires_grad:
        raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
    if self._grad_fn is None or self._retains_grad:
        return
    self._retains_grad = True
    self._grad_fn._add_pre_hook(retain_grad_hook(self), retains_grad=True)


AUTOGRAD_METHODS: dict[str, Any] = {
    "retains_grad": property(lambda self: self._retains_grad, doc="True after retain_grad()"),
    "grad_fn": property(_grad_fn),
    "output_nr": property(_output_nr),
    "backward": tensor_backward,
    "register_hook": _register_hook,
    "retain_grad": _retain_grad,
}
