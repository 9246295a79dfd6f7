"""logsumexp: ``log(sum(exp(x)))`` along dims, without overflowing.

The largest value is taken out before ``exp`` and added back after ``log``, as PyTorch does:
``logsumexp([1000., 1000.])`` is ``1000.6931``, not ``inf``. Its gradient is the softmax of
``x`` along the same dims, written as PyTorch writes it: ``grad * exp(x - result)``.
"""

from __future__ import annotations

import numpy as np

from .._dtypes import get_default_dtype
from ..autograd.function import ArrayFunction
from .namespace import NumpyNamespace, namespace
from .reduction import reduce_dims


def as_unsigned(dim: int) -> int:
    """A dim as PyTorch's node keeps it (``_saved_dim``): a negative one read as uint64."""
    return dim if dim >= 0 else dim + 2**64


def _exp(x: np.ndarray) -> np.ndarray:
    """exp, a float32 one rounded once from float64 (PyTorch's is correctly rounded)."""
    return np.exp(x.astype(np.float64)).astype(x.dtype) if x.dtype == np.float32 else np.exp(x)


class Logsumexp(ArrayFunction):
    node_name = "LogsumexpBackward0"
    saved_names = ("self", "result")
    saved_settings = {"dim": "dims", "keepdim": "keepdim"}
    n_params = 2

    @staticmethod
    def forward(ctx, a, dims, keepdim):
        axes = reduce_dims(dims, a.ndim)
        if not dims and a.ndim and a.size:  # PyTorch reduces all, then fails to add the max
            raise RuntimeError(
                f"output with shape [] doesn't match the broadcast shape {[1] * a.ndim}"
            )
        if a.dtype.kind in "biu":  # integers and bools: in the default float dtype
            a = a.astype(get_default_dtype().numpy)
        ctx.dims = tuple(as_unsigned(d) for d in dims)
        ctx.axes, ctx.keepdim = axes, keepdim
        if a.size:
            top = np.array(np.amax(a, axis=axes, keepdims=True))
            top[np.abs(top) == np.inf] = 0  # all -inf (or an inf): nothing to take out
            total = _exp(a - top).sum(axis=axes, keepdims=keepdim)
            out = NumpyNamespace.log(total) + (top if keepdim else top.squeeze(axes))
        else:  # nothing to take the max of: log(0) is -inf
            out = NumpyNamespace.log(np.exp(a).sum(axis=axes or None, keepdims=keepdim))
        out = np.asarray(out, dtype=a.dtype, order="C")  # a new tensor: C-ordered, as PyTorch's
        ctx.save_for_backward(a, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        """PyTorch's ``logsumexp_backward``: ``grad * (self - result).exp()``."""
        a, result = ctx.saved_tensors
        xp = namespace(grad)
        if not ctx.keepdim and a.ndim:
            grad = xp.expand_dims(grad, ctx.axes)
            result = xp.expand_dims(result, ctx.axes)
        return grad * xp.exp(a - result)
