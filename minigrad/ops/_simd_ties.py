"""Which of ``0.`` and ``-0.`` PyTorch's CPU kernels keep at a tie of ``max(a, b)``.

A learner sees it in print: ``clamp_min(-0., tensor(0.))`` is ``-0.`` or ``0.`` depending on
where the element sits. PyTorch's elementwise loops over two tensors run in chunks of 16
float32 (8 float64) values with vector instructions, whose max/min return the second operand
at a tie (the bound), and the rest of each inner loop one by one with ``std::max``, which
returns the first (the input). The inner loop is TensorIterator's innermost dim: the dims
sorted by the inputs' strides (the first input decides first, so ``maximum(x.t(), y)``
walks down x's columns), then merged while they continue one run of memory for every
operand. It is vectorised when every operand is contiguous along it, or one is broadcast
and the others contiguous; otherwise (a strided operand, two broadcast) one by one.
(The reductions ``amax``/``amin`` have a kernel of their own: ``_reduction_ties.py``.)
The chunk is one AVX-512 vector (``_cpu_vectors.LANES``); PyTorch's AVX2 and ARM builds
have shorter ones, so there other elements keep the other zero."""

from __future__ import annotations

import math

import numpy as np

from ._cpu_vectors import LANES as _CHUNK  # one AVX-512 vector: 16 float32 / 8 float64
from ._dim_order import reorder


def vectorised(out_shape: tuple, operands: list, dtype: np.dtype) -> np.ndarray | None:
    """Where the vector loop computes the element (a mask of ``out_shape``); None: nowhere.

    ``operands`` are the inputs as given (arrays, or numbers: 0-d). PyTorch's TensorIterator
    sorts the dims by the inputs' strides (the first input decides first), merges the
    neighbours that are one run of memory, and vectorises the innermost dim when every input
    is contiguous along it, or one of them is broadcast and the others contiguous.
    """
    chunk = _CHUNK.get(dtype)
    if chunk is None or not out_shape or math.prod(out_shape) < chunk:
        return None
    strides = [_strides(np.asarray(x), out_shape, dtype) for x in operands]
    dims = [[n, [s[d] for s in strides], [d]] for d, n in enumerate(out_shape)]
    dims.reverse()  # innermost first; dims of size 1 take part in the sort with their strides
    reorder(dims, _should_swap)  # PyTorch's insertion sort (an undecided pair looks further in)
    inner = dims[0]
    for d in dims[1:]:  # merge the next dims out while they continue the run of memory
        if inner[0] == 1:
            inner = [d[0], d[1], inner[2] + d[2]]
        elif d[0] == 1:
            inner = [inner[0], inner[1], inner[2] + d[2]]
        elif all(s * inner[0] == t for s, t in zip(inner[1], d[1])):
            inner = [inner[0] * d[0], inner[1], inner[2] + d[2]]
        else:
            break
    broadcast = sum(s == 0 for s in inner[1])
    if inner[0] < chunk or broadcast > 1 or any(s not in (0, 1) for s in inner[1]):
        return None  # one by one: strided, or two operands broadcast along the inner loop
    position, step = np.zeros((), np.int64), 1
    for axis in inner[2]:
        shape = [1] * len(out_shape)
        shape[axis] = out_shape[axis]
        position = position + np.arange(out_shape[axis]).reshape(shape) * step
        step *= out_shape[axis]
    return np.broadcast_to(position < inner[0] // chunk * chunk, out_shape)


def _strides(x: np.ndarray, out_shape: tuple, dtype: np.dtype) -> list:
    """``x``'s strides in elements as TensorIterator sees it broadcast to ``out_shape``: 0
    along broadcast dims (a dim of size 1 in both keeps its stride). A cast (``to``, as
    ``empty_like``) keeps dense strides and makes others dense in the same order of dims;
    numpy's negative strides are a C-ordered copy in PyTorch (``flip`` copies)."""
    if any(s < 0 for s in x.strides):
        x = np.ascontiguousarray(x)
    elif x.dtype != dtype and not _dense(x):  # the cast is dense, its dims in x's order
        x = np.empty_like(x)
    own = [s // x.itemsize for s in x.strides]
    own = [0] * (len(out_shape) - x.ndim) + own
    shape = (1,) * (len(out_shape) - x.ndim) + x.shape
    return [0 if n == 1 and m != 1 else s for n, m, s in zip(shape, out_shape, own)]


def _dense(x: np.ndarray) -> bool:
    """Its elements fill one block of memory, in some order of the dims."""
    step = x.itemsize
    for s, n in sorted((abs(s), n) for n, s in zip(x.shape, x.strides) if n != 1):
        if s != step:
            return False
        step *= n
    return True


def _should_swap(a: list, b: list) -> int:
    """1 when dim ``b`` goes inside dim ``a``, -1 when not, 0 when no input decides (a
    stride of 0 decides nothing; equal strides put the smaller dim inside)."""
    for s, t in zip(a[1], b[1]):
        if s == 0 or t == 0:
            continue
        if s != t:
            return -1 if s < t else 1
        if a[0] > b[0]:
            return 1
    return 0


def clamp_as_pytorch(a: np.ndarray, lo, hi, operands: list) -> np.ndarray:
    """``min(max(a, lo), hi)``: the input at a tie in scalar code, the bound in vector code.
    ``operands`` are the inputs as given, before any cast to ``a``'s dtype (their layouts)."""
    out = a if lo is None else np.maximum(lo, a)  # numpy keeps its second operand at a tie
    out = out if hi is None else np.minimum(hi, out)
    if out.dtype.kind != "f" or not (out == 0).any():
        return out
    where = vectorised(out.shape, operands, out.dtype)
    if where is None:
        return out
    vector = a if lo is None else np.maximum(a, lo)
    vector = vector if hi is None else np.minimum(vector, hi)
    if out is a:  # no bound: nothing was computed, a is the input itself
        return np.where(where, vector, out)
    np.copyto(out, vector, where=where)  # in place: out keeps the inputs' layout
    return out


def extreme_as_pytorch(ufunc: np.ufunc, a, b, operands: list | None = None) -> np.ndarray:
    """maximum or minimum: ``a`` at a tie in scalar code, ``b`` in vector code. ``operands``:
    the inputs before any cast (their layouts), when ``a`` and ``b`` are casts."""
    out = ufunc(b, a)  # numpy keeps its second operand at a tie
    if out.dtype.kind != "f" or not (out == 0).any():
        return out
    where = vectorised(out.shape, operands or [a, b], out.dtype)
    if where is not None:  # in place: out keeps the inputs' layout, as TensorIterator's does
        np.copyto(out, ufunc(a, b), where=where)
    return out
