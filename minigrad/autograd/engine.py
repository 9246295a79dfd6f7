"""The backward pass: an iterative walk of the graph in dependency order.

``run_backward`` first counts, for every node reachable from the roots, how many
edges point at it; a node becomes ready when all of them have delivered their
gradient. Among ready nodes the most recently created runs first (PyTorch's
rule), and a leaf's AccumulateGrad runs as soon as it is ready. Each node gets
the sum of the gradients sent to it, runs its backward, and passes one gradient
along each edge. It is a loop with an explicit heap, never recursion, so a
100,000-op chain is fine.

With ``create_graph=True`` the same walk passes Tensors instead of arrays, with
grad mode on: each node's backward (``node._run_graph``) records the operations
it makes, so the gradients that come out are in a graph of their own and can
be differentiated again (see ``minigrad/ops/namespace.py``).

The everyday ``loss.backward()`` (one root, arrays, no anomaly mode) takes
``_run_plain``: the same walk in the same order, without the tests for options it
does not use, and a leaf's ``AccumulateGrad`` run as soon as it is ready without a
turn through the heap. A small model's backward is mostly this per-node cost.

``execution_order`` is the same walk with no gradients (nothing runs), so the
order it predicts is the order backward uses. Observers
(``minigrad.autograd.graph``) can follow every step of a real pass; that is the
seam the graph widget uses, and the engine knows nothing else about it.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from heapq import heapify, heappop, heappush

import numpy as np

from .._quiet import loud, quiet
from ..tensor import Tensor, new_tensor
from .anomaly_mode import check_nan, report_failure
from .anomaly_mode import state as anomaly
from .grad_mode import set_grad_enabled
from .multi_output import Gradients
from .node import _FREED, AccumulateGrad, Node, accumulator_of
from .views import view_history

__all__ = ["backward", "grad", "execution_order", "run_backward", "observers"]

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
            buffers[node] = g if node not in buffers else buffers[node] + g
    deps = _count_dependencies(start)
    ready = [(-node._seq, node) for node in start if node not in deps]
    heapify(ready)
    captured: list = [None] * len(capture) if capture else []
    needed = _reaching(start, capture) if capture else None
    watchers = tuple(observers) if order is None else ()
    for w in watchers:
        w.on_backward_begin(start)
    nan_check = anomaly.enabled and anomaly.check_nan
    node = None
    token = quiet()  # no numpy warnings for inf and nan, as in PyTorch (minigrad/_quiet.py)
    try:
        while ready:
            node = heappop(ready)[1]
            if order is not None and node._owner is None:  # not an OutputEdge: a node
                order.append(node)
            grad = buffers.pop(node, None)
            if needed is not None and node not in needed:
                grad = None  # its gradients reach none of the inputs: not run
            elif grad is None and node._hooked:
                node._hooks_on_none()
            if grad is None:
                outs = (None,) * len(node._next)
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
                    buffers[fn] = g if old is None else old + g
                count = deps[fn] - 1
                if count:
                    deps[fn] = count
                else:
                    heappush(ready, (-fn._seq, fn))
            # Let go of this node's gradients: an AccumulateGrad may then own one uncopied.
            grad = outs = g = None
    except Exception:
        if anomaly.enabled and node is not None:
            report_failure(node)
        raise
    finally:
        loud(token)
        for w in watchers:
            w.on_backward_end()
    return captured


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
                    stack.append(fn)
    buffers: dict[Node, np.ndarray] = {}
    ready = [(0, root)]
    leaves: list[AccumulateGrad] = []  # ready AccumulateGrads: they run at once, off the heap
    watchers = tuple(observers)
    for w in watchers:
        w.on_backward_begin([root])
    # looked up once per pass: (on_node, the nodes it wants or None for all); an observer
    # that wants none of this pass's nodes now is left out (a training step under an open
    # view): one set operation instead of a lookup per node
    notify = []
    for w in watchers:
        nodes = getattr(w, "nodes", None)
        if nodes is None or root in nodes or not _disjoint(nodes, deps):
            notify.append((w.on_node, nodes))
    token = quiet()  # no numpy warnings for inf and nan, as in PyTorch (minigrad/_quiet.py)
    try:
        grad = seed
        while True:
            node = heappop(ready)[1]
            if node is not root:
                grad = buffers.pop(node, None)
            if grad is None:
                if node._hooked:
                    node._hooks_on_none()
                outs = (None,) * len(node._next)
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
            for fn, g in zip(node._next, outs):
                if fn is None:
                    continue
                if g is not None:
                    old = buffers.get(fn)
                    buffers[fn] = g if old is None else old + g
                count = deps[fn] - 1
                if count:
                    deps[fn] = count
                elif type(fn) is AccumulateGrad:
                    leaves.append(fn)
                else:
                    heappush(ready, (-fn._seq, fn))
            # Let go of this node's gradients: an AccumulateGrad may then own one uncopied.
            grad = outs = g = None
            if leaves:  # what the heap would pop next: these, newest first (their priority)
                if len(leaves) > 1:
                    leaves.sort(key=_seq_of, reverse=True)
                for fn in leaves:
                    grad = buffers.pop(fn, None)
                    if grad is None:
                        if fn._hooked:
                            fn._hooks_on_none()
                    else:
                        if fn._hooked:
                            grad = fn._run_hooks(grad)
                        fn._run(grad)
                    for on_node, nodes in notify:
                        if nodes is None or fn in nodes:
                            on_node(fn, grad, ())
                    grad = None
                leaves.clear()
            if not ready:
                break
    finally:
        loud(token)
        for w in watchers:
            w.on_backward_end()


def _disjoint(nodes, deps: dict) -> bool:
    """No node below the root (``deps``) is named: a set operation over the smaller side."""
    return deps.keys().isdisjoint(nodes.keys() if isinstance(nodes, dict) else nodes)


def _seq_of(node: Node) -> int:
    return node._seq


def _array(g):
    """What observers see of a gradient: an array (or, for a multi-output node, a tuple)."""
    if type(g) is Gradients:
        return tuple([_array(x) for x in g.grads])
    return g._data if isinstance(g, Tensor) else g


def _arrays(outs: tuple) -> tuple:
    """What observers and the nan check see under ``create_graph``: the arrays."""
    return tuple([_array(g) for g in outs])


def _root_node(t: Tensor, i: int) -> Node:
    fn = t._grad_fn if t._base is None else view_history(t)  # as grad_fn reads it
    if fn is not None:
        return fn
    if t._requires_grad:
        return accumulator_of(t)
    raise RuntimeError(f"element {i} of tensors does not require grad and does not have a grad_fn")


def _root_grads(
    tensors: Sequence[Tensor], grads: Sequence | None, create_graph: bool = False
) -> list:
    """The starting gradients: ones for scalars, else the ones given, shape-checked.

    Under ``create_graph`` they are Tensors, and a given one keeps its own graph.
    """
    result = []
    for i, t in enumerate(tensors):
        g = None if grads is None else grads[i]
        if g is None:
            if t._data.size != 1:
                raise RuntimeError("grad can be implicitly created only for scalar outputs")
            ones = np.ones(t._data.shape, t._data.dtype)
            result.append(new_tensor(ones) if create_graph else ones)
            continue
        if not isinstance(g, Tensor):
            g = new_tensor(np.asarray(g, dtype=t._data.dtype))
        if g._data.shape != t._data.shape:
            raise RuntimeError(
                f"Mismatch in shape: grad_output[{i}] has a shape of {g.shape} and "
                f"output[{i}] has a shape of {t.shape}."
            )
        if create_graph:
            result.append(g if g._data.dtype == t._data.dtype else g.to(t.dtype))
        else:
            result.append(g._data.astype(t._data.dtype, copy=False))
    return result


def _as_tuple(x) -> tuple:
    if x is None:
        return ()
    return (x,) if isinstance(x, Tensor) else tuple(x)


def tensor_backward(
    t: Tensor,
    gradient=None,
    retain_graph: bool | None = None,
    create_graph: bool = False,
    inputs=None,
) -> None:
    """``t.backward()``: the common case (a scalar, no options) takes the short way."""
    __tracebackhide__ = True  # IPython leaves this frame out of a learner's traceback
    plain = t._grad_fn is not None and t._base is None  # a view's history may be out of date
    if gradient is None and inputs is None and not create_graph and plain:
        data = t._data
        if data.size != 1:
            raise RuntimeError("grad can be implicitly created only for scalar outputs")
        seed = np.array(1, data.dtype)  # np.ones costs five times more on this hot path
        if data.ndim:
            seed = seed.reshape(data.shape)
        if anomaly.enabled:
            run_backward(((t._grad_fn, seed),), bool(retain_graph))
        else:
            _run_plain(t._grad_fn, seed, bool(retain_graph))
        return
    backward(
        (t,), None if gradient is None else (gradient,), retain_graph, create_graph, inputs=inputs
    )


_warned: list = []


def _warn_reference_cycle() -> None:
    """PyTorch's warning (once per process) for ``.backward(create_graph=True)``."""
    if not _warned:
        _warned.append(True)
        warnings.warn(
            "Using backward() with create_graph=True will create a reference cycle between the "
            "parameter and its gradient which can cause a memory leak. We recommend using "
            "autograd.grad when creating the graph to avoid this. If you have to use this "
            "function, make sure to reset the .grad fields of your parameters to None after use "
            "to break the cycle and avoid the leak.",
            UserWarning,
            stacklevel=4,
        )


