"""Function and Node: how an operation records itself for the backward pass.

Every differentiable operation is a ``Function`` subclass with ``forward`` and
``backward`` side by side. Calling ``MyOp.apply(...)`` runs ``forward`` and, when
grad mode is on and an input requires grad, creates a node of the backward
graph: an instance of ``MyOpBackward`` (PyTorch's naming), which is also the
``ctx`` that ``forward`` and ``backward`` receive. The node keeps

- ``next_functions``: one ``(node, 0)`` edge per input, ``(None, 0)`` for an
  input that needs no gradient, an ``AccumulateGrad`` node for a leaf;
- what ``forward`` saved (``ctx.save_for_backward``) with the version of each
  saved tensor, checked again when ``backward`` reads ``ctx.saved_tensors``;
- the input shapes, when the op broadcasts, to sum gradients back to them.

That shared work lives here, once, so an op is only its arithmetic. Two kinds:

- ``Function`` (public, as in PyTorch): ``forward`` and ``backward`` receive and
  return Tensors. Lesson 6 writes custom ops with it.
- ``ArrayFunction`` (the built-in ops): the same API, but ``forward`` and
  ``backward`` receive and return the numpy arrays inside the tensors (the
  eggs), which saves wrapping every intermediate value in a Tensor.
"""

from __future__ import annotations

import itertools
import weakref
from collections.abc import Callable
from typing import Any

import numpy as np

from .._dtypes import get_default_dtype
from ..tensor import Tensor, new_tensor
from . import anomaly_mode, grad_mode

__all__ = ["Function", "ArrayFunction", "Node", "AccumulateGrad", "sum_to_shape"]

_grad_state = grad_mode.state
_anomaly = anomaly_mode.state
_sequence = itertools.count()
_ACCUMULATE_PRIORITY = 1 << 62  # AccumulateGrad runs as soon as it is ready, as in PyTorch
_FREED = ("freed",)  # marks saved values released by a backward pass
_F64 = np.dtype(np.float64)
_ndarray = np.ndarray


class Node:
    """A node of the backward graph: what ``tensor.grad_fn`` returns.

    ``name()`` is PyTorch's node name (``MulBackward0``); ``next_functions`` are
    the edges towards the inputs. Attributes an op stores on ``ctx`` during
    forward live on the node until backward runs.
    """

    _next: tuple = ()  # the input nodes (None for an input that needs no grad)
    _pre_hooks: list | None = None
    _retain_hook: Callable | None = None
    _hooked = False  # any hook at all: one attribute for the engine to test
    _saved: tuple | None = None
    _metadata: dict | None = None

    def name(self) -> str:
        return type(self).__name__

    @property
    def next_functions(self) -> tuple[tuple[Node | None, int], ...]:
        """One ``(node, 0)`` pair per input, ``(None, 0)`` where no gradient flows."""
        return tuple([(fn, 0) for fn in self._next])

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

    def _run_hooks(self, grad: np.ndarray) -> np.ndarray:
        """Tensor hooks may replace the gradient; retain_grad sees the final one."""
        for hook in self._pre_hooks or ():
            result = hook(new_tensor(grad))
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
                grad = result._data
        if self._retain_hook is not None:
            self._retain_hook(grad)
        return grad


class RemovableHandle:
    """Returned by ``register_hook``; ``remove()`` unregisters the hook."""

    def __init__(self, node: Node, hook: Callable | None) -> None:
        self._node = weakref.ref(node)
        self._hook = hook

    def remove(self) -> None:
        node = self._node()
        if node is None:
            return
        if self._hook is None:
            node._retain_hook = None
        elif node._pre_hooks and self._hook in node._pre_hooks:
            node._pre_hooks.remove(self._hook)


