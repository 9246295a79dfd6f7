"""The walk of the everyday ``loss.backward()``: one root, arrays, no anomaly mode.

The same walk as ``engine._run``, in the same order, without the tests for what is
not there (anomaly mode, ``autograd.grad``'s capture, ``create_graph``, several
roots, ``NotImplemented`` nodes: the general walk takes those), a leaf's
``AccumulateGrad`` run as soon as it is ready without a turn through the heap (leaves
ready together in PyTorch's order, ``ready_order.py``), and a gradient handed to its node
in the heap entry (a buffer only for a node that waits for several edges): a small model's
backward is mostly per-node cost.
A layer's graph is mostly a chain (each node makes one other node ready): the node that
became ready is run next without a turn through the heap, unless the heap holds a newer
one, so the order stays the heap's (newest first). A Linear layer's weight reaches addmm
through ``W.t()``'s ``TBackward0`` (``ops/addmm.py``), which only transposes: unless someone
watches it (hooks, an observer), the walk runs it itself, in its turn, and hands W's
AccumulateGrad the product addmm's backward computed (three nodes less per step of an MLP).
``tests/test_engine_walks.py`` checks that the two walks agree.
"""

from __future__ import annotations

from heapq import heappop, heappush

import numpy as np

from .._quiet import loud, quiet
from .accumulate_grad import AccumulateGrad
from .engine import _array, observers, run_backward
from .multi_output import Gradients
from .node import Node
from .ready_order import leaves_in_turn
from .saved_values import _FREED
from .zero_grads import buffer_sum


