"""``F.pad``: a border around a tensor's last dimensions, in PyTorch's order of checks.

Only ``mode="constant"`` is implemented (``ConstantPadNdBackward0``, ``minigrad/ops/padding.py``);
``reflect``, ``replicate`` and ``circular`` raise ``NotImplementedError`` after PyTorch's own
checks of their arguments, so a wrong call gets PyTorch's error first.
"""

from __future__ import annotations

from collections.abc import Sequence

from .._functions._args import int_list
from .._typename import type_name
from ..ops.padding import ConstantPadNd
from ..tensor import Tensor

__all__ = ["pad"]

_MODES = ("constant", "reflect", "replicate", "circular")


def pad(
    input: Tensor, pad: Sequence[int], mode: str = "constant", value: float | None = None
) -> Tensor:
    """Pad the last ``len(pad) // 2`` dimensions of ``input``: ``pad`` is (left, right) of the
    last dimension, then (top, bottom) of the one before, ...; a negative pad crops that side.
    The border is ``value`` (0 by default); the result is a new tensor whose gradient is the
    output's gradient with the border cut off."""
    if not isinstance(input, Tensor):
        raise TypeError(
            f"pad(): argument 'input' (position 1) must be Tensor, not {type_name(input)}"
        )
    pad = int_list("pad", "pad", pad, 2, single=False)
    if mode not in _MODES:
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) > 2 * input.ndim:
        raise RuntimeError(
            "Padding length should be less than or equal to two times the input dimension but "
            f"got padding length {len(pad)} and input of dimension {input.ndim}"
        )
    if mode == "constant":
        return ConstantPadNd.apply(input, pad, 0.0 if value is None else float(value))  # a double
    if value is not None and value != 0:
        raise RuntimeError(f'Padding mode "{mode}" doesn\'t take in value argument')
    raise NotImplementedError(
        f'minigrad\'s pad has mode="constant" only, not mode="{mode}": pad with a constant, '
        "or build the border with cat() and flip() (reflect) or expand() (replicate)"
    )
