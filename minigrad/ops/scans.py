"""Reductions beyond sum and mean: prod, cumsum, amax/amin, the vector norm.

Each is one Function, forward and backward side by side, as in ``reduction.py``. What a
learner meets first: ``x.norm()`` (gradient ``x / norm``), ``x.prod()`` (the product of
all the other elements, also where some are zero), ``x.cumsum(0)`` (a running sum, whose
gradient is a running sum backwards).
"""

from __future__ import annotations

import numpy as np

from ..autograd.function import ArrayFunction
from ..tensor import Tensor, wrap_dim
from ._common import LEGACY_NAMES, c_order
from ._norm_kernel import norm_sum
from ._reduction_ties import reduced_extreme
from .arithmetic import MaskedFill
from .namespace import NumpyNamespace, namespace
from .powers import scalar_power
from .reduction import reduce_dims


def _integer_result(a: np.ndarray) -> np.dtype | None:
    """PyTorch sums and multiplies bools and integers in int64."""
    return np.dtype(np.int64) if a.dtype.kind in "biu" else None


def _power(x, e, in_place: bool = False):
    """``x ** e`` as PyTorch's pow kernel computes it (``|x| ** -0.5`` is ``1 / sqrt(|x|)``),
    on arrays; on Tensors (under create_graph) the Pow op, which does the same, ``in_place``
    as PyTorch's ``pow_`` (its node then saves a clone of ``x``: ``CloneBackward0``)."""
    if isinstance(x, Tensor):
        return x.pow_(e) if in_place else x**e
    return scalar_power(np.asarray(x), e)


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
        """PyTorch's ``prod_backward``: ``grad * (out / a)`` without zeros; through zeros the
        products of the others from running products (outside ``create_graph`` two zeros
        give zeros at once: every product of the others has one)."""
        a, out = ctx.saved_tensors
        if a.ndim == 0:  # the gradient itself (no graph, no out / a)
            return grad
        xp = namespace(grad)
        zeros = np.count_nonzero(xp.data(a) == 0)
        if not zeros:
            return grad * (out / a)
        if zeros > 1 and xp is NumpyNamespace:
            return np.zeros(a.shape, grad.dtype)
        flat = xp.reshape(xp.contiguous(a), (-1,))
        return xp.reshape(prod_safe_zeros_backward(grad, flat, 0), a.shape)  # view_as(a)


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
        if not np.any(xp.data(a) == 0):
            return grad * (out / a)
        return prod_safe_zeros_backward(grad, a, ctx.axis)


def prod_safe_zeros_backward(grad, a, axis: int):
    """The product of the others along ``axis`` with no division, safe with zeros (PyTorch's
    ``prod_safe_zeros_backward``): the running product of the elements before each one
    (``cumprod`` of ``[1, a0, a1, ...]``) times the one of the elements after it (the same
    from the other end, flipped)."""
    xp = namespace(grad)
    shape = xp.data(a).shape
    if 0 in shape:
        return xp.broadcast_to(grad, shape)
    n = shape[axis]
    if n == 1:
        return grad
    ones = xp.ones(shape[:axis] + (1,) + shape[axis + 1 :], xp.dtype(grad))
    before = xp.cumprod(xp.cat([ones, xp.narrow(a, axis, 0, n - 1)], axis), axis)
    after = xp.cat([ones, xp.flip(xp.narrow(a, axis, 1, n - 1), axis)], axis)
    return grad * (before * xp.flip(xp.cumprod(after, axis), axis))


class Cumsum(ArrayFunction):
    """Running sum along ``dim``: the gradient is the running sum of ``grad`` from the end."""

    node_name = "CumsumBackward0"
    n_params = 1

    @staticmethod
    def forward(ctx, a, dim):
        ctx.axis = axis = wrap_dim(dim, a.ndim)
        if a.ndim == 0:
            return a.astype(_integer_result(a) or a.dtype)
        if a.dtype == np.float32:  # PyTorch carries the sum in double, rounds each element
            out = c_order(np.cumsum(a, axis=axis, dtype=np.float64).astype(np.float32))
        else:
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
    keeps_zeros = (True,)  # grad / count * hits
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
        several = int(np.prod([a.shape[i] for i in axes])) > 1
        if several and ord not in (0, np.inf, -np.inf):  # PyTorch's order and dtype
            out = norm_sum(a, ord, axes, keepdim)
        elif a.ndim == 0 and dim is not None and ord not in (0, np.inf, -np.inf):
            # a 0-d tensor with a dim named goes through PyTorch's kernel too: |x| ** p, then
            # ** (1 / p), rounded in float32 (without a dim PyTorch returns |x|)
            out = norm_sum(a.reshape(1), ord, (0,), False).reshape(())
        elif ord == 1:
            out = wide.sum(axis=axes, keepdims=keepdim)
        elif ord == np.inf:
            out = wide.max(axis=axes, keepdims=keepdim, initial=0.0)
        elif ord == -np.inf:
            out = wide.min(axis=axes, keepdims=keepdim)
        elif ord == 0:
            out = (wide != 0).sum(axis=axes, keepdims=keepdim).astype(np.float64)
        elif a.size:  # one element a norm: |x| (PyTorch's abs)
            out = wide.sum(axis=axes, keepdims=keepdim)
        else:  # none: 0, or inf for a negative ord (PyTorch's fill)
            out = np.full(
                np.sum(wide, axis=axes, keepdims=keepdim).shape, np.inf if ord < 0 else 0.0
            )
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
        # |x| ** (p - 1) in place, as PyTorch's; the nodes made in PyTorch's order (its C++
        # evaluates the right operand of a product first)
        powered = _power(xp.abs(a), p - 1 if p < 2 else p - 2, in_place=True)
        if p < 1:
            powered = MaskedFill.call(powered, values == 0)
            scaled = xp.sign(a) * powered
            power = _power(norm, 1 - p)
            return scaled * grad * power
        scaled = xp.sign(a) * powered if p < 2 else a * powered
        return scaled * MaskedFill.call(grad / _power(norm, p - 1), norms == 0)
