"""A backward pass as a list of steps the browser can replay.

The engine calls an observer once per node, in its real order, with the
gradient that arrived and the gradient sent along each edge
(``minigrad.autograd.graph``). ``Recorder`` keeps, for the nodes of one
``Graph``, copies of those arrays: a ``Pass``. Nothing is formatted then: a
pass becomes text (``to_walk``: which box to highlight, the text on each
arrow, the leaf gradients before and after they accumulate) only when a view
draws it, in the view's language. A loop of a thousand passes that nobody
looks at formats nothing.

Before any backward has run there is nothing to record, so ``predicted_walk``
gives the same steps in ``execution_order``, without values: stepping then
shows the order backward *will* take.

Who calls the recorders, and when, is ``widgets.listen``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from minigrad.autograd.graph import AccumulateGrad, execution_order

from .fmt import CAPTION_CHARS, clip, short
from .graph import Graph, node_label
from .i18n import text

__all__ = ["Walk", "Pass", "Recorder", "predicted_walk", "to_walk", "grad_row"]


@dataclass
class Walk:
    """Steps (dicts, sent as JSON) and the text on each arrow at the end of the pass."""

    steps: list[dict[str, Any]] = field(default_factory=list)
    edge_text: dict[str, str] = field(default_factory=dict)
    predicted: bool = True
    complete: bool = True  # False: the pass began outside this graph


@dataclass
class Pass:
    """One recorded backward pass: per node that ran, ``(node, grad, outs, before, after)``.

    ``before``/``after`` are an AccumulateGrad's leaf gradient around the node
    (None otherwise). Arrays are copies: the engine's own are reused.
    """

    events: list[tuple] = field(default_factory=list)
    complete: bool = True


def grad_row(value: object) -> str:
    """The text of a tensor box's gradient row (also what the browser swaps in)."""
    return f"grad {short(value)}"


def _copy(array: np.ndarray | tuple | None) -> np.ndarray | tuple | None:
    """A copy; a node with several outputs (``unbind``) received a tuple, one per output."""
    if isinstance(array, tuple):
        return tuple([_copy(a) for a in array])
    return None if array is None else np.array(array, copy=True)


def _leaf_grad(tensor) -> np.ndarray | None:
    grad = tensor.grad
    return None if grad is None else grad.detach().numpy().copy()


class Recorder:
    """What one backward pass does on ``graph``, as copies: ``node()`` per node that ran,
    then ``finish()`` gives the ``Pass``. One recorder per pass (and thread)."""

    def __init__(self, graph: Graph, complete: bool) -> None:
        """Begin recording: at the start of a pass (``complete``), or when a pass from
        outside reaches one of this graph's ops."""
        self.graph = graph
        self.complete = complete
        self.ran_op = False
        self.events: list[tuple] = []
        self.before = {fn: _leaf_grad(fn.variable) for fn in graph.leaf_box}

    def node(self, fn, grad: np.ndarray | None, outs: tuple) -> None:
        if isinstance(fn, AccumulateGrad):
            before = self.before.get(fn)
            self.events.append((fn, _copy(grad), (), before, _leaf_grad(fn.variable)))
            return
        self.ran_op = True
        self.events.append((fn, _copy(grad), tuple(_copy(o) for o in outs), None, None))

    def finish(self) -> Pass | None:
        """The pass, if it went through the graph (not only through its leaves)."""
        if not (self.ran_op or self.complete):
            return None
        events = self.events
        if not self.complete:  # from outside: the accumulations this graph's ops fed
            fed = {nxt for fn, *_ in events for nxt, _ in fn.next_functions}
            events = [e for e in events if type(e[0]) is not AccumulateGrad or e[0] in fed]
        return Pass(events, self.complete)


def _captured(before, after, grad) -> bool:
    """A gradient reached an AccumulateGrad and the leaf's ``.grad`` did not change:
    ``autograd.grad`` (a Hessian-vector product, a gradient penalty) returns the gradients
    it was asked for instead of adding them into ``.grad``. A zero gradient added by
    ``backward()`` leaves ``.grad`` unchanged too, so it is not counted as captured."""
    if grad is None:
        return False
    if after is None:
        return True
    if before is None or before.shape != after.shape or not np.any(grad):
        return False
    return bool(np.array_equal(before, after, equal_nan=True))


# -- text, made when a view draws ----------------------------------------------------------


def _times(n: int, lang: str) -> str:
    return "" if n == 1 else text("twice", lang) if n == 2 else text("times", lang, n=n)


