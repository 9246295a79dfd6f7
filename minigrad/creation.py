"""Making a tensor from data: ``tensor``, ``as_tensor``, ``from_numpy``.

``tensor(data)`` infers the dtype as PyTorch does (Python floats -> float32,
ints -> int64, bools -> bool, a numpy array keeps its dtype) and rejects data
that is not numeric with PyTorch's messages. ``_finish`` (a new leaf, with
PyTorch's checks of ``requires_grad``) is shared with the factories, the random
numbers and the legacy constructors, which live beside this module.
"""

from __future__ import annotations

import numbers
import warnings
from collections.abc import Sequence
from itertools import chain
from typing import Any

import numpy as np

from . import _dtypes
from ._dtypes import dtype, from_numpy_dtype, to_numpy_dtype
from ._element_range import checked_ints, exact_ints
from ._quiet import loud, quiet
from ._typename import type_name
from .tensor import Tensor, new_tensor

__all__ = ["tensor", "as_tensor", "from_numpy"]


# -- inferring dtype and shape from nested Python data -----------------------------------
#
# Three passes, in PyTorch's order (so that bad data fails with PyTorch's message):
# the shape comes from the first element at every depth, the dtype from all elements,
# and then every element is checked against the shape.

_MAX_DIMS = 64
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
_READ = frozenset("fiub")  # numpy's readings of plain numbers (object: an int beyond 64 bits)


def _number_types(data: list) -> set:
    """The types of the numbers in (nested) lists (checked in C); plain: within ``_PLAIN``."""
    level: Any = data
    types = set(map(type, level))
    while types == _LIST:
        level = list(chain.from_iterable(level))
        types = set(map(type, level))
    return types


_LIST = {list}
_FLOAT = {float}


def _floats(data: Any, check: bool = True) -> np.ndarray | None:
    """Python floats (nested lists of them) read straight into the default dtype, each
    double rounded once, as through float64; None for anything else, or ragged lists."""
    if check and _number_types(data) != _FLOAT:
        return None
    token = quiet()  # 1e300 becomes inf in float32, without numpy's warning (as PyTorch)
    try:
        return np.array(data, _dtypes.get_default_dtype().numpy)
    except ValueError:  # ragged: the careful path says how
        return None
    finally:
        loud(token)


def _to_array(data: Any, np_dtype: np.dtype | None) -> np.ndarray:
    """A fresh numpy array holding ``data``, of ``np_dtype`` or the inferred dtype.

    numpy is silent meanwhile: a value out of the dtype's range becomes inf (or wraps), as
    PyTorch makes it, without numpy's RuntimeWarning.
    """
    token = quiet()
    try:
        return _converted(data, np_dtype)
    finally:
        loud(token)


def _converted(data: Any, np_dtype: np.dtype | None) -> np.ndarray:
    types = _number_types(data) if type(data) is list else None
    if np_dtype is None and (types == _FLOAT or type(data) is float):
        array = _floats(data, False)
        if array is not None:
            return array
    if type(data) is float or type(data) is int or types is not None and types <= _PLAIN:
        # Fast path for plain numbers: numpy reads them; anything odd takes the careful path.
        try:
            array = np.array(data)
        except ValueError:  # ragged
            array = None
        if array is not None and array.dtype.kind in _READ:
            if types is None:
                types = {type(data)}
            kind = "f" if float in types or not types else "i" if int in types else "b"
            if np_dtype is None:
                np_dtype = _INFERRED[kind] or _dtypes.get_default_dtype().numpy
            if np_dtype.kind in "iu":  # each number range-checked, as PyTorch
                return checked_ints(array, data, np_dtype, types == _FLOAT)
            if kind != "f" and array.dtype.kind == "f":  # ints beyond int64: [1, 2**63]
                array = None  # the careful path refuses them if it must
            else:
                return array.astype(np_dtype, copy=False)
    if isinstance(data, np.generic) and np_dtype is not None and np_dtype.kind in "iu":
        return exact_ints(data, np_dtype, ())  # a number: range-checked, not cast
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
    if np_dtype.kind in "iu":  # each number range-checked, as PyTorch
        return exact_ints(data, np_dtype, tuple(sizes))
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
            f"{name}(): argument 'requires_grad' must be bool, not {type_name(requires_grad)}"
        )
    return requires_grad


def _finish(array: np.ndarray, requires_grad: bool, name: str) -> Tensor:
    __tracebackhide__ = True  # IPython leaves this frame out of a learner's traceback
    _check_requires_grad(name, requires_grad)
    if requires_grad and array.dtype.kind != "f":
        raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
    return new_tensor(array, None, requires_grad)


def tensor(
    data: Any, dtype: dtype | None = None, device: Any = None, requires_grad: bool = False
) -> Tensor:
    """A new leaf tensor holding a copy of ``data`` (nested lists, numbers, numpy arrays)."""
    __tracebackhide__ = True  # IPython leaves this frame out of a learner's traceback
    if type(data) is list and dtype is None and type(requires_grad) is bool:
        array = _floats(data)  # the lessons' tensor([[1.0, 2.0], ...]): no detour
        if array is not None:
            return new_tensor(array, None, requires_grad)
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
