"""Nodes with several outputs: ``unbind``, ``split``, ``chunk``, a custom Function's tuple.

PyTorch records such an op as ONE node: every output tensor has it as ``grad_fn``, with its
own ``output_nr``, and a consumer's edge is ``(node, output_nr)``. The engine keeps one
gradient buffer per output and runs the node once, giving it None (built-in ops fill in zeros
themselves; a custom Function gets zeros unless ``ctx.set_materialize_grads(False)``) for an
output that got no gradient. Tensor hooks on an output run then, in registration order, with
None for such an output.

minigrad does the same without any cost to single-output nodes, which are almost all of them:
output ``k`` is represented by an ``OutputEdge``, kept by the output tensor as its
``_grad_fn`` (``t.grad_fn`` answers the node itself, ``t.output_nr`` says ``k``). A consumer
records its edge from ``_grad_fn`` as it always does, so the edge carries the output number
and the engine's loop, which keys gradient buffers by what an edge points at, gives each
output its own buffer. Running an ``OutputEdge`` hands its gradient to the node, in slot ``k``
of a ``Gradients``; the node's buffer adds these up slot by slot, and the node runs once all
the outputs the pass reaches have. ``execution_order`` and the backward observers never see
an ``OutputEdge``: only the node.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any

import numpy as np

from ..tensor import Tensor, new_tensor
from . import anomaly_mode
from .node import Node, RemovableHandle, _grad_outputs, sequence
from .saved_values import BackwardNode

__all__ = [
    "OutputEdge",
    "Gradients",
    "MultiOutput",
    "output_edges",
    "output_node",
    "output_grads",
    "wrap_outputs",
    "MULTI_OUTPUT",
    "multi_view_error",
    "multi_view_message",
    "multi_view_of",
]


class Gradients:
    """The gradients a multi-output node received, one slot per output (None: none came)."""

    __slots__ = ("grads",)

    def __init__(self, n: int) -> None:
        self.grads: list = [None] * n

    def __add__(self, other: Gradients) -> Gradients:
        """Two outputs' gradients meet in the node's buffer: slot by slot (the engine's ``+``)."""
        mine = self.grads
        for k, g in enumerate(other.grads):
            if g is not None:
                mine[k] = g if mine[k] is None else mine[k] + g
        return self


class OutputEdge(Node):
    """Output ``nr`` of a multi-output node, as its tensor and its consumers' edges see it."""

    __module__ = "builtins"

    def __init__(self, owner: Node, nr: int) -> None:
        self._owner = owner
        self._nr = nr
        self._next = (owner,)
        self._seq = next(sequence)  # just above the owner's: it runs before, never out of turn

    def name(self) -> str:
        return self._owner.name()

    def __repr__(self) -> str:
        return repr(self._owner)

    @property
    def next_functions(self) -> tuple:
        return self._owner.next_functions

    @property
    def metadata(self) -> dict:
        return self._owner.metadata

    def _add_pre_hook(self, hook: Callable, retains_grad: bool = False) -> RemovableHandle:
        """``t.register_hook`` / ``t.retain_grad()`` on this output: kept by the node."""
        return self._owner._add_output_hook(self._nr, hook, retains_grad)

    def _run(self, grad: Any) -> tuple:
        slots = Gradients(self._owner._n_outputs)
        slots.grads[self._nr] = grad
        return (slots,)

    _run_graph = _run


def output_edges(node: BackwardNode, n: int) -> tuple[OutputEdge, ...]:
    """Make ``node`` a node of ``n`` outputs; the edges its output tensors keep.

    The node refers to its edges weakly: they refer to it, and a cycle would keep a whole
    graph alive until the garbage collector runs, instead of freeing it when the last
    tensor goes (as every single-output graph is).
    """
    edges = tuple([OutputEdge(node, k) for k in range(n)])
    node._n_outputs = n
    node._edges = [weakref.ref(e) for e in edges]
    return edges


def output_node(node: Node, which: int) -> Node:
    """What a saved output (``which`` -1 is output 0, -2 output 1 ...) has as ``_grad_fn``."""
    edges = getattr(node, "_edges", None)  # single-output nodes have none
    if edges is None:
        return node
    nr = -1 - which
    edge = edges[nr]()
    if edge is None:  # that output and all its uses are gone: a new edge to the same slot
        edge = OutputEdge(node, nr)
        edges[nr] = weakref.ref(edge)
    return edge


class MultiOutput:
    """The node (``ctx``) of a custom Function or of a multi-output op: hooks per output, and
    the ``ctx`` methods about outputs, ``mark_non_differentiable`` and
    ``set_materialize_grads``."""

    _n_outputs = 1
    _edges: list | None = None  # weak references to the OutputEdges (see output_edges)
    _non_differentiable: tuple | None = None
    _materialize = True
    _out_meta: tuple | None = None  # (shape, dtype) per output; None: not a tensor

    def mark_non_differentiable(self, *tensors: Tensor) -> None:
        """These outputs get no gradient: ``requires_grad=False``, backward sees zeros."""
        self._non_differentiable = (self._non_differentiable or ()) + tensors

    def set_materialize_grads(self, value: bool) -> None:
        """False: backward receives None (not zeros) for an output that got no gradient."""
        self._materialize = bool(value)

    def _add_output_hook(self, nr: int, hook: Callable, retains_grad: bool) -> RemovableHandle:
        self._hooked = True
        if retains_grad:
            if self._retain_hook is None:
                self._retain_hook = {}
            self._retain_hook[nr] = hook
            return RemovableHandle(self, None)
        if self._pre_hooks is None:
            self._pre_hooks = []
        entry = (nr, hook)
        self._pre_hooks.append(entry)
        return RemovableHandle(self, entry)

    def _hooks_on_none(self) -> None:
        """No output got a gradient: the hooks of every output are called with None."""
        if self._edges is None:
            Node._hooks_on_none(self)
            return
        slots = self._run_hooks(Gradients(self._n_outputs))
        for hook in self._post_hooks or ():
            hook((None,) * len(self._next), tuple(slots.grads))

    def _run_hooks(self, slots: Gradients) -> Gradients:
        """Tensor hooks on the outputs, in registration order, then retain_grad (as PyTorch).

        A hook on an output that got no gradient is called with None; it may not return one.
        """
        if type(slots) is not Gradients:  # a custom Function with one output
            return Node._run_hooks(self, slots)
        grads = slots.grads
        for nr, hook in self._pre_hooks or ():
            g = grads[nr]
            graph = isinstance(g, Tensor)
            result = hook(None if g is None else g if graph else new_tensor(np.asarray(g)))
            if result is None:
                continue
            if g is None:
                raise RuntimeError("can't replace a None gradient with a non-None value")
            if not isinstance(result, Tensor):
                raise TypeError(
                    f"hook returned an object of type {type(result).__name__}; "
                    "expected a Tensor or None"
                )
            if result._data.shape != np.shape(g._data if graph else g):
                raise RuntimeError(
                    f"hook '{getattr(hook, '__name__', hook)}' has changed the size of value"
                )
            grads[nr] = result if graph else result._data
        for nr, hook in (self._retain_hook or {}).items():
            if grads[nr] is not None:
                hook(grads[nr] if isinstance(grads[nr], Tensor) else np.asarray(grads[nr]))
        if self._node_pre_hooks:
            graph = any(isinstance(g, Tensor) for g in grads)
            result = self._run_node_pre_hooks(_grad_outputs(slots, graph))
            slots.grads = [g if g is None or graph else g._data for g in result]
        return slots


def multi_view_of(t: Tensor) -> OutputEdge | None:
    """The output edge of the multi-output op ``t`` is a view of, through any views of it."""
    fn = t._grad_fn
    while fn is not None:
        if fn._owner is not None:
            return fn
        function = getattr(fn, "_function", None)
        if function is None or not getattr(function, "is_view", False) or not fn._next:
            return None
        fn = fn._next[0]
    return None


MULTI_OUTPUT = "multi-output"  # ``Tensor._no_grad_view`` of an output of split ... (no grad)


def multi_view_error(t: Tensor, base_changed: bool = False) -> RuntimeError:
    """PyTorch's refusal of an in-place change to (or through the base of) such an output."""
    fn = t._grad_fn
    return RuntimeError(
        multi_view_message(fn, fn._nr if fn._owner is not None else 0, base_changed)
    )


def multi_view_message(fn: Node, nr: int, base_changed: bool) -> str:
    name = fn.name().removesuffix("0").removesuffix("Backward")
    what = "its base or another view of its base has been" if base_changed else "is being"
    return f"Output {nr} of {name} is a view and {what} modified inplace. {MULTI_VIEW_ADVICE}"


MULTI_VIEW_ADVICE = (
    "This view is the output of a function that returns multiple views. Such functions do not "
    "allow the output views to be modified inplace. You should replace the inplace operation "
    "by an out-of-place one."
)


def output_grads(node: MultiOutput, grads: list) -> tuple[tuple, bool]:
    """The gradients a custom Function's backward receives, one per output, and whether they
    are Tensors of a graph (``create_graph``). An output that got none: zeros of its shape
    and dtype, or None after ``set_materialize_grads(False)`` (always None for an output that
    is not a Tensor)."""
    graph = any(isinstance(g, Tensor) for g in grads)
    out = []
    for g, meta in zip(grads, node._out_meta):
        if g is None:
            if meta is not None and node._materialize:
                g = new_tensor(np.zeros(*meta))
        elif not graph:
            g = new_tensor(np.asarray(g))
        out.append(g)
    return tuple(out), graph


def wrap_outputs(ctx: MultiOutput, args: tuple, outputs: tuple) -> tuple:
    """A custom Function returned a tuple: one node, an output edge per element.

    Elements that are not Tensors pass through (their gradient is None); outputs marked
    non-differentiable do not require grad. An input returned as is becomes a new tensor on
    the same memory and version counter, with this node as its history (as PyTorch does).
    """
    ctx._seq = next(sequence)
    edges = output_edges(ctx, len(outputs))
    if anomaly_mode.state.enabled:
        anomaly_mode.remember_forward(ctx)
    ctx._shapes = tuple(args[i]._data.shape for i in ctx._tensor_positions)
    skip = ctx._non_differentiable or ()
    results, meta = [], []
    for o, edge in zip(outputs, edges):
        if not isinstance(o, Tensor):
            results.append(o)
            meta.append(None)
            continue
        meta.append((o._data.shape, o._data.dtype))
        if any(o is t for t in skip):
            results.append(o if o._grad_fn is None else o.detach())
            continue
        result = new_tensor(o._data, edge, True)
        if any(a is o for a in args):
            result._vc = o._vc
        results.append(result)
    ctx._out_meta = tuple(meta)
    if ctx._saved is not None:
        _record_versions(ctx, args, outputs, results)
    return tuple(results)


def _record_versions(ctx: BackwardNode, args: tuple, outputs: tuple, results: list) -> None:
    """As ``BackwardNode._record_versions``, with each saved output known by its number."""
    none = new_tensor(np.empty(0))  # matches no saved value: the outputs are done below
    ctx._record_versions(args, args, none)
    checks = list(ctx._saved_checks)
    for k, value in enumerate(ctx._saved):
        for j, (o, r) in enumerate(zip(outputs, results)):
            if isinstance(r, Tensor) and value is not None and (value is o or value is r):
                checks[3 * k : 3 * k + 3] = (r._vc, r._vc[0], -1 - j)
                break
    ctx._saved_checks = tuple(checks)
