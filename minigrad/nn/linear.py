"""``nn.Linear``: y = x @ W.T + b, initialised as PyTorch initialises it."""

from __future__ import annotations

import math

from .._factories import empty
from ..tensor import Tensor
from . import functional as F
from . import init
from .module import Module
from .parameter import Parameter

__all__ = ["Linear"]


class Linear(Module):
    """A fully connected layer: ``weight`` is (out_features, in_features), ``bias`` (out,).

    ``reset_parameters`` uses PyTorch's defaults: kaiming_uniform_ with a=sqrt(5) for the
    weight, i.e. U(-1/sqrt(in), 1/sqrt(in)), and the same bound for the bias.
    """

    def __init__(
        self,
        in_features: int,
        out_features: int,
        bias: bool = True,
        device: object = None,
        dtype: object = None,
    ) -> None:
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.weight = Parameter(empty((out_features, in_features), dtype=dtype))
        if bias:
            self.bias = Parameter(empty(out_features, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input: Tensor) -> Tensor:
        params = self._parameters
        return F.linear(input, params["weight"], params["bias"])

    def extra_repr(self) -> str:
        return (
            f"in_features={self.in_features}, out_features={self.out_features}, "
            f"bias={self.bias is not None}"
        )
