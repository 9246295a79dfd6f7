"""Function: how an operation records itself for the backward pass.

Every differentiable operation is a ``Function`` subclass with ``forward`` and
``backward`` side by side. Calling ``MyOp.apply(...)`` runs ``forward`` and, when
grad mode is on and an input requires grad, creates a node of the backward
graph (``node.py``): an instance of ``MyOpBackward`` (PyTorch's naming), which
is also the ``ctx`` that ``forward`` and ``backward`` receive. ``apply`` fills
in what every op needs, once, so an op is only its arithmetic:

- one edge per input (``next_functions``), an ``AccumulateGrad`` for a leaf;
- the version of each value ``forward`` saved, checked again when ``backward``
  reads ``ctx.saved_tensors``;
- the input shapes, when the op broadcasts, to sum gradients back to them.

Two kinds:

- ``Function`` (public, as in PyTorch): ``forward`` and ``backward`` receive and
  return Tensors. Lesson 6 writes custom ops with it.
- ``ArrayFunction`` (the built-in ops): the same API, but ``forward`` and
  ``backward`` receive and return the numpy arrays inside the tensors (the
  eggs), which saves wrapping every intermediate value in a Tensor.

Under ``create_graph=True`` the same nodes run on Tensors: ``double_backward.py``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._dtypes import get_default_dtype, promote_pair, promote_zero_dim
from .._quiet import loud, quiet
from .._shapes import broadcast_shapes
from ..tensor import Tensor, new_tensor
from . import anomaly_mode, grad_mode
from .accumulate_grad import (
    AccumulateGrad,
    accumulator_of,
    node_of,
    retain_grad_hook,
    sum_to_shape,
)
from .double_backward import (
    _add_saved_attributes,
    _array_node_run_graph,
    _call_node,
    once_differentiable,
    saved_as_tensors,
)
from .multi_output import Gradients, MultiOutput, output_grads, wrap_outputs
from .node import Node, sequence
from .saved_values import _FREED, _SECOND_BACKWARD, BackwardNode
from .views import view_history

__all__ = [
    "Function",
    "ArrayFunction",
    "Node",
    "AccumulateGrad",
    "sum_to_shape",
    "accumulator_of",
    "retain_grad_hook",
    "once_differentiable",
]

_grad_state = grad_mode.state
_anomaly = anomaly_mode.state
_F64 = np.dtype(np.float64)
_ndarray = np.ndarray
_NUMBERS = frozenset((float, int, bool))


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
    (default: the class name + ``Backward``); ``namespaced`` marks the nodes that
    PyTorch only has in C++ (``CopySlices``), whose ``name()`` carries
    ``minigrad::autograd::`` as PyTorch's carries ``torch::autograd::``.
    """

    node_name: str | None = None
    namespaced = False
    _Node: type[BackwardNode]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        name = cls.__dict__.get("node_name") or f"{cls.__name__}Backward"
        module = "builtins" if cls.__module__.startswith("minigrad.") else __name__
        namespace = "minigrad::autograd::" if cls.namespaced else ""
        bases = (BackwardNode,) if getattr(cls, "_array", False) else (MultiOutput, BackwardNode)
        cls._Node = type(
            name,
            bases,
            {"_function": cls, "__module__": module, "_namespace": namespace},
        )
        cls._Node._run = cls._node_run  # the engine calls node._run(grad)
        cls._Node._run_graph = cls._node_run  # ... or, under create_graph, node._run_graph(grad)

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
        ctx._next = tuple(
            _input_edge(a) if requires else None for a in args if isinstance(a, Tensor)
        )
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
                return wrap_outputs(ctx, args, output)
            return output
        if not requires or ctx._non_differentiable and output in ctx._non_differentiable:
            return output if output._grad_fn is None else output.detach()
        ctx._seq = next(sequence)
        if _anomaly.enabled:
            anomaly_mode.remember_forward(ctx)
        ctx._shapes = tuple(args[i]._data.shape for i in ctx._tensor_positions)
        result = new_tensor(output._data, ctx, True)
        if any(a is output for a in args):  # an input returned as is: same storage, counter
            result._vc = output._vc
        if ctx._saved is not None:
            saved_output = any(s is output for s in ctx._saved)  # `is`: `in` would compare values
            ctx._record_versions(args, args, output if saved_output else result)
        return result

    def _node_run(self: BackwardNode, grad: np.ndarray | Tensor) -> tuple:
        """Call the user's backward on Tensors and check what it returns.

        An ordinary backward passes an array (the backward runs in no_grad); under
        ``create_graph`` the engine passes a Tensor and the backward runs with grad
        mode on, its saved output tied to this node, so that it records a graph.
        """
        function = self._function
        if type(grad) is Gradients:  # a Function that returned several tensors
            grad, graph = output_grads(self, grad.grads)
        else:
            graph = isinstance(grad, Tensor)
            grad = (grad if graph else new_tensor(grad),)
        if graph:
            with saved_as_tensors(self), grad_mode.enable_grad():
                grads = function.backward(self, *grad)
        else:
            with grad_mode.no_grad():
                grads = function.backward(self, *grad)
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
            if g._data.shape != shape:
                try:
                    np.broadcast_shapes(g._data.shape, shape)
                    if len(shape) > g._data.ndim:
                        raise ValueError
                    g = g.sum_to_size(shape) if graph else new_tensor(sum_to_shape(g._data, shape))
                except ValueError:
                    raise RuntimeError(
                        f"Function {self.name()} returned an invalid gradient at index {i} - "
                        f"got {list(g._data.shape)} but expected shape compatible with "
                        f"{list(shape)}"
                    ) from None
            out.append(g if graph else g._data)
        return tuple(out)


