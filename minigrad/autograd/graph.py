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
"""

from __future__ import annotations

from typing import Protocol

import numpy as np

from ..tensor import Tensor
from .engine import execution_order as _schedule
from .engine import observers
from .function import AccumulateGrad, Node, accumulator_of

__all__ = [
    "BackwardObserver",
    "register_backward_observer",
    "execution_order",
    "Node",
    "AccumulateGrad",
]


class BackwardObserver(Protocol):
    def on_backward_begin(self, roots: list[Node]) -> None: ...

    def on_node(self, node: Node, grad_output: np.ndarray | None,
                grad_inputs: tuple[np.ndarray | None, ...]) -> None: ...

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
    return list(_schedule([root]))
