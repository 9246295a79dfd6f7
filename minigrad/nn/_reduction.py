"""The ``reduction`` argument of the losses, and the legacy ``size_average``/``reduce`` pair."""

from __future__ import annotations

import warnings

__all__ = ["reduction_of", "legacy_get_string"]

_VALID = ("none", "mean", "sum")


def legacy_get_string(
    size_average: bool | None, reduce: bool | None, emit_warning: bool = True
) -> str:
    """Translate PyTorch 0.x's ``size_average``/``reduce`` flags into a ``reduction``."""
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    result = "mean" if size_average and reduce else "sum" if reduce else "none"
    if emit_warning:
        warnings.warn(
            f"size_average and reduce args will be deprecated, please use "
            f"reduction='{result}' instead.",
            UserWarning,
            stacklevel=4,
        )
    return result


def reduction_of(size_average: bool | None, reduce: bool | None, reduction: str) -> str:
    """The reduction to apply, checked: ``"mean"``, ``"sum"`` or ``"none"``."""
    if size_average is not None or reduce is not None:
        reduction = legacy_get_string(size_average, reduce)
    if reduction == "elementwise_mean":
        warnings.warn(
            "reduction='elementwise_mean' is deprecated. Please use reduction='mean' instead.",
            UserWarning,
            stacklevel=4,
        )
        return "mean"
    if reduction not in _VALID:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    return reduction
