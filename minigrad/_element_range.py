"""The range check ``tensor(data, dtype=<an integer type>)`` makes on every Python number.

PyTorch unpacks each number of the nested lists on its own, in order, and refuses one its
integer dtype cannot hold: ``tensor([300], dtype=int8)`` raises RuntimeError "value cannot be
converted to type int8 without overflow" (numpy would wrap it to 44 without a word). The rule
is C10's ``checked_convert``: an int fits a signed type within its range and an unsigned type
down to minus its maximum (``[-1]`` as uint8 is 255, two's complement); a float must lie
within the type's range (nan and inf never do) and is truncated toward zero. Before that, an
int must fit in 64 bits: ``tensor([2**63])`` raises ValueError "Overflow when unpacking long
long". A numpy array (or a tensor) given whole is cast as numpy casts, without a check, as in
PyTorch.

``checked_ints`` does the common case with a few vectorised comparisons on numpy's own reading
of the data, and only when one of them fails (or numpy could not read the numbers exactly)
walks the numbers one by one to raise the error of the first number PyTorch would stop at.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = ["checked_ints", "exact_ints"]

_I64 = np.dtype(np.int64)
_NAMES = {np.dtype(t): np.dtype(t).name for t in (np.uint8, np.int8, np.int16, np.int32, np.int64)}


def _limits(target: np.dtype) -> tuple[int, int]:
    """The lowest and highest int ``target`` takes from a Python int (unsigned: from minus its
    maximum, which wraps)."""
    info = np.iinfo(target)
    high = int(info.max)
    return (-high if target.kind == "u" else int(info.min)), high


def _overflow(target: np.dtype) -> RuntimeError:
    return RuntimeError(f"value cannot be converted to type {_NAMES[target]} without overflow")


def _one(x: Any, target: np.dtype) -> int:
    """One number of the data as ``target`` holds it, or PyTorch's error for it."""
    if hasattr(x, "_data"):  # a one-element tensor, read as an index
        if x._data.dtype.kind == "f":
            raise TypeError("only integer tensors of a single element can be converted to an index")
        x = x._data.item()
    if isinstance(x, float):  # a Python float (np.float64 is one too)
        info = np.iinfo(target)
        if not float(info.min) <= x <= float(info.max):  # False for nan
            raise _overflow(target)
        value = int(x)
        return value if value < 2**63 else -(2**63)  # 2.0**63 in int64: x86's "indefinite"
    if isinstance(x, (np.floating, np.bool_)):
        raise TypeError(f"'numpy.{type(x).__name__}' object cannot be interpreted as an integer")
    value = int(x) if isinstance(x, numbers.Integral) else x
    if not -(2**63) <= value < 2**63:
        raise ValueError("Overflow when unpacking long long")
    low, high = _limits(target)
    if not low <= value <= high:
        raise _overflow(target)
    return value if value >= 0 or target.kind == "i" else value + high + 1


def _flat(data: Any):
    """The numbers of nested sequences (the caller refused strings), in order; numpy arrays
    inside are read element by element, as PyTorch reads them."""
    if isinstance(data, Sequence) or isinstance(data, np.ndarray) and data.ndim:
        for item in data:
            yield from _flat(item)
    else:
        yield data


def exact_ints(data: Any, target: np.dtype, shape: tuple) -> np.ndarray:
    """Number by number: the first one out of range raises, as in PyTorch."""
    values = [_one(x, target) for x in _flat(data)]
    return np.array(values, dtype=target).reshape(shape)


def checked_ints(array: np.ndarray, data: Any, target: np.dtype, floats: bool) -> np.ndarray:
    """``array`` (numpy's reading of ``data``) as ``target``, an integer dtype, with
    PyTorch's range check of every number. ``floats``: the data holds only floats (numpy
    also reads ints as float64, beside floats or beyond 64 bits, losing their low bits)."""
    kind = array.dtype.kind
    if kind == "b":
        return array.astype(target, copy=False)
    if kind == "i" or kind == "f" and floats:
        if array.size == 0:
            return array.astype(target, copy=False)
        if kind == "i":
            low, high = _limits(target)
            fits = target == _I64 or low <= int(array.min()) and int(array.max()) <= high
        else:
            info = np.iinfo(target)
            with np.errstate(invalid="ignore"):
                fits = bool(((array >= float(info.min)) & (array <= float(info.max))).all())
        if fits:
            with np.errstate(invalid="ignore", over="ignore"):
                return array.astype(target, copy=False)
    return exact_ints(data, target, array.shape)