def _input_edge(a: Tensor) -> Node | None:
    """Where a custom Function sends the gradient of input ``a`` (a leaf view: its own
    AccumulateGrad, as for any leaf)."""
    if a._base is None or not a._requires_grad:
        return node_of(a)
    fn = view_history(a)
    return fn if fn is not None else accumulator_of(a)


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
      float64); False for ops that choose their dtype on purpose (``to``);
    - ``saved_names``: PyTorch's name of each value ``save_for_backward`` keeps
      (``"self"``, ``"other"``, ``"result"``), read as ``grad_fn._saved_self``;
      ``saved_settings`` maps PyTorch's names of settings to ``ctx`` attributes
      (``{"dim": "axis"}``);
    - ``save_for_backward``: what PyTorch's node saves (its tensors), also a value the formula
      reads from ``ctx`` (``ctx.mask``): once backward freed the graph, running the node again
      raises PyTorch's "backward through the graph a second time" error, as PyTorch's does
      exactly when its node had saved a tensor;
    - ``saved_when``: per saved value, the input whose gradient needs it (None: always).
      PyTorch saves ``other`` of ``x * other`` only if ``x`` requires grad; a value no
      gradient needs is not kept (None), so changing it in place later is no error;
    - ``promotes``: two tensor inputs, elementwise (``where``, ``add(alpha=)``): a 0-d one
      follows PyTorch's type promotion (``promote_pair``), as every binary operator does
      (the two-input short path always applies it).

    ``call(*args)`` is how a backward formula uses another op (``TanhBackward``): on
    arrays it runs that op's forward and nothing else; on Tensors it records it.

    ``apply`` is the hot path of the whole engine: every operation a learner
    writes goes through it, so it is written for speed (one- and two-input ops
    get their own short paths) rather than brevity.
    """

    _array = True  # its nodes have one output (multi_output.MultiArrayFunction: several)
    n_params = 0
    grad_position = 0  # ``call``: which argument is the gradient (a Tensor under create_graph)
    broadcasts = False
    is_view = False
    default_float = True
    saved_names: tuple[str, ...] = ()
    saved_when: tuple[int | None, ...] | None = None
    saved_settings: dict[str, str] = {}
    promotes = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._Node._run = _array_node_run
        cls._Node._run_graph = _array_node_run_graph
        cls._Node._backward = staticmethod(cls.backward)
        cls._Node.__call__ = _call_node  # built-in nodes are callable (custom ones are not)
        _add_saved_attributes(cls)  # grad_fn._saved_self ...
        if cls.saved_when is not None:
            cls._Node._saved_unless = tuple(
                [(k, i) for k, i in enumerate(cls.saved_when) if i is not None]
            )
        if not cls.broadcasts and "apply" not in cls.__dict__:
            n_inputs = cls.forward.__code__.co_argcount - 1 - cls.n_params
            if n_inputs == 1 and not cls.forward.__code__.co_flags & 0x04:
                cls.apply = classmethod(_apply_unary)
        if cls.broadcasts and "apply" not in cls.__dict__ and cls.n_params == 0:
            if cls.forward.__code__.co_argcount == 3:
                cls.apply = classmethod(_apply_binary)

    @classmethod
    def call(cls, *args: Any) -> Any:
        """This op inside another op's backward formula (see ``minigrad.ops.namespace``)."""
        if isinstance(args[cls.grad_position], Tensor):
            return cls.apply(*args)
        return cls.forward(_DISCARD, *args)

    @classmethod
    def apply(cls, *args: Any) -> Tensor:
        n_params = cls.n_params
        inputs = args[: len(args) - n_params] if n_params else args
        values = []
        nexts = []  # where each input's gradient goes (used only if the graph is recorded)
        requires = False
        for x in inputs:
            if isinstance(x, Tensor):
                values.append(x._data)
                if x._requires_grad:
                    requires = True
                    fn = x._grad_fn if x._base is None else view_history(x)
                    nexts.append(fn if fn is not None else x._accumulator or accumulator_of(x))
                    continue
            else:
                values.append(x)
            nexts.append(None)
        if cls.promotes:
            values[0], values[1] = promote_pair(values[0], values[1])
        ctx = cls._Node()
        token = quiet()  # no numpy warnings for inf and nan (minigrad/_quiet.py)
        try:
            if n_params:
                out = cls.forward(ctx, *values, *args[len(inputs) :])
            else:
                out = cls.forward(ctx, *values)
            if type(out) is not _ndarray:
                out = _as_array(ctx, out)
            if out.dtype is _F64 and cls.default_float:
                out = _keep_default_float(out, inputs)
        finally:
            loud(token)
        requires = requires and _grad_state.enabled
        result = new_tensor(out, ctx if requires else None, requires)
        if cls.is_view:
            base = args[0]
            result._vc = base._vc
            result._base = base if base._base is None else base._base
            result._view_version = base._vc[0]
        if requires:
            ctx._next = tuple(nexts)
            ctx._seq = next(sequence)
            if _anomaly.enabled:
                anomaly_mode.remember_forward(ctx)
            if ctx._saved is not None:
                ctx._record_versions(inputs, values, result)
            if cls.broadcasts:
                ctx._shapes = tuple([v.shape if type(v) is _ndarray else None for v in values])
        return result


