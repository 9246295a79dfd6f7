"""Elementwise arithmetic: + - * / ** and neg, maximum, minimum (all broadcast)."""

from __future__ import annotations

import numpy as np

from ..autograd.function import ArrayFunction, _apply_binary
from .namespace import namespace

_BOOL = np.dtype(np.bool_)


def _no_bool_subtraction(a, b) -> None:
    """PyTorch refuses ``-`` with bools: masks are inverted with ``~``."""
    if getattr(a, "dtype", None) is _BOOL and _is_bool(b):
        raise RuntimeError(
            "Subtraction, the `-` operator, with two bool tensors is not "
            "supported. Use the `^` or `logical_xor()` operator instead."
        )
    raise RuntimeError(
        "Subtraction, the `-` operator, with a bool tensor is not supported. If "
        "you are trying to invert a mask, use the `~` or `logical_not()` operator "
        "instead."
    )


def _power(a, b):
    if np.result_type(a, b) == _BOOL:  # bool ** bool: PyTorch has no kernel for it
        raise NotImplementedError("\"pow\" not implemented for 'Bool'")
    try:
        return np.power(a, b)
    except ValueError:  # integers to negative integer powers: PyTorch truncates, 2 ** -1 is 0
        with np.errstate(divide="ignore"):
            out = np.trunc(np.power(np.asarray(a, np.float64), b))
        return np.where(np.isfinite(out), out, 0).astype(np.result_type(a, b))  # 0 ** -1 is 0


def _remainder(a, b):
    """PyTorch's remainder: fmod, moved into the divisor's sign (so -1. % 1. is -0., as there)."""
    mod = np.fmod(a, b)
    if mod.dtype.kind != "f":
        return np.remainder(a, b)
    return np.where((mod != 0) & ((np.asarray(b) < 0) != (mod < 0)), mod + b, mod)


def _no_integer_division_by_zero(a, b) -> None:
    if np.result_type(a, b).kind in "iu" and np.size(a) and np.size(b) and not np.all(b):
        raise RuntimeError("ZeroDivisionError")


def _in_float_dtype(a, b) -> tuple:
    """An integer array and a float array both in the float one's dtype, where PyTorch divides
    (numpy would divide int64 by float32 in float64: 3 // 0.3 rounds to 9 there, 10 in float32)."""
    da, db = getattr(a, "dtype", None), getattr(b, "dtype", None)
    if da is None or db is None or da.kind == db.kind or "f" not in (da.kind, db.kind):
        return a, b
    dtype = da if da.kind == "f" else db
    return np.asarray(a, dtype), np.asarray(b, dtype)


class Add(ArrayFunction):
    node_name = "AddBackward0"
    broadcasts = True
    saved_settings = {"alpha": "alpha"}  # grad_fn._saved_alpha is 1, as in PyTorch

    @staticmethod
    def forward(ctx, a, b):
        return a + b

    @staticmethod
    def backward(ctx, grad):
        return grad, grad


class Sub(ArrayFunction):
    node_name = "SubBackward0"
    broadcasts = True
    saved_settings = {"alpha": "alpha"}

    @staticmethod
    def forward(ctx, a, b):
        if _is_bool(a) or _is_bool(b):
            _no_bool_subtraction(*((a, b) if _is_bool(a) else (b, a)))
        return a - b

    @staticmethod
    def backward(ctx, grad):
        return grad, -grad


def _is_bool(x) -> bool:
    return type(x) is bool or getattr(x, "dtype", None) is _BOOL


def _integral_alpha(a, b, alpha) -> None:
    """PyTorch's checks of ``alpha`` against the result's dtype."""
    if isinstance(alpha, (bool, np.bool_)) and np.result_type(a, b).kind != "b":
        raise RuntimeError("Boolean alpha only supported for Boolean results.")
    if isinstance(alpha, float) and np.result_type(a, b).kind in "iub":
        raise RuntimeError(
            "For integral input tensors, argument alpha must not be a floating point number."
        )


class AddAlpha(ArrayFunction):
    """``add(a, b, alpha=c)``: ``a + c * b`` in one node, as PyTorch records it."""

    node_name = "AddBackward0"
    broadcasts = True
    promotes = True
    n_params = 1
    saved_settings = {"alpha": "alpha"}

    @staticmethod
    def forward(ctx, a, b, alpha):
        _integral_alpha(a, b, alpha)
        ctx.alpha = alpha
        if _is_bool(a) and _is_bool(b):  # bools stay bools: a or (b and alpha)
            return np.logical_or(a, np.logical_and(b, bool(alpha)))
        return _fused_multiply_add(a, b, alpha)

    @staticmethod
    def backward(ctx, grad):
        return grad, grad if ctx.alpha == 1 else MulScalar.call(grad, ctx.alpha)


