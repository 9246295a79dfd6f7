"""Small helpers the ops share: PyTorch's words for broadcasting errors and dtype names."""

from __future__ import annotations

import functools

import numpy as np

from .._dtypes import C_NAMES, LEGACY_NAMES  # noqa: F401 - C_NAMES is re-exported for the ops
from .._shapes import broadcast_shapes  # noqa: F401 - re-exported for the ops

# numpy's float32 tanh is off by an ulp for a third of the inputs; PyTorch's is nearly always
# correctly rounded, as float64 rounded once is. That costs 4x, so it is done for tensors small
# enough to be printed in full (PyTorch prints up to 1000 elements), where a learner sees the
# digits; a training batch (makemore's 32 x 200 layer) keeps numpy's speed.
PRINTED_IN_FULL = 1000


def c_order(out):
    """A reduction's result laid out in C order, as PyTorch allocates it: numpy keeps the
    input's order, and the layout decides whether a later ``reshape`` is a view."""
    return np.asarray(out, order="C")


def positions(n: int) -> np.ndarray:
    """``np.arange(n)``, read-only and made once per ``n`` (up to 4096, so that what is kept
    stays small): the row numbers a loss or an embedding's gradient indexes with on every
    training step, where a batch keeps one size."""
    return _positions(n) if n <= 4096 else np.arange(n)


@functools.lru_cache(maxsize=16)
def _positions(n: int) -> np.ndarray:
    out = np.arange(n)
    out.setflags(write=False)
    return out


def check_expand(shape: tuple, target: tuple, dtype: np.dtype) -> None:
    """A tensor of ``shape`` must expand to ``target``; PyTorch's message when it does not."""
    while shape and shape[0] == 1:
        shape = shape[1:]  # leading ones are dropped, as PyTorch does
    if len(shape) > len(target):
        raise RuntimeError(
            f"expand({_type_string(dtype)}{{{list(shape)}}}, size={list(target)}): "
            "the number of "
            f"sizes provided ({len(target)}) must be greater or equal to the number of "
            f"dimensions in the tensor ({len(shape)})"
        )
    lead = len(target) - len(shape)
    for i, n in reversed(list(enumerate(shape))):  # PyTorch checks the last dim first
        want = target[lead + i]
        if n != want and n != 1:
            raise RuntimeError(
                f"The expanded size of the tensor ({want}) must match the existing size ({n}) at "
                f"non-singleton dimension {lead + i}.  Target sizes: {list(target)}.  Tensor "
                f"sizes: {list(shape)}"
            )


def _type_string(dtype: np.dtype) -> str:
    """PyTorch's name of a tensor type in messages: ``torch.FloatTensor``, but ``CPUBoolType``
    (bool has no legacy tensor type)."""
    if dtype == np.bool_:
        return "CPUBoolType"
    return f"minigrad.{LEGACY_NAMES[dtype]}Tensor"


def in_grad_dtype(value, grad):
    """A saved input in the gradient's dtype, where a backward formula multiplies them: an
    integer input, or a 0-d one of another dtype, is read as PyTorch's type promotion reads it
    (numpy would make float64 of float32 times an int64 or float64 array). Tensors (under
    ``create_graph``) promote by themselves."""
    if isinstance(value, (np.ndarray, np.generic)) and value.dtype != grad.dtype:
        return np.asarray(value, grad.dtype)  # (a numpy scalar too: 0-d arithmetic gives one)
    return value
