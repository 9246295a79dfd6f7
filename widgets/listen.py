"""One listener for every open view: what the engine calls, and what it costs.

The engine calls each registered observer at every node of every backward
pass (``minigrad.autograd.graph``). With one observer per view, a notebook
whose cell was re-run thirty times would pay thirty calls per node of every
training step, and each view would copy and format gradients nobody looks at.
So the widgets register *one* observer, the ``_Hub``, and only while some view
listens; the views whose graph a pass goes through are told at the end of the
pass, with what it recorded.

Which passes a view records: a pass that starts in its graph, or that runs
one of its graph's backward ops (a bigger graph built on top of it). The hub
names the nodes it wants (``nodes``): the views' *ops*, which a training loop
never runs again (each step builds a new graph). Their leaves'
``AccumulateGrad`` nodes are shared by every graph of the same parameters, so
they are named only while a pass records: the next step of a training loop
costs the hub two calls (begin and end) and the engine one set operation per
pass (``nodes`` and the pass share no node), however many views are open. A
pass from outside the graph is recorded from the first of the view's ops it
runs: those ops, and the accumulations they feed (an accumulation that only
the outside part of the pass reaches is not the view's; it may even run before
any of the view's ops).

Nothing here keeps a view alive: a subscription holds its owner weakly and
ends when the owner is collected (``weakref.finalize``), closed, or hidden
(``Subscription.remove()``). When the last one ends, the hub unregisters and
backward runs exactly as without widgets.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable
from typing import Any

from minigrad.autograd.graph import AccumulateGrad, register_backward_observer

from .graph import Graph
from .walk import Pass, Recorder

__all__ = ["subscribe", "Subscription", "listening"]


class Subscription:
    """One view's interest in the passes through one graph."""

    def __init__(self, owner: Any, graph: Graph, done: str, failed: str) -> None:
        self._owner = weakref.ref(owner)
        self._done, self._failed = done, failed
        self.graph = graph
        # The backward nodes of its graph: ops (only this graph runs them) and accumulators
        # (shared by every graph of the same leaves: a training loop's next step runs them).
        self.ops = [fn for fn in graph.box_of if type(fn) is not AccumulateGrad]
        self.accumulators = [fn for fn in graph.box_of if type(fn) is AccumulateGrad]
        self.alive = True
        self._finalizer = weakref.finalize(owner, _HUB.remove, self)

    def remove(self) -> None:
        """Stop listening (idempotent)."""
        self._finalizer.detach()
        _HUB.remove(self)

    def deliver(self, recorded: Pass | None, error: BaseException | None) -> None:
        owner = self._owner()
        if owner is None:
            _HUB.remove(self)
            return
        if recorded is not None:
            try:
                getattr(owner, self._done)(recorded)
            except Exception as problem:  # shown by the owner, never raised into backward()
                error = problem
        if error is not None:
            try:
                getattr(owner, self._failed)(error)
            except Exception:
                pass


class _PassState:
    """One running pass: who records it, the accumulators it named, problems met."""

    __slots__ = ("recording", "named", "errors")

    def __init__(self) -> None:
        self.recording: dict[Subscription, Recorder] = {}
        self.named: list = []  # AccumulateGrad nodes added to the hub's `nodes` for this pass
        self.errors: dict[Subscription, BaseException] = {}


