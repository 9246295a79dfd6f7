"""Making tensors: ``tensor``, the legacy ``FloatTensor``-style constructors, factories.

``tensor(data)`` infers the dtype as PyTorch does (Python floats -> float32,
ints -> int64, bools -> bool, a numpy array keeps its dtype) and rejects data
that is not numeric with PyTorch's messages.
"""

from __future__ import annotations

import numbers
import operator
import warnings
from collections.abc import Sequence
from itertools import chain
from typing import Any

import numpy as np

from . import _dtypes
from ._dtypes import Size, dtype, from_numpy_dtype, to_numpy_dtype
from .tensor import Tensor, new_tensor

__all__ = [
    "tensor",
    "as_tensor",
    "from_numpy",
    "zeros",
    "ones",
    "full",
    "empty",
    "eye",
    "arange",
    "linspace",
    "zeros_like",
    "ones_like",
    "full_like",
    "empty_like",
    "rand",
    "randn",
    "randint",
    "rand_like",
    "randn_like",
    "manual_seed",
    "FloatTensor",
    "DoubleTensor",
    "LongTensor",
    "IntTensor",
    "BoolTensor",
    "ByteTensor",
    "legacy_new",
]


# -- inferring dtype and shape from nested Python data -----------------------------------
#
# Three passes, in PyTorch's order (so that bad data fails with PyTorch's message):
# the shape comes from the first element at every depth, the dtype from all elements,
# and then every element is checked against the shape.

_MAX_DIMS = 64
_F64 = np.dtype(np.float64)
_I64 = np.dtype(np.int64)
_BOOL = np.dtype(np.bool_)


def _is_sequence(x: Any) -> bool:
    return isinstance(x, (Sequence, np.ndarray)) and not isinstance(x, (bytes, bytearray))


def _sizes(data: Any) -> list[int]:
    """The shape, read from the first element at every depth."""
    sizes: list[int] = []
    seq = data
    while _is_sequence(seq):
        if isinstance(seq, np.ndarray):
            sizes.extend(seq.shape)
            break
        if len(sizes) >= _MAX_DIMS:
            raise ValueError(f"too many dimensions '{type(seq).__name__}'")
        sizes.append(len(seq))
        if not len(seq):
            break
        seq = seq[0]
    return sizes


def _scalar_type(data: Any) -> np.dtype:
    """The dtype PyTorch infers: floats win over ints over bools; the widest of a kind."""
    if isinstance(data, (bool, np.bool_)):
        return _BOOL
    if isinstance(data, (np.ndarray, np.generic)):
        return data.dtype
    if isinstance(data, Tensor):
        return data._data.dtype
    if isinstance(data, numbers.Integral):
        return _I64
    if isinstance(data, numbers.Real):
        return _dtypes.get_default_dtype().numpy
    if isinstance(data, (str, bytes)):
        raise TypeError(f"new(): invalid data type '{type(data).__name__}'")
    if isinstance(data, Sequence):
        return _promote([_scalar_type(x) for x in data])
    raise RuntimeError(f"Could not infer dtype of {type(data).__name__}")


def _promote(types: list[np.dtype]) -> np.dtype:
    if not types:
        return _dtypes.get_default_dtype().numpy
    floats = [t for t in types if t.kind == "f"]
    if floats:
        return max(floats, key=lambda t: t.itemsize)
    ints = [t for t in types if t.kind in "iu"]
    if ints:
        return np.result_type(*ints)
    return _BOOL


def _check_structure(data: Any, sizes: list[int], dim: int, np_dtype: np.dtype) -> None:
    """Every element must fit the shape found by ``_sizes``; raise PyTorch's errors."""
    if dim == len(sizes):
        if isinstance(data, Tensor):
            if data._data.size != 1:
                raise ValueError("only one element tensors can be converted to Python scalars")
        elif not isinstance(data, (numbers.Number, np.generic)) or (
            np_dtype.kind != "f" and isinstance(data, (float, np.floating)) and np_dtype.kind == "b"
        ):
            if np_dtype.kind in "iu":
                raise TypeError(
                    f"'{type(data).__name__}' object cannot be interpreted as an integer"
                )
            raise TypeError(f"must be real number, not {type(data).__name__}")
        return
    if isinstance(data, np.ndarray):
        if list(data.shape) != sizes[dim:]:
            raise ValueError(
                f"expected sequence of length {sizes[dim]} at dim {dim} "
                f"(got {data.shape[0] if data.ndim else 0})"
            )
        return
    if not _is_sequence(data):
        raise TypeError("not a sequence")
    if len(data) != sizes[dim]:
        raise ValueError(f"expected sequence of length {sizes[dim]} at dim {dim} (got {len(data)})")
    for item in data:
        _check_structure(item, sizes, dim + 1, np_dtype)


_PLAIN = frozenset((float, int, bool))
_INFERRED = {"f": None, "i": _I64, "b": _BOOL}


def _plain_numbers(data: list) -> bool:
    """True for (nested) lists holding only Python floats, ints and bools (checked in C)."""
    level: Any = data
    types = set(map(type, level))
    while types == {list}:
        level = list(chain.from_iterable(level))
        types = set(map(type, level))
    return types <= _PLAIN


