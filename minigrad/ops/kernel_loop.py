"""Which elements PyTorch's ``cpu_kernel_vec`` loop computes with vectors, and which one by one.

Many of PyTorch's elementwise CPU kernels (``sinh``, ``cosh``, ``exp2``, ...) give
``cpu_kernel_vec`` two functions: a vectorised one (SLEEF's, ``sleef_float``) and a scalar
one (the C library's, ``libm_float``). They round differently, so which element takes which
shows in the last bit. Measured against torch (one thread) and read in ``Loops.h``:

- the loop walks the tensor in memory order; a tensor that fills its memory (contiguous,
  transposed, permuted) is one run of ``numel`` elements; otherwise each run is a line along
  the dim of smallest stride, or for an expanded tensor (a stride 0) along the last dim; a
  line vectorises if its stride is one element (or 0: a repeated value), else all is scalar;
- in each run, whole blocks of two vectors (32 floats, 16 doubles) are vectorised, and the
  elements after the last whole block go through the scalar function.

``blocks_and_tail`` applies the two functions that way and returns the result in the
input's layout.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ._cpu_vectors import BLOCK  # elements per vectorised block: two AVX-512 vectors

Kernel = Callable[[np.ndarray], np.ndarray]


def _run(flat: np.ndarray, vector: Kernel, scalar: Kernel) -> np.ndarray:
    k = flat.size // BLOCK[flat.dtype] * BLOCK[flat.dtype]
    if k == 0:
        return scalar(flat)
    if k == flat.size:
        return vector(flat)
    return np.concatenate([vector(flat[:k]), scalar(flat[k:])])


def _fills_memory(a: np.ndarray) -> bool:
    span = sum((n - 1) * abs(s) for n, s in zip(a.shape, a.strides)) // a.itemsize + 1
    return span == a.size


def blocks_and_tail(a: np.ndarray, vector: Kernel, scalar: Kernel) -> np.ndarray:
    """``vector`` on the whole blocks of each run of ``a``, ``scalar`` on the rest (see the
    module docstring); a float32 or float64 array, the result laid out as ``a``."""
    if a.size == 0:
        return np.empty_like(a)
    if a.ndim == 0:
        return scalar(a.reshape(1)).reshape(())
    if _fills_memory(a):
        order = np.argsort([-abs(s) for s in a.strides], kind="stable")
        walked = a.transpose(order)  # memory order
        out = _run(walked.ravel(), vector, scalar).reshape(walked.shape)
        return out.transpose(np.argsort(order))
    dims = [i for i, n in enumerate(a.shape) if n > 1]
    if any(a.strides[i] == 0 for i in dims):  # expanded: the output's order, last dim inside
        inner = dims[-1]
        vectorised = a.strides[inner] in (0, a.itemsize)  # a repeated value is a vector too
    else:  # the input's order: the dim of smallest stride inside
        inner = min(dims, key=lambda i: abs(a.strides[i]))
        vectorised = a.strides[inner] == a.itemsize
    if not vectorised:
        return scalar(a.ravel()).reshape(a.shape)
    lines = np.moveaxis(a, inner, -1)
    flat = lines.reshape(-1, lines.shape[-1])
    out = np.stack([_run(line, vector, scalar) for line in flat]).reshape(lines.shape)
    return np.moveaxis(out, -1, inner)
