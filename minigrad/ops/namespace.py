"""One backward formula, two kinds of values: numpy arrays, or Tensors that record a graph.

An ordinary ``backward()`` runs every op's ``backward`` on numpy arrays: fast, no graph.
With ``create_graph=True`` (gradients of gradients) the engine runs the *same* ``backward``
on Tensors with grad mode on: ``grad`` is a Tensor, ``ctx.saved_tensors`` gives back the
Tensors forward saved (the inputs and output themselves, connected to their graph), and
every operation in the formula records a node, so the gradient can be differentiated again.

How an op writes its backward so that it works both ways:

- Use operators (``+ - * / ** @``, comparisons, ``x[key]``) on ``grad`` and on what
  ``ctx.saved_tensors`` returns: they mean the same on arrays and on Tensors.
- For functions, ask the namespace of the gradient, ``xp = namespace(grad)``, and write
  ``xp.exp(x)``, ``xp.where(cond, a, b)``, ``xp.sum(x, axes, keepdims)``,
  ``xp.sum_to_shape(g, shape)``, ... (listed in ``NumpyNamespace``): numpy functions in
  the fast path, minigrad's differentiable ops under ``create_graph``. A mask or an
  index computed from a value is a constant: compute it on ``xp.data(x)`` with numpy.
- Save inputs or the output with ``ctx.save_for_backward`` (never an intermediate array:
  under ``create_graph`` only inputs and outputs can be tied back to the graph; recompute
  the rest in backward). Settings (``ctx.axis``, an index, a mask) are plain attributes
  and stay constants.
- Where PyTorch names the gradient's node (``TanhBackwardBackward0``), the formula is an op
  of its own (``TanhBackward``) whose ``forward`` is the numpy formula; the caller writes
  ``TanhBackward.call(grad, out)``: its forward on arrays, its ``apply`` on Tensors.

Example (``minigrad/ops/unary.py``)::

    class Sin(ArrayFunction):
        @staticmethod
        def forward(ctx, a):
            ctx.save_for_backward(a)
            return np.sin(a)

        @staticmethod
        def backward(ctx, grad):
            (a,) = ctx.saved_tensors
            return grad * namespace(grad).cos(a)

Test a new op with ``gradcheck`` and ``gradgradcheck`` (tests/test_double_backward.py).
"""

from __future__ import annotations

from operator import attrgetter

import numpy as np

from .._dtypes import from_numpy_dtype
from ..autograd.accumulate_grad import sum_to_shape
from ..tensor import Tensor, new_tensor
from ._summation import float_mean, float_sum, summable
from .array_kernels import rounded_once, running_product, sign_of

__all__ = ["namespace", "NumpyNamespace", "TensorNamespace"]


def _sorted_axes(axes, ndim: int) -> tuple:
    """numpy's ``axis`` argument (None, an int or a tuple; negative counts from the end) as
    the sorted tuple ``float_sum`` takes."""
    if axes is None:
        return tuple(range(ndim))
    if isinstance(axes, int):
        return (axes % ndim,) if ndim else ()
    return tuple(sorted(a % ndim for a in axes))


def _np_broadcast_to(x: np.ndarray, shape: tuple) -> np.ndarray:
    """A new (writeable) array: the result may be handed on as a gradient and accumulated."""
    out = np.empty(shape, x.dtype)
    out[...] = x
    return out


