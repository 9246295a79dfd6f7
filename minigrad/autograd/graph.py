"""Following a backward pass node by node: the seam for tools such as the graph widget.

An observer is any object with three methods::

    on_backward_begin(roots: list[Node])            # a backward pass starts here
    on_node(node, grad_output, grad_inputs)          # node just ran (numpy arrays;
                                                     #   grad_inputs: one per next_functions edge)
    on_backward_end()                                # the pass finished (or raised)

``register_backward_observer(obs)`` returns a handle whose ``remove()`` stops
the calls. Nodes arrive in the engine's real order, the order
``execution_order(tensor)`` predicts without running anything. minigrad knows
nothing about who is watching.

What an observer is given, precisely:

- ``on_node`` is called *after* the node ran (and after its saved values were
  freed, unless ``retain_graph=True``). ``grad_output`` is the sum of every
  gradient sent to the node (after tensor hooks), or None when nothing reached
  it; for a node with several outputs (``unbind``, ``split``), a tuple with one
  such gradient (or None) per output. ``grad_inputs[k]`` is the gradient the node sent along
  ``node.next_functions[k]`` (None for an edge that needs no gradient). An
  ``AccumulateGrad`` node has no edges: by the time ``on_node`` sees it,
  ``node.variable.grad`` already holds the accumulated sum.
- Every pass calls every observer, including passes through graphs it does not
  care about: keep ``on_node`` cheap, and never raise from it (an exception
  stops the learner's backward).
- An observer may have an attribute ``nodes`` (a set or dict, read live): then
  ``backward()`` may skip ``on_node`` for a node not in it, so a training loop
  pays one lookup per node, not a call; and when, once ``on_backward_begin`` has
  returned, it names none of the nodes the pass will run, the pass may call its
  ``on_node`` at no node at all (it may name more nodes later in that pass: they
  count only in a pass that reaches a node it named at the start). It is an
  economy, not a promise: an observer with ``nodes`` ignores the calls for other
  nodes itself all the same.
- The arrays belong to the engine: copy what you keep.

``saved_values(node)`` shows what a node's forward saved for backward, with
the version of each saved tensor then and now: a version that moved means an
in-place change that backward will refuse (or, through ``.data``, not notice).
"""

from __future__ import annotations

from typing import NamedTuple, Protocol

import numpy as np

from ..tensor import Tensor
from .accumulate_grad import AccumulateGrad, accumulator_of
from .engine import execution_order as _schedule
from .engine import observers
from .node import Node
from .saved_values import _FREED

__all__ = [
    "BackwardObserver",
    "register_backward_observer",
    "execution_order",
    "saved_values",
    "SavedValue",
    "Node",
    "AccumulateGrad",
]


class BackwardObserver(Protocol):
    def on_backward_begin(self, roots: list[Node]) -> None: ...

    def on_node(
        self, node: Node, grad_output: np.ndarray | None, grad_inputs: tuple[np.ndarray | None, ...]
    ) -> None: ...

    def on_backward_end(self) -> None: ...


class _ObserverHandle:
    def __init__(self, observer: BackwardObserver) -> None:
        self._observer = observer

    def remove(self) -> None:
        if self._observer in observers:
            observers.remove(self._observer)


def register_backward_observer(observer: BackwardObserver) -> _ObserverHandle:
    """Call ``observer`` at every step of every backward pass until ``remove()``."""
    for method in ("on_backward_begin", "on_node", "on_backward_end"):
        if not callable(getattr(observer, method, None)):
            raise TypeError(f"a backward observer needs a method {method}()")
    observers.append(observer)
    return _ObserverHandle(observer)


def execution_order(tensor: Tensor) -> list[Node]:
    """The nodes ``tensor.backward()`` would run, in the order it would run them."""
    if not isinstance(tensor, Tensor):
        raise TypeError(f"execution_order() expects a Tensor, got {type(tensor).__name__}")
    if tensor.grad_fn is not None:
        root = tensor.grad_fn
    elif tensor.requires_grad:
        root = accumulator_of(tensor)
    else:
        return []
    return _schedule([root])


class SavedValue(NamedTuple):
    """One value a node's forward saved: the array, and its tensor's version then and now.

    The versions are None for a value that is not a tensor's storage (a shape,
    a number, an array computed inside forward).
    """

    value: np.ndarray
    version_at_save: int | None
    version_now: int | None

    @property
    def modified(self) -> bool:
        """True when an in-place change hit the tensor after forward saved it."""
        return self.version_at_save is not None and self.version_now != self.version_at_save


def saved_values(node: Node) -> list[SavedValue] | None:
    """What ``node``'s forward saved (arrays only), or None once backward freed it."""
    saved = getattr(node, "_saved", None)
    if saved is _FREED:
        return None
    if not saved:
        return []
    checks = getattr(node, "_saved_checks", ()) or ()  # (counter, version, which) per value
    result = []
    for i, value in enumerate(saved):
        array = value._data if isinstance(value, Tensor) else value
        if not isinstance(array, np.ndarray):
            continue
        counter = checks[3 * i] if 3 * i < len(checks) else None
        if counter is None:
            result.append(SavedValue(array, None, None))
        else:
            result.append(SavedValue(array, checks[3 * i + 1], counter[0]))
    return result