def _fused_multiply_add(a, b, factor):
    """``a + b * factor`` rounded once, as PyTorch's add/sub kernel (a fused multiply-add):
    float32 through float64 (where the product is exact), float64 through long double."""
    dtype = np.result_type(a, b)
    wide = {"f": np.float64 if dtype.itemsize < 8 else np.longdouble}.get(dtype.kind)
    if wide is None:
        return a + b * factor
    factor = np.asarray(factor, dtype)  # PyTorch's kernel sees alpha in the tensor's dtype
    return (np.asarray(a, wide) + np.asarray(b, wide) * factor.astype(wide)).astype(dtype)


class SubAlpha(AddAlpha):
    """``sub(a, b, alpha=c)``: ``a - c * b`` in one node."""

    node_name = "SubBackward0"

    @staticmethod
    def forward(ctx, a, b, alpha):
        if _is_bool(a) or _is_bool(b):
            _no_bool_subtraction(*((a, b) if _is_bool(a) else (b, a)))
        _integral_alpha(a, b, alpha)
        ctx.alpha = alpha
        return _fused_multiply_add(a, b, -alpha)  # PyTorch's add(a, b, -alpha): -0 stays 0

    @staticmethod
    def backward(ctx, grad):  # PyTorch's -grad * alpha (not grad * -alpha: the sign of 0)
        return grad, -grad if ctx.alpha == 1 else MulScalar.call(-grad, ctx.alpha)


Add._Node.alpha = Sub._Node.alpha = 1  # what _saved_alpha reads on the nodes of + and -


class RSub(ArrayFunction):
    """``number - tensor``: PyTorch records it as its own node, with one edge."""

    node_name = "RsubBackward1"
    n_params = 1

    @staticmethod
    def forward(ctx, a, number):
        if a.dtype is _BOOL or type(number) is bool:
            _no_bool_subtraction(a, number)
        return number - a

    @staticmethod
    def backward(ctx, grad):
        return -grad


class Mul(ArrayFunction):
    node_name = "MulBackward0"
    broadcasts = True
    saved_names = ("self", "other")
    saved_when = (1, 0)  # a is kept for b's gradient only, b for a's

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return a * b

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        grad_b = None if a is None else grad * a  # other's first, as PyTorch's MulBackward0
        return None if b is None else grad * b, grad_b


class Div(ArrayFunction):
    node_name = "DivBackward0"
    broadcasts = True
    saved_names = ("self", "other")
    saved_when = (1, None)  # a is kept for b's gradient only

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return a / b

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        if a is None:
            return grad / b, None
        a = namespace(grad).wrapped(a, b)  # div(2, x): 2 is a constant input, as in PyTorch
        grad_b = -grad * (a / b / b)  # other's first, as PyTorch's DivBackward0
        return grad / b, grad_b


class DivScalar(ArrayFunction):
    """``tensor / number`` where PyTorch's C++ divides by a Scalar (``DivBackward1``)."""

    node_name = "DivBackward1"
    n_params = 1

    @staticmethod
    def forward(ctx, a, divisor):
        ctx.divisor = divisor
        return a / divisor

    @staticmethod
    def backward(ctx, grad):
        return DivScalar.call(grad, ctx.divisor)


class SubScalar(ArrayFunction):
    """``tensor - number`` where PyTorch's C++ subtracts a Scalar (``SubBackward1``)."""

    node_name = "SubBackward1"
    n_params = 1

    @staticmethod
    def forward(ctx, a, number):
        return a - number

    @staticmethod
    def backward(ctx, grad):
        return grad


class MaskedFill(ArrayFunction):
    """Zero where ``mask`` is True (PyTorch's ``masked_fill(mask, 0)``, ``MaskedFillBackward0``)."""

    node_name = "MaskedFillBackward0"
    n_params = 1

    @staticmethod
    def forward(ctx, a, mask):
        ctx.mask = mask
        ctx.save_for_backward(mask)  # PyTorch saves it: a second backward raises
        return np.where(mask, np.zeros((), a.dtype), a)

    @staticmethod
    def backward(ctx, grad):
        return MaskedFill.call(grad, ctx.mask)


class MulScalar(ArrayFunction):
    """``tensor * number`` where PyTorch's C++ multiplies by a Scalar (``MulBackward1``)."""

    node_name = "MulBackward1"
    n_params = 1

    @staticmethod
    def forward(ctx, a, factor):
        ctx.factor = factor
        return a * factor

    @staticmethod
    def backward(ctx, grad):
        return MulScalar.call(grad, ctx.factor)


