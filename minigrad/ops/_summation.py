"""Float sums added in PyTorch's order, so that a float32 sum or mean is PyTorch's to the bit.

Floating-point addition is not associative: the same numbers added in another order round
differently (``tensor([1.0, 0.4529, -0.57, -1., 1.6277, 0.4, -2.32, 1., -0., 3.3, 2.3,
-4.]).mean()`` is 0.1826 in PyTorch and 0.1825 when numpy adds the numbers). numpy sums
pairwise; PyTorch's CPU kernel (``aten/src/ATen/native/cpu/SumKernel.cpp``) adds in this order,
reproduced here with numpy operations on whole arrays (no loop over elements):

1. *The walk* (``TensorIterator``): the reduced dims are moved innermost, then every dim in
   the order of its memory stride, and adjacent dims that are one run of memory are merged.
   The innermost two dims form one 2-d loop; any further dims are visited one after another,
   each 2-d block adding its sums into the output (which starts at 0).
2. *The 2-d loop*, by layout: the rows of a contiguous reduced dim at least a vector long
   are summed with one accumulator per vector lane (``_vector_rows``); columns that are
   contiguous are summed by whole vectors, one lane per column; other strides element by
   element.
3. *A cascade* (``_cascade``): 16 rows added into an accumulator, every 16 of those into a
   second level, every 16 of those into a third and the rest into a fourth, so that only
   numbers of one magnitude meet. A row sum (``_row_sum``) runs four such cascades, one for
   every fourth element, and adds the four at the end.

The vector width is 32 bytes on every x86 machine: an AVX-512 build registers no sum kernel
(``REGISTER_DISPATCH``, not ``ALSO_REGISTER_AVX512_DISPATCH``), so PyTorch runs its AVX2 one,
and the default build's ``Vectorized`` is 32 bytes too. Every sum starts from +0.,
so PyTorch's float sum is never -0. Integer sums are exact in any order and stay numpy's.
Sums of 32,768 elements or more into one number are split between PyTorch's threads, which
this does not follow (a difference in the last bits of such a sum).
"""

from __future__ import annotations

import numpy as np

__all__ = ["VECTOR_BYTES", "float_mean", "float_sum", "summable"]

summable = "fd"  # the dtype characters of float32 and float64: what float_sum takes

_ROWS = 4  # PyTorch's ilp_factor and nrows: four accumulators side by side
_LEVELS = 4  # the cascade's levels


VECTOR_BYTES = 32  # Vectorized<float> has 8 lanes, Vectorized<double> 4 (see the docstring)


def _ceil_log2(n: int) -> int:
    return 1 if n <= 2 else (n - 1).bit_length()


def _seq(x: np.ndarray, axis: int) -> np.ndarray:
    """Sum along ``axis`` left to right. numpy's reduce adds pairwise along the axis it walks
    innermost (the one of smallest stride); along any other it adds left to right. When
    ``axis`` would be innermost, ``accumulate``, which always adds left to right."""
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


