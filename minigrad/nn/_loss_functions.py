"""The loss functions of ``nn.functional`` (mse_loss, cross_entropy, ...), with PyTorch's checks.

Each loss is one node of the graph where PyTorch records one (``ops/loss.py``,
``classification_loss.py``; the binary cross entropies are in ``_binary_loss_functions.py``),
or the same few nodes where PyTorch composes it (``l1_loss``, cross entropy with
class probabilities). The checks run before any computing and their messages,
warnings included, are PyTorch's; ``reduction`` is ``"mean"``, ``"sum"`` or
``"none"``.
"""

from __future__ import annotations

import math
import warnings

import numpy as np

from .._functions import arithmetic as FA
from .._functions import reduction as FR
from .._functions import shape as FS
from ..ops import classification_loss as NLL
from ..ops import cross_entropy as CE
from ..ops import loss as LO
from ..ops import shape as S
from ..ops import softmax as SM
from ..tensor import Tensor
from ._reduction import reduction_of

__all__ = [
    "mse_loss",
    "l1_loss",
    "nll_loss",
    "cross_entropy",
    "smooth_l1_loss",
    "huber_loss",
]

_REDUCTIONS = ("mean", "sum", "none")
_TARGET_DTYPES = frozenset({np.dtype(np.int64), np.dtype(np.uint8)})
_INT64 = np.dtype(np.int64)


def _broadcast_shape(a: tuple, b: tuple) -> tuple:
    """numpy's broadcast shape, failing with PyTorch's message."""
    ndim = max(len(a), len(b))
    a1, b1 = (1,) * (ndim - len(a)) + a, (1,) * (ndim - len(b)) + b
    for i in range(ndim - 1, -1, -1):
        if a1[i] != b1[i] and a1[i] != 1 and b1[i] != 1:
            raise RuntimeError(
                f"The size of tensor a ({a1[i]}) must match the size of tensor b "
                f"({b1[i]}) at non-singleton dimension {i}"
            )
    return tuple(max(x, y) if min(x, y) != 0 else 0 for x, y in zip(a1, b1, strict=True))


def _warn_shape(input: Tensor, target: Tensor) -> None:
    if input.shape != target.shape:
        warnings.warn(
            f"Using a target size ({target.shape}) that is different to the input size "
            f"({input.shape}). This will likely lead to incorrect results due to broadcasting. "
            "Please ensure they have the same size.",
            UserWarning,
            stacklevel=3,
        )


def _type_name(t: Tensor) -> str:
    return t.dtype.legacy_name.replace("Tensor", "")


def mse_loss(
    input: Tensor,
    target: Tensor,
    size_average: bool | None = None,
    reduce: bool | None = None,
    reduction: str = "mean",
) -> Tensor:
    """Mean squared error; warns (as PyTorch does) when the shapes differ and broadcast."""
    if input._data.shape != target._data.shape:  # the rare case first; the hot path is short
        _warn_shape(input, target)
        shape = _broadcast_shape(input._data.shape, target._data.shape)
        if input._data.shape != shape:
            input = S.Expand.apply(input, shape)
        if target._data.shape != shape:
            target = S.Expand.apply(target, shape)
    if size_average is not None or reduce is not None or reduction not in _REDUCTIONS:
        reduction = reduction_of(size_average, reduce, reduction)
    if input._data.dtype.kind != "f":
        raise NotImplementedError(f"\"mse_cpu\" not implemented for '{_type_name(input)}'")
    return LO.MseLoss.apply(input, target, reduction)


def l1_loss(
    input: Tensor,
    target: Tensor,
    size_average: bool | None = None,
    reduce: bool | None = None,
    reduction: str = "mean",
) -> Tensor:
    """Mean absolute error: PyTorch 2.x records abs(input - target), then mean or sum."""
    _warn_shape(input, target)
    reduction = reduction_of(size_average, reduce, reduction)
    input, target = _broadcast_both(input, target)  # torch.broadcast_tensors: ExpandBackward0
    loss = FA.abs(FA.sub(input, target))
    if reduction == "mean":
        return FR.mean(loss)
    return FR.sum(loss) if reduction == "sum" else loss


def _class_weight(weight: Tensor | None, classes: int) -> np.ndarray | None:
    if weight is None:
        return None
    if weight.ndim != 1 or weight.numel() != classes:
        raise RuntimeError(
            f"weight tensor should be defined either for all {classes} classes or no classes but "
            f"got weight tensor of shape: {list(weight.shape)}"
        )
    return weight._data