class AddScalar(ArrayFunction):
    """``tensor + number`` where PyTorch's C++ adds a Scalar (``AddBackward1``; Python's
    ``x + 1`` records ``AddBackward0``)."""

    node_name = "AddBackward1"
    n_params = 1

    @staticmethod
    def forward(ctx, a, number):
        return a + number

    @staticmethod
    def backward(ctx, grad):
        return grad


class Reciprocal(ArrayFunction):
    """``1 / x``; ``number / tensor`` is ``reciprocal(tensor) * number``, as in PyTorch."""

    node_name = "ReciprocalBackward0"

    @staticmethod
    def forward(ctx, a):
        out = 1 / a
        ctx.save_for_backward(out)
        return out

    saved_names = ("result",)

    @staticmethod
    def backward(ctx, grad):
        (out,) = ctx.saved_tensors
        return -grad * (out * out)


class Neg(ArrayFunction):
    node_name = "NegBackward0"

    @staticmethod
    def forward(ctx, a):
        if a.dtype is _BOOL:
            raise RuntimeError(
                "Negation, the `-` operator, on a bool tensor is not supported. If you are trying "
                "to invert a mask, use the `~` or `logical_not()` operator instead."
            )
        return -a

    @staticmethod
    def backward(ctx, grad):
        return -grad


class PowScalar(ArrayFunction):
    """``tensor ** number``: the exponent is a setting, not an input."""

    node_name = "PowBackward0"
    n_params = 1
    saved_names = ("self",)
    saved_settings = {"exponent": "exponent"}

    @staticmethod
    def forward(ctx, a, exponent):
        if a.dtype.kind in "iu" and type(exponent) is int and exponent < 0:
            raise RuntimeError("Integers to negative integer powers are not allowed.")
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
            grad_b = grad * xp.where((av == 0) & (bv >= 0), 0.0, out * xp.log(a))
        if ctx.needs_input_grad[0]:  # b * a ** (b - 1), and 0 where b == 0 (as PyTorch)
            grad_a = xp.where(bv == 0, 0.0, grad * (b * a ** SubScalar.call(b, 1)))
        return grad_a, grad_b


class RPow(ArrayFunction):
    """``number ** tensor``."""

    node_name = "PowBackward2"
    n_params = 1
    saved_names = ("exponent", "result")  # the exponent too, as PyTorch (its version is checked)
    saved_settings = {"self": "number"}

    @staticmethod
    def forward(ctx, b, number):
        out = _power(number, b)
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


def split_between(grad, a_loses: np.ndarray, b_loses: np.ndarray, tie: np.ndarray) -> tuple:
    """The gradient goes to whichever input was picked; at a tie each side gets half.

    Each side is zeroed only where it lost, so a nan (which neither wins nor ties)
    passes the gradient to both sides, as in PyTorch.
    """
    where = namespace(grad).where  # each side halves the gradient itself, as in PyTorch
    return (
        MaskedFill.call(where(tie, DivScalar.call(grad, 2), grad), a_loses),
        MaskedFill.call(where(tie, DivScalar.call(grad, 2), grad), b_loses),
    )


class Maximum(ArrayFunction):
    """Elementwise maximum; at a tie each side gets half the gradient (as in PyTorch)."""

    node_name = "MaximumBackward0"
    saved_names = ("self", "other")
    broadcasts = True

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return np.maximum(b, a)  # at a tie (0. and -0.) PyTorch keeps a, numpy its second

    @staticmethod
    def backward(ctx, grad):
        a, b = (namespace(grad).data(v) for v in ctx.saved_tensors)
        return split_between(grad, a < b, a > b, a == b)


class Minimum(ArrayFunction):
    node_name = "MinimumBackward0"
    saved_names = ("self", "other")
    broadcasts = True

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return np.minimum(b, a)  # at a tie PyTorch keeps a, as in maximum

    @staticmethod
    def backward(ctx, grad):
        a, b = (namespace(grad).data(v) for v in ctx.saved_tensors)
        return split_between(grad, a > b, a < b, a == b)


class RemainderScalar(ArrayFunction):
    """``tensor % number`` (Python's sign rule: the result has the sign of the divisor)."""

    node_name = "RemainderBackward0"
    n_params = 1

    @staticmethod
    def forward(ctx, a, number):
        _no_integer_division_by_zero(a, number)
        return _remainder(a, number)

    @staticmethod
    def backward(ctx, grad):
        return grad


