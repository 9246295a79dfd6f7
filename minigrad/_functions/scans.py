"""``minigrad.prod``, ``cumsum``, ``cumprod``, ``amax``/``amin``, ``norm``, ``linalg.vector_norm``.

Functional forms with PyTorch's arguments (``dim``, ``keepdim``, ``dtype``); the Tensor
methods (``x.norm()``, ``x.cumsum(0)``) are these same functions.
"""

from __future__ import annotations

import math

from .._dtypes import bool as bool_
from ..ops import cumprod as CP
from ..ops import scans as SC
from ..tensor import Tensor
from ._args import _dims_arg


def prod(
    input: Tensor,
    dim: int | None = None,
    keepdim: bool = False,
    *,
    dtype=None,
    axis=None,
    keepdims: bool | None = None,
) -> Tensor:
    """The product of all elements, or along ``dim`` (``axis`` is its numpy name)."""
    if axis is not None:
        dim = axis
    if keepdims is not None:
        keepdim = keepdims
    if dtype is not None:
        input = input.to(dtype)
    if dim is None:
        return _kept_in(dtype, SC.Prod.apply(input))
    return _kept_in(dtype, SC.ProdDim.apply(input, _dims_arg("prod", dim), keepdim))


def cumsum(input: Tensor, dim: int | None = None, *, dtype=None, axis=None) -> Tensor:
    """Running sums along ``dim``: ``cumsum([1, 2, 3], 0)`` is ``[1, 3, 6]``."""
    if axis is not None:
        dim = axis
    if dim is None:
        raise TypeError('cumsum() missing 1 required positional arguments: "dim"')
    if dtype is not None:
        input = input.to(dtype)
    return _kept_in(dtype, SC.Cumsum.apply(input, dim), "cumsum")


def cumprod(input: Tensor, dim: int | None = None, *, dtype=None, axis=None) -> Tensor:
    """Running products along ``dim``: ``cumprod([1, 2, 3], 0)`` is ``[1, 2, 6]``."""
    if axis is not None:
        dim = axis
    if dim is None:
        raise TypeError('cumprod() missing 1 required positional arguments: "dim"')
    if dtype is not None:
        input = input.to(dtype)
    return _kept_in(dtype, CP.Cumprod.apply(input, dim), "cumprod")


def _kept_in(dtype, result: Tensor, scan: str | None = None) -> Tensor:
    """An integer or bool ``dtype=`` is the result's (the ops widen integers to int64 when no
    dtype is asked for); a running sum or product has no bool kernel in PyTorch. Integers
    need no graph, and their sums and products wrap the same in any width."""
    if dtype is None or result.dtype == dtype:
        return result
    if scan is not None and dtype == bool_:
        raise NotImplementedError(f"\"{scan}_out_cpu\" not implemented for 'Bool'")
    return result.to(dtype)


def _all_dims(dim):
    return None if dim is None or (isinstance(dim, (tuple, list)) and len(dim) == 0) else dim


def amax(
    input: Tensor, dim=(), keepdim: bool = False, *, axis=None, keepdims: bool | None = None
) -> Tensor:
    """The largest values over ``dim`` (all dims by default), without their indices."""
    if axis is not None:
        dim = axis
    keepdim = keepdim if keepdims is None else keepdims
    return SC.Amax.apply(input, _all_dims(_dims_arg("amax", dim)), keepdim)


def amin(
    input: Tensor, dim=(), keepdim: bool = False, *, axis=None, keepdims: bool | None = None
) -> Tensor:
    """The smallest values over ``dim`` (all dims by default), without their indices."""
    if axis is not None:
        dim = axis
    keepdim = keepdim if keepdims is None else keepdims
    return SC.Amin.apply(input, _all_dims(_dims_arg("amin", dim)), keepdim)


def vector_norm(
    x: Tensor, ord: float = 2, dim=None, keepdim: bool = False, *, dtype=None, keepdims=None
) -> Tensor:  # noqa: A002 - PyTorch's name
    """``(sum |x| ** ord) ** (1 / ord)`` over ``dim`` (all elements by default)."""
    if keepdims is not None:  # numpy's name, which PyTorch accepts too
        keepdim = keepdims
    if dtype is not None:
        x = x.to(dtype)
    return SC.VectorNorm.apply(
        x, float(ord), _all_dims(_dims_arg("linalg_vector_norm", dim)), keepdim
    )


def norm(input: Tensor, p="fro", dim=None, keepdim: bool = False, dtype=None) -> Tensor:
    """``x.norm()``: the 2-norm of all elements; ``p`` and ``dim`` as in ``vector_norm``."""
    if p == "fro" or p is None:
        p = 2
    if isinstance(p, str):
        raise NotImplementedError(f"minigrad.norm supports vector norms only, not p={p!r}")
    if math.isnan(float(p)):
        raise RuntimeError("linalg.vector_norm: ord must not be nan")
    return vector_norm(input, p, dim, keepdim, dtype=dtype)
