"""Indexing and joining: x[i], x[a:b], x[mask], x[i] = v, cat, stack, where.

Basic indexing is split into PyTorch's steps (``x[0, 1:]`` is a Select then a
Slice) so the graph shows the same nodes; every step is a view. Advanced
indexing (tensors, lists, masks) makes a copy, recorded as ``IndexBackward0``.
"""

from __future__ import annotations

import math

import numpy as np

from ..autograd import grad_mode
from ..autograd.function import ArrayFunction
from ..autograd.multi_function import MultiArrayFunction, zeros_for
from ..tensor import Tensor, new_tensor, wrap_dim
from ._common import broadcast_shapes, positions
from .namespace import namespace
from .shape import Unsqueeze


def _check_index(i: int, dim: int, size: int) -> int:
    if not -size <= i < size:
        raise IndexError(f"index {i} is out of bounds for dimension {dim} with size {size}")
    return i + size if i < 0 else i


class Select(ArrayFunction):
    node_name = "SelectBackward0"
    n_params = 2
    is_view = True

    @staticmethod
    def forward(ctx, a, dim, i):
        if a.ndim == 0:
            raise IndexError(
                "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number"
            )
        ctx.shape, ctx.key = a.shape, (slice(None),) * dim + (_check_index(i, dim, a.shape[dim]),)
        return a[ctx.key + (Ellipsis,)]  # the Ellipsis keeps a 0-d result a view, not a copy

    @staticmethod
    def backward(ctx, grad):
        return SelectBackward.call(grad, ctx.shape, ctx.key)


class SelectBackward(ArrayFunction):
    """The gradient of ``x[i]``: ``grad`` placed in a zero tensor of ``x``'s shape.

    An op of its own (PyTorch's ``SelectBackwardBackward0``) so that it can be
    differentiated again: its own gradient is the same selection, ``gg[key]``.
    """

    node_name = "SelectBackwardBackward0"
    n_params = 2

    @staticmethod
    def forward(ctx, grad, shape, key):
        ctx.key = key
        full = np.zeros(shape, dtype=grad.dtype)
        full[key] = grad
        return full

    @staticmethod
    def backward(ctx, gg):
        return gg[ctx.key]


class SliceBackward(SelectBackward):
    node_name = "SliceBackwardBackward0"


class Unbind(MultiArrayFunction):
    """``x.unbind(dim)``, ``list(x)``: one node, one output (a view) per slice along ``dim``.

    Its backward stacks the outputs' gradients, zeros for those that got none (under
    ``create_graph`` a StackBackward0 with None edges for them, as PyTorch's).
    """

    node_name = "UnbindBackward0"
    n_params = 1
    is_view = True

    @staticmethod
    def forward(ctx, a, dim):
        ctx.axis, ctx.part = dim, a.shape[:dim] + a.shape[dim + 1 :]
        key = (slice(None),) * dim
        return tuple([a[key + (i, Ellipsis)] for i in range(a.shape[dim])])

    @staticmethod
    def backward(ctx, grads):
        grads = zeros_for(grads, [ctx.part] * len(grads))
        if isinstance(grads[0], Tensor):
            return Stack.apply(*grads, ctx.axis)
        return np.stack(grads, axis=ctx.axis)


class Slice(ArrayFunction):
    node_name = "SliceBackward0"
    n_params = 2
    is_view = True

    @staticmethod
    def forward(ctx, a, dim, key):
        if key.step is not None and key.step <= 0:
            raise ValueError("step must be greater than zero")
        ctx.shape, ctx.key = a.shape, (slice(None),) * dim + (key,)
        return a[ctx.key]

    @staticmethod
    def backward(ctx, grad):
        return SliceBackward.call(grad, ctx.shape, ctx.key)


class Index(ArrayFunction):
    """Advanced indexing: a copy; repeated indices add up their gradients.

    ``key`` is a tuple of indices, or one integer array for the commonest case,
    rows picked along dimension 0 (an embedding lookup ``C[X]``), which numpy's
    ``take`` does without parsing a general index.
    """

    node_name = "IndexBackward0"
    n_params = 1

    @staticmethod
    def forward(ctx, a, key):
        ctx.shape, ctx.key = a.shape, key
        ctx.save_for_backward(key)  # PyTorch saves the indices: a second backward raises
        return take_rows(a, key) if type(key) is np.ndarray else _numpy_index(a, key)

    @staticmethod
    def backward(ctx, grad):
        if type(grad) is np.ndarray and type(ctx.key) is np.ndarray:  # C[X], no create_graph
            return _add_rows(np.zeros(ctx.shape, grad.dtype), grad, ctx.key)
        zeros = np.zeros(ctx.shape, dtype=namespace(grad).dtype(grad))
        return IndexPutBackward.call(zeros, grad, ctx.key)


