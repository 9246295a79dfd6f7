"""Making tensors: ``tensor``, the legacy ``FloatTensor``-style constructors, factories.

``tensor(data)`` infers the dtype as PyTorch does (Python floats -> float32,
ints -> int64, bools -> bool, a numpy array keeps its dtype) and rejects data
that is not numeric with PyTorch's messages.
"""

from __future__ import annotations

import numbers
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from . import _dtypes
from ._dtypes import Size, dtype, from_numpy_dtype, to_numpy_dtype
from .tensor import Tensor, new_tensor

__all__ = [
    "tensor", "as_tensor", "from_numpy", "zeros", "ones", "full", "empty", "eye", "arange",
    "linspace", "zeros_like", "ones_like", "full_like", "empty_like", "rand", "randn",
    "randint", "rand_like", "randn_like", "manual_seed", "FloatTensor", "DoubleTensor",
    "LongTensor", "IntTensor", "BoolTensor", "ByteTensor", "legacy_new",
]


# -- inferring dtype and shape from nested Python data -----------------------------------

def _infer(data: Any, dim: int, shape: list, kinds: set) -> None:
    """Walk nested sequences: fill ``shape`` and the element kinds; raise on bad data."""
    if isinstance(data, Tensor):
        if dim == len(shape):
            shape.extend(data._data.shape)
        kinds.add(data._data.dtype.kind)
        return
    if isinstance(data, np.ndarray):
        if dim == len(shape):
            shape.extend(data.shape)
        kinds.add(data.dtype.kind)
        return
    if isinstance(data, (bool, np.bool_)):
        kinds.add("b")
    elif isinstance(data, numbers.Integral):
        kinds.add("i")
    elif isinstance(data, numbers.Real):
        kinds.add("f")
    elif isinstance(data, (str, bytes)):
        raise TypeError(f"new(): invalid data type '{type(data).__name__}'")
    elif isinstance(data, Sequence):
        length = len(data)
        if dim == len(shape):
            shape.append(length)
        elif dim >= len(shape) or shape[dim] != length:
            expected = shape[dim] if dim < len(shape) else 0
            raise ValueError(f"expected sequence of length {expected} at dim {dim} (got {length})")
        for item in data:
            _infer(item, dim + 1, shape, kinds)
        return
    else:
        raise RuntimeError(f"Could not infer dtype of {type(data).__name__}")
    if dim != len(shape):
        raise TypeError(f"new(): invalid data type '{type(data).__name__}'"
                        if dim < len(shape) else "")


_INFERRED = {"f": None, "i": np.dtype(np.int64), "u": np.dtype(np.int64), "b": np.dtype(np.bool_)}


def _to_array(data: Any, np_dtype: np.dtype | None) -> np.ndarray:
    """A fresh numpy array holding ``data``, of ``np_dtype`` or the inferred dtype."""
    if type(data) is list or type(data) is float or type(data) is int:
        # Fast path for plain numbers: numpy reads them; anything odd takes the careful path.
        try:
            array = np.array(data)
        except (ValueError, TypeError, RuntimeError):
            array = None
        if array is not None and array.dtype.kind in _INFERRED:
            if np_dtype is None:
                np_dtype = _INFERRED[array.dtype.kind] or _dtypes.get_default_dtype().numpy
            return array.astype(np_dtype, copy=False)
    if isinstance(data, np.ndarray):
        if np_dtype is None:
            from_numpy_dtype(data.dtype)  # TypeError for unsupported dtypes
            np_dtype = data.dtype
        return np.array(data, dtype=np_dtype)
    shape: list = []
    kinds: set = set()
    _infer(data, 0, shape, kinds)
    if np_dtype is None:
        if "f" in kinds or "c" in kinds:
            has_f64 = isinstance(data, Tensor) and data._data.dtype == np.float64
            np_dtype = np.dtype(np.float64) if has_f64 else _dtypes.get_default_dtype().numpy
        elif "i" in kinds or "u" in kinds:
            np_dtype = np.dtype(np.int64)
        elif "b" in kinds:
            np_dtype = np.dtype(np.bool_)
        else:
            np_dtype = _dtypes.get_default_dtype().numpy  # empty list: float32
    if isinstance(data, Tensor):
        return np.array(data._data, dtype=np_dtype)
    converted = _nested_arrays(data)
    return np.array(converted, dtype=np_dtype).reshape(shape)


