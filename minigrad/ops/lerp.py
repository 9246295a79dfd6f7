"""``lerp(self, end, weight)``: ``self + weight * (end - self)``, a blend of two tensors.

Tutorials meet it as the running average of an optimizer or of a model's weights
(``avg.lerp_(param, 0.01)``) and as a mix between two images. PyTorch computes it in two halves
for accuracy (pytorch/pytorch#18871): a weight below 0.5 in magnitude starts from ``self``,
``fma(weight, end - self, self)``; any other from ``end``, ``fma(weight - 1, end - self, end)``,
so that weight 1 gives ``end`` exactly. Both are one fused multiply-add (its vector and scalar
loops alike, up to the sign of a zero), rounded once; ``_fma.fma`` does the same in numpy, so
the last bit is PyTorch's.
float16 is computed in float32 and rounded, as PyTorch's ``opmath`` does.

The gradients are linear: ``grad * (1 - weight)`` for ``self``, ``grad * weight`` for ``end``
and ``grad * (end - self)`` for a tensor ``weight``. A number weight is ``LerpBackward0``, a
tensor one ``LerpBackward1``.
"""

from __future__ import annotations

import numpy as np

from .._dtypes import LEGACY_NAMES, result_dtype
from ..autograd.function import ArrayFunction
from ._common import broadcast_shapes, in_grad_dtype
from ._fma import fma
from ._simd_ties import vectorised
from .arithmetic import MulScalar, Sub
from .namespace import namespace
from .number_range import check_number_fits

_F16 = np.dtype(np.float16)


def _lerp(a, b, w, dtype: np.dtype, operands: tuple) -> np.ndarray:
    """PyTorch's kernel: the half of the weight chooses the starting point. Its vector loop
    writes the upper half ``fma(weight - 1, end - self, end)``, its scalar loop (the tail of
    a row, a small tensor) ``end - (end - self) * (1 - weight)``, contracted to one fma by the
    compiler: the same number, but for the sign of a zero. lerp's kernel is PyTorch's AVX2
    build (no AVX-512 one is registered for it): blocks of 16 floats or 8 doubles, which
    ``_simd_ties.vectorised`` finds (``operands``: the inputs, whose layout decides)."""
    compute = np.dtype(np.float32) if dtype == _F16 else dtype
    a, b, w = (np.asarray(v, compute) for v in (a, b, w))
    one = np.array(1, compute)
    with np.errstate(all="ignore"):
        diff = b - a
        upper = fma(-diff, one - w, b)
        shape = np.broadcast_shapes(a.shape, b.shape, w.shape)
        vector = vectorised(shape, [np.asarray(v) for v in operands], compute)
        if vector is not None and compute == dtype:
            upper = np.where(vector, fma(w - one, diff, b), upper)
        out = np.where(np.abs(w) < 0.5, fma(w, diff, a), upper)
    return np.asarray(out, dtype)


def _no_kernel(kernel: str, dtype: np.dtype) -> None:
    if dtype.kind != "f":
        raise NotImplementedError(
            f"\"{kernel}\" not implemented for '{LEGACY_NAMES[np.dtype(dtype)]}'"
        )


class LerpScalar(ArrayFunction):
    """``lerp(self, end, number)``."""

    node_name = "LerpBackward0"
    broadcasts = True
    n_params = 1
    saved_settings = {"weight": "weight"}

    @staticmethod
    def forward(ctx, a, b, weight):
        broadcast_shapes(np.shape(a), np.shape(b))
        dtype = result_dtype(np.asarray(a), np.asarray(b))
        _no_kernel("lerp_kernel_scalar", dtype)
        check_number_fits(weight, dtype, filling=True)  # 1e300 is no float32
        ctx.weight = weight
        return _lerp(a, b, weight, dtype, (a, b))

    @staticmethod
    def backward(ctx, grad):
        """PyTorch multiplies by the number ``1 - weight`` computed in double."""
        w = ctx.weight
        return MulScalar.call(grad, 1 - float(w)), MulScalar.call(grad, w)


class LerpTensor(ArrayFunction):
    """``lerp(self, end, weight)`` with a tensor weight (of the inputs' dtype, or 0-d)."""

    node_name = "LerpBackward1"
    broadcasts = True
    saved_names = ("self", "end", "weight")
    saved_when = (2, 2, None)  # self and end only for weight's gradient

    @staticmethod
    def forward(ctx, a, b, w):
        broadcast_shapes(np.shape(a), np.shape(b), np.shape(w))  # PyTorch's error, if any
        ctx.save_for_backward(a, b, w)
        dtype = result_dtype(np.asarray(a), np.asarray(b), np.asarray(w))
        _no_kernel("lerp_kernel_tensor", dtype)
        return _lerp(a, b, w, dtype, (a, b, w))

    @staticmethod
    def backward(ctx, grad):
        """``1 - weight`` is PyTorch's ``SubBackward0`` with the 1 as an input without edge."""
        a, b, w = ctx.saved_tensors
        one_minus = None if ctx._next[0] is None else Sub.call(_one_like(w, grad), w)
        grad_a = None if one_minus is None else grad * in_grad_dtype(one_minus, grad)
        grad_b = None if ctx._next[1] is None else grad * in_grad_dtype(w, grad)
        grad_w = None if ctx._next[2] is None else grad * in_grad_dtype(b - a, grad)
        return grad_a, grad_b, grad_w


def _one_like(w, grad):
    """PyTorch's ``1 - weight`` fills a tensor like ``weight`` with 1 first: of its dtype (a
    bool weight's gradient is refused as two bool tensors subtracted), a constant."""
    if isinstance(w, np.ndarray):
        return np.ones((), w.dtype)
    return namespace(grad).wrapped(1, w)