class AccumulateGrad(Node):
    """The node at a leaf: adds the incoming gradient into ``variable.grad``."""

    def __init__(self, variable: Tensor) -> None:
        self.variable = variable
        self._seq = _ACCUMULATE_PRIORITY + next(_sequence)

    def _run(self, grad: np.ndarray) -> tuple:
        var = self.variable
        data = var._data
        if grad.dtype != data.dtype:
            grad = grad.astype(data.dtype)
        if grad.shape != data.shape:
            grad = sum_to_shape(grad, data.shape)
        old = var._grad
        if old is None:
            var._grad = new_tensor(grad.copy())  # its own memory: never an alias of another grad
        else:
            np.add(old._data, grad, out=old._data)
            old._vc[0] += 1
        return ()


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

    def hook(grad: np.ndarray) -> None:
        t = ref()
        if t is None:
            return
        if t._grad is None:
            t._grad = new_tensor(np.array(grad, copy=True))
        else:
            t._grad = new_tensor(t._grad._data + grad)

    return hook


def sum_to_shape(grad: np.ndarray, shape: tuple) -> np.ndarray:
    """Undo broadcasting: sum ``grad`` over the dimensions that were expanded."""
    if grad.shape == shape:
        return grad
    lead = grad.ndim - len(shape)
    axes = tuple(range(lead)) + tuple(
        i + lead for i, n in enumerate(shape) if n == 1 and grad.shape[i + lead] != 1
    )
    if axes:
        grad = grad.sum(axis=axes, keepdims=True)
    return grad.reshape(shape)


