"""``backward()``, ``grad()`` and ``tensor.backward()``: the calls that start the engine.

They check their arguments as PyTorch does (its error messages), find the root nodes
and their starting gradients, and run a walk (``engine.py``; the everyday
``loss.backward()`` takes the plain walk of ``plain_walk.py``).
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence

import numpy as np

from ..tensor import Tensor, new_tensor
from .accumulate_grad import AccumulateGrad, accumulator_of
from .anomaly_mode import state as anomaly
from .engine import run_backward
from .node import Node
from .plain_walk import _run_plain
from .views import view_history

__all__ = ["backward", "grad", "tensor_backward"]


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
        one = _ONE.get(data.dtype)  # a copy of a 1 made once: np.ones costs five times
        if one is None:  # more on this hot path, np.array(1, dtype) a third more
            one = _ONE[data.dtype] = np.array(1, data.dtype)
        seed = one.copy()
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


_ONE: dict = {}  # dtype: a 0-d 1, never handed out itself (backward's seed is a copy)
_warned = False  # the warning below was given (tests reset it to see it again)


def _warn_reference_cycle() -> None:
    """PyTorch's warning (once per process) for ``.backward(create_graph=True)``."""
    global _warned
    if not _warned:
        _warned = True
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
        if not t.requires_grad:
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
