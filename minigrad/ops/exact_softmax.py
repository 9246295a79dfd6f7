"""softmax and log_softmax, forward and backward, in the steps of PyTorch's CPU kernels.

Used by ``softmax.py`` for tensors of up to ``EXACT_UP_TO`` elements (see
``vector_kernels``). Along the last dim PyTorch works row by row with vectors: the row's
max, ``exp(x - max)`` vectorised, the sum lane by lane (``lane_sum``); softmax multiplies by
``1 / sum``, log_softmax subtracts ``max``, then SLEEF's ``log(sum)`` (``sleef_log``). Along
another dim it works on vectors of neighbouring columns: the sums run down the dim one
element after the other, the columns past the last whole vector use the scalar ``std::exp``,
and softmax divides by the sum (with one torch thread: with more, PyTorch's chunks of columns
move that boundary, so its digits depend on its thread count). The gradients: softmax's
``(grad - sum(grad * out)) * out`` (along another dim each product fused into the running
sum), log_softmax's ``grad - exp(out) * sum(grad)`` fused.
A 0-d tensor is a row of one. The arrays are float32 or float64, non-empty, read in C order.
"""

from __future__ import annotations

import numpy as np

from . import sleef_log
from .vector_kernels import exp_by_column, fma, lane_sum, split_dim, vector_exp


def _rows(a: np.ndarray, axis: int) -> tuple[np.ndarray, bool]:
    """(``a`` as rows along its last axis or as (outer, dim, inner), whether it is rows)."""
    a = np.asarray(a, order="C")
    if a.ndim == 0:
        return a.reshape(1), True
    if axis == a.ndim - 1:
        return a, True
    return split_dim(a, axis), False


def _column_sum(x: np.ndarray) -> np.ndarray:
    """The sum down axis 1 of (outer, dim, inner), one element after the other, from the
    kernels' zeroed buffer: a column of -0. sums to 0. (log_softmax's gradient is then -0.)."""
    acc = np.zeros_like(x[:, :1])
    for j in range(x.shape[1]):
        acc += x[:, j : j + 1]
    return acc


def exact_softmax(a: np.ndarray, axis: int) -> np.ndarray:
    x, rows = _rows(a, axis)
    if rows:
        e = vector_exp(x - x.max(-1, keepdims=True))
        out = e * (x.dtype.type(1) / lane_sum(e))
    else:
        e = exp_by_column(x - x.max(1, keepdims=True))
        out = e / _column_sum(e)
    return out.reshape(a.shape)


def exact_log_softmax(a: np.ndarray, axis: int) -> np.ndarray:
    x, rows = _rows(a, axis)
    if rows:
        shifted = x - x.max(-1, keepdims=True)
        out = shifted - sleef_log.log(lane_sum(vector_exp(shifted)))
    else:
        shifted = x - x.max(1, keepdims=True)
        out = shifted - sleef_log.log(_column_sum(exp_by_column(shifted)))
    return out.reshape(a.shape)


def exact_softmax_grad(grad: np.ndarray, out: np.ndarray, axis: int) -> np.ndarray:
    g, rows = _rows(grad, axis)
    o, _ = _rows(out, axis)
    if rows:
        result = (g - lane_sum(g, o)) * o
    else:
        s = np.zeros_like(g[:, :1])  # the zeroed buffer: -0. products sum to 0.
        for j in range(g.shape[1]):
            s = fma(g[:, j : j + 1], o[:, j : j + 1], s)
        result = o * (g - s)
    return result.reshape(grad.shape)


def exact_log_softmax_grad(grad: np.ndarray, out: np.ndarray, axis: int) -> np.ndarray:
    g, rows = _rows(grad, axis)
    o, _ = _rows(out, axis)
    if rows:
        s, e = lane_sum(g), vector_exp(o)
    else:
        s, e = _column_sum(g), exp_by_column(o)
    return fma(-e, s, g).reshape(grad.shape)