def _nested_arrays(data: Any) -> Any:
    if isinstance(data, Tensor):
        return data._data
    if isinstance(data, (list, tuple)):
        return [_nested_arrays(x) for x in data]
    return data


def _check_requires_grad(name: str, requires_grad: Any) -> bool:
    if not isinstance(requires_grad, bool):
        raise TypeError(
            f"{name}(): argument 'requires_grad' must be bool, not {type(requires_grad).__name__}"
        )
    return requires_grad


def _finish(array: np.ndarray, requires_grad: bool, name: str) -> Tensor:
    _check_requires_grad(name, requires_grad)
    if requires_grad and array.dtype.kind != "f":
        raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
    return new_tensor(array, None, requires_grad)


def tensor(data: Any, dtype: dtype | None = None, device: Any = None,
           requires_grad: bool = False) -> Tensor:
    """A new leaf tensor holding a copy of ``data`` (nested lists, numbers, numpy arrays)."""
    if isinstance(data, Tensor):
        warnings.warn(
            "To copy construct from a tensor, it is recommended to use sourceTensor.detach()."
            "clone() or sourceTensor.detach().clone().requires_grad_(True), rather than "
            "minigrad.tensor(sourceTensor).", UserWarning, stacklevel=2)
    return _finish(_to_array(data, to_numpy_dtype(dtype)), requires_grad, "tensor")


def as_tensor(data: Any, dtype: dtype | None = None, device: Any = None) -> Tensor:
    """Like ``tensor`` but shares memory with a numpy array or tensor when it can."""
    np_dtype = to_numpy_dtype(dtype)
    if isinstance(data, Tensor):
        return data if np_dtype is None or data._data.dtype == np_dtype else data.to(dtype)
    if isinstance(data, np.ndarray) and (np_dtype is None or data.dtype == np_dtype):
        return from_numpy(data)
    return new_tensor(_to_array(data, np_dtype))


def from_numpy(array: np.ndarray) -> Tensor:
    """A tensor sharing memory with ``array``: changing one changes the other."""
    if not isinstance(array, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type(array).__name__})")
    from_numpy_dtype(array.dtype)
    if not array.dtype.isnative:
        raise ValueError("given numpy array has byte order different from the native byte order. "
                         "Conversion between byte orders is currently not supported.")
    return new_tensor(array)


# -- factories ------------------------------------------------------------------------------

def _size(args: tuple, name: str) -> tuple[int, ...]:
    """``ones(2, 3)``, ``ones((2, 3))`` and ``ones(Size([2, 3]))`` all mean shape (2, 3)."""
    if len(args) == 1 and isinstance(args[0], (tuple, list, Size)):
        args = tuple(args[0])
    for a in args:
        if isinstance(a, bool) or not isinstance(a, (int, np.integer)):
            raise TypeError(
                f"{name}(): argument 'size' (position 1) must be tuple of ints, but found element "
                f"of type {type(a).__name__} at pos 0")
        if a < 0:
            raise RuntimeError(
                f"Trying to create tensor with negative dimension {a}: {list(args)}")
    return tuple(int(a) for a in args)


def _float_dtype(dtype: dtype | None) -> np.dtype:
    return to_numpy_dtype(dtype) if dtype is not None else _dtypes.get_default_dtype().numpy


def zeros(*size, dtype: dtype | None = None, device: Any = None,
          requires_grad: bool = False) -> Tensor:
    return _finish(np.zeros(_size(size, "zeros"), _float_dtype(dtype)), requires_grad, "zeros")


def ones(*size, dtype: dtype | None = None, device: Any = None,
         requires_grad: bool = False) -> Tensor:
    return _finish(np.ones(_size(size, "ones"), _float_dtype(dtype)), requires_grad, "ones")


