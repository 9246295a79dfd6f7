"""``minigrad.sum``, ``mean``, ``max``/``min`` (with indices), ``var``, ``std``, ``softmax``, ...

The reductions, with PyTorch's argument conventions: ``dim=None`` reduces
everything, ``max(x, dim)`` returns ``(values, indices)`` with names, and
``var(x, False)`` is the old positional ``unbiased``. Tensor methods reuse them.
"""

from __future__ import annotations

import numpy as np

from .. import _dtypes
from .._dtypes import to_numpy_dtype
from ..autograd.grad_mode import is_grad_enabled
from ..ops import extremes as EXT
from ..ops import logsumexp as LSE
from ..ops import reduction as R
from ..ops import shape as S
from ..ops import softmax as SM
from ..ops import variance as VAR
from ..ops._common import LEGACY_NAMES
from ..tensor import Tensor, new_tensor, wrap_dim
from ._args import Dims, _dims_arg, int_list
from .arithmetic import maximum, minimum


def _reduce_dtype(input, dtype, mean: bool):
    """The numpy dtype of ``sum(dtype=)``/``mean(dtype=)``, with PyTorch's refusals."""
    target = to_numpy_dtype(dtype)
    if mean and target.kind != "f":
        raise RuntimeError(
            "mean(): could not infer output dtype. Optional dtype must be either a floating "
            f"point or complex dtype. Got: {LEGACY_NAMES[target]}"
        )
    if target.kind != "f" and input.requires_grad and is_grad_enabled():
        raise RuntimeError(f"Autograd not support dtype: {LEGACY_NAMES[target]}")
    return target


def sum(  # noqa: A001
    input: Tensor,
    dim: Dims = None,
    keepdim: bool = False,
    *,
    dtype: _dtypes.dtype | None = None,
    axis: Dims = None,
    keepdims: bool | None = None,
) -> Tensor:
    if axis is not None:  # numpy's names, which PyTorch accepts too
        dim = axis
    if keepdims is not None:
        keepdim = keepdims
    if dim is not None and type(dim) is not int:
        dim = _dims_arg("sum", dim)
    if dtype is not None:  # summed in dtype, one node (no cast before it), as in PyTorch
        target = _reduce_dtype(input, dtype, mean=False)
        if dim is None and not keepdim:
            return R.SumAs.apply(input, target)
        return R.SumDimAs.apply(input, dim, keepdim, target)
    if dim is None and not keepdim:
        return R.Sum.apply(input)
    return R.SumDim.apply(input, dim, keepdim)


def mean(
    input: Tensor,
    dim: Dims = None,
    keepdim: bool = False,
    *,
    dtype: _dtypes.dtype | None = None,
    axis: Dims = None,
    keepdims: bool | None = None,
) -> Tensor:
    if axis is not None:
        dim = axis
    if keepdims is not None:
        keepdim = keepdims
    if dim is not None and type(dim) is not int:
        dim = _dims_arg("mean", dim)
    if dtype is not None:
        target = _reduce_dtype(input, dtype, mean=True)
        if dim is None and not keepdim:
            return R.MeanAs.apply(input, target)
        return R.MeanDimAs.apply(input, dim, keepdim, target)
    if dim is None and not keepdim:
        return R.Mean.apply(input)
    return R.MeanDim.apply(input, dim, keepdim)


class _MinMax(tuple):
    """``(values, indices)`` with names, like ``torch.return_types.max``."""

    __slots__ = ()
    _name = "max"

    @property
    def values(self) -> Tensor:
        return self[0]

    @property
    def indices(self) -> Tensor:
        return self[1]

    def __repr__(self) -> str:
        return f"minigrad.return_types.{self._name}(\nvalues={self[0]!r},\nindices={self[1]!r})"


_Max = type("max", (_MinMax,), {"__slots__": (), "__module__": "minigrad.return_types"})
_Min = type(
    "min", (_MinMax,), {"__slots__": (), "_name": "min", "__module__": "minigrad.return_types"}
)


def _extreme(input, dim, keepdim, largest: bool):
    if isinstance(dim, Tensor):  # max(a, b) is maximum(a, b)
        return maximum(input, dim) if largest else minimum(input, dim)
    if dim is None:
        return (EXT.Extreme if largest else EXT.Min).apply(input, largest)
    values = (EXT.ExtremeDim if largest else EXT.MinDim).apply(input, dim, keepdim, largest)
    indices = new_tensor(
        values._grad_fn.indices
        if values._grad_fn
        else _argextreme(input._data, dim, keepdim, largest)
    )
    return (_Max if largest else _Min)((values, indices))


def _argextreme(a, dim, keepdim, largest):
    axis = wrap_dim(dim, a.ndim)
    if a.ndim == 0:
        return np.zeros((), np.int64)
    if a.shape[axis] == 0:
        name = "argmax" if largest else "argmin"
        raise IndexError(f"{name}(): Expected reduction dim {axis} to have non-zero size.")
    out = np.asarray((np.argmax if largest else np.argmin)(a, axis=axis))  # 1-d: an array too
    return np.expand_dims(out, axis) if keepdim else out


def max(  # noqa: A001
    input: Tensor,
    dim: int | None = None,
    keepdim: bool = False,
    *,
    axis: int | None = None,
    keepdims: bool | None = None,
) -> Tensor | tuple[Tensor, Tensor]:
    if axis is not None:
        dim = axis
    return _extreme(input, dim, keepdim if keepdims is None else keepdims, True)