def _to_array(data: Any, np_dtype: np.dtype | None) -> np.ndarray:
    """A fresh numpy array holding ``data``, of ``np_dtype`` or the inferred dtype."""
    if type(data) is float or type(data) is int or type(data) is list and _plain_numbers(data):
        # Fast path for plain numbers: numpy reads them; anything odd takes the careful path.
        try:
            array = np.array(data)
        except ValueError:  # ragged
            array = None
        if array is not None and array.dtype.kind in _INFERRED:
            if np_dtype is None:
                np_dtype = _INFERRED[array.dtype.kind] or _dtypes.get_default_dtype().numpy
            return array.astype(np_dtype, copy=False)
    if isinstance(data, (np.ndarray, np.generic)):
        if np_dtype is None:
            from_numpy_dtype(data.dtype)  # TypeError for unsupported dtypes
            np_dtype = data.dtype
        return np.array(data, dtype=np_dtype)
    if isinstance(data, Tensor):
        return np.array(data._data, dtype=np_dtype or data._data.dtype)
    if isinstance(data, (str, bytes)):
        raise TypeError(f"new(): invalid data type '{type(data).__name__}'")
    sizes = _sizes(data)
    if np_dtype is None:
        np_dtype = _scalar_type(data)
    _check_structure(data, sizes, 0, np_dtype)
    return np.array(_nested_arrays(data), dtype=np_dtype).reshape(sizes)


def _nested_arrays(data: Any) -> Any:
    if isinstance(data, Tensor):
        return data._data.item()
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


def tensor(
    data: Any, dtype: dtype | None = None, device: Any = None, requires_grad: bool = False
) -> Tensor:
    """A new leaf tensor holding a copy of ``data`` (nested lists, numbers, numpy arrays)."""
    if isinstance(data, Tensor):
        warnings.warn(
            "To copy construct from a tensor, it is recommended to use sourceTensor.detach()."
            "clone() or sourceTensor.detach().clone().requires_grad_(True), rather than "
            "minigrad.tensor(sourceTensor).",
            UserWarning,
            stacklevel=2,
        )
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
        raise ValueError(
            "given numpy array has byte order different from the native byte order. "
            "Conversion between byte orders is currently not supported."
        )
    return new_tensor(array)


# -- factories ------------------------------------------------------------------------------


def _size(args: tuple, name: str) -> tuple[int, ...]:
    """``ones(2, 3)``, ``ones((2, 3))`` and ``ones(Size([2, 3]))`` all mean shape (2, 3)."""
    if len(args) == 1 and isinstance(args[0], (tuple, list, Size)):
        args = tuple(args[0])
    elif len(args) == 1 and (isinstance(args[0], bool) or not _is_int(args[0])):
        raise TypeError(
            f"{name}(): argument 'size' (position 1) must be tuple of ints, not "
            f"{type(args[0]).__name__}"
        )
    sizes = []
    for k, a in enumerate(args):
        if not _is_int(a) or k == 0 and isinstance(a, bool):
            kind = type(a).__name__
            if k == 0:
                raise TypeError(
                    f"{name}(): argument 'size' (position 1) must be tuple of ints, "
                    f"but found element of type {kind} at pos 0"
                )
            raise TypeError(
                f"{name}(): argument 'size' failed to unpack the object at pos "
                f'{k + 1} with error "type must be tuple of ints,but got {kind}"'
            )
        sizes.append(operator.index(a))
    for a in sizes:
        if a < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {a}: {sizes}")
    return tuple(sizes)


def _is_int(x: Any) -> bool:
    """Python and numpy integers, and integer tensors of one element (as PyTorch accepts)."""
    try:
        operator.index(x)
    except TypeError:
        return False
    return True


def _float_dtype(dtype: dtype | None) -> np.dtype:
    return to_numpy_dtype(dtype) if dtype is not None else _dtypes.get_default_dtype().numpy


def zeros(
    *size, dtype: dtype | None = None, device: Any = None, requires_grad: bool = False
) -> Tensor:
    return _finish(np.zeros(_size(size, "zeros"), _float_dtype(dtype)), requires_grad, "zeros")


def ones(
    *size, dtype: dtype | None = None, device: Any = None, requires_grad: bool = False
) -> Tensor:
    return _finish(np.ones(_size(size, "ones"), _float_dtype(dtype)), requires_grad, "ones")


def empty(
    *size, dtype: dtype | None = None, device: Any = None, requires_grad: bool = False
) -> Tensor:
    return _finish(np.empty(_size(size, "empty"), _float_dtype(dtype)), requires_grad, "empty")


def full(
    size, fill_value, dtype: dtype | None = None, device: Any = None, requires_grad: bool = False
) -> Tensor:
    if dtype is None:
        dtype = (
            _dtypes.bool
            if isinstance(fill_value, bool)
            else _dtypes.int64
            if isinstance(fill_value, numbers.Integral)
            else None
        )
    if not isinstance(size, (tuple, list, Size)):
        raise TypeError(
            f"full(): argument 'size' (position 1) must be tuple of ints, not {type(size).__name__}"
        )
    array = np.full(_size((size,), "full"), fill_value, _float_dtype(dtype))
    return _finish(array, requires_grad, "full")


def eye(
    n: int,
    m: int | None = None,
    dtype: dtype | None = None,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    return _finish(np.eye(n, m, dtype=_float_dtype(dtype)), requires_grad, "eye")


def arange(
    start,
    end=None,
    step=1,
    dtype: dtype | None = None,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
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


def linspace(
    start,
    end,
    steps: int,
    dtype: dtype | None = None,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
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


def randint(
    low, high=None, size=None, dtype=None, requires_grad: bool = False, generator=None, **_
) -> Tensor:
    """Integers in [low, high); ``randint(high, size)`` starts at 0."""
    if size is None:
        if high is None or not isinstance(high, (tuple, list, Size)):
            raise TypeError("randint() missing required argument 'size'")
        low, high, size = 0, low, high
    elif high is None:
        low, high = 0, low
    if low >= high:
        raise RuntimeError(
            f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}"
        )
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
            raise TypeError(f"new(): data must be a sequence (got {type(data).__name__})")
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
_LEGACY = {
    t.__name__: t
    for t in (FloatTensor, DoubleTensor, LongTensor, IntTensor, BoolTensor, ByteTensor)
}


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
