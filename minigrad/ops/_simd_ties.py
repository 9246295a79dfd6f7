"""Which of ``0.`` and ``-0.`` PyTorch's CPU kernels keep at a tie of ``max(a, b)``.

A learner sees it in print: ``clamp_min(-0., tensor(0.))`` is ``-0.`` or ``0.`` depending on
where the element sits. PyTorch's elementwise loops over two tensors run in chunks of 16
float32 (8 float64) values with vector instructions, whose max/min return the second operand
at a tie (the bound), and the rest of each inner loop one by one with ``std::max``, which
returns the first (the input). The inner loop is the run of trailing dims over which every
operand is either whole or broadcast (PyTorch's TensorIterator coalesces them); when two
operands are broadcast along it, the loop is not vectorised at all.
"""

from __future__ import annotations

import math

import numpy as np

_CHUNK = {np.dtype(np.float32): 16, np.dtype(np.float64): 8}


def vectorised(out_shape: tuple, shapes: list, dtype: np.dtype) -> np.ndarray | None:
    """Where the vector loop computes the element (a mask of ``out_shape``); None: nowhere."""
    chunk = _CHUNK.get(dtype)
    if chunk is None or not out_shape:
        return None
    nd = len(out_shape)
    shapes = [(1,) * (nd - len(s)) + tuple(s) for s in shapes]
    start = nd - 1
    while start > 0 and all(
        s[start - 1 :] == out_shape[start - 1 :] or not any(n != 1 for n in s[start - 1 :])
        for s in shapes
    ):
        start -= 1
    inner = math.prod(out_shape[start:])
    if inner < chunk or sum(not any(n != 1 for n in s[start:]) for s in shapes) > 1:
        return None  # two operands broadcast along the inner loop: PyTorch loops one by one
    positions = np.arange(inner) < inner // chunk * chunk
    return np.broadcast_to(positions.reshape(out_shape[start:]), out_shape)


def clamp_as_pytorch(a: np.ndarray, lo, hi, shapes: list) -> np.ndarray:
    """``min(max(a, lo), hi)``: the input at a tie in scalar code, the bound in vector code."""
    out = a if lo is None else np.maximum(lo, a)  # numpy keeps its second operand at a tie
    out = out if hi is None else np.minimum(hi, out)
    if out.dtype.kind != "f" or not (out == 0).any():
        return out
    where = vectorised(out.shape, shapes, out.dtype)
    if where is None:
        return out
    vector = a if lo is None else np.maximum(a, lo)
    vector = vector if hi is None else np.minimum(vector, hi)
    return np.where(where, vector, out)


def extreme_as_pytorch(ufunc: np.ufunc, a, b) -> np.ndarray:
    """maximum or minimum: ``a`` at a tie in scalar code, ``b`` in vector code."""
    out = ufunc(b, a)  # numpy keeps its second operand at a tie
    if out.dtype.kind != "f" or not (out == 0).any():
        return out
    where = vectorised(out.shape, [np.shape(a), np.shape(b)], out.dtype)
    return out if where is None else np.where(where, ufunc(a, b), out)
