"""``minigrad.clamp_min``, ``clamp_max`` and the in-place ``x.clamp_min_``, ``x.clamp_max_``."""

from __future__ import annotations

from typing import Any

from .. import _dtypes
from .._typename import type_name
from ..ops import clamp_one_side as C1
from ..ops import inplace as IP
from ..tensor import Tensor
from ._args import _operand, _overloads

_MISSING: Any = object()


def _bound(name: str, arg: str, value: Any, extra: tuple = ()) -> Any:
    """A Tensor or a number, else PyTorch's "invalid combination of arguments"."""
    if value is not _MISSING and not extra and value is not None and not isinstance(value, str):
        bound = _operand(value)
        if bound is not None:
            return bound
    given = tuple(a for a in (value, *extra) if a is not _MISSING)
    got = ", ".join(type_name(a) for a in given)
    why = f"\n      didn't match because some of the arguments have invalid types: (!{got}!)"
    why = why if len(given) == 1 else ""
    raise _overloads(name, got, (f"(Tensor {arg}){why}", f"(Number {arg}){why}"))


def clamp_min(input: Tensor, min: Any = _MISSING, *extra: Any) -> Tensor:  # noqa: A002
    """Values below ``min`` (a number or a tensor that broadcasts) become ``min``."""
    bound = _bound("clamp_min", "min", min, extra)
    if isinstance(bound, Tensor):
        return C1.ClampMinTensor.apply(input, bound)
    return C1.ClampMin.apply(input, bound)


def clamp_max(input: Tensor, max: Any = _MISSING, *extra: Any) -> Tensor:  # noqa: A002
    """Values above ``max`` become ``max``."""
    bound = _bound("clamp_max", "max", max, extra)
    if isinstance(bound, Tensor):
        return C1.ClampMaxTensor.apply(input, bound)
    return C1.ClampMax.apply(input, bound)


def _in_place(number_op: type, tensor_op: type, name: str, arg: str):
    def method(self: Tensor, bound: Any = _MISSING, *extra: Any) -> Tensor:
        bound = _bound(f"{name}_", arg, bound, extra)
        if isinstance(bound, Tensor):
            return IP.apply_inplace(tensor_op, self, bound)
        try:
            return IP.apply_inplace(number_op, self, bound)
        except RuntimeError as e:  # with a number bound PyTorch names the type as C does
            if "can't be cast" not in str(e):
                raise
            head = str(e).rsplit(" ", 1)[0]
            raise RuntimeError(f"{head} {_dtypes.C_NAMES[self._data.dtype]}") from None

    method.__name__ = f"{name}_"
    method.__doc__ = f"``{name}`` in place."
    return method


clamp_min_ = _in_place(C1.ClampMin, C1.ClampMinTensor, "clamp_min", "min")
clamp_max_ = _in_place(C1.ClampMax, C1.ClampMaxTensor, "clamp_max", "max")
