"""Which elements PyTorch's CPU elementwise loops give to the vector function, which to the scalar.

An elementwise kernel (``cpu_kernel_vec``) has two versions of its arithmetic: one on
vectors of 16 floats (SLEEF's exp, a polynomial erf) and one on a single float (the C
library's ``expf``, ``erff``). Which one an element meets depends on the tensor's layout,
not its value, and the two round differently, so a learner sees other last digits for the
same number in another tensor. TensorIterator orders the dimensions by stride (the
smallest innermost), merges those that follow one another in memory, and runs the inner
row: if every operand is contiguous in it (or one is a broadcast scalar), blocks of two
vectors (32 floats, 16 doubles) go to the vector function and the row's last ``n % 32``
elements to the scalar one; otherwise the whole row is scalar. A tensor of fewer than a
block's elements is all scalar.

Callers emulate this for float32 (and, for sinh, cosh, exp2 and sigmoid, float64) tensors of
up to their own limit (``EXACT_UP_TO`` here, 16,384 elements, for the activations).
``vector_elements(shape, *operands)`` gives the mask, for an output of ``shape`` computed
from numpy arrays broadcast to it; ``split`` runs a kernel's two functions on their
elements. One thread is assumed: PyTorch splits a tensor of more than 32,768 elements
between threads, each with its own tail.
"""

from __future__ import annotations

import numpy as np

from ._cpu_vectors import BLOCK  # two AVX-512 vectors, the unrolled step of the loop
from ._dim_order import reorder

#: float32 tensors of up to this many elements (128 x 128) get the kernels' exact rounding;
#: the emulation costs 10 to 70 times numpy's own formulas (about 0.1-0.4 us an element), so
#: a larger tensor keeps numpy's correctly rounded functions, within an ulp of PyTorch's
EXACT_UP_TO = 16384


