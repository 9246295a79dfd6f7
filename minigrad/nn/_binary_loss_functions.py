"""``binary_cross_entropy`` and ``binary_cross_entropy_with_logits``, with PyTorch's checks.

Each is one node of the graph (``ops/binary_loss.py``), as in PyTorch; the checks run before
any computing, in PyTorch's order and with its messages.
"""

from __future__ import annotations

import numpy as np

from ..autograd.grad_mode import is_grad_enabled
from ..ops import binary_loss as BCE
from ..tensor import Tensor
from ._loss_functions import _broadcast_shape, _type_name
from ._reduction import reduction_of

__all__ = ["binary_cross_entropy", "binary_cross_entropy_with_logits"]


def binary_cross_entropy(
    input: Tensor,
    target: Tensor,
    weight: Tensor | None = None,
    size_average: bool | None = None,
    reduce: bool | None = None,
    reduction: str = "mean",
) -> Tensor:
    """BCE on probabilities in [0, 1]; each log is clamped at -100 so 0 and 1 stay finite."""
    reduction = reduction_of(size_average, reduce, reduction)
    if target.shape != input.shape:
        raise ValueError(
            f"Using a target size ({target.shape}) that is different to the input size "
            f"({input.shape}) is deprecated. Please ensure they have the same size."
        )
    if target._data.dtype != input._data.dtype:
        raise RuntimeError(f"Found dtype {_type_name(target)} but expected {_type_name(input)}")
    w = None
    if weight is not None:
        if weight.requires_grad and is_grad_enabled():  # a setting, as in PyTorch
            raise RuntimeError(
                "The function 'binary_cross_entropy' is not differentiable with respect to "
                "argument 'weight'. This input cannot have requires_grad True."
            )
        w = np.broadcast_to(weight._data, _broadcast_shape(target._data.shape, weight._data.shape))
    return BCE.BinaryCrossEntropy.apply(input, target, w, reduction)


def binary_cross_entropy_with_logits(
    input: Tensor,
    target: Tensor,
    weight: Tensor | None = None,
    size_average: bool | None = None,
    reduce: bool | None = None,
    reduction: str = "mean",
    pos_weight: Tensor | None = None,
) -> Tensor:
    """Sigmoid and BCE in one numerically stable step: pass raw scores (logits)."""
    reduction = reduction_of(size_average, reduce, reduction)
    if target.shape != input.shape:
        raise ValueError(
            f"Target size ({target.shape}) must be the same as input size ({input.shape})"
        )
    if input._data.dtype.kind != "f":  # PyTorch's first step is log_sigmoid(input)
        raise NotImplementedError(f"\"log_sigmoid_cpu\" not implemented for '{_type_name(input)}'")
    if target._data.dtype.kind != "f":
        raise RuntimeError(
            f"result type Float can't be cast to the desired output type {_type_name(target)}"
        )
    w = None if weight is None else weight._data
    pw = None if pos_weight is None else pos_weight._data
    return BCE.BinaryCrossEntropyWithLogits.apply(input, target, w, pw, reduction)