class NumpyNamespace:
    """The functions a backward formula may call, on numpy arrays (the fast path)."""

    exp = staticmethod(rounded_once(np.exp))  # as the Exp op: PyTorch rounds float32 exp once
    log = staticmethod(rounded_once(np.log))
    sqrt = staticmethod(np.sqrt)
    sin = staticmethod(rounded_once(np.sin))
    cos = staticmethod(rounded_once(np.cos))
    sign = staticmethod(sign_of)  # the sign of nan is 0, as in PyTorch
    abs = staticmethod(np.abs)
    where = staticmethod(np.where)
    matmul = staticmethod(np.matmul)
    swapaxes = staticmethod(np.swapaxes)
    expand_dims = staticmethod(np.expand_dims)
    broadcast_to = staticmethod(_np_broadcast_to)
    sum_to_shape = staticmethod(sum_to_shape)  # the base's, which un-broadcasts every op
    cumprod = staticmethod(running_product)

    @staticmethod
    def cat(parts, axis: int):
        return np.concatenate(parts, axis=axis)

    @staticmethod
    def narrow(x, axis: int, start: int, length: int):
        return x[(slice(None),) * axis + (slice(start, start + length),)]

    @staticmethod
    def flip(x, axis: int):
        return np.flip(x, axis)

    @staticmethod
    def ones(shape: tuple, dtype) -> np.ndarray:
        return np.ones(shape, dtype)

    @staticmethod
    def contiguous(x):
        return x

    @staticmethod
    def sum(x, axes=None, keepdims=False):
        if x.dtype.char in summable:  # float32, float64: added in PyTorch's order
            return float_sum(x, _sorted_axes(axes, x.ndim), keepdims)
        return x.sum(axis=axes, keepdims=keepdims)

    @staticmethod
    def mean(x, axes, keepdims=False):
        if x.dtype.char in summable:  # PyTorch's sum, then divided (nan when empty)
            return float_mean(x, _sorted_axes(axes, x.ndim), keepdims)
        if x.size == 0:  # nan, without numpy's "Mean of empty slice" warning
            return np.add.reduce(x, axis=axes, keepdims=keepdims) / np.array(0, x.dtype)
        return x.mean(axis=axes, keepdims=keepdims)

    @staticmethod
    def reshape(x, shape):
        return x.reshape(shape)

    @staticmethod
    def permute(x, axes):
        return x.transpose(axes)

    t = staticmethod(attrgetter("T"))  # a C call: this one is on the hot path of Linear

    @staticmethod
    def astype(x, dtype):
        return x.astype(dtype)

    @staticmethod
    def zeros_like(x):
        return np.zeros_like(x)

    log1p = staticmethod(rounded_once(np.log1p))

    @staticmethod
    def copy(x):
        return np.array(x, order="C")  # an array also where numpy gave a scalar (0-d)

    @staticmethod
    def clamp_min(x, lo):
        return np.maximum(x, lo)

    @staticmethod
    def clamp_max(x, hi):
        return np.minimum(x, hi)

    @staticmethod
    def data(x):
        """The values, to compute a mask or an index from (a constant either way)."""
        return x

    @staticmethod
    def constant(x: np.ndarray) -> np.ndarray:
        """An array computed from values (a count, a mask) used as an operand: a constant."""
        return x

    @staticmethod
    def wrapped(x, like):
        """A Python number used as an operand: itself on arrays."""
        return x

    @staticmethod
    def zeros(shape: tuple, dtype) -> np.ndarray:
        """Fresh zeros to fill or scatter the gradient into (PyTorch's ``grad.new_zeros``)."""
        return np.zeros(shape, dtype)

    @staticmethod
    def clamp_min_values(x: np.ndarray, lo: float) -> np.ndarray:
        """Clamp the values of a fresh intermediate, unrecorded (PyTorch: under no_grad)."""
        return np.maximum(x, lo, out=x)

    @staticmethod
    def masked_fill_(x: np.ndarray, mask: np.ndarray, value) -> np.ndarray:
        """``value`` written into ``x`` where ``mask``, in place (``x`` is fresh zeros)."""
        x[mask] = value
        return x

    @staticmethod
    def detach(x):
        return x

    @staticmethod
    def dtype(x) -> np.dtype:
        return x.dtype


