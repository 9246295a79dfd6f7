"""A backward pass as a list of steps the browser can replay.

The engine calls an observer once per node, in its real order, with the
gradient that arrived and the gradient sent along each edge
(``minigrad.autograd.graph``). ``Recorder`` turns those calls, for the nodes of
one ``Graph``, into JSON-ready steps: which box to highlight, the text to show
on each arrow, and the leaf gradients before and after they accumulate. It
keeps text, never the engine's arrays.

Before any backward has run there is nothing to record, so ``predicted_walk``
gives the same steps in ``execution_order``, without values: stepping then
shows the order backward *will* take.

``observe(owner, graph)`` registers a recorder weakly: the engine holds a small
proxy, not the widget, so a view that is gone stops listening by itself.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from minigrad.autograd.graph import AccumulateGrad, execution_order, register_backward_observer

from .fmt import short
from .graph import Graph, node_label

__all__ = ["Walk", "Recorder", "predicted_walk", "observe"]


@dataclass
class Walk:
    """Steps (dicts, sent as JSON) and the text on each arrow at the end of the pass."""

    steps: list[dict[str, Any]] = field(default_factory=list)
    edge_text: dict[str, str] = field(default_factory=dict)
    predicted: bool = True
    complete: bool = True  # False: the pass began outside this graph


def grad_row(value: object) -> str:
    """The text of a tensor box's gradient row (also what the browser swaps in)."""
    return f"grad {short(value)}"


def _leaf_grad(tensor) -> np.ndarray | None:
    grad = tensor.grad
    return None if grad is None else grad.detach().numpy().copy()


def _merge_folded(steps: list[dict[str, Any]], graph: Graph) -> list[dict[str, Any]]:
    """Consecutive steps inside the folded part of a large graph become one step."""
    merged: list[dict[str, Any]] = []
    for step in steps:
        if step["node"] == "C0" and merged and merged[-1]["node"] == "C0":
            merged[-1]["count"] += 1
            merged[-1]["text"] = f"{merged[-1]['count']} nodes run inside the folded part"
            merged[-1]["edges"] += step["edges"]
            continue
        if step["node"] == "C0":
            step["count"] = 1
            step["text"] = "1 node runs inside the folded part"
        merged.append(step)
    return merged


def _times(n: int) -> str:
    return "" if n == 1 else " (twice)" if n == 2 else f" ({n} times)"


def _targets(graph: Graph, fn) -> str:
    names = []
    for k, (nxt, _) in enumerate(fn.next_functions):
        edge = graph.slot_edge.get((fn, k))
        if nxt is not None and edge is not None:
            dst = next(e.dst for e in graph.edges if e.id == edge)
            names.append(graph.title_of(dst))
    return " and ".join(names) if names else "nothing"


def predicted_walk(graph: Graph) -> Walk:
    """The order ``backward()`` will take on ``graph``, without values."""
    walk = Walk(predicted=True)
    for fn in execution_order(graph.root) if graph.total else ():
        box = graph.box_of.get(fn)
        if box is None:
            continue
        step: dict[str, Any] = {"node": box, "label": node_label(fn), "in_edge": None, "edges": []}
        step["cells"] = []
        if box == "C0":
            step["label"] = ""
        elif isinstance(fn, AccumulateGrad):
            leaf = graph.title_of(graph.leaf_box[fn])
            step["text"] = f"{node_label(fn)} will add the gradient that arrives into {leaf}.grad"
        else:
            step["edges"] = [
                [graph.slot_edge[(fn, k)], None]
                for k in range(len(fn.next_functions))
                if (fn, k) in graph.slot_edge
            ]
            step["text"] = f"{node_label(fn)} will send a gradient to {_targets(graph, fn)}"
        in_edge = graph.in_edge.get(fn)
        step["in_edge"] = [in_edge, None] if in_edge else None
        walk.steps.append(step)
    walk.steps = _merge_folded(walk.steps, graph)
    return walk


