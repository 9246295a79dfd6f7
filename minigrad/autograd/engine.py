"""The backward pass: an iterative walk of the graph in dependency order.

``run_backward`` first counts, for every node reachable from the roots, how many
edges point at it; a node becomes ready when all of them have delivered their
gradient. Among ready nodes the most recently created runs first (PyTorch's
rule), and a leaf's AccumulateGrad runs as soon as it is ready (leaves ready
together in PyTorch's order: ``ready_order.py``). Each node gets
the sum of the gradients sent to it, runs its backward, and passes one gradient
along each edge. It is a loop with an explicit heap, never recursion, so a
100,000-op chain is fine.

With ``create_graph=True`` the same walk passes Tensors instead of arrays, with
grad mode on: each node's backward (``node._run_graph``) records the operations
it makes, so the gradients that come out are in a graph of their own and can
be differentiated again (see ``minigrad/ops/namespace.py``).

The everyday ``loss.backward()`` (one root, arrays, no anomaly mode) takes
``_run_plain`` (``plain_walk.py``): the same walk in the same order, without the
tests for options it does not use, and a leaf's ``AccumulateGrad`` run as soon as
it is ready without a turn through the heap. A small model's backward is mostly
this per-node cost. The calls that start a walk, ``backward()``, ``grad()`` and
``tensor.backward()``, check their arguments in ``backward_api.py``.

``execution_order`` is the same walk with no gradients (nothing runs), so the
order it predicts is the order backward uses. Observers
(``minigrad.autograd.graph``) can follow every step of a real pass; that is the
seam the graph widget uses, and the engine knows nothing else about it.
"""

from __future__ import annotations

from collections.abc import Sequence
from heapq import heapify, heappop, heappush

import numpy as np

from .._quiet import loud, quiet
from ..tensor import Tensor
from .accumulate_grad import AccumulateGrad
from .anomaly_mode import check_nan, report_failure
from .anomaly_mode import state as anomaly
from .grad_mode import set_grad_enabled
from .multi_output import Gradients
from .node import Node
from .ready_order import leaves_in_turn
from .saved_values import _FREED
from .zero_grads import buffer_sum

__all__ = ["execution_order", "run_backward", "observers"]


observers: list = []  # see minigrad.autograd.graph.register_backward_observer


def _count_dependencies(roots: Sequence[Node]) -> dict[Node, int]:
    """How many edges point at each node reachable from ``roots``; each node is walked once
    (a root that another root reaches, as ``z = f(y)`` in ``backward([y, z])``, too)."""
    deps: dict[Node, int] = {}
    stack = list(roots)
    walked = set(stack)  # the roots are on the stack already
    while stack:
        for fn in stack.pop()._next:
            if fn is not None:
                count = deps.get(fn)
                if count is None:
                    deps[fn] = 1
                    if fn not in walked:
                        stack.append(fn)
                else:
                    deps[fn] = count + 1
    return deps


def _reaching(roots: Sequence[Node], targets: dict[Node, int]) -> set[Node]:
    """The nodes below ``roots`` from which a ``targets`` node can be reached.

    ``autograd.grad`` runs only those (as PyTorch does): a node whose gradients can
    reach none of the inputs asked for is skipped, its hooks and backward included.
    A depth-first walk without recursion: a node is decided once all below it are.
    """
    needed: set[Node] = set()
    walked: set[Node] = set()
    stack: list = [(node, False) for node in roots]
    while stack:
        node, below_done = stack.pop()
        if below_done:
            if node in targets or any(fn in needed for fn in node._next):
                needed.add(node)
            continue
        if node in walked:
            continue
        walked.add(node)
        stack.append((node, True))
        stack.extend([(fn, False) for fn in node._next if fn is not None and fn not in walked])
    return needed


def execution_order(roots: Sequence[Node]) -> list[Node]:
    """The nodes reachable from ``roots`` in the order backward runs them."""
    order: list[Node] = []
    run_backward([(node, None) for node in roots], True, order=order)
    return order


def run_backward(
    roots: Sequence[tuple[Node, np.ndarray | None]],
    retain_graph: bool,
    capture: dict[Node, int] | None = None,
    order: list | None = None,
    create_graph: bool = False,
) -> list:
    """Propagate gradients from ``roots`` (node, gradient) pairs through the graph.

    Without ``capture`` the gradients end in the leaves' ``.grad``. With it
    (``autograd.grad``), the gradient arriving at each captured node is returned
    instead and no leaf is touched. ``order``, if given, collects the nodes in
    the order they run. With ``create_graph`` the gradients are Tensors.
    """
    __tracebackhide__ = True  # IPython leaves this frame out of a learner's traceback
    if create_graph:
        with set_grad_enabled(True):
            return _run(roots, retain_graph, capture, order, True)
    return _run(roots, retain_graph, capture, order, False)


