"""Indexing and joining: x[i], x[a:b], x[mask], x[i] = v, cat, stack, where.

Basic indexing is split into PyTorch's steps (``x[0, 1:]`` is a Select then a
Slice) so the graph shows the same nodes; every step is a view. Advanced
indexing (tensors, lists, masks) makes a copy, recorded as ``IndexBackward0``.
"""

from __future__ import annotations

import numpy as np

from ..autograd.function import ArrayFunction
from ..tensor import Tensor, wrap_dim
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
            raise IndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                             "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number")
        ctx.shape, ctx.key = a.shape, (slice(None),) * dim + (_check_index(i, dim, a.shape[dim]),)
        return a[ctx.key + (Ellipsis,)]  # the Ellipsis keeps a 0-d result a view, not a copy

    @staticmethod
    def backward(ctx, grad):
        full = np.zeros(ctx.shape, dtype=grad.dtype)
        full[ctx.key] = grad
        return full


class Unbind(Select):
    """One of the tensors that iterating over a tensor gives (``list(x)``, ``x.unbind()``).

    PyTorch makes one UnbindBackward0 node with an output per element; minigrad's nodes
    have one output, so each element gets its own node of that name.
    """

    node_name = "UnbindBackward0"


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
        full = np.zeros(ctx.shape, dtype=grad.dtype)
        full[ctx.key] = grad
        return full


class Index(ArrayFunction):
    """Advanced indexing: a copy; repeated indices add up their gradients."""

    node_name = "IndexBackward0"
    n_params = 1

    @staticmethod
    def forward(ctx, a, key):
        ctx.shape, ctx.key = a.shape, key
        try:
            return a[key]
        except IndexError as e:
            raise IndexError(str(e).replace("axis", "dimension")) from None

    @staticmethod
    def backward(ctx, grad):
        full = np.zeros(ctx.shape, dtype=grad.dtype)
        np.add.at(full, ctx.key, grad)
        return full


def as_numpy_index(index):
    """Turn tensors (and nested lists) inside an index into numpy arrays."""
    if isinstance(index, tuple):
        return tuple(as_numpy_index(i) for i in index)
    if isinstance(index, Tensor):
        return index._data
    if isinstance(index, list):
        return np.asarray(index)
    return index


def _is_basic(part) -> bool:
    return part is None or part is Ellipsis or isinstance(part, (int, slice)) and not isinstance(
        part, bool)


def getitem(t: Tensor, index) -> Tensor:
    """``t[index]``, split into PyTorch's Select / Slice / Unsqueeze steps when basic."""
    parts = index if isinstance(index, tuple) else (index,)
    if not all(_is_basic(p) for p in parts):
        return Index.apply(t, as_numpy_index(index))
    n_real = sum(1 for p in parts if p is not None and p is not Ellipsis)
    if n_real > t.ndim:
        raise IndexError(f"too many indices for tensor of dimension {t.ndim}")
    result, dim = t, 0
    for p in parts:
        if p is Ellipsis:
            dim += t.ndim - n_real
        elif p is None:
            result = Unsqueeze.apply(result, dim)
            dim += 1
        elif isinstance(p, slice):
            if p != slice(None):
                result = Slice.apply(result, dim, p)
            dim += 1
        else:
            result = Select.apply(result, dim, p)
    if result is t:  # x[:] or x[...]: still a new view, as in PyTorch
        result = Slice.apply(t, 0, slice(None))
    return result


class CopySlices(ArrayFunction):
    """``x[index] = value`` on a tensor in the graph: PyTorch's CopySlices node."""

    node_name = "CopySlices"
    broadcasts = True
    n_params = 1

    @staticmethod
    def forward(ctx, a, value, key):
        ctx.key = key
        out = a.copy()
        out[key] = value
        return out

    @staticmethod
    def backward(ctx, grad):
        grad_a = grad.copy()
        grad_a[ctx.key] = 0
        return grad_a, grad[ctx.key]


class Cat(ArrayFunction):
    node_name = "CatBackward0"
    n_params = 1

    @staticmethod
    def forward(ctx, *args):
        *arrays, dim = args
        ref = next((a for a in arrays if a.ndim), arrays[0])
        axis = wrap_dim(dim, ref.ndim)
        for k, a in enumerate(arrays):
            if a.ndim == 0:
                raise RuntimeError(
                    f"zero-dimensional tensor (at position {k}) cannot be concatenated")
            for d in range(ref.ndim):
                if d != axis and a.ndim == ref.ndim and a.shape[d] != ref.shape[d]:
                    raise RuntimeError(
                        f"Sizes of tensors must match except in dimension {axis}. Expected size "
                        f"{ref.shape[d]} but got size {a.shape[d]} for tensor number {k} in the list."
                    )
        ctx.axis, ctx.splits = axis, np.cumsum([a.shape[axis] for a in arrays])[:-1]
        return np.concatenate(arrays, axis=axis)

    @staticmethod
    def backward(ctx, grad):
        return tuple(np.split(grad, ctx.splits, axis=ctx.axis))


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
        ctx.axis = wrap_dim(dim, arrays[0].ndim + 1)
        return np.stack(arrays, axis=ctx.axis)

    @staticmethod
    def backward(ctx, grad):
        return tuple(np.moveaxis(grad, ctx.axis, 0))


class Where(ArrayFunction):
    """``where(condition, a, b)``: the condition is a setting, not an input."""

    node_name = "WhereBackward0"
    broadcasts = True
    n_params = 1

    @staticmethod
    def forward(ctx, a, b, condition):
        ctx.condition = condition
        return np.where(condition, a, b)

    @staticmethod
    def backward(ctx, grad):
        zero = np.zeros((), dtype=grad.dtype)
        return np.where(ctx.condition, grad, zero), np.where(ctx.condition, zero, grad)
