"""``minigrad.cat``, ``stack``, ``unbind``, ``where``: joining, splitting and selecting.

Also ``iter(x)``, which walks ``unbind(x)`` as PyTorch does. Indexing itself
(``x[i]``, ``x[i] = v``) is bound straight to the ops in ``minigrad/ops/indexing.py``
(an index is read in ``getitem.py``) and ``setitem.py``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .._dtypes import get_default_dtype
from ..ops import indexing as I
from ..ops import joining as J
from ..ops.number_range import scalar_beside
from ..tensor import Tensor, wrap_dim
from ._args import _operand


def cat(tensors: Sequence[Tensor], dim: int = 0) -> Tensor:
    if not tensors:
        raise ValueError("minigrad.cat(): expected a non-empty list of Tensors")
    return J.Cat.apply(*tensors, dim)


concat = cat


def unbind(input: Tensor, dim: int = 0) -> tuple[Tensor, ...]:
    """The slices along ``dim``, as a tuple of views (what iterating over a tensor gives)."""
    if input.ndim == 0 and -1 <= dim <= 0:  # PyTorch wraps the dim first, then refuses
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    axis = wrap_dim(dim, input.ndim, scalar_ok=input.ndim == 0)
    return I.Unbind.apply(input, axis)


def _iter(self):
    if self._data.ndim == 0:
        raise TypeError("iteration over a 0-d tensor")
    return iter(unbind(self, 0))


def stack(tensors: Sequence[Tensor], dim: int = 0) -> Tensor:
    if not tensors:
        raise RuntimeError("stack expects a non-empty TensorList")
    return J.Stack.apply(*tensors, dim)


def where(condition: Tensor, input: Tensor | float, other: Tensor | float) -> Tensor:
    cond = condition._data if isinstance(condition, Tensor) else np.asarray(condition)
    if cond.dtype != np.bool_:
        raise RuntimeError(
            f"where expected condition to be a boolean tensor, but got a tensor "
            f"with dtype {condition.dtype.legacy_name.replace('Tensor', '')}"
        )
    input, other = _operand(input), _operand(other)
    if isinstance(input, Tensor) is not isinstance(other, Tensor):  # one Python number
        tensor = input if isinstance(input, Tensor) else other
        floats = get_default_dtype().numpy
        if not isinstance(input, Tensor):
            input = scalar_beside(input, tensor._data.dtype, floats)  # PyTorch's range check
        else:
            other = scalar_beside(other, tensor._data.dtype, floats)
    out = J.Where.apply(input, other, cond)
    fn = out._grad_fn
    if fn is not None and isinstance(condition, Tensor) and type(condition._vc) is list:
        # PyTorch saves the condition: changed in place, backward refuses it (past the edges)
        fn._saved_checks = (condition._vc, condition._vc[0], len(fn._next))
    return out
