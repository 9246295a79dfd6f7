"""Indexing ops: the nodes of x[i], x[a:b], x[mask] and x[i] = v.

Basic indexing is split into PyTorch's steps (``x[0, 1:]`` is a Select then a
Slice) so the graph shows the same nodes; every step is a view. Advanced
indexing (tensors, lists, masks) makes a copy, recorded as ``IndexBackward0``.
How an index is read and turned into these steps is in ``getitem.py``; cat,
stack and where are in ``joining.py``.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from ..autograd import anomaly_mode
from ..autograd.function import ArrayFunction
from ..autograd.multi_function import MultiArrayFunction, zeros_for
from ..autograd.saved_values import _UNWATCHED
from ..tensor import Tensor, new_tensor
from ._common import positions
from ._short_path import edge, node
from .joining import Stack
from .namespace import namespace

_anomaly = anomaly_mode.state


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
    ``take`` does without parsing a general index; that case records its node
    directly (``apply_rows``).
    """

    node_name = "IndexBackward0"
    n_params = 1
    exact_grads = True  # the engine runs backward directly (function.py)

    @classmethod
    def apply_rows(cls, t: Tensor, rows: np.ndarray) -> Tensor:
        """``Index.apply(t, rows)`` for a tensor ``t`` that records a graph and an integer
        array ``rows``: the general path's node (``_short_path``), the indices saved as
        PyTorch saves them and watched by no version counter, as there."""
        if _anomaly.enabled:  # its stack of the node names the general path's frames
            return cls.apply(t, rows)
        data = t._data
        out = take_rows(data, rows)
        ctx = node(cls, (edge(t),))
        ctx.shape, ctx.key, ctx._saved, ctx._saved_checks = data.shape, rows, (rows,), _UNWATCHED
        return new_tensor(out, ctx, True)

    @staticmethod
    def forward(ctx, a, key):
        ctx.shape, ctx.key = a.shape, key
        ctx.save_for_backward(key)  # PyTorch saves the indices: a second backward raises
        return take_rows(a, key) if type(key) is np.ndarray else _numpy_index(a, key)

    @staticmethod
    def backward(ctx, grad):
        (key,) = ctx.saved_tensors  # on a freed graph: PyTorch's error (the indices are gone)
        if type(grad) is np.ndarray and type(key) is np.ndarray:  # C[X], no create_graph
            return (_add_rows(np.zeros(ctx.shape, grad.dtype), grad, key),)
        zeros = np.zeros(ctx.shape, dtype=namespace(grad).dtype(grad))
        return (IndexPutBackward.call(zeros, grad, ctx.key),)


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
        if isinstance(grad, Tensor):  # create_graph: PyTorch's as_strided_backward
            from ..autograd.views import as_strided_backward  # views uses this op

            return as_strided_backward(grad, ctx.shape, ctx.key)
        zeros = np.zeros(math.prod(ctx.shape), dtype=grad.dtype)
        return IndexPutBackward.call(zeros, grad, ctx.key).reshape(ctx.shape)


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
    a flat view of it. For a small table (an embedding of a few thousand numbers) the
    flat indices are the rows picked from the table of all flat indices (one ``take``,
    as forward picked the rows), else computed by broadcasting (three numpy calls).
    """
    size = zeros.size
    if 0 < size <= _SMALL_TABLE:
        flat = _flat_table(zeros.shape).take(rows.reshape(-1), 0).reshape(-1)
    else:
        width = math.prod(zeros.shape[1:])
        flat = (rows.reshape(-1, 1) * width + positions(width)).reshape(-1)
    np.add.at(zeros.reshape(-1), flat, grad.reshape(-1))
    return zeros


_SMALL_TABLE = 4096  # ``positions`` keeps an arange up to this size


@functools.lru_cache(maxsize=16)
def _flat_table(shape: tuple) -> np.ndarray:
    """The flat index of every element of a C-ordered array of ``shape`` (an embedding table
    keeps its shape from step to step), read-only."""
    return positions(math.prod(shape)).reshape(shape)


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
        ctx.save_for_backward(key)  # PyTorch saves the indices: a second backward is refused
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