def empty(*size, dtype: dtype | None = None, device: Any = None,
          requires_grad: bool = False) -> Tensor:
    return _finish(np.empty(_size(size, "empty"), _float_dtype(dtype)), requires_grad, "empty")


def full(size, fill_value, dtype: dtype | None = None, device: Any = None,
         requires_grad: bool = False) -> Tensor:
    if dtype is None:
        dtype = (_dtypes.bool if isinstance(fill_value, bool) else _dtypes.int64
                 if isinstance(fill_value, numbers.Integral) else None)
    array = np.full(_size((size,), "full"), fill_value, _float_dtype(dtype))
    return _finish(array, requires_grad, "full")


def eye(n: int, m: int | None = None, dtype: dtype | None = None, device: Any = None,
        requires_grad: bool = False) -> Tensor:
    return _finish(np.eye(n, m, dtype=_float_dtype(dtype)), requires_grad, "eye")


def arange(start, end=None, step=1, dtype: dtype | None = None, device: Any = None,
           requires_grad: bool = False) -> Tensor:
    if end is None:
        start, end = 0, start
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if dtype is None:
        ints = all(isinstance(v, numbers.Integral) for v in (start, end, step))
        np_dtype = np.dtype(np.int64) if ints else _dtypes.get_default_dtype().numpy
    else:
        np_dtype = to_numpy_dtype(dtype)
    return _finish(np.arange(start, end, step).astype(np_dtype), requires_grad, "arange")


def linspace(start, end, steps: int, dtype: dtype | None = None, device: Any = None,
             requires_grad: bool = False) -> Tensor:
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    array = np.linspace(start, end, steps).astype(_float_dtype(dtype))
    return _finish(array, requires_grad, "linspace")


def _like(t: Tensor, dtype: dtype | None) -> tuple[tuple, np.dtype]:
    if not isinstance(t, Tensor):
        raise TypeError(f"expected Tensor as argument 1, but got {type(t).__name__}")
    return t._data.shape, to_numpy_dtype(dtype) if dtype is not None else t._data.dtype


def zeros_like(t: Tensor, dtype=None, requires_grad: bool = False, **_) -> Tensor:
    shape, d = _like(t, dtype)
    return _finish(np.zeros(shape, d), requires_grad, "zeros_like")


def ones_like(t: Tensor, dtype=None, requires_grad: bool = False, **_) -> Tensor:
    shape, d = _like(t, dtype)
    return _finish(np.ones(shape, d), requires_grad, "ones_like")


def empty_like(t: Tensor, dtype=None, requires_grad: bool = False, **_) -> Tensor:
    shape, d = _like(t, dtype)
    return _finish(np.empty(shape, d), requires_grad, "empty_like")


def full_like(t: Tensor, fill_value, dtype=None, requires_grad: bool = False, **_) -> Tensor:
    shape, d = _like(t, dtype)
    return _finish(np.full(shape, fill_value, d), requires_grad, "full_like")


# -- random numbers (numpy's generator: the values differ from PyTorch's) -----------------

_generator = [np.random.default_rng()]


def manual_seed(seed: int) -> np.random.Generator:
    """Seed minigrad's random numbers so that a lesson gives the same numbers every run."""
    _generator[0] = np.random.default_rng(int(seed))
    return _generator[0]


def default_generator() -> np.random.Generator:
    return _generator[0]


def rand(*size, dtype=None, requires_grad: bool = False, generator=None, **_) -> Tensor:
    """Uniform on [0, 1)."""
    g = generator or _generator[0]
    array = g.random(_size(size, "rand")).astype(_float_dtype(dtype))
    return _finish(array, requires_grad, "rand")


def randn(*size, dtype=None, requires_grad: bool = False, generator=None, **_) -> Tensor:
    """Standard normal."""
    g = generator or _generator[0]
    array = g.standard_normal(_size(size, "randn")).astype(_float_dtype(dtype))
    return _finish(array, requires_grad, "randn")


