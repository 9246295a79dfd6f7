"""Reductions beyond sum and mean: prod, cumsum, amax/amin, the vector norm.

Each is one Function, forward and backward side by side, as in ``reduction.py``. What a
learner meets first: ``x.norm()`` (gradient ``x / norm``), ``x.prod()`` (the product of
all the other elements, also where some are zero), ``x.cumsum(0)`` (a running sum, whose
gradient is a running sum backwards).
"""

from __future__ import annotations

import numpy as np

from ..autograd.function import ArrayFunction
from ..tensor import wrap_dim
from ._common import LEGACY_NAMES, c_order
from ._reduction_ties import reduced_extreme
from .arithmetic import MaskedFill
from .namespace import NumpyNamespace, namespace
from .reduction import reduce_dims


def _integer_result(a: np.ndarray) -> np.dtype | None:
    """PyTorch sums and multiplies bools and integers in int64."""
    return np.dtype(np.int64) if a.dtype.kind in "biu" else None


def _exclusive_products(a: np.ndarray, axis: int) -> np.ndarray:
    """For each element, the product of all the others along ``axis`` (no division: zeros ok)."""
    ones = np.ones_like(np.take(a, [0], axis=axis)) if a.shape[axis] else a[:0]
    left = np.cumprod(np.concatenate([ones, a], axis=axis), axis=axis)
    right = np.flip(np.cumprod(np.concatenate([ones, np.flip(a, axis)], axis=axis), axis), axis)
    n = a.shape[axis]
    return np.take(left, range(n), axis=axis) * np.take(right, range(1, n + 1), axis=axis)


