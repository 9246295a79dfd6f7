"""``minigrad.gather``, ``masked_fill``, ``repeat``, ``chunk``, ``split``, ``narrow``, ``round``,
``normal``, ``bmm``, ``square``, ``tril``, ``triu``: what tutorials use beside the basic ops.

Functional forms with PyTorch's arguments; the Tensor methods (``x.chunk(2)``) are these same
functions, bound in ``minigrad/_tensor_methods.py``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .._typename import type_name
from ..ops import bmm as BMM
from ..ops import gather_scatter as GS
from ..ops import masked as MASK
from ..ops import normal as NORMAL
from ..ops import powers as POW
from ..ops import rounding as ROUND
from ..ops import selection as SEL
from ..ops import triangles as TRI
from ..tensor import Tensor, wrap_dim
from ._args import _shape_args


def gather(input: Tensor, dim: int, index: Tensor) -> Tensor:
    """``out[i][j] = input[i][index[i][j]]`` for ``dim=1``; ``index`` is an int64 tensor."""
    if not isinstance(index, Tensor):
        raise TypeError(
            f"gather(): argument 'index' (position 2) must be Tensor, not {type_name(index)}"
        )
    return GS.Gather.apply(input, dim, index._data)


def masked_fill(input: Tensor, mask: Tensor, value: float | Tensor) -> Tensor:
    """``value`` where ``mask`` (a bool tensor) is True, ``input`` elsewhere."""
    if isinstance(value, Tensor):
        return MASK.MaskedFillTensor.apply(input, value, mask._data)
    return MASK.MaskedFill.apply(input, mask._data, value)


def repeat(input: Tensor, *sizes: int) -> Tensor:
    """Tile ``input``: ``x.repeat(2, 3)`` repeats rows twice and columns three times."""
    return SEL.Repeat.apply(input, tuple(int(s) for s in _shape_args(sizes)))


def narrow(input: Tensor, dim: int, start: int, length: int) -> Tensor:
    """The view ``input[..., start:start + length]`` along ``dim`` (a SliceBackward0)."""
    if input.ndim == 0:
        raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    axis = wrap_dim(dim, input.ndim)
    size = input._data.shape[axis]
    if not -size <= start <= size:
        raise IndexError(
            f"start out of range (expected to be in range of [{-size}, {size}], but got {start})"
        )
    start = start + size if start < 0 else start
    if length < 0:
        raise RuntimeError("narrow(): length must be non-negative.")
    if start + length > size:
        raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size ({size}).")
    return SEL.Slice.apply(input, axis, slice(start, start + length))


def split(input: Tensor, split_size_or_sections: int | Sequence[int], dim: int = 0) -> tuple:
    """Views of ``input`` along ``dim``: parts of one size (the last may be smaller), or of the
    sizes listed."""
    if input.ndim == 0:
        raise RuntimeError("split expects at least a 1-dimensional tensor")
    axis = wrap_dim(dim, input.ndim)
    size = input._data.shape[axis]
    if isinstance(split_size_or_sections, (list, tuple)):
        sizes = [int(s) for s in split_size_or_sections]
        if any(n < 0 for n in sizes):
            raise RuntimeError(
                "split_with_sizes expects split_sizes have only non-negative entries, but got "
                f"split_sizes={sizes}"
            )
        if sum(sizes) != size:
            raise RuntimeError(
                f"split_with_sizes expects split_sizes to sum exactly to {size} (input tensor's "
                f"size at dimension {dim}), but got split_sizes={sizes}"
            )
        op = SEL.SplitWithSizes
    else:
        step = int(split_size_or_sections)
        if step < 0 or (step == 0 and size != 0):
            raise RuntimeError(
                f"split_size can only be 0 if dimension size is 0, but got dimension size of {size}"
            )
        sizes = [min(step, size - i) for i in range(0, size, step)] if step else []
        sizes = sizes or [0]  # an empty dimension still gives one (empty) part
        op = SEL.Split
    return op.apply(input, axis, sizes)


def chunk(input: Tensor, chunks: int, dim: int = 0) -> tuple:
    """At most ``chunks`` views of equal size along ``dim`` (the last may be smaller)."""
    if chunks <= 0:
        raise RuntimeError("chunk expects `chunks` to be greater than 0, got: " + str(chunks))
    if input.ndim == 0:
        raise RuntimeError("chunk expects at least a 1-dimensional tensor")
    axis = wrap_dim(dim, input.ndim)
    size = input._data.shape[axis]
    if size == 0:  # PyTorch gives ``chunks`` empty parts
        return SEL.SplitWithSizes.apply(input, axis, [0] * chunks)
    return split(input, -(-size // chunks), dim)


def square(input: Tensor) -> Tensor:
    """``input ** 2`` (PyTorch records it as PowBackward0)."""
    return POW.PowScalar.apply(input, 2)


def bmm(input: Tensor, mat2: Tensor) -> Tensor:
    """A batch of matrix products: ``(b, n, m)`` and ``(b, m, p)`` give ``(b, n, p)``."""
    return BMM.Bmm.apply(input, mat2)


def round(input: Tensor, *, decimals: int = 0) -> Tensor:  # noqa: A001 - PyTorch's name
    """Round half to even (``round(2.5)`` is 2), to ``decimals`` places."""
    if decimals:
        return ROUND.RoundDecimals.apply(input, decimals)
    return ROUND.Round.apply(input)


def normal(mean=0.0, std=1.0, size=None, *, generator=None, dtype=None, requires_grad=False):
    """Samples of ``N(mean, std**2)``; ``mean`` and ``std`` may be tensors (then no ``size``)."""
    from .._random import randn  # noqa: PLC0415 - random numbers sit above the functions

    m, s = isinstance(mean, Tensor), isinstance(std, Tensor)
    if m and s:
        return NORMAL.Normal.apply(mean, std)
    if m:
        return NORMAL.NormalMean.apply(mean, float(std))
    if s:
        return NORMAL.NormalStd.apply(std, float(mean))
    if size is None:
        raise TypeError("normal() missing required argument 'size'")
    out = randn(*_shape_args((size,)), dtype=dtype, generator=generator)
    out._data = out._data * np.asarray(std, out._data.dtype) + np.asarray(mean, out._data.dtype)
    out.requires_grad_(requires_grad)
    return out


def _diagonal(name: str, diagonal: Any, position: int = 2) -> int:
    if isinstance(diagonal, bool) or not isinstance(diagonal, (int, np.integer)):
        raise TypeError(
            f"{name}(): argument 'diagonal' (position {position}) must be int, not "
            f"{type(diagonal).__name__}"
        )
    return int(diagonal)


def tril(input: Tensor, diagonal: int = 0) -> Tensor:
    """The lower triangle of the last two dims (on and below ``diagonal``), zeros above."""
    return TRI.Tril.apply(input, _diagonal("tril", diagonal))


def triu(input: Tensor, diagonal: int = 0) -> Tensor:
    """The upper triangle of the last two dims (on and above ``diagonal``), zeros below."""
    return TRI.Triu.apply(input, _diagonal("triu", diagonal))


def _tril_method(self: Tensor, diagonal: int = 0) -> Tensor:
    return TRI.Tril.apply(self, _diagonal("tril", diagonal, 1))  # x.tril(1): position 1


def _triu_method(self: Tensor, diagonal: int = 0) -> Tensor:
    return TRI.Triu.apply(self, _diagonal("triu", diagonal, 1))
