"""The one table that binds the ops to Tensor methods and operators.

``tensor.py`` defines the data model and imports no op; the ops import only the
Tensor class and the Function base. This module sits above both and closes the
circle in one visible place: ``x * y`` -> ``Tensor.__mul__`` -> ``Mul.apply``.
The functional forms (``minigrad.exp(x)``) are the same functions.
"""

from __future__ import annotations

import numbers
import warnings
from typing import Any

import numpy as np

from . import _dtypes
from ._dtypes import Size, dtype, to_numpy_dtype
from .autograd.engine import tensor_backward
from .autograd.function import accumulator_of, retain_grad_hook
from .creation import dtype_of_legacy, legacy_new
from .ops import arithmetic as A
from .ops import indexing as I
from .ops import inplace as IP
from .ops import linalg as L
from .ops import reduction as R
from .ops import shape as S
from .ops import unary as U
from .ops._common import broadcast_shapes
from .tensor import Tensor, new_tensor, wrap_dim

_Number = (int, float, bool)


def _operand(x: Any) -> Any:
    """A Tensor or a Python number; numpy scalars become numbers, others are refused."""
    if isinstance(x, (Tensor, int, float)):
        return x
    if isinstance(x, (np.generic, numbers.Number)) and not isinstance(x, complex):
        return x.item() if isinstance(x, np.generic) else x
    if isinstance(x, np.ndarray):
        return new_tensor(x)
    return None


def _binary(op):
    """``__op__``: a Tensor or a number on the right (the hot path: checks by exact type)."""
    apply = op.apply

    def method(self, other):
        kind = type(other)
        if kind is not Tensor and kind is not float and kind is not int:
            other = _operand(other)
            if other is None:
                return NotImplemented
        return apply(self, other)

    return method


def _reflected(op):
    """``__rop__``: ``2 * x`` is ``Mul(2, x)``, keeping PyTorch's argument order."""
    apply = op.apply

    def method(self, other):
        other = _operand(other)
        if other is None:
            return NotImplemented
        return apply(other, self)

    return method


# -- arithmetic -------------------------------------------------------------------------------


def add(input, other, *, alpha=1):
    if alpha != 1:
        other = other * alpha
    if not isinstance(input, Tensor):
        return A.Add.apply(_operand(input), other)
    return A.Add.apply(input, _operand(other))


def sub(input, other, *, alpha=1):
    if alpha != 1:
        other = other * alpha
    if not isinstance(input, Tensor):
        return rsub(other, input)
    return A.Sub.apply(input, _operand(other))


def rsub(input, other):
    """``other - input`` (PyTorch's rsub)."""
    if isinstance(other, Tensor):
        return A.Sub.apply(other, input)
    return A.RSub.apply(input, _operand(other))


def mul(input, other):
    return (
        A.Mul.apply(input, _operand(other))
        if isinstance(input, Tensor)
        else A.Mul.apply(_operand(input), other)
    )


def div(input, other, *, rounding_mode=None):
    if rounding_mode is not None:
        raise NotImplementedError("minigrad.div supports rounding_mode=None only")
    if not isinstance(input, Tensor):
        return A.Mul.apply(A.Reciprocal.apply(other), _operand(input))
    return A.Div.apply(input, _operand(other))


def pow(input, exponent):  # noqa: A001 - PyTorch's name
    if not isinstance(input, Tensor):
        return A.RPow.apply(exponent, _operand(input))
    if isinstance(exponent, Tensor):
        return A.Pow.apply(input, exponent)
    return A.PowScalar.apply(input, _operand(exponent))


def remainder(input, other):
    if not isinstance(input, Tensor):
        return A.RRemainder.apply(other, _operand(input))
    if isinstance(other, Tensor):
        return A.Remainder.apply(input, other)
    return A.RemainderScalar.apply(input, _operand(other))


def floor_divide(input, other):
    if not isinstance(input, Tensor):
        return A.RFloorDivide.apply(other, _operand(input))
    if isinstance(other, Tensor):
        return A.FloorDivide.apply(input, other)
    return A.FloorDivideScalar.apply(input, _operand(other))


def neg(input):
    return A.Neg.apply(input)


def maximum(input, other):
    return A.Maximum.apply(input, other)


def minimum(input, other):
    return A.Minimum.apply(input, other)


# -- elementwise functions --------------------------------------------------------------------


def exp(input):
    return U.Exp.apply(input)


def log(input):
    return U.Log.apply(input)


def sqrt(input):
    return U.Sqrt.apply(input)


