"""In-place operations (``add_``, ``x += 1`` ...): how they are applied and their safety checks.

An in-place op writes into the tensor's own memory and bumps its version
counter, which every view and ``detach()``ed copy shares. Inside the graph it
is recorded as the out-of-place op applied to the old value: the tensor gets the
new node as its ``grad_fn``, and any node that saved the old value will notice
the new version and refuse to compute a wrong gradient.

``fill_``, ``zero_`` and ``copy_`` are in ``fill.py``, ``t[i] = v`` in ``setitem.py``.
"""

from __future__ import annotations

import numpy as np

from .._modes import InferenceVersion
from .._quiet import loud, quiet
from .._shapes import broadcast_shapes
from ..autograd import grad_mode
from ..autograd.function import ArrayFunction
from ..autograd.multi_output import multi_view_error, multi_view_of
from ..autograd.views import no_grad_view_error, rebase_view, view_history
from ..tensor import Tensor, follows_base, new_tensor
from . import arithmetic as A
from ._common import LEGACY_NAMES
from ._short_path import edge, node
from .copies import Clone

_grad_state = grad_mode.state


def check_inplace(t: Tensor, others: tuple = ()) -> bool:
    """Raise PyTorch's error for in-place on a leaf that requires grad; say if graph is needed."""
    if type(t._vc) is not list:  # an inference tensor
        check_inference(t)
    if not _grad_state.enabled:
        return False
    if t._base is not None and t._no_grad_view and _needs_grad(t, others):
        raise no_grad_view_error(t, indirect=False)
    if t._base is not None and t._grad_fn is not None and multi_view_of(t) is not None:
        raise multi_view_error(t)  # an output of unbind, split ... (or a view of one)
    if t._requires_grad and t._grad_fn is None:
        raise RuntimeError(
            "a view of a leaf Variable that requires grad is being used in an in-place operation."
            if t._base is not None  # a leaf made from a view (x.expand(2).requires_grad_())
            else "a leaf Variable that requires grad is being used in an in-place operation."
        )
    base = t._base
    if base is not None and base._requires_grad and base._grad_fn is None:
        raise RuntimeError(
            "a view of a leaf Variable that requires grad is being used in an in-place operation."
        )
    if t._requires_grad:
        return True
    for o in others:  # a loop, not any(): this runs on every optimizer update
        if isinstance(o, Tensor) and (o._requires_grad or follows_base(o)):
            return True
    return False


def _needs_grad(t: Tensor, others: tuple) -> bool:
    """Whether the in-place op on ``t`` would be recorded: an input requires grad."""
    return (
        t._requires_grad
        or follows_base(t)
        or any(isinstance(o, Tensor) and (o._requires_grad or follows_base(o)) for o in others)
    )


def check_inference(t: Tensor, through_index: bool = False) -> None:
    """PyTorch refuses in-place changes to an inference tensor outside inference mode, except
    an op on a ``detach()``ed or ``.data`` copy itself (not on a view of it, not ``t[i] = v``)."""
    if _grad_state.inference:
        return
    if type(t._vc) is InferenceVersion or through_index or t._base is not None:
        raise RuntimeError(
            "Inplace update to inference tensor outside InferenceMode is not allowed.You can "
            "make a clone to get a normal tensor before doing inplace update.See "
            "https://github.com/pytorch/rfcs/pull/17 for more details."
        )


def _snapshot(t: Tensor) -> Tensor:
    """``t``'s old value with its old history: the input of the op an in-place change records
    (copied in its memory order: a float32 kernel's rounding depends on the layout)."""
    history = t._grad_fn if t._base is None else view_history(t)
    old = new_tensor(t._data.copy(order="K"), history, t._requires_grad)
    old._accumulator = t._accumulator
    return old


