"""The one table that binds the ops to Tensor methods and operators.

``tensor.py`` defines the data model and imports no op; the ops import only the
Tensor class and the Function base. This module sits above both and closes the
circle in one visible place: ``x * y`` -> ``Tensor.__mul__`` -> ``Mul.apply``.
The named methods (``x.exp()``, ``x.sum(0)``) are the functional forms of
``minigrad/_functions`` (``minigrad.exp``, ``minigrad.sum``); the operators are made
here, the in-place methods in ``_tensor_inplace_methods.py`` and the autograd methods
(``grad_fn``, ``backward``, hooks) in ``_tensor_autograd_methods.py``, whose tables are
bound with this one.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import _dtypes
from ._functions._args import _operand
from ._functions.arithmetic import (
    abs,
    add,
    clamp_method,
    clip_method,
    cos,
    div,
    exp,
    floor_divide,
    log,
    maximum,
    minimum,
    mul,
    neg,
    pow,
    relu,
    remainder,
    rsub,
    sgn,
    sigmoid,
    sign,
    sin,
    sqrt,
    sub,
    tanh,
)
from ._functions.clamp_one_side import clamp_max, clamp_min
from ._functions.comparison import (
    _all,
    _any,
    _bitwise,
    _compare,
    _invert,
    allclose,
    isclose,
    isfinite,
    isinf,
    isnan,
    isneginf,
    isposinf,
)
from ._functions.elementwise import METHODS as _ELEMENTWISE
from ._functions.joining import _iter, unbind, where
from ._functions.linalg import dot, matmul, mm, mv
from ._functions.reduction import (
    argmax,
    argmin,
    log_softmax,
    logsumexp,
    max,
    mean,
    min,
    softmax,
    std,
    sum,
    sum_to_size,
    var,
)
from ._functions.reorder import _H, _flip_method, _mH, _mT, roll
from ._functions.scans import amax, amin, cumprod, cumsum, norm, prod
from ._functions.selection import METHODS as _SPLITS
from ._functions.selection import (
    _tril_method,
    _triu_method,
    gather,
    masked_fill,
    narrow,
    repeat,
    round,
    square,
)
from ._functions.selection import bmm as _bmm
from ._functions.shape import (
    _T,
    _to_dtype,
    _type,
    clone,
    contiguous,
    expand,
    permute,
    reshape,
    squeeze,
    t,
    to,
    transpose,
    unsqueeze,
    view,
)
from ._functions.shape import METHODS as _SHAPE
from ._functions.sorting import _argsort_method, _sort_method, msort, topk
from ._legacy import legacy_new
from ._tensor_autograd_methods import AUTOGRAD_METHODS
from ._tensor_inplace_methods import INPLACE_METHODS
from ._tensor_new_methods import NEW_METHODS
from .ops import arithmetic as A
from .ops import getitem as GI
from .ops import indexing as I
from .ops import inplace as IP
from .ops import number_operand as NUM
from .ops import powers as POW
from .ops import setitem as SET
from .tensor import Tensor


def _binary(op):
    """``__op__``: a Tensor or a number on the right (the hot path: checks by exact type)."""
    apply = op.apply
    ufunc = IP.UFUNCS.get(op)  # a float tensor and a number, no graph: NUM.number_op

    def method(self, other):
        kind = type(other)
        if kind is float and ufunc is not None and not self._requires_grad:
            return NUM.number_op(ufunc, apply, self, other)
        if kind is not Tensor and kind is not float and kind is not int:
            other = _operand(other)
            if other is None:
                return NotImplemented
        return apply(self, other)

    return method


def _reflected(op):
    """``__radd__``, ``__rmul__``: ``2 * x`` is ``Mul(x, 2)``: PyTorch calls ``x.mul(2)``, so
    the tensor's edge comes first in the graph (``minigrad.mul(2, x)`` keeps the order given).
    """
    apply = op.apply
    ufunc = IP.UFUNCS.get(op)

    def method(self, other):
        kind = type(other)
        if kind is float and ufunc is not None and not self._requires_grad:  # -lr * p.grad
            return NUM.number_op(ufunc, apply, self, other)
        if kind is not float and kind is not int and kind is not Tensor:  # as _binary
            other = _operand(other)
            if other is None:
                return NotImplemented
        return apply(self, other)

    return method


def _legacy_constructor(cls, *args, **kwargs):
    """``Tensor([[1, 2], [3, 4]])`` (float32) or ``Tensor(2, 3)`` (uninitialised)."""
    _dtypes.check_device(kwargs.get("device"))
    return legacy_new(cls, _dtypes.get_default_dtype(), args)


def _cuda(self, *args, **kwargs):
    """There is no GPU in minigrad: PyTorch's error on a machine without CUDA."""
    raise AssertionError("Torch not compiled with CUDA enabled")


