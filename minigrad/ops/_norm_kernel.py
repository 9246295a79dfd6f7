"""``vector_norm``'s sum as PyTorch's CPU norm kernel adds it, so a float32 norm prints the same.

``T.linalg.vector_norm(T.tensor([100000., 1.2, 4.1]), 1)`` is 100005.3047 in PyTorch and
100005.2969 when the terms are added in float64 and rounded once: PyTorch adds them in the
tensor's own dtype, one after the other (``binary_kernel_reduce`` with ``NormOps``: ``acc +
|x| ** p``, then ``acc ** (1 / p)``), each output's elements in TensorIterator's order
(``_tensor_walk.reduced_order``). The 2-norm of rows contiguous in memory has a vectorised
kernel of its own (``binary_kernel_reduce_lastdim``): squares added into 8 float32 lanes (4
float64), the lanes added in order, then the rest of the row one by one, then the root.
(Orders inf, -inf and 0 are exact in any order: ``scans.VectorNorm`` keeps numpy's.)
"""

from __future__ import annotations

import math

import numpy as np

from ._cpu_vectors import REDUCTION_LANES as _LANES  # AVX2's, even on AVX-512: 8 / 4
from ._tensor_walk import element_strides, reduced_order, walk

__all__ = ["norm_sum"]


def norm_sum(a: np.ndarray, ord: float, axes: tuple, keepdim: bool) -> np.ndarray:  # noqa: A002
    """``(sum |a| ** ord) ** (1 / ord)`` over ``axes`` (of more than one element), in
    ``a``'s float dtype, as PyTorch's kernel rounds it."""
    dtype = a.dtype
    kept = [d for d in range(a.ndim) if d not in axes]
    if any(s < 0 for s in a.strides):  # PyTorch has no negative strides (flip copies)
        a = np.ascontiguousarray(a)
    groups = math.prod(a.shape[d] for d in kept)
    width = math.prod(a.shape[d] for d in axes)
    if not groups:  # nothing left along the kept dims: an empty result (no order to keep)
        shape = [1 if d in axes else n for d, n in enumerate(a.shape)]
        out = np.zeros(shape, dtype)
        return out if keepdim else out.reshape([a.shape[d] for d in kept])
    with np.errstate(all="ignore"):
        if ord == 2 and _rows_in_memory(a, axes):
            rows = a.transpose(kept + reduced_order(a, axes)).reshape(groups, width)
            total = _lanes_of_squares(rows)
        else:
            rows = a.transpose(kept + reduced_order(a, axes)).reshape(groups, width)
            terms = _terms(rows, ord)
            total = np.add.accumulate(terms, axis=1, dtype=dtype)[:, -1]
        if ord == 2:
            out = np.sqrt(total)
        elif ord == 1:
            out = total
        else:
            out = _pow(total.astype(np.float64), float(dtype.type(1) / dtype.type(ord)))
    shape = [1 if d in axes else n for d, n in enumerate(a.shape)]
    out = np.asarray(out, dtype).reshape(shape)
    return out if keepdim else out.reshape([a.shape[d] for d in kept])


def _rows_in_memory(a: np.ndarray, axes: tuple) -> bool:
    """PyTorch's ``is_reduce_lastdim``: after merging, one reduced dim, innermost and
    contiguous."""
    reduced = tuple(d in axes for d in range(a.ndim))
    dims = walk(a.shape, element_strides(a), reduced)
    inner = [d for d in dims if d[2] == 0]
    return len(inner) == 1 and dims[0] is inner[0] and dims[0][1] == 1


def _terms(rows: np.ndarray, ord: float) -> np.ndarray:  # noqa: A002
    """Each element's ``|x| ** ord`` in the dtype (``powf`` correctly rounded here)."""
    dtype = rows.dtype
    if ord == 1:
        return np.abs(rows)
    if ord == 2:
        return rows * rows
    p = float(dtype.type(ord))
    return _pow(np.abs(rows).astype(np.float64), p).astype(dtype)


def _pow(x: np.ndarray, p: float) -> np.ndarray:
    """C's ``pow`` element by element: numpy's float64 power may run a vector library that
    is an ulp off where glibc's ``pow`` (PyTorch's ``std::pow``) is correctly rounded."""
    out = np.power(x, p)  # the special cases (0, inf, nan) as C's
    plain = np.isfinite(out) & np.isfinite(x) & (x > 0)
    if plain.any():
        out[plain] = [_c_pow(v, p) for v in x[plain].tolist()]
    return out


def _c_pow(x: float, p: float) -> float:
    try:
        return math.pow(x, p)
    except OverflowError:
        return math.inf


def _lanes_of_squares(rows: np.ndarray) -> np.ndarray:
    """The lastdim kernel: squares into lanes by whole vectors, lanes added in order, then
    the rest of the row one by one: the compiler multiplies four of them at a time first
    (each square rounded), the last ones with a fused multiply-add (measured)."""
    lanes = _LANES[rows.dtype]
    whole = rows.shape[1] // lanes * lanes
    total = np.zeros(rows.shape[0], rows.dtype)
    if whole:
        blocks = rows[:, :whole].reshape(rows.shape[0], -1, lanes)
        acc = np.add.accumulate(blocks * blocks, axis=1)[:, -1]
        total = np.add.accumulate(acc, axis=1)[:, -1]
    plain = whole + (rows.shape[1] - whole) // 4 * 4
    for k in range(whole, plain):
        total = total + rows[:, k] * rows[:, k]
    for k in range(plain, rows.shape[1]):
        total = _square_add(rows[:, k], total)
    return total


def _square_add(x: np.ndarray, acc: np.ndarray) -> np.ndarray:
    """``fma(x, x, acc)``: ``x * x + acc`` rounded once."""
    if x.dtype == np.float32:  # exact in float64, then rounded to odd and to float32
        p = x.astype(np.float64) * x
        s, e = _two_sum(p, acc.astype(np.float64))
        odd = (s.view(np.int64) & 1) == 1
        inexact = (e != 0) & ~odd & np.isfinite(s)
        return np.where(inexact, np.nextafter(s, s + e), s).astype(np.float32)
    split = x * 134217729.0  # Dekker's product: x * x = p + low exactly
    high = split - (split - x)
    low_part = x - high
    p = x * x
    low = ((high * high - p) + 2 * high * low_part) + low_part * low_part
    s, e = _two_sum(p, acc)
    return np.where(np.isfinite(s), s + (e + low), s)  # inf stays inf (not inf - inf)


def _two_sum(a: np.ndarray, b: np.ndarray) -> tuple:
    s = a + b
    v = s - a
    return s, (a - (s - v)) + (b - v)