def _take_result(t: Tensor, result: Tensor) -> None:
    """Write ``result`` into ``t`` and give ``t`` (and the base it is a view of) its history."""
    write_into(t, result._data)
    _saved_result_is(t, result)
    if t._base is not None:
        rebase_view(t, result._grad_fn)
        del t._vc[1:]
    else:
        t._grad_fn = result._grad_fn
        t._requires_grad = True
        t._vc[1:] = [t._grad_fn]  # the version error names this node, as PyTorch does


def _saved_result_is(t: Tensor, result: Tensor) -> None:
    """The op saved its result (``sigmoid_``, ``exp_``): from now on that result is ``t``, so
    a later in-place change to ``t`` must be caught (PyTorch: "output 0 of Sigmoid, is at
    version 2; expected version 1")."""
    node = result._grad_fn
    checks = getattr(node, "_saved_checks", None)
    if not checks:
        return
    counter = result._vc
    watched = list(checks)
    for i in range(0, len(watched), 3):
        if watched[i] is counter:
            watched[i], watched[i + 1] = t._vc, t._vc[0]
    node._saved_checks = tuple(watched)


def write_into(t: Tensor, values: np.ndarray) -> None:
    """Copy ``values`` into ``t``'s memory with PyTorch's casting rule."""
    if values.dtype != t._data.dtype and not np.can_cast(values.dtype, t._data.dtype, "same_kind"):
        src = LEGACY_NAMES[values.dtype]
        dst = LEGACY_NAMES[t._data.dtype]
        raise RuntimeError(f"result type {src} can't be cast to the desired output type {dst}")
    target = t._data
    if not target.flags.writeable:  # numpy's broadcast_to (expand) gives read-only views
        if target.size and any(s == 0 and n > 1 for n, s in zip(target.shape, target.strides)):
            raise RuntimeError(
                "unsupported operation: more than one element of the written-to tensor refers "
                "to a single memory location. Please clone() the tensor before performing the "
                "operation."
            )
        # expanded only along dimensions of size 1 (or no elements at all): no element is
        # written twice, PyTorch allows it
        target = target.view()
        target.setflags(write=True)
    np.copyto(target, values, casting="unsafe")
    t._vc[0] += 1  # every view and detach()ed copy sees the new version


def apply_inplace(op: type[ArrayFunction], t: Tensor, *args) -> Tensor:
    """Run ``op(t, *args)`` and store the result in ``t`` itself."""
    ufunc = UFUNCS.get(op)
    if ufunc is not None and len(args) == 1 and type(args[0]) is Tensor:
        if plain_update(ufunc, t, args[0]):  # p.data += -lr * p.grad: one ufunc
            return t
    return apply_inplace_recorded(op, t, *args)


def apply_inplace_recorded(op: type[ArrayFunction], t: Tensor, *args) -> Tensor:
    """``apply_inplace`` once ``plain_update`` has declined: the op recorded on ``t``'s
    history when it needs grad, else computed and written into ``t``."""
    recorded = check_inplace(t, args)
    if op.broadcasts and op.n_params == 0:  # (t and its operand: not index_put's value)
        _check_output_shape(t, args)
    if recorded:
        old = _snapshot(t)
        result = op.apply(old, *args)
        # PyTorch's clone of the old self comes after the op's node (the newer of the two)
        clone = node(Clone, (edge(old),)) if "self" in op.saved_names else None
        _save_a_clone(op, old, result, clone)
        if result._data.shape != t._data.shape:
            raise RuntimeError(
                f"output with shape {list(t._data.shape)} doesn't match the broadcast shape "
                f"{list(result._data.shape)}"
            )
        _take_result(t, result)
    else:  # nothing requires grad, or grad mode is off: op.apply records nothing
        ufunc = UFUNCS.get(op)
        if (  # p.add_(g) under no_grad: one ufunc
            ufunc is not None
            and len(args) == 1
            and type(args[0]) is Tensor
            and _same_floats(t._data, args[0]._data)
        ):
            _ufunc_into(ufunc, t, args[0])
            return t
        result = op.apply(t, *args)
        if result._data.shape != t._data.shape:
            raise RuntimeError(
                f"output with shape {list(t._data.shape)} doesn't match the broadcast shape "
                f"{list(result._data.shape)}"
            )
        write_into(t, result._data)
    return t


