"""The order in which PyTorch's ``TensorIterator`` walks a tensor's elements.

A kernel that adds up elements rounds according to the order it meets them in, and PyTorch
does not walk a tensor in the order of its indices: it first sorts the dims (an insertion
sort from the last dim: the reduced dims innermost, then by the output's strides, then by
the input's, the smaller stride inside), then merges neighbouring dims that are one run of
memory for every operand. ``walk`` returns those dims; the sum kernel
(``_summation.py``) and the variance kernels read their order from it.
"""

from __future__ import annotations

import numpy as np

from ._dim_order import reorder

__all__ = ["memory_runs", "reduced_order", "walk"]


def walk(shape: tuple, strides: tuple, reduced: tuple) -> list[list]:
    """TensorIterator's dims for a reduction, innermost first, each ``[size, input stride,
    output stride, axes]``: strides in elements, the output's 0 where ``reduced`` (the
    output is a new C-ordered array), ``axes`` the input's axes merged into the dim,
    innermost first. Dims of size 1 are left out (they merge with anything)."""
    out_strides, step = [0] * len(shape), 1
    for d in reversed(range(len(shape))):
        if not reduced[d]:
            out_strides[d] = step
            step *= shape[d]
    dims = [[shape[d], strides[d], out_strides[d], [d]] for d in range(len(shape))]
    dims = [d for d in dims if d[0] != 1]
    dims.reverse()
    reorder(dims, _should_swap)  # PyTorch's insertion sort, ties left where they are
    merged: list[list] = []
    for d in dims:
        last = merged[-1] if merged else None
        if last and last[0] * last[1] == d[1] and last[0] * last[2] == d[2]:
            last[0] *= d[0]
            last[3] = last[3] + d[3]
        else:
            merged.append(list(d))
    return merged


def _should_swap(a: list, b: list) -> int:
    """1 when dim ``b`` goes inside dim ``a``, -1 when not, 0 when undecided (a stride of 0
    decides nothing; equal strides put the smaller dim inside)."""
    if (a[2] == 0) != (b[2] == 0):  # reduced dims innermost
        return 1 if b[2] == 0 else -1
    for k in (2, 1):  # the output's strides, then the input's
        if a[k] == 0 or b[k] == 0:
            continue
        if a[k] != b[k]:
            return -1 if a[k] < b[k] else 1
        if a[0] > b[0]:
            return 1
    return 0


def element_strides(a: np.ndarray) -> tuple:
    return tuple(s // a.itemsize for s in a.strides)


def memory_runs(a: np.ndarray) -> np.ndarray:
    """``a``'s elements as TensorIterator walks one input: a 2-d array with one row per
    call of the kernel's inner 2-d loop, each row in the loop's order."""
    if any(s < 0 for s in a.strides):  # PyTorch has no negative strides (flip copies)
        a = np.ascontiguousarray(a)
    dims = walk(a.shape, element_strides(a), (True,) * a.ndim)[::-1]
    perm = [d for d in range(a.ndim) if a.shape[d] == 1]
    for d in dims:
        perm += d[3][::-1]
    run = dims[-1][0] * (dims[-2][0] if len(dims) > 1 else 1) if dims else 1
    return a.transpose(perm).reshape(-1, run)


def reduced_order(a: np.ndarray, axes: tuple) -> list:
    """The reduced ``axes`` in the order TensorIterator walks them for each output, the
    outermost first, for kernels that reduce one element at a time (var and std by dim)."""
    dims = walk(a.shape, element_strides(a), tuple(d in axes for d in range(a.ndim)))
    inner = [x for d in dims if not d[2] for x in d[3]]
    return [d for d in axes if a.shape[d] == 1] + inner[::-1]
