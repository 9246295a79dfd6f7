"""The legacy constructors: ``Tensor(...)``, ``FloatTensor(...)`` and friends.

``Tensor([[1, 2]])`` copies data into a dtype, ``Tensor(2, 3)`` makes an
uninitialised 2x3; ``FloatTensor`` and friends are not classes but callables
that ``isinstance`` understands, as in PyTorch; ``dtype_of_legacy`` reads them
(or their names) for ``x.type(minigrad.DoubleTensor)``.
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from . import _dtypes
from ._dtypes import Size, check_device, dtype
from ._factories import _size
from ._functions._args import _overloads
from ._typename import type_name
from .creation import _to_array
from .tensor import Tensor, new_tensor

__all__ = [
    "FloatTensor",
    "DoubleTensor",
    "LongTensor",
    "IntTensor",
    "BoolTensor",
    "ByteTensor",
    "legacy_new",
]


def legacy_new(cls: type, dt: dtype, args: tuple) -> Tensor:
    """``Tensor([[1, 2]])`` copies data into ``dt``; ``Tensor(2, 3)`` makes an uninitialised 2x3."""
    np_dtype = dt.numpy
    if not args:
        array = np.empty((0,), np_dtype)
    elif len(args) == 1 and isinstance(args[0], Size):
        array = np.empty(tuple(args[0]), np_dtype)
    elif all(isinstance(a, (int, np.integer)) and not isinstance(a, bool) for a in args):
        array = np.empty(_size(args, "new"), np_dtype)
    elif len(args) == 1:
        data = args[0]
        if isinstance(data, (numbers.Number, bool)):
            raise TypeError(f"new(): data must be a sequence (got {type(data).__name__})")
        array = _to_array(data, np_dtype)
    else:
        raise TypeError("new() received an invalid combination of arguments")
    return new_tensor(array, None, False, cls)


class _LegacyTensorType(type):
    """``FloatTensor`` and friends: callables that make a Tensor of one dtype."""

    _dtype: dtype

    def __call__(cls, *args: Any, device: Any = None, **kwargs: Any) -> Tensor:
        if kwargs:  # FloatTensor(data, requires_grad=True): PyTorch refuses it
            got = ", ".join(
                [type_name(a) for a in args] + [f"{k}={type_name(v)}" for k, v in kwargs.items()]
            )
            raise _overloads(
                "new",
                got,
                (
                    "(*, minigrad.device device = None)\n      didn't match because some of the "
                    f"keywords were incorrect: {', '.join(kwargs)}",
                    "(minigrad.Storage storage)",
                    "(Tensor other)",
                    "(tuple of ints size, *, minigrad.device device = None)",
                    "(object data, *, minigrad.device device = None)",
                ),
            )
        check_device(device)
        return legacy_new(Tensor, cls._dtype, args)

    def __instancecheck__(cls, instance: object) -> bool:
        return isinstance(instance, Tensor) and instance._data.dtype == cls._dtype.numpy

    def __repr__(cls) -> str:
        return f"<class 'minigrad.{cls.__name__}'>"


def _legacy(d: dtype) -> type:
    return _LegacyTensorType(d.legacy_name, (), {"_dtype": d, "__module__": "minigrad"})


FloatTensor = _legacy(_dtypes.float32)
DoubleTensor = _legacy(_dtypes.float64)
LongTensor = _legacy(_dtypes.int64)
IntTensor = _legacy(_dtypes.int32)
BoolTensor = _legacy(_dtypes.bool)
ByteTensor = _legacy(_dtypes.uint8)
_LEGACY = {
    t.__name__: t
    for t in (FloatTensor, DoubleTensor, LongTensor, IntTensor, BoolTensor, ByteTensor)
}


def dtype_of_legacy(kind: Any) -> dtype:
    """``t.type(minigrad.DoubleTensor)`` or ``t.type('minigrad.DoubleTensor')`` -> float64."""
    if isinstance(kind, dtype):
        return kind
    if isinstance(kind, str):
        name = kind.rsplit(".", 1)[-1]
        if name in _LEGACY:
            return _LEGACY[name]._dtype
        raise ValueError(f"invalid type: '{kind}'")
    if isinstance(kind, _LegacyTensorType):
        return kind._dtype
    raise TypeError(f"type() expects a dtype, a tensor type or its name, not {kind!r}")