def _edge_dst(graph: Graph, edge_id: str) -> str:
    dst = next(e.dst for e in graph.edges if e.id == edge_id)
    return graph.title_of(dst)


def _targets(graph: Graph, fn, lang: str) -> str:
    names = []
    for k, (nxt, _) in enumerate(fn.next_functions):
        edge = graph.slot_edge.get((fn, k))
        if nxt is not None and edge is not None:
            names.append(_edge_dst(graph, edge))
    return text("and", lang).join(names) if names else text("nothing", lang)


def _merge_folded(steps: list[dict[str, Any]], lang: str) -> list[dict[str, Any]]:
    """Consecutive steps inside the folded part of a large graph become one step."""
    merged: list[dict[str, Any]] = []
    for step in steps:
        if step["node"] == "C0" and merged and merged[-1]["node"] == "C0":
            merged[-1]["count"] += 1
            merged[-1]["text"] = text("folded_many", lang, n=merged[-1]["count"])
            merged[-1]["edges"] += step["edges"]
            continue
        if step["node"] == "C0":
            step["count"] = 1
            step["text"] = text("folded_one", lang)
        merged.append(step)
    return merged


def predicted_walk(graph: Graph, lang: str | None = None) -> Walk:
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
            step["text"] = text("will_add", lang, node=node_label(fn), leaf=leaf)
        else:
            step["edges"] = [
                [graph.slot_edge[(fn, k)], None]
                for k in range(len(fn.next_functions))
                if (fn, k) in graph.slot_edge
            ]
            targets = _targets(graph, fn, lang)
            step["text"] = text("will_send", lang, node=node_label(fn), targets=targets)
        step["text"] = clip(step.get("text", ""), CAPTION_CHARS)
        in_edge = graph.in_edge.get(fn)
        step["in_edge"] = [in_edge, None] if in_edge else None
        walk.steps.append(step)
    walk.steps = _merge_folded(walk.steps, lang)
    return walk


def to_walk(recorded: Pass, graph: Graph, lang: str | None = None) -> Walk:
    """The steps of a recorded pass, as the browser replays them, in ``lang``."""
    steps = []
    for fn, grad, outs, before, after in recorded.events:
        box = graph.box_of.get(fn)
        if box is None:
            continue
        if box == "C0":
            steps.append({"node": box, "label": "", "in_edge": None, "edges": [], "cells": []})
            continue
        name = node_label(fn)
        step: dict[str, Any] = {"node": box, "label": name, "cells": []}
        in_edge = graph.in_edge.get(fn)
        step["in_edge"] = [in_edge, short(grad)] if in_edge else None
        if isinstance(fn, AccumulateGrad):
            leaf = graph.leaf_box[fn]
            step["cells"] = [[f"{leaf}_grad", grad_row(before), grad_row(after)]]
            step["edges"] = []
            title = graph.title_of(leaf)
            if grad is None:  # autograd.grad skipped it: no input asked for was below it
                said = text("received_none", lang, node=name)
            elif _captured(before, after, grad):
                said = text("acc_captured", lang, node=name, leaf=title, grad=short(grad),
                            before=short(before))  # fmt: skip
            elif before is None:
                said = text("acc_was_none", lang, node=name, leaf=title, after=short(after))
            else:
                said = text(
                    "acc_adds", lang, node=name, leaf=title, before=short(before),
                    grad=short(grad), after=short(after),
                )  # fmt: skip
        else:
            sent = []
            for k, out in enumerate(outs):
                edge = graph.slot_edge.get((fn, k))
                if edge is not None:
                    sent.append([edge, None if out is None else short(out)])
            step["edges"] = sent
            parts = [
                text("sent_part", lang, value=value, dst=_edge_dst(graph, e))
                for e, value in sent
                if value is not None
            ]
            said_parts = [p + _times(parts.count(p), lang) for p in dict.fromkeys(parts)]
            joined = ", ".join(said_parts) or text("nothing", lang)
            if grad is None:
                said = text("received_none", lang, node=name)
            else:
                said = text("sent", lang, node=name, grad=short(grad), parts=joined)
        step["text"] = clip(said, CAPTION_CHARS)
        steps.append(step)
    walk = Walk(predicted=False, complete=recorded.complete)
    walk.steps = _merge_folded(steps, lang)
    for step in walk.steps:
        if step["in_edge"]:
            walk.edge_text[step["in_edge"][0]] = step["in_edge"][1]
        for edge, value in step["edges"]:
            if value is not None:
                walk.edge_text[edge] = value
    return walk
