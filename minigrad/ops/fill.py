"""``fill_``, ``zero_`` and ``copy_``: in-place writes that replace a tensor's values.

Inside the graph each is an op whose old input no longer matters (its gradient is zero);
``copy_`` and a 0-d tensor given to ``fill_`` pass the gradient on to the values written.
Outside the graph ``fill_`` and ``zero_`` just write: optimizers zero gradients often.
"""

from __future__ import annotations

import numpy as np

from .._quiet import loud, quiet
from ..autograd.function import ArrayFunction
from ..tensor import Tensor
from ._common import broadcast_shapes
from .inplace import apply_inplace, check_inference, check_inplace, write_into
from .namespace import namespace
from .number_range import check_number_fits


class Fill(ArrayFunction):
    """``t.fill_(value)`` inside the graph: the old values no longer matter."""

    node_name = "FillBackward2"
    n_params = 1

    @staticmethod
    def forward(ctx, a, value):
        return np.full_like(a, value)

    @staticmethod
    def backward(ctx, grad):
        return namespace(grad).zeros_like(grad)


class FillTensor(ArrayFunction):
    """``t.fill_(value)`` with a 0-d tensor: the gradient of ``value`` is the sum of all."""

    node_name = "FillBackward3"

    @staticmethod
    def forward(ctx, a, value):
        return np.full_like(a, value)

    @staticmethod
    def backward(ctx, grad):
        xp = namespace(grad)
        return xp.zeros_like(grad), xp.sum(grad)


class Zero(ArrayFunction):
    node_name = "ZeroBackward0"

    @staticmethod
    def forward(ctx, a):
        return np.zeros_like(a)

    @staticmethod
    def backward(ctx, grad):
        return namespace(grad).zeros_like(grad)


class Copy(ArrayFunction):
    """``t.copy_(src)``: ``src`` broadcast to ``t``'s shape and cast to its dtype."""

    node_name = "CopyBackwards"
    namespaced = True
    broadcasts = True
    default_float = False  # the copy takes t's dtype, whatever src's is

    @staticmethod
    def forward(ctx, a, src):
        if ctx is not None:  # (None: nothing is recorded)
            ctx.src_dtype = np.result_type(src)
        return np.broadcast_to(src, a.shape).astype(a.dtype)

    @staticmethod
    def backward(ctx, grad):
        """PyTorch's CopyBackwards casts the gradient to ``src``'s dtype itself; the engine
        then sums it down to ``src``'s shape (other ops' nodes sum first, then cast)."""
        xp = namespace(grad)
        if xp.dtype(grad) != ctx.src_dtype:
            return xp.zeros_like(grad), xp.astype(grad, ctx.src_dtype)
        return xp.zeros_like(grad), grad


def fill_(t: Tensor, value) -> Tensor:
    """Set every element to ``value`` (a number or a 0-d tensor)."""
    if isinstance(value, Tensor):
        if value.ndim:
            raise RuntimeError(
                "fill_ only supports 0-dimension value tensor but got tensor with "
                f"{value.ndim} dimensions."
            )
        return apply_inplace(FillTensor, t, value)
    value = check_number_fits(value, t._data.dtype, filling=True)
    if not check_inplace(t):  # outside the graph: just write (optimizers zero grads often)
        t._data[...] = value
        t._vc[0] += 1
        return t
    return apply_inplace(Fill, t, value)


def zero_(t: Tensor) -> Tensor:
    if not check_inplace(t):
        t._data[...] = 0
        t._vc[0] += 1
        return t
    return apply_inplace(Zero, t)


def copy_(t: Tensor, src) -> Tensor:
    """Copy ``src`` (broadcast, any dtype) into ``t``; differentiable with respect to ``src``."""
    if not isinstance(src, Tensor):
        raise TypeError(
            f"copy_(): argument 'other' (position 1) must be Tensor, not {type(src).__name__}"
        )
    if broadcast_shapes(t._data.shape, src._data.shape) != t._data.shape:
        raise RuntimeError(
            f"output with shape {list(t._data.shape)} doesn't match the broadcast shape "
            f"{list(np.broadcast_shapes(t._data.shape, src._data.shape))}"
        )
    if t._data.dtype.kind in "biu":  # PyTorch's copy_ records nothing into a tensor that
        if type(t._vc) is not list:  # cannot require grad (fill_ and the others do)
            check_inference(t)
        token = quiet()  # nan or a float out of range cast to an integer: no numpy warning
        try:
            write_into(t, Copy.forward(None, t._data, src._data))
        finally:
            loud(token)
        return t
    return apply_inplace(Copy, t, src)
