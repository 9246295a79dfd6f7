"""cumprod: running products along a dim, and PyTorch's three ways back through them.

``x.cumprod(0)`` of ``[a, b, c]`` is ``[a, a*b, a*b*c]``. Each output ``y_j`` is the product
of the inputs up to ``j``, so the gradient of ``x_k`` is ``sum_{j >= k} grad_j * y_j / x_k``,
which is exact while no input is zero (PyTorch's ``cumprod_backward``, FunctionsManual.cpp).
Through zeros PyTorch takes one of two other routes, followed here op for op: outside
``create_graph`` an O(n) pass over the elements up to the first zero and the first zero
itself (masks, no division by zero); under ``create_graph`` the products with one element
left out, a column at a time, written into zeros (a graph that can be differentiated again).

``prod``'s gradient through a zero uses cumprod too (``scans.prod_safe_zeros_backward``).
"""

from __future__ import annotations

import numpy as np

from ..autograd.function import ArrayFunction
from ..tensor import new_tensor, wrap_dim
from ._common import c_order
from .array_kernels import running_product
from .namespace import NumpyNamespace, namespace


class Cumprod(ArrayFunction):
    """Running product along ``dim`` (integers and bools in int64, float32 carried in double)."""

    node_name = "CumprodBackward0"
    saved_names = ("self", "result")
    saved_settings = {"dim": "axis"}
    n_params = 1

    @staticmethod
    def forward(ctx, a, dim):
        ctx.axis = axis = wrap_dim(dim, a.ndim, scalar_ok=True)
        if a.ndim == 0:
            out = a.astype(np.int64 if a.dtype.kind in "biu" else a.dtype)
        else:
            out = c_order(running_product(a, axis))  # PyTorch's result is contiguous
        ctx.save_for_backward(a, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        a, out = ctx.saved_tensors
        return cumprod_backward(grad, a, ctx.axis, out)


def reversed_cumsum(w, axis: int):
    """``w.flip(dim).cumsum(dim).flip(dim)``: the sum from each position to the end."""
    from .scans import Cumsum  # scans' prod uses this module

    xp = namespace(w)
    return xp.flip(Cumsum.call(xp.flip(w, axis), axis), axis)


def cumprod_backward(grad, a, axis: int, out):
    """PyTorch's ``cumprod_backward``: ``sum_{j >= k} grad_j * y_j / x_k`` without zeros."""
    xp = namespace(grad)
    x = xp.data(a)
    if x.size <= 1 or x.shape[axis] == 1:
        return grad
    w = out * grad
    is_zero = x == 0
    if not is_zero.any():
        return reversed_cumsum(w, axis) / a
    if xp is NumpyNamespace:
        return _through_first_zero(grad, x, axis, out, w, is_zero)
    return _omitted_products(grad, a, axis)


def _through_first_zero(grad, x, axis, out, w, is_zero):
    """No graph: before the first zero ``y_j / x_k`` holds; the first zero's gradient is the
    product before it times the running products up to the second zero; after it, zeros."""
    result = np.zeros(x.shape, w.dtype)
    zero = np.zeros((), w.dtype)
    seen = np.cumsum(is_zero, axis=axis)
    before = seen == 0
    part = reversed_cumsum(np.where(before, w, zero), axis) / x
    result[before] = part[before]
    mask = seen == 1
    first = np.argmax(mask, axis=axis, keepdims=True)  # 0 where a slice has no zero
    first_mask = np.zeros_like(mask)
    np.put_along_axis(first_mask, first, True, axis)
    first_mask &= mask
    mask &= ~first_mask
    runs = running_product(np.where(mask, x, np.ones((), x.dtype)), axis)
    runs = runs * np.where(seen != 1, zero, grad)
    total = NumpyNamespace.sum(runs, axis, keepdims=True)
    ahead = np.take_along_axis(out, np.maximum(first - 1, 0), axis)
    total = total * np.where(first == 0, np.ones((), w.dtype), ahead)
    result[first_mask] = np.broadcast_to(total, x.shape)[first_mask]
    return result


def _omitted_products(grad, a, axis):
    """Under ``create_graph``: for each ``k``, the products of ``x`` up to each ``j >= k``
    with ``x_k`` left out, weighted by ``grad`` and summed, copied into column ``k``."""
    xp = namespace(grad)
    n = a.shape[axis]
    shape = list(a.shape)
    shape[axis] = 1
    ones = new_tensor(np.ones(shape, grad._data.dtype))
    result = new_tensor(np.zeros(a.shape, grad._data.dtype))
    for k in range(n):
        if k == 0:
            omitted = xp.cat([ones, a.narrow(axis, 1, n - 1).cumprod(axis)], axis)
        else:
            until = a.narrow(axis, 0, k).prod(axis, keepdim=True)
            if k == n - 1:
                omitted = until
            else:
                after = a.narrow(axis, k + 1, n - k - 1).cumprod(axis)
                omitted = xp.cat([until, until.expand_as(after) * after], axis)
        column = (grad.narrow(axis, k, n - k) * omitted).sum(axis)
        result[(slice(None),) * axis + (k,)].copy_(column)
    return result
