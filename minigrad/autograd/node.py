"""Node: a step of the backward graph, and what every node shares.

A node is what ``tensor.grad_fn`` returns. It keeps the nodes of its inputs
(``next_functions``), what forward saved for it with the version each saved
value had (so that an in-place change made afterwards is caught instead of
silently giving a wrong gradient), and the hooks registered on it.
``AccumulateGrad`` is the node at a leaf: it adds the incoming gradient into the
leaf's ``.grad``. The engine (``engine.py``) walks nodes; ``function.py`` makes
them.
"""

from __future__ import annotations

import itertools
import sys
import weakref
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .._modes import InferenceVersion
from ..tensor import Tensor, new_tensor
from . import anomaly_mode

__all__ = [
    "Node",
    "BackwardNode",
    "AccumulateGrad",
    "RemovableHandle",
    "accumulator_of",
    "node_of",
    "retain_grad_hook",
    "sum_to_shape",
]

_anomaly = anomaly_mode.state
sequence = itertools.count()  # creation order: backward runs the newest ready node first
_ACCUMULATE_PRIORITY = 1 << 62  # AccumulateGrad runs as soon as it is ready, as in PyTorch
_FREED = ("freed",)  # marks saved values released by a backward pass


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

    _namespace = ""  # PyTorch's C++-only nodes answer name() with "torch::autograd::"

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
        bare = cls.__module__ == "builtins" or cls is AccumulateGrad
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


def _refs_of_an_unshared_argument() -> int:
    """What ``sys.getrefcount`` says of an array that only the caller's variable holds.

    Measured once, the way the engine hands a gradient to ``AccumulateGrad._run``,
    so that the test below stays right whatever Python's reference counting does.
    """

    def callee(array: np.ndarray) -> int:
        return sys.getrefcount(array)

    def caller() -> int:
        array = np.empty(1)
        return callee(array)

    return caller()


_UNSHARED_REFS = _refs_of_an_unshared_argument()


def _refs_of_an_unshared_base() -> int:
    """What ``sys.getrefcount`` says, in ``_sole_view``, of a base only its one view holds."""
    view = np.empty((2, 1)).T
    base = view.base
    return sys.getrefcount(base)


_UNSHARED_BASE_REFS = _refs_of_an_unshared_base()


def _sole_view(grad: np.ndarray, data: np.ndarray) -> bool:
    """Can ``.grad`` be this view as it is? Only if it is all its base, laid out as ``data``,
    and nothing else holds the base or another view of it (each would hold the base).

    A weight used as ``W.t()`` (Linear) gets its gradient as the transpose of a transposed
    product: a view of a fresh array nobody else sees. PyTorch keeps it without a copy too.
    """
    base = grad.base
    return (
        type(base) is np.ndarray
        and sys.getrefcount(base) <= _UNSHARED_BASE_REFS
        and base.base is None
        and base.nbytes == grad.nbytes
        and grad.strides == data.strides
        and sys.getrefcount(grad) <= _UNSHARED_REFS + 1  # + 1: this function's argument
        and grad.flags.writeable
    )


