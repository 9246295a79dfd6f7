"""``minigrad.reshape``, ``flatten``, ``unflatten``, ``squeeze``, ``transpose``, ``x.to(dtype)``...

Views and copies that change a tensor's shape or dtype, as functions and as the
Tensor methods they are bound to (``x.view(2, 3)``, ``x.T``, ``x.type()``); ``METHODS`` binds
``flatten`` and ``unflatten`` (``_tensor_methods.py`` adds it to its table).
"""

from __future__ import annotations

import warnings

from .._dtypes import check_device, dtype, to_numpy_dtype
from .._legacy import dtype_of_legacy
from .._modes import InferenceVersion
from .._quiet import loud, quiet
from .._typename import type_name
from ..ops import shape as S
from ..tensor import Tensor, new_tensor, wrap_dim
from ._args import _check_ints, _is_int, _overloads, _shape_args, int_list


def view(input, *shape):
    for s in shape:  # the usual x.view(-1, 30): Python ints, nothing to read or check
        if type(s) is not int:
            break
    else:
        return S.View.apply(input, shape)
    if len(shape) == 1 and not isinstance(shape[0], (int, tuple, list)):
        if isinstance(shape[0], dtype):
            raise NotImplementedError("minigrad does not reinterpret memory as another dtype")
        if not _is_int(shape[0]):
            got = type_name(shape[0])
            why = f"      didn't match because some of the arguments have invalid types: (!{got}!)"
            raise _overloads(
                "view", got, (f"(minigrad.dtype dtype)\n{why}", f"(tuple of ints size)\n{why}")
            )
    shape = _shape_args(shape)
    _check_ints("view", "size", shape)
    return S.View.apply(input, shape)


def reshape(input, *shape):
    if len(shape) == 1 and not isinstance(shape[0], (int, tuple, list)) and not _is_int(shape[0]):
        raise TypeError(
            "reshape(): argument 'shape' (position 1) must be tuple of ints, not "
            f"{type_name(shape[0])}"
        )
    shape = _shape_args(shape)
    _check_ints("reshape", "shape", shape)
    try:
        view = S.View if input._data.flags.c_contiguous else S.ReshapeAlias
        return view.apply(input, shape)
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
    size = 1  # not -1: a size-0 dimension elsewhere would make -1 ambiguous
    for n in shape[start : end + 1]:
        size *= n
    return reshape(input, shape[:start] + (size,) + shape[end + 1 :])


def squeeze(input, dim=None):
    if isinstance(dim, (tuple, list)):  # several dims: one node (SqueezeBackward2)
        _check_ints("squeeze", "dim", dim)
        return S.SqueezeDims.apply(input, tuple(dim))
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


def clone(input, *, memory_format=None):
    """A copy in the graph (CloneBackward0) with the layout of ``input`` (PyTorch's default,
    ``preserve_format``)."""
    return _copied(input, S.ClonePreserve.apply(input))


def contiguous(input, memory_format=None):
    """``input`` itself if C-ordered, else a C-ordered copy (CloneBackward0)."""
    return input if input._data.flags.c_contiguous else _copied(input, S.Clone.apply(input))


def _copied(input: Tensor, out: Tensor) -> Tensor:
    """PyTorch's clone is ``empty_like`` then ``copy_``; for an inference tensor used outside
    inference mode the ``copy_`` is dispatched as a user's in-place op and counts: the copy's
    ``_version`` is 1 (for any other input it runs below the version counter: 0)."""
    if isinstance(input._vc, InferenceVersion) and type(out._vc) is list:
        out._vc[0] += 1
    return out


def to(self, *args, **kwargs):
    """``to(dtype)``, ``to('cpu')``, ``to(other_tensor)``: a copy only when the dtype changes."""
    target = kwargs.get("dtype")
    for a in (*args, kwargs.get("device")):
        if isinstance(a, dtype):
            target = a
        elif isinstance(a, Tensor):
            target = a.dtype
        else:
            check_device(a)
    np_dtype = to_numpy_dtype(target)
    if np_dtype is None or np_dtype == self._data.dtype:
        return self
    if np_dtype.kind != "f":  # integers cannot carry gradients: a plain copy
        token = quiet()  # nan or inf to an integer: no numpy warning, as in PyTorch
        try:
            return new_tensor(self._data.astype(np_dtype))
        finally:
            loud(token)
    return S.ToCopy.apply(self, np_dtype)


def _type(self, kind=None):
    if kind is None:
        return f"minigrad.{self.dtype.legacy_name}"
    return to(self, dtype_of_legacy(kind))


def _to_dtype(target: dtype):
    def method(self):
        return to(self, target)

    return method


def unflatten(input: Tensor, dim: int, sizes: tuple[int, ...] | list[int]) -> Tensor:
    """Split dimension ``dim`` into ``sizes`` (one of them may be -1): the inverse of
    ``flatten``. PyTorch's ``unflatten`` is ``view`` with the new shape, so the result is a
    view (``ViewBackward0``) and a layout no view can read raises view's error."""
    return _unflatten(input, dim, sizes, 3)


def _unflatten(
    input: Tensor, dim: int, sizes: tuple[int, ...] | list[int], position: int
) -> Tensor:
    sizes = int_list("unflatten", "sizes", sizes, position, single=False)
    axis = wrap_dim(dim, input.ndim)
    if not sizes:
        raise RuntimeError("unflatten: sizes must be non-empty")
    try:  # PyTorch's infer_size, its errors reworded by handle_unflatten_exception
        size = input.shape[wrap_dim(axis, input.ndim, scalar_ok=False)]
        inferred = S.infer_shape(sizes, size)
    except (RuntimeError, IndexError) as e:
        if "is invalid for input of size" in str(e):
            raise RuntimeError(
                f"unflatten: Provided sizes {list(sizes)} don't multiply up to the size of dim "
                f"{axis} ({size}) in the input tensor"
            ) from None
        raise RuntimeError(f"unflatten got an unexpected error:\n{e}") from None
    return S.View.apply(input, input.shape[:axis] + inferred + input.shape[axis + 1 :])


def _unflatten_method(self: Tensor, dim: int, sizes: tuple[int, ...] | list[int]) -> Tensor:
    """``Tensor.unflatten`` is Python in PyTorch: it refuses empty (or None) sizes itself
    before the C++ method, whose ``sizes`` is argument 2."""
    if not sizes:
        raise RuntimeError("unflatten: sizes must be non-empty")
    return _unflatten(self, dim, sizes, 2)


METHODS = {"flatten": flatten, "unflatten": _unflatten_method}  # bound by _tensor_methods.py
