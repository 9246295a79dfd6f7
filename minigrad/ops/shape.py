"""Shape operations: view, reshape, squeeze, unsqueeze (transpose, t, permute and expand are in
``axes.py``).

Most are views, as in PyTorch: the output shares memory (and the version
counter) with the input, so an in-place change through one is seen by the other.
The copies (``clone``, ``to``) are in ``copies.py``.
"""

from __future__ import annotations

import math

import numpy as np

from ..autograd import anomaly_mode, grad_mode
from ..autograd.array_apply import _apply_unary
from ..autograd.function import ArrayFunction
from ..tensor import follows_base, new_tensor, wrap_dim
from ._short_path import edge, node
from .axes import Expand, Permute, T, Transpose  # noqa: F401 - S.Transpose ...: their callers
from .copies import Clone, ClonePreserve, ToCopy  # noqa: F401 - S.Clone, S.ToCopy: its callers
from .namespace import namespace
from .reduction import reduce_dims

_anomaly = anomaly_mode.state
_state = grad_mode.state


def infer_shape(shape: tuple, numel: int) -> tuple[int, ...]:
    """Resolve one ``-1`` in ``shape`` and check the element count, with PyTorch's words.

    The usual shape (Python ints, at most one -1, the right count) in one loop; anything
    else goes the long way, which also says what is wrong.
    """
    if type(shape) is tuple:
        known, unknown = 1, -1
        for i, s in enumerate(shape):
            if type(s) is not int or s < 0:
                if s != -1 or unknown >= 0 or type(s) is not int:
                    break
                unknown = i
            else:
                known *= s
        else:
            if unknown < 0:
                if known == numel:
                    return shape
            elif known and not numel % known:
                return shape[:unknown] + (numel // known,) + shape[unknown + 1 :]
    return _infer_shape_checked(shape, numel)


def _infer_shape_checked(shape: tuple, numel: int) -> tuple[int, ...]:
    shape = tuple(int(s) for s in shape)
    unknown = [i for i, s in enumerate(shape) if s == -1]
    if len(unknown) > 1:
        raise RuntimeError("only one dimension can be inferred")
    if any(s < -1 for s in shape):
        raise RuntimeError(f"invalid shape dimension {min(shape)}")
    known = math.prod(s for s in shape if s != -1)
    if unknown:
        if known == 0 and numel == 0:
            raise RuntimeError(
                f"cannot reshape tensor of 0 elements into shape {list(shape)} because the "
                "unspecified dimension size -1 can be any value and is ambiguous"
            )
        if known == 0 or numel % known:
            raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
        shape = shape[: unknown[0]] + (numel // known,) + shape[unknown[0] + 1 :]
    elif known != numel:
        raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
    return shape


class View(ArrayFunction):
    """``x.view(shape)``: the same memory read in another shape (C order).

    ``emb.view(-1, 30)`` runs in every step of a model that flattens its embeddings, so a
    C-ordered tensor (always viewable) takes a short ``apply`` (``_short_path``): the
    general path's view and node, recorded directly.
    """

    node_name = "ViewBackward0"
    n_params = 1
    is_view = True
    exact_grads = True  # the engine runs backward directly (function.py)

    @classmethod
    def apply(cls, a, shape):
        try:
            data = a._data
        except AttributeError:  # not a tensor: the general path says so
            return _apply_unary(cls, a, shape)
        if _anomaly.enabled or not data.flags.c_contiguous:
            return _apply_unary(cls, a, shape)  # anomaly mode's stack names its frames
        out = data.reshape(infer_shape(shape, data.size))
        if 1 in out.shape and out.size:  # PyTorch's strides for the size-1 dims
            out = _torch_strides(data, out)
        result = new_tensor(out)
        vc = result._vc = a._vc
        result._base = a if a._base is None else a._base
        result._view_version = vc[0]
        result._no_grad_view = not _state.enabled or (a._base is not None and a._no_grad_view)
        if (a._requires_grad or follows_base(a)) and _state.enabled:
            result._grad_fn = ctx = node(cls, (edge(a),))
            result._requires_grad = True
            ctx.shape = data.shape
        return result

    @staticmethod
    def forward(ctx, a, shape):
        ctx.shape = a.shape
        try:
            out = a.reshape(infer_shape(shape, a.size), copy=False)
            if 1 in out.shape and out.size:
                out = _torch_strides(a, out)
            return out
        except ValueError:
            raise RuntimeError(
                "view size is not compatible with input tensor's size and stride (at least one "
                "dimension spans across two contiguous subspaces). Use .reshape(...) instead."
            ) from None

    @staticmethod
    def backward(ctx, grad):
        return (grad.reshape(ctx.shape),)


def _torch_strides(a: np.ndarray, out: np.ndarray) -> np.ndarray:
    """``out`` (a view of ``a``) with PyTorch's strides for its size-1 dims (``computeStride``
    in TensorUtils.cpp): numpy chooses other ones, which no element read sees but PyTorch's
    layout tests do (mm's ``is_column_major`` of a reshaped column)."""
    if a.ndim == 0:  # every stride 1
        strides = (a.itemsize,) * out.ndim
        return out if strides == out.strides else _restrided(out, strides)
    old = [st // a.itemsize for st in a.strides]
    new, view_d = [0] * out.ndim, out.ndim - 1
    base, tensor_n, view_n = old[-1], 1, 1
    for d in range(a.ndim - 1, -1, -1):
        tensor_n *= a.shape[d]
        if d == 0 or (a.shape[d - 1] != 1 and old[d - 1] != tensor_n * base):
            while view_d >= 0 and (view_n < tensor_n or out.shape[view_d] == 1):
                new[view_d] = view_n * base
                view_n *= out.shape[view_d]
                view_d -= 1
            if d > 0:
                base, tensor_n, view_n = old[d - 1], 1, 1
    strides = tuple(st * a.itemsize for st in new)
    if strides == out.strides or view_d != -1:
        return out
    return _restrided(out, strides)


def _restrided(out: np.ndarray, strides: tuple) -> np.ndarray:
    return np.lib.stride_tricks.as_strided(out, out.shape, strides, writeable=out.flags.writeable)


class ReshapeAlias(View):
    """``reshape`` of a non-contiguous tensor that can still be a view (PyTorch's name)."""

    node_name = "ReshapeAliasBackward0"


class UnsafeView(ArrayFunction):
    """The reshape of a copy (what ``reshape`` does when a view is impossible)."""

    node_name = "UnsafeViewBackward0"
    n_params = 1

    @staticmethod
    def forward(ctx, a, shape):
        ctx.shape = a.shape
        return a.reshape(shape)

    @staticmethod
    def backward(ctx, grad):
        return grad.reshape(ctx.shape)


class Squeeze(ArrayFunction):
    node_name = "SqueezeBackward0"
    is_view = True

    @staticmethod
    def forward(ctx, a):
        ctx.shape = a.shape
        return a.squeeze()

    @staticmethod
    def backward(ctx, grad):  # one unsqueeze per dimension of size 1, as in PyTorch
        ones = tuple(i for i, n in enumerate(ctx.shape) if n == 1)
        return namespace(grad).expand_dims(grad, ones) if ones else grad


class SqueezeDim(ArrayFunction):
    """Remove dimension ``dim`` if its size is 1 (otherwise a no-op view)."""

    node_name = "SqueezeBackward1"
    n_params = 1
    is_view = True

    @staticmethod
    def forward(ctx, a, dim):
        ctx.axis = None
        if a.ndim == 0:
            wrap_dim(dim, 0)
            return a.view()
        axis = wrap_dim(dim, a.ndim)
        if a.shape[axis] != 1:
            return a.view()
        ctx.axis = axis
        return a.squeeze(axis)

    @staticmethod
    def backward(ctx, grad):
        return grad if ctx.axis is None else namespace(grad).expand_dims(grad, ctx.axis)


class SqueezeDims(ArrayFunction):
    """``squeeze((0, 2))``: remove those of ``dims`` whose size is 1 (a view)."""

    node_name = "SqueezeBackward2"
    saved_settings = {"dim": "dims", "self_sym_sizes": "shape"}
    n_params = 1
    is_view = True

    @staticmethod
    def forward(ctx, a, dims):
        axes = reduce_dims(dims, a.ndim)
        ctx.shape, ctx.dims = a.shape, tuple(d % 2**64 for d in dims)  # negative: as uint64
        ctx.axes = tuple(i for i in axes if a.shape[i] == 1) if a.ndim else ()
        return a.squeeze(ctx.axes) if ctx.axes else a.view()

    @staticmethod
    def backward(ctx, grad):  # PyTorch's unsqueeze_to: one unsqueeze per removed dim
        return namespace(grad).expand_dims(grad, ctx.axes) if ctx.axes else grad


class SqueezeMatmul(SqueezeDim):
    """The squeeze that ends ``vector @ matrix`` (PyTorch's SqueezeBackward4). PyTorch squeezes
    the product in place, so the result is not a view (an in-place op on it is plain)."""

    node_name = "SqueezeBackward4"
    is_view = False


class Unsqueeze(ArrayFunction):
    node_name = "UnsqueezeBackward0"
    n_params = 1
    is_view = True

    @staticmethod
    def forward(ctx, a, dim):
        ctx.axis = wrap_dim(dim, a.ndim + 1)
        return np.expand_dims(a, ctx.axis)

    @staticmethod
    def backward(ctx, grad):
        return grad.squeeze(ctx.axis)
