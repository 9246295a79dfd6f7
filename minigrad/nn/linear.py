"""``nn.Linear``: y = x @ W.T + b, initialised as PyTorch initialises it."""

from __future__ import annotations

import math

from .._factories import empty
from ..tensor import Tensor
from . import functional as F
from . import init
from .module import Module
from .parameter import Parameter

__all__ = ["Linear", "LazyLinear", "UninitializedParameter"]


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


class UninitializedParameter(Parameter):
    """A weight whose shape is not known yet (``LazyLinear`` before its first call)."""

    __slots__ = ()

    def __repr__(self, *, tensor_contents: object = None) -> str:
        return "<UninitializedParameter>"

    __str__ = __repr__


class LazyLinear(Linear):
    """A ``Linear`` that learns ``in_features`` from its first input.

    Until then its weight and bias are ``UninitializedParameter``; the first call gives
    them their shapes and PyTorch's initialisation in place (so an optimizer made before
    that sees the real weights), and the module becomes a plain ``Linear``.
    """

    def __init__(
        self, out_features: int, bias: bool = True, device: object = None, dtype: object = None
    ) -> None:
        Module.__init__(self)
        self.in_features = 0
        self.out_features = out_features
        self.weight = UninitializedParameter(empty(0, dtype=dtype))
        if bias:
            self.bias = UninitializedParameter(empty(0, dtype=dtype))
        else:
            self.register_parameter("bias", None)

    def forward(self, input: Tensor) -> Tensor:
        self.in_features = input.shape[-1]
        dtype = self.weight._data.dtype
        self.weight._data = empty((self.out_features, self.in_features))._data.astype(dtype)
        self.weight.__class__ = Parameter
        if self.bias is not None:
            self.bias._data = empty(self.out_features)._data.astype(dtype)
            self.bias.__class__ = Parameter
        self.reset_parameters()
        self.__class__ = Linear
        return Linear.forward(self, input)
