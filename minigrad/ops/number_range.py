"""The range check PyTorch makes when a Python number is written into a tensor."""

from __future__ import annotations

import math

import numpy as np

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
