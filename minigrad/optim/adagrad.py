"""``optim.Adagrad``: steps scaled by the root of each coordinate's summed squared gradients.

Duchi, Hazan and Singer's Adagrad (2011), as ``torch.optim.Adagrad`` writes it: coordinates
that have seen large gradients take small steps from then on, rare ones keep large steps.
Unlike RMSprop's running average the sum only grows, so the steps shrink for good. PyTorch
creates the state (``step`` and ``sum``) when the optimizer is built, not at the first step,
so ``state_dict()`` lists every parameter at once; minigrad does the same.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from ..tensor import new_tensor
from ._kernels import add_, addcdiv_, addcmul_, sqrt
from .optimizer import Optimizer, check_non_negative, new_step_counter

__all__ = ["Adagrad"]


class Adagrad(Optimizer):
    """Per parameter ``sum += g * g`` and ``p -= clr * g / (sqrt(sum) + eps)``, where
    ``clr = lr / (1 + (step - 1) * lr_decay)``; ``sum`` starts at ``initial_accumulator_value``.
    """

    def __init__(
        self,
        params: Iterable[Any],
        lr: float = 1e-2,
        lr_decay: float = 0,
        weight_decay: float = 0,
        initial_accumulator_value: float = 0,
        eps: float = 1e-10,
        foreach: bool | None = None,
        *,
        maximize: bool = False,
        differentiable: bool = False,
        fused: bool | None = None,
    ) -> None:
        check_non_negative(
            ("learning rate", lr),
            ("lr_decay value", lr_decay),
            ("weight_decay value", weight_decay),
            ("initial_accumulator_value value", initial_accumulator_value),
            ("epsilon value", eps),
        )
        self._no_graph_options(differentiable=differentiable, fused=bool(fused))
        defaults = {
            "lr": lr,
            "lr_decay": lr_decay,
            "eps": eps,
            "weight_decay": weight_decay,
            "initial_accumulator_value": initial_accumulator_value,
            "foreach": foreach,
            "maximize": maximize,
            "differentiable": differentiable,
            "fused": fused,
        }
        super().__init__(params, defaults)
        for group in self.param_groups:
            for p in group["params"]:
                state = self.state[p]
                state["step"] = new_step_counter()
                state["sum"] = new_tensor(np.full_like(p._data, initial_accumulator_value))

    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """One Adagrad update of every parameter that has a gradient."""
        loss = self._closure_loss(closure)
        for group in self.param_groups:
            lr, decay, eps = group["lr"], group["weight_decay"], group["eps"]
            for p in group["params"]:
                if p._grad is None:
                    continue
                data, g = p._data, p._grad._data
                state = self.state[p]
                self._count_step(state)
                step = float(state["step"]._data)
                if group["maximize"]:
                    g = -g
                if decay != 0:
                    g = add_(np.array(g, copy=True), data, decay)
                clr = lr / (1 + (step - 1) * group["lr_decay"])
                state_sum = addcmul_(state["sum"]._data, g, g, 1)
                std = sqrt(state_sum)
                std += np.asarray(eps, std.dtype)
                addcdiv_(data, g, std, -clr)
                self._bump_versions(p, state)
        return loss
