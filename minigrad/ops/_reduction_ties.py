"""Which of ``0.`` and ``-0.`` PyTorch's ``amax``/``amin`` return when both are the extreme.

``(tensor([3., -3.]) * 0).amax()`` is ``0.`` in PyTorch and ``-0.`` when numpy picks: the
two compare equal, so the order of the comparisons decides. PyTorch's reduction kernel
(``binary_kernel_reduce_vec`` in ``aten/src/ATen/native/cpu/Reduce.h``) walks the tensor as
its TensorIterator does (``_tensor_walk.walk``: the reduced dims innermost) and, by the
layout of the innermost two dims:

- *a contiguous row* of at least four vectors (32 float32, 16 float64: the kernel's vectors
  are 32 bytes, measured) is taken four vectors at a time into four accumulators, then the
  four are folded pairwise, then the lanes of the result one by one; the rest of the row
  one element at a time;
- *contiguous columns* (the reduced dim strided, the kept one contiguous) are taken four
  vectors wide, one accumulator lane per column, the columns left over one at a time;
- anything else one element at a time.

One element at a time, ``std::max(acc, x)`` keeps the accumulator at a tie; the vector
instructions (``_mm256_max_ps(acc, x)``) return the new value. The accumulator starts at
``-inf`` (``+inf`` for amin) and each call of the kernel's loop adds its result into it.
Only groups whose extreme is a zero of both signs are walked again this way (rare), so the
common case costs one comparison.
"""

from __future__ import annotations

import math

import numpy as np

from ._cpu_vectors import REDUCTION_LANES as _LANES  # AVX2's, even on AVX-512: 8 / 4
from ._tensor_walk import element_strides, walk

__all__ = ["reduced_extreme"]


def reduced_extreme(a: np.ndarray, axes: tuple, keepdim: bool, largest: bool) -> np.ndarray:
    """``a.amax(axes)`` (``amin`` when not ``largest``) with PyTorch's zero at a tie."""
    pick = np.max if largest else np.min
    out = pick(a, axis=axes, keepdims=True)
    if a.dtype in _LANES and a.size and (out == 0).any():
        zero = a == 0
        negative = np.signbit(a) & zero
        mixed = (out == 0) & negative.any(axis=axes, keepdims=True)
        mixed &= (zero & ~negative).any(axis=axes, keepdims=True)
        if mixed.any():
            out = np.where(mixed, _walked(a, axes, largest), out)
    return out if keepdim else np.squeeze(out, axis=axes)


def _scalar(largest: bool):
    """``max_impl(acc, x)``: nan if either is, else ``x`` only when strictly beyond ``acc``."""
    beyond = np.greater if largest else np.less

    def op(acc, x):
        return np.where(np.isnan(acc) | np.isnan(x), np.nan, np.where(beyond(x, acc), x, acc))

    return op


def _vector(largest: bool):
    """``maximum(acc, x)`` on vectors: nan if either is, else ``acc`` only when beyond ``x``."""
    beyond = np.greater if largest else np.less

    def op(acc, x):
        return np.where(np.isnan(acc) | np.isnan(x), np.nan, np.where(beyond(acc, x), acc, x))

    return op


def _walked(a: np.ndarray, axes: tuple, largest: bool) -> np.ndarray:
    """The reduction in the kernel's order, every group, shaped as ``pick(keepdims=True)``."""
    if any(s < 0 for s in a.strides):  # PyTorch has no negative strides (flip copies)
        a = np.ascontiguousarray(a)
    reduced = tuple(d in axes for d in range(a.ndim))
    dims = walk(a.shape, element_strides(a), reduced)  # innermost first, reduced ones first
    out_shape = tuple(1 if r else n for n, r in zip(a.shape, reduced))
    if not dims or dims[0][2]:  # one element per group
        return a.reshape(out_shape).copy()
    # the elements as (group, outer reduced elements, innermost reduced dim), each in order
    perm = [d for d in range(a.ndim) if a.shape[d] == 1]
    perm += [axis for d in reversed(dims) for axis in reversed(d[3])]
    kept = [d for d in dims if d[2]]
    groups = math.prod(d[0] for d in kept)
    x = a.transpose(perm).reshape(groups, -1, dims[0][0])
    index = np.broadcast_to(np.arange(math.prod(out_shape)).reshape(out_shape), a.shape)
    where = index.transpose(perm).reshape(groups, -1)[:, 0]

    lanes = _LANES[a.dtype]
    scalar, vector = _scalar(largest), _vector(largest)
    acc = np.full(groups, -np.inf if largest else np.inf, a.dtype)
    if dims[0][1] == 1:  # contiguous rows
        for row in np.moveaxis(x, 1, 0):
            done = row.shape[1] // (4 * lanes) * 4 * lanes
            if done:
                blocks = row[:, :done].reshape(groups, -1, 4, lanes)
                v = blocks[:, 0]
                for i in range(1, blocks.shape[1]):
                    v = vector(v, blocks[:, i])
                v = vector(vector(v[:, 0], v[:, 1]), vector(v[:, 2], v[:, 3]))
                first = v[:, 0]
                for j in range(1, lanes):
                    first = scalar(first, v[:, j])
                acc = scalar(acc, first)
            for k in range(done, row.shape[1]):
                acc = scalar(acc, row[:, k])
    else:
        rows = x.reshape(groups, -1)
        columns = dims[1][0] if len(dims) > 1 and dims[1][1] == 1 and dims[1][2] == 1 else 0
        in_vectors = np.arange(groups) % max(columns, 1) < columns // (4 * lanes) * 4 * lanes
        if in_vectors.any():  # the first row starts the accumulators, the output's start last
            v = rows[:, 0]
            for k in range(1, rows.shape[1]):
                v = vector(v, rows[:, k])
            acc = np.where(in_vectors, vector(v, acc), acc)
        for k in range(rows.shape[1]):
            acc = np.where(in_vectors, acc, scalar(acc, rows[:, k]))
    out = np.empty(math.prod(out_shape), a.dtype)
    out[where] = acc
    return out.reshape(out_shape)
