"""``F.embedding`` and ``F.one_hot``: integer tokens turned into vectors.

makemore starts with ``F.one_hot(xs, num_classes=27).float() @ W`` and moves on to an
embedding table ``C[X]``; ``nn.Embedding`` is that table as a layer. Both take integer
tensors only, and say so with PyTorch's messages.
"""

from __future__ import annotations

import numpy as np

from .._dtypes import LEGACY_NAMES
from .._functions.scans import vector_norm
from .._quiet import loud, quiet
from .._typename import type_name
from ..ops import embedding as EMB
from ..tensor import Tensor, new_tensor

__all__ = ["embedding", "one_hot"]


def _tensor_argument(value: object, name: str, position: int) -> None:
    if not isinstance(value, Tensor):
        raise TypeError(
            f"embedding(): argument '{name}' (position {position}) must be Tensor, not "
            f"{type_name(value)}"
        )


def embedding(
    input: Tensor,
    weight: Tensor,
    padding_idx: int | None = None,
    max_norm: float | None = None,
    norm_type: float = 2.0,
    scale_grad_by_freq: bool = False,
    sparse: bool = False,
) -> Tensor:
    """The rows of ``weight`` named by ``input`` (int64 or int32), in ``input``'s shape.

    ``padding_idx``: that row gets no gradient (a "pad" token that stays as it is).
    ``max_norm``: the rows looked up are first scaled down in place, under ``no_grad``, to a
    ``norm_type`` norm of at most ``max_norm`` (the weight's version goes up, as PyTorch's).
    ``scale_grad_by_freq``: each row's gradient is divided by how often the row was read.
    ``sparse=True`` asks for a sparse gradient, which minigrad has not: it raises.
    """
    if padding_idx is not None:
        if padding_idx > 0:
            if padding_idx >= weight.size(0):
                raise AssertionError("Padding_idx must be within num_embeddings")
        elif padding_idx < 0:
            if padding_idx < -weight.size(0):
                raise AssertionError("Padding_idx must be within num_embeddings")
            padding_idx = weight.size(0) + padding_idx
    else:
        padding_idx = -1
    if max_norm is not None:
        input = input.contiguous()
        _embedding_renorm_(weight, input, max_norm, norm_type)  # records nothing (no_grad)
    _tensor_argument(weight, "weight", 1)
    _tensor_argument(input, "indices", 2)
    padding_idx = _int_argument(padding_idx, "embedding", "padding_idx", 3)  # torch.embedding's
    if sparse:
        raise NotImplementedError(
            "embedding(sparse=True): minigrad has no sparse tensors, so it cannot give the "
            "sparse gradient PyTorch gives; use sparse=False (the default), whose dense "
            "gradient has the same values"
        )
    return EMB.Embedding.apply(weight, input._data, padding_idx, bool(scale_grad_by_freq))


def _writeable_row(data: np.ndarray, k: int) -> np.ndarray:
    """Row ``k`` of ``data`` to scale in place. Of an expanded weight (numpy's read-only
    ``broadcast_to``) PyTorch writes the shared memory, unless the row itself repeats an
    element (then its TensorIterator refuses, with this message)."""
    row = data[k]
    if row.flags.writeable:
        return row
    if any(s == 0 and n > 1 for n, s in zip(row.shape, row.strides)):
        raise RuntimeError(
            "unsupported operation: more than one element of the written-to tensor refers to a "
            "single memory location. Please clone() the tensor before performing the operation."
        )
    owner = row  # the array that owns the memory: a writeable window of it onto the row
    while getattr(owner, "base", None) is not None:  # through as_strided's DummyArray too
        owner = owner.base
    offset = row.__array_interface__["data"][0] - owner.__array_interface__["data"][0]
    return np.ndarray(row.shape, row.dtype, owner, offset, row.strides)


def _embedding_renorm_(weight: Tensor, indices: Tensor, max_norm: float, norm_type: float) -> None:
    """PyTorch's ``embedding_renorm_`` (``max_norm``): each row looked up whose ``norm_type``
    norm is above ``max_norm`` is scaled down to ``max_norm`` in place, in ascending row order,
    rows repeated once; the weight's version goes up by one, as for any in-place op."""
    data = weight._data
    if data.ndim != 2:
        raise RuntimeError(
            f"Expected 2-dimensional tensor, but got {data.ndim}-dimensional tensor for argument "
            "#1 'self' (while checking arguments for embedding_renorm_)"
        )
    EMB.check_indices(indices._data, 2, "embedding_renorm_")

    for k in np.unique(indices._data):
        k = int(k)
        if not -data.shape[0] <= k < data.shape[0]:
            raise IndexError(
                f"select(): index {k} out of range for tensor of size {list(data.shape)} at "
                "dimension 0"
            )
        if data.dtype.kind != "f":  # the C++ kernel calls norm() itself: its message
            raise RuntimeError(
                "norm(): input dtype should be either floating point or complex. Got "
                f"{LEGACY_NAMES[data.dtype]} instead."
            )
        norm = float(vector_norm(new_tensor(data[k]), norm_type))  # x.norm(p), row by row
        if norm > max_norm:
            scale = max_norm / (norm + 1e-7)
            token = quiet()  # an inf row scaled by 0. is nan, and PyTorch says nothing
            try:
                _writeable_row(data, k)[...] *= np.asarray(scale, data.dtype)  # a float Scalar
            finally:
                loud(token)
    weight._vc[0] += 1


def _int_argument(value: object, function: str, name: str, position: int) -> int:
    """PyTorch's ``int`` argument: a Python or numpy integer, or a 0-d integer tensor (not a
    bool, a float or a float tensor)."""
    if isinstance(value, Tensor) and value.ndim == 0 and value._data.dtype.kind in "iu":
        return int(value.item())
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise TypeError(
            f"{function}(): argument '{name}' (position {position}) must be int, not "
            f"{type(value).__name__ if isinstance(value, Tensor) else type_name(value)}"
        )
    return int(value)


def one_hot(input: Tensor, num_classes: int = -1) -> Tensor:
    """``input`` (int64 class indices) as rows of 0s with a 1 at each index: int64, one more
    dimension of size ``num_classes`` (inferred as ``max + 1`` when -1). makemore feeds
    ``F.one_hot(xs, num_classes=27).float()`` to its first layer. Not differentiable: the
    result is a new integer tensor, as PyTorch's (made by ``zeros`` then ``scatter_``, which
    is why its ``_version`` is 2)."""
    if not isinstance(input, Tensor):
        raise TypeError(
            f"one_hot(): argument 'input' (position 1) must be Tensor, not {type_name(input)}"
        )
    num_classes = _int_argument(num_classes, "one_hot", "num_classes", 2)
    data = input._data
    if data.dtype != np.int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    if data.size == 0:
        if num_classes <= 0:
            raise RuntimeError("Can not infer total number of classes from empty tensor.")
        return new_tensor(np.zeros(data.shape + (num_classes,), np.int64))
    if data.min() < 0:
        raise RuntimeError("Class values must be non-negative.")
    if num_classes == -1:
        num_classes = int(data.max()) + 1
    elif num_classes <= data.max():
        raise RuntimeError("Class values must be smaller than num_classes.")
    out = np.ascontiguousarray(data[..., None] == np.arange(num_classes), np.int64)
    result = new_tensor(out)
    result._vc[0] = 2
    return result