class AccumulateGrad(Node):
    """The node at a leaf: adds the incoming gradient into ``variable.grad``.

    The first gradient becomes ``.grad`` without a copy when nothing else can
    see it (PyTorch does the same): for a large weight that saves copying
    megabytes on every backward. A gradient that is shared, or a view of
    another array, is copied, so two ``.grad`` never alias each other.
    """

    _namespace = "minigrad::autograd::"

    def __init__(self, variable: Tensor) -> None:
        self.variable = variable
        self._seq = _ACCUMULATE_PRIORITY + next(sequence)

    def __call__(self, grad: Tensor) -> tuple:
        """``acc(grad)``: accumulate ``grad`` into the leaf's ``.grad`` by hand (as PyTorch)."""
        if not isinstance(grad, Tensor):
            raise TypeError("argument 0 is not a Variable")
        return self._run(np.array(grad._data))

    def _run(self, grad: np.ndarray) -> tuple:
        var = self.variable
        if not var._requires_grad:  # detach_() after the leaf was used: no gradient, as PyTorch
            return ()
        data = var._data
        if type(grad) is not np.ndarray:  # a 0-d result of numpy arithmetic is a numpy scalar
            grad = np.array(grad)
        if grad.dtype is not data.dtype and grad.dtype != data.dtype:
            grad = grad.astype(data.dtype)
        shape = data.shape
        if grad.shape != shape:
            grad = sum_to_shape(grad, shape)
        old = var._grad
        if old is None:
            if grad.base is None:
                unshared = sys.getrefcount(grad) <= _UNSHARED_REFS and grad.flags.writeable
            else:
                unshared = _sole_view(grad, data)
            if unshared:
                var._grad = new_tensor(grad)
            else:  # PyTorch copies it with copy_ into a new tensor: ._version is 1
                var._grad = new_tensor(grad.copy())
                var._grad._vc[0] = 1
        else:
            np.add(old._data, grad, out=old._data)
            old._vc[0] += 1
        return ()

    def _run_graph(self, grad: Tensor) -> tuple:
        """Under ``create_graph``: ``.grad`` keeps the gradient's graph, as in PyTorch.

        The first gradient is copied (``CopyBackwards``), later ones are added out of
        place (``AddBackward0``), so that ``.grad`` can be differentiated again.
        """
        var = self.variable
        if not var._requires_grad:
            return ()
        data = var._data
        if grad._data.dtype != data.dtype:
            grad = grad.to(var.dtype)
        if grad._data.shape != data.shape:
            grad = grad.sum_to_size(data.shape)
        old = var._grad
        if old is None and not _dense(data):  # an expanded or gappy leaf: PyTorch clones
            var._grad = grad.clone()
        elif old is None:  # a copy made by copy_ (its _version is 1), as PyTorch's
            var._grad = new_tensor(np.empty_like(data)).copy_(grad)
        else:
            var._grad = old + grad
        return ()


def _dense(a: np.ndarray) -> bool:
    """PyTorch's is_non_overlapping_and_dense: the elements fill their memory exactly, in
    some order of the dimensions (not an expanded view, no gaps)."""
    expected = a.itemsize
    for stride, size in sorted((abs(st), n) for st, n in zip(a.strides, a.shape) if n != 1):
        if stride != expected:
            return a.size == 0
        expected *= size
    return True


def accumulator_of(leaf: Tensor) -> AccumulateGrad:
    """The leaf's AccumulateGrad node, created once and reused (as PyTorch does)."""
    acc = leaf._accumulator
    if acc is None:
        acc = leaf._accumulator = AccumulateGrad(leaf)
    return acc


def node_of(x: Any) -> Node | None:
    """Where a gradient for input ``x`` goes: its grad_fn, its AccumulateGrad, or nowhere."""
    if isinstance(x, Tensor) and x._requires_grad:
        fn = x._grad_fn
        if fn is None:
            fn = x._accumulator or accumulator_of(x)
        return fn
    return None


def retain_grad_hook(tensor: Tensor) -> Callable:
    """The hook behind ``retain_grad()``: accumulates into a non-leaf's ``.grad``."""
    ref = weakref.ref(tensor)

    def hook(grad: np.ndarray | Tensor) -> None:
        t = ref()
        if t is None:
            return
        if isinstance(grad, Tensor):  # under create_graph: keep the gradient's graph
            t._grad = grad if t._grad is None else t._grad + grad
        elif t._grad is None:
            t._grad = new_tensor(np.array(grad, copy=True))
        else:
            t._grad = new_tensor(t._grad._data + grad)

    return hook


