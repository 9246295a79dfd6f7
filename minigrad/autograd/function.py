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

How a built-in op's ``apply`` runs (the engine's hot path) is in ``array_apply.py``;
under ``create_graph=True`` the same nodes run on Tensors: ``double_backward.py``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..tensor import Tensor, new_tensor
from . import anomaly_mode, grad_mode
from .accumulate_grad import (
    AccumulateGrad,
    accumulator_of,
    node_of,
    retain_grad_hook,
    sum_to_shape,
)
from .array_apply import (
    _DISCARD,
    _apply_arrays,
    _apply_binary,
    _apply_unary,
    _array_node_run,
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
from .saved_values import BackwardNode
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
    not_implemented = False  # PyTorch's NotImplemented node: runs first, and raises
    _Node: type[BackwardNode]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        name = cls.__dict__.get("node_name") or f"{cls.__name__}Backward"
        module = "builtins" if cls.__module__.startswith("minigrad.") else __name__
        namespace = "minigrad::autograd::" if cls.namespaced else ""
        bases = (BackwardNode,) if getattr(cls, "_array", False) else (MultiOutput, BackwardNode)
        error = cls.not_implemented
        cls._Node = type(
            name,
            bases,
            {"_function": cls, "__module__": module, "_namespace": namespace, "_asap": error},
        )
        cls._Node._raises = error
        cls._Node._run = cls._node_run  # the engine calls node._run(grad)
        cls._Node._run_graph = cls._node_run  # ... or, under create_graph, node._run_graph(grad)
        if not cls.__module__.startswith("minigrad."):  # a user's Function
            cls._Node._run_without_grad = _run_user_backward

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
            isinstance(a, Tensor) and a.requires_grad for a in args
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
        ctx._out_meta = ((output._data.shape, output._data.dtype),)
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
      (the two-input short path always applies it);
    - ``float_operands``: a float and an integer operand are computed, and saved, in the
      float's dtype, as PyTorch does (``mul``, ``div``: their gradients multiply by the
      saved operand, and must stay in the gradient's dtype);
    - ``elementwise``: one input, each output element from its own input element, by a kernel
      that builds its result in C order (``np.where``, masks): the result is laid out as
      TensorIterator's, like the input (numpy's own ufuncs already do that);
    - ``exact_grads``: on arrays, ``backward`` returns a tuple with each input's gradient
      in that input's shape, and reads ``ctx.saved_tensors`` before anything forward kept
      (which raises on a freed graph). The engine then calls it directly, without the
      general wrapper's shape sums and freed-graph test: a node less of Python per step
      for the ops of every layer (addmm, t, relu, mse_loss).

    ``call(*args)`` is how a backward formula uses another op (``TanhBackward``): on
    arrays it runs that op's forward and nothing else; on Tensors it records it.

    ``apply`` is the hot path of the whole engine: every operation a learner
    writes goes through it, so it is written for speed (one- and two-input ops
    get their own short paths) rather than brevity, in ``array_apply.py``.
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
    float_operands = False
    elementwise = False
    true_division = False  # an int operand is read as a float, not wrapped (number_range)
    exact_grads = False
    #: per input, whether its gradient only multiplies or divides ``grad`` (``grad * b``,
    #: ``grad / a``): PyTorch's efficient zeros then stay efficient zeros (zero_grads.py)
    keeps_zeros: tuple[bool, ...] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._Node._keeps_zeros = cls.keeps_zeros
        cls._Node._run = cls.backward if cls.exact_grads else _array_node_run
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

    apply = classmethod(_apply_arrays)  # array_apply.py, with the short paths


def _run_user_backward(self: BackwardNode, graph: bool = False) -> tuple:
    """No output of a user's Function got a gradient: PyTorch calls its backward all the same,
    with zeros (None after ``ctx.set_materialize_grads(False)``), and passes on what it returns;
    under ``create_graph`` the zeros are constants of the graph that backward records."""
    slots = Gradients(self._n_outputs)
    if graph and self._materialize:
        slots.grads = [meta and new_tensor(np.zeros(*meta)) for meta in self._out_meta]
    grads = self._run(slots)
    if not graph:
        return grads
    return tuple([new_tensor(g) if type(g) is np.ndarray else g for g in grads])  # constants