METHODS: dict[str, Any] = {
    # arithmetic and its operators
    "add": add,
    "sub": sub,
    "mul": mul,
    "div": div,
    "neg": neg,
    "pow": pow,
    "multiply": mul,
    "subtract": sub,
    "divide": div,
    "true_divide": div,
    "negative": neg,
    "__add__": _binary(A.Add),
    "__radd__": _reflected(A.Add),
    "__sub__": _binary(A.Sub),
    "__rsub__": lambda self, other: rsub(self, _operand(other)),
    "__mul__": _binary(A.Mul),
    "__rmul__": _reflected(A.Mul),
    "__truediv__": _binary(A.Div),
    "__rtruediv__": lambda self, other: A.Mul.apply(A.Reciprocal.apply(self), _operand(other)),
    "__neg__": neg,
    "__pos__": lambda self: self,
    "__abs__": abs,
    "__pow__": pow,
    "__rpow__": lambda self, other: POW.RPow.apply(self, _operand(other)),
    "__floordiv__": floor_divide,
    "__rfloordiv__": lambda self, other: floor_divide(_operand(other), self),
    "__mod__": remainder,
    "__rmod__": lambda self, other: remainder(_operand(other), self),
    "floor_divide": floor_divide,
    "remainder": remainder,
    "__matmul__": matmul,
    "__rmatmul__": lambda self, other: matmul(other, self),
    "maximum": maximum,
    "minimum": minimum,
    # elementwise functions
    "exp": exp,
    "log": log,
    "sqrt": sqrt,
    "abs": abs,
    "sin": sin,
    "cos": cos,
    "tanh": tanh,
    "sigmoid": sigmoid,
    "relu": relu,
    "sign": sign,
    "sgn": sgn,
    "clamp": clamp_method,
    "clip": clip_method,
    # reductions
    "sum": sum,
    "sum_to_size": sum_to_size,
    "mean": mean,
    "max": max,
    "min": min,
    "var": var,
    "std": std,
    "argmax": argmax,
    "argmin": argmin,
    "softmax": softmax,
    "log_softmax": log_softmax,
    # shapes
    "view": view,
    "reshape": reshape,
    "squeeze": squeeze,
    "unsqueeze": unsqueeze,
    "transpose": transpose,
    "t": t,
    "permute": permute,
    "expand": expand,
    "expand_as": lambda self, other: expand(self, other.shape),
    "view_as": lambda self, other: view(self, other.shape),
    "reshape_as": lambda self, other: reshape(self, other.shape),
    "T": property(_T),
    "clone": clone,
    "contiguous": contiguous,
    "to": to,
    "type": _type,
    "float": _to_dtype(_dtypes.float32),
    "double": _to_dtype(_dtypes.float64),
    "long": _to_dtype(_dtypes.int64),
    "int": _to_dtype(_dtypes.int32),
    "bool": _to_dtype(_dtypes.bool),
    "half": _to_dtype(_dtypes.float16),
    # matrix products
    "matmul": matmul,
    "mm": mm,
    "mv": mv,
    "dot": dot,
    # indexing
    "__getitem__": GI.getitem,
    "__setitem__": SET.setitem,
    "_as_strided_region": lambda self, key: I.AsStridedRegion.apply(self, key),  # CopySlices
    "__iter__": _iter,
    "unbind": unbind,
    "where": lambda self, condition, other: where(condition, self, other),
    # comparisons
    "__eq__": _compare(np.equal),
    "__ne__": _compare(np.not_equal),
    "__lt__": _compare(np.less),
    "__le__": _compare(np.less_equal),
    "__gt__": _compare(np.greater),
    "__ge__": _compare(np.greater_equal),
    "eq": _compare(np.equal),
    "ne": _compare(np.not_equal),
    "lt": _compare(np.less),
    "le": _compare(np.less_equal),
    "gt": _compare(np.greater),
    "ge": _compare(np.greater_equal),
    "__and__": _bitwise(np.bitwise_and, "bitwise_and"),
    "__or__": _bitwise(np.bitwise_or, "bitwise_or"),
    "__xor__": _bitwise(np.bitwise_xor, "bitwise_xor"),
    "__rand__": _bitwise(np.bitwise_and, "bitwise_and"),
    "__ror__": _bitwise(np.bitwise_or, "bitwise_or"),
    "__rxor__": _bitwise(np.bitwise_xor, "bitwise_xor"),
    "bitwise_and": _bitwise(np.bitwise_and, "bitwise_and"),
    "bitwise_or": _bitwise(np.bitwise_or, "bitwise_or"),
    "bitwise_xor": _bitwise(np.bitwise_xor, "bitwise_xor"),
    "__invert__": _invert,
    "bitwise_not": _invert,
    "allclose": allclose,
    "isclose": isclose,
    "isnan": isnan,
    "isinf": isinf,
    "isfinite": isfinite,
    "isposinf": isposinf,
    "isneginf": isneginf,
    "all": _all,
    "any": _any,
    "__new__": staticmethod(_legacy_constructor),
    # what tutorials use beside the basic ops (minigrad/_functions/scans.py, selection.py)
    "prod": prod,
    "cumsum": cumsum,
    "cumprod": cumprod,
    "amax": amax,
    "amin": amin,
    "norm": norm,
    "narrow": narrow,
    "gather": gather,
    "masked_fill": masked_fill,
    "repeat": repeat,
    "round": round,
    "square": square,
    "tril": _tril_method,
    "triu": _triu_method,
    "bmm": _bmm,
    "cpu": lambda self, memory_format=None: self,
    # logsumexp, flip, roll, the matrix transposes (ops/logsumexp.py, ops/reorder.py)
    "logsumexp": logsumexp,
    "flip": _flip_method,
    "roll": roll,
    "mT": property(_mT),
    "mH": property(_mH),
    "H": property(_H),
    # one bound (ops/clamp_one_side.py)
    "clamp_min": clamp_min,
    "clamp_max": clamp_max,
    # sort, topk (ops/sorting.py)
    "sort": _sort_method,
    "argsort": _argsort_method,
    "msort": msort,
    "topk": topk,
    "cuda": _cuda,
}

for _name, _impl in (
    METHODS | INPLACE_METHODS | AUTOGRAD_METHODS | _ELEMENTWISE | NEW_METHODS | _SHAPE | _SPLITS
).items():
    setattr(Tensor, _name, _impl)

Tensor.__array_priority__ = 1000  # ndarray + tensor -> Tensor.__radd__, as in PyTorch
Tensor.__module__ = "minigrad"  # prints as <class 'minigrad.Tensor'>, like torch.Tensor
