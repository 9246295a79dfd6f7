"""The range check PyTorch makes when a Python number is written into a tensor."""

from __future__ import annotations

import math

import numpy as np

from .._shapes import broadcast_shapes

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
    """PyTorch converts a Python number to the tensor's type with a range check (``t[i] = v``;
    ``filling``: through a Scalar, as ``fill_``, ``full`` and ``full_like`` do): an integer
    must fit in 64 bits (a Scalar's: signed, or unsigned up to 2**64 - 1); integer types take
    an int down to minus their maximum (two's complement wraps) and a float within their
    range; float32 a finite float within its range (float16 only when filling: ``t[i] = v``
    rounds to inf). Returns the number to write (a negative int wrapped into unsigned)."""
    if type(value) is bool or not isinstance(value, (int, float)):
        return value
    if isinstance(value, int) and not -(2**63) <= value < 2**63:
        if not filling:
            raise ValueError("Overflow when unpacking long long")
        check_scalar_int(value)  # from 2**63 to 2**64 - 1: unsigned, out of every int type
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


_I64 = np.dtype(np.int64)


def scalar_beside(value, dtype: np.dtype, default_float: np.dtype):
    """A Python number as ``where``, ``clamp`` and ``masked_fill`` read it beside a tensor of
    ``dtype``: PyTorch converts it, with the range check of ``check_number_fits``, to the
    result's dtype (``dtype``; a float beside integers or bools, ``default_float``; an int
    beside bools, int64): ``uint8.clamp_min(-1)`` clamps at 255, ``int8.clamp_max(300)`` and
    ``float32.clamp(max=1e300)`` raise. ``masked_fill`` passes its own dtype, which it keeps."""
    if type(value) is bool or not isinstance(value, (int, float)):
        return value
    if dtype.kind in "iub" and isinstance(value, float):
        dtype = default_float
    elif dtype.kind == "b":
        if value >= 2**63:
            wrap_int(value, dtype)  # PyTorch refuses to promote bool with uint64
        dtype = _I64
    return check_number_fits(value, dtype, filling=True)


_WRAP = {  # an integer dtype's lowest value and the count of its values
    np.dtype(t): (int(np.iinfo(t).min), 2 ** np.iinfo(t).bits)
    for t in (np.uint8, np.int8, np.int16, np.int32, np.int64)
}


def check_scalar_int(value: int) -> None:
    """PyTorch holds a Python int given to an op (``x * n``, ``fill_(n)``) in a Scalar: 64
    bits, signed or (from 2**63) unsigned. Beyond that it refuses the int, whatever the
    tensor's dtype: ``float_tensor * 2**64`` raises too, where numpy would compute."""
    if value >= 2**64:
        raise OverflowError("int too big to convert")
    if value < -(2**63):
        raise OverflowError("can't convert negative int to unsigned")


def wrap_int(value: int, dtype: np.dtype, true_division: bool = False) -> int | float:
    """A Python int operand of an integer or bool tensor, as PyTorch reads it.

    PyTorch unpacks the int into 64 bits (signed, or unsigned from 2**63 to 2**64 - 1) and
    casts it to the tensor's dtype as C does, keeping the low bits: ``uint8 + -2`` adds 254,
    ``int32 < 2**40`` compares with 0. A true division takes the number as a float instead.
    numpy (NEP 50) would raise OverflowError for any number outside the dtype."""
    check_scalar_int(value)
    limits = _WRAP.get(dtype)
    if limits is None:  # bool: the int's own int64 type
        if value >= 2**63:
            raise RuntimeError(
                "Promotion for uint16, uint32, uint64 types is not supported, attempted to "
                "promote Bool and UInt64"
            )
        return value
    if true_division:
        return float(value)
    low, span = limits
    if low <= value < low + span:
        return value
    return (value - low) % span + low


def int_operand(array, number):
    """``number`` as the scalar ops (``number - t``, ``t // number``, ``number ** t``...)
    read it beside ``array``: wrapped when it is an int and the array integer or bool."""
    dtype = getattr(array, "dtype", None)
    if type(number) is not int or not isinstance(dtype, np.dtype):
        return number
    if dtype.kind not in "iub":
        check_scalar_int(number)
        return number
    return wrap_int(number, dtype)


def check_int_exponent(value: int, dtype: np.dtype) -> None:
    """``int_tensor ** number``: PyTorch refuses an exponent its dtype cannot hold (it does
    not wrap it as other operands), a negative one, and one beyond 64 bits."""
    check_scalar_int(value)
    if value >= 2**63:
        raise RuntimeError("value cannot be converted to type int64_t without overflow")
    if value < 0:
        raise RuntimeError("Integers to negative integer powers are not allowed.")
    if dtype.kind in "iu":
        check_number_fits(value, dtype, filling=False)


def alpha_factor(a, b, alpha, sign: int = 1):
    """PyTorch's checks of ``alpha`` against the result's dtype, after the shapes' (its
    RuntimeError, where numpy's fused multiply-add would raise a ValueError); returns the
    factor of ``b``, ``sign * alpha``, wrapped into the inputs' integer dtype as C casts it."""
    if np.shape(a) != np.shape(b):
        broadcast_shapes(np.shape(a), np.shape(b))
    if isinstance(alpha, (bool, np.bool_)) and np.result_type(a, b).kind != "b":
        raise RuntimeError("Boolean alpha only supported for Boolean results.")
    if isinstance(alpha, float) and np.result_type(a, b).kind in "iub":
        raise RuntimeError(
            "For integral input tensors, argument alpha must not be a floating point number."
        )
    if type(alpha) is not int:
        return sign * alpha
    check_scalar_int(alpha)  # PyTorch's range check of the Scalar (sub's: of -alpha)
    dtypes = {x.dtype for x in (a, b) if isinstance(x, np.ndarray)}
    if len(dtypes) == 1 and (dtype := dtypes.pop()).kind in "iu":
        return check_number_fits(sign * alpha, dtype, filling=True)  # uint8 alpha=-1: 255
    return sign * alpha
