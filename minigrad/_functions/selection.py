"""``minigrad.gather``, ``masked_fill``, ``repeat``, ``chunk``, ``split``, ``tensor_split``,
``narrow``, ``round``, ``normal``, ``bmm``, ``square``, ``tril``, ``triu``: what tutorials use
beside the basic ops.

Functional forms with PyTorch's arguments; the Tensor methods (``x.chunk(2)``) are these same
functions, bound in ``minigrad/_tensor_methods.py`` (the splits through this module's
``METHODS``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .._dtypes import LEGACY_NAMES
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
from ._args import _is_int, _overloads, _shape_args


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


_TENSOR_SPLIT = (
    "(Tensor input, tuple of ints indices, int dim = 0)",
    "(Tensor input, Tensor tensor_indices_or_sections, int dim = 0)",
    "(Tensor input, int sections, int dim = 0)",
)


def tensor_split(
    input: Tensor,
    indices_or_sections: int | Sequence[int] | Tensor | None = None,
    dim: int = 0,
    **named: Any,
) -> tuple:
    """``input`` cut along ``dim`` into ``n`` views of sizes as equal as can be (the first
    ``size % n`` one longer), or at the ``indices`` given (numpy's ``array_split``). Each part
    is its own slice (a ``SliceBackward0``, as ``narrow``), not one node with several outputs
    as ``split``: so a part can be changed in place."""
    if indices_or_sections is None and len(named) == 1:  # sections=, indices=, tensor_...=
        indices_or_sections = next(iter(named.values()))
    how = _split_points(input, indices_or_sections)
    if input.ndim == 0:
        raise RuntimeError(
            "tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims"
        )
    if isinstance(how, Tensor):
        how = _tensor_points(how)
    axis = wrap_dim(dim, input.ndim)
    size = input._data.shape[axis]
    if isinstance(how, int):
        if how <= 0:
            raise RuntimeError(f"number of sections must be larger than 0, got {how}")
        small, extra = divmod(size, how)
        sizes = [small + (i < extra) for i in range(how)]
        how = [sum(sizes[: i + 1]) for i in range(how - 1)]
    edges = [0, *how, size]
    return tuple(SEL.Slice.apply(input, axis, slice(a, b)) for a, b in zip(edges, edges[1:]))


def _split_points(input: Any, how: Any) -> Any:
    """``tensor_split``'s second argument as PyTorch's parser reads it: a number of sections
    (an int), indices (ints) or a tensor; anything else is its ``TypeError``."""
    if isinstance(input, Tensor):
        if isinstance(how, Tensor):
            return how
        if _is_int(how):
            return int(how)
        if isinstance(how, (list, tuple)) and all(_is_int(i) for i in how):
            return [int(i) for i in how]
    raise _overloads("tensor_split", f"{type_name(input)}, {type_name(how)}", _TENSOR_SPLIT)


def _tensor_points(how: Tensor) -> int | list[int]:
    """An int64 tensor: 0-d, a number of sections; 1-d, indices."""
    data = how._data
    if data.dtype != np.int64:
        raise RuntimeError(
            "tensor_split expected tensor_indices_or_sections to have dtype of long, but got "
            f"{LEGACY_NAMES[data.dtype]}"
        )
    if data.ndim > 1:
        raise RuntimeError(
            "tensor_split expected tensor_indices_or_sections to be a zero-dimensional or "
            f"one-dimensional tensor, but got a tensor with {data.ndim} dims"
        )
    return int(data) if data.ndim == 0 else [int(i) for i in data]


def _tensor_split_method(self: Tensor, *args: Any, **named: Any) -> tuple:
    try:
        return tensor_split(self, *args, **named)
    except TypeError as e:  # the method's signatures have no ``input``
        text = str(e).replace("Tensor input, ", "").replace("got (Tensor, ", "got (")
        raise TypeError(text) from None


#: the Tensor methods made from this module's splits, bound by ``_tensor_methods.py``
METHODS: dict[str, Any] = {
    "chunk": chunk,
    "split": split,
    "tensor_split": _tensor_split_method,
}


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
