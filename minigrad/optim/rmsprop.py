"""``optim.RMSprop``: divide each step by a running root mean square of the gradient.

Hinton's RMSprop (lecture 6e of his 2012 Coursera course), as ``torch.optim.RMSprop`` writes
it: the update of every coordinate is scaled by how large its gradients have lately been, so
that steep and flat directions move at similar speeds. "Learning PyTorch with Examples" trains
its polynomial with it. The arithmetic is PyTorch's single-tensor loop, operation for
operation (``_kernels``), so the parameters agree with PyTorch's to the last bit.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from ..tensor import new_tensor
from ._kernels import add_, addcdiv_, addcmul_, lerp_, sqrt
from .optimizer import Optimizer, check_non_negative, new_step_counter

__all__ = ["RMSprop"]


class RMSprop(Optimizer):
    """Per parameter ``square_avg = alpha * square_avg + (1 - alpha) * g * g`` and
    ``p -= lr * g / (sqrt(square_avg) + eps)``. ``centered`` subtracts the square of the running
    mean gradient ``grad_avg`` (an estimate of the variance); ``momentum`` accumulates the
    scaled steps in ``momentum_buffer`` before applying them.
    """

    def __init__(
        self,
        params: Iterable[Any],
        lr: float = 1e-2,
        alpha: float = 0.99,
        eps: float = 1e-8,
        weight_decay: float = 0,
        momentum: float = 0,
        centered: bool = False,
        capturable: bool = False,
        foreach: bool | None = None,
        maximize: bool = False,
        differentiable: bool = False,
    ) -> None:
        check_non_negative(
            ("learning rate", lr),
            ("epsilon value", eps),
            ("momentum value", momentum),
            ("weight_decay value", weight_decay),
            ("alpha value", alpha),
        )
        self._no_graph_options(capturable=capturable, differentiable=differentiable)
        defaults = {
            "lr": lr,
            "momentum": momentum,
            "alpha": alpha,
            "eps": eps,
            "centered": centered,
            "weight_decay": weight_decay,
            "capturable": capturable,
            "foreach": foreach,
            "maximize": maximize,
            "differentiable": differentiable,
        }
        super().__init__(params, defaults)

    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """One RMSprop update of every parameter that has a gradient."""
        loss = self._closure_loss(closure)
        for group in self.param_groups:
            lr, alpha, eps = group["lr"], group["alpha"], group["eps"]
            decay, momentum = group["weight_decay"], group["momentum"]
            for p in group["params"]:
                if p._grad is None:
                    continue
                data, g = p._data, p._grad._data
                if group["maximize"]:
                    g = -g
                state = self.state[p]
                if not state:
                    state["step"] = new_step_counter()
                    state["square_avg"] = new_tensor(np.zeros_like(data))
                    if momentum > 0:
                        state["momentum_buffer"] = new_tensor(np.zeros_like(data))
                    if group["centered"]:
                        state["grad_avg"] = new_tensor(np.zeros_like(data))
                self._count_step(state)
                if decay != 0:
                    g = add_(np.array(g, copy=True), data, decay)
                square_avg = state["square_avg"]._data
                square_avg *= alpha
                addcmul_(square_avg, g, g, 1 - alpha)
                if group["centered"]:
                    grad_avg = lerp_(state["grad_avg"]._data, g, 1 - alpha)
                    avg = sqrt(addcmul_(square_avg.copy(), grad_avg, grad_avg, -1))
                else:
                    avg = sqrt(square_avg)
                avg += np.asarray(eps, avg.dtype)
                if momentum > 0:
                    buf = state["momentum_buffer"]._data
                    buf *= momentum
                    buf += g / avg  # addcdiv_ with value 1: (1 * g) / avg
                    add_(data, buf, -lr)
                else:
                    addcdiv_(data, g, avg, -lr)
                self._bump_versions(p, state)
        return loss
