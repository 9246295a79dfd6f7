"""``minigrad.atan2``, ``fmod``, ``lerp`` and their Tensor methods (with ``outer``'s).

The math functions tutorials reach for beside the arithmetic operators: an angle from two
coordinates (``atan2``), C's remainder (``fmod``, next to ``%``'s ``remainder``) and a blend
of two tensors (``lerp``, the running average of an optimizer). Each is one op in
``minigrad/ops``; this module reads the arguments as PyTorch's argument parser does (its
``TypeError`` for a number where a Tensor is required) and lists the methods, in-place ones
included, in ``METHODS``, which ``elementwise.py`` adds to its own (and
``_tensor_methods.py`` to its table).
"""

from __future__ import annotations

from typing import Any

from .._dtypes import C_NAMES
from .._typename import type_name
from ..ops import atan2 as AT
from ..ops import integer_division as IDIV
from ..ops import lerp as LERP
from ..ops.inplace import apply_inplace
from ..ops.number_range import check_scalar_int
from ..tensor import Tensor
from ._args import _operand, _overloads
from .linalg import ger_method, outer_method


def _must_be_tensors(name: str, values: tuple, method: bool) -> None:
    """PyTorch's argument parser: ``atan2(): argument 'other' (position 2) must be Tensor``
    (a method counts its arguments after ``self``)."""
    for position, (arg, value) in enumerate(values, 1 - method):
        if not isinstance(value, Tensor):
            raise TypeError(
                f"{name}(): argument '{arg}' (position {position}) must be Tensor, "
                f"not {type_name(value)}"
            )


def _atan2(name: str):
    def atan2(input: Tensor, other: Tensor) -> Tensor:
        """The angle of ``(other, input)`` (``y`` first, as in C), elementwise, broadcast."""
        _must_be_tensors(name, (("input", input), ("other", other)), method=False)
        return AT.Atan2.apply(input, other)

    def method(self: Tensor, other: Tensor) -> Tensor:
        _must_be_tensors(name, (("self", self), ("other", other)), method=True)
        return AT.Atan2.apply(self, other)

    def inplace(self: Tensor, other: Tensor) -> Tensor:
        _must_be_tensors(f"{name}_", (("self", self), ("other", other)), method=True)
        return apply_inplace(AT.Atan2, self, other)

    atan2.__name__, method.__name__, inplace.__name__ = name, name, f"{name}_"
    return atan2, method, inplace


atan2, _atan2_method, _atan2_ = _atan2("atan2")
arctan2, _arctan2_method, _arctan2_ = _atan2("arctan2")

_NUMBER_OR_TENSOR = (
    "(Tensor input, Tensor other, *, Tensor out = None)",
    "(Tensor input, Number other, *, Tensor out = None)",
)


def _method_overloads(name: str, given: tuple, signatures: tuple[str, ...]) -> TypeError:
    """The parser's error for a method: each signature, and which arguments did not fit it
    (marked ``!type!``; from the first that does not fit on, all are marked, as there).
    ``signatures``: per signature, the kind of each argument ("Tensor" or "Number")."""
    got = ", ".join(type_name(v) for v in given)
    lines = ""
    for kinds in signatures:
        marks, failed = [], False
        for kind, value in zip(kinds.split(), given):
            failed = failed or not _fits(kind, value)
            marks.append(f"!{type_name(value)}!" if failed else type_name(value))
        names = ", ".join(f"{kind} {arg}" for kind, arg in zip(kinds.split(), _ARG_NAMES[name]))
        lines += (
            f" * ({names})\n      didn't match because some of the arguments have invalid "
            f"types: ({', '.join(marks)})\n"
        )
    return TypeError(
        f"{name}() received an invalid combination of arguments - got ({got}), but expected "
        f"one of:\n{lines}"
    )


def _fits(kind: str, value: Any) -> bool:
    return isinstance(value, Tensor) if kind == "Tensor" else _operand(value) is not None


_ARG_NAMES = {
    "fmod": ("other",),
    "fmod_": ("other",),
    "lerp": ("end", "weight"),
    "lerp_": ("end", "weight"),
}


