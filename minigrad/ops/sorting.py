"""sort and topk: values in order along a dim, and where each came from (the indices).

Only the values carry a gradient: each element's gradient goes back to the place it was taken
from, PyTorch's ``zeros.scatter(dim, indices, grad)`` (the same formula as ``max(dim)``). The
indices are a plain int64 tensor. Which of several equal values comes first is decided as
PyTorch's CPU kernels decide it (``_cpp_sort.py``): a stable sort keeps them in their order,
the default one does not, always.
"""

from __future__ import annotations

import numpy as np

from ..autograd.function import ArrayFunction
from ..tensor import wrap_dim
from . import _cpp_sort as cpp
from ._cpp_sort_rows import nth_element_rows, std_sort_rows
from .gather_scatter import Scatter
from .logsumexp import as_unsigned
from .namespace import namespace


def _ranks(rows: np.ndarray) -> np.ndarray:
    """Each value's rank among all of them (equal values, ``0.`` and ``-0.``, share one; a nan
    ranks above every number, as in PyTorch's comparators)."""
    nan = rows != rows
    _, inverse = np.unique(np.where(nan, 0, rows), return_inverse=True)
    ranks = inverse.reshape(rows.shape).astype(np.int64)
    if nan.any():
        ranks[nan] = ranks.max() + 1
    return ranks


def _has_ties(ranks: np.ndarray) -> np.ndarray:
    """Per row: do two values compare equal?"""
    ordered = np.sort(ranks, axis=1)
    return (ordered[:, 1:] == ordered[:, :-1]).any(axis=1)


def _pairs(row: np.ndarray) -> list:
    return [(int(r), i) for i, r in enumerate(row)]


def _comparator(descending: bool):
    return (lambda x, y: x[0] > y[0]) if descending else (lambda x, y: x[0] < y[0])


def sort_order(a: np.ndarray, axis: int, descending: bool, stable: bool) -> np.ndarray:
    """The indices that sort ``a`` along ``axis``, ties in PyTorch's order."""
    n = a.shape[axis]
    moved = np.moveaxis(a, axis, -1)
    if n < 2 or a.size == 0:
        return np.zeros(moved.shape, np.int64) + np.arange(n)
    if a.strides[axis] == 0:  # PyTorch leaves an expanded dim as it is: every value is equal
        return np.broadcast_to(np.arange(n), moved.shape).copy()
    ranks = _ranks(moved.reshape(-1, n))
    key = -ranks if descending else ranks
    order = np.argsort(key, axis=1, kind="stable")  # std::stable_sort, and any row without ties
    if not stable and n > cpp._THRESHOLD:  # std::sort is an insertion sort up to 16 elements
        ties = np.flatnonzero(_has_ties(ranks))
        if len(ties):
            order[ties] = std_sort_rows(key[ties])
    return order.reshape(moved.shape)


_ROWS_AT_ONCE = 50_000  # elements from which numpy's introselect beats the step-by-step one
# (measured: 1,000 elements 0.36 ms step by step, 0.76 ms at once; 100,000 elements 52 -> 19)


