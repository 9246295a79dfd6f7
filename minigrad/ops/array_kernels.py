"""numpy functions that compute as PyTorch's CPU kernels do, where numpy's own differ.

The backward formulas reach them through ``NumpyNamespace`` (``namespace.py``), and the ops
of the same name call them directly: the sign of nan, a float32 running product carried in
double, float32 functions rounded once from float64.
"""

from __future__ import annotations

import numpy as np


def sign_of(a: np.ndarray) -> np.ndarray:
    """PyTorch's sign: numpy's, except that the sign of nan is 0 (numpy says nan)."""
    out = np.sign(a)
    if out.dtype.kind == "f" and np.isnan(out).any():
        out = np.where(out != out, np.zeros((), out.dtype), out)
    return out


def running_product(a: np.ndarray, axis: int) -> np.ndarray:
    """PyTorch's cumprod kernel: one product carried along ``axis`` in double for a float32
    tensor (``acc_type``), each element rounded as it is stored; integers and bools in int64."""
    if a.dtype.kind in "biu":
        return np.cumprod(a, axis=axis, dtype=np.int64)
    if a.dtype == np.float32:
        return np.cumprod(a, axis=axis, dtype=np.float64).astype(np.float32)
    return np.cumprod(a, axis=axis)


def rounded_once(fn):
    """``fn`` that computes a float32 array in float64 and rounds once: PyTorch's float32 log,
    sin, cos, log1p are (nearly) correctly rounded, numpy's are off by an ulp for one input in
    five to ten, which shows in printed digits and in a float32 result widened to float64."""

    def rounded(x):
        if getattr(x, "dtype", None) == np.float32:
            return fn(x.astype(np.float64)).astype(np.float32)
        return fn(x)

    rounded.__name__ = fn.__name__
    return rounded
