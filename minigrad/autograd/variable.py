"""``Variable``: the basket of PyTorch 0.3, kept as PyTorch 2.x keeps it.

Since PyTorch 0.4 a Variable *is* a Tensor: ``Variable(t, requires_grad=True)``
returns a plain Tensor sharing ``t``'s storage and version counter, and every
tensor passes ``isinstance(x, Variable)``. ``requires_grad`` is parsed the way
PyTorch's C++ argument parser reads it, as an unsigned byte: ``1`` and ``2``
mean True, ``0`` False, and a float, None or a string is a TypeError.
"""

from __future__ import annotations

import operator

from ..tensor import Tensor

__all__ = ["Variable"]


def _as_unsigned_byte(value: object) -> bool:
    if isinstance(value, bool):
        return value
    n = operator.index(value)  # TypeError: 'float' object cannot be interpreted as an integer
    if n < 0:
        raise OverflowError("unsigned byte integer is less than minimum")
    if n > 255:
        raise OverflowError("unsigned byte integer is greater than maximum")
    return n != 0


class _VariableMeta(type):
    def __instancecheck__(cls, instance: object) -> bool:
        return isinstance(instance, Tensor)

    def __call__(cls, data: Tensor, requires_grad: object = False, volatile: object = False):
        if not isinstance(data, Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got {type(data).__name__}")
        flag = _as_unsigned_byte(requires_grad)
        t = data.detach()
        if flag:
            t.requires_grad = True
        return t


class Variable(metaclass=_VariableMeta):
    """``Variable(tensor, requires_grad=False)``: returns a Tensor (see module docstring)."""