def randint(low, high=None, size=None, dtype=None, requires_grad: bool = False,
            generator=None, **_) -> Tensor:
    """Integers in [low, high); ``randint(high, size)`` starts at 0."""
    if size is None:
        if high is None or not isinstance(high, (tuple, list, Size)):
            raise TypeError("randint() missing required argument 'size'")
        low, high, size = 0, low, high
    elif high is None:
        low, high = 0, low
    if low >= high:
        raise RuntimeError(
            f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")
    g = generator or _generator[0]
    np_dtype = to_numpy_dtype(dtype) if dtype is not None else np.dtype(np.int64)
    array = g.integers(low, high, _size((size,), "randint")).astype(np_dtype)
    return _finish(array, requires_grad, "randint")


def rand_like(t: Tensor, dtype=None, requires_grad: bool = False, **_) -> Tensor:
    shape, d = _like(t, dtype)
    return _finish(_generator[0].random(shape).astype(d), requires_grad, "rand_like")


def randn_like(t: Tensor, dtype=None, requires_grad: bool = False, **_) -> Tensor:
    shape, d = _like(t, dtype)
    return _finish(_generator[0].standard_normal(shape).astype(d), requires_grad, "randn_like")


# -- the legacy constructors: Tensor(...), FloatTensor(...) --------------------------------

def legacy_new(cls: type, dt: dtype, args: tuple) -> Tensor:
    """``Tensor([[1, 2]])`` copies data into ``dt``; ``Tensor(2, 3)`` makes an uninitialised 2x3."""
    np_dtype = dt.numpy
    if not args:
        array = np.empty((0,), np_dtype)
    elif len(args) == 1 and isinstance(args[0], Size):
        array = np.empty(tuple(args[0]), np_dtype)
    elif all(isinstance(a, (int, np.integer)) and not isinstance(a, bool) for a in args):
        array = np.empty(_size(args, "new"), np_dtype)
    elif len(args) == 1:
        data = args[0]
        if isinstance(data, (numbers.Number, bool)):
            raise TypeError(
                f"new(): data must be a sequence (got {type(data).__name__})")
        array = _to_array(data, np_dtype)
    else:
        raise TypeError("new() received an invalid combination of arguments")
    return new_tensor(array, None, False, cls)


class _LegacyTensorType(type):
    """``FloatTensor`` and friends: callables that make a Tensor of one dtype."""

    _dtype: dtype

    def __call__(cls, *args: Any) -> Tensor:
        return legacy_new(Tensor, cls._dtype, args)

    def __instancecheck__(cls, instance: object) -> bool:
        return isinstance(instance, Tensor) and instance._data.dtype == cls._dtype.numpy

    def __repr__(cls) -> str:
        return f"<class 'minigrad.{cls.__name__}'>"


def _legacy(d: dtype) -> type:
    return _LegacyTensorType(d.legacy_name, (), {"_dtype": d, "__module__": "minigrad"})


FloatTensor = _legacy(_dtypes.float32)
DoubleTensor = _legacy(_dtypes.float64)
LongTensor = _legacy(_dtypes.int64)
IntTensor = _legacy(_dtypes.int32)
BoolTensor = _legacy(_dtypes.bool)
ByteTensor = _legacy(_dtypes.uint8)
_LEGACY = {t.__name__: t for t in (FloatTensor, DoubleTensor, LongTensor, IntTensor,
                                    BoolTensor, ByteTensor)}


def dtype_of_legacy(kind: Any) -> dtype:
    """``t.type(minigrad.DoubleTensor)`` or ``t.type('minigrad.DoubleTensor')`` -> float64."""
    if isinstance(kind, dtype):
        return kind
    if isinstance(kind, str):
        name = kind.rsplit(".", 1)[-1]
        if name in _LEGACY:
            return _LEGACY[name]._dtype
        raise ValueError(f"invalid type: '{kind}'")
    if isinstance(kind, _LegacyTensorType):
        return kind._dtype
    raise TypeError(f"type() expects a dtype, a tensor type or its name, not {kind!r}")
