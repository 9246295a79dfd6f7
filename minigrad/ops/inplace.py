"""In-place operations (``add_``, ``x += 1``, ``x[i] = v`` ...) and their safety checks.

An in-place op writes into the tensor's own memory and bumps its version
counter, which every view and ``detach()``ed copy shares. Inside the graph it
is recorded as the out-of-place op applied to the old value: the tensor gets the
new node as its ``grad_fn``, and any node that saved the old value will notice
the new version and refuse to compute a wrong gradient.
"""

from __future__ import annotations

import math

import numpy as np

from .._modes import InferenceVersion
from .._quiet import loud, quiet
from ..autograd import grad_mode
from ..autograd.function import ArrayFunction
from ..autograd.multi_output import multi_view_error, multi_view_of
from ..autograd.views import rebase_view, view_history
from ..tensor import Tensor, new_tensor
from . import arithmetic as A
from ._common import LEGACY_NAMES, broadcast_shapes, check_expand
from ._short_path import edge, node
from .getitem import apply_slicing, as_numpy_index, getitem, index_key
from .indexing import IndexPut, drop_leading_ones
from .namespace import namespace
from .shape import Clone, Expand, Unsqueeze, View

_grad_state = grad_mode.state


def check_inplace(t: Tensor, others: tuple = ()) -> bool:
    """Raise PyTorch's error for in-place on a leaf that requires grad; say if graph is needed."""
    if type(t._vc) is not list:  # an inference tensor
        check_inference(t)
    if not _grad_state.enabled:
        return False
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
        if isinstance(o, Tensor) and o._requires_grad:
            return True
    return False


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
    """``t``'s old value with its old history: the input of the op an in-place change records."""
    history = t._grad_fn if t._base is None else view_history(t)
    old = new_tensor(t._data.copy(), history, t._requires_grad)
    old._accumulator = t._accumulator
    return old


def _take_result(t: Tensor, result: Tensor) -> None:
    """Write ``result`` into ``t`` and give ``t`` (and the base it is a view of) its history."""
    _write(t, result._data)
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


def _write(t: Tensor, values: np.ndarray) -> None:
    """Copy ``values`` into ``t``'s memory with PyTorch's casting rule."""
    if values.dtype != t._data.dtype and not np.can_cast(values.dtype, t._data.dtype, "same_kind"):
        src = LEGACY_NAMES[values.dtype]
        dst = LEGACY_NAMES[t._data.dtype]
        raise RuntimeError(f"result type {src} can't be cast to the desired output type {dst}")
    target = t._data
    if not target.flags.writeable:  # numpy's broadcast_to (expand) gives read-only views
        if any(s == 0 and n > 1 for n, s in zip(target.shape, target.strides)):
            raise RuntimeError(
                "unsupported operation: more than one element of the written-to tensor refers "
                "to a single memory location. Please clone() the tensor before performing the "
                "operation."
            )
        # expanded only along dimensions of size 1: no element is written twice, PyTorch allows it
        target = target.view()
        target.setflags(write=True)
    np.copyto(target, values, casting="unsafe")
    t._vc[0] += 1  # every view and detach()ed copy sees the new version


def apply_inplace(op: type[ArrayFunction], t: Tensor, *args) -> Tensor:
    """Run ``op(t, *args)`` and store the result in ``t`` itself."""
    if check_inplace(t, args):
        old = _snapshot(t)
        clone = node(Clone, (edge(old),)) if "self" in op.saved_names else None
        result = op.apply(old, *args)
        _save_a_clone(op, old, result, clone)
        if result._data.shape != t._data.shape:
            raise RuntimeError(
                f"output with shape {list(t._data.shape)} doesn't match the broadcast shape "
                f"{list(result._data.shape)}"
            )
        _take_result(t, result)
    else:  # nothing requires grad, or grad mode is off: op.apply records nothing
        if op in _UFUNCS and _same_floats(t, args):  # p.data += -lr * p.grad: one ufunc
            token = quiet()
            try:
                _UFUNCS[op](t._data, args[0]._data, out=t._data)
            finally:
                loud(token)
            t._vc[0] += 1  # every view and detach()ed copy sees the new version
            return t
        result = op.apply(t, *args)
        if result._data.shape != t._data.shape:
            raise RuntimeError(
                f"output with shape {list(t._data.shape)} doesn't match the broadcast shape "
                f"{list(result._data.shape)}"
            )
        _write(t, result._data)
    return t


def _save_a_clone(op: type[ArrayFunction], old: Tensor, result: Tensor, clone) -> None:
    """An in-place op whose gradient reads ``self`` saves a clone of the old value, made
    before the op (PyTorch's ``original_self``): under ``create_graph`` the saved self joins
    the graph through that ``CloneBackward0``, and ``grad_fn._saved_self.grad_fn`` is it."""
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
_UFUNCS = {A.Add: np.add, A.Sub: np.subtract, A.Mul: np.multiply}


