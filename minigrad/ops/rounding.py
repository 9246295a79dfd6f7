"""Rounding to whole numbers: floor, ceil, trunc, and frac (what trunc leaves over).

floor, ceil and trunc are flat between whole numbers, so PyTorch defines their gradient as
zero everywhere (``zeros_like(grad)``: no saved value). Of an integer tensor each returns the
integers unchanged, in their dtype (numpy would give float64); a bool tensor has no kernel.
frac is ``x - trunc(x)``: slope 1, so its gradient is ``grad`` itself. round (to even, or
to ``decimals`` places) is the fourth step function.
"""

from __future__ import annotations

import numpy as np

from ..autograd.function import ArrayFunction
from ._common import LEGACY_NAMES
from .namespace import namespace


def _whole(a: np.ndarray, ufunc, kernel: str) -> np.ndarray:
    """``ufunc`` of a float array; integers as they are (a copy); bools refused, as PyTorch."""
    if a.dtype.kind == "f":
        return ufunc(a)
    if a.dtype == np.bool_:
        raise NotImplementedError(f"\"{kernel}_vml_cpu\" not implemented for 'Bool'")
    return a.copy()


class Floor(ArrayFunction):
    """The largest whole number <= x (``floor(-0.5)`` is ``-0.``, as in PyTorch)."""

    node_name = "FloorBackward0"

    @staticmethod
    def forward(ctx, a):
        return _whole(a, np.floor, "floor")

    @staticmethod
    def backward(ctx, grad):
        return namespace(grad).zeros_like(grad)


class Ceil(ArrayFunction):
    """The smallest whole number >= x (``ceil(-0.5)`` is ``-0.``)."""

    node_name = "CeilBackward0"

    @staticmethod
    def forward(ctx, a):
        return _whole(a, np.ceil, "ceil")

    @staticmethod
    def backward(ctx, grad):
        return namespace(grad).zeros_like(grad)


class Trunc(ArrayFunction):
    """x without its fractional part, towards zero (``fix`` is the same op)."""

    node_name = "TruncBackward0"

    @staticmethod
    def forward(ctx, a):
        return _whole(a, np.trunc, "trunc")

    @staticmethod
    def backward(ctx, grad):
        return namespace(grad).zeros_like(grad)


class Frac(ArrayFunction):
    """``x - trunc(x)``, with the sign of x; floats only (integers have no fraction)."""

    node_name = "FracBackward0"

    @staticmethod
    def forward(ctx, a):
        if a.dtype.kind != "f":
            raise NotImplementedError(f"\"frac_cpu\" not implemented for '{LEGACY_NAMES[a.dtype]}'")
        return a - np.trunc(a)

    @staticmethod
    def backward(ctx, grad):
        return grad


class Round(ArrayFunction):
    """Round half to even; the gradient is zero almost everywhere, as PyTorch says."""

    node_name = "RoundBackward0"

    @staticmethod
    def forward(ctx, a):
        if a.dtype == np.bool_:  # integers come back as they are; bools have no kernel
            raise NotImplementedError("\"round_vml_cpu\" not implemented for 'Bool'")
        return np.round(a)

    @staticmethod
    def backward(ctx, grad):
        return namespace(grad).zeros_like(grad)


class RoundDecimals(ArrayFunction):
    node_name = "RoundBackward1"
    n_params = 1

    @staticmethod
    def forward(ctx, a, decimals):
        if a.dtype.kind != "f":
            raise NotImplementedError(
                f"\"round_cpu\" not implemented for '{LEGACY_NAMES[a.dtype]}'"
            )
        scale = np.asarray(10.0**decimals, a.dtype)
        with np.errstate(over="ignore", invalid="ignore"):
            return np.round(a * scale) / scale

    @staticmethod
    def backward(ctx, grad):
        return namespace(grad).zeros_like(grad)
