"""The in-place methods of Tensor: ``add_``, ``x += 1``, ``clamp_``, ``zero_`` ...

Each applies an op's Function through ``ops/inplace.apply_inplace``, which writes the result
into the tensor's own memory and records it in the graph; ``_tensor_methods.py`` binds
this table with the others.
"""

from __future__ import annotations

from typing import Any

from . import _dtypes
from ._functions._args import _operand
from ._functions.clamp_bounds import clamp_bounds
from ._functions.clamp_one_side import clamp_max_, clamp_min_
from .ops import activation as ACT
from .ops import arithmetic as A
from .ops import clamp as CL
from .ops import fill as FILL
from .ops import inplace as IP
from .ops import integer_division as IDIV
from .ops import masked as MASK
from .ops import powers as POW
from .ops import rounding as ROUND
from .ops import unary as U
from .tensor import Tensor


def _inplace(op):
    ufunc = IP.UFUNCS.get(op)

    def method(self, other):
        if type(other) is not Tensor:
            other = _operand(other)
            if other is None:
                return NotImplemented
            return IP.apply_inplace(op, self, other)
        if ufunc is not None and IP.plain_update(ufunc, self, other):
            return self  # the optimizer's update, p.data += -lr * p.grad: one ufunc
        return IP.apply_inplace_recorded(op, self, other)

    return method


def _add_(self, other, *, alpha=1):
    if type(alpha) is not int or alpha != 1:  # alpha=True and 1.0 are checked
        return IP.apply_inplace(A.AddAlpha, self, _operand(other), alpha)
    return IP.apply_inplace(A.Add, self, _operand(other))


def _sub_(self, other, *, alpha=1):
    if type(alpha) is not int or alpha != 1:  # alpha=True and 1.0 are checked
        return IP.apply_inplace(A.SubAlpha, self, _operand(other), alpha)
    return IP.apply_inplace(A.Sub, self, _operand(other))


def _unary_inplace(op):
    def method(self):
        return IP.apply_inplace(op, self)

    return method


def _clamp_(name: str):
    def clamp_(self, *bounds, **named):
        min, max = clamp_bounds(name, bounds, named, method=True)  # noqa: A001
        try:
            return IP.apply_inplace(CL.Clamp, self, min, max)
        except RuntimeError as e:
            if "can't be cast" not in str(e) or isinstance(min, Tensor) or isinstance(max, Tensor):
                raise
            # with number bounds PyTorch names the output type as C does: long int, bool
            head = str(e).rsplit(" ", 1)[0]
            raise RuntimeError(f"{head} {_dtypes.C_NAMES[self._data.dtype]}") from None

    return clamp_


def _pow_(self, exponent):
    if isinstance(exponent, Tensor):
        return IP.apply_inplace(POW.Pow, self, exponent)
    return IP.apply_inplace(POW.PowScalar, self, exponent)


def _square_(self):
    return IP.apply_inplace(POW.PowScalar, self, 2)  # PyTorch's square_ is pow_(2)


def _round_(self, *, decimals: int = 0):
    if decimals:
        return IP.apply_inplace(ROUND.RoundDecimals, self, decimals)
    return IP.apply_inplace(ROUND.Round, self)


def _by_operand(tensor_op, number_op):
    """``t //= x``, ``t %= x``: the tensor or the number form of the op, written into ``t``."""

    def method(self, other):
        if type(other) is not Tensor:
            other = _operand(other)
            if other is None:
                return NotImplemented
        if tensor_op is IDIV.Remainder:
            IDIV.check_inplace_cast(self, other)  # before the division by zero, as PyTorch
        out = IP.apply_inplace(tensor_op if type(other) is Tensor else number_op, self, other)
        if out._grad_fn is not None and issubclass(number_op, IDIV.FloorDivide):
            out._grad_fn._aten_name = "floor_divide_"  # its backward's error names it
        return out

    return method


def _masked_fill_(self, mask, value):
    if isinstance(value, Tensor):
        return IP.apply_inplace(MASK.MaskedFillTensor, self, value, mask._data)
    return IP.apply_inplace(MASK.MaskedFill, self, mask._data, value)


INPLACE_METHODS: dict[str, Any] = {
    "add_": _add_,
    "sub_": _sub_,
    "mul_": _inplace(A.Mul),
    "div_": _inplace(A.Div),
    "pow_": _pow_,
    "neg_": _unary_inplace(A.Neg),
    "clamp_": _clamp_("clamp_"),
    "clip_": _clamp_("clip_"),
    "clamp_min_": clamp_min_,
    "clamp_max_": clamp_max_,
    "multiply_": _inplace(A.Mul),
    "subtract_": _sub_,
    "true_divide_": _inplace(A.Div),
    "negative_": _unary_inplace(A.Neg),
    "square_": _square_,
    "round_": _round_,
    "exp_": _unary_inplace(U.Exp),
    "log_": _unary_inplace(U.Log),
    "sin_": _unary_inplace(U.Sin),
    "cos_": _unary_inplace(U.Cos),
    "sign_": _unary_inplace(U.Sign),
    "sgn_": _unary_inplace(U.Sgn),
    "relu_": _unary_inplace(ACT.Relu),
    "sigmoid_": _unary_inplace(U.Sigmoid),
    "tanh_": _unary_inplace(U.Tanh),
    "sqrt_": _unary_inplace(U.Sqrt),
    "abs_": _unary_inplace(U.Abs),
    "zero_": FILL.zero_,
    "fill_": FILL.fill_,
    "copy_": FILL.copy_,
    "__iadd__": _inplace(A.Add),
    "__isub__": _inplace(A.Sub),
    "__imul__": _inplace(A.Mul),
    "__itruediv__": _inplace(A.Div),
    "__ipow__": _pow_,  # t **= y is pow_ (Python would rebind t to t ** y)
    "__ifloordiv__": _by_operand(IDIV.FloorDivide, IDIV.FloorDivideScalar),
    "__imod__": _by_operand(IDIV.Remainder, IDIV.RemainderScalar),
    "floor_divide_": _by_operand(IDIV.FloorDivide, IDIV.FloorDivideScalar),
    "remainder_": _by_operand(IDIV.Remainder, IDIV.RemainderScalar),
    "masked_fill_": _masked_fill_,
}