class Remainder(ArrayFunction):
    """``tensor % tensor``."""

    node_name = "RemainderBackward1"
    broadcasts = True
    saved_when = (1, 1)  # only b's gradient reads them (PyTorch keeps neither otherwise)

    @staticmethod
    def forward(ctx, a, b):
        _no_integer_division_by_zero(a, b)
        ctx.save_for_backward(a, b)
        return _remainder(a, b)

    @staticmethod
    def backward(ctx, grad):
        """The divisor's gradient is ``-grad * div(a, b, rounding_mode="floor")`` (a step
        function: recorded as ``DivBackward2``, whose own gradient is 0)."""
        if ctx._next[1] is None:  # nothing was kept: b's gradient is not needed
            return grad, None
        a, b = ctx.saved_tensors
        return grad, -grad * DivRounded.call(a, b, "floor")


class FloorDivide(ArrayFunction):
    """``a // b``: PyTorch records it but has no derivative for it."""

    node_name = "NotImplemented"
    namespaced = True
    broadcasts = True

    @staticmethod
    def forward(ctx, a, b):
        _no_bool_division(a, b, "div_floor")
        _no_integer_division_by_zero(a, b)
        return np.floor_divide(*_in_float_dtype(a, b))

    @staticmethod
    def backward(ctx, grad):
        raise RuntimeError("derivative for aten::floor_divide is not implemented")

    @classmethod
    def apply(cls, a, b):
        """PyTorch's ``NotImplemented`` node has an edge only to inputs that require grad."""
        out = _apply_binary(cls, a, b)
        node = out._grad_fn
        if node is not None:
            node._next = tuple([fn for fn in node._next if fn is not None])
        return out


class FloorDivideScalar(FloorDivide):
    """``tensor // number``: one edge, to the tensor."""

    node_name = "NotImplemented"
    namespaced = True
    broadcasts = False
    n_params = 1


class RFloorDivide(FloorDivideScalar):
    """``number // tensor``."""

    node_name = "NotImplemented"
    namespaced = True

    @staticmethod
    def forward(ctx, b, number):
        _no_integer_division_by_zero(number, b)
        return np.floor_divide(number, b)


class RRemainder(FloorDivideScalar):
    """``number % tensor``: recorded, without a derivative, as in PyTorch."""

    node_name = "NotImplemented"
    namespaced = True

    @staticmethod
    def forward(ctx, b, number):
        _no_integer_division_by_zero(number, b)
        return _remainder(number, b)

    @staticmethod
    def backward(ctx, grad):
        raise RuntimeError("derivative for aten::remainder is not implemented")


def _trunc_divide(a, b):
    """C's division, rounding toward zero; integers stay exact (no trip through float)."""
    quotient = np.floor_divide(a, b)
    if quotient.dtype.kind not in "iu":
        return np.trunc(np.true_divide(a, b))
    return quotient + ((np.remainder(a, b) != 0) & ((np.asarray(a) < 0) != (np.asarray(b) < 0)))


class DivRounded(ArrayFunction):
    """``div(a, b, rounding_mode="floor" | "trunc")``: a step function, so its gradient is 0
    for both inputs (PyTorch records it as ``DivBackward2``, a number as an input without edge).
    """

    node_name = "DivBackward2"
    broadcasts = True
    promotes = True
    n_params = 1
    saved_when = (1, None)

    @staticmethod
    def forward(ctx, a, b, mode):
        if np.result_type(a, b) == _BOOL:
            raise NotImplementedError(f"\"div_{mode}_cpu\" not implemented for 'Bool'")
        _no_integer_division_by_zero(a, b)
        ctx.save_for_backward(a, b)  # PyTorch keeps b (a number too), and a for b's gradient
        a, b = _in_float_dtype(a, b)
        return np.floor_divide(a, b) if mode == "floor" else _trunc_divide(a, b)

    @staticmethod
    def backward(ctx, grad):
        ctx.saved_tensors  # noqa: B018 - changed in place since: PyTorch's error (it reads them)
        # zeros, not grad * 0: the -0. and nan of a product would show (PyTorch: zeros_like)
        xp = namespace(grad)
        return xp.zeros_like(grad), xp.zeros_like(grad)


class RSubTensor(ArrayFunction):
    """``rsub(x, y)`` of two tensors: ``y - alpha * x``, edges in the order (x, y)."""

    node_name = "RsubBackward0"
    broadcasts = True
    n_params = 1

    @staticmethod
    def forward(ctx, a, b, alpha):
        if _is_bool(a) or _is_bool(b):
            SubAlpha.forward(ctx, a, b, alpha)  # PyTorch's error for bools
        ctx.alpha = alpha
        return b - a * alpha if alpha != 1 else b - a

    @staticmethod
    def backward(ctx, grad):
        return -grad * ctx.alpha if ctx.alpha != 1 else -grad, grad


def _no_bool_division(a, b, kernel: str) -> None:
    if _is_bool(a) and _is_bool(b):
        raise NotImplementedError(f"\"{kernel}_cpu\" not implemented for 'Bool'")
