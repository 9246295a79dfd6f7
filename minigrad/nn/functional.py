"""``nn.functional``: the layers and losses as functions (``F.relu(x)``, ``F.mse_loss(a, b)``).

The modules in ``nn`` call these. Each one records the same graph as PyTorch:
``linear`` on a batch is one ``AddmmBackward0`` whose weight edge goes through
``TBackward0``; ``cross_entropy`` is ``NllLossBackward0`` after
``LogSoftmaxBackward0``; ``l1_loss`` is ``abs(input - target)`` then its mean, as
PyTorch 2.x records it. Input checks and their messages are PyTorch's.
"""

from __future__ import annotations

import warnings

import numpy as np

from .._functions import linalg as FL
from .._functions import reduction as FR
from .._random import default_generator
from ..ops import activation as ACT
from ..ops import arithmetic as A
from ..ops import gelu as GELU
from ..ops import inplace as IP
from ..ops import shape as S
from ..ops import smooth_activations as SA
from ..ops import unary as U
from ..ops.addmm import Addmm
from ..tensor import Tensor, new_tensor
from ._binary_loss_functions import binary_cross_entropy, binary_cross_entropy_with_logits
from ._distance_functions import cosine_similarity, normalize
from ._lookup_functions import embedding, one_hot
from ._loss_functions import (
    cross_entropy,
    huber_loss,
    l1_loss,
    mse_loss,
    nll_loss,
    smooth_l1_loss,
)
from ._padding_functions import pad

__all__ = [
    "linear",
    "relu",
    "tanh",
    "sigmoid",
    "softmax",
    "log_softmax",
    "mse_loss",
    "l1_loss",
    "nll_loss",
    "cross_entropy",
    "binary_cross_entropy",
    "binary_cross_entropy_with_logits",
    "smooth_l1_loss",
    "huber_loss",
    "leaky_relu",
    "dropout",
    "gelu",
    "softplus",
    "silu",
    "elu",
    "elu_",
    "embedding",
    "one_hot",
    "normalize",
    "cosine_similarity",
    "pad",
]


# -- layers -----------------------------------------------------------------------------------


def linear(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """``input @ weight.T + bias``, recorded as PyTorch's ``Linear.cpp`` records it.

    A batch (2-d) with a bias is one ``AddmmBackward0``. A contiguous input of another rank
    with a 1-d bias is flattened into one addmm and viewed back. Anything else is ``matmul``
    followed by an in-place ``add_`` of the bias (``AddBackward0``).
    """
    if bias is not None and getattr(input, "_data", None) is not None and input._data.ndim == 2:
        out = Addmm.of_weight(bias, input, weight)  # a batch: weight.t() recorded with it
        if out is not None:
            return out
    ndim = input._data.ndim
    if ndim == 0:
        raise RuntimeError(
            f"both arguments to linear need to be at least 1D, but they are 0D and {weight.ndim}D"
        )
    if bias is None:
        return FL.matmul(input, S.T.apply(weight))
    if ndim == 2:
        return Addmm.apply(bias, input, S.T.apply(weight))
    if input.is_contiguous() and bias._data.ndim == 1 and bias.is_contiguous():  # as PyTorch
        lead = input._data.shape[:-1]
        rows = 1
        for d in lead:
            rows *= d
        flat = S.View.apply(input, (rows, input._data.shape[-1]))  # before weight.t(), as there
        out = Addmm.apply(bias, flat, S.T.apply(weight))
        return S.View.apply(out, lead + out._data.shape[1:])
    return FL.matmul(input, S.T.apply(weight)).add_(bias)


def relu(input: Tensor, inplace: bool = False) -> Tensor:
    """max(0, x); the op itself, with no wrapper in between: it runs in every hidden layer."""
    return input.relu_() if inplace else ACT.Relu.apply(input)


def leaky_relu(input: Tensor, negative_slope: float = 0.01, inplace: bool = False) -> Tensor:
    """``x`` where positive, ``negative_slope * x`` elsewhere."""
    if inplace:
        return IP.apply_inplace(ACT.LeakyRelu, input, negative_slope)
    return ACT.LeakyRelu.apply(input, negative_slope)


def gelu(input: Tensor, *, approximate: str = "none") -> Tensor:
    """``x * Phi(x)`` (Phi the normal CDF), or its tanh approximation (``approximate='tanh'``)."""
    if approximate not in ("none", "tanh"):
        raise RuntimeError("approximate argument must be either none or tanh.")
    return GELU.Gelu.apply(input, approximate)


def softplus(input: Tensor, beta: float = 1, threshold: float = 20) -> Tensor:
    """``log(1 + exp(beta x)) / beta``, and ``x`` where ``beta x > threshold``."""
    return SA.Softplus.apply(input, beta, threshold)


def silu(input: Tensor, inplace: bool = False) -> Tensor:
    """``x * sigmoid(x)`` (also called swish)."""
    return IP.apply_inplace(SA.Silu, input) if inplace else SA.Silu.apply(input)


def elu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    """``x`` where positive, ``alpha * (exp(x) - 1)`` elsewhere."""
    if inplace:
        return IP.apply_inplace(SA.EluInPlace, input, alpha, 1, 1)
    return SA.Elu.apply(input, alpha, 1, 1)


def elu_(input: Tensor, alpha: float = 1.0) -> Tensor:
    return IP.apply_inplace(SA.EluInPlace, input, alpha, 1, 1)


def dropout(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """While training, zero each element with probability ``p`` and scale the rest by
    ``1 / (1 - p)``, so that the expected value stays the same; in eval mode, ``input``."""
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0.0:
        return input
    dtype = input._data.dtype
    keep = default_generator().random(input._data.shape) >= p
    mask = keep.astype(dtype) * np.asarray(1.0 / (1.0 - p) if p < 1.0 else 0.0, dtype)
    if inplace:
        return input.mul_(new_tensor(mask))
    return A.Mul.apply(input, new_tensor(mask))  # PyTorch records input * mask: MulBackward0


def tanh(input: Tensor) -> Tensor:
    return U.Tanh.apply(input)


def sigmoid(input: Tensor) -> Tensor:
    return U.Sigmoid.apply(input)


def _softmax_dim(name: str, ndim: int, stacklevel: int) -> int:
    warnings.warn(
        f"Implicit dimension choice for {name} has been deprecated. Change the call to include "
        "dim=X as an argument.",
        UserWarning,
        stacklevel=stacklevel,
    )
    return 0 if ndim in (0, 1, 3) else 1


def softmax(
    input: Tensor, dim: int | None = None, _stacklevel: int = 3, dtype: object = None
) -> Tensor:
    """exp(x) / sum(exp(x)) along ``dim``; without ``dim`` PyTorch guesses it, and warns."""
    if dim is None:
        dim = _softmax_dim("softmax", input.ndim, _stacklevel)
    return FR.softmax(input, dim, dtype)


def log_softmax(
    input: Tensor, dim: int | None = None, _stacklevel: int = 3, dtype: object = None
) -> Tensor:
    if dim is None:
        dim = _softmax_dim("log_softmax", input.ndim, _stacklevel)
    return FR.log_softmax(input, dim, dtype)
