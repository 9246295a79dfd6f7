"""``minigrad.add``, ``sub``, ``mul``, ``div``, ``pow``, ``exp``, ``clamp``, ...

The arithmetic and elementwise functions. They sort out Python numbers and
reflected argument orders (``minigrad.sub(2, x)``) and call one op each; the Tensor
methods ``x.add(y)``, ``x.exp()`` are these same functions.
"""

from __future__ import annotations

from ..ops import activation as ACT
from ..ops import arithmetic as A
from ..ops import clamp as CL
from ..ops import integer_division as IDIV
from ..ops import pairwise_extremes as MAXMIN
from ..ops import powers as POW
from ..ops import unary as U
from ..ops.number_range import check_scalar_int
from ..tensor import Tensor
from ._args import _operand
from .clamp_bounds import clamp_bounds

Operand = Tensor | float  # a tensor or a Python number (int and bool included)


def add(input: Operand, other: Operand, *, alpha: float = 1) -> Tensor:
    if type(alpha) is not int or alpha != 1:  # one AddBackward0 node, as in PyTorch
        return A.AddAlpha.apply(_operand(input), _operand(other), alpha)
    if not isinstance(input, Tensor):
        return A.Add.apply(_operand(input), other)
    return A.Add.apply(input, _operand(other))


def sub(input: Operand, other: Operand, *, alpha: float = 1) -> Tensor:
    """``sub(2, x)`` is ``SubBackward0`` with the number as an input, as in PyTorch (the
    operator ``2 - x`` is ``RsubBackward1``)."""
    if type(alpha) is not int or alpha != 1:  # alpha=True, 1.0 are checked
        return A.SubAlpha.apply(_operand(input), _operand(other), alpha)
    if not isinstance(input, Tensor):
        return A.Sub.apply(_operand(input), other)
    return A.Sub.apply(input, _operand(other))


def rsub(input: Tensor, other: Operand, *, alpha: float = 1) -> Tensor:
    """``other - alpha * input`` (PyTorch's rsub)."""
    if isinstance(other, Tensor) or type(alpha) is not int or alpha != 1:
        return A.RSubTensor.apply(input, _operand(other), alpha)
    return A.RSub.apply(input, _operand(other))


def mul(input: Operand, other: Operand) -> Tensor:
    return (
        A.Mul.apply(input, _operand(other))
        if isinstance(input, Tensor)
        else A.Mul.apply(_operand(input), other)
    )


def div(input: Operand, other: Operand, *, rounding_mode: str | None = None) -> Tensor:
    if rounding_mode is not None:
        if rounding_mode not in ("trunc", "floor"):
            raise RuntimeError(
                "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found "
                f"'{rounding_mode}'"
            )
        for number in (input, other):
            if type(number) is int:
                check_scalar_int(number)  # 2**64: refused whatever the tensor's dtype
        return IDIV.DivRounded.apply(_operand(input), _operand(other), rounding_mode)
    if not isinstance(input, Tensor):
        return A.Div.apply(_operand(input), other)  # div(2, x): DivBackward0, as in PyTorch
    return A.Div.apply(input, _operand(other))


def pow(input: Operand, exponent: Operand) -> Tensor:  # noqa: A001 - PyTorch's name
    if not isinstance(input, Tensor):
        return POW.RPow.apply(exponent, _operand(input))
    if isinstance(exponent, Tensor):
        return POW.Pow.apply(input, exponent)
    return POW.PowScalar.apply(input, _operand(exponent))


def remainder(input: Operand, other: Operand) -> Tensor:
    if not isinstance(input, Tensor):
        return IDIV.RRemainder.apply(other, _operand(input))
    if isinstance(other, Tensor):
        return IDIV.Remainder.apply(input, other)
    return IDIV.RemainderScalar.apply(input, _operand(other))


def floor_divide(input: Operand, other: Operand) -> Tensor:
    if not isinstance(input, Tensor):
        return IDIV.RFloorDivide.apply(other, _operand(input))
    if isinstance(other, Tensor):
        return IDIV.FloorDivide.apply(input, other)
    return IDIV.FloorDivideScalar.apply(input, _operand(other))


def neg(input: Tensor) -> Tensor:
    return A.Neg.apply(input)


def maximum(input: Tensor, other: Tensor) -> Tensor:
    return MAXMIN.Maximum.apply(input, other)


def minimum(input: Tensor, other: Tensor) -> Tensor:
    return MAXMIN.Minimum.apply(input, other)


# -- elementwise functions --------------------------------------------------------------------


def exp(input: Tensor) -> Tensor:
    return U.Exp.apply(input)


def log(input: Tensor) -> Tensor:
    return U.Log.apply(input)


def sqrt(input: Tensor) -> Tensor:
    return U.Sqrt.apply(input)


def abs(input: Tensor) -> Tensor:  # noqa: A001
    return U.Abs.apply(input)


def sin(input: Tensor) -> Tensor:
    return U.Sin.apply(input)


def cos(input: Tensor) -> Tensor:
    return U.Cos.apply(input)


def tanh(input: Tensor) -> Tensor:
    return U.Tanh.apply(input)


def sigmoid(input: Tensor) -> Tensor:
    return U.Sigmoid.apply(input)


def relu(input: Tensor) -> Tensor:
    return ACT.Relu.apply(input)


def _clamp(name: str, method: bool = False):
    def clamp(input: Tensor, *bounds: Operand | None, **named: Operand | None) -> Tensor:
        """``clamp(input, min=None, max=None)``: both bounds Tensors, or both numbers."""
        given = bounds if method else (input, *bounds)
        min, max = clamp_bounds(name, given, named, method)  # noqa: A001
        if isinstance(min, Tensor) or isinstance(max, Tensor):
            return CL.ClampTensor.apply(input, _operand(min), _operand(max))
        return CL.Clamp.apply(input, min, max)

    clamp.__name__ = name
    return clamp


clamp, clip = _clamp("clamp"), _clamp("clip")
clamp_method, clip_method = _clamp("clamp", method=True), _clamp("clip", method=True)


def sign(input: Tensor) -> Tensor:
    return U.Sign.apply(input)


def sgn(input: Tensor) -> Tensor:
    return U.Sgn.apply(input)