def min(  # noqa: A001
    input: Tensor,
    dim: int | None = None,
    keepdim: bool = False,
    *,
    axis: int | None = None,
    keepdims: bool | None = None,
) -> Tensor | tuple[Tensor, Tensor]:
    if axis is not None:
        dim = axis
    return _extreme(input, dim, keepdim if keepdims is None else keepdims, False)


def _no_empty(input, name):
    if input._data.size == 0:
        raise IndexError(
            f"{name}(): Expected reduction dim to be specified for input.numel() == 0."
        )


def argmax(
    input: Tensor,
    dim: int | None = None,
    keepdim: bool = False,
    *,
    axis: int | None = None,
    keepdims: bool | None = None,
) -> Tensor:
    keepdim = keepdim if keepdims is None else keepdims
    return _index_of_extreme(input, dim if axis is None else axis, keepdim, largest=True)


def argmin(
    input: Tensor,
    dim: int | None = None,
    keepdim: bool = False,
    *,
    axis: int | None = None,
    keepdims: bool | None = None,
) -> Tensor:
    keepdim = keepdim if keepdims is None else keepdims
    return _index_of_extreme(input, dim if axis is None else axis, keepdim, largest=False)


def _index_of_extreme(input: Tensor, dim: int | None, keepdim: bool, largest: bool) -> Tensor:
    """argmax (``largest``) or argmin as an int64 tensor, with PyTorch's refusals."""
    name = "argmax" if largest else "argmin"
    if input._data.dtype == np.bool_:
        raise RuntimeError(f"{name}(): does not support bool input")
    if dim is None:
        _no_empty(input, name)
        pick = np.argmax if largest else np.argmin
        return new_tensor(np.asarray(pick(input._data), dtype=np.int64))
    return new_tensor(_argextreme(input._data, dim, keepdim, largest).astype(np.int64))


def _correction(unbiased, correction) -> int:
    if correction is not None:
        return correction
    return 1 if unbiased is None or unbiased else 0


def var(
    input: Tensor,
    dim: Dims = None,
    unbiased: bool | None = None,
    keepdim: bool = False,
    *,
    correction: float | None = None,
    axis: Dims = None,
    keepdims: bool | None = None,
) -> Tensor:
    if axis is not None:
        dim = axis
    if keepdims is not None:
        keepdim = keepdims
    if isinstance(dim, bool):  # var(x, False): the old positional 'unbiased'
        dim, unbiased = None, dim
    return VAR.Var.apply(input, dim, _correction(unbiased, correction), keepdim)


def std(
    input: Tensor,
    dim: Dims = None,
    unbiased: bool | None = None,
    keepdim: bool = False,
    *,
    correction: float | None = None,
    axis: Dims = None,
    keepdims: bool | None = None,
) -> Tensor:
    if axis is not None:
        dim = axis
    if keepdims is not None:
        keepdim = keepdims
    if isinstance(dim, bool):
        dim, unbiased = None, dim
    return VAR.Std.apply(input, dim, _correction(unbiased, correction), keepdim)


_NO_DIM = object()


def softmax(input: Tensor, dim: int = _NO_DIM, dtype: _dtypes.dtype | None = None) -> Tensor:
    if dim is _NO_DIM:
        raise TypeError('softmax() missing 1 required positional arguments: "dim"')
    return SM.Softmax.apply(input if dtype is None else input.to(dtype), dim)


def log_softmax(input: Tensor, dim: int = _NO_DIM, dtype: _dtypes.dtype | None = None) -> Tensor:
    if dim is _NO_DIM:
        raise TypeError('log_softmax() missing 1 required positional arguments: "dim"')
    return SM.LogSoftmax.apply(input if dtype is None else input.to(dtype), dim)


def logsumexp(
    input: Tensor, dim: Dims = _NO_DIM, keepdim: bool = False, *, keepdims: bool | None = None
) -> Tensor:
    """``log(sum(exp(x)))`` over ``dim`` (an int or a tuple), computed without overflow."""
    if keepdims is not None:
        keepdim = keepdims
    if dim is _NO_DIM:
        raise TypeError('logsumexp() missing 1 required positional arguments: "dim"')
    return LSE.Logsumexp.apply(input, int_list("logsumexp", "dim", dim, 1), keepdim)


def sum_to_size(input: Tensor, *size: int) -> Tensor:
    """Sum the dimensions that broadcasting would have expanded, down to ``size``."""
    shape = tuple(size[0]) if len(size) == 1 and not isinstance(size[0], int) else size
    have = tuple(input._data.shape)
    lead = len(have) - len(shape)
    if lead < 0 or any(n != 1 and n != m for n, m in zip(shape, have[lead:])):
        raise RuntimeError(f"size {{{list(shape)}}} is not expandable to size {{{list(have)}}}.")
    dims = tuple(range(lead)) + tuple(
        i + lead for i, n in enumerate(shape) if n == 1 and have[i + lead] != 1
    )
    if not shape:  # down to a scalar: the sum of everything (SumBackward0), even from 0-d
        return R.Sum.apply(input)
    out = R.SumDim.apply(input, dims, True) if dims else input
    return S.View.apply(out, shape) if lead else out
