"""``**``: tensor to a number, tensor to a tensor, number to a tensor.

``scalar_power`` computes ``x ** number`` the way PyTorch's pow kernel does
(``x * x * x`` for 3, ``1 / sqrt(x)`` for -0.5 ...), so that the values match too.
"""

from __future__ import annotations

import numpy as np

from ..autograd.function import ArrayFunction
from .arithmetic import MulScalar, SubScalar
from .namespace import namespace
from .number_range import check_int_exponent, check_scalar_int, int_operand

_BOOL = np.dtype(np.bool_)
_F32 = np.dtype(np.float32)


def _power(a, b):
    result = np.result_type(a, b)
    if result == _BOOL:  # bool ** bool: PyTorch has no kernel for it
        raise NotImplementedError("\"pow\" not implemented for 'Bool'")
    if result == _F32:  # the operands in float32, the power rounded once from float64:
        # PyTorch's powf is (nearly) correctly rounded, numpy's float32 power an ulp off for
        # 1 input in 5 (SLEEF's vectorised powf, for blocks of 32, is within an ulp of it)
        wide = [np.asarray(v, _F32).astype(np.float64) for v in (a, b)]
        return np.power(*wide).astype(_F32)
    try:
        return np.power(a, b)
    except ValueError:  # integers to negative integer powers: numpy refuses them all
        return _integer_power(a, b)


def _integer_power(a, b) -> np.ndarray:
    """PyTorch's ``powi``: squarings that wrap around (numpy's) where ``b >= 0``; where
    ``b < 0``, 1 for a base of 1, +-1 for -1, else 0 (``2 ** -1`` and ``0 ** -1`` are 0)."""
    dtype = np.result_type(a, b)
    a, b = (x.astype(dtype, copy=False) for x in np.broadcast_arrays(a, b))
    negative = b < 0
    out = np.power(a, np.where(negative, 0, b).astype(dtype))
    odd = (b % 2) != 0
    below = np.where(a == 1, 1, np.where(a == -1, np.where(odd, -1, 1), 0))
    return np.where(negative, below, out).astype(dtype)


class PowScalar(ArrayFunction):
    """``tensor ** number``: the exponent is a setting, not an input."""

    node_name = "PowBackward0"
    keeps_zeros = (True,)  # grad * (b * a ** (b - 1)): efficient zeros stay zeros
    n_params = 1
    saved_names = ("self",)
    saved_settings = {"exponent": "exponent"}

    @staticmethod
    def forward(ctx, a, exponent):
        if a.dtype.kind in "iub" and type(exponent) is int:  # bool too
            check_int_exponent(exponent, a.dtype)  # 2 ** -1, uint8 ** 300: refused
        elif type(exponent) is int:
            check_scalar_int(exponent)  # float ** 2**64: refused too
        if a.dtype is _BOOL and type(exponent) is int:
            a = a.astype(np.int64)  # bool ** 2 is int64, as in PyTorch (numpy says int8)
        elif a.dtype is _BOOL and type(exponent) is bool:  # PyTorch: x ** 1 copies, x ** 0 fills
            return a.copy() if exponent else np.ones_like(a)
        ctx.save_for_backward(a)
        ctx.exponent = exponent
        return scalar_power(a, exponent)

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        e = ctx.exponent
        if e == 0:
            return namespace(grad).zeros_like(grad)
        power = scalar_power(a, e - 1) if type(a) is np.ndarray else a ** (e - 1)
        return grad * MulScalar.call(power, e)


def scalar_power(a: np.ndarray, e):
    """``a ** e`` as PyTorch's pow kernel for a number exponent computes it: ``x * x * x`` for 3,
    ``1 / (x * x)`` for -2, ``1 / sqrt(x)`` for -0.5, and otherwise for float32 nearly correctly
    rounded (here float64 rounded once; numpy's float32 pow is off by an ulp one time in ten)."""
    if a.dtype.kind != "f":
        return a**e
    if e == 3:
        return a * a * a
    if e == -2:
        return 1 / (a * a)
    if e == -0.5:
        return 1 / np.sqrt(a)
    if a.dtype == np.float32 and e not in (2, 1, 0, -1, 0.5):
        return (a.astype(np.float64) ** e).astype(np.float32)
    return a**e


class Pow(ArrayFunction):
    """``tensor ** tensor``."""

    node_name = "PowBackward1"
    broadcasts = True
    saved_names = ("self", "exponent", "result")

    @staticmethod
    def forward(ctx, a, b):
        out = _power(a, b)
        ctx.save_for_backward(a, b, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        a, b, out = ctx.saved_tensors
        xp = namespace(grad)
        av, bv = xp.data(a), xp.data(b)
        grad_a = grad_b = None  # the exponent's first, as PyTorch's PowBackward1
        if ctx.needs_input_grad[1]:  # out * log(a): nan for a < 0, 0 where a == 0 and b >= 0
            wide = a if xp.dtype(a) == xp.dtype(out) else xp.astype(a, xp.dtype(out))
            # log in the result's dtype (float32 ** float64), as PyTorch's self.to(promoted)
            grad_b = grad * xp.where((av == 0) & (bv >= 0), 0.0, out * xp.log(wide))
        if ctx.needs_input_grad[0]:  # b * a ** (b - 1), and 0 where b == 0 (as PyTorch)
            power = Pow.call(a, SubScalar.call(b, 1))
            if bv.dtype.kind in "iu":  # float32 ** int64 is float32 in PyTorch (numpy widens
                power = xp.astype(power, xp.dtype(out))  # it to float64: no overflow to inf)
                b = xp.astype(b, xp.dtype(out))
            grad_a = xp.where(bv == 0, 0.0, grad * (b * power))
        return grad_a, grad_b


class RPow(ArrayFunction):
    """``number ** tensor``."""

    node_name = "PowBackward2"
    n_params = 1
    saved_names = ("exponent", "result")  # the exponent too, as PyTorch (its version is checked)
    saved_settings = {"self": "number"}

    @staticmethod
    def forward(ctx, b, number):
        # always C-ordered: PyTorch's pow(Scalar, Tensor) sets its output without strides
        out = _power(int_operand(b, number), b)
        out = out if out.flags.c_contiguous else out.copy()
        ctx.save_for_backward(b, out)
        # a Python float: the product stays in the tensor's dtype, as PyTorch's Scalar log(base)
        ctx.number, ctx.log_base = number, float(np.log(number))
        return out

    @staticmethod
    def backward(ctx, grad):
        b, out = ctx.saved_tensors
        scaled = MulScalar.call(out, ctx.log_base)  # out * log(number)
        if ctx.number == 0:  # 0 ** b: 0 where b >= 0 (not 0 * -inf), as PyTorch
            xp = namespace(grad)
            scaled = xp.where(xp.data(b) >= 0, np.zeros((), xp.dtype(scaled)), scaled)
        return grad * scaled