def nll_loss(
    input: Tensor,
    target: Tensor,
    weight: Tensor | None = None,
    size_average: bool | None = None,
    ignore_index: int = -100,
    reduce: bool | None = None,
    reduction: str = "mean",
) -> Tensor:
    """The negative log likelihood of class indices, given log-probabilities ``input``."""
    if size_average is not None or reduce is not None or reduction not in _REDUCTIONS:
        reduction = reduction_of(size_average, reduce, reduction)
    data, t = input._data, target._data
    ndim = data.ndim
    if ndim < 1:
        raise ValueError(f"Expected 1 or more dimensions (got {ndim})")
    batch = t.shape[0] if t.ndim else 0
    if ndim != 1 and data.shape[0] != batch:
        raise ValueError(
            f"Expected input batch_size ({data.shape[0]}) to match target batch_size ({batch})."
        )
    if ndim <= 2 and t.ndim > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if t.dtype not in _TARGET_DTYPES:
        raise RuntimeError(
            f"expected target dtype to be Long or Byte, but got {_type_name(target)}"
        )
    classes = data.shape[1] if ndim > 1 else data.shape[0]
    w = None if weight is None else _class_weight(weight, classes)
    if ndim > 2:
        _check_spatial_target(data.shape, t.shape)
    if data.dtype.kind != "f":  # PyTorch's kernel has no integer or bool version, even empty
        kernel = "nll_loss_out_frame" if ndim <= 2 else "nll_loss2d_forward_out_frame"
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{_type_name(input)}'")
    if t.dtype is not _INT64:
        if ndim > 2 and t.size:  # PyTorch's 2-d kernel reads int64 only
            raise RuntimeError("expected scalar type Long but found Byte")
        t = t.astype(np.int64)
    if ndim <= 2 or ndim == 4:
        op = NLL.NllLoss if ndim <= 2 else NLL.NllLoss2d
        loss = op.apply(input, t, w, ignore_index, reduction)
        NLL.save_target(loss, target)
        return loss
    # 3-D or 5-D and more: PyTorch views them as (N, C, 1, rest) and uses the 2-D kernel
    n, c = input.shape[0], input.shape[1]
    out_shape = (n, *input.shape[2:])
    # input.contiguous(), then a view; (n, c, 0, 0) and (n, 0, 0) when empty, as PyTorch does
    flat = S.View.apply(input.contiguous(), (n, c, 1, -1) if input._data.size else (n, c, 0, 0))
    t = t.reshape((n, 1, -1) if t.size else (n, 0, 0))
    loss = NLL.NllLoss2d.apply(flat, t, w, ignore_index, reduction)
    NLL.save_target(loss, S.View.apply(target.contiguous(), t.shape))  # as PyTorch saves it
    return S.View.apply(loss, out_shape) if reduction == "none" else loss


