"""``//``, ``%``, ``fmod`` and ``div(rounding_mode=...)``: the divisions that round.

``//`` is recorded without a derivative (PyTorch's ``NotImplemented`` node); ``div``'s
rounding modes are steps, whose gradient is 0; ``%`` passes the gradient to the dividend
(the divisor's is ``-grad * floor(a / b)``). ``fmod`` is C's remainder, the one left by the
quotient rounded toward zero (its sign is the dividend's: ``fmod(-5, 3)`` is -2 where
``-5 % 3`` is 1); its divisor's gradient is ``-grad * trunc(a / b)``.
"""

from __future__ import annotations

import numpy as np

from .._dtypes import LEGACY_NAMES, get_default_dtype, result_dtype
from .._shapes import broadcast_shapes
from ..autograd.function import ArrayFunction, _apply_binary
from .arithmetic import _is_bool
from .namespace import namespace
from .number_range import int_operand
from .vector_fmod import fmod_as_pytorch

_BOOL = np.dtype(np.bool_)


def _floor_divide(a, b):
    """``a // b`` as PyTorch computes it: no bools, no integer division by zero, and an integer
    and a float divided in the float's dtype."""
    _no_bool_division(a, b, "div_floor")
    _no_integer_division_by_zero(a, b)
    return np.floor_divide(*_in_float_dtype(a, b))


def _remainder(a, b):
    """``a % b`` as PyTorch computes it: no bools, no integer division by zero, then fmod moved
    into the divisor's sign (so -1. % 1. is -0., as there)."""
    _no_bool_division(a, b, "remainder")
    _no_integer_division_by_zero(a, b)
    mod = fmod_as_pytorch(a, b, [a, b])  # nan where PyTorch's vector loop overflows
    if mod.dtype.kind != "f":
        return np.remainder(a, b)
    return np.where((mod != 0) & ((np.asarray(b) < 0) != (mod < 0)), mod + b, mod)


def _fmod(a, b):
    """C's ``fmod`` as PyTorch computes it: no bools, no integer division by zero, an integer
    and a float in the float's dtype (an int64 beyond 2**24 is rounded to float32 first)."""
    _no_bool_division(a, b, "fmod")
    _no_integer_division_by_zero(a, b)
    if isinstance(b, float) and np.asarray(a).dtype.kind in "iub":
        a = np.asarray(a, get_default_dtype().numpy)
    a, b = _in_float_dtype(a, b)
    return fmod_as_pytorch(a, b, [a, b])  # nan where PyTorch's vector loop overflows


def check_inplace_cast(t, other) -> None:
    """``t %= other``, ``t.fmod_(other)``: PyTorch checks that the result's dtype can be written
    into ``t`` before it divides (a bool ``t`` by integer zeros: the cast error, not the
    division by zero), once the shapes fit (their error comes first)."""
    data = t._data
    if isinstance(other, (bool, int, float)):
        kind = {bool: "b", int: "i", float: "f"}[type(other)]
        if kind == "b" or "biuf".index(kind) <= "biuf".index(data.dtype.kind):
            return
        src = np.dtype(np.int64) if kind == "i" else get_default_dtype().numpy
    else:
        shape = other._data.shape
        if not _fits(data.shape, shape) or np.broadcast_shapes(data.shape, shape) != data.shape:
            return  # the shape error is PyTorch's first
        src = result_dtype(data, other._data)
    if src != data.dtype and not np.can_cast(src, data.dtype, "same_kind"):
        raise RuntimeError(
            f"result type {LEGACY_NAMES[src]} can't be cast to the desired output type "
            f"{LEGACY_NAMES[data.dtype]}"
        )


def _fits(shape: tuple, other: tuple) -> bool:
    try:
        np.broadcast_shapes(shape, other)
    except ValueError:
        return False
    return True


def _no_bool_division(a, b, kernel: str) -> None:
    if _is_bool(a) and _is_bool(b):
        raise NotImplementedError(f"\"{kernel}_cpu\" not implemented for 'Bool'")


def _no_integer_division_by_zero(a, b) -> None:
    if np.result_type(a, b).kind in "iu" and np.size(a) and np.size(b) and not np.all(b):
        broadcast_shapes(np.shape(a), np.shape(b))  # sizes that do not fit: that error first
        raise RuntimeError("ZeroDivisionError")


def _in_float_dtype(a, b) -> tuple:
    """An integer array and a float array both in the float one's dtype, where PyTorch divides
    (numpy would divide int64 by float32 in float64: 3 // 0.3 rounds to 9 there, 10 in float32)."""
    da, db = getattr(a, "dtype", None), getattr(b, "dtype", None)
    if da is None or db is None or da.kind == db.kind or "f" not in (da.kind, db.kind):
        return a, b
    dtype = da if da.kind == "f" else db
    return np.asarray(a, dtype), np.asarray(b, dtype)


class RemainderScalar(ArrayFunction):
    """``tensor % number`` (Python's sign rule: the result has the sign of the divisor)."""

    node_name = "RemainderBackward0"
    n_params = 1

    @staticmethod
    def forward(ctx, a, number):
        return _remainder(a, int_operand(a, number))

    @staticmethod
    def backward(ctx, grad):
        return grad