def backward(
    tensors,
    grad_tensors=None,
    retain_graph: bool | None = None,
    create_graph: bool = False,
    inputs=None,
) -> None:
    """Accumulate the gradients of ``tensors`` into the leaves' ``.grad``."""
    __tracebackhide__ = True  # IPython leaves this frame out of a learner's traceback
    tensors = _as_tuple(tensors)
    if create_graph:
        _warn_reference_cycle()
    if grad_tensors is not None:
        grad_tensors = _as_tuple(grad_tensors)
    roots = [_root_node(t, i) for i, t in enumerate(tensors)]
    grads = _root_grads(tensors, grad_tensors, create_graph)
    keep = create_graph if retain_graph is None else bool(retain_graph)
    if inputs is None:
        run_backward(list(zip(roots, grads)), keep, create_graph=create_graph)
        return
    inputs = _as_tuple(inputs)
    if not inputs:
        raise RuntimeError("`inputs` argument to `backward()` cannot be empty.")
    found = _captured_grads(roots, grads, inputs, keep, True, create_graph)
    done: set[int] = set()
    for t, g in zip(inputs, found):
        if g is not None and id(t) not in done:
            done.add(id(t))
            acc = AccumulateGrad(t)
            acc._run_graph(g) if create_graph else acc._run(g)