def _strides(a: np.ndarray, shape: tuple[int, ...]) -> list[int]:
    """``a``'s strides, in elements, once broadcast to ``shape`` (0 where it repeats)."""
    view = np.broadcast_to(a, shape)
    return [s // a.itemsize if n > 1 else 0 for s, n in zip(view.strides, shape, strict=True)]


def _order(shape, strides: list[list[int]]) -> list[int]:
    """TensorIterator's dimension order, innermost first: an insertion sort by stride in
    which a dimension where an operand repeats (stride 0) decides nothing for that operand."""

    def should_swap(d0: int, d1: int) -> int:
        for s in strides:
            if s[d0] == 0 or s[d1] == 0:
                continue
            if s[d0] != s[d1]:
                return 1 if s[d0] > s[d1] else -1
        return 0

    return reorder(list(range(len(shape)))[::-1], should_swap)


def _iteration(shape: tuple[int, ...], operands) -> tuple[list[int], list[int], list[list[int]]]:
    """The dims of more than one element, TensorIterator's order of them (innermost first,
    as indices into those dims) and each operand's strides along them."""
    dims = [d for d in range(len(shape)) if shape[d] > 1]
    strides = []
    for a in operands:
        each = _strides(a, shape)
        strides.append([each[d] for d in dims])
    return dims, _order([shape[d] for d in dims], strides), strides


def empty_output(shape: tuple[int, ...], *operands: np.ndarray, dtype=np.float32) -> np.ndarray:
    """An array of ``shape`` and ``dtype`` laid out as TensorIterator allocates an op's
    output: dense in its dimension order (a transposed input gives a transposed output)."""
    dims, perm, _ = _iteration(shape, operands)
    order = [d for d in range(len(shape)) if shape[d] <= 1] + [dims[d] for d in perm[::-1]]
    return np.empty([shape[d] for d in order], dtype).transpose(np.argsort(order))


def _rows(shape: tuple[int, ...], operands) -> tuple[int, list[int], object]:
    """TensorIterator's inner row: its length (inner dims that follow on in memory merged),
    each operand's stride along it, and a function giving each element's position in its
    row (an int array of ``shape``)."""
    dims, perm, strides = _iteration(shape, operands)
    sizes = [shape[d] for d in dims]
    if not dims:
        return 1, [0 for _ in operands], lambda: np.zeros(shape, np.int64)
    # the output is written densely in that order: merge inner dims that follow in memory
    row, inner = sizes[perm[0]], [s[perm[0]] for s in strides]
    for d in perm[1:]:
        if not all(s[d] == i * row for s, i in zip(strides, inner, strict=True)):
            break
        row *= sizes[d]

    def positions() -> np.ndarray:
        order = [dims[d] for d in perm[::-1]]  # outermost first
        at = np.arange(int(np.prod(shape, dtype=np.int64))).reshape([shape[d] for d in order])
        return np.transpose(at % row, np.argsort(order)).reshape(shape)

    return row, inner, positions


def vector_elements(shape: tuple[int, ...], *operands: np.ndarray) -> np.ndarray:
    """A boolean array of ``shape``: True where the vector function computes the element."""
    block = BLOCK.get(operands[0].dtype, 32)
    mask = np.zeros(shape, bool)
    if mask.size < block:
        return mask
    row, inner, positions = _rows(shape, operands)
    if not all(i in (0, 1) for i in inner) or row < block:
        return mask
    return positions() < row - row % block


#: add/sub(alpha=) with a broadcast number: (elements of a block, of the tail's vectors)
_PRODUCT_TAIL = {np.dtype(np.float32): (16, 4), np.dtype(np.float64): (8, 2)}


def rounded_product_elements(shape: tuple[int, ...], a, b) -> np.ndarray | None:
    """Where PyTorch's ``add(a, b, alpha=c)`` rounds ``c * b`` before it adds (None: nowhere).

    Its kernel is a fused multiply-add, except where ``b`` is one number along the loop's
    row and ``a`` is contiguous in it: there the blocks of two vectors and the first element
    of the row's tail (the last ``n % 16`` floats, ``n % 8`` doubles) are fused, and the
    compiler vectorises the rest of the tail 4 floats (2 doubles) at a time with a multiply
    and an add, leaving the last 0-3 (0-1) fused again. Measured on torch 2.13, one thread:
    ``sub(x, m, alpha=1.5)`` of a (2, 2, 3) ``x`` and a (2, 1, 1) ``m`` rounds elements 1-4
    of each row of 6."""
    tail = _PRODUCT_TAIL.get(np.result_type(a, b))
    if tail is None or np.shape(b) == shape or not shape:
        return None
    block, width = tail
    row, inner, positions = _rows(shape, (np.asarray(a), np.asarray(b)))
    groups = (row % block - 1) // width
    if inner != [1, 0] or groups <= 0:
        return None
    start = row - row % block + 1
    at = positions()
    return (at >= start) & (at < start + groups * width)


def split(vector, scalar, shape: tuple[int, ...], *arrays: np.ndarray) -> np.ndarray:
    """A float32 or float64 kernel's output, in the first array's dtype: ``vector(*arrays)``
    on the elements PyTorch's loop vectorises, ``scalar(*arrays)`` on the others (each
    computed on its own elements only), laid out as PyTorch lays it out (the next kernel's
    split depends on it). A tensor of fewer than a block's elements is all scalar: numpy's
    elementwise result, in the inputs' layout as TensorIterator's, without the bookkeeping."""
    dtype = arrays[0].dtype
    with np.errstate(all="ignore"):
        if not shape:  # one element: the kernels take 1-d arrays
            one = scalar(*(np.reshape(a, 1) for a in arrays))
            return np.asarray(one, dtype).reshape(())
        if int(np.prod(shape, dtype=np.int64)) < BLOCK.get(dtype, 32):
            return np.asarray(scalar(*arrays), dtype)
        arrays = tuple(np.broadcast_to(a, shape) for a in arrays)
        mask = vector_elements(shape, *arrays)
        if mask.all():
            return np.asarray(vector(*arrays), dtype)
        out = empty_output(shape, *arrays, dtype=dtype)
        if mask.any():
            out[mask] = vector(*(a[mask] for a in arrays))
        rest = ~mask
        if rest.any():
            out[rest] = scalar(*(a[rest] for a in arrays))
    return out
