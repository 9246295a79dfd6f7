"""Views that reorder or broadcast a tensor's axes: transpose, t, permute, expand.

Each returns a view, as in PyTorch (the output shares memory and the version counter with its
input); their backward undoes the reordering, or sums an expanded gradient back down.
"""

from __future__ import annotations

import numpy as np
from numpy.lib.stride_tricks import as_strided

from ..autograd.function import ArrayFunction
from ..tensor import Tensor, wrap_dim
from ._common import LEGACY_NAMES
from .namespace import namespace


class Transpose(ArrayFunction):
    node_name = "TransposeBackward0"
    n_params = 2
    is_view = True
    saved_settings = {"dim0": "dim0", "dim1": "dim1"}

    @staticmethod
    def forward(ctx, a, dim0, dim1):
        ctx.dim0, ctx.dim1 = dim0 % 2**64, dim1 % 2**64  # a negative dim read as uint64
        ctx.axes = wrap_dim(dim0, a.ndim), wrap_dim(dim1, a.ndim)
        if a.ndim == 0:
            return a.view()
        return np.swapaxes(a, *ctx.axes)

    @staticmethod
    def backward(ctx, grad):
        if isinstance(grad, Tensor):  # recorded even on a 0-d gradient, as in PyTorch
            return grad.transpose(*ctx.axes)
        return np.swapaxes(grad, *ctx.axes) if np.ndim(grad) else grad


class T(ArrayFunction):
    """``x.t()``: transpose of a tensor of at most 2 dimensions."""

    node_name = "TBackward0"
    is_view = True
    exact_grads = True

    @staticmethod
    def forward(ctx, a):
        if a.ndim > 2:
            raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {a.ndim}D")
        return a.T

    @staticmethod
    def backward(ctx, grad):
        return (grad.t() if isinstance(grad, Tensor) else grad.T,)  # .T: also a numpy scalar


class Permute(ArrayFunction):
    """Reorder dimensions; ``x.T`` is ``permute`` reversing them, as in PyTorch."""

    node_name = "PermuteBackward0"
    n_params = 1
    is_view = True

    @staticmethod
    def forward(ctx, a, dims):
        if len(dims) != a.ndim:
            raise RuntimeError(
                "permute(sparse_coo): number of dimensions in the tensor input does not match "
                "the length of the desired ordering of dimensions i.e. input.dim() = "
                f"{a.ndim} is not equal to len(dims) = {len(dims)}"
            )
        axes = tuple(wrap_dim(d, a.ndim) for d in dims)
        if len(set(axes)) != len(axes):
            raise RuntimeError("permute(): duplicate dims are not allowed.")
        ctx.inverse = tuple(np.argsort(axes))
        return a.transpose(axes)

    @staticmethod
    def backward(ctx, grad):
        return namespace(grad).permute(grad, ctx.inverse)


class Expand(ArrayFunction):
    """Broadcast to a larger shape without copying (``-1`` keeps a size)."""

    node_name = "ExpandBackward0"
    n_params = 1
    is_view = True

    @staticmethod
    def forward(ctx, a, sizes):
        sizes = tuple(int(s) for s in sizes)
        if len(sizes) < a.ndim:
            raise RuntimeError(
                f"expand(minigrad.{LEGACY_NAMES[a.dtype]}Tensor{{{list(a.shape)}}}, "
                f"size={list(sizes)}): the "
                f"number of sizes provided ({len(sizes)}) must be greater or equal to the "
                f"number of dimensions in the tensor ({a.ndim})"
            )
        lead = len(sizes) - a.ndim
        target = list(sizes)
        for i, n in reversed(list(enumerate(a.shape))):  # PyTorch checks the last dim first
            want = sizes[lead + i]
            if want == -1:
                target[lead + i] = n
            elif n != want and n != 1:
                raise RuntimeError(
                    f"The expanded size of the tensor ({want}) must match the existing size ({n}) "
                    f"at non-singleton dimension {lead + i}.  Target sizes: {list(sizes)}.  "
                    f"Tensor sizes: {list(a.shape)}"
                )
        for i in reversed(range(lead)):  # then the new leading dims, last first
            if sizes[i] == -1 and a.ndim:  # (a 0-d tensor takes the sizes as they are)
                raise RuntimeError(
                    f"The expanded size of the tensor (-1) isn't allowed in a leading, "
                    f"non-existing dimension {i}"
                )
        if any(n < 0 for n in target):  # PyTorch's product of sizes wraps around
            raise RuntimeError("numel: integer multiplication overflow")
        ctx.shape = a.shape
        return _with_torch_strides(np.broadcast_to(a, tuple(target)), a)

    @staticmethod
    def backward(ctx, grad):
        if not ctx.shape:  # PyTorch's sum_to: down to 0-d it sums, even from 0-d
            if type(grad) is not np.ndarray:
                return grad.sum()  # SumBackward0 under create_graph
            if not grad.ndim:  # a sum from 0.: -0. gives 0.
                return grad + grad.dtype.type(0)
        return namespace(grad).sum_to_shape(grad, ctx.shape)


def _with_torch_strides(out: np.ndarray, a: np.ndarray) -> np.ndarray:
    """``out`` (``a`` broadcast) with PyTorch's strides (``inferExpandGeometry``): a new dim
    has the stride of the dims after it, 0 only where the size grows (numpy's 0 for every new
    dim). No element read sees a size-1 dim's stride, but mm's layout test does:
    ``a.expand(1, 1)`` is column-major in PyTorch."""
    n, lead = out.ndim, out.ndim - a.ndim
    strides = [0] * n
    for i in range(n - 1, -1, -1):
        if i >= lead:
            size, stride = a.shape[i - lead], a.strides[i - lead]
        else:  # a new dim (of a 0-d tensor: all 0)
            size, stride = 1, out.shape[i + 1] * strides[i + 1] if i + 1 < n else 0
        strides[i] = stride if size == out.shape[i] else 0
    if tuple(strides) == out.strides:
        return out
    if any(st == 0 and size > 1 for st, size in zip(strides, out.shape)):
        return as_strided(out, out.shape, strides, writeable=False)  # never written in place
    if not a.flags.writeable:  # as_strided's view could not be made writeable again
        return out
    return as_strided(a, out.shape, strides)  # no element twice: writeable, as in PyTorch
