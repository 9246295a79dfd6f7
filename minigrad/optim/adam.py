"""``optim.Adam``: adaptive moment estimation, with the same arithmetic as PyTorch's."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from ..tensor import new_tensor
from ._kernels import add_, addcdiv_, addcmul_, lerp_, sqrt
from .optimizer import Optimizer, new_step_counter

__all__ = ["Adam"]


class Adam(Optimizer):
    """Per parameter: running means of the gradient (``exp_avg``) and of its square
    (``exp_avg_sq``), bias-corrected, give a step of about ``lr`` in each coordinate:
    ``p -= lr / (1 - beta1**t) * exp_avg / (sqrt(exp_avg_sq) / sqrt(1 - beta2**t) + eps)``.
    ``decoupled_weight_decay=True`` gives AdamW.
    """

    def __init__(
        self,
        params: Iterable[Any],
        lr: float = 1e-3,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 0,
        amsgrad: bool = False,
        *,
        foreach: bool | None = None,
        maximize: bool = False,
        capturable: bool = False,
        differentiable: bool = False,
        fused: bool | None = None,
        decoupled_weight_decay: bool = False,
    ) -> None:
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= betas[0] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
        if not 0.0 <= betas[1] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if differentiable or capturable:
            raise NotImplementedError(
                "minigrad's optimizers do not support differentiable=True or capturable=True"
            )
        defaults = {
            "lr": lr,
            "betas": betas,
            "eps": eps,
            "weight_decay": weight_decay,
            "amsgrad": amsgrad,
            "maximize": maximize,
            "foreach": foreach,
            "capturable": capturable,
            "differentiable": differentiable,
            "fused": fused,
            "decoupled_weight_decay": decoupled_weight_decay,
        }
        super().__init__(params, defaults)

    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """One Adam update of every parameter that has a gradient."""
        loss = self._closure_loss(closure)
        for group in self.param_groups:
            beta1, beta2 = group["betas"]
            lr, eps, decay = group["lr"], group["eps"], group["weight_decay"]
            amsgrad, maximize = group["amsgrad"], group["maximize"]
            decoupled = group["decoupled_weight_decay"]
            for p in group["params"]:
                if p._grad is None:
                    continue
                data, g = p._data, p._grad._data
                if maximize:
                    g = -g
                state = self.state[p]
                if not state:
                    state["step"] = new_step_counter()
                    state["exp_avg"] = new_tensor(np.zeros_like(data))
                    state["exp_avg_sq"] = new_tensor(np.zeros_like(data))
                    if amsgrad:
                        state["max_exp_avg_sq"] = new_tensor(np.zeros_like(data))
                step_t = state["step"]
                step_t._data += 1
                step_t._vc[0] += 1
                if decay:
                    if decoupled:
                        data *= 1 - lr * decay
                    else:
                        g = add_(np.array(g, copy=True), data, decay)
                m, v = state["exp_avg"]._data, state["exp_avg_sq"]._data
                lerp_(m, g, 1 - beta1)
                v *= beta2
                addcmul_(v, g, g, 1 - beta2)
                step = float(step_t._data)
                step_size = lr / (1 - beta1**step)
                bias_correction2_sqrt = (1 - beta2**step) ** 0.5
                if amsgrad:
                    top = state["max_exp_avg_sq"]._data
                    np.maximum(top, v, out=top)
                    denom = sqrt(top)
                else:
                    denom = sqrt(v)
                denom /= bias_correction2_sqrt
                denom += np.asarray(eps, denom.dtype)
                addcdiv_(data, m, denom, -step_size)
                p._vc[0] += 1
                state["exp_avg"]._vc[0] += 1
                state["exp_avg_sq"]._vc[0] += 1
        return loss
