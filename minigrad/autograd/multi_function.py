"""MultiArrayFunction: a built-in op with several outputs (``unbind``, ``split``), one node.

``forward(ctx, *inputs, *params)`` returns a tuple of arrays; ``backward(ctx, grads)``
receives a list with one gradient per output, None where an output got none (the formula
fills in zeros, as PyTorch's do), and returns one gradient per input. Under
``create_graph`` the gradients are Tensors and the formula records a graph. The outputs'
edges are ``OutputEdge``s (``multi_output.py``); with ``is_view`` every output is a view of
input 0, which in-place ops then refuse (PyTorch's rule for multiple views).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._quiet import loud, quiet
from ..tensor import Tensor, new_tensor
from . import anomaly_mode, grad_mode
from .array_apply import gather_inputs
from .function import ArrayFunction, _array_node_run, _array_node_run_graph
from .multi_output import MULTI_OUTPUT, Gradients, MultiOutput, output_edges
from .node import sequence

__all__ = ["MultiArrayFunction", "zeros_for"]


class MultiArrayFunction(ArrayFunction):
    """The base of ops with several outputs (see the module)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        node = cls._Node
        cls._Node = type(node.__name__, (MultiOutput, node), {"__module__": node.__module__})
        cls._Node._run = _run
        cls._Node._run_graph = _run_graph
        cls._Node.__call__ = _call
        cls.apply = classmethod(_apply)  # not ArrayFunction's one-input short path


def _apply(cls: type[MultiArrayFunction], *args: Any) -> tuple[Tensor, ...]:
    n_params = cls.n_params
    inputs = args[: len(args) - n_params] if n_params else args
    values, nexts, requires = gather_inputs(inputs)
    ctx = cls._Node()
    token = quiet()
    try:
        outs = cls.forward(ctx, *values, *args[len(inputs) :])
    finally:
        loud(token)
    requires = requires and grad_mode.state.enabled
    if requires:
        ctx._next = tuple(nexts)
        ctx._seq = next(sequence)
        edges = output_edges(ctx, len(outs))
        if anomaly_mode.state.enabled:
            anomaly_mode.remember_forward(ctx)
    results = []
    for k, out in enumerate(outs):
        result = new_tensor(out, edges[k] if requires else None, requires)
        if cls.is_view:
            base = args[0]
            result._vc = base._vc
            result._base = base if base._base is None else base._base
            result._view_version = base._vc[0]
            # PyTorch's creation meta: in grad mode an output that needs no grad still may
            # not change in place with a gradient (one that does is refused by its node)
            result._no_grad_view = (
                True if not grad_mode.state.enabled else False if requires else MULTI_OUTPUT
            )
        results.append(result)
    return tuple(results)


def _run(self: MultiOutput, slots: Gradients) -> tuple:
    return _array_node_run(self, slots.grads)


def _run_graph(self: MultiOutput, slots: Gradients) -> tuple:
    return _array_node_run_graph(self, slots.grads)


def _call(self: MultiOutput, *grads: Any) -> Any:
    """``a.grad_fn(g0, g1, ...)``: one gradient (or None) per output, as PyTorch's nodes take."""
    n = self._n_outputs
    if len(grads) != n:
        raise TypeError(f"expected {n} arguments, got {len(grads)} instead")
    for i, g in enumerate(grads):
        if g is not None and not isinstance(g, Tensor):
            raise TypeError(f"argument {i} is not a Variable")
    if all(g is None for g in grads):
        outs: tuple = (None,) * len(self._next)
    else:
        slots = Gradients(n)
        slots.grads = list(grads)
        token = quiet()  # numpy silent here as in the engine
        try:
            outs = self._run_graph(slots)
        finally:
            loud(token)
        outs = tuple([None if fn is None else g for fn, g in zip(self._next, outs)])
    return outs[0] if len(outs) == 1 else outs


def zeros_for(grads: list, shapes: list) -> list:
    """``grads`` with zeros (of the others' dtype) for the outputs that got no gradient.

    Tensors that need no grad under ``create_graph``: their edges in the gradient's graph are
    None, as in PyTorch's.
    """
    first = next(g for g in grads if g is not None)
    graph = isinstance(first, Tensor)
    dtype = first._data.dtype if graph else first.dtype
    out = []
    for g, shape in zip(grads, shapes):
        if g is None:
            g = np.zeros(shape, dtype)
            if graph:
                g = new_tensor(g)
        out.append(g)
    return out
