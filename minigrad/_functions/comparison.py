"""``minigrad.equal``, ``allclose``, ``isclose``, ``isnan``..., ``numel``, ``is_tensor``; ``x < y``.

None of these is differentiable: they read the arrays and return a new tensor
(``x < y``, ``x & y``, ``x.all()``) or a Python value (``minigrad.equal``, ``numel``).
"""

from __future__ import annotations

import numpy as np

from .._dtypes import get_default_dtype, promote_pair
from .._typename import type_name
from ..ops._common import LEGACY_NAMES, broadcast_shapes
from ..ops.number_range import check_scalar_int, wrap_int
from ..tensor import Tensor, new_tensor, wrap_dim
from ._args import _operand

_F = np.dtype(np.float64)


def _compare(ufunc):
    def method(self, other):
        other = _operand(other)
        if other is None:
            return NotImplemented
        b = other._data if isinstance(other, Tensor) else other
        a = self._data if isinstance(self, Tensor) else self
        if type(b) is int and type(a) is np.ndarray:
            if a.dtype.kind in "iub":
                b = wrap_int(b, a.dtype)  # uint8 < -2 compares with 254, as PyTorch
            else:
                check_scalar_int(b)  # float_tensor < 2**64 is refused too
        if type(b) is float and getattr(a, "dtype", _F).kind in "biu":  # in the default float
            a = a.astype(get_default_dtype().numpy)  # dtype, as PyTorch: 16777217 <= 16777216.0
        else:
            a, b = promote_pair(a, b)  # a 0-d tensor does not promote within its category
        try:
            return new_tensor(np.asarray(ufunc(a, b)))
        except ValueError:
            broadcast_shapes(np.shape(a), np.shape(b))  # PyTorch's message
            raise

    return method


def _bitwise(ufunc, name: str):
    """``&``, ``|``, ``^``: bitwise on integers, logical on bools; floats are refused."""

    def method(self, other):
        other = _operand(other)
        if other is None:
            return NotImplemented
        a = self._data
        b = other._data if isinstance(other, Tensor) else other
        a, b = promote_pair(a, b)
        result = np.result_type(a, b)
        if result.kind == "f":
            floats = [x.dtype for x in (a, b) if type(x) is np.ndarray and x.dtype.kind == "f"]
            result = np.result_type(*floats) if floats else get_default_dtype().numpy
            raise NotImplementedError(
                f"\"{name}_cpu\" not implemented for '{LEGACY_NAMES[result]}'"
            )
        try:
            return new_tensor(np.asarray(ufunc(a, b)))
        except ValueError:
            broadcast_shapes(np.shape(a), np.shape(b))
            raise

    return method


def _invert(self):
    """``~x``: logical not of bools, bitwise not of integers."""
    a = self._data
    if a.dtype.kind == "f":
        raise TypeError(
            "~ (operator.invert) is only implemented on integer and Boolean-type tensors"
        )
    return new_tensor(np.asarray(np.invert(a)))


def equal(input: Tensor, other: Tensor) -> bool:
    return input.equal(other)


def allclose(
    input: Tensor, other: Tensor, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False
) -> bool:
    return bool(np.allclose(input._data, other._data, rtol=rtol, atol=atol, equal_nan=equal_nan))


def isclose(
    input: Tensor, other: Tensor, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False
) -> Tensor:
    return new_tensor(
        np.isclose(input._data, other._data, rtol=rtol, atol=atol, equal_nan=equal_nan)
    )


def _classify(name: str, test):
    """``isnan``, ``isinf``, ...: a bool tensor of the same shape (integers are finite)."""

    def classify(input: Tensor) -> Tensor:
        if not isinstance(input, Tensor):
            raise TypeError(
                f"{name}(): argument 'input' (position 1) must be Tensor, not {type_name(input)}"
            )
        data = input._data
        if data.dtype.kind != "f":
            return new_tensor(np.full(data.shape, name == "isfinite"))
        return new_tensor(np.asarray(test(data)))

    classify.__name__ = name
    return classify


isnan = _classify("isnan", np.isnan)
isinf = _classify("isinf", np.isinf)
isfinite = _classify("isfinite", np.isfinite)
isposinf = _classify("isposinf", np.isposinf)
isneginf = _classify("isneginf", np.isneginf)


def _all(self, dim=None, keepdim=False, *, keepdims=None):
    keepdim = keepdim if keepdims is None else keepdims
    axes = _axes(self._data, dim)
    return new_tensor(np.asarray(np.all(self._data, axis=axes, keepdims=keepdim)))


def _any(self, dim=None, keepdim=False, *, keepdims=None):
    keepdim = keepdim if keepdims is None else keepdims
    axes = _axes(self._data, dim)
    return new_tensor(np.asarray(np.any(self._data, axis=axes, keepdims=keepdim)))


def _axes(data: np.ndarray, dim) -> tuple | None:
    """``dim`` (an int or a tuple) checked and wrapped as PyTorch does (IndexError, not
    numpy's AxisError); a 0-d tensor's one "dim" is all of it."""
    if dim is None:
        return None
    axes = tuple(wrap_dim(d, data.ndim) for d in ((dim,) if isinstance(dim, int) else dim))
    return axes if data.ndim else None


def numel(input: Tensor) -> int:
    return input.numel()


def is_tensor(obj: object) -> bool:
    return isinstance(obj, Tensor)