def _cascade(x: np.ndarray) -> np.ndarray:
    """``multi_row_sum``: the sum of ``x`` along axis -2 for every lane of axis -1."""
    m = x.shape[-2]
    step = 1 << max(4, _ceil_log2(m) // _LEVELS)
    blocks = m // step
    if not blocks:
        return _seq(x, -2)
    lead, lanes = x.shape[:-2], x.shape[-1]
    rest = _seq(x[..., blocks * step :, :], -2)
    level = _seq(x[..., : blocks * step, :].reshape(*lead, blocks, step, lanes), -2)
    for _ in range(_LEVELS - 2):  # levels 1 and 2 pass on every 16th sum, the last keeps all
        full = level.shape[-2] // step
        if not full:
            break
        rest = rest + _seq(level[..., full * step :, :], -2)
        level = _seq(level[..., : full * step, :].reshape(*lead, full, step, lanes), -2)
    return rest + _seq(level, -2)


def _row_sum(x: np.ndarray) -> np.ndarray:
    """``row_sum``: four cascades over every fourth element of axis -2 (for each lane of axis
    -1), the elements left over added into the first, then the four added in order."""
    m, lanes = x.shape[-2:]
    rows = m // _ROWS
    parts = _cascade(x[..., : rows * _ROWS, :].reshape(*x.shape[:-2], rows, _ROWS * lanes))
    parts = parts.reshape(*x.shape[:-2], _ROWS, lanes)
    tail = x[..., rows * _ROWS :, :]
    return _seq(np.concatenate((parts[..., :1, :], tail, parts[..., 1:, :]), -2), -2)


def _vector_rows(x: np.ndarray, width: int) -> np.ndarray:
    """``vectorized_inner_sum``: each row of ``x`` (contiguous, at least ``width`` long) as a
    row sum of whole vectors, lane by lane; then 0, the elements after the last whole
    vector and the lanes, added into one number."""
    n = x.shape[-1]
    whole = n // width * width
    lanes = _row_sum(x[..., :whole].reshape(*x.shape[:-1], n // width, width))
    zero = np.zeros((*x.shape[:-1], 1), x.dtype)
    return _seq(np.concatenate((zero, x[..., whole:], lanes), -1), -1)


def _flat(x: np.ndarray):
    """The sum of a contiguous run of memory (``float_sum``'s usual case, in few numpy calls):
    the vector loop when it is a vector long, else ``row_sum`` element by element."""
    n, width = x.shape[0], VECTOR_BYTES // x.itemsize
    if n < width:  # at most 7 elements: numpy adds them left to right
        return np.add.reduce(x[_SCALAR_ORDER[n]] if n > _ROWS else x, initial=0.0)
    vectors = n // width
    rows = vectors // _ROWS
    wide = _ROWS * width
    if rows >= 16:
        parts = _cascade(x[: rows * wide].reshape(rows, wide))
    elif rows > 1:
        parts = np.add.reduce(x[: rows * wide].reshape(rows, wide), 0)
    else:
        parts = x[:wide] if rows else np.zeros(wide, x.dtype)
    lanes = np.concatenate((parts[:width], x[rows * wide : vectors * width], parts[width:]))
    lanes = np.add.reduce(lanes.reshape(-1, width), 0)
    return np.add.accumulate(np.concatenate((_ZERO[x.dtype.char], x[vectors * width :], lanes)))[-1]


# row_sum of fewer than 8 elements: four accumulators take the first four, the rest go into
# the first, then the four are added
_SCALAR_ORDER = {n: [0, *range(_ROWS, n), *range(1, _ROWS)] for n in range(_ROWS + 1, 8)}
_ZERO = {"f": np.zeros(1, np.float32), "d": np.zeros(1, np.float64)}


def _columns_of(a: np.ndarray) -> np.ndarray:
    """``a.sum(0)`` of a C-ordered matrix: its columns summed down (``_blocks``' outer loops)."""
    cols, width = a.shape[1], VECTOR_BYTES // a.itemsize
    if cols >= width:
        return _columns(a, cols // (_ROWS * width) * _ROWS * width)
    return _columns(a, cols // _ROWS * _ROWS)


def _rows_of(a: np.ndarray) -> np.ndarray:
    """``a.sum(1)`` of a C-ordered matrix: each row by the vector loop, or element by element."""
    width = VECTOR_BYTES // a.itemsize
    return _vector_rows(a, width) if a.shape[1] >= width else _row_sum(a.T)


def _columns(x: np.ndarray, cascaded: int) -> np.ndarray:
    """The outer loops: columns (axis -1) summed down axis -2, the first ``cascaded`` ones by
    one cascade each (whole vectors, or four columns at once), the others by row sums."""
    if cascaded == x.shape[-1]:
        return _cascade(x)
    if not cascaded:
        return _row_sum(x)
    return np.concatenate((_cascade(x[..., :cascaded]), _row_sum(x[..., cascaded:])), -1)


def _walk(shape: tuple, strides: tuple, reduced: tuple) -> list[list]:
    """TensorIterator's dims for a reduction, innermost first: ``[size, input stride, output
    stride, axes]`` (output stride 0 where reduced; ``axes`` the input's axes merged into
    the dim, innermost first), after its reordering and merging."""
    out_strides, step = [0] * len(shape), 1
    for d in reversed(range(len(shape))):  # the output: C order, its reduced dims stride 0
        if not reduced[d]:
            out_strides[d] = step
            step *= shape[d]
    dims = [[shape[d], strides[d], out_strides[d], [d]] for d in range(len(shape))]
    dims = [d for d in dims if d[0] != 1]
    dims.reverse()  # PyTorch starts from the last dim, then sorts (an insertion sort)
    for i in range(1, len(dims)):
        j = i
        for k in range(i - 1, -1, -1):
            c = _swap(dims[k], dims[j])
            if c > 0:
                dims[k], dims[j] = dims[j], dims[k]
                j = k
            elif c < 0:
                break
    merged: list[list] = []
    for d in dims:  # two dims that are one run of memory in both operands become one
        last = merged[-1] if merged else None
        if last and last[0] * last[1] == d[1] and last[0] * last[2] == d[2]:
            last[0] *= d[0]
            last[3] = last[3] + d[3]
        else:
            merged.append(list(d))
    return merged


def _swap(a: list, b: list) -> int:
    """TensorIterator's ``should_swap`` for two dims: reduced dims first, then by the
    output's strides, then by the input's (ties: the smaller dim first); 0 when undecided."""
    if (a[2] == 0) != (b[2] == 0):
        return 1 if b[2] == 0 else -1
    for k in (2, 1):
        if a[k] == 0 or b[k] == 0:
            continue
        if a[k] != b[k]:
            return -1 if a[k] < b[k] else 1
        if a[0] > b[0]:
            return 1
    return 0


def _blocks(view: np.ndarray, dims: list[list], width: int) -> np.ndarray:
    """The 2-d loop on every block: ``view`` has the walk's dims outermost first (the two
    inner ones last); returns one sum per block row (or the elements, when nothing is
    reduced inside a block)."""
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


def _general(a: np.ndarray, reduced: tuple, out_shape: tuple) -> np.ndarray:
    """Any layout and any dims: the walk (module docstring), its blocks, and the blocks'
    sums added into the output in the walk's order."""
    item = a.itemsize
    if any(s < 0 for s in a.strides):  # PyTorch has no negative strides (flip copies)
        a = np.ascontiguousarray(a)
    dims = _walk(a.shape, tuple(s // item for s in a.strides), reduced)
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
    view = a.transpose(perm).reshape([d[0] for d in outer])
    sums = _blocks(view, dims, VECTOR_BYTES // item)
    kept = outer if dims[0][2] and dims[1][2] else outer[:-1]
    # every block adds its sums into the output, which starts at 0: over the walk's reduced
    # dims in its order (C order of ``kept``)
    summed = [i for i, d in enumerate(kept) if not d[2]]
    left = [i for i, d in enumerate(kept) if d[2]]
    sums = np.transpose(sums, summed + left)
    sums = sums.reshape(-1, *sums.shape[len(summed) :])
    total = _seq(sums, 0) + 0.0
    # back to the output's axes: each dim left splits into the axes it merged
    axes = [ax for i in left for ax in kept[i][3][::-1]]
    total = total.reshape([a.shape[ax] for ax in axes])
    return np.ascontiguousarray(np.transpose(total, np.argsort(axes))).reshape(out_shape)


def float_sum(a: np.ndarray, axes: tuple, keepdims: bool = False) -> np.ndarray:
    """``a.sum(axes)`` of a float32 or float64 array, in PyTorch's order (module docstring);
    ``axes`` sorted, without repeats."""
    ndim = a.ndim
    if len(axes) == ndim:
        out_shape = (1,) * ndim if keepdims else ()
        if a.flags.c_contiguous or a.flags.f_contiguous:  # memory order, one run
            return np.asarray(_flat(a.reshape(-1, order="A"))).reshape(out_shape)
    else:
        out_shape = tuple(1 if d in axes else n for d, n in enumerate(a.shape))
    if not a.size:
        out = np.zeros(out_shape, a.dtype)
    elif ndim == 2 and a.flags.c_contiguous and a.shape[0] > 1 and a.shape[1] > 1:
        out = _columns_of(a) if axes == (0,) else _rows_of(a)
        out = out.reshape(out_shape)
    else:
        out = _general(a, tuple(d in axes for d in range(ndim)), out_shape)
    if keepdims:
        return out
    return out.reshape(tuple(n for d, n in enumerate(a.shape) if d not in axes))


def float_mean(a: np.ndarray, axes: tuple, keepdims: bool = False) -> np.ndarray:
    """PyTorch's mean on the CPU: the sum (``float_sum``), then divided by the count."""
    count = 1
    for d in axes:
        count *= a.shape[d]
    return float_sum(a, axes, keepdims) / np.array(count, a.dtype)


def nll_sum(values: np.ndarray, positions: np.ndarray | None = None):
    """The sum of nll_loss's terms in its kernel's order (``nll_loss_out_frame`` in
    ``LossNLL.cpp``, which keeps its own cascade, not the sum kernel's): the term of batch
    row ``b`` goes into the first of 8 levels; after a row ``b`` that is a multiple of 16
    the first level is passed on into the second, after a multiple of 256 the second into
    the third, and so on; the levels are added last, from 0. Row 0 is a multiple of every
    step, so its term alone reaches the top level. ``positions`` are the rows of the terms
    when some rows were ignored (an ignored row passes nothing on); None: 0, 1, 2, ..."""
    sums = []
    first = None
    for level in range(_NLL_LEVELS - 1):
        step = _NLL_STEP ** (level + 1)
        if positions is None:  # every row: the first term, then blocks of 16
            if len(values) and first is None:
                first, values = values[:1], values[1:]
            blocks = len(values) // _NLL_STEP
            sums.append(_seq(values[blocks * _NLL_STEP :], 0))
            values = _seq(values[: blocks * _NLL_STEP].reshape(blocks, _NLL_STEP), 1)
            if not blocks:
                break
            continue
        ends = np.flatnonzero(positions % step == 0)  # rows after which a level passes on
        last = ends[-1] + 1 if len(ends) else 0
        sums.append(_seq(values[last:], 0))
        values, positions = _segments(values[:last], ends), positions[ends]
    if first is not None:
        values = np.concatenate((first, values)) if len(values) else first
    sums.append(_seq(values, 0))
    zero = np.zeros((), values.dtype)
    return _seq(np.stack([zero, *sums]), 0)


_NLL_LEVELS, _NLL_STEP = 8, 16


def _segments(values: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """Left-to-right sums of the runs of ``values`` that end at the indices ``ends``."""
    if not len(ends):
        return values[:0]
    starts = np.concatenate(([0], ends[:-1] + 1))
    lengths = ends - starts + 1
    table = np.zeros((lengths.max(), len(ends)), values.dtype)  # a run per column, 0 after
    table[np.arange(len(values)) - np.repeat(starts, lengths), np.repeat(np.arange(len(ends)), lengths)] = values
    return _seq(table, 0)