def topk_order(a: np.ndarray, k: int, axis: int, largest: bool, ordered: bool) -> np.ndarray:
    """The indices of the ``k`` largest (smallest) along ``axis``, as PyTorch's kernel leaves
    them: ``std::partial_sort`` if ``64 * k <= n``, else ``std::nth_element`` and a sort of
    the first ``k - 1`` (with ``sorted=False``, the order ``nth_element`` leaves)."""
    n = a.shape[axis]
    moved = np.moveaxis(a, axis, -1)
    out_shape = moved.shape[:-1] + (k,)
    if k == 0 or a.size == 0:
        return np.zeros(out_shape, np.int64)
    ranks = _ranks(moved.reshape(-1, n))
    key = -ranks if largest else ranks
    order = np.argsort(key, axis=1, kind="stable")[:, :k]
    partial = k * 64 <= n
    rows = np.arange(len(ranks)) if not (ordered or partial) else np.flatnonzero(_has_ties(ranks))
    if partial or len(rows) * n < _ROWS_AT_ONCE:  # step by step
        less = _comparator(largest)
        for r in rows:
            pairs = _pairs(ranks[r])
            if partial:
                cpp.partial_sort(pairs, 0, k, n, less)
            else:
                cpp.nth_element(pairs, 0, k - 1, n, less)
                if ordered:
                    cpp.std_sort(pairs, 0, k - 1, less)
            order[r] = [i for _, i in pairs[:k]]
    else:  # nth_element, then std::sort of the first k - 1: with numpy, all rows at once
        cols = nth_element_rows(key[rows], k - 1)
        if ordered and k > 2:
            head = cols[:, : k - 1]
            sorted_head = std_sort_rows(np.take_along_axis(key[rows], head, axis=1))
            cols[:, : k - 1] = np.take_along_axis(head, sorted_head, axis=1)
        order[rows] = cols[:, :k]
    return order.reshape(out_shape)


def in_layout_of(a: np.ndarray, values: np.ndarray) -> np.ndarray:
    """``values`` laid out in memory as ``a`` (PyTorch's ``empty_like``: an expanded ``a``,
    whose elements repeat, gives a C-ordered result)."""
    if any(s == 0 and n > 1 for n, s in zip(a.shape, a.strides)):
        return np.ascontiguousarray(values)
    out = np.empty_like(a, dtype=values.dtype)  # numpy's order="K": a's order of strides
    out[...] = values
    return out


def sort_indices(a: np.ndarray, dim: int, descending: bool, stable: bool) -> np.ndarray:
    """``sort``'s indices: where each value of the result comes from along ``dim`` (laid out
    as ``a``, as PyTorch's sort lays out its results)."""
    axis = wrap_dim(dim, a.ndim)
    if a.ndim == 0:
        return np.zeros((), np.int64)
    return in_layout_of(a, np.moveaxis(sort_order(a, axis, descending, stable), -1, axis))


def topk_indices(a: np.ndarray, k: int, dim: int, largest: bool, ordered: bool) -> np.ndarray:
    """``topk``'s indices, with PyTorch's checks in its order."""
    axis = wrap_dim(dim, a.ndim)
    if k < 0 or k > (a.shape[axis] if a.ndim else 1):
        raise RuntimeError("selected index k out of range")
    if a.dtype == np.bool_:
        raise RuntimeError("topk does not support bool dtypes on CPU")
    if a.ndim == 0:
        return np.zeros((), np.int64)
    return np.ascontiguousarray(np.moveaxis(topk_order(a, k, axis, largest, ordered), -1, axis))


class Sort(ArrayFunction):
    """The values of ``sort(dim)`` at the indices ``sort_indices`` found (the other output).

    PyTorch keeps the indices (``_saved_indices``), the dim and the input's sizes.
    """

    node_name = "SortBackward0"
    saved_names = ("indices",)
    saved_settings = {"dim": "dim", "self_sym_sizes": "shape"}
    n_params = 2

    @staticmethod
    def forward(ctx, a, dim, index):
        ctx.axis = wrap_dim(dim, a.ndim)
        ctx.dim, ctx.indices, ctx.shape = as_unsigned(dim), index, a.shape
        ctx.save_for_backward(index)
        if not a.ndim:
            return a.copy()
        return in_layout_of(index, np.take_along_axis(a, index, ctx.axis))  # index's layout

    @staticmethod
    def backward(ctx, grad):
        """PyTorch's ``value_selecting_reduction_backward``: zeros.scatter(dim, indices, grad)."""
        xp = namespace(grad)
        return Scatter.call(xp.zeros(ctx.shape, xp.dtype(grad)), grad, ctx.axis, ctx.indices)


class SortStable(Sort):
    """``sort(stable=...)``: PyTorch's other overload, another node name."""

    node_name = "SortBackward1"


class Topk(Sort):
    """The values of ``topk(k, dim)``: the same selection, PyTorch's name for it."""

    node_name = "TopkBackward0"