def _check_output_shape(t: Tensor, args: tuple) -> None:
    """PyTorch checks that the inputs broadcast to ``t``'s shape before it computes anything
    (``int_tensor %= zeros`` of a larger shape: the shape error, not a division by zero)."""
    shapes = [a._data.shape for a in args if isinstance(a, Tensor)]
    if any(shape != t._data.shape for shape in shapes):
        shape = broadcast_shapes(t._data.shape, *shapes)
        if shape != t._data.shape:
            raise RuntimeError(
                f"output with shape {list(t._data.shape)} doesn't match the broadcast shape "
                f"{list(shape)}"
            )


def _save_a_clone(op: type[ArrayFunction], old: Tensor, result: Tensor, clone) -> None:
    """An in-place op whose gradient reads ``self`` saves a clone of the old value (PyTorch's
    ``original_self``, cloned just after its node is made): under ``create_graph`` the saved
    self joins the graph through that ``CloneBackward0``, and ``grad_fn._saved_self.grad_fn``
    is it."""
    if clone is None or not old._requires_grad:
        return
    fn = result._grad_fn
    k = 3 * op.saved_names.index("self") + 1
    checks = getattr(fn, "_saved_checks", None) or ()
    if len(checks) > k and checks[k] != -1:  # kept (``saved_when``)
        fn._self_clone = clone


# An optimizer's update (``p.data += -lr * p.grad``, ``p.add_(g)``) writes the op's result
# straight into ``p``'s memory: the same ufunc, so the same values as computing it apart
# and copying it in, for two float tensors of one dtype and shape.
UFUNCS = {A.Add: np.add, A.Sub: np.subtract, A.Mul: np.multiply}


def _ufunc_into(ufunc, t: Tensor, other: Tensor) -> None:
    """``t op= other`` for two float tensors of one dtype and shape, that record no graph."""
    data = t._data
    token = quiet()
    try:
        ufunc(data, other._data, out=data)
    finally:
        loud(token)
    t._vc[0] += 1  # every view and detach()ed copy sees the new version


def plain_update(ufunc, t: Tensor, other: Tensor) -> bool:
    """``t op= other`` as one ufunc into ``t``'s memory, if ``other`` is of ``t``'s float dtype
    and shape, neither requires grad nor is a view and ``t`` is no inference tensor
    (``check_inplace`` has nothing to say then); else False, for the general path.

    The optimizer's update ``p.data += -lr * p.grad`` runs this for every parameter in
    every step: its tests are cheap attribute reads (``_same_floats`` inline), and a
    read-only ``t`` is found by the ufunc itself, which refuses to write before it starts."""
    if (
        t._requires_grad
        or other._requires_grad
        or t._base is not None
        or other._base is not None  # a view may require grad through its base (follows_base)
        or type(t._vc) is not list
    ):
        return False
    data, value = t._data, other._data
    if value.dtype is not data.dtype or data.dtype.kind != "f" or value.shape != data.shape:
        return False
    token = quiet()
    try:
        ufunc(data, value, data)
    except ValueError:  # a read-only array (expand's): the general path says what PyTorch says
        return False
    finally:
        loud(token)
    t._vc[0] += 1  # every view and detach()ed copy sees the new version
    return True


def _same_floats(data: np.ndarray, other: np.ndarray) -> bool:
    """Whether ``other`` can be combined into ``data``'s memory by one ufunc: one float
    dtype, one shape, and ``data`` writable."""
    return (
        other.dtype is data.dtype
        and data.dtype.kind == "f"
        and other.shape == data.shape
        and data.flags.writeable
    )
