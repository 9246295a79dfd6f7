"""The memory layout PyTorch gives the result of a binary op, where numpy chooses another.

A result's layout shows to a learner through ``reshape``/``flatten`` (a view,
``ViewBackward0``, or a copy, ``UnsafeViewBackward0``), ``contiguous()`` (itself, or a
``CloneBackward0``) and ``is_contiguous()``. Both libraries lay the result out like their
operands; they differ when the operands disagree: numpy then takes C order, PyTorch's
``TensorIterator`` follows the first operand that has an opinion (``reorder_dimensions``: an
insertion sort of the dims, innermost first, where each pair of dims is decided by the first
operand whose strides for both are non-zero; equal strides put the smaller dim inside).
``a.t() * b`` is laid out as ``a.t()`` in PyTorch, in C order in numpy.
"""

from __future__ import annotations

import numpy as np

from ._dim_order import reorder

__all__ = ["cat_layout", "iterator_layout", "elementwise_layout"]


def elementwise_layout(out: np.ndarray, a: np.ndarray) -> np.ndarray:
    """``out``, an elementwise result of ``a``, in TensorIterator's layout: numpy lays out the
    result of an expanded ``a`` (a stride of 0) in an order of its own, the float64 round
    trip of a correctly rounded float32 kernel keeps that order, and a kernel built of masks
    and ``np.where`` gives C order whatever ``a``'s."""
    if out.ndim < 2 or out.shape != a.shape:
        return out
    return iterator_layout(out, (a,))


def iterator_layout(out: np.ndarray, operands: tuple) -> np.ndarray:
    """``out`` in the layout TensorIterator allocates for ``operands`` (arrays, in order):
    ``out`` itself when it already has it, else a copy. Numbers among them have no say."""
    operands = [a for a in operands if type(a) is np.ndarray and a.ndim]
    if out.ndim < 2 or all(a.flags.c_contiguous for a in operands):
        return out  # C-ordered operands give a C-ordered result in both libraries
    shape = out.shape
    ndim = len(shape)
    strides = []
    for a in operands:
        lead = ndim - a.ndim
        own = [
            0 if n == 1 and shape[lead + i] != 1 else s
            for i, (n, s) in enumerate(zip(a.shape, a.strides))
        ]
        strides.append([0] * lead + own)

    def should_swap(d0: int, d1: int) -> int:
        for st in strides:
            s0, s1 = st[d0], st[d1]
            if s0 == 0 or s1 == 0:  # broadcast along one of them: no opinion
                continue
            if s0 != s1:
                return -1 if s0 < s1 else 1
            if shape[d0] > shape[d1]:
                return 1
        return 0

    perm = reorder(list(range(ndim - 1, -1, -1)), should_swap)  # innermost first
    inner = [d for d in perm if shape[d] != 1]  # a dim of size 1 fits any layout
    if all(out.strides[a] <= out.strides[b] for a, b in zip(inner, inner[1:])):
        return out
    outer_first = perm[::-1]
    result = np.empty([shape[d] for d in outer_first], out.dtype).transpose(np.argsort(outer_first))
    result[...] = out
    return result


def cat_layout(out: np.ndarray, inputs: list) -> np.ndarray:
    """``cat``'s result as PyTorch allocates it: C order, or channels-last when every input is
    a 4-d tensor laid out channels-last (``suggest_memory_format``); numpy's concatenate
    follows its inputs' strides (an expanded input gives a strided result)."""
    if out.ndim == 4 and all(a.ndim == 4 and _channels_last(a) for a in inputs):
        if _channels_last(out):
            return out
        result = np.empty([out.shape[d] for d in (0, 2, 3, 1)], out.dtype).transpose(0, 3, 1, 2)
        result[...] = out
        return result
    return out if out.flags.c_contiguous else np.ascontiguousarray(out)


def _channels_last(a: np.ndarray) -> bool:
    """c10's ``is_channels_last_strides_2d``: strides growing over C, W, H, N (ambiguous
    cases are NCHW)."""
    strides = [s // a.itemsize for s in a.strides]
    if strides[1] == 0:
        return False
    low = 0
    for d in (1, 3, 2, 0):
        if a.shape[d] == 0 or strides[d] < low:
            return False
        if d == 0 and low == strides[1]:
            return False
        low = strides[d] * (a.shape[d] if a.shape[d] > 1 else 1)
    return True