def _check_spatial_target(shape: tuple, target: tuple) -> None:
    """PyTorch's checks of a target for an (N, C, d...) input, in its words: the target's
    sizes against the input's (N, d...), then those of the (N, C, H, W) views its 2-d kernel
    receives (an empty one is (N, C, 0, 0) beside a target of (N, 1, 1))."""
    if len(shape) != 4 and target[1:] != shape[2:]:
        raise RuntimeError(f"Expected target size {[shape[0], *shape[2:]]}, got {list(target)}")
    if len(shape) != 4:
        n, c, size = shape[0], shape[1], math.prod(shape)
        shape = (n, c, 1, size // max(n * c, 1)) if size else (n, c, 0, 0)
        target = (n, 1, math.prod(target) // max(n, 1)) if math.prod(target) else (n, 0, 0)
    if len(target) != 3:
        raise RuntimeError(
            "only batches of spatial targets supported (3D tensors) but got targets of "
            f"dimension: {len(target)}"
        )
    if shape[0] != target[0] or shape[2] != target[1] or shape[3] != target[2]:
        raise RuntimeError(f"size mismatch (got input: {list(shape)} , target: {list(target)}")


def cross_entropy(
    input: Tensor,
    target: Tensor,
    weight: Tensor | None = None,
    size_average: bool | None = None,
    ignore_index: int = -100,
    reduce: bool | None = None,
    reduction: str = "mean",
    label_smoothing: float = 0.0,
) -> Tensor:
    """log_softmax over the class dimension, then nll_loss (class-index targets), or
    the cross entropy with class probabilities when ``target`` is float and shaped like
    ``input``.
    """
    if size_average is not None or reduce is not None or reduction not in _REDUCTIONS:
        reduction = reduction_of(size_average, reduce, reduction)
    if label_smoothing != 0.0:
        raise NotImplementedError("minigrad's cross_entropy does not support label_smoothing")
    if weight is None:  # a classifier's usual step: (N, C) scores, N class indices
        loss = CE.log_softmax_nll_loss(input, target, ignore_index, reduction)
        if loss is not None:
            return loss
    class_dim = 0 if input._data.ndim == 1 else 1
    if target._data.shape == input._data.shape:  # class probabilities: PyTorch's checks, in order
        if target._data.dtype.kind != "f":
            raise RuntimeError(
                "Expected floating point type for target with class probabilities, got "
                + _type_name(target)
            )
        if ignore_index >= 0:
            raise RuntimeError("ignore_index is not supported for floating point target")
        if input._data.ndim == 0:  # input.size(1), where PyTorch first reads the classes
            raise IndexError("Dimension specified as 1 but tensor has no dimensions")
        log_probs = SM.LogSoftmax.apply(input, class_dim)
        return _cross_entropy_probs(log_probs, target, weight, reduction, class_dim)
    log_probs = SM.LogSoftmax.apply(input, class_dim)
    return nll_loss(log_probs, target, weight, None, ignore_index, None, reduction)


def _cross_entropy_probs(
    log_probs: Tensor, target: Tensor, weight: Tensor | None, reduction: str, class_dim: int
) -> Tensor:
    """-(log_probs * target [* weight]).sum(...), the graph PyTorch records for soft targets."""
    loss = FA.mul(log_probs, target)
    if weight is not None:
        _class_weight(weight, log_probs.shape[class_dim])
        shape = [1] * log_probs.ndim
        shape[class_dim] = -1
        loss = FA.mul(loss, FS.reshape(weight, shape))
    if reduction == "none":
        return FA.neg(FR.sum(loss, class_dim))
    total = FR.sum(loss)
    if reduction == "sum":
        return FA.neg(total)
    if log_probs.numel() == 0:  # PyTorch fills the sum with nan rather than divide by 0
        return FA.neg(total.fill_(float("nan")))
    return LO.DivScalar.apply(FA.neg(total), log_probs.numel() // log_probs.shape[class_dim])


def _same_shape(input: Tensor, target: Tensor) -> tuple[Tensor, Tensor]:
    """Warn (as PyTorch does) when the shapes differ, then broadcast both."""
    if input._data.shape == target._data.shape:
        return input, target
    _warn_shape(input, target)
    return _broadcast_both(input, target)


def _broadcast_both(input: Tensor, target: Tensor) -> tuple[Tensor, Tensor]:
    """PyTorch's ``broadcast_tensors``: each side expanded where its shape differs."""
    shape = _broadcast_shape(input._data.shape, target._data.shape)
    if input._data.shape != shape:
        input = S.Expand.apply(input, shape)
    if target._data.shape != shape:
        target = S.Expand.apply(target, shape)
    return input, target


def smooth_l1_loss(
    input: Tensor,
    target: Tensor,
    size_average: bool | None = None,
    reduce: bool | None = None,
    reduction: str = "mean",
    beta: float = 1.0,
) -> Tensor:
    """Squared error for small differences (below ``beta``), absolute error for large ones."""
    reduction = reduction_of(size_average, reduce, reduction)
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    if beta == 0.0:  # PyTorch: then it is exactly l1_loss
        return l1_loss(input, target, reduction=reduction)
    input, target = _same_shape(input, target)
    _floats_only("smooth_l1", input, target)
    return LO.SmoothL1Loss.apply(input, target, reduction, float(beta))


def huber_loss(
    input: Tensor,
    target: Tensor,
    reduction: str = "mean",
    delta: float = 1.0,
    weight: Tensor | None = None,
) -> Tensor:
    """``smooth_l1_loss`` scaled by ``delta``: quadratic below ``delta``, linear above."""
    if weight is not None:
        raise NotImplementedError("minigrad's huber_loss has no weight argument")
    if reduction not in _REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    input, target = _same_shape(input, target)
    _floats_only("huber", input, target)
    return LO.HuberLoss.apply(input, target, reduction, float(delta))


def _floats_only(kernel: str, input: Tensor, target: Tensor) -> None:
    dtype = np.result_type(input._data, target._data)
    if dtype.kind != "f":
        name = _type_name(input if input._data.dtype == dtype else target)
        raise NotImplementedError(f"\"{kernel}_cpu\" not implemented for '{name}'")
