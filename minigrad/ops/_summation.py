"""Float sums added in PyTorch's order, so that a float32 sum or mean is PyTorch's to the bit.

Floating-point addition is not associative: the same numbers added in another order round
differently (``tensor([1.0, 0.4529, -0.57, -1., 1.6277, 0.4, -2.32, 1., -0., 3.3, 2.3,
-4.]).mean()`` is 0.1826 in PyTorch and 0.1825 when numpy adds the numbers). numpy sums
pairwise; PyTorch's CPU sum (``aten/src/ATen/native/cpu/SumKernel.cpp``) adds in this
order, reproduced here with numpy operations on whole rows (no loop over elements):

1. *The walk* (``_tensor_walk.walk``): the reduced dims innermost, the others by stride,
   runs of memory merged. The innermost two dims form the kernel's 2-d loop; each further
   dim repeats it, every block adding its sums into the output (which starts at 0).
2. *The 2-d loop*, by layout: rows that are contiguous along the reduced dim and at least a
   vector long are summed one accumulator per vector lane (``_vector_rows``); contiguous
   columns a vector wide are summed by whole vectors, one lane per column (``_columns``);
   other strides element by element.
3. *A cascade* (``_cascade``): 16 rows added into an accumulator, every 16 of those into a
   second level, every 16 of those into a third, the rest into a fourth, so that only
   numbers of one magnitude meet. A row sum (``_row_sum``) runs four cascades side by
   side, one for every fourth element, and adds the four at the end.

The vector is 32 bytes (8 float32, 4 float64) on every x86 machine: an AVX-512 build
registers no sum kernel (``REGISTER_DISPATCH``), so PyTorch runs its AVX2 one, and the
default build's vectors are 32 bytes too. Every sum starts from +0., so PyTorch's float sum
is never -0. Integer sums are exact in any order (numpy's). Not followed: a sum of 32,768
elements or more into one number, which PyTorch splits between its threads.
"""

from __future__ import annotations

import numpy as np

from ._cpu_vectors import REDUCTION_VECTOR_BYTES as _VECTOR_BYTES  # AVX2's 32, on any x86
from ._tensor_walk import element_strides, walk

__all__ = ["float_mean", "float_sum", "sequential", "summable"]

summable = "fd"  # the dtype characters float_sum takes: float32, float64
_ROWS = 4  # the kernel's ilp_factor and nrows: four accumulators side by side
_STEP, _LEVELS = 16, 4  # the cascade: 16 rows a level (more for 2**20 rows), 4 levels


def sequential(x: np.ndarray, axis: int) -> np.ndarray:
    """The sum along ``axis``, left to right. numpy's reduce adds pairwise along the axis
    it walks innermost (the smallest stride) and left to right along any other; where
    ``axis`` would be innermost, ``accumulate`` (always left to right)."""
    axis %= x.ndim
    n = x.shape[axis]
    if n <= 1:
        if n:
            return x[(slice(None),) * axis + (0,)]
        return np.zeros(x.shape[:axis] + x.shape[axis + 1 :], x.dtype)
    step = abs(x.strides[axis])
    for k, (size, stride) in enumerate(zip(x.shape, x.strides)):
        if size > 1 and 0 < abs(stride) < step and k != axis:
            return np.add.reduce(x, axis)
    return np.add.accumulate(x, axis)[(slice(None),) * axis + (-1,)]


def _down(x: np.ndarray) -> np.ndarray:
    """``sequential(x, -2)`` for a ``(..., rows, lanes)`` array: numpy's reduce when the
    lanes are the contiguous axis (it starts from +0., as PyTorch's accumulators do)."""
    if x.shape[-1] > 1 and x.strides[-1] == x.itemsize:
        return np.add.reduce(x, -2)
    return sequential(x, -2)