def _run_plain(root: Node, seed: np.ndarray, retain_graph: bool) -> None:
    """``_run`` for the everyday ``loss.backward()``: one root, arrays, no anomaly mode.

    The same walk in the same order, without the tests for what is not there (anomaly
    mode, ``autograd.grad``'s capture, ``create_graph``, several roots): a small model's
    backward is mostly per-node cost, and every node would pay for each test. Observers
    (an open graph view) are served here too, so that watching costs only the watcher.
    """
    __tracebackhide__ = True  # IPython leaves this frame out of a learner's traceback
    deps: dict[Node, int] = {}  # _count_dependencies for one root, which nothing reaches
    stack = [root]
    while stack:
        for fn in stack.pop()._next:
            if fn is not None:
                if fn in deps:
                    deps[fn] += 1
                else:
                    deps[fn] = 1
                    if type(fn) is not AccumulateGrad:  # a leaf's node leads nowhere
                        if fn._asap:  # NotImplemented: it may tie with leaves, and raises
                            run_backward(((root, seed),), retain_graph)
                            return
                        stack.append(fn)
    # a gradient travels with its node: in the heap entry, or in ``leaves``; only a node
    # that waits for several edges keeps a buffer until the last one has delivered
    buffers: dict[Node, np.ndarray] = {}
    ready: list = []  # (-sequence number, node, gradient): the newest first
    node, grad = root, seed
    leaves: list = []  # (AccumulateGrad, gradient) ready: run at once, off the heap
    outputs = False  # an OutputEdge was queued (ready_order.py then counts PyTorch's queue)
    watchers = tuple(observers) if observers else ()  # none: the usual pass, no loops
    notify = []
    if watchers:
        for w in watchers:
            w.on_backward_begin([root])
        # looked up once per pass: (on_node, the nodes it wants or None for all); an
        # observer that wants none of this pass's nodes now is left out (a training step
        # under an open view): one set operation instead of a lookup per node
        for w in watchers:
            nodes = getattr(w, "nodes", None)
            if nodes is None or root in nodes or not _disjoint(nodes, deps):
                notify.append((w.on_node, nodes))
    token = quiet()  # no numpy warnings for inf and nan, as in PyTorch (minigrad/_quiet.py)
    try:
        while True:
            if grad is None:
                if node._hooked:
                    node._hooks_on_none()
                outs = node._run_without_grad()  # PyTorch runs it: saved values are checked
            else:
                if node._hooked:
                    grad = node._run_hooks(grad)
                outs = node._run(grad)
            if not retain_graph and node._saved is not None:
                node._saved = _FREED  # what forward saved is gone: a second pass must fail
            if notify and node._owner is None:  # arrays already: seen as they are
                for on_node, nodes in notify:
                    if nodes is None or node in nodes:
                        outs = outs if type(outs) is tuple else tuple(outs)
                        on_node(node, grad if type(grad) is not Gradients else _array(grad), outs)
            follow = past = None  # a node this one made ready, kept off the heap
            nexts = node._next
            # Linear's addmm: W.t()'s TBackward0, run below with no turn (len() first: less
            # than looking _past_t up on every other node)
            if (
                len(nexts) == 3
                and (t := node._past_t) is not None
                and not notify
                and grad is not None
            ):
                w = t._next[0]  # W's AccumulateGrad, unless W is shared or not a leaf
                if (
                    not t._hooked
                    and t._post_hooks is None
                    and node._post_hooks is None  # (its hooks may replace T's gradient)
                    and type(w) is AccumulateGrad
                    and deps[t] == 1  # the last edge to each, none before it: only the
                    and deps[w] == 1  # gradient of this edge (a double backward's graph
                    and not (buffers and (t in buffers or w in buffers))  # may use T too)
                ):
                    nexts, past = nexts[:2], outs[2]
            for fn, g in zip(nexts, outs):
                if fn is None:
                    continue
                count = deps[fn] - 1
                if count:  # more edges to come: the sum so far waits in its buffer
                    deps[fn] = count
                    if g is not None:
                        old = buffers.get(fn)
                        buffers[fn] = g if old is None else buffer_sum(old, g)
                    continue
                deps[fn] = 0  # queued (ready_order.py reads it)
                if buffers and fn in buffers:  # the last of several edges
                    old = buffers.pop(fn)
                    g = old if g is None else buffer_sum(old, g)
                if type(fn) is AccumulateGrad:
                    leaves.append((fn, g))
                elif follow is None:
                    follow, follow_grad = fn, g
                elif fn._seq > follow._seq:  # the newer runs next, the older waits its turn
                    heappush(ready, (-follow._seq, follow, follow_grad))
                    outputs = outputs or follow._owner is not None
                    follow, follow_grad = fn, g
                else:
                    heappush(ready, (-fn._seq, fn, g))
                    outputs = outputs or fn._owner is not None
            # Let go of this node's gradients: an AccumulateGrad may then own one uncopied.
            grad = outs = g = None
            if leaves:  # what the heap would pop next: these (their priority)
                if len(leaves) == 2:  # of two, the first queued always runs first
                    leaves.reverse()
                elif len(leaves) > 2:  # in PyTorch's order (ready_order.py)
                    leaves = _in_turn(node._next, leaves, ready, follow, deps, outputs)
                while leaves:
                    fn, grad = leaves.pop()  # the list lets go: ``grad`` is ours alone
                    if grad is None:
                        if fn._hooked:
                            fn._hooks_on_none()
                    else:
                        if fn._hooked:
                            grad = fn._run_hooks(grad)
                        fn._run(grad)
                    if notify:
                        for on_node, nodes in notify:
                            if nodes is None or fn in nodes:
                                on_node(fn, grad, ())
                    grad = None
            if past is not None:  # T: next, unless a newer node is ready (the heap's or
                # ``follow``: an input's node made while addmm was recorded), or a leaf's hook
                # has just put a hook on T (then T runs in the heap's turn, with its hooks)
                if (
                    (ready and -ready[0][0] > t._seq)
                    or (follow is not None and follow._seq > t._seq)
                    or t._hooked
                    or t._post_hooks is not None
                ):
                    heappush(ready, (-t._seq, t, past))
                else:  # T's run: W.t()'s gradient is X.T for a new product X (Addmm's
                    grad = past.base  # backward), W's gradient X.T.T, which is X itself,
                    if grad.strides != w.variable._data.strides:  # unless W's layout changed
                        grad = past.T  # since forward: then as T hands it (copied below)
                    past = None
                    if w._hooked:
                        grad = w._run_hooks(grad)
                    w._run(grad)
                    grad = None
            if follow is not None:  # next, unless the heap holds a newer node
                if ready and -ready[0][0] > follow._seq:
                    heappush(ready, (-follow._seq, follow, follow_grad))
                    outputs = outputs or follow._owner is not None
                    _, node, grad = heappop(ready)
                else:
                    node, grad = follow, follow_grad
                follow = follow_grad = None
            elif ready:
                _, node, grad = heappop(ready)
            else:
                break
    finally:
        loud(token)
        if watchers:
            for w in watchers:
                w.on_backward_end()


def _disjoint(nodes, deps: dict) -> bool:
    """No node below the root (``deps``) is named: a set operation over the smaller side."""
    return deps.keys().isdisjoint(nodes.keys() if isinstance(nodes, dict) else nodes)


def _in_turn(edges: tuple, leaves: list, ready: list, follow, deps: dict, outputs: bool) -> list:
    """``leaves`` (pairs) in PyTorch's order, the first to run last: ``follow`` is off the
    heap. (Linear's ``T``, when the walk runs it, is addmm's last edge, after its two
    possible leaves: a node queued after two leaves never changes their order.)"""
    grads = dict(leaves)
    off_heap = 0 if follow is None else 1
    order = leaves_in_turn(edges, [fn for fn, _ in leaves], ready, deps, off_heap, outputs)
    return [(fn, grads[fn]) for fn in reversed(order)]
