"""``normal(mean, std)`` with tensor arguments: a sample, whose gradient PyTorch says is zero."""

from __future__ import annotations

import numpy as np

from ..autograd.function import ArrayFunction
from .namespace import namespace


def _sample(mean, std) -> np.ndarray:
    from .._random import default_generator  # noqa: PLC0415 - the generator lives above the ops

    if np.any(np.asarray(std) < 0):
        raise RuntimeError("normal expects all elements of std >= 0.0")
    shape = np.broadcast_shapes(np.shape(mean), np.shape(std))
    dtype = next((x.dtype for x in (mean, std) if isinstance(x, np.ndarray)), None)
    return (mean + std * default_generator().standard_normal(shape)).astype(dtype or np.float32)


class Normal(ArrayFunction):
    """``normal(mean, std)`` of two tensors: a sample; PyTorch gives both a zero gradient."""

    node_name = "NormalBackward3"
    broadcasts = True

    @staticmethod
    def forward(ctx, mean, std):
        return _sample(mean, std)

    @staticmethod
    def backward(ctx, grad):
        xp = namespace(grad)
        return xp.zeros_like(grad), xp.zeros_like(grad)


class NormalMean(ArrayFunction):
    """``normal(mean_tensor, std_number)``."""

    node_name = "NormalBackward1"
    n_params = 1

    @staticmethod
    def forward(ctx, mean, std):
        return _sample(mean, std)

    @staticmethod
    def backward(ctx, grad):
        return namespace(grad).zeros_like(grad)


class NormalStd(ArrayFunction):
    """``normal(mean_number, std_tensor)``."""

    node_name = "NormalBackward2"
    n_params = 1

    @staticmethod
    def forward(ctx, std, mean):
        return _sample(mean, std)

    @staticmethod
    def backward(ctx, grad):
        return namespace(grad).zeros_like(grad)