def _apply_unary(cls, a: Tensor, *params: Any) -> Tensor:
    """``apply`` for ops of one tensor (exp, sum, mean, views such as t() ...)."""
    ctx = cls._Node()
    try:
        data = a._data
    except AttributeError:
        raise TypeError(
            f"{cls.__name__.lower()}(): argument 'input' (position 1) must be "
            f"Tensor, not {type(a).__name__}"
        ) from None
    if cls.is_view:  # a view computes nothing: numpy has nothing to warn about
        out = cls.forward(ctx, data, *params)
        if type(out) is not _ndarray:  # x[0] of a vector: numpy gives a scalar
            out = _as_array(ctx, out)
    else:
        token = quiet()
        try:
            out = cls.forward(ctx, data, *params)
            if type(out) is not _ndarray:
                out = _as_array(ctx, out)
            if out.dtype is _F64 and data.dtype is not _F64 and cls.default_float:
                out = out.astype(get_default_dtype().numpy)
        finally:
            loud(token)
    requires = a._requires_grad and _grad_state.enabled
    result = new_tensor(out, ctx if requires else None, requires)
    if cls.is_view:  # same memory as ``a``: same version counter
        result._vc = a._vc
        result._base = a if a._base is None else a._base
        result._view_version = a._vc[0]
    if not requires:
        return result
    fn = a._grad_fn if a._base is None else view_history(a)
    ctx._next = (fn if fn is not None else a._accumulator or accumulator_of(a),)
    ctx._seq = next(sequence)
    if _anomaly.enabled:
        anomaly_mode.remember_forward(ctx)
    saved = ctx._saved
    if saved is not None:
        if len(saved) == 1 and saved[0] is out and out is not data:  # the result (relu, exp)
            vc = result._vc
            ctx._saved_checks = (vc, vc[0], -1)
        else:
            ctx._record_versions((a,), (data,), result)
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
    if (  # promote_pair, inlined: this is the hot path of every + - * /
        type(ad) is _ndarray
        and type(bd) is _ndarray
        and ad.dtype is not bd.dtype
        and (ad.ndim == 0) is not (bd.ndim == 0)
    ):
        ad, bd = promote_zero_dim(ad, bd)
    token = quiet()
    try:
        out = cls.forward(ctx, ad, bd)
        if type(out) is not _ndarray:
            out = _as_array(ctx, out)
        if out.dtype is _F64:
            out = _keep_default_float(out, (a, b))
    except ValueError:
        broadcast_shapes(np.shape(ad), np.shape(bd))  # PyTorch's error if they do not broadcast
        raise  # they do: another problem, reported as numpy said it
    finally:
        loud(token)
    if not ((ar or br) and _grad_state.enabled):
        return new_tensor(out)
    result = new_tensor(out, ctx, True)
    if ar:
        fn = a._grad_fn if a._base is None else view_history(a)
        fa = fn if fn is not None else a._accumulator or accumulator_of(a)
    else:
        fa = None
    if br:
        fn = b._grad_fn if b._base is None else view_history(b)
        fb = fn if fn is not None else b._accumulator or accumulator_of(b)
    else:
        fb = None
    ctx._next = (fa, fb)
    ctx._seq = next(sequence)
    if _anomaly.enabled:
        anomaly_mode.remember_forward(ctx)
    saved = ctx._saved
    if saved is not None:
        va = a._vc if ar else None
        vb = b._vc if br else None
        if (  # both inputs saved as they came (x * y): _record_versions' answer, directly
            type(va) is list
            and type(vb) is list
            and len(saved) == 2
            and saved[0] is ad
            and saved[1] is bd
            and out is not ad
            and out is not bd
        ):
            ctx._saved_checks = (va, va[0], 0, vb, vb[0], 1)
        else:
            ctx._record_versions((a, b), (ad, bd), result)
    if ar and br and ad.shape == bd.shape:  # the same shape: nothing was broadcast
        return result
    if type(bd) in _NUMBERS or type(ad) in _NUMBERS:  # x * 2.0: the tensor's shape
        return result
    shape = out.shape
    sa = ad.shape if ar and ad.shape != shape else None
    sb = bd.shape if br and bd.shape != shape else None
    if sa is not None or sb is not None:
        ctx._shapes = (sa, sb)
    return result


