"""``optim.SGD``: stochastic gradient descent, with momentum and weight decay, as PyTorch."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from ..tensor import new_tensor
from ._kernels import add_
from .optimizer import Optimizer

__all__ = ["SGD"]


class SGD(Optimizer):
    """``p -= lr * g``, where g is the gradient, plus ``weight_decay * p`` and, with momentum,
    the running buffer ``b = momentum * b + (1 - dampening) * g`` (``g + momentum * b`` for
    Nesterov). The same update, in the same order of operations, as ``torch.optim.SGD``; with
    momentum, weight decay or maximize each ``add_(x, alpha=...)`` is rounded once as PyTorch's
    fused multiply-add (``_kernels``), so the values are PyTorch's to the bit. Plain SGD keeps
    numpy's ``p -= lr * g`` (rounded twice: an ulp from PyTorch's at times), the hot loop of
    the lessons and benchmarks.
    """

    def __init__(
        self,
        params: Iterable[Any],
        lr: float = 1e-3,
        momentum: float = 0,
        dampening: float = 0,
        weight_decay: float = 0,
        nesterov: bool = False,
        *,
        maximize: bool = False,
        foreach: bool | None = None,
        differentiable: bool = False,
        fused: bool | None = None,
    ) -> None:
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        if differentiable:
            raise NotImplementedError("minigrad's optimizers do not support differentiable=True")
        defaults = {
            "lr": lr,
            "momentum": momentum,
            "dampening": dampening,
            "weight_decay": weight_decay,
            "nesterov": nesterov,
            "maximize": maximize,
            "foreach": foreach,
            "differentiable": differentiable,
            "fused": fused,
        }
        super().__init__(params, defaults)

    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """Update every parameter that has a gradient; returns ``closure()``'s loss if given."""
        loss = None if closure is None else self._closure_loss(closure)
        for group in self.param_groups:
            lr = group["lr"]
            momentum = group["momentum"]
            decay = group["weight_decay"]
            maximize = group["maximize"]
            if not (momentum or decay or maximize):  # plain SGD: the hot loop of the lessons
                # lr in the gradients' dtype, what numpy would convert the Python float to on
                # every product: a 0-d array, which numpy multiplies faster than its scalar
                scale = None
                for p in group["params"]:
                    g = p._grad
                    if g is not None:
                        g = g._data
                        if scale is None or scale.dtype is not g.dtype:
                            scale = np.array(lr, g.dtype)
                        p._data -= scale * g
                        p._vc[0] += 1
                continue
            dampening, nesterov = group["dampening"], group["nesterov"]
            for p in group["params"]:
                if p._grad is None:
                    continue
                g = p._grad._data
                if maximize:
                    g = -g
                if decay:
                    g = add_(np.array(g, copy=True), p._data, decay)
                if momentum:
                    state = self.state[p]
                    buf = state.get("momentum_buffer")
                    if buf is None:
                        state["momentum_buffer"] = buf = new_tensor(np.array(g, copy=True))
                        b = buf._data
                    else:
                        b = buf._data
                        b *= momentum
                        add_(b, g, 1 - dampening)
                        buf._vc[0] += 1
                    g = add_(np.array(g, copy=True), b, momentum) if nesterov else b
                add_(p._data, g, -lr)
                p._vc[0] += 1
        return loss