def abs(input):  # noqa: A001
    return U.Abs.apply(input)


def sin(input):
    return U.Sin.apply(input)


def cos(input):
    return U.Cos.apply(input)


def tanh(input):
    return U.Tanh.apply(input)


def sigmoid(input):
    return U.Sigmoid.apply(input)


def relu(input):
    return U.Relu.apply(input)


def clamp(input, min=None, max=None):  # noqa: A002
    if isinstance(min, Tensor) or isinstance(max, Tensor):
        return U.ClampTensor.apply(input, _operand(min), _operand(max))
    return U.Clamp.apply(input, min, max)


clip = clamp


# -- reductions -------------------------------------------------------------------------------


def sum(input, dim=None, keepdim=False, *, dtype=None):  # noqa: A001
    if dtype is not None:
        input = input.to(dtype)
    if dim is None and not keepdim:
        return R.Sum.apply(input)
    return R.SumDim.apply(input, dim, keepdim)


def mean(input, dim=None, keepdim=False, *, dtype=None):
    if dtype is not None:
        input = input.to(dtype)
    if dim is None and not keepdim:
        return R.Mean.apply(input)
    return R.MeanDim.apply(input, dim, keepdim)


class _MinMax(tuple):
    """``(values, indices)`` with names, like ``torch.return_types.max``."""

    __slots__ = ()
    _name = "max"

    @property
    def values(self) -> Tensor:
        return self[0]

    @property
    def indices(self) -> Tensor:
        return self[1]

    def __repr__(self) -> str:
        return f"minigrad.return_types.{self._name}(\nvalues={self[0]!r},\nindices={self[1]!r})"


_Max = type("max", (_MinMax,), {"__slots__": (), "__module__": "minigrad.return_types"})
_Min = type(
    "min", (_MinMax,), {"__slots__": (), "_name": "min", "__module__": "minigrad.return_types"}
)


def _extreme(input, dim, keepdim, largest: bool):
    if isinstance(dim, Tensor):  # max(a, b) is maximum(a, b)
        return maximum(input, dim) if largest else minimum(input, dim)
    if dim is None:
        return (R.Extreme if largest else R.Min).apply(input, largest)
    values = (R.ExtremeDim if largest else R.MinDim).apply(input, dim, keepdim, largest)
    indices = new_tensor(
        values._grad_fn.indices
        if values._grad_fn
        else _argextreme(input._data, dim, keepdim, largest)
    )
    return (_Max if largest else _Min)((values, indices))


def _argextreme(a, dim, keepdim, largest):
    axis = wrap_dim(dim, a.ndim)
    if a.ndim == 0:
        return np.zeros((), np.int64)
    if a.shape[axis] == 0:
        name = "argmax" if largest else "argmin"
        raise IndexError(f"{name}(): Expected reduction dim {axis} to have non-zero size.")
    out = (np.argmax if largest else np.argmin)(a, axis=axis)
    return np.expand_dims(out, axis) if keepdim else out


def max(input, dim=None, keepdim=False):  # noqa: A001
    return _extreme(input, dim, keepdim, True)


def min(input, dim=None, keepdim=False):  # noqa: A001
    return _extreme(input, dim, keepdim, False)


def _no_empty(input, name):
    if input._data.size == 0:
        raise IndexError(
            f"{name}(): Expected reduction dim to be specified for input.numel() == 0."
        )


def argmax(input, dim=None, keepdim=False):
    if dim is None:
        _no_empty(input, "argmax")
        return new_tensor(np.asarray(np.argmax(input._data), dtype=np.int64))
    return new_tensor(_argextreme(input._data, dim, keepdim, True).astype(np.int64))


def argmin(input, dim=None, keepdim=False):
    if dim is None:
        _no_empty(input, "argmin")
        return new_tensor(np.asarray(np.argmin(input._data), dtype=np.int64))
    return new_tensor(_argextreme(input._data, dim, keepdim, False).astype(np.int64))


def _correction(unbiased, correction) -> int:
    if correction is not None:
        return correction
    return 1 if unbiased is None or unbiased else 0