def _array_node_run(self: BackwardNode, grad: np.ndarray) -> tuple:
    """Run an ArrayFunction's backward and sum gradients back to broadcast inputs."""
    __tracebackhide__ = True  # IPython leaves this frame out of a learner's traceback
    if self._saved is _FREED and _kept_any(self):  # also what a formula reads from ctx is gone
        raise RuntimeError(_SECOND_BACKWARD)
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


def _kept_any(node: BackwardNode) -> bool:
    """Whether forward kept a value (PyTorch raises on a second backward exactly then);
    a version of -1 marks one not kept (``saved_when``)."""
    return any([version != -1 for version in node._saved_checks[1::3]])


class _Discard:
    """The ``ctx`` of an op run by ``call`` on arrays: nothing is recorded.

    One instance serves every call (the fast path makes no object): a forward may set
    settings on it (``ctx.axis``); nothing reads them back.
    """

    def save_for_backward(self, *values: Any) -> None:
        pass


_DISCARD = _Discard()


def _keep_default_float(out: np.ndarray, inputs: tuple) -> np.ndarray:
    """numpy makes float64 from integers and Python floats; PyTorch makes float32."""
    for x in inputs:
        if isinstance(x, Tensor) and x._data.dtype is _F64:
            return out
    return out.astype(get_default_dtype().numpy)


def _as_array(ctx: BackwardNode, out: Any) -> np.ndarray:
    """numpy gives a scalar for a 0-d result: make it an array, also where forward saved it.

    The saved value must stay the output itself (``is``), so that its version is watched
    and, under ``create_graph``, it is tied to this node.
    """
    array = np.asarray(out)
    saved = ctx._saved
    if saved is not None:
        ctx._saved = tuple([array if s is out else s for s in saved])
    return array
