"""Saved values as Tensors with history: what makes a backward differentiable again.

The ordinary backward (``function.py``) works on numpy arrays. Under
``create_graph=True`` the engine calls ``node._run_graph(grad)`` instead, with a
Tensor gradient and grad mode on: the node's formula then records a graph of its
own. For that graph to join the forward one, each value forward saved comes back
as a Tensor tied to where it came from (``saved_as_tensors``): the leaf itself,
a Tensor whose grad_fn is the input's node, or, for the output, this node.

The same tying gives PyTorch's introspection (``grad_fn._saved_self``) and
``grad_fn(grad)`` called by hand; ``once_differentiable`` and its ``Error`` node
are the way out for a backward that cannot be differentiated.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from .._dtypes import from_numpy_dtype
from .._quiet import loud, quiet
from ..tensor import Tensor, new_tensor
from . import grad_mode
from .accumulate_grad import AccumulateGrad, node_of
from .multi_output import output_node
from .node import Node, sequence
from .saved_values import _FREED, _SECOND_BACKWARD, BackwardNode, WithCasts, _modified_message

__all__ = ["saved_as_tensors", "once_differentiable", "Error"]

_grad_state = grad_mode.state


def _call_node(self: BackwardNode, *grads: Any) -> Any:
    """``y.grad_fn(grad)``: this node's backward run by hand, as PyTorch's nodes allow.

    It runs on Tensors in the current grad mode (so with grad on, what it returns has a
    graph), gives None for an input that needs no gradient, and returns a tuple only for
    a node with several inputs. Hooks do not run and nothing is freed.
    """
    if len(grads) != 1:
        raise TypeError(f"expected 1 arguments, got {len(grads)} instead")
    (grad,) = grads
    if grad is None:
        outs: tuple = (None,) * len(self._next)
    elif not isinstance(grad, Tensor):
        raise TypeError("argument 0 is not a Variable")
    else:
        token = quiet()  # numpy silent here as in the engine: formulas need no errstate
        try:
            grads = self._run_graph(grad)
        finally:
            loud(token)
        outs = tuple([None if fn is None else g for fn, g in zip(self._next, grads)])
    return outs[0] if len(outs) == 1 else outs


def _add_saved_attributes(cls: type) -> None:
    """``grad_fn._saved_self``, ``_saved_other``, ``_saved_result``, ``_saved_dim`` ...

    PyTorch's names for what the node keeps, one property each on the node class. A saved
    value comes back as a Tensor: the leaf itself, a Tensor with the input's history, or
    (``_saved_result``) with this node as its grad_fn; a Python number as a 0-d tensor; a
    value this node did not need to keep as None. Once backward has freed the graph, or
    after the value was changed in place, reading it raises PyTorch's error.

    Properties, not a ``__getattr__``: a class with ``__getattr__`` makes every attribute
    read of its instances several times slower (no specialised lookup), and the engine
    reads node attributes many times per op.
    """
    node = cls._Node
    for k, key in enumerate(cls.saved_names):
        name = f"_saved_{key}"
        if name not in node.__dict__ and not hasattr(node, name):
            setattr(node, name, property(functools.partial(_saved_value, k=k)))
    for key, attribute in cls.saved_settings.items():
        name = f"_saved_{key}"
        if name not in node.__dict__ and not hasattr(node, name):
            setattr(node, name, property(_setting_getter(attribute)))


def _setting_getter(attribute: str) -> Callable[[BackwardNode], Any]:
    def get(self: BackwardNode) -> Any:
        return getattr(self, attribute)

    return get


def _saved_value(node: BackwardNode, k: int) -> Tensor | None:
    saved = node._saved
    checks = node._saved_checks
    counter, version, which = checks[3 * k : 3 * k + 3] if len(checks) > 3 * k else (None, 0, 0)
    if version == -1:  # not kept: no gradient needed it
        return None
    if saved is _FREED:
        raise RuntimeError(_SECOND_BACKWARD)
    if saved is None or k >= len(saved):
        return None
    value = saved[k]
    if counter is None:  # a number, or an array that is neither input nor output
        return new_tensor(np.asarray(value))
    if counter[0] != version:
        raise RuntimeError(_modified_message(node, k))
    if which < 0:
        return _tied(value, output_node(node, which), counter)
    if which >= len(node._next):  # watched, not an input (where's condition)
        return new_tensor(value)
    fn = node._next[which] if which else getattr(node, "_self_clone", node._next[0])
    if type(fn) is AccumulateGrad:
        return fn.variable
    return _tied(value, fn, counter)


def _array_node_run_graph(self: BackwardNode, grad: Tensor) -> tuple:
    """The same backward under ``create_graph``: on Tensors, recording a graph."""
    __tracebackhide__ = True  # IPython leaves this frame out of a learner's traceback
    with saved_as_tensors(self):
        grads = self._backward(self, grad)
    if type(grads) is not tuple:
        grads = (grads,)
    shapes = self._shapes
    out = []
    for k, g in enumerate(grads):
        if g is not None and not isinstance(g, Tensor):
            g = new_tensor(np.asarray(g))  # a formula that ignores grad: a constant
        if g is not None and shapes is not None and shapes[k] is not None:
            if g._data.shape != shapes[k]:
                g = g.sum_to_size(shapes[k])
        if g is not None and type(shapes) is WithCasts and shapes.dtypes[k] is not None:
            g = g.to(from_numpy_dtype(shapes.dtypes[k]))  # ToCopyBackward0, as PyTorch's engine
        out.append(g)
    return tuple(out)


class saved_as_tensors:  # noqa: N801 - used as a context manager, like no_grad
    """While backward runs under ``create_graph``, ``ctx.saved_tensors`` gives Tensors.

    Forward saved arrays; each was one of the inputs or the output (``_saved_checks``
    says which), so it is given back as a Tensor with that input's history (the leaf
    itself, or a Tensor whose grad_fn is the input's node) or, for the output, with this
    node as its grad_fn: the gradient's graph then joins the graph of the forward pass.
    """

    __slots__ = ("node", "saved")

    def __init__(self, node: BackwardNode) -> None:
        self.node = node

    def __enter__(self) -> None:
        node = self.node
        self.saved = saved = node._saved
        if saved is None:
            return
        node.saved_tensors  # noqa: B018 - freed or changed in place: the same errors as ever
        checks = node._saved_checks
        tensors = []
        for k, value in enumerate(saved):
            counter, which = (checks[3 * k], checks[3 * k + 2]) if checks else (None, 0)
            if isinstance(value, Tensor):  # a custom Function saved Tensors
                if which < 0 and counter is not None:
                    value = _tied(value._data, output_node(node, which), counter)
            elif counter is None:  # a number, or a value that is neither input nor output
                value = value if not isinstance(value, np.ndarray) else new_tensor(value)
            elif which < 0:
                value = _tied(value, output_node(node, which), counter)
            elif which >= len(node._next):  # watched, not an input (where's condition)
                value = new_tensor(value)
            else:  # an in-place op's old self: PyTorch saved a clone (``_self_clone``)
                fn = node._next[which] if which else getattr(node, "_self_clone", node._next[0])
                if fn is None:
                    value = _tied(value, None, counter)
                elif type(fn) is AccumulateGrad:
                    value = fn.variable
                else:
                    value = _tied(value, fn, counter)
            tensors.append(value)
        node._saved = tuple(tensors)

    def __exit__(self, *exc: object) -> None:
        self.node._saved = self.saved


def _tied(array: np.ndarray, grad_fn: Node | None, counter: list) -> Tensor:
    t = new_tensor(array, grad_fn, grad_fn is not None)
    t._vc = counter
    return t


class Error(Node):
    """The node of a gradient computed by a ``once_differentiable`` backward: it refuses."""

    __module__ = "builtins"
    _namespace = "minigrad::autograd::"

    def __init__(self, message: str, next_functions: tuple) -> None:
        self.message = message
        self._next = next_functions
        self._seq = next(sequence)

    def _run(self, grad: Any) -> tuple:
        raise RuntimeError(self.message)

    _run_graph = _run


def once_differentiable(backward: Callable) -> Callable:
    """Mark a custom Function's ``backward`` as not differentiable itself (as PyTorch's).

    It runs in no_grad even under ``create_graph``; when its incoming gradients require
    grad, what it returns is tied to an ``Error`` node, so that differentiating it again
    raises instead of silently giving a wrong (zero) second derivative.
    """

    @functools.wraps(backward)
    def wrapper(ctx: BackwardNode, *args: Any) -> Any:
        with grad_mode.no_grad():
            outputs = backward(ctx, *args)
        if not _grad_state.enabled:
            return outputs
        edges = tuple(node_of(a) for a in args if isinstance(a, Tensor) and a._requires_grad)
        if not edges:
            return outputs
        error = Error(
            "trying to differentiate twice a function that was marked with @once_differentiable",
            edges,
        )
        single = not isinstance(outputs, tuple)
        tied = tuple(
            new_tensor(o._data, error, True) if isinstance(o, Tensor) else o
            for o in ((outputs,) if single else outputs)
        )
        return tied[0] if single else tied

    return wrapper