def _same_floats(t: Tensor, args: tuple) -> bool:
    if len(args) != 1 or type(args[0]) is not Tensor:
        return False
    data, other = t._data, args[0]._data
    return (
        other.dtype is data.dtype
        and data.dtype.kind == "f"
        and other.shape == data.shape
        and data.flags.writeable
    )


class Fill(ArrayFunction):
    """``t.fill_(value)`` inside the graph: the old values no longer matter."""

    node_name = "FillBackward2"
    n_params = 1

    @staticmethod
    def forward(ctx, a, value):
        return np.full_like(a, value)

    @staticmethod
    def backward(ctx, grad):
        return namespace(grad).zeros_like(grad)


class FillTensor(ArrayFunction):
    """``t.fill_(value)`` with a 0-d tensor: the gradient of ``value`` is the sum of all."""

    node_name = "FillBackward3"

    @staticmethod
    def forward(ctx, a, value):
        return np.full_like(a, value)

    @staticmethod
    def backward(ctx, grad):
        xp = namespace(grad)
        return xp.zeros_like(grad), xp.sum(grad)


class Zero(ArrayFunction):
    node_name = "ZeroBackward0"

    @staticmethod
    def forward(ctx, a):
        return np.zeros_like(a)

    @staticmethod
    def backward(ctx, grad):
        return namespace(grad).zeros_like(grad)


class Copy(ArrayFunction):
    """``t.copy_(src)``: ``src`` broadcast to ``t``'s shape and cast to its dtype."""

    node_name = "CopyBackwards"
    namespaced = True
    broadcasts = True
    default_float = False  # the copy takes t's dtype, whatever src's is

    @staticmethod
    def forward(ctx, a, src):
        return np.broadcast_to(src, a.shape).astype(a.dtype)

    @staticmethod
    def backward(ctx, grad):
        return namespace(grad).zeros_like(grad), grad


def fill_(t: Tensor, value) -> Tensor:
    """Set every element to ``value`` (a number or a 0-d tensor)."""
    if isinstance(value, Tensor):
        if value.ndim:
            raise RuntimeError(
                "fill_ only supports 0-dimension value tensor but got tensor with "
                f"{value.ndim} dimensions."
            )
        return apply_inplace(FillTensor, t, value)
    value = check_number_fits(value, t._data.dtype, filling=True)
    if not check_inplace(t):  # outside the graph: just write (optimizers zero grads often)
        t._data[...] = value
        t._vc[0] += 1
        return t
    return apply_inplace(Fill, t, value)


def zero_(t: Tensor) -> Tensor:
    if not check_inplace(t):
        t._data[...] = 0
        t._vc[0] += 1
        return t
    return apply_inplace(Zero, t)


def copy_(t: Tensor, src) -> Tensor:
    """Copy ``src`` (broadcast, any dtype) into ``t``; differentiable with respect to ``src``."""
    if not isinstance(src, Tensor):
        raise TypeError(
            f"copy_(): argument 'other' (position 1) must be Tensor, not {type(src).__name__}"
        )
    if broadcast_shapes(t._data.shape, src._data.shape) != t._data.shape:
        raise RuntimeError(
            f"output with shape {list(t._data.shape)} doesn't match the broadcast shape "
            f"{list(np.broadcast_shapes(t._data.shape, src._data.shape))}"
        )
    if t._data.dtype.kind in "biu":  # PyTorch's copy_ records nothing into a tensor that
        if type(t._vc) is not list:  # cannot require grad (fill_ and the others do)
            check_inference(t)
        _write(t, Copy.forward(None, t._data, src._data))
        return t
    return apply_inplace(Copy, t, src)


_OVERFLOW_NAMES = {  # the C types PyTorch's range check names
    np.dtype(np.int8): "int8_t",
    np.dtype(np.uint8): "uint8_t",
    np.dtype(np.int16): "int16_t",
    np.dtype(np.int32): "int",
    np.dtype(np.int64): "int64_t",
    np.dtype(np.float16): "c10::Half",
    np.dtype(np.float32): "float",
}


def check_number_fits(value, dtype: np.dtype, filling: bool):
    """PyTorch converts a Python number to the tensor's type with a range check (``t[i] = v``,
    ``fill_``): an integer must fit in 64 bits; integer types take an int down to minus their
    maximum (two's complement wraps) and a float within their range; float32 a finite float
    within its range (float16 only in ``fill_``: ``t[i] = v`` rounds to inf). Returns the
    number to write (a negative int wrapped into an unsigned type)."""
    if type(value) is bool or not isinstance(value, (int, float)):
        return value
    if isinstance(value, int) and not -(2**63) <= value < 2**63:
        if filling:
            raise OverflowError("int too big to convert")
        raise ValueError("Overflow when unpacking long long")
    name = _OVERFLOW_NAMES.get(dtype)
    if name is None:
        return value
    if dtype == np.float16 and not filling:
        with np.errstate(over="ignore"):
            return float(np.float16(value))
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        low = -int(info.max) if dtype.kind == "u" and isinstance(value, int) else int(info.min)
        fits = low <= value <= info.max  # False for nan
    else:
        fits = math.isinf(value) or math.isnan(value) or abs(value) <= float(np.finfo(dtype).max)
    if not fits:
        raise RuntimeError(f"value cannot be converted to type {name} without overflow")
    if dtype.kind == "u" and isinstance(value, int) and value < 0:
        return value % (int(np.iinfo(dtype).max) + 1)  # two's complement, as C casts it
    return value


