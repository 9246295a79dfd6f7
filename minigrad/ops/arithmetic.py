"""Elementwise arithmetic: + - * / and neg, reciprocal, masked_fill (all broadcast).

The other binary ops have a module each: ``powers.py`` (``**``), ``integer_division.py``
(``//``, ``%`` and ``div``'s rounding modes) and ``pairwise_extremes.py`` (``maximum``,
``minimum``).
"""

from __future__ import annotations

import numpy as np

from ..autograd.array_apply import _array_node_run
from ..autograd.function import ArrayFunction
from ._common import broadcast_shapes
from ._fma import fma
from .bias_add import bias_add
from .cpu_loop_split import rounded_product_elements
from .namespace import namespace
from .number_range import alpha_factor, int_operand

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


class Add(ArrayFunction):
    node_name = "AddBackward0"
    broadcasts = True
    saved_settings = {"alpha": "alpha"}  # grad_fn._saved_alpha is 1, as in PyTorch
    apply = classmethod(bias_add)  # x @ W + b recorded directly, else the general apply

    @staticmethod
    def forward(ctx, a, b):
        return a + b

    @staticmethod
    def backward(ctx, grad):
        return grad, grad


def _add_run(node, grad: np.ndarray) -> tuple:
    """AddBackward0's ``_run``: ``x @ W + b`` sums the bias's gradient over the batch, the
    one sum the general wrapper (``array_apply._array_node_run``) would make, without it."""
    shapes = node._shapes
    if shapes is None:  # nothing was broadcast (+ saves nothing: no freed graph to report)
        return grad, grad
    if type(shapes) is tuple and shapes[0] is None and grad.ndim == 2:
        if shapes[1] == grad.shape[1:]:  # (N, M) + (M,): what sum_to_shape does for it
            return grad, np.add.reduce(grad, 0)
    return _array_node_run(node, grad)


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


class AddAlpha(ArrayFunction):
    """``add(a, b, alpha=c)``: ``a + c * b`` in one node, as PyTorch records it."""

    node_name = "AddBackward0"
    broadcasts = True
    promotes = True
    n_params = 1
    saved_settings = {"alpha": "alpha"}

    @staticmethod
    def forward(ctx, a, b, alpha):
        factor = alpha_factor(a, b, alpha)
        ctx.alpha = alpha
        if _is_bool(a) and _is_bool(b):  # bools stay bools: a or (b and alpha)
            return np.logical_or(a, np.logical_and(b, bool(alpha)))
        return _fused_multiply_add(a, b, factor)

    @staticmethod
    def backward(ctx, grad):
        return grad, grad if ctx.alpha == 1 else MulScalar.call(grad, ctx.alpha)


def _fused_multiply_add(a, b, factor):
    """``a + b * factor`` rounded once, as PyTorch's add/sub kernel (a fused multiply-add;
    float64's product needs the emulation: long double rounds ``b * 0.7`` twice), except the
    elements its loop rounds the product of (``rounded_product_elements``)."""
    dtype = np.result_type(a, b)
    if dtype.kind != "f":
        return a + b * factor
    factor = np.asarray(factor, dtype)  # PyTorch's kernel sees alpha in the tensor's dtype
    if dtype.itemsize < 4:  # float16: computed in float32 (exact in float64), rounded once
        return (np.asarray(a, np.float64) + np.asarray(b, np.float64) * factor).astype(dtype)
    a, b = np.asarray(a, dtype), np.asarray(b, dtype)
    out = np.asarray(fma(b, factor, a), dtype)
    rounded = rounded_product_elements(out.shape, a, b)  # a broadcast b: some not fused
    if rounded is not None:
        out[rounded] = (a + b * factor)[rounded]
    return out


class SubAlpha(AddAlpha):
    """``sub(a, b, alpha=c)``: ``a - c * b`` in one node."""

    node_name = "SubBackward0"

    @staticmethod
    def forward(ctx, a, b, alpha):
        if _is_bool(a) or _is_bool(b):
            _no_bool_subtraction(*((a, b) if _is_bool(a) else (b, a)))
        factor = alpha_factor(a, b, alpha, -1)
        ctx.alpha = alpha
        return _fused_multiply_add(a, b, factor)  # PyTorch's add(a, b, -alpha): -0 stays 0

    @staticmethod
    def backward(ctx, grad):  # PyTorch's -grad * alpha (not grad * -alpha: the sign of 0)
        return grad, -grad if ctx.alpha == 1 else MulScalar.call(-grad, ctx.alpha)


Add._Node.alpha = Sub._Node.alpha = 1  # what _saved_alpha reads on the nodes of + and -
Add._Node._run = _add_run


class RSub(ArrayFunction):
    """``number - tensor``: PyTorch records it as its own node, with one edge."""

    node_name = "RsubBackward1"
    n_params = 1

    @staticmethod
    def forward(ctx, a, number):
        if a.dtype is _BOOL or type(number) is bool:
            _no_bool_subtraction(a, number)
        return int_operand(a, number) - a

    @staticmethod
    def backward(ctx, grad):
        return -grad


class Mul(ArrayFunction):
    node_name = "MulBackward0"
    broadcasts = True
    float_operands = True
    saved_names = ("self", "other")
    saved_when = (1, 0)  # a is kept for b's gradient only, b for a's
    keeps_zeros = (True, True)

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
    float_operands = True
    true_division = True
    saved_names = ("self", "other")
    saved_when = (1, None)  # a is kept for b's gradient only
    keeps_zeros = (True, False)  # grad / b; -grad * (a / b / b): ordinary zeros

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


# MulBackward0 and DivBackward0 unpack other before self: a version error names other first
Mul._Node._check_order = Div._Node._check_order = (1, 0)


class DivScalar(ArrayFunction):
    """``tensor / number`` where PyTorch's C++ divides by a Scalar (``DivBackward1``)."""

    node_name = "DivBackward1"
    n_params = 1
    keeps_zeros = (True,)

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
        if a.dtype is _BOOL:  # pow's gradient of a bool exponent: b - 1 is refused
            _no_bool_subtraction(a, number)
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
    keeps_zeros = (True,)

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


class RSubTensor(ArrayFunction):
    """``rsub(x, y)`` of two tensors: ``y - alpha * x``, edges in the order (x, y)."""

    node_name = "RsubBackward0"
    broadcasts = True
    n_params = 1

    @staticmethod
    def forward(ctx, a, b, alpha):
        if _is_bool(a) or _is_bool(b):
            SubAlpha.forward(ctx, a, b, alpha)  # PyTorch's error for bools
        if np.shape(a) != np.shape(b):
            broadcast_shapes(np.shape(b), np.shape(a))  # PyTorch's error, y's shape first
        ctx.alpha = alpha
        return b - a * alpha if alpha != 1 else b - a

    @staticmethod
    def backward(ctx, grad):
        return -grad * ctx.alpha if ctx.alpha != 1 else -grad, grad