class BackwardNode(Node):
    """The node (and ``ctx``) of a Function call; subclassed once per Function."""

    _saved_checks: tuple = ()
    _shapes: tuple | None = None
    _seq = 0

    def save_for_backward(self, *values: Any) -> None:
        """Keep values for ``backward``; their versions are checked when read back."""
        self._saved = values

    @property
    def saved_tensors(self) -> tuple:
        saved = self._saved
        if saved is _FREED:
            raise RuntimeError(_SECOND_BACKWARD)
        if saved is None:
            return ()
        checks = self._saved_checks
        for i in range(0, len(checks), 3):
            counter = checks[i]
            if counter is not None and counter[0] != checks[i + 1]:
                raise RuntimeError(_modified_message(self, i // 3))
        return saved

    @property
    def needs_input_grad(self) -> tuple[bool, ...]:
        positions = getattr(self, "_tensor_positions", None)
        if positions is None:
            return tuple([fn is not None for fn in self._next])
        flags = [False] * self._n_args  # a custom Function: one flag per argument of forward
        for i, fn in zip(positions, self._next, strict=True):
            flags[i] = fn is not None
        return tuple(flags)

    def _record_versions(self, inputs: tuple, output: Tensor) -> None:
        """Remember the version of every saved input/output, to detect in-place changes.

        ``_saved_checks`` holds three entries per saved value: the version counter
        it is watched by (None: not a tensor's value), the version when saved, and
        which input it was (-1: the output).
        """
        checks: list = []
        out_data = output._data
        arrays = [x._data if isinstance(x, Tensor) else x for x in inputs]
        for value in self._saved:
            if value is out_data or value is output:
                checks += (output._vc, output._vc[0], -1)
                continue
            for i, array in enumerate(arrays):
                if value is array or value is inputs[i]:
                    x = inputs[i]
                    if isinstance(x, Tensor):
                        checks += (x._vc, x._vc[0], i)
                        break
            else:
                checks += (None, 0, 0)
        self._saved_checks = tuple(checks)


_SECOND_BACKWARD = (
    "Trying to backward through the graph a second time (or directly access saved tensors "
    "after they have already been freed). Saved intermediate values of the graph are freed "
    "when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to "
    "backward through the graph a second time or if you need to access saved tensors after "
    "calling backward."
)


def _modified_message(node: BackwardNode, k: int) -> str:
    """PyTorch's words for "a value saved for backward was changed in place"."""
    from .._dtypes import from_numpy_dtype

    counter, expected, which = node._saved_checks[3 * k : 3 * k + 3]
    value = node._saved[k]
    array = value._data if isinstance(value, Tensor) else np.asarray(value)
    described = f"[minigrad.{from_numpy_dtype(array.dtype).legacy_name} {list(array.shape)}]"
    owner = node if which == -1 else node._next[which]
    if owner is not None and not isinstance(owner, AccumulateGrad):
        op = owner.name()
        described += f", which is output 0 of {op[: op.rfind('Backward')] or op},"
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


class Function:
    """Base of differentiable operations, used exactly as ``torch.autograd.Function``.

    Subclass it with two static methods and call ``apply``::

        class Square(Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                return x * x

            @staticmethod
            def backward(ctx, grad):
                (x,) = ctx.saved_tensors
                return 2 * x * grad

    ``forward`` runs with grad mode off; ``backward`` returns one gradient (or
    None) per input of ``forward``. ``node_name`` sets the grad_fn's name
    (default: the class name + ``Backward``).
    """

    node_name: str | None = None
    _Node: type[BackwardNode]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        name = cls.__dict__.get("node_name") or f"{cls.__name__}Backward"
        module = "builtins" if cls.__module__.startswith("minigrad.") else __name__
        cls._Node = type(name, (BackwardNode,), {"_function": cls, "__module__": module})
        cls._Node._run = cls._node_run  # the engine calls node._run(grad)

    @staticmethod
    def forward(ctx: BackwardNode, *args: Any) -> Any:
        raise NotImplementedError("You must implement the forward function for custom Function.")

    @staticmethod
    def backward(ctx: BackwardNode, *grads: Any) -> Any:
        raise NotImplementedError(
            "You must implement either the backward or vjp method for your custom "
            "autograd.Function to use it with backward mode AD."
        )

    @classmethod
    def apply(cls, *args: Any) -> Any:
        """Run forward and, if any Tensor input requires grad, record a node."""
        requires = _grad_state.enabled and any(
            isinstance(a, Tensor) and a._requires_grad for a in args
        )
        ctx = cls._Node()
        ctx._next = tuple(node_of(a) if requires else None for a in args if isinstance(a, Tensor))
        ctx._tensor_positions = tuple(i for i, a in enumerate(args) if isinstance(a, Tensor))
        ctx._n_args = len(args)
        with grad_mode.no_grad():
            if "setup_context" in cls.__dict__:
                output = cls.forward(*args)
                cls.setup_context(ctx, args, output)
            else:
                output = cls.forward(ctx, *args)
        if not isinstance(output, Tensor):
            if isinstance(output, tuple) and requires:
                raise NotImplementedError(
                    "minigrad Functions that require grad return a single Tensor"
                )
            return output
        if not requires:
            return output if output._grad_fn is None else output.detach()
        ctx._seq = next(_sequence)
        if _anomaly.enabled:
            anomaly_mode.remember_forward(ctx)
        ctx._shapes = tuple(args[i]._data.shape for i in ctx._tensor_positions)
        result = new_tensor(output._data, ctx, True)
        if any(a is output for a in args):  # an input returned as is: same storage, counter
            result._vc = output._vc
        if ctx._saved is not None:
            saved_output = any(s is output for s in ctx._saved)  # `is`: `in` would compare values
            ctx._record_versions(args, output if saved_output else result)
        return result

    def _node_run(self: BackwardNode, grad: np.ndarray) -> tuple:
        """Call the user's backward on Tensors and check what it returns."""
        function = self._function
        with grad_mode.no_grad():
            grads = function.backward(self, new_tensor(grad))
        if not isinstance(grads, tuple):
            grads = (grads,)
        n_args = self._n_args
        if len(grads) < n_args or any(g is not None for g in grads[n_args:]):
            raise RuntimeError(
                f"function {self.name()} returned an incorrect number of gradients "
                f"(expected {n_args}, got {len(grads)})"
            )
        grads = [grads[i] for i in self._tensor_positions]
        out = []
        for i, (g, shape) in enumerate(zip(grads, self._shapes)):
            if g is None:
                out.append(None)
                continue
            if not isinstance(g, Tensor):
                raise RuntimeError(f"expected Variable or None (got {type(g).__name__})")
            array = g._data
            if array.shape != shape:
                try:
                    array = sum_to_shape(array, shape)
                except ValueError:
                    raise RuntimeError(
                        f"Function {self.name()} returned an invalid gradient at index {i} - "
                        f"got {list(array.shape)} but expected shape compatible with "
                        f"{list(shape)}"
                    ) from None
            out.append(array)
        return tuple(out)


class ArrayFunction(Function):
    """A Function whose forward and backward work on numpy arrays: the built-in ops.

    ``forward(ctx, *inputs, *params)`` gets the arrays of Tensor inputs (Python
    numbers pass through), returns an array; ``backward(ctx, grad)`` returns
    one array (or None) per input. Class attributes describe the op:

    - ``n_params``: how many trailing arguments are settings, not inputs
      (``dim``, ``keepdim``): they get no edge in the graph;
    - ``broadcasts``: gradients are summed back to each input's shape;
    - ``is_view``: the output shares memory and version counter with input 0;
    - ``default_float``: a float64 result computed from inputs that are not float64
      (integers, Python floats) becomes float32, as in PyTorch (numpy would keep
      float64); False for ops that choose their dtype on purpose (``to``).

    ``apply`` is the hot path of the whole engine: every operation a learner
    writes goes through it, so it is written for speed (one- and two-input ops
    get their own short paths) rather than brevity.
    """

    n_params = 0
    broadcasts = False
    is_view = False
    default_float = True

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._Node._run = _array_node_run
        cls._Node._backward = staticmethod(cls.backward)
        if not cls.broadcasts and not cls.is_view and "apply" not in cls.__dict__:
            n_inputs = cls.forward.__code__.co_argcount - 1 - cls.n_params
            if n_inputs == 1 and not cls.forward.__code__.co_flags & 0x04:
                cls.apply = classmethod(_apply_unary)
        if cls.broadcasts and "apply" not in cls.__dict__ and cls.n_params == 0:
            if cls.forward.__code__.co_argcount == 3:
                cls.apply = classmethod(_apply_binary)

    @classmethod
    def apply(cls, *args: Any) -> Tensor:
        n_inputs = len(args) - cls.n_params
        values = list(args)
        requires = False
        for i in range(n_inputs):
            x = args[i]
            if isinstance(x, Tensor):
                values[i] = x._data
                if x._requires_grad:
                    requires = True
        ctx = cls._Node()
        out = cls.forward(ctx, *values)
        if type(out) is not _ndarray:
            out = np.asarray(out)
        if out.dtype is _F64 and cls.default_float:
            out = _keep_default_float(out, args[:n_inputs])
        requires = requires and _grad_state.enabled
        result = new_tensor(out, ctx if requires else None, requires)
        if cls.is_view:
            base = args[0]
            result._vc = base._vc
            result._base = base if base._base is None else base._base
        if requires:
            inputs = args[:n_inputs]
            ctx._next = tuple([node_of(x) for x in inputs])
            ctx._seq = next(_sequence)
            if _anomaly.enabled:
                anomaly_mode.remember_forward(ctx)
            if ctx._saved is not None:
                ctx._record_versions(inputs, result)
            if cls.broadcasts:
                ctx._shapes = tuple(
                    [x._data.shape if isinstance(x, Tensor) else None for x in inputs]
                )
        return result


def _apply_unary(cls, a: Tensor, *params: Any) -> Tensor:
    """``apply`` for ops of one tensor that are not views (exp, sum, mean ...)."""
    ctx = cls._Node()
    try:
        data = a._data
    except AttributeError:
        raise TypeError(
            f"{cls.__name__.lower()}(): argument 'input' (position 1) must be "
            f"Tensor, not {type(a).__name__}"
        ) from None
    out = cls.forward(ctx, data, *params)
    if type(out) is not _ndarray:
        out = np.asarray(out)
    if out.dtype is _F64 and data.dtype is not _F64 and cls.default_float:
        out = out.astype(get_default_dtype().numpy)
    if not (a._requires_grad and _grad_state.enabled):
        return new_tensor(out)
    result = new_tensor(out, ctx, True)
    fn = a._grad_fn
    ctx._next = (fn if fn is not None else a._accumulator or accumulator_of(a),)
    ctx._seq = next(_sequence)
    if _anomaly.enabled:
        anomaly_mode.remember_forward(ctx)
    if ctx._saved is not None:
        ctx._record_versions((a,), result)
    return result


def _apply_binary(cls, a: Any, b: Any) -> Tensor:
    """``apply`` for broadcasting ops of two inputs (+ - * / ...), either may be a number."""
    ctx = cls._Node()
    if isinstance(a, Tensor):
        ad, ar = a._data, a._requires_grad
    else:
        ad, ar = a, False
    if isinstance(b, Tensor):
        bd, br = b._data, b._requires_grad
    else:
        bd, br = b, False
    try:
        out = cls.forward(ctx, ad, bd)
    except ValueError:
        error = _broadcast_error(ad, bd)
        if isinstance(error, RuntimeError):
            raise error from None
        raise  # the shapes broadcast: another problem, reported as numpy said it
    if type(out) is not _ndarray:
        out = np.asarray(out)
    if out.dtype is _F64:
        out = _keep_default_float(out, (a, b))
    if not ((ar or br) and _grad_state.enabled):
        return new_tensor(out)
    result = new_tensor(out, ctx, True)
    if ar:
        fn = a._grad_fn
        fa = fn if fn is not None else a._accumulator or accumulator_of(a)
    else:
        fa = None
    if br:
        fn = b._grad_fn
        fb = fn if fn is not None else b._accumulator or accumulator_of(b)
    else:
        fb = None
    ctx._next = (fa, fb)
    ctx._seq = next(_sequence)
    if _anomaly.enabled:
        anomaly_mode.remember_forward(ctx)
    if ctx._saved is not None:
        ctx._record_versions((a, b), result)
    shape = out.shape
    sa = ad.shape if ar and ad.shape != shape else None
    sb = bd.shape if br and bd.shape != shape else None
    if sa is not None or sb is not None:
        ctx._shapes = (sa, sb)
    return result


def _broadcast_error(a: Any, b: Any) -> RuntimeError | ValueError:
    """PyTorch's message for shapes that do not broadcast, naming the first mismatch."""
    sa, sb = np.shape(a), np.shape(b)
    n = max(len(sa), len(sb))
    pa, pb = (1,) * (n - len(sa)) + sa, (1,) * (n - len(sb)) + sb
    for dim in range(n - 1, -1, -1):
        if pa[dim] != pb[dim] and pa[dim] != 1 and pb[dim] != 1:
            return RuntimeError(
                f"The size of tensor a ({pa[dim]}) must match the size of tensor b ({pb[dim]}) "
                f"at non-singleton dimension {dim}"
            )
    return ValueError(f"operands could not be broadcast together with shapes {sa} {sb}")


def _array_node_run(self: BackwardNode, grad: np.ndarray) -> tuple:
    """Run an ArrayFunction's backward and sum gradients back to broadcast inputs."""
    grads = self._backward(self, grad)
    if type(grads) is not tuple:
        grads = (grads,)
    shapes = self._shapes
    if shapes is not None:
        grads = tuple(
            [
                g if g is None or s is None or g.shape == s else sum_to_shape(g, s)
                for g, s in zip(grads, shapes)
            ]
        )
    return grads


def _keep_default_float(out: np.ndarray, inputs: tuple) -> np.ndarray:
    """numpy makes float64 from integers and Python floats; PyTorch makes float32."""
    for x in inputs:
        if isinstance(x, Tensor) and x._data.dtype is _F64:
            return out
    return out.astype(get_default_dtype().numpy)