def setitem(t: Tensor, index, value) -> Tensor:
    """``t[index] = value``, written in place.

    In the graph it is recorded in PyTorch's steps (its ``set_item``): the basic part of the
    index (ints, slices, None, ...) is a view of ``t``, and ``value`` goes into that view with
    ``copy_`` (``fill_`` for a 0-d value; a value of another shape is first viewed without its
    leading ones and expanded) or, when tensors, lists or masks are left, with ``index_put_``.
    Through a view ``t`` records ``CopySlices`` around that op; ``t[...] = v``, ``t[:] = v`` and
    ``t[[0, 2]] = v`` write into ``t`` itself, which records the op's own node.
    """
    if index is False:  # PyTorch writes nothing and checks nothing
        return t
    value = check_number_fits(value, t._data.dtype, filling=False)
    if type(t._vc) is not list:  # an inference tensor
        check_inference(t, through_index=True)
    key = as_numpy_index(index)
    target = getitem(new_tensor(t._data), index)  # PyTorch's index errors, and the shape
    value_shape = np.shape(value._data if isinstance(value, Tensor) else value)
    parts = key if isinstance(key, tuple) else (key,)
    if any(isinstance(k, np.ndarray) and (k.ndim or k.dtype == np.bool_) for k in parts):
        _check_index_put(value_shape, target._data.shape)
        if isinstance(value, Tensor) and value._data.dtype != t._data.dtype:
            raise RuntimeError(
                "Index put requires the source and destination dtypes match, got "
                f"{LEGACY_NAMES[t._data.dtype]} for the destination and "
                f"{LEGACY_NAMES[value._data.dtype]} for the source."
            )
    check_expand(
        value_shape,
        target._data.shape,
        value._data.dtype if isinstance(value, Tensor) else t._data.dtype,
    )
    grad_value = isinstance(value, Tensor) and value._requires_grad
    if _grad_state.enabled and (t._requires_grad or grad_value):
        _record_setitem(t, index, value)
    else:  # nothing to record
        value = value._data if isinstance(value, Tensor) else value
        t._data[key] = drop_leading_ones(value, target._data.ndim)
        t._vc[0] += 1
    return t


def _record_setitem(t: Tensor, index, value) -> None:
    """``t[index] = value`` in the graph, as PyTorch's ``set_item`` does it (see ``setitem``)."""
    if not isinstance(value, Tensor):  # a number becomes a 0-d tensor of t's dtype
        value = new_tensor(np.asarray(value, dtype=t._data.dtype))
    if index is True:  # x[True] = v is copied into x.unsqueeze(0)
        sliced, rest = Unsqueeze.apply(t, 0), None
    else:
        sliced, rest = apply_slicing(t, index)
    if rest is not None:
        key = index_key(rest, sliced._data.shape)
        apply_inplace(IndexPut, sliced, _without_leading_ones(value, view_always=False), key)
    elif sliced._data.shape == value._data.shape:
        copy_(sliced, value)
    elif value._data.ndim == 0:
        fill_(sliced, value)
    else:
        value = _without_leading_ones(value, view_always=True)
        if value._data.shape != sliced._data.shape:
            value = Expand.apply(value, sliced._data.shape)
        copy_(sliced, value)


def _without_leading_ones(value: Tensor, view_always: bool) -> Tensor:
    """``value`` viewed without its leading dims of size 1 (PyTorch's ``slicePrefix1sSize``)."""
    shape = value._data.shape
    start = next((i for i, n in enumerate(shape) if n != 1), len(shape))
    if start or view_always:
        return View.apply(value, shape[start:])
    return value


def _check_index_put(value_shape: tuple, target_shape: tuple) -> None:
    """``x[mask] = v``, ``x[[0, 1]] = v``: PyTorch's words when ``v`` does not broadcast."""
    core = tuple(value_shape)
    while core and core[0] == 1:
        core = core[1:]  # leading ones are dropped, as PyTorch does
    try:
        fits = np.broadcast_shapes(core, target_shape) == tuple(target_shape)
    except ValueError:
        fits = False
    if not fits:
        raise RuntimeError(
            f"shape mismatch: value tensor of shape {list(core)} cannot be broadcast to "
            f"indexing result of shape {list(target_shape)}"
        )
