"""``t.new_zeros(...)``, ``new_ones``, ``new_empty``, ``new_full``, ``new_tensor``, ``type_as``.

Code that should not care about dtypes makes its constants from a tensor it has: ``x.new_zeros
(n)`` is ``zeros(n)`` in ``x``'s dtype (and device). The new tensor is a leaf that needs no grad
unless asked, whatever ``x`` is. The checks are the factories' (sizes, ``requires_grad`` of an
integer tensor, ``new_full``'s and ``new_tensor``'s range check of numbers), with the method's
name in the messages. ``_tensor_methods.py`` binds this table with the others.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from ._dtypes import Size, dtype, from_numpy_dtype, to_numpy_dtype
from ._factories import _size
from .creation import _finish, _to_array
from .ops.number_range import check_number_fits
from .tensor import Tensor

__all__ = ["NEW_METHODS"]


def _np_dtype(t: Tensor, dtype_: dtype | None) -> np.dtype:
    return to_numpy_dtype(dtype_) if dtype_ is not None else t._data.dtype


def _filled(name: str, fill):
    """``new_zeros``, ``new_ones``, ``new_empty``: a size (as numbers or one sequence)."""

    def method(
        self: Tensor,
        *size: Any,
        dtype: dtype | None = None,
        device: Any = None,
        requires_grad: bool = False,
        **kwargs: Any,
    ) -> Tensor:
        if "size" in kwargs and not size:
            size = (kwargs.pop("size"),)
        if not size:
            raise TypeError(f'{name}() missing 1 required positional arguments: "size"')
        np_dtype = _np_dtype(self, dtype)
        return _finish(fill(_size(size, name), np_dtype), requires_grad, name)

    method.__name__ = name
    method.__doc__ = f"``{name[4:]}(size)`` in this tensor's dtype (or ``dtype``): a new leaf."
    return method


def new_full(
    self: Tensor,
    size: Any,
    fill_value: Any,
    *,
    dtype: dtype | None = None,
    device: Any = None,
    requires_grad: bool = False,
    **_: Any,
) -> Tensor:
    """``full(size, fill_value)`` in this tensor's dtype (or ``dtype``)."""
    if not isinstance(size, (tuple, list, Size)):
        raise TypeError(
            "new_full(): argument 'size' (position 1) must be tuple of ints, not "
            f"{type(size).__name__}"
        )
    if isinstance(fill_value, Tensor):
        fill_value = fill_value._data.item()
    np_dtype = _np_dtype(self, dtype)
    value = check_number_fits(fill_value, np_dtype, filling=True)  # PyTorch's range check
    return _finish(np.full(_size((size,), "new_full"), value, np_dtype), requires_grad, "new_full")


def new_tensor(
    self: Tensor,
    data: Any,
    dtype: dtype | None = None,
    device: Any = None,
    requires_grad: bool = False,
    **_: Any,
) -> Tensor:
    """``tensor(data)`` in this tensor's dtype (or ``dtype``): a copy, never a view."""
    if isinstance(data, Tensor):
        warnings.warn(
            "To copy construct from a tensor, it is recommended to use sourceTensor.detach()."
            "clone() or sourceTensor.detach().clone().requires_grad_(True), rather than "
            "tensor.new_tensor(sourceTensor).",
            UserWarning,
            stacklevel=2,
        )
    array = _to_array(data, _np_dtype(self, dtype))
    return _finish(np.array(array, copy=True), requires_grad, "new_tensor")


def type_as(self: Tensor, other: Any) -> Tensor:
    """This tensor in ``other``'s dtype (itself when they already agree)."""
    if not isinstance(other, Tensor):
        raise TypeError(
            f"type_as(): argument 'other' (position 1) must be Tensor, not {type(other).__name__}"
        )
    return self.to(from_numpy_dtype(other._data.dtype))


NEW_METHODS: dict[str, Any] = {
    "new_zeros": _filled("new_zeros", np.zeros),
    "new_ones": _filled("new_ones", np.ones),
    "new_empty": _filled("new_empty", np.empty),
    "new_full": new_full,
    "new_tensor": new_tensor,
    "type_as": type_as,
}