class Recorder:
    """Follows one backward pass on ``graph``; ``finish()`` gives the ``Walk`` or None."""

    def __init__(self, graph: Graph) -> None:
        self.graph = graph
        self.before: dict[Any, np.ndarray | None] = {}
        self.steps: list[dict[str, Any]] = []
        self.ran_op = False
        self.complete = False

    def begin(self, roots: list) -> None:
        g = self.graph
        self.steps = []
        self.ran_op = False
        self.complete = any(g.box_of.get(r) is not None for r in roots)
        self.before = {fn: _leaf_grad(fn.variable) for fn in g.leaf_box}

    def node(self, fn, grad: np.ndarray | None, outs: tuple) -> None:
        g = self.graph
        box = g.box_of.get(fn)
        if box is None:
            return
        if box == "C0":
            self.steps.append({"node": box, "label": "", "in_edge": None, "edges": [], "cells": []})
            self.ran_op = True
            return
        step: dict[str, Any] = {"node": box, "label": node_label(fn), "cells": []}
        in_edge = g.in_edge.get(fn)
        step["in_edge"] = [in_edge, short(grad)] if in_edge else None
        if isinstance(fn, AccumulateGrad):
            leaf = g.leaf_box[fn]
            before = self.before.get(fn)
            after = _leaf_grad(fn.variable)
            step["cells"] = [[f"{leaf}_grad", grad_row(before), grad_row(after)]]
            step["edges"] = []
            name = g.title_of(leaf)
            if before is None:
                step["text"] = f"{node_label(fn)}: {name}.grad was None, is now {short(after)}"
            else:
                step["text"] = (
                    f"{node_label(fn)}: {name}.grad was {short(before)}, adds {short(grad)}, "
                    f"is now {short(after)}"
                )
        else:
            self.ran_op = True
            sent = []
            for k, out in enumerate(outs):
                edge = g.slot_edge.get((fn, k))
                if edge is not None:
                    sent.append([edge, None if out is None else short(out)])
            step["edges"] = sent
            parts = [f"{text} to {self._dst(e)}" for e, text in sent if text is not None]
            said = [p + _times(parts.count(p)) for p in dict.fromkeys(parts)]
            step["text"] = (
                f"{node_label(fn)} received {short(grad)} and sent {', '.join(said) or 'nothing'}"
                if grad is not None
                else f"{node_label(fn)} received no gradient"
            )
        self.steps.append(step)

    def _dst(self, edge_id: str) -> str:
        dst = next(e.dst for e in self.graph.edges if e.id == edge_id)
        return self.graph.title_of(dst)

    def finish(self) -> Walk | None:
        """The walk, if this pass went through the graph (not only through its leaves)."""
        if not (self.ran_op or self.complete):
            return None
        walk = Walk(predicted=False, complete=self.complete)
        walk.steps = _merge_folded(self.steps, self.graph)
        for step in walk.steps:
            if step["in_edge"]:
                walk.edge_text[step["in_edge"][0]] = step["in_edge"][1]
            for edge, text in step["edges"]:
                if text is not None:
                    walk.edge_text[edge] = text
        self.steps = []
        return walk


class _WeakObserver:
    """What the engine holds: forwards to ``owner`` while it lives, then unregisters."""

    def __init__(self, owner: Any, graph: Graph, done: str, failed: str) -> None:
        self._owner = weakref.ref(owner)
        self._done = done
        self._failed = failed
        self.recorder = Recorder(graph)
        self.error: BaseException | None = None
        self.handle = register_backward_observer(self)

    def _alive(self) -> bool:
        if self._owner() is None:
            self.handle.remove()
            return False
        return True

    def on_backward_begin(self, roots: list) -> None:
        if self._alive():
            self._guard(self.recorder.begin, roots)

    def on_node(self, node, grad_output, grad_inputs) -> None:
        if self.recorder.graph.box_of.get(node) is not None:
            self._guard(self.recorder.node, node, grad_output, grad_inputs)

    def on_backward_end(self) -> None:
        owner = self._owner()
        if owner is None:
            self.handle.remove()
            return
        walk = self._guard(self.recorder.finish)
        if walk is not None:
            self._guard(getattr(owner, self._done), walk)
        if self.error is not None:
            error, self.error = self.error, None
            self._guard(getattr(owner, self._failed), error)

    def _guard(self, call: Callable, *args: Any) -> Any:
        """Never let a drawing problem break the learner's backward()."""
        try:
            return call(*args)
        except Exception as error:  # reported by the owner, not raised into the engine
            self.error = error
            return None


def observe(
    owner: Any, graph: Graph, done: str = "_on_walk", failed: str = "_on_error"
) -> _WeakObserver:
    """Record every pass through ``graph``; call ``owner.<done>(walk)`` after each.

    A problem while recording or drawing goes to ``owner.<failed>(error)``, never
    into the learner's ``backward()``. ``handle.remove()`` stops it.
    """
    return _WeakObserver(owner, graph, done, failed)
