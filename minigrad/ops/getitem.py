"""``x[key]``: reading a Python index and turning it into PyTorch's steps.

``getitem`` splits a key into basic steps, views (``Select`` and ``Slice`` of
``indexing.py``, ``Unsqueeze`` of ``shape.py``), and for tensors, lists and masks one
``Index`` copy; ``x[key] = v`` (``setitem.py``) reads its key with the same
``apply_slicing`` and ``index_key``.
"""

from __future__ import annotations

import numpy as np

from ..autograd import grad_mode
from ..tensor import Tensor, new_tensor
from .indexing import Alias, Index, Select, Slice, take_rows
from .shape import Unsqueeze

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
            base = t._base  # tensor.follows_base, inlined: a view may require grad through it
            if (t._requires_grad or base is not None and base._requires_grad) and (
                _grad_state.enabled
            ):
                return Index.apply_rows(t, rows)
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
                if p.shape != shape[d : d + p.ndim]:  # named by the first dim that differs
                    k = next(k for k, n in enumerate(p.shape) if n != shape[d + k])
                    raise IndexError(
                        f"The shape of the mask {list(p.shape)} at index {k} does not match the "
                        f"shape of the indexed tensor {list(shape)} at index {d + k}"
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