class Remainder(ArrayFunction):
    """``tensor % tensor``."""

    node_name = "RemainderBackward1"
    broadcasts = True
    saved_names = ("self", "other")  # x %= y saves a clone of the old x (CloneBackward0)
    saved_when = (1, 1)  # only b's gradient reads them (PyTorch keeps neither otherwise)

    @staticmethod
    def forward(ctx, a, b):
        out = _remainder(a, b)
        ctx.save_for_backward(a, b)
        return out

    @staticmethod
    def backward(ctx, grad):
        """The divisor's gradient is ``-grad * div(a, b, rounding_mode="floor")`` (a step
        function: recorded as ``DivBackward2``, whose own gradient is 0)."""
        if ctx._next[1] is None:  # nothing was kept: b's gradient is not needed
            return grad, None
        a, b = ctx.saved_tensors
        return grad, -grad * DivRounded.call(a, b, "floor")


class FmodScalar(ArrayFunction):
    """``fmod(tensor, number)``: the gradient passes to the tensor as it is."""

    node_name = "FmodBackward0"
    n_params = 1

    @staticmethod
    def forward(ctx, a, number):
        return _fmod(a, int_operand(a, number))

    @staticmethod
    def backward(ctx, grad):
        return grad


class Fmod(ArrayFunction):
    """``fmod(tensor, tensor)``."""

    node_name = "FmodBackward1"
    broadcasts = True
    saved_names = ("self", "other")
    saved_when = (1, 1)  # only b's gradient reads them

    @staticmethod
    def forward(ctx, a, b):
        out = _fmod(a, b)
        ctx.save_for_backward(a, b)
        return out

    @staticmethod
    def backward(ctx, grad):
        """The divisor's gradient is ``-grad * div(a, b, rounding_mode="trunc")``."""
        if ctx._next[1] is None:  # nothing was kept: b's gradient is not needed
            return grad, None
        a, b = ctx.saved_tensors
        return grad, -grad * DivRounded.call(a, b, "trunc")


class FloorDivide(ArrayFunction):
    """``a // b``: PyTorch records it but has no derivative for it."""

    node_name = "NotImplemented"
    namespaced = True
    not_implemented = True
    broadcasts = True

    @staticmethod
    def forward(ctx, a, b):
        return _floor_divide(a, b)

    @staticmethod
    def backward(ctx, grad):
        name = getattr(ctx, "_aten_name", "floor_divide")  # floor_divide_ when in place
        raise RuntimeError(f"derivative for aten::{name} is not implemented")

    @classmethod
    def apply(cls, a, b):
        """PyTorch's ``NotImplemented`` node has an edge only to inputs that require grad."""
        out = _apply_binary(cls, a, b)
        node = out._grad_fn
        if node is not None:
            node._next = tuple([fn for fn in node._next if fn is not None])
        return out


class FloorDivideScalar(FloorDivide):
    """``tensor // number``: one edge, to the tensor."""

    node_name = "NotImplemented"
    namespaced = True
    broadcasts = False
    n_params = 1

    @staticmethod
    def forward(ctx, a, number):
        return _floor_divide(a, int_operand(a, number))


class RFloorDivide(FloorDivideScalar):
    """``number // tensor``."""

    node_name = "NotImplemented"
    namespaced = True

    @staticmethod
    def forward(ctx, b, number):
        return _floor_divide(int_operand(b, number), b)


class RRemainder(FloorDivideScalar):
    """``number % tensor``: recorded, without a derivative, as in PyTorch."""

    node_name = "NotImplemented"
    namespaced = True

    @staticmethod
    def forward(ctx, b, number):
        return _remainder(int_operand(b, number), b)

    @staticmethod
    def backward(ctx, grad):
        raise RuntimeError("derivative for aten::remainder is not implemented")


def _trunc_divide(a, b):
    """C's division, rounding toward zero; integers stay exact (no trip through float)."""
    quotient = np.floor_divide(a, b)
    if quotient.dtype.kind not in "iu":
        return np.trunc(np.true_divide(a, b))
    return quotient + ((np.remainder(a, b) != 0) & ((np.asarray(a) < 0) != (np.asarray(b) < 0)))


class DivRounded(ArrayFunction):
    """``div(a, b, rounding_mode="floor" | "trunc")``: a step function, so its gradient is 0
    for both inputs (PyTorch records it as ``DivBackward2``, a number as an input without edge).
    """

    node_name = "DivBackward2"
    broadcasts = True
    promotes = True
    n_params = 1
    saved_when = (1, None)

    @staticmethod
    def forward(ctx, a, b, mode):
        if np.result_type(a, b) == _BOOL:
            raise NotImplementedError(f"\"div_{mode}_cpu\" not implemented for 'Bool'")
        a, b = int_operand(b, a), int_operand(a, b)  # an int number wraps into the dtype
        _no_integer_division_by_zero(a, b)
        ctx.save_for_backward(a, b)  # PyTorch keeps b (a number too), and a for b's gradient
        a, b = _in_float_dtype(a, b)
        return np.floor_divide(a, b) if mode == "floor" else _trunc_divide(a, b)

    @staticmethod
    def backward(ctx, grad):
        ctx.saved_tensors  # noqa: B018 - changed in place since: PyTorch's error (it reads them)
        # zeros, not grad * 0: the -0. and nan of a product would show (PyTorch: zeros_like)
        xp = namespace(grad)
        return xp.zeros_like(grad), xp.zeros_like(grad)