def var(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    if isinstance(dim, bool):  # var(x, False): the old positional 'unbiased'
        dim, unbiased = None, dim
    return R.Var.apply(input, dim, _correction(unbiased, correction), keepdim)


def std(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    if isinstance(dim, bool):
        dim, unbiased = None, dim
    return R.Std.apply(input, dim, _correction(unbiased, correction), keepdim)


_NO_DIM = object()


def softmax(input, dim=_NO_DIM, dtype=None):
    if dim is _NO_DIM:
        raise TypeError('softmax() missing 1 required positional arguments: "dim"')
    return R.Softmax.apply(input if dtype is None else input.to(dtype), dim)


def log_softmax(input, dim=_NO_DIM, dtype=None):
    if dim is _NO_DIM:
        raise TypeError('log_softmax() missing 1 required positional arguments: "dim"')
    return R.LogSoftmax.apply(input if dtype is None else input.to(dtype), dim)


# -- shapes -----------------------------------------------------------------------------------


def _shape_args(args: tuple) -> tuple:
    if len(args) == 1 and isinstance(args[0], (tuple, list, Size)):
        return tuple(args[0])
    return args


def view(input, *shape):
    if len(shape) == 1 and isinstance(shape[0], dtype):
        raise NotImplementedError("minigrad does not reinterpret memory as another dtype")
    return S.View.apply(input, _shape_args(shape))


def reshape(input, *shape):
    shape = _shape_args(shape)
    try:
        return S.View.apply(input, shape)
    except RuntimeError as e:
        if "view size is not compatible" not in str(e):
            raise
    return S.UnsafeView.apply(S.Clone.apply(input), S.infer_shape(shape, input._data.size))


def flatten(input, start_dim=0, end_dim=-1):
    start, end = wrap_dim(start_dim, input.ndim), wrap_dim(end_dim, input.ndim)
    if input.ndim == 0:
        return reshape(input, 1)
    if start > end:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if start == end:
        return input
    shape = input.shape
    return reshape(input, shape[:start] + (-1,) + shape[end + 1 :])


def squeeze(input, dim=None):
    return S.Squeeze.apply(input) if dim is None else S.SqueezeDim.apply(input, dim)


def unsqueeze(input, dim):
    return S.Unsqueeze.apply(input, dim)


def transpose(input, dim0, dim1):
    return S.Transpose.apply(input, dim0, dim1)


def t(input):
    return S.T.apply(input)


def permute(input, *dims):
    if not dims:
        raise TypeError('permute() missing 1 required positional arguments: "dims"')
    return S.Permute.apply(input, _shape_args(dims))


_WARNED_ONCE: set[str] = set()  # PyTorch gives these warnings once per process (TORCH_WARN_ONCE)


def _T(self):
    if self.ndim == 0 and "T0" not in _WARNED_ONCE:
        _WARNED_ONCE.add("T0")
        warnings.warn(
            "Tensor.T is deprecated on 0-D tensors. This function is the identity in these cases.",
            UserWarning,
            stacklevel=2,
        )
    elif self.ndim != 2 and self.ndim != 0 and "T" not in _WARNED_ONCE:
        _WARNED_ONCE.add("T")
        warnings.warn(
            "The use of `x.T` on tensors of dimension other than 2 to reverse their shape is "
            "deprecated and it will throw an error in a future release. Consider `x.mT` to "
            "transpose batches of matrices or `x.permute(*minigrad.arange(x.ndim - 1, -1, -1))` "
            "to reverse the dimensions of a tensor.",
            UserWarning,
            stacklevel=2,
        )
    return S.Permute.apply(self, tuple(range(self.ndim - 1, -1, -1)))


def expand(input, *sizes):
    return S.Expand.apply(input, _shape_args(sizes))


def clone(input):
    return S.Clone.apply(input)


def to(self, *args, **kwargs):
    """``to(dtype)``, ``to('cpu')``, ``to(other_tensor)``: a copy only when the dtype changes."""
    target = kwargs.get("dtype")
    for a in (*args, kwargs.get("device")):
        if isinstance(a, dtype):
            target = a
        elif isinstance(a, Tensor):
            target = a.dtype
        elif a is not None and str(a) != "cpu":
            raise RuntimeError(f"minigrad only has the 'cpu' device, not {a!r}")
    np_dtype = to_numpy_dtype(target)
    if np_dtype is None or np_dtype == self._data.dtype:
        return self
    if np_dtype.kind != "f":  # integers cannot carry gradients: a plain copy
        return new_tensor(self._data.astype(np_dtype))
    return S.ToCopy.apply(self, np_dtype)


def _type(self, kind=None):
    if kind is None:
        return f"minigrad.{self.dtype.legacy_name}"
    return to(self, dtype_of_legacy(kind))


# -- matrix products --------------------------------------------------------------------------


def mm(input, mat2):
    return L.Mm.apply(input, mat2)


def mv(input, vec):
    return L.Mv.apply(input, vec)


def dot(input, other):
    return L.Dot.apply(input, other)


def addmm(input, mat1, mat2):
    return L.Addmm.apply(input, mat1, mat2)


def matmul(input, other):
    if not isinstance(other, Tensor) or not isinstance(input, Tensor):
        raise TypeError(
            f"matmul(): argument 'other' (position 2) must be Tensor, not {type(other).__name__}"
        )
    a, b = input.ndim, other.ndim
    if a == 0 or b == 0:
        raise RuntimeError(
            f"both arguments to matmul need to be at least 1D, but they are {a}D and {b}D"
        )
    if a == 1 and b == 1:
        return dot(input, other)
    if a == 2 and b == 1:
        return mv(input, other)
    if a == 2 and b == 2:
        return mm(input, other)
    if a == 1 and b == 2:
        if input.shape[0] != other.shape[0]:
            raise RuntimeError(
                f"mat1 and mat2 shapes cannot be multiplied (1x{input.shape[0]} "
                f"and {other.shape[0]}x{other.shape[1]})"
            )
        return S.SqueezeMatmul.apply(mm(unsqueeze(input, 0), other), 0)
    if a <= 2 and b >= 3 and input._requires_grad:
        # PyTorch folds the batch into one matrix product when the smaller side requires grad:
        # x @ B is (B.mT @ x.mT).mT.contiguous() (for a vector, B.mT @ x), as its graph shows
        folded = L.BatchedMatmul.apply(
            S.Transpose.apply(other, -2, -1), input if a == 1 else S.Transpose.apply(input, 0, 1)
        )
        if a == 1:
            return folded
        result = S.Transpose.apply(folded, -2, -1)
        return result if result._data.flags.c_contiguous else S.Clone.apply(result)
    return L.BatchedMatmul.apply(input, other)


# -- indexing and joining ---------------------------------------------------------------------


def cat(tensors, dim=0):
    if not tensors:
        raise ValueError("minigrad.cat(): expected a non-empty list of Tensors")
    return I.Cat.apply(*tensors, dim)


concat = cat


def unbind(input, dim=0):
    """The slices along ``dim``, as a tuple of views (what iterating over a tensor gives)."""
    axis = wrap_dim(dim, input.ndim)
    return tuple(I.Unbind.apply(input, axis, i) for i in range(input._data.shape[axis]))


def _iter(self):
    if self._data.ndim == 0:
        raise TypeError("iteration over a 0-d tensor")
    return iter(unbind(self, 0))


def stack(tensors, dim=0):
    if not tensors:
        raise RuntimeError("stack expects a non-empty TensorList")
    return I.Stack.apply(*tensors, dim)


def where(condition, input, other):
    cond = condition._data if isinstance(condition, Tensor) else np.asarray(condition)
    if cond.dtype != np.bool_:
        raise RuntimeError(
            f"where expected condition to be a boolean tensor, but got a tensor "
            f"with dtype {condition.dtype.legacy_name.replace('Tensor', '')}"
        )
    return I.Where.apply(_operand(input), _operand(other), cond)


# -- comparisons (not differentiable) ---------------------------------------------------------


def _compare(ufunc):
    def method(self, other):
        other = _operand(other)
        if other is None:
            return NotImplemented
        b = other._data if isinstance(other, Tensor) else other
        a = self._data if isinstance(self, Tensor) else self
        try:
            return new_tensor(np.asarray(ufunc(a, b)))
        except ValueError:
            broadcast_shapes(np.shape(a), np.shape(b))  # PyTorch's message
            raise

    return method


def _logical(ufunc):
    def method(self, other):
        b = other._data if isinstance(other, Tensor) else other
        return new_tensor(np.asarray(ufunc(self._data, b)))

    return method


def equal(input, other) -> bool:
    return input.equal(other)


def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False) -> bool:
    return bool(np.allclose(input._data, other._data, rtol=rtol, atol=atol, equal_nan=equal_nan))


def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    return new_tensor(
        np.isclose(input._data, other._data, rtol=rtol, atol=atol, equal_nan=equal_nan)
    )


def _all(self, dim=None, keepdim=False):
    return new_tensor(np.asarray(np.all(self._data, axis=dim, keepdims=keepdim)))


def _any(self, dim=None, keepdim=False):
    return new_tensor(np.asarray(np.any(self._data, axis=dim, keepdims=keepdim)))


def numel(input) -> int:
    return input.numel()


def is_tensor(obj) -> bool:
    return isinstance(obj, Tensor)


# -- in-place ---------------------------------------------------------------------------------


def _inplace(op):
    def method(self, other):
        other = _operand(other)
        if other is None:
            return NotImplemented
        return IP.apply_inplace(op, self, other)

    return method


def _add_(self, other, *, alpha=1):
    return IP.apply_inplace(A.Add, self, _operand(other * alpha if alpha != 1 else other))


def _sub_(self, other, *, alpha=1):
    return IP.apply_inplace(A.Sub, self, _operand(other * alpha if alpha != 1 else other))


def _unary_inplace(op):
    def method(self):
        return IP.apply_inplace(op, self)

    return method


def _clamp_(self, min=None, max=None):  # noqa: A002
    return IP.apply_inplace(U.Clamp, self, min, max)


def _pow_(self, exponent):
    if isinstance(exponent, Tensor):
        return IP.apply_inplace(A.Pow, self, exponent)
    return IP.apply_inplace(A.PowScalar, self, exponent)


# -- autograd methods -------------------------------------------------------------------------


def _register_hook(self, hook):
    """Call ``hook(grad)`` when this tensor's gradient is computed; it may return a new one."""
    if not self._requires_grad:
        raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
    node = self._grad_fn if self._grad_fn is not None else accumulator_of(self)
    return node._add_pre_hook(hook)


def _retain_grad(self):
    """Keep ``.grad`` on a non-leaf tensor after backward (a no-op on leaves)."""
    if not self._requires_grad:
        raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
    if self._grad_fn is None or self._retains_grad:
        return
    self._retains_grad = True
    self._grad_fn._add_pre_hook(retain_grad_hook(self), retains_grad=True)


def _legacy_constructor(cls, *args, **kwargs):
    """``Tensor([[1, 2], [3, 4]])`` (float32) or ``Tensor(2, 3)`` (uninitialised)."""
    from ._dtypes import get_default_dtype

    if kwargs.get("device", "cpu") not in ("cpu", None):
        raise RuntimeError(f"minigrad only has the 'cpu' device, not {kwargs['device']!r}")
    return legacy_new(cls, get_default_dtype(), args)


def _to_dtype(target: dtype):
    def method(self):
        return to(self, target)

    return method


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
    "__rpow__": lambda self, other: A.RPow.apply(self, _operand(other)),
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
    "clamp": clamp,
    "clip": clamp,
    # reductions
    "sum": sum,
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
    "flatten": flatten,
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
    "__getitem__": I.getitem,
    "__setitem__": IP.setitem,
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
    "__and__": _logical(np.logical_and),
    "__or__": _logical(np.logical_or),
    "__xor__": _logical(np.logical_xor),
    "__invert__": lambda self: new_tensor(
        np.logical_not(self._data) if self._data.dtype == bool else np.invert(self._data)
    ),
    "allclose": allclose,
    "isclose": isclose,
    "all": _all,
    "any": _any,
    # in-place
    "add_": _add_,
    "sub_": _sub_,
    "mul_": _inplace(A.Mul),
    "div_": _inplace(A.Div),
    "pow_": _pow_,
    "neg_": _unary_inplace(A.Neg),
    "clamp_": _clamp_,
    "clip_": _clamp_,
    "exp_": _unary_inplace(U.Exp),
    "relu_": _unary_inplace(U.Relu),
    "sigmoid_": _unary_inplace(U.Sigmoid),
    "tanh_": _unary_inplace(U.Tanh),
    "sqrt_": _unary_inplace(U.Sqrt),
    "abs_": _unary_inplace(U.Abs),
    "zero_": IP.zero_,
    "fill_": IP.fill_,
    "copy_": IP.copy_,
    "__iadd__": _inplace(A.Add),
    "__isub__": _inplace(A.Sub),
    "__imul__": _inplace(A.Mul),
    "__itruediv__": _inplace(A.Div),
    # autograd
    "retains_grad": property(lambda self: self._retains_grad, doc="True after retain_grad()"),
    "backward": tensor_backward,
    "register_hook": _register_hook,
    "retain_grad": _retain_grad,
    "__new__": staticmethod(_legacy_constructor),
}

for _name, _impl in METHODS.items():
    setattr(Tensor, _name, _impl)

Tensor.__array_priority__ = 1000  # ndarray + tensor -> Tensor.__radd__, as in PyTorch
Tensor.__module__ = "minigrad"  # prints as <class 'minigrad.Tensor'>, like torch.Tensor
