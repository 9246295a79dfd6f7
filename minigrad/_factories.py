"""``zeros``, ``ones``, ``full``, ``empty``, ``eye``, ``arange``, ``linspace``, ``*_like``.

The factories: new tensors of a given size. Sizes are read as PyTorch reads them
(``ones(2, 3)``, ``ones((2, 3))`` and ``ones(Size([2, 3]))`` are one shape; anything
else fails with PyTorch's message); the dtype defaults to ``get_default_dtype()``
or, for ``*_like``, to the given tensor's. ``_size`` and ``_like`` serve the
random numbers and the legacy constructors too.
"""

from __future__ import annotations

import numbers
import operator
from typing import Any

import numpy as np

from . import _dtypes
from ._dtypes import Size, dtype, to_numpy_dtype
from .creation import _finish
from .ops.number_range import check_number_fits
from .tensor import Tensor

__all__ = [
    "zeros",
    "ones",
    "full",
    "empty",
    "eye",
    "arange",
    "linspace",
    "zeros_like",
    "ones_like",
    "full_like",
    "empty_like",
]


def _size(args: tuple, name: str) -> tuple[int, ...]:
    """``ones(2, 3)``, ``ones((2, 3))`` and ``ones(Size([2, 3]))`` all mean shape (2, 3)."""
    if len(args) == 1 and isinstance(args[0], (tuple, list, Size)):
        args = tuple(args[0])
    elif len(args) == 1 and (isinstance(args[0], bool) or not _is_int(args[0])):
        raise TypeError(
            f"{name}(): argument 'size' (position 1) must be tuple of ints, not "
            f"{type(args[0]).__name__}"
        )
    sizes = []
    for k, a in enumerate(args):
        if not _is_int(a) or k == 0 and isinstance(a, bool):
            kind = type(a).__name__
            if k == 0:
                raise TypeError(
                    f"{name}(): argument 'size' (position 1) must be tuple of ints, "
                    f"but found element of type {kind} at pos 0"
                )
            raise TypeError(
                f"{name}(): argument 'size' failed to unpack the object at pos "
                f'{k + 1} with error "type must be tuple of ints,but got {kind}"'
            )
        sizes.append(operator.index(a))
    for a in sizes:
        if a < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {a}: {sizes}")
    return tuple(sizes)


def _is_int(x: Any) -> bool:
    """Python and numpy integers, and integer tensors of one element (as PyTorch accepts)."""
    try:
        operator.index(x)
    except TypeError:
        return False
    return True


def _float_dtype(dtype: dtype | None) -> np.dtype:
    return to_numpy_dtype(dtype) if dtype is not None else _dtypes.get_default_dtype().numpy


def zeros(
    *size, dtype: dtype | None = None, device: Any = None, requires_grad: bool = False
) -> Tensor:
    return _finish(np.zeros(_size(size, "zeros"), _float_dtype(dtype)), requires_grad, "zeros")


def ones(
    *size, dtype: dtype | None = None, device: Any = None, requires_grad: bool = False
) -> Tensor:
    return _finish(np.ones(_size(size, "ones"), _float_dtype(dtype)), requires_grad, "ones")


def empty(
    *size, dtype: dtype | None = None, device: Any = None, requires_grad: bool = False
) -> Tensor:
    return _finish(np.empty(_size(size, "empty"), _float_dtype(dtype)), requires_grad, "empty")


def full(
    size, fill_value, dtype: dtype | None = None, device: Any = None, requires_grad: bool = False
) -> Tensor:
    if dtype is None:
        dtype = (
            _dtypes.bool
            if isinstance(fill_value, bool)
            else _dtypes.int64
            if isinstance(fill_value, numbers.Integral)
            else None
        )
    if not isinstance(size, (tuple, list, Size)):
        raise TypeError(
            f"full(): argument 'size' (position 1) must be tuple of ints, not {type(size).__name__}"
        )
    shape, np_dtype = _size((size,), "full"), _float_dtype(dtype)
    array = np.full(shape, check_number_fits(fill_value, np_dtype, filling=True), np_dtype)
    return _finish(array, requires_grad, "full")


def eye(
    n: int,
    m: int | None = None,
    dtype: dtype | None = None,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    return _finish(np.eye(n, m, dtype=_float_dtype(dtype)), requires_grad, "eye")


def arange(
    start,
    end=None,
    step=1,
    dtype: dtype | None = None,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    if end is None:
        start, end = 0, start
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if dtype is None:
        ints = all(isinstance(v, numbers.Integral) for v in (start, end, step))
        np_dtype = np.dtype(np.int64) if ints else _dtypes.get_default_dtype().numpy
    else:
        np_dtype = to_numpy_dtype(dtype)
    return _finish(np.arange(start, end, step).astype(np_dtype), requires_grad, "arange")


def linspace(
    start,
    end,
    steps: int,
    dtype: dtype | None = None,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    array = np.linspace(start, end, steps).astype(_float_dtype(dtype))
    return _finish(array, requires_grad, "linspace")


def _like(t: Tensor, dtype: dtype | None) -> tuple[tuple, np.dtype]:
    if not isinstance(t, Tensor):
        raise TypeError(f"expected Tensor as argument 1, but got {type(t).__name__}")
    return t._data.shape, to_numpy_dtype(dtype) if dtype is not None else t._data.dtype


def _filled_like(t: Tensor, d: np.dtype, value) -> np.ndarray:
    """A new array of ``value`` (None: uninitialised) in ``t``'s layout, as PyTorch's
    ``preserve_format`` (``ones_like`` of a transposed tensor is transposed too, so a later
    ``reshape`` of it is a view or not as there); an expanded ``t`` gives C order."""
    a = t._data
    if a.flags.c_contiguous or any(s == 0 and n > 1 for n, s in zip(a.shape, a.strides)):
        if value is None:
            return np.empty(a.shape, d)
        zero = value == 0 and not np.signbit(value)  # -0. is filled as -0.
        return np.zeros(a.shape, d) if zero else np.full(a.shape, value, d)
    out = np.empty_like(a, dtype=d, order="K")
    if value is not None:
        out[...] = np.full((), value, d)
    return out


def zeros_like(t: Tensor, dtype=None, requires_grad: bool = False, **_) -> Tensor:
    _, d = _like(t, dtype)
    return _finish(_filled_like(t, d, 0), requires_grad, "zeros_like")


def ones_like(t: Tensor, dtype=None, requires_grad: bool = False, **_) -> Tensor:
    _, d = _like(t, dtype)
    return _finish(_filled_like(t, d, 1), requires_grad, "ones_like")


def empty_like(t: Tensor, dtype=None, requires_grad: bool = False, **_) -> Tensor:
    _, d = _like(t, dtype)
    return _finish(_filled_like(t, d, None), requires_grad, "empty_like")


def full_like(t: Tensor, fill_value, dtype=None, requires_grad: bool = False, **_) -> Tensor:
    _, d = _like(t, dtype)
    value = check_number_fits(fill_value, d, filling=True)  # PyTorch's range check
    return _finish(_filled_like(t, d, value), requires_grad, "full_like")
