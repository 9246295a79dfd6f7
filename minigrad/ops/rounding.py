"""``round``: a step function, so its gradient is zero almost everywhere."""

from __future__ import annotations

import numpy as np

from ..autograd.function import ArrayFunction
from ._common import LEGACY_NAMES
from .namespace import namespace


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