def fmod(input: Tensor, other: Tensor | float) -> Tensor:
    """C's remainder (the sign of ``input``), elementwise; ``other`` a tensor or a number."""
    number = None if isinstance(other, Tensor) else _operand(other)
    if not isinstance(input, Tensor) or (number is None and not isinstance(other, Tensor)):
        got = f"{type_name(input)}, {type_name(other)}"
        raise _overloads("fmod", got, _NUMBER_OR_TENSOR)
    if number is None:
        return IDIV.Fmod.apply(input, other)
    return IDIV.FmodScalar.apply(input, number)


def _fmod_method(self: Tensor, other: Tensor | float) -> Tensor:
    if not isinstance(other, Tensor) and _operand(other) is None:
        raise _method_overloads("fmod", (other,), ("Tensor", "Number"))
    return fmod(self, other)


def _fmod_(self: Tensor, other: Tensor | float) -> Tensor:
    number = other if isinstance(other, Tensor) else _operand(other)
    if number is None:
        raise _method_overloads("fmod_", (other,), ("Tensor", "Number"))
    IDIV.check_inplace_cast(self, number)
    if isinstance(number, Tensor):
        return apply_inplace(IDIV.Fmod, self, number)
    return apply_inplace(IDIV.FmodScalar, self, number)


_MISSING: Any = object()  # an argument not given, left out of the parser's "got (...)"
_LERP = (
    "(Tensor input, Tensor end, Tensor weight, *, Tensor out = None)",
    "(Tensor input, Tensor end, Number weight, *, Tensor out = None)",
)


def _lerp_op(input: Tensor, end: Tensor, weight: Any) -> tuple:
    """The op and its weight, after PyTorch's checks in its order: ``end``'s dtype, then a
    dimensioned ``weight``'s (a 0-d one promotes, as a number does)."""
    if input._data.dtype != end._data.dtype:
        raise RuntimeError(
            f"expected dtype {C_NAMES[input._data.dtype]} for `end` but got dtype "
            f"{C_NAMES[end._data.dtype]}"
        )
    if isinstance(weight, Tensor):
        if weight._data.ndim and weight._data.dtype != input._data.dtype:
            raise RuntimeError(
                f"expected dtype {C_NAMES[input._data.dtype]} for `weight` but got dtype "
                f"{C_NAMES[weight._data.dtype]}"
            )
        return LERP.LerpTensor, weight
    if type(weight) is int:
        check_scalar_int(weight)
    return LERP.LerpScalar, weight


def lerp(input: Tensor, end: Tensor, weight: Tensor | float = _MISSING) -> Tensor:
    """``input + weight * (end - input)``, with ``weight`` a number or a tensor (broadcast)."""
    given = tuple(v for v in (input, end, weight) if v is not _MISSING)
    if (
        len(given) < 3
        or not isinstance(input, Tensor)
        or not isinstance(end, Tensor)
        or not (isinstance(weight, Tensor) or _operand(weight) is not None)
    ):
        raise _overloads("lerp", ", ".join(type_name(v) for v in given), _LERP)
    op, weight = _lerp_op(input, end, weight if isinstance(weight, Tensor) else _operand(weight))
    return op.apply(input, end, weight)


def _lerp_method(name: str):
    def method(self: Tensor, end: Tensor, weight: Tensor | float = _MISSING) -> Tensor:
        given = tuple(v for v in (end, weight) if v is not _MISSING)
        fits = isinstance(weight, Tensor) or _fits("Number", weight)
        if len(given) < 2 or not isinstance(end, Tensor) or not fits:
            raise _method_overloads(name, given, ("Tensor Tensor", "Tensor Number"))
        number = weight if isinstance(weight, Tensor) else _operand(weight)
        op, weight = _lerp_op(self, end, number)
        if name == "lerp_":
            return apply_inplace(op, self, end, weight)
        return op.apply(self, end, weight)

    method.__name__ = name
    return method


FUNCTIONS: dict[str, Any] = {
    "atan2": atan2,
    "arctan2": arctan2,
    "fmod": fmod,
    "lerp": lerp,
}

METHODS: dict[str, Any] = {
    "atan2": _atan2_method,
    "atan2_": _atan2_,
    "arctan2": _arctan2_method,
    "arctan2_": _arctan2_,
    "fmod": _fmod_method,
    "fmod_": _fmod_,
    "lerp": _lerp_method("lerp"),
    "lerp_": _lerp_method("lerp_"),
    "outer": outer_method,  # (linalg.py)
    "ger": ger_method,
}