def _cascade(x: np.ndarray) -> np.ndarray:
    """``multi_row_sum``: the sum of ``x`` down axis -2 for every lane of axis -1."""
    m = x.shape[-2]
    if m < _STEP:
        return _down(x)
    if m < _STEP * _STEP:  # the first level and the rest (the usual case, in few calls)
        blocks = m // _STEP
        if blocks == 1:
            total = _down(x[..., :_STEP, :])
        else:
            lead, lanes = x.shape[:-2], x.shape[-1]
            total = _down(_down(x[..., : blocks * _STEP, :].reshape(*lead, blocks, _STEP, lanes)))
        return total + _down(x[..., blocks * _STEP :, :]) if m % _STEP else total
    step = 1 << max(4, (m - 1).bit_length() // _LEVELS)  # CeilLog2(m) / 4
    blocks = m // step
    lead, lanes = x.shape[:-2], x.shape[-1]
    level = _down(x[..., : blocks * step, :].reshape(*lead, blocks, step, lanes))
    total = _down(x[..., blocks * step :, :]) if blocks * step < m else None
    for _ in range(_LEVELS - 2):  # levels 1 and 2 pass on every 16th sum, the last keeps all
        full = level.shape[-2] // step
        if not full:
            break
        part = _down(level[..., full * step :, :])
        total = part if total is None else total + part
        level = _down(level[..., : full * step, :].reshape(*lead, full, step, lanes))
    part = _down(level)
    return part if total is None else total + part


def _row_sum(x: np.ndarray) -> np.ndarray:
    """``row_sum``: four cascades over every fourth element down axis -2 (for each lane of
    axis -1), the elements left over added into the first, then the four added in order."""
    m, lanes = x.shape[-2:]
    rows = m // _ROWS
    lead = x.shape[:-2]
    parts = _cascade(x[..., : rows * _ROWS, :].reshape(*lead, rows, _ROWS * lanes))
    parts = parts.reshape(*lead, _ROWS, lanes)
    if rows * _ROWS < m:
        tail = x[..., rows * _ROWS :, :]
        parts = np.concatenate((parts[..., :1, :], tail, parts[..., 1:, :]), -2)
    return _down(parts)


def _vector_rows(x: np.ndarray, width: int) -> np.ndarray:
    """``vectorized_inner_sum``: each row of ``x`` (contiguous, at least ``width`` long) as a
    row sum of whole vectors, lane by lane; then 0, the elements after the last whole
    vector and the lanes, added in this order into one number."""
    n = x.shape[-1]
    whole = n // width * width
    lanes = _row_sum(x[..., :whole].reshape(*x.shape[:-1], n // width, width))
    zero = np.zeros((*x.shape[:-1], 1), x.dtype)
    return sequential(np.concatenate((zero, x[..., whole:], lanes), -1), -1)


def _flat(x: np.ndarray):
    """The sum of one contiguous run of memory (``_vector_rows`` of one row, written out);
    below a vector, ``row_sum`` element by element."""
    n, width = x.shape[0], _VECTOR_BYTES // x.itemsize
    if n < width:  # at most 7 elements: numpy adds these left to right, from 0.
        return np.add.reduce(x[_SCALAR_ORDER[n]] if n > _ROWS else x)
    vectors = n // width
    wide = _ROWS * width
    rows = n // wide
    if not rows:  # one to three vectors, into the first accumulator
        lanes = np.add.reduce(x[: vectors * width].reshape(vectors, width), 0)
    else:
        z = x[: rows * wide].reshape(rows, wide)
        lanes = np.add.reduce(z, 0) if rows < _STEP else _cascade(z)
        if rows * _ROWS < vectors:
            left = x[rows * wide : vectors * width]
            lanes = np.concatenate((lanes[:width], left, lanes[width:]))
        lanes = np.add.reduce(lanes.reshape(-1, width), 0)
    return np.add.accumulate(np.concatenate((_ZERO[x.dtype.char], x[vectors * width :], lanes)))[-1]


# row_sum of 5 to 7 elements: the four accumulators take the first four, the rest go into
# the first, then the four are added
_SCALAR_ORDER = {n: [0, *range(_ROWS, n), *range(1, _ROWS)] for n in range(_ROWS + 1, 8)}
_ZERO = {"f": np.zeros(1, np.float32), "d": np.zeros(1, np.float64)}


def _columns(x: np.ndarray, cascaded: int) -> np.ndarray:
    """The outer loops: columns (axis -1) summed down axis -2, the first ``cascaded`` ones
    by one cascade each (whole vectors, or four columns at once), the others by row sums."""
    if cascaded == x.shape[-1]:
        return _cascade(x)
    if not cascaded:
        return _row_sum(x)
    return np.concatenate((_cascade(x[..., :cascaded]), _row_sum(x[..., cascaded:])), -1)


def _blocks(view: np.ndarray, dims: list, width: int) -> np.ndarray:
    """The 2-d loop on every block: ``view`` has the walk's dims outermost first (the two
    inner ones last); returns one sum per block row (the elements when nothing is reduced
    inside a block)."""
    (size0, s0, o0, _), (size1, s1, o1, _) = dims[0], dims[1]
    if o0 and o1:  # no reduction inside the block: out += in
        return view
    if s0 == 1 and size0 >= width:  # a contiguous reduced dim
        return _vector_rows(view, width)
    columns = np.swapaxes(view, -1, -2)
    if s1 == 1 and size1 >= width:  # contiguous columns: four vectors at once, then one
        return _columns(columns, size1 // (_ROWS * width) * _ROWS * width)
    if s0 < s1:  # each row, element by element
        return _row_sum(columns)
    return _columns(columns, size1 // _ROWS * _ROWS)  # four columns at once


def _general(a: np.ndarray, reduced: tuple) -> np.ndarray:
    """Any layout, any dims: the walk, its blocks, and the blocks' sums added into the
    output in the walk's order. Returns the sums with the input's axes (reduced ones 1)."""
    if any(s < 0 for s in a.strides):  # PyTorch has no negative strides (flip copies)
        a = np.ascontiguousarray(a)
    out_shape = tuple(1 if r else n for n, r in zip(a.shape, reduced))
    dims = walk(a.shape, element_strides(a), reduced)
    if not dims:  # one element
        return a.reshape(out_shape) + 0.0
    if len(dims) == 1:
        dims.append([1, 0, 0, []])
    if dims[0][2] and not dims[1][2]:  # the reduced dim goes first in the 2-d loop
        dims[0], dims[1] = dims[1], dims[0]
    outer = dims[::-1]
    perm = [d for d in range(a.ndim) if a.shape[d] == 1]
    for d in outer:
        perm += d[3][::-1]
    sums = _blocks(
        a.transpose(perm).reshape([d[0] for d in outer]), dims, _VECTOR_BYTES // a.itemsize
    )
    kept = outer if dims[0][2] and dims[1][2] else outer[:-1]
    # each block adds into the output, from 0: over the walk's reduced dims in C order
    added = [i for i, d in enumerate(kept) if not d[2]]
    left = [i for i, d in enumerate(kept) if d[2]]
    sums = np.transpose(sums, added + left)
    total = sequential(sums.reshape(-1, *sums.shape[len(added) :]), 0) + 0.0
    axes = [x for i in left for x in kept[i][3][::-1]]  # each dim left: the axes it merged
    total = total.reshape([a.shape[x] for x in axes])
    return np.ascontiguousarray(np.transpose(total, np.argsort(axes))).reshape(out_shape)


def float_sum(a: np.ndarray, axes: tuple, keepdims: bool = False) -> np.ndarray:
    """``a.sum(axes)`` of a float32 or float64 array in PyTorch's order (module docstring);
    ``axes`` sorted, without repeats. Always an array (0-d for one number)."""
    shape = a.shape
    ndim = len(shape)
    if a.flags.c_contiguous and a.size:
        if len(axes) == ndim:  # everything: one run of memory, one number
            total = np.asarray(_flat(a if ndim == 1 else a.reshape(-1)))
            return total.reshape((1,) * ndim) if keepdims else total
        if a.size == _count(shape, axes):  # the dims kept have size 1: one number too
            total = np.asarray(_flat(a.reshape(-1)))
            return total.reshape(_out_shape(shape, axes, keepdims))
        if ndim == 2 and shape[0] > 1 and shape[1] > 1:  # a matrix by rows or by columns
            # contiguous, as PyTorch allocates it (a running sum's last column is a view)
            out = np.ascontiguousarray(_matrix(a, axes[0]))
            return out.reshape(_out_shape(shape, axes, True)) if keepdims else out
    if not a.size:
        return np.zeros(_out_shape(shape, axes, keepdims), a.dtype)
    if a.flags.f_contiguous and a.size == _count(shape, axes):
        total = np.asarray(_flat(a.reshape(-1, order="F")))  # one run, one number
        return total.reshape(_out_shape(shape, axes, keepdims))
    sums = _general(a, tuple(d in axes for d in range(ndim)))
    return sums.reshape(_out_shape(shape, axes, keepdims))


def _matrix(a: np.ndarray, axis: int) -> np.ndarray:
    """A C-ordered matrix summed by rows (``axis`` 1) or down its columns (``axis`` 0)."""
    width = _VECTOR_BYTES // a.itemsize
    if axis:
        return _vector_rows(a, width) if a.shape[1] >= width else _row_sum(a.T) + 0.0
    cols = a.shape[1]
    if cols >= width:  # four whole vectors of columns at once, then one at a time
        cascaded = cols // (_ROWS * width) * _ROWS * width
    else:
        cascaded = cols // _ROWS * _ROWS  # four columns at once
    if cascaded:
        return _columns(a, cascaded)
    # every column by row_sum (a bias's gradient of a few columns): written out
    m = a.shape[0]
    rows = m // _ROWS
    z = a[: rows * _ROWS].reshape(rows, _ROWS * cols)
    if rows < _STEP:
        parts = np.add.reduce(z, 0)
    elif rows < 2 * _STEP:
        parts = np.add.reduce(z[:_STEP], 0) + np.add.reduce(z[_STEP:], 0)
    else:
        parts = _cascade(z)
    parts = parts.reshape(_ROWS, cols)
    if rows * _ROWS < m:
        parts = np.concatenate((parts[:1], a[rows * _ROWS :], parts[1:]))
    return np.add.reduce(parts, 0)


def _out_shape(shape: tuple, axes: tuple, keepdims: bool) -> tuple:
    if keepdims:
        return tuple(1 if d in axes else n for d, n in enumerate(shape))
    return tuple(n for d, n in enumerate(shape) if d not in axes)


def _count(shape: tuple, axes: tuple) -> int:
    count = 1
    for d in axes:
        count *= shape[d]
    return count


def float_mean(a: np.ndarray, axes: tuple, keepdims: bool = False) -> np.ndarray:
    """PyTorch's mean on the CPU: the sum (``float_sum``), then divided by the count (a
    Python int: rounded to the array's dtype, as PyTorch's scalar is)."""
    return np.asarray(float_sum(a, axes, keepdims) / _count(a.shape, axes))