class TensorNamespace:
    """The same functions on Tensors: each records its node (with PyTorch's name)."""

    exp = staticmethod(lambda x: x.exp())
    log = staticmethod(lambda x: x.log())
    sqrt = staticmethod(lambda x: x.sqrt())
    sin = staticmethod(lambda x: x.sin())
    cos = staticmethod(lambda x: x.cos())
    sign = staticmethod(lambda x: x.sgn())
    abs = staticmethod(lambda x: x.abs())
    matmul = staticmethod(lambda a, b: a @ b)
    swapaxes = staticmethod(lambda x, d0, d1: x.transpose(d0, d1))

    @staticmethod
    def where(cond, a, b):
        cond = cond._data if isinstance(cond, Tensor) else np.asarray(cond)
        if not isinstance(a, Tensor):  # a number or an array: a constant of b's dtype
            a = new_tensor(np.asarray(a, dtype=b._data.dtype))
        return a.where(cond, b)

    @staticmethod
    def mean(x, axes, keepdims=False):
        return x.mean(axes, keepdims)

    cumprod = staticmethod(lambda x, axis: x.cumprod(axis))
    narrow = staticmethod(lambda x, axis, start, length: x.narrow(axis, start, length))
    flip = staticmethod(lambda x, axis: x.flip(axis))
    contiguous = staticmethod(lambda x: x.contiguous())  # CloneBackward0 if it copies

    @staticmethod
    def cat(parts, axis: int):
        from .joining import Cat  # joining's formulas use this module

        return Cat.apply(*parts, axis)

    @staticmethod
    def ones(shape: tuple, dtype) -> Tensor:
        """A constant (no edge), as PyTorch's ``at::ones(..., grad.options())``."""
        return new_tensor(np.ones(shape, dtype))

    @staticmethod
    def sum(x, axes=None, keepdims=False):
        if axes is None and not keepdims:
            return x.sum()
        return x.sum(tuple(range(x.ndim)) if axes is None else axes, keepdims)

    @staticmethod
    def expand_dims(x, axes):
        for a in sorted((axes,) if isinstance(axes, int) else axes):
            x = x.unsqueeze(a)
        return x

    @staticmethod
    def broadcast_to(x, shape):
        return x.expand(shape)

    @staticmethod
    def sum_to_shape(x, shape):
        return x if tuple(x.shape) == tuple(shape) else x.sum_to_size(shape)

    @staticmethod
    def reshape(x, shape):
        return x.reshape(shape)

    @staticmethod
    def permute(x, axes):
        return x.permute(axes)

    @staticmethod
    def t(x):
        return x.t()

    @staticmethod
    def astype(x, dtype):
        return x.to(from_numpy_dtype(np.dtype(dtype)))

    @staticmethod
    def zeros_like(x):
        return new_tensor(np.zeros_like(x._data))

    log1p = staticmethod(lambda x: (x + 1).log())

    @staticmethod
    def copy(x):
        """A copy recorded as PyTorch's ``CopyBackwards`` (an empty tensor, then ``copy_``)."""
        return new_tensor(np.empty_like(x._data)).copy_(x)

    @staticmethod
    def clamp_min(x, lo):
        return x.clamp(min=lo)

    @staticmethod
    def clamp_max(x, hi):
        return x.clamp(max=hi)

    @staticmethod
    def data(x):
        return x._data if isinstance(x, Tensor) else x

    @staticmethod
    def constant(x: np.ndarray) -> Tensor:
        return new_tensor(np.asarray(x))

    @staticmethod
    def wrapped(x, like: Tensor):
        """A Python number as PyTorch wraps it: a 0-d constant (no edge) of ``like``'s dtype."""
        return x if isinstance(x, Tensor) else new_tensor(np.asarray(x, like._data.dtype))

    @staticmethod
    def zeros(shape: tuple, dtype) -> Tensor:
        return new_tensor(np.zeros(shape, dtype))

    @staticmethod
    def clamp_min_values(x: Tensor, lo: float) -> Tensor:
        """The values change, the node stays (PyTorch's ``clamp_min_`` under no_grad)."""
        np.maximum(x._data, lo, out=x._data)
        return x

    @staticmethod
    def masked_fill_(x: Tensor, mask: np.ndarray, value: Tensor) -> Tensor:
        """Recorded as PyTorch records it: ``MaskedFillBackward1``, no edge to the zeros."""
        return x.masked_fill_(new_tensor(mask), value)

    @staticmethod
    def detach(x):
        return x.detach() if isinstance(x, Tensor) else x

    @staticmethod
    def dtype(x) -> np.dtype:
        return x._data.dtype


def namespace(x) -> type[NumpyNamespace] | type[TensorNamespace]:
    """The namespace that fits ``x``: numpy's for arrays, minigrad's for Tensors."""
    return TensorNamespace if isinstance(x, Tensor) else NumpyNamespace