class _Hub:
    """The single observer the engine calls while at least one view listens.

    The state of a pass lives on a per-thread stack: passes in two threads (a
    training loop and an evaluation thread), or a pass inside a hook of another,
    are recorded apart.
    """

    def __init__(self) -> None:
        self.subs: list[Subscription] = []
        self.index: dict[Any, list[Subscription]] = {}  # backward node -> who shows it
        # What the engine calls on_node for (graph.py; it may call it for others too): the
        # views' ops, and the accumulators of the graphs a running pass records -> how many
        # reasons it has to be there.
        self.nodes: dict[Any, int] = {}
        self.handle = None
        self._local = threading.local()
        self.on_node = self._make_on_node()

    def _make_on_node(self) -> Callable:
        """``on_node`` as a closure over the index: the engine may call it for every node
        of every pass, so it does one dict lookup and returns, with no attribute lookups."""
        find, local, accumulate = self.index.get, self._local, AccumulateGrad

        def on_node(node, grad, outs) -> None:
            subs = find(node)
            if subs is None:  # the usual case
                return
            stack = getattr(local, "stack", None)
            if not stack:
                return
            state = stack[-1]
            if type(node) is accumulate:  # shared by every graph of the same parameters
                if state is not None and state.recording:
                    for sub, recorder in state.recording.items():
                        if node in sub.graph.box_of:
                            self._guard(state, sub, recorder.node, node, grad, outs)
                return
            if state is None:
                state = stack[-1] = _PassState()
            for sub in list(subs):
                recorder = state.recording.get(sub)
                if recorder is None:
                    recorder = self._start(state, sub, False)
                if recorder is not None:
                    self._guard(state, sub, recorder.node, node, grad, outs)

        return on_node

    # -- subscriptions ---------------------------------------------------------------------

    def add(self, sub: Subscription) -> None:
        self.subs.append(sub)
        for fn in sub.graph.box_of:
            self.index.setdefault(fn, []).append(sub)
        self._name(sub.ops)
        if self.handle is None:
            self.handle = register_backward_observer(self)

    def remove(self, sub: Subscription) -> None:
        if not sub.alive:
            return
        sub.alive = False
        if sub in self.subs:
            self.subs.remove(sub)
        for fn in sub.graph.box_of:
            subs = self.index.get(fn)
            if subs is not None and sub in subs:
                subs.remove(sub)
                if not subs:
                    del self.index[fn]
        self._unname(sub.ops)
        if not self.subs and self.handle is not None:
            self.handle.remove()
            self.handle = None

    def _name(self, fns: list) -> None:
        nodes = self.nodes
        for fn in fns:
            nodes[fn] = nodes.get(fn, 0) + 1

    def _unname(self, fns: list) -> None:
        nodes = self.nodes
        for fn in fns:
            count = nodes.get(fn, 0) - 1
            if count > 0:
                nodes[fn] = count
            else:
                nodes.pop(fn, None)

    # -- the engine's calls ----------------------------------------------------------------

    def on_backward_begin(self, roots: list) -> None:
        state = None  # made when first needed: most passes never need one
        index = self.index
        for root in roots:
            subs = index.get(root)
            if subs:
                for sub in subs:
                    if state is None:
                        state = _PassState()
                    if sub not in state.recording:
                        self._start(state, sub, True)
        try:
            self._local.stack.append(state)
        except AttributeError:  # this thread's first pass
            self._local.stack = [state]

    def on_backward_end(self) -> None:
        stack = getattr(self._local, "stack", None)
        if not stack:
            return
        state = stack.pop()
        if state is None:
            return
        self._unname(state.named)
        if not (state.recording or state.errors):
            return
        for sub, recorder in state.recording.items():
            recorded = None
            try:
                recorded = recorder.finish()
            except Exception as error:
                state.errors.setdefault(sub, error)
            sub.deliver(recorded, state.errors.get(sub))
        for sub, error in state.errors.items():
            if sub not in state.recording:
                sub.deliver(None, error)

    def _start(self, state: _PassState, sub: Subscription, complete: bool) -> Recorder | None:
        try:
            recorder = state.recording[sub] = Recorder(sub.graph, complete)
        except Exception as error:
            state.errors.setdefault(sub, error)
            return None
        self._name(sub.accumulators)  # reported for the rest of the pass
        state.named += sub.accumulators
        return recorder

    def _guard(self, state: _PassState, sub: Subscription, call: Callable, *args: Any) -> None:
        """Never let a recording problem break the learner's backward()."""
        try:
            call(*args)
        except Exception as error:
            state.errors.setdefault(sub, error)


_HUB = _Hub()


def subscribe(
    owner: Any, graph: Graph, done: str = "_on_pass", failed: str = "_on_error"
) -> Subscription:
    """Record every pass through ``graph``; call ``owner.<done>(pass)`` after each.

    ``owner`` is held weakly. A problem while recording or drawing goes to
    ``owner.<failed>(error)``, never into the learner's ``backward()``.
    """
    sub = Subscription(owner, graph, done, failed)
    _HUB.add(sub)
    return sub


def listening() -> int:
    """How many subscriptions are live (what the tests and the benchmark count)."""
    return len(_HUB.subs)
