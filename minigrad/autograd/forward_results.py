"""What a forward's numpy result needs before it becomes a tensor, as PyTorch would make it.

numpy returns a scalar, not an array, for a 0-d result, and float64 where PyTorch makes the
default float (float32) from integers and Python floats; the apply paths
(``array_apply.py``) run these two fixes on every result that needs them. A result replaced
so (or laid out again as PyTorch's) replaces it where forward saved it too (``_relaid``):
a saved output must be the output itself, so that its version is watched.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._dtypes import get_default_dtype
from ..tensor import Tensor
from .saved_values import BackwardNode

_F64 = np.dtype(np.float64)


def _keep_default_float(out: np.ndarray, inputs: tuple) -> np.ndarray:
    """numpy makes float64 from integers and Python floats; PyTorch makes float32."""
    for x in inputs:
        if isinstance(x, Tensor) and x._data.dtype is _F64:
            return out
    return out.astype(get_default_dtype().numpy)


def _as_array(ctx: BackwardNode, out: Any) -> np.ndarray:
    """numpy gives a scalar for a 0-d result: make it an array, also where forward saved it.

    The saved value must stay the output itself (``is``), so that its version is watched
    and, under ``create_graph``, it is tied to this node.
    """
    array = np.asarray(out)
    saved = ctx._saved
    if saved is not None:
        ctx._saved = tuple([array if s is out else s for s in saved])
    return array


def _relaid(ctx: BackwardNode, out: np.ndarray, relaid: np.ndarray) -> np.ndarray:
    """``relaid`` (``out`` cast, or in PyTorch's layout) also where forward saved ``out``."""
    saved = ctx._saved
    if relaid is not out and saved is not None:
        ctx._saved = tuple(relaid if v is out else v for v in saved)
    return relaid
