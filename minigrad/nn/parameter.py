"""``nn.Parameter``: a tensor that a Module registers as one of its learnable weights.

A Parameter is an ordinary leaf Tensor (``isinstance(p, Tensor)`` is true) whose
class tells ``Module.__setattr__`` to register it, so that ``model.parameters()``
finds it for the optimizer and ``model.state_dict()`` names it. Everything computed
from a Parameter is a plain Tensor, as in PyTorch.
"""

from __future__ import annotations

import numpy as np

from .._dtypes import get_default_dtype
from ..tensor import Tensor, new_tensor

__all__ = ["Parameter"]


class Parameter(Tensor):
    """A leaf tensor that requires grad by default and is registered by Modules.

    ``Parameter(t)`` shares ``t``'s storage (like ``t.detach()``): it is a new leaf,
    even when ``t`` was computed by an operation.
    """

    __slots__ = ()

    def __new__(cls, data: Tensor | None = None, requires_grad: bool = True) -> Parameter:
        if data is None:
            array = np.empty((0,), get_default_dtype().numpy)
        elif isinstance(data, Tensor):
            array = data._data
        else:
            raise AttributeError(f"'{type(data).__name__}' object has no attribute 'detach'")
        if requires_grad and array.dtype.kind != "f":
            raise RuntimeError(
                "Only Tensors of floating point and complex dtype can require gradients"
            )
        param = new_tensor(array, None, False, cls)
        if isinstance(data, Tensor):
            param._vc = data._vc  # shares storage and version counter, as detach() does
        param.requires_grad = bool(requires_grad)  # refused for an inference tensor
        return param

    def __repr__(self, *, tensor_contents: object = None) -> str:
        return "Parameter containing:\n" + Tensor.__repr__(self)

    __str__ = __repr__