def sum_to_shape(grad: np.ndarray, shape: tuple) -> np.ndarray:
    """Undo broadcasting: sum ``grad`` over the dimensions that were expanded."""
    if grad.shape == shape:
        return grad
    lead = grad.ndim - len(shape)
    if lead == 1 and grad.shape[1:] == shape:  # a bias added to every row: one reduce
        return np.add.reduce(grad, axis=0)
    axes = tuple(range(lead)) + tuple(
        i + lead for i, n in enumerate(shape) if n == 1 and grad.shape[i + lead] != 1
    )
    if axes:
        grad = grad.sum(axis=axes, keepdims=True)
    return grad.reshape(shape)


class BackwardNode(Node):
    """The node (and ``ctx``) of a Function call; subclassed once per Function."""

    _saved_checks: tuple = ()
    _saved_unless: tuple | None = None  # (slot, input) pairs: see ArrayFunction.saved_when
    _shapes: tuple | None = None
    _tensor_positions: tuple | None = None  # a custom Function: where its Tensor arguments are
    _seq = 0

    def save_for_backward(self, *values: Any) -> None:
        """Keep values for ``backward``; their versions are checked when read back."""
        self._saved = values

    @property
    def saved_tensors(self) -> tuple:
        saved = self._saved
        if saved is _FREED:
            versions = self._saved_checks[1::3]  # -1: a value not kept (``saved_when``)
            if any([version != -1 for version in versions]):
                raise RuntimeError(_SECOND_BACKWARD)
            return (None,) * len(versions)  # nothing was kept, nothing is missing (PyTorch)
        if saved is None:
            return ()
        checks = self._saved_checks
        n = len(checks)  # read on every backward: one or two values unrolled
        if n == 6:
            c, v, _, c2, v2, _ = checks
            if (c is None or c[0] == v) and (c2 is None or c2[0] == v2):
                return saved
        elif n == 3:
            c, v, _ = checks
            if c is None or c[0] == v:
                return saved
        for i in range(0, n, 3):
            counter = checks[i]
            if counter is not None and counter[0] != checks[i + 1]:
                raise RuntimeError(_modified_message(self, i // 3))
        return saved

    @property
    def needs_input_grad(self) -> tuple[bool, ...]:
        positions = self._tensor_positions
        if positions is None:
            return tuple([fn is not None for fn in self._next])
        flags = [False] * self._n_args  # a custom Function: one flag per argument of forward
        for i, fn in zip(positions, self._next, strict=True):
            flags[i] = fn is not None
        return tuple(flags)

    def _record_versions(self, inputs: tuple, values: Sequence, output: Tensor) -> None:
        """Remember the version of every saved input/output, to detect in-place changes.

        ``values`` are what forward received for ``inputs`` (their arrays). For
        each saved value ``_saved_checks`` holds three entries: the version
        counter it is watched by (None: not a tensor's value), the version when
        saved, and which input it was (-1: the output).
        """
        saved = self._saved
        drop = self._saved_unless
        nexts = self._next
        if drop is not None and None in nexts:  # keep only what the gradients need
            for k, needed_by in drop:
                if nexts[needed_by] is None:
                    saved = (*saved[:k], None, *saved[k + 1 :])
            self._saved = saved
        checks: list = []
        out_data = output._data
        n = len(values)
        k = -1
        for value in saved:  # every op pays for this loop: its tests go from common to rare
            k += 1
            if value is None:  # not kept (``saved_when``): -1 says so after the graph is freed
                checks += _NOT_KEPT
                continue
            if value is out_data or value is output:
                vc = output._vc
                checks += (vc, vc[0], -1)
                continue
            # saved in input order (``save_for_backward(a, b)``): the input at the same place
            # first, so that ``x * x.detach()`` (one array, two inputs) ties each to its own
            if k < n and (value is values[k] or value is inputs[k]):
                x = inputs[k]
                if isinstance(x, Tensor):
                    vc = x._vc
                    if type(vc) is not list and isinstance(vc, InferenceVersion):
                        raise RuntimeError(_INFERENCE_SAVED)
                    checks += (vc, vc[0], k)
                    continue
                if type(value) is not np.ndarray:  # a number (x * 2.0): no tensor's value
                    checks += _UNWATCHED
                    continue
            i = 0
            for array in values:
                if value is array or value is inputs[i]:
                    x = inputs[i]
                    if isinstance(x, Tensor):
                        if isinstance(x._vc, InferenceVersion):
                            raise RuntimeError(_INFERENCE_SAVED)
                        checks += (x._vc, x._vc[0], i)
                        break
                i += 1
            else:
                checks += _UNWATCHED
        self._saved_checks = tuple(checks)


_NOT_KEPT = (None, -1, 0)  # _saved_checks of a value no gradient needed (``saved_when``)
_UNWATCHED = (None, 0, 0)  # ... of a number, or an array that is neither input nor output
_INFERENCE_SAVED = (
    "Inference tensors cannot be saved for backward. Please do not use Tensors created in "
    "inference mode in computation tracked by autograd. To work around this, you can make a "
    "clone to get a normal tensor and use it in autograd, or use `minigrad.no_grad()` instead of "
    "`minigrad.inference_mode()`."
)
_SECOND_BACKWARD = (
    "Trying to backward through the graph a second time (or directly access saved tensors "
    "after they have already been freed). Saved intermediate values of the graph are freed "
    "when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to "
    "backward through the graph a second time or if you need to access saved tensors after "
    "calling backward."
)


def _is_view_node(node: Node) -> bool:
    """Whether ``node`` is the grad_fn of a view (``t()``, ``x[0]``, ``view`` ...)."""
    function = getattr(node, "_function", None)
    return getattr(function, "is_view", False) or type(node).__name__ == "AsStridedBackward0"


def _modified_message(node: BackwardNode, k: int) -> str:
    """PyTorch's words for "a value saved for backward was changed in place"."""
    from .._dtypes import from_numpy_dtype

    counter, expected, which = node._saved_checks[3 * k : 3 * k + 3]
    edge = node._next[which] if which >= 0 else None
    if edge is not None and getattr(getattr(edge._owner, "_function", None), "is_view", False):
        from .multi_output import multi_view_message  # a saved output of unbind, split ...

        return multi_view_message(edge, edge._nr, base_changed=True)
    value = node._saved[k]
    array = value._data if isinstance(value, Tensor) else np.asarray(value)
    described = f"[minigrad.{from_numpy_dtype(array.dtype).legacy_name} {list(array.shape)}]"
    owner = node if which < 0 else node._next[which]
    if which >= 0 and owner is not None and _is_view_node(owner):
        # a view (its base, or itself, changed in place): PyTorch names the history it
        # regenerates for the view from the changed base, AsStridedBackward0
        described += ", which is output 0 of AsStrided,"
        owner = None
    elif which >= 0 and len(counter) > 1 and owner is not None:  # changed in place: the
        owner = counter[1]  # input's current grad_fn, the in-place op's
    if owner is not None and not isinstance(owner, AccumulateGrad):
        nr = -1 - which if which < 0 else owner._nr if owner._owner is not None else 0
        op = owner.name()
        short = op.replace("Backward", "")  # PyTorch's words: Add, Pow1, CopySlices
        described += f", which is output {nr} of {short[:-1] if short.endswith('0') else short},"
    hint = (
        "the backtrace further above shows the operation that failed to compute its gradient. "
        "The variable in question was changed in there or anywhere later. Good luck!"
        if _anomaly.enabled
        else "enable anomaly detection to find the operation that failed to compute its gradient, "
        "with minigrad.autograd.set_detect_anomaly(True, check_nan=False)."
    )
    return (
        "one of the variables needed for gradient computation has been modified by an inplace "
        f"operation: {described} is at version {counter[0]}; expected version {expected} "
        f"instead. Hint: {hint}"
    )
