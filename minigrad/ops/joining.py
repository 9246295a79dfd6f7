"""Joining: cat, stack and where, whose gradient is split back among the inputs."""

from __future__ import annotations

import numpy as np

from ..autograd.function import ArrayFunction
from ..tensor import wrap_dim
from ._common import broadcast_shapes, c_order
from ._output_layout import cat_layout, iterator_layout
from .namespace import namespace


class Cat(ArrayFunction):
    node_name = "CatBackward0"
    n_params = 1

    @staticmethod
    def forward(ctx, *args):
        *arrays, dim = args
        for k, a in enumerate(arrays):
            if a.ndim == 0:
                raise RuntimeError(
                    f"zero-dimensional tensor (at position {k}) cannot be concatenated"
                )
        ref = next((a for a in arrays if a.shape != (0,)), arrays[0])
        # only 1-d empty tensors: all skipped, any dim (PyTorch checks none)
        axis = wrap_dim(dim, ref.ndim) if ref.shape != (0,) else 0
        for k, a in enumerate(arrays):
            if a.ndim != ref.ndim and a.shape != (0,):  # 1-D empty tensors are skipped
                raise RuntimeError(
                    f"Tensors must have same number of dimensions: got {ref.ndim} and {a.ndim}"
                )
            for d in range(ref.ndim):
                if d != axis and a.ndim == ref.ndim and a.shape[d] != ref.shape[d]:
                    raise RuntimeError(
                        f"Sizes of tensors must match except in dimension {axis}. Expected "
                        f"size {ref.shape[d]} but got size {a.shape[d]} for tensor number {k} "
                        "in the list."
                    )
        sizes = [a.shape[axis] if a.ndim == ref.ndim else 0 for a in arrays]
        ctx.axis, ctx.bounds = axis, [0, *np.cumsum(sizes).tolist()]
        ctx.empty = [k for k, a in enumerate(arrays) if a.shape == (0,)]
        kept = [a for a in arrays if a.ndim == ref.ndim]
        return cat_layout(np.concatenate(kept, axis=axis), kept)

    @staticmethod
    def backward(ctx, grad):  # one narrow per input (SliceBackward0 under create_graph)
        key, bounds = (slice(None),) * ctx.axis, ctx.bounds
        if type(grad) is np.ndarray:
            grads = [grad[key + (slice(lo, hi),)] for lo, hi in zip(bounds, bounds[1:])]
        else:
            grads = [grad.narrow(ctx.axis, lo, hi - lo) for lo, hi in zip(bounds, bounds[1:])]
        for k in ctx.empty:  # a 1-d empty input: new zeros, as PyTorch (no graph)
            xp = namespace(grad)
            grads[k] = xp.zeros((0,), xp.dtype(grad))
        return tuple(grads)


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
        ctx.axis, ctx.n = wrap_dim(dim, arrays[0].ndim + 1), len(arrays)
        return c_order(np.stack(arrays, axis=ctx.axis))  # PyTorch's (3-d and less) layout

    @staticmethod
    def backward(ctx, grad):  # one selection per input (SelectBackward0 under create_graph)
        key = (slice(None),) * ctx.axis
        return tuple([grad[key + (i,)] for i in range(ctx.n)])


class Where(ArrayFunction):
    """``where(condition, a, b)``: the condition is a setting, not an input."""

    node_name = "WhereBackward0"
    broadcasts = True
    promotes = True
    n_params = 1

    @staticmethod
    def forward(ctx, a, b, condition):
        ctx.condition = condition
        ctx.save_for_backward(condition)  # PyTorch saves it: a second backward raises
        try:
            return iterator_layout(np.where(condition, a, b), (condition, a, b))
        except ValueError:
            broadcast_shapes(np.shape(condition), np.shape(a), np.shape(b))  # PyTorch's error
            raise

    @staticmethod
    def backward(ctx, grad):
        ctx.saved_tensors  # noqa: B018 - checks the condition's version, as PyTorch
        xp = namespace(grad)
        zero = np.zeros((), dtype=xp.dtype(grad))
        grad_other = xp.where(ctx.condition, zero, grad)  # other's first, as PyTorch's
        return xp.where(ctx.condition, grad, zero), grad_other
