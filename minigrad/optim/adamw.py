"""``optim.AdamW``: Adam with decoupled weight decay (Loshchilov and Hutter, 2019).

With plain Adam, ``weight_decay`` is added to the gradient and then divided by Adam's running
scale, so heavily-updated weights are barely decayed. AdamW shrinks the parameter itself,
``p *= 1 - lr * weight_decay``, before the Adam step: the decay every transformer recipe means.
As in PyTorch it is ``Adam`` with ``decoupled_weight_decay=True``, default weight decay 0.01.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .adam import Adam

__all__ = ["AdamW"]


class AdamW(Adam):
    """``Adam(..., decoupled_weight_decay=True)`` with ``weight_decay=1e-2`` by default."""

    def __init__(
        self,
        params: Iterable[Any],
        lr: float = 1e-3,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 1e-2,
        amsgrad: bool = False,
        *,
        maximize: bool = False,
        foreach: bool | None = None,
        capturable: bool = False,
        differentiable: bool = False,
        fused: bool | None = None,
    ) -> None:
        super().__init__(
            params,
            lr,
            betas,
            eps,
            weight_decay,
            amsgrad,
            foreach=foreach,
            maximize=maximize,
            capturable=capturable,
            differentiable=differentiable,
            fused=fused,
            decoupled_weight_decay=True,
        )

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """As ``Optimizer.load_state_dict``; the groups stay decoupled (PyTorch's AdamW
        ``__setstate__`` says so, for dicts saved before the setting existed)."""
        super().load_state_dict(state_dict)
        for group in self.param_groups:
            group["decoupled_weight_decay"] = True