def _run(roots, retain_graph, capture, order, graph: bool) -> list:
    __tracebackhide__ = True  # IPython leaves this frame out of a learner's traceback
    buffers: dict[Node, np.ndarray] = {}
    start: list[Node] = []
    for node, g in roots:
        if node not in start:
            start.append(node)
        if g is not None:
            buffers[node] = g if node not in buffers else buffer_sum(buffers[node], g)
    deps = _count_dependencies(start)
    captured: list = [None] * len(capture) if capture else []
    needed = _reaching(start, capture) if capture else None
    # queued: marked deps[node] = 0 (ready_order.py reads it); like PyTorch, autograd.grad
    # queues only the nodes whose gradients reach an input asked for
    ready = [(-n._seq, n) for n in start if n not in deps and (needed is None or n in needed)]
    outputs = False  # an OutputEdge was queued (ready_order.py then counts PyTorch's queue)
    for _, node in ready:
        deps[node] = 0
        outputs = outputs or node._owner is not None
    # leaves (and NotImplemented nodes) ready together run first, in PyTorch's order
    # (ready_order.py); in ``leaves`` the last runs first
    leaves = [node for _, node in ready if node._asap]
    if leaves:
        ready = [entry for entry in ready if not entry[1]._asap]
        if len(leaves) > 1:
            edges = [node for node, _ in roots]
            leaves = leaves_in_turn(edges, leaves, ready, deps, 0, outputs)
        leaves.reverse()
    heapify(ready)
    watchers = tuple(observers) if order is None else ()
    for w in watchers:
        w.on_backward_begin(start)
    nan_check = anomaly.enabled and anomaly.check_nan
    node = None
    token = quiet()  # no numpy warnings for inf and nan, as in PyTorch (minigrad/_quiet.py)
    try:
        while ready or leaves:
            node = leaves.pop() if leaves else heappop(ready)[1]
            if order is not None and node._owner is None:  # not an OutputEdge: a node
                order.append(node)
            grad = buffers.pop(node, None)
            if grad is None and order is None:  # (a prediction runs no hook)
                if node._hooked:
                    node._hooks_on_none()
                if node._raises:  # NotImplemented: PyTorch's raises even with no gradient
                    node._run(grad)
            if grad is None:  # PyTorch runs it (its saved values are checked)
                outs = node._run_without_grad(graph) if order is None else (None,) * len(node._next)
            else:
                if node._hooked:
                    grad = node._run_hooks(grad)
                if capture is None:
                    outs = node._run_graph(grad) if graph else node._run(grad)
                else:
                    if node in capture:
                        captured[capture[node]] = grad
                    if type(node) is AccumulateGrad:
                        outs = ()
                    else:
                        outs = node._run_graph(grad) if graph else node._run(grad)
                if nan_check and node._owner is None:
                    check_nan(node, _arrays(outs) if graph else outs)
            if not retain_graph and node._saved is not None:
                node._saved = _FREED  # what forward saved is gone: a second pass must fail
            if watchers and node._owner is None:
                seen = (_array(grad), _arrays(outs))
                for w in watchers:
                    w.on_node(node, *seen)
            for fn, g in zip(node._next, outs):
                if fn is None:
                    continue
                if g is not None:
                    old = buffers.get(fn)
                    buffers[fn] = g if old is None else buffer_sum(old, g)
                count = deps[fn] - 1
                if count:
                    deps[fn] = count
                elif needed is not None and fn not in needed:
                    continue  # not queued: its gradients reach no input asked for
                elif fn._asap:
                    deps[fn] = 0
                    leaves.append(fn)
                else:
                    deps[fn] = 0
                    heappush(ready, (-fn._seq, fn))
                    if fn._owner is not None:
                        outputs = True
            if len(leaves) > 1 and not node._asap:  # all of them this node's
                if len(leaves) > 2:  # (of two, the first queued always runs first)
                    leaves = leaves_in_turn(node._next, leaves, ready, deps, 0, outputs)
                leaves.reverse()
            # Let go of this node's gradients (and of what the observers were shown): an
            # AccumulateGrad may then own one uncopied, with a view open or not.
            grad = outs = g = seen = None
        if watchers and needed is not None:
            _show_unqueued(watchers, deps, start, needed)
    except Exception:
        if anomaly.enabled and node is not None:
            report_failure(node)
        raise
    finally:
        loud(token)
        for w in watchers:
            w.on_backward_end()
    return captured


def _show_unqueued(watchers: tuple, deps: dict, start: list, needed: set) -> None:
    """The nodes ``autograd.grad`` did not queue (their gradients reach no input asked for):
    the observers see them after the pass, newest first, as nodes that received nothing."""
    skipped = [n for n in (*deps, *start) if n not in needed and n._owner is None]
    for node in sorted(set(skipped), key=lambda n: -n._seq):
        for w in watchers:
            w.on_node(node, None, (None,) * len(node._next))


def _array(g):
    """What observers see of a gradient: an array (or, for a multi-output node, a tuple)."""
    if type(g) is Gradients:
        return tuple([_array(x) for x in g.grads])
    return g._data if isinstance(g, Tensor) else g


def _arrays(outs: tuple) -> tuple:
    """What observers and the nan check see under ``create_graph``: the arrays."""
    return tuple([_array(g) for g in outs])