def _captured_grads(roots, grads, inputs, keep, allow_unused, create_graph=False) -> list:
    capture: dict[Node, int] = {}
    where = []  # the same tensor may be asked for twice: one capture, two answers
    for t in inputs:
        if not isinstance(t, Tensor):
            raise TypeError(f"inputs must be Tensors, not {type(t).__name__}")
        if not t._requires_grad:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
        node = t._grad_fn if t._grad_fn is not None else accumulator_of(t)
        where.append(capture.setdefault(node, len(capture)))
    found = run_backward(list(zip(roots, grads)), keep, capture, create_graph=create_graph)
    found = [found[j] for j in where]
    if not allow_unused:
        for i, g in enumerate(found):
            if g is None:
                raise RuntimeError(
                    f"The differentiated Tensor at index {i} appears to not have been used in "
                    "the graph. Set allow_unused=True if this is the desired behavior."
                )
    return found


def grad(
    outputs,
    inputs,
    grad_outputs=None,
    retain_graph: bool | None = None,
    create_graph: bool = False,
    allow_unused: bool | None = None,
    materialize_grads: bool = False,
) -> tuple[Tensor | None, ...]:
    """Return the gradients of ``outputs`` with respect to ``inputs``; ``.grad`` untouched.

    With ``create_graph=True`` the gradients are in a graph (they have a grad_fn when
    anything they depend on requires grad) and can be differentiated again;
    ``retain_graph`` then defaults to True.
    """
    __tracebackhide__ = True  # IPython leaves this frame out of a learner's traceback
    outputs = _as_tuple(outputs)
    inputs = _as_tuple(inputs)
    if not inputs:
        raise RuntimeError("`inputs` argument to `grad()` cannot be empty.")
    if grad_outputs is not None:
        grad_outputs = _as_tuple(grad_outputs)
    roots = [_root_node(t, i) for i, t in enumerate(outputs)]
    grads = _root_grads(outputs, grad_outputs, create_graph)
    if materialize_grads and allow_unused is False:
        raise ValueError(
            "Expected allow_unused to be True or not passed when materialize_grads=True, "
            "but got: allow_unused=False."
        )
    allow = bool(allow_unused) or materialize_grads
    keep = create_graph if retain_graph is None else bool(retain_graph)
    found = _captured_grads(roots, grads, inputs, keep, allow, create_graph)
    result = []
    for t, g in zip(inputs, found):
        if g is None:
            zeros = new_tensor(np.zeros_like(t._data), None, create_graph)  # as PyTorch
            result.append(zeros if materialize_grads else None)
        elif create_graph:
            result.append(g if g._data.dtype == t._data.dtype else g.to(t.dtype))
        else:
            result.append(new_tensor(g.astype(t._data.dtype, copy=False)))
    return tuple(result)
