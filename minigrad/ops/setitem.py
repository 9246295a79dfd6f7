"""``t[index] = value``: PyTorch's ``set_item``, a view of ``t`` then a copy into it."""

from __future__ import annotations

import numpy as np

from .._quiet import loud, quiet
from ..autograd import grad_mode
from ..tensor import Tensor, follows_base, new_tensor
from ._common import LEGACY_NAMES, check_expand
from .fill import copy_, fill_
from .getitem import apply_slicing, as_numpy_index, getitem, index_key
from .indexing import IndexPut, drop_leading_ones
from .inplace import apply_inplace, check_inference
from .number_range import check_number_fits
from .shape import Expand, Unsqueeze, View

_grad_state = grad_mode.state


def setitem(t: Tensor, index, value) -> Tensor:
    """``t[index] = value``, written in place.

    In the graph it is recorded in PyTorch's steps (its ``set_item``): the basic part of the
    index (ints, slices, None, ...) is a view of ``t``, and ``value`` goes into that view with
    ``copy_`` (``fill_`` for a 0-d value; a value of another shape is first viewed without its
    leading ones and expanded) or, when tensors, lists or masks are left, with ``index_put_``.
    Through a view ``t`` records ``CopySlices`` around that op; ``t[...] = v``, ``t[:] = v`` and
    ``t[[0, 2]] = v`` write into ``t`` itself, which records the op's own node.
    """
    if index is False:  # PyTorch writes nothing and checks nothing
        return t
    value = check_number_fits(value, t._data.dtype, filling=False)
    if type(t._vc) is not list:  # an inference tensor
        check_inference(t, through_index=True)
    key = as_numpy_index(index)
    target = getitem(new_tensor(t._data), index)  # PyTorch's index errors, and the shape
    value_shape = np.shape(value._data if isinstance(value, Tensor) else value)
    parts = key if isinstance(key, tuple) else (key,)
    if any(isinstance(k, np.ndarray) and (k.ndim or k.dtype == np.bool_) for k in parts):
        _check_index_put(value_shape, target._data.shape)
        mismatch = isinstance(value, Tensor) and value._data.dtype != t._data.dtype
        if mismatch and _fills_through_mask(parts, value):  # masked_fill_(mask, value.item())
            check_number_fits(value._data.item(), t._data.dtype, filling=True)
        elif mismatch:
            raise RuntimeError(
                "Index put requires the source and destination dtypes match, got "
                f"{LEGACY_NAMES[t._data.dtype]} for the destination and "
                f"{LEGACY_NAMES[value._data.dtype]} for the source."
            )
    check_expand(
        value_shape,
        target._data.shape,
        value._data.dtype if isinstance(value, Tensor) else t._data.dtype,
    )
    grad_value = isinstance(value, Tensor) and value.requires_grad
    if _grad_state.enabled and (t._requires_grad or follows_base(t) or grad_value):
        _record_setitem(t, index, value)
    else:  # nothing to record
        value = value._data if isinstance(value, Tensor) else value
        token = quiet()  # a cast of nan or inf into integers: PyTorch says nothing
        try:
            t._data[key] = drop_leading_ones(value, target._data.ndim)
        finally:
            loud(token)
        t._vc[0] += 1
    return t


def _record_setitem(t: Tensor, index, value) -> None:
    """``t[index] = value`` in the graph, as PyTorch's ``set_item`` does it (see ``setitem``)."""
    if not isinstance(value, Tensor):  # a number becomes a 0-d tensor of t's dtype
        value = new_tensor(np.asarray(value, dtype=t._data.dtype))
    if index is True:  # x[True] = v is copied into x.unsqueeze(0)
        sliced, rest = Unsqueeze.apply(t, 0), None
    else:
        sliced, rest = apply_slicing(t, index)
    if rest is not None:
        key = index_key(rest, sliced._data.shape)
        apply_inplace(IndexPut, sliced, _without_leading_ones(value, view_always=False), key)
    elif sliced._data.shape == value._data.shape:
        copy_(sliced, value)
    elif value._data.ndim == 0:
        fill_(sliced, value)
    else:
        value = _without_leading_ones(value, view_always=True)
        if value._data.shape != sliced._data.shape:
            value = Expand.apply(value, sliced._data.shape)
        copy_(sliced, value)


def _without_leading_ones(value: Tensor, view_always: bool) -> Tensor:
    """``value`` viewed without its leading dims of size 1 (PyTorch's ``slicePrefix1sSize``)."""
    shape = value._data.shape
    start = next((i for i, n in enumerate(shape) if n != 1), len(shape))
    if start or view_always:
        return View.apply(value, shape[start:])
    return value


def _check_index_put(value_shape: tuple, target_shape: tuple) -> None:
    """``x[mask] = v``, ``x[[0, 1]] = v``: PyTorch's words when ``v`` does not broadcast."""
    core = tuple(value_shape)
    while core and core[0] == 1:
        core = core[1:]  # leading ones are dropped, as PyTorch does
    try:
        fits = np.broadcast_shapes(core, target_shape) == tuple(target_shape)
    except ValueError:
        fits = False
    if not fits:
        raise RuntimeError(
            f"shape mismatch: value tensor of shape {list(core)} cannot be broadcast to "
            f"indexing result of shape {list(target_shape)}"
        )


def _fills_through_mask(parts: tuple, value: Tensor) -> bool:
    """``x[mask] = v`` with a one-element ``v``: PyTorch's ``index_put_`` fills with
    ``masked_fill_(mask, v.item())`` (its ``canDispatchToMaskedFill``), which casts ``v``'s
    number into ``x``'s dtype, so the dtypes need not match: only with one mask as the sole
    tensor index (a 0-d mask becomes an unsqueeze and an int index in PyTorch)."""
    arrays = [k for k in parts if isinstance(k, np.ndarray)]
    return (
        value._data.size == 1
        and len(arrays) == 1
        and arrays[0].dtype == np.bool_
        and arrays[0].ndim > 0  # a 0-d mask is read as True/False: an int index, no mask
    )
