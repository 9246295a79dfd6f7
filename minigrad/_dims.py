"""A ``dim`` argument as an index: PyTorch's wrapping of negative dims and its IndexError."""

from __future__ import annotations


def wrap_dim(dim: int, ndim: int, scalar_ok: bool = True) -> int:
    """Turn a possibly negative dim into an index, with PyTorch's IndexError.

    Most ops take dim 0 or -1 of a 0-d tensor as its only "dimension"; ``size(dim)``,
    ``unbind`` and a few others do not (``scalar_ok=False``), with PyTorch's message.
    """
    if ndim == 0 and not scalar_ok:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    lo, hi = (-ndim, ndim - 1) if ndim > 0 else (-1, 0)
    if not lo <= dim <= hi:
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{lo}, {hi}], but got {dim})"
        )
    return dim + ndim if dim < 0 and ndim > 0 else (0 if dim < 0 else dim)