def take_rows(a: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """``a[rows]`` for an integer array ``rows``: numpy's ``take``, with PyTorch's words."""
    try:
        return a.take(rows, 0)
    except IndexError as e:
        raise IndexError(str(e).replace("axis", "dimension")) from None


def _numpy_index(a: np.ndarray, key: tuple) -> np.ndarray:
    try:
        return a[key]
    except IndexError as e:
        raise IndexError(str(e).replace("axis", "dimension")) from None


class IndexPutBackward(ArrayFunction):
    """The gradient of ``x[index]``: ``grad`` added into zeros at ``index`` (repeats add up).

    PyTorch's ``index_put`` into a tensor of zeros: the zeros are its first input (a
    constant), the gradient its second.
    """

    node_name = "IndexPutImplBackward0"
    n_params = 1
    grad_position = 1

    @staticmethod
    def forward(ctx, zeros, grad, key):
        ctx.key = key
        ctx.save_for_backward(key)  # PyTorch saves the indices
        if type(key) is np.ndarray:  # rows of dimension 0: C[X]'s gradient
            return _add_rows(zeros, grad, key)
        np.add.at(zeros, key, grad)
        return zeros

    @staticmethod
    def backward(ctx, gg):
        return None, gg[ctx.key]


class AsStridedRegion(ArrayFunction):
    """The region ``key`` (flat indices) of a C-ordered tensor as a strided view of it:
    PyTorch's ``as_strided``, which CopySlices uses under ``create_graph`` to read the region
    of the gradient its op differentiates. Backward puts the gradient back at ``key``."""

    node_name = "AsStridedBackward0"
    n_params = 1
    is_view = True

    @staticmethod
    def forward(ctx, a, key):
        ctx.shape, ctx.key = a.shape, key
        offset, strides = strided_form(key)
        flat = a.reshape(-1)  # a view: ``a`` is C-ordered
        return np.lib.stride_tricks.as_strided(
            flat[offset:], key.shape, tuple(s * a.itemsize for s in strides)
        )

    @staticmethod
    def backward(ctx, grad):
        xp = namespace(grad)
        zeros = np.zeros(math.prod(ctx.shape), dtype=xp.dtype(grad))
        return xp.reshape(IndexPutBackward.call(zeros, grad, ctx.key), ctx.shape)


def strided_form(key: np.ndarray) -> tuple[int, tuple[int, ...]]:
    """``key`` (flat indices, one per element of a view) as an offset and strides, in
    elements; ValueError if no strides give it."""
    offset = int(key.flat[0]) if key.size else 0
    strides = []
    for d, n in enumerate(key.shape):
        step = (0,) * d + (1,) + (0,) * (key.ndim - d - 1)
        strides.append(int(key[step]) - offset if n > 1 and key.size else 0)
    grid = offset + sum(
        np.arange(n).reshape((-1,) + (1,) * (key.ndim - d - 1)) * s
        for d, (n, s) in enumerate(zip(key.shape, strides))
    )
    if key.size and not np.array_equal(np.broadcast_to(grid, key.shape), key):
        raise ValueError("not a strided region")
    return offset, tuple(strides)


def _add_rows(zeros: np.ndarray, grad: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """``np.add.at(zeros, rows, grad)`` through one flat index per element.

    numpy's ``add.at`` is several times faster on a 1-D array than row by row, and
    adds the same numbers in the same order, so the sums are identical. A negative
    row ``-k`` becomes a negative flat index that lands in that same row. ``zeros``
    is the fresh C-ordered array ``Index.backward`` made: written in place, through
    a flat view of it.
    """
    width = math.prod(zeros.shape[1:])
    flat = (rows.reshape(-1, 1) * width + positions(width)).reshape(-1)
    np.add.at(zeros.reshape(-1), flat, grad.reshape(-1))
    return zeros


class Alias(ArrayFunction):
    """``x[...]`` or ``x[:, :]``: a new view of the whole tensor (PyTorch's AliasBackward0)."""

    node_name = "AliasBackward0"
    is_view = True

    @staticmethod
    def forward(ctx, a):
        return a.view()

    @staticmethod
    def backward(ctx, grad):
        return grad


_grad_state = grad_mode.state
_INDEX_DTYPES = frozenset(np.dtype(t) for t in (np.int64, np.int32, np.uint8, np.bool_))
_ROW_DTYPES = frozenset(np.dtype(t) for t in (np.int64, np.int32))  # x[rows]: one take
_INDEX_TYPES_ERROR = (
    "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are valid "
    "indices (got {})"
)


def as_numpy_index(index):
    """Turn tensors (and nested lists) inside an index into numpy arrays."""
    if isinstance(index, tuple):
        return tuple(as_numpy_index(i) for i in index)
    if isinstance(index, Tensor):
        if index._data.dtype not in _INDEX_DTYPES:
            raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
        return index._data
    if isinstance(index, (list, bool, np.bool_)):
        return np.asarray(index)
    if isinstance(index, range):  # x[range(3)] is x[[0, 1, 2]]
        return np.asarray(index, dtype=np.int64)
    if (
        isinstance(index, np.ndarray)
        or isinstance(index, (int, slice, np.integer))
        or (index is None or index is Ellipsis)
    ):
        return index
    raise IndexError(_INDEX_TYPES_ERROR.format(type(index).__name__))


def _as_int(part):
    """A 0-d integer tensor in an index is an integer: PyTorch selects with it."""
    if isinstance(part, Tensor) and part._data.ndim == 0 and part._data.dtype.kind in "iu":
        return int(part._data)
    return part


def _is_basic(part) -> bool:
    return (
        part is None
        or part is Ellipsis
        or type(part) is int
        or type(part) is slice
        or (isinstance(part, np.integer))
    )


def _whole(p: slice, size: int) -> bool:
    """PyTorch skips a slice written as the whole dim (``:``, ``0:``, ``0:n``, ``::1``); one
    that only comes out whole (``-n:``) is still recorded."""
    return p.start in (None, 0) and (p.stop is None or p.stop >= size) and p.step in (None, 1)


def getitem(t: Tensor, index) -> Tensor:
    """``t[index]``, split into PyTorch's steps: Select / Slice / Unsqueeze views for the basic
    parts (ints, slices, None, ...), then one IndexBackward0 copy for tensors, lists and masks."""
    if type(index) is int:  # the common case: x[i]
        return _select(t, 0, 0, index)
    if type(index) is Tensor:  # the next most common: rows by an integer tensor, C[X]
        rows, data = index._data, t._data
        if rows.dtype in _ROW_DTYPES and rows.ndim and data.ndim and data.size:
            if t._requires_grad and _grad_state.enabled:
                return Index.apply(t, rows)
            return new_tensor(take_rows(data, rows))  # no graph (X[ix]): the copy, nothing else
    if type(index) is slice:  # a lone slice is always recorded, even x[:]
        if t._data.ndim == 0:
            raise IndexError("slice() cannot be applied to a 0-dim tensor.")
        _check_step(index)
        return Slice.apply(t, 0, index)
    result, rest = apply_slicing(t, index)
    if rest is not None:
        return Index.apply(result, index_key(rest, result._data.shape))
    if result is t:  # x[...] or x[:, :]: still a new view, as in PyTorch
        result = Alias.apply(t)
    return result


def apply_slicing(t: Tensor, index) -> tuple[Tensor, list | None]:
    """PyTorch's ``applySlicing``, shared by ``t[index]`` and ``t[index] = v``: the basic parts
    of ``index`` as views of ``t`` (a slice over a whole dim is skipped: the view may be ``t``
    itself), and what is left for advanced indexing, one entry per remaining dim (None when
    nothing is). A 0-d bool (``x[True]``, ``x[x > 0]`` of a 0-d ``x``) is an Unsqueeze, then
    the index ``[0]`` (``[]`` for False) into the new dim."""
    parts = index if isinstance(index, tuple) else (index,)
    if any(isinstance(p, Tensor) and p._data.ndim == 0 for p in parts):
        parts = tuple(_as_int(p) for p in parts)  # x[tensor(1)] is x[1], a view (PyTorch)
    advanced = not all(_is_basic(p) for p in parts)
    parts = as_numpy_index(parts) if advanced else parts
    n_real = sum(1 for p in parts if p is not None and p is not Ellipsis)
    for p in parts:
        if isinstance(p, np.ndarray) and p.dtype == np.bool_:
            n_real += p.ndim - 1
    if n_real > t.ndim:
        raise IndexError(f"too many indices for tensor of dimension {t.ndim}")
    result, dim = t, 0
    rest: list = []  # what advanced indexing still has to do, one entry per remaining dim
    for position, p in enumerate(parts):
        if p is Ellipsis:
            skip = t.ndim - n_real
            rest += [slice(None)] * skip
            dim += skip
        elif p is None:
            result = Unsqueeze.apply(result, dim)
            rest.append(slice(None))
            dim += 1
        elif type(p) is slice:
            _check_step(p)
            if not _whole(p, result._data.shape[dim]):
                result = Slice.apply(result, dim, p)
            rest.append(slice(None))
            dim += 1
        elif isinstance(p, (int, np.integer)) and not isinstance(p, (bool, np.bool_)):
            # PyTorch's message names the index's position in the tuple, not the dim
            result = _select(result, dim, position, int(p))
        elif isinstance(p, np.ndarray) and p.dtype == np.bool_ and p.ndim == 0:
            result = Unsqueeze.apply(result, dim)
            rest.append(np.zeros(1 if p else 0, dtype=np.int64))
            dim += 1
        else:  # a tensor, list or mask: left for Index
            width = p.ndim if isinstance(p, np.ndarray) and p.dtype == np.bool_ else 1
            rest.append(p)
            dim += width
    return result, (rest if advanced else None)


_ZERO_DIM = (
    "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` in "
    "C++ to convert a 0-dim tensor to a number"
)


def _check_step(p: slice) -> None:
    if p.step is not None and p.step <= 0:
        raise ValueError(
            "slice step cannot be zero" if p.step == 0 else "step must be greater than zero"
        )


def _select(t: Tensor, dim: int, real_dim: int, i: int) -> Tensor:
    """``Select`` with PyTorch's errors; ``real_dim``, the dim they name, is the index's position
    in the index tuple (``x[..., 9]`` names dimension 1 whatever the rank)."""
    data = t._data
    if data.ndim == 0:  # PyTorch's two messages: x[0], then any other index
        if i == 0:
            raise IndexError(_ZERO_DIM)
        raise IndexError(f"index {i} is out of bounds for dimension 0 with size 0")
    size = data.shape[dim]
    if not -size <= i < size:
        raise IndexError(f"index {i} is out of bounds for dimension {real_dim} with size {size}")
    return Select.apply(t, dim, i)


def index_key(rest: list, shape: tuple) -> tuple:
    """The numpy key for the advanced part, with PyTorch's messages for bad indices."""
    arrays, d = [], 0
    for j, p in enumerate(rest):
        if isinstance(p, np.ndarray) and p.dtype == np.bool_:
            if p.ndim:  # x[True] (0-d) adds a dimension of size 1
                if p.shape != shape[d : d + p.ndim]:
                    raise IndexError(
                        f"The shape of the mask {list(p.shape)} at index {d} does not match the "
                        f"shape of the indexed tensor {list(shape)} at index {d}"
                    )
                arrays.extend(np.nonzero(p))
            d += p.ndim
            continue
        if isinstance(p, np.ndarray):
            size = shape[d]
            bad = p[(p < -size) | (p >= size)]
            if bad.size and not size:
                raise IndexError("index is out of bounds for dimension with size 0")
            if bad.size and 0 in shape:  # nothing is read: PyTorch checks no bounds then
                p = rest[j] = np.zeros_like(p)
                bad = p[:0]
            if bad.size:
                raise IndexError(
                    f"index {int(bad.flat[0])} is out of bounds for dimension {d} with size {size}"
                )
            arrays.append(p)
        d += 1
    shapes = [a.shape for a in arrays]
    try:
        np.broadcast_shapes(*shapes)
    except ValueError:
        raise IndexError(
            "shape mismatch: indexing tensors could not be broadcast together with shapes "
            + ", ".join(str(list(s)) for s in shapes)
        ) from None
    return tuple(rest)


class IndexPut(ArrayFunction):
    """``x[index] = value`` with tensors, lists or masks in the index: PyTorch's ``index_put_``.

    The old values under the index were overwritten, so they get no gradient; ``value`` gets
    the gradient read at the index (summed back to its shape by the base when it was broadcast).
    """

    node_name = "IndexPutBackward0"
    broadcasts = True
    n_params = 1

    @staticmethod
    def forward(ctx, a, values, key):
        ctx.key = key
        out = a.copy()
        out[key] = values
        return out

    @staticmethod
    def backward(ctx, grad):  # grad.index_put(key, 0) out of place (IndexPutBackward0), as PyTorch
        zero = np.zeros((), dtype=namespace(grad).dtype(grad))
        return IndexPut.call(grad, zero, ctx.key), grad[ctx.key]


def drop_leading_ones(value, ndim: int):
    """``x[0] = v`` accepts a ``v`` with extra leading dimensions of size 1, as PyTorch does."""
    shape = np.shape(value)
    if len(shape) > ndim and all(n == 1 for n in shape[: len(shape) - ndim]):
        return np.reshape(value, shape[len(shape) - ndim :])
    return value


class Cat(ArrayFunction):
    node_name = "CatBackward0"
    n_params = 1

    @staticmethod
    def forward(ctx, *args):
        *arrays, dim = args
        for k, a in enumerate(arrays):
            if a.ndim == 0:
                raise RuntimeError(
                    f"zero-dimensional tensor (at position {k}) cannot be concatenated"
                )
        ref = next((a for a in arrays if a.ndim), arrays[0])
        axis = wrap_dim(dim, ref.ndim)
        for k, a in enumerate(arrays):
            if a.ndim != ref.ndim and a.shape != (0,):  # 1-D empty tensors are skipped
                raise RuntimeError(
                    f"Tensors must have same number of dimensions: got {ref.ndim} and {a.ndim}"
                )
            for d in range(ref.ndim):
                if d != axis and a.ndim == ref.ndim and a.shape[d] != ref.shape[d]:
                    raise RuntimeError(
                        f"Sizes of tensors must match except in dimension {axis}. Expected "
                        f"size {ref.shape[d]} but got size {a.shape[d]} for tensor number {k} "
                        "in the list."
                    )
        ctx.axis, ctx.bounds = axis, [0, *np.cumsum([a.shape[axis] for a in arrays]).tolist()]
        return np.concatenate(arrays, axis=axis)

    @staticmethod
    def backward(ctx, grad):  # one slice per input (SliceBackward0 under create_graph)
        key, bounds = (slice(None),) * ctx.axis, ctx.bounds
        return tuple([grad[key + (slice(lo, hi),)] for lo, hi in zip(bounds, bounds[1:])])


class Stack(ArrayFunction):
    node_name = "StackBackward0"
    n_params = 1

    @staticmethod
    def forward(ctx, *args):
        *arrays, dim = args
        for k, a in enumerate(arrays):
            if a.shape != arrays[0].shape:
                raise RuntimeError(
                    f"stack expects each tensor to be equal size, but got {list(arrays[0].shape)} "
                    f"at entry 0 and {list(a.shape)} at entry {k}"
                )
        ctx.axis, ctx.n = wrap_dim(dim, arrays[0].ndim + 1), len(arrays)
        return np.stack(arrays, axis=ctx.axis)

    @staticmethod
    def backward(ctx, grad):  # one selection per input (SelectBackward0 under create_graph)
        key = (slice(None),) * ctx.axis
        return tuple([grad[key + (i,)] for i in range(ctx.n)])


class Where(ArrayFunction):
    """``where(condition, a, b)``: the condition is a setting, not an input."""

    node_name = "WhereBackward0"
    broadcasts = True
    promotes = True
    n_params = 1

    @staticmethod
    def forward(ctx, a, b, condition):
        ctx.condition = condition
        ctx.save_for_backward(condition)  # PyTorch saves it: a second backward raises
        try:
            return np.where(condition, a, b)
        except ValueError:
            broadcast_shapes(np.shape(condition), np.shape(a), np.shape(b))  # PyTorch's error
            raise

    @staticmethod
    def backward(ctx, grad):
        xp = namespace(grad)
        zero = np.zeros((), dtype=xp.dtype(grad))
        grad_other = xp.where(ctx.condition, zero, grad)  # other's first, as PyTorch's
        return xp.where(ctx.condition, grad, zero), grad_other
