"""Node: a step of the backward graph, and the hooks every node can carry.

A node is what ``tensor.grad_fn`` returns. It keeps the nodes of its inputs
(``next_functions``) and the hooks registered on it. The rest of the node family
has a module each: ``saved_values.py`` (``BackwardNode``, the node of an op: what
forward saved, with the version each saved value had, so that an in-place change
made afterwards is caught instead of silently giving a wrong gradient) and
``accumulate_grad.py`` (``AccumulateGrad``, the node at a leaf: it adds the
incoming gradient into the leaf's ``.grad``). The engine (``engine.py``) walks
nodes; ``function.py`` makes them.
"""

from __future__ import annotations

import itertools
import weakref
from collections.abc import Callable
from typing import Any

import numpy as np

from ..tensor import Tensor, new_tensor

__all__ = ["Node", "RemovableHandle"]

sequence = itertools.count()  # creation order: backward runs the newest ready node first


class Node:
    """A node of the backward graph: what ``tensor.grad_fn`` returns.

    ``name()`` is PyTorch's node name (``MulBackward0``); ``next_functions`` are
    the edges towards the inputs. Attributes an op stores on ``ctx`` during
    forward live on the node until backward runs.
    """

    _next: tuple = ()  # the input nodes (None for an input that needs no grad)
    _pre_hooks: list | None = None  # tensor hooks (t.register_hook)
    _node_pre_hooks: list | None = None  # grad_fn.register_prehook
    _post_hooks: list | None = None  # grad_fn.register_hook
    _retain_hook: Callable | None = None
    _hooked = False  # any hook at all: one attribute for the engine to test
    _saved: tuple | None = None
    _metadata: dict | None = None
    _owner: Node | None = None  # an OutputEdge: the multi-output node (see multi_output.py)
    _past_t: Node | None = None  # Linear's addmm: its weight's T, run by the plain walk itself
    # PyTorch's sequence number UINT64_MAX (AccumulateGrad, NotImplemented): run as soon as
    # ready, ties broken as PyTorch's heap breaks them (ready_order.py)
    _asap = False
    _raises = False  # NotImplemented: it raises whatever it gets, even no gradient at all

    _namespace = ""  # PyTorch's C++-only nodes answer name() with "torch::autograd::"
    _prints_bare = False  # AccumulateGrad: repr without its module, as a built-in node

    def name(self) -> str:
        """PyTorch's name: ``MulBackward0``, or ``minigrad::autograd::AccumulateGrad``."""
        return self._namespace + type(self).__name__

    @property
    def next_functions(self) -> tuple[tuple[Node | None, int], ...]:
        """One ``(node, output_nr)`` pair per input, ``(None, 0)`` where no gradient flows."""
        nexts = self._next
        return tuple(
            [(fn, 0) if fn is None or fn._owner is None else (fn._owner, fn._nr) for fn in nexts]
        )

    def __repr__(self) -> str:
        cls = type(self)  # built-in nodes print bare, custom ones with their module (as PyTorch)
        bare = cls.__module__ == "builtins" or cls._prints_bare
        where = "" if bare else f"{cls.__module__}."
        return f"<{where}{cls.__name__} object at {id(self):#x}>"

    @property
    def metadata(self) -> dict:
        """A dict a learner (or a widget) can use to label this node."""
        if self._metadata is None:
            self._metadata = {}
        return self._metadata

    def _add_pre_hook(self, hook: Callable, retains_grad: bool = False) -> RemovableHandle:
        """Register ``hook(grad) -> grad | None``, run before this node uses its gradient."""
        self._hooked = True
        if retains_grad:
            self._retain_hook = hook
            return RemovableHandle(self, None)
        if self._pre_hooks is None:
            self._pre_hooks = []
        self._pre_hooks.append(hook)
        return RemovableHandle(self, hook)

    def register_prehook(self, hook: Callable) -> RemovableHandle:
        """``hook(grad_outputs) -> tuple | None``, run before this node, after tensor hooks."""
        self._hooked = True
        if self._node_pre_hooks is None:
            self._node_pre_hooks = []
        self._node_pre_hooks.append(hook)
        return RemovableHandle(self, hook, "_node_pre_hooks")

    def register_hook(self, hook: Callable) -> RemovableHandle:
        """``hook(grad_inputs, grad_outputs) -> tuple | None``, run after this node.

        The node's own ``_run`` is wrapped on this instance only: the engine and every
        node without a hook stay as they are.
        """
        if self._post_hooks is None:
            self._post_hooks = []
            run, run_graph = self._run, self._run_graph
            self._run = lambda grad: self._after(grad, run(grad))
            self._run_graph = lambda grad: self._after(grad, run_graph(grad))
        self._post_hooks.append(hook)
        return RemovableHandle(self, hook, "_post_hooks")

    def _after(self, grad: Any, outs: tuple) -> tuple:
        """The post hooks: they see (and may replace) the gradients sent along the edges."""
        graph = isinstance(grad, Tensor)
        wrap = (lambda g: g) if graph else (lambda g: None if g is None else new_tensor(g))
        inputs = tuple([None if fn is None else wrap(g) for fn, g in zip(self._next, outs)])
        outputs = _grad_outputs(grad, graph)
        for hook in self._post_hooks:
            result = hook(inputs, outputs)
            if result is not None:
                inputs = tuple(result)
        return tuple([g if g is None or graph else g._data for g in inputs])

    def _run_without_grad(self, graph: bool = False) -> tuple:
        """The pass reached this node with no gradient at all: PyTorch's engine runs it
        anyway, and it returns no gradients (a node that saved values checks them first:
        ``BackwardNode``; a custom Function's backward is called: ``Function``)."""
        return (None,) * len(self._next)

    def _hooks_on_none(self) -> None:
        """The pass reached this node with no gradient at all: PyTorch's engine still calls
        its hooks, with None (``x.register_hook`` on a leaf below ``vector_norm(x, 0)``)."""
        for hook in self._pre_hooks or ():
            if hook(None) is not None:
                raise RuntimeError("can't replace a None gradient with a non-None value")
        if self._node_pre_hooks:
            self._run_node_pre_hooks((None,))
        for hook in self._post_hooks or ():
            hook((None,) * len(self._next), (None,))

    def _run_node_pre_hooks(self, grads: tuple) -> tuple:
        """``register_prehook`` hooks, on the tuple of this node's output gradients."""
        for hook in self._node_pre_hooks:
            result = hook(grads)
            if result is not None:
                grads = tuple(result)
        return grads

    def _run_hooks(self, grad: np.ndarray | Tensor) -> np.ndarray | Tensor:
        """Tensor hooks may replace the gradient; retain_grad sees the final one.

        Under ``create_graph`` the gradient is a Tensor already, and stays one.
        """
        graph = isinstance(grad, Tensor)
        if not graph and type(grad) is not np.ndarray:
            grad = np.array(grad)
        for hook in self._pre_hooks or ():
            result = hook(grad if graph else new_tensor(grad))
            if result is not None:
                if not isinstance(result, Tensor):
                    raise TypeError(
                        f"hook returned an object of type {type(result).__name__}; "
                        "expected a Tensor or None"
                    )
                if result._data.shape != grad.shape:
                    raise RuntimeError(
                        f"hook '{getattr(hook, '__name__', hook)}' has changed the size of value"
                    )
                grad = result if graph else result._data
        if self._retain_hook is not None:
            self._retain_hook(grad)
        if self._node_pre_hooks:
            (result,) = self._run_node_pre_hooks((grad if graph else new_tensor(grad),))
            grad = result if graph else result._data
        return grad


def _grad_outputs(grad: Any, graph: bool) -> tuple:
    """What node hooks see of the gradients a node received: a tuple of Tensors (or None)."""
    grads = grad.grads if hasattr(grad, "grads") else (grad,)  # several outputs: Gradients
    if graph:
        return tuple(grads)
    return tuple([None if g is None else new_tensor(np.asarray(g)) for g in grads])


class RemovableHandle:
    """Returned by ``register_hook``; ``remove()`` unregisters the hook."""

    def __init__(self, node: Node, hook: Callable | None, where: str = "_pre_hooks") -> None:
        self._node = weakref.ref(node)
        self._hook = hook
        self._where = where

    def remove(self) -> None:
        node = self._node()
        if node is None:
            return
        hooks = getattr(node, self._where)
        if self._hook is None:
            node._retain_hook = None
        elif hooks and self._hook in hooks:
            hooks.remove(self._hook)
