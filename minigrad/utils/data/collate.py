"""``default_collate``: the samples of one batch into one batch, as PyTorch's.

A batch of ``(x, y)`` tuples becomes a *list* ``[stack of the x's, stack of the y's]`` (a
list, not a tuple: PyTorch keeps it so for backwards compatibility); tensors are stacked
along a new first dim, numpy arrays turned into tensors and stacked, Python floats become a
float64 tensor and ints an int64 one, strings stay a list, dicts and namedtuples are collated
field by field. ``default_convert`` is what a loader with ``batch_size=None`` applies to each
sample: numpy arrays to tensors, nothing stacked.
"""

from __future__ import annotations

import collections.abc
import copy
import re
from typing import Any

import numpy as np

from ..._dtypes import float64
from ..._functions.joining import stack
from ...creation import as_tensor, tensor
from ...tensor import Tensor

__all__ = ["default_collate", "default_convert"]

_STR_OR_OBJECT = re.compile(r"[SaUO]")  # numpy dtypes that do not make a tensor

_ERROR = (
    "default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; found {}"
)


def default_collate(batch: list[Any]) -> Any:
    """One batch from a list of samples (see the module docstring)."""
    elem = batch[0]
    elem_type = type(elem)
    if isinstance(elem, Tensor):
        return stack(batch, 0)
    if elem_type.__module__ == "numpy" and elem_type.__name__ not in ("str_", "string_"):
        if _STR_OR_OBJECT.search(elem.dtype.str) is not None:
            raise TypeError(_ERROR.format(elem.dtype))
        if isinstance(elem, np.ndarray):
            return default_collate([as_tensor(b) for b in batch])
        return as_tensor(batch)
    if isinstance(elem, float):
        return tensor(batch, dtype=float64)
    if isinstance(elem, int):
        return tensor(batch)
    if isinstance(elem, (str, bytes)):
        return batch
    if isinstance(elem, collections.abc.Mapping):
        collated = {key: default_collate([d[key] for d in batch]) for key in elem}
        try:
            if isinstance(elem, collections.abc.MutableMapping):
                clone = copy.copy(elem)
                clone.update(collated)
                return clone
            return elem_type(collated)
        except TypeError:
            return collated
    if isinstance(elem, tuple) and hasattr(elem, "_fields"):  # namedtuple
        return elem_type(*(default_collate(list(s)) for s in zip(*batch, strict=False)))
    if isinstance(elem, collections.abc.Sequence):
        size = len(elem)
        if not all(len(e) == size for e in batch):
            raise RuntimeError("each element in list of batch should be of equal size")
        columns = [default_collate(list(s)) for s in zip(*batch, strict=False)]
        if isinstance(elem, tuple):
            return columns  # PyTorch's "backwards compatibility": a list
        try:
            if isinstance(elem, collections.abc.MutableSequence):
                clone = copy.copy(elem)
                for i, column in enumerate(columns):
                    clone[i] = column
                return clone
            return elem_type(columns)
        except TypeError:
            return columns
    raise TypeError(_ERROR.format(elem_type))


def default_convert(data: Any) -> Any:
    """numpy arrays and scalars inside ``data`` become tensors; everything else is kept."""
    elem_type = type(data)
    if isinstance(data, Tensor):
        return data
    if elem_type.__module__ == "numpy" and elem_type.__name__ not in ("str_", "string_"):
        if isinstance(data, np.ndarray) and _STR_OR_OBJECT.search(data.dtype.str) is not None:
            return data
        return as_tensor(data)
    if isinstance(data, collections.abc.Mapping):
        return elem_type({key: default_convert(data[key]) for key in data})
    if isinstance(data, tuple) and hasattr(data, "_fields"):
        return elem_type(*(default_convert(d) for d in data))
    if isinstance(data, tuple):
        return [default_convert(d) for d in data]
    if isinstance(data, collections.abc.Sequence) and not isinstance(data, (str, bytes)):
        try:
            return elem_type([default_convert(d) for d in data])
        except TypeError:
            return [default_convert(d) for d in data]
    return data