class Prod(ArrayFunction):
    """Product of all elements; the gradient of each is the product of the others."""

    node_name = "ProdBackward0"

    @staticmethod
    def forward(ctx, a):
        out = np.prod(a, dtype=_integer_result(a))
        ctx.save_for_backward(a, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        a, out = ctx.saved_tensors
        if a.ndim == 0:  # PyTorch's prod_backward: the gradient itself (no graph, no out / a)
            return grad
        values = namespace(a).data(a)
        if values.size == 1 and values.reshape(-1)[0] == 0:  # one zero: the gradient itself,
            return namespace(grad).reshape(grad, values.shape)  # viewed as the input (view_as)
        if type(grad) is np.ndarray and np.count_nonzero(a == 0) > 1:
            # two zeros: every product of the others has one. PyTorch then (outside create_graph)
            # returns zeros, not the products (whose -0. and 0 * inf = nan would show)
            return np.zeros(a.shape, grad.dtype)
        return grad * _product_of_others(a, out, None)


class ProdDim(ArrayFunction):
    node_name = "ProdBackward1"
    n_params = 2

    @staticmethod
    def forward(ctx, a, dim, keepdim):
        ctx.axis, ctx.keepdim, ctx.ndim = wrap_dim(dim, a.ndim), keepdim, a.ndim
        if a.ndim == 0:
            out = a.astype(_integer_result(a) or a.dtype)
        else:
            out = c_order(np.prod(a, axis=ctx.axis, keepdims=keepdim, dtype=_integer_result(a)))
        ctx.save_for_backward(a, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        a, out = ctx.saved_tensors
        if ctx.ndim == 0:
            return grad
        xp = namespace(grad)
        if not ctx.keepdim:
            grad, out = xp.expand_dims(grad, ctx.axis), xp.expand_dims(out, ctx.axis)
        if a.shape[ctx.axis] == 1 and not np.all(xp.data(a) != 0):  # PyTorch's
            return grad  # prod_safe_zeros_backward: one element per product, the gradient
        return grad * _product_of_others(a, out, ctx.axis)


def _product_of_others(a, out, axis: int | None):
    """``out / a`` where no element is zero; with zeros, the products of the others computed
    without dividing (both differentiable again under ``create_graph``)."""
    xp = namespace(a)
    values = xp.data(a)
    if np.all(values != 0):
        return out / a
    if xp is not NumpyNamespace:
        return _others_as_tensor(a, axis)
    flat = values.reshape(-1) if axis is None else values
    others = _exclusive_products(flat, 0 if axis is None else axis).reshape(values.shape)
    return others.astype(values.dtype)


def _others_as_tensor(a, axis: int | None):
    """The products of the others as a graph, for a tensor with zeros under ``create_graph``:
    row ``i`` of an (n, n, ...) stack is ``a`` with its ``i``-th element replaced by 1, and
    its product is the product of the others (n squared elements, only on this rare path)."""
    x = a.reshape(-1) if axis is None else a.transpose(0, axis)
    n = x.shape[0]
    own = np.eye(n, dtype=bool).reshape((n, n) + (1,) * (x.ndim - 1))
    rows = x.unsqueeze(0).expand((n, *x.shape))
    others = namespace(a).where(own, 1.0, rows).prod(1)
    return others.reshape(a.shape) if axis is None else others.transpose(0, axis)


class Cumsum(ArrayFunction):
    """Running sum along ``dim``: the gradient is the running sum of ``grad`` from the end."""

    node_name = "CumsumBackward0"
    n_params = 1

    @staticmethod
    def forward(ctx, a, dim):
        ctx.axis = axis = wrap_dim(dim, a.ndim)
        if a.ndim == 0:
            return a.astype(_integer_result(a) or a.dtype)
        out = c_order(np.cumsum(a, axis=axis, dtype=_integer_result(a)))
        if out.dtype.kind == "f":
            out += 0.0  # PyTorch's running sum starts at 0. (numpy's at the first -0.)
        return out

    @staticmethod
    def backward(ctx, grad):
        """The sum of ``grad`` from each position to the end: ``grad`` flipped, summed as it
        runs, flipped back (PyTorch's ``reversed_cumsum``)."""
        shape = namespace(grad).data(grad).shape
        if not shape or shape[ctx.axis] == 1 or int(np.prod(shape)) <= 1:
            return grad
        return Flip.call(Cumsum.call(Flip.call(grad, ctx.axis), ctx.axis), ctx.axis)


class Flip(ArrayFunction):
    """The elements in reverse order along ``axis`` (``FlipBackward0``); here only for the
    gradient of cumsum. Its gradient is the same flip."""

    node_name = "FlipBackward0"
    n_params = 1

    @staticmethod
    def forward(ctx, a, axis):
        ctx.axis = axis
        return np.flip(a, axis).copy()

    @staticmethod
    def backward(ctx, grad):
        return Flip.call(grad, ctx.axis)


class Amax(ArrayFunction):
    """The largest value over ``dim`` (no indices); ties share the gradient evenly."""

    node_name = "AmaxBackward0"
    n_params = 2
    _largest = True
    _name = "amax"

    @classmethod
    def forward(cls, ctx, a, dim, keepdim):
        axes = reduce_dims(dim, a.ndim)
        for axis in axes:
            if a.shape[axis] == 0:  # named as the caller wrote it (-1 stays -1), as PyTorch
                given = dim if isinstance(dim, (tuple, list)) else (dim,)
                name = next((d for d in given if isinstance(d, int) and d % a.ndim == axis), axis)
                raise IndexError(
                    f"{cls._name}(): Expected reduction dim {name} to have non-zero size."
                )
        if a.size == 0 and not axes and a.ndim:
            raise RuntimeError(
                f"{cls._name}(): Expected reduction dim to be specified for input.numel() == 0. "
                "Specify the reduction dim with the 'dim' argument."
            )
        out = c_order(reduced_extreme(a, axes, keepdim, cls._largest))  # PyTorch's zero at a tie
        ctx.save_for_backward(a, out)
        ctx.axes, ctx.keepdim = axes, keepdim
        ctx.lift = a.ndim == 0 and dim is not None and not keepdim  # see backward
        return out

    @staticmethod
    def backward(ctx, grad):
        a, out = ctx.saved_tensors
        xp = namespace(grad)
        out = xp.data(out)
        if not ctx.keepdim:  # a 0-d input with a dim: PyTorch restores that dim, size 1
            out = out.reshape(1) if ctx.lift else np.expand_dims(out, ctx.axes)
            grad = xp.reshape(grad, out.shape)
        hits = xp.data(a) == out  # ties share the gradient evenly: constants
        dtype = xp.dtype(grad)
        count = hits.sum(axis=ctx.axes, keepdims=True).astype(dtype)
        g = grad / xp.constant(count) * xp.constant(hits.astype(dtype))  # PyTorch's order
        return xp.sum(g) if ctx.lift else g  # and its engine sums that to 0-d (SumBackward0)


class Amin(Amax):
    node_name = "AminBackward0"
    _largest = False
    _name = "amin"


class VectorNorm(ArrayFunction):
    """``(sum |x| ** ord) ** (1 / ord)`` over ``dim``; ord 2 is ``x.norm()``.

    The gradient of the 2-norm is ``x / norm`` (0 where the norm is 0, as in PyTorch); ord 1
    gives ``sign(x)``, ord inf sends the gradient to the largest elements, split evenly.
    """

    node_name = "LinalgVectorNormBackward0"
    n_params = 3

    @staticmethod
    def forward(ctx, a, ord, dim, keepdim):  # noqa: A002 - PyTorch's name
        if a.dtype.kind != "f":
            raise RuntimeError(
                "linalg.vector_norm: Expected a floating point or complex tensor as input. "
                f"Got {LEGACY_NAMES[a.dtype]}"
            )
        axes = reduce_dims(dim, a.ndim)
        wide = np.abs(a.astype(np.float64))  # accumulate in float64, round once
        if ord == 1:
            out = wide.sum(axis=axes, keepdims=keepdim)
        elif ord == np.inf:
            out = wide.max(axis=axes, keepdims=keepdim, initial=0.0)
        elif ord == -np.inf:
            out = wide.min(axis=axes, keepdims=keepdim)
        elif ord == 0:
            out = (wide != 0).sum(axis=axes, keepdims=keepdim).astype(np.float64)
        else:
            with np.errstate(divide="ignore"):
                powers = wide * wide if ord == 2 else wide**ord
                if int(np.prod([a.shape[i] for i in axes])) > 1:
                    # PyTorch raises to the power and sums in the input's dtype: a float32
                    # square of 1e30 is inf there and one of 1e-30 is 0 (one element is |x|)
                    powers = powers.astype(a.dtype).astype(np.float64)
                    total = powers.sum(axis=axes, keepdims=keepdim).astype(a.dtype)
                else:
                    total = powers.sum(axis=axes, keepdims=keepdim)
                total = total.astype(np.float64)
                out = np.sqrt(total) if ord == 2 else total ** (1.0 / ord)
        out = out.astype(a.dtype, order="C")
        ctx.save_for_backward(a, out)
        ctx.ord, ctx.axes, ctx.keepdim, ctx.dim, ctx.ndim = ord, axes, keepdim, dim, a.ndim
        return out

    @staticmethod
    def backward(ctx, grad):
        """PyTorch's norm_backward, op for op (its graph under create_graph is PyTorch's)."""
        a, norm = ctx.saved_tensors
        xp = namespace(grad)
        p = ctx.ord
        if p == 0:
            return None  # PyTorch leaves the gradient undefined: x.grad stays None
        if not ctx.keepdim and ctx.dim is not None and ctx.ndim:
            norm, grad = xp.expand_dims(norm, ctx.axes), xp.expand_dims(grad, ctx.axes)
        values, norms = xp.data(a), xp.data(norm)
        if p == 1:
            return xp.sign(a) * grad
        if p == 2:
            return grad * MaskedFill.call(a / norm, norms == 0)
        if p in (np.inf, -np.inf):  # the largest (smallest) |x| share the gradient evenly
            dtype = xp.dtype(grad)
            hits = (np.abs(values) == norms) | np.isnan(values)
            count = xp.constant(hits.sum(axis=ctx.axes, keepdims=True).astype(dtype))
            return xp.sign(a) * ((grad / count) * xp.constant(hits.astype(dtype)))
        if p < 1:
            scaled = xp.sign(a) * MaskedFill.call(xp.abs(a) ** (p - 1), values == 0)
            return scaled * grad * norm ** (1 - p)
        if p < 2:
            scaled = xp.sign(a) * xp.abs(a) ** (p - 1)
        else:
            scaled = a * xp.abs(a) ** (p - 2)
        return scaled * MaskedFill.call(grad / norm ** (p - 1), norms == 0)
