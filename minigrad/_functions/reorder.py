"""``minigrad.flip``, ``roll`` and the matrix transposes ``x.mT``, ``x.mH``, ``x.H``.

flip and roll copy; ``mT`` (and, for real numbers, ``mH``) is ``transpose(-2, -1)``, a view of
the last two dims of a batch of matrices; ``H`` the same for a matrix only.
"""

from __future__ import annotations

import warnings
from typing import Any

from .._typename import type_name
from ..ops import reorder as RE
from ..ops import shape as S
from ..tensor import Tensor
from ._args import _check_ints, _is_int, int_list


def flip(input: Tensor, dims: Any) -> Tensor:
    """``minigrad.flip(x, (0, 1))``: the elements in reverse order along ``dims`` (a copy)."""
    if _is_int(dims):
        raise TypeError(
            f"flip(): argument 'dims' (position 2) must be tuple of ints, not {type_name(dims)}"
        )
    return RE.Flip.apply(input, int_list("flip", "dims", dims, 2))


def _flip_method(input: Tensor, *dims: Any, **kwargs: Any) -> Tensor:
    """``x.flip(0, 1)``, ``x.flip((0, 1))``, ``x.flip(dims=[0])``."""
    if "dims" in kwargs:
        if dims:
            raise TypeError("flip() got multiple values for argument 'dims'")
        value = kwargs.pop("dims")
        if _is_int(value):
            raise TypeError(
                f"flip(): argument 'dims' must be tuple of ints, not {type_name(value)}"
            )
        return RE.Flip.apply(input, int_list("flip", "dims", value, None))
    if not dims:
        raise TypeError('flip() missing 1 required positional arguments: "dims"')
    if len(dims) == 1:
        return RE.Flip.apply(input, int_list("flip", "dims", dims[0], 1))
    _check_ints("flip", "dims", dims)
    return RE.Flip.apply(input, tuple(int(d) for d in dims))


def roll(input: Tensor, shifts: Any, dims: Any = None) -> Tensor:
    """Roll by ``shifts`` along ``dims`` (both ints or tuples); no dims: the flat tensor."""
    shifts = int_list("roll", "shifts", shifts, 1)
    dims = () if dims is None else int_list("roll", "dims", dims, 2)
    return RE.Roll.apply(input, shifts, dims)


_WARNED_ONCE: set[str] = set()  # PyTorch gives these warnings once per process


def _matrix_transpose(self: Tensor, name: str, depth: int = 3) -> Tensor:
    """``transpose(-2, -1)``; a 0-d tensor itself, with PyTorch's warning (once per process,
    shown at the learner's line, ``depth`` frames up)."""
    if self.ndim == 0:
        if name not in _WARNED_ONCE:
            _WARNED_ONCE.add(name)
            advice = "Consider using x.conj()." if name != "mT" else ""
            warnings.warn(
                f"Tensor.{name} is deprecated on 0-D tensors. "
                + (advice or "This function is the identity in these cases."),
                UserWarning,
                stacklevel=depth,
            )
        return self
    if self.ndim < 2:
        raise RuntimeError(
            f"tensor.{name} is only supported on matrices or batches of matrices. "
            f"Got {self.ndim}-D tensor."
        )
    return S.Transpose.apply(self, -2, -1)


def _mT(self: Tensor) -> Tensor:  # noqa: N802 - PyTorch's name
    """``x.mT``: the last two dims swapped (a view), for a matrix or a batch of them."""
    return _matrix_transpose(self, "mT")


def _mH(self: Tensor) -> Tensor:  # noqa: N802
    """``x.mH``: the conjugate transpose; minigrad's numbers are real, so ``x.mT``."""
    return _matrix_transpose(self, "mH")


def _H(self: Tensor) -> Tensor:  # noqa: N802
    """``x.H``: the conjugate transpose of a matrix (2-D only)."""
    if self.ndim != 2 and self.ndim != 0:
        hint = " For batches of matrices, consider using tensor.mH" if self.ndim > 2 else ""
        raise RuntimeError(
            f"tensor.H is only supported on matrices (2-D tensors). Got {self.ndim}-D tensor.{hint}"
        )
    return _matrix_transpose(self, "H")
