"""PyTorch's efficient zero tensors where the engine adds a node's gradients.

sgn's gradient (``sgn_backward``: ``_efficientzerotensor``) is a zero that PyTorch does
not fill: where two gradients meet at a node, its input buffer keeps the first and adds the
second, and such zeros kept first are replaced by the second gradient itself. So through abs
under ``create_graph`` (abs's gradient records ``SgnBackward0``) a -0. from the other path
stays -0., where adding zeros gives 0.
Under ``create_graph`` (grad mode on) the buffer adds out of place, ``old + g``, always:
the sum is recorded as ``AddBackward0`` (a ``None`` edge for the zeros), and adding
efficient zeros copies the other gradient (so its -0. stays -0.).
minigrad's is an ordinary zeros array (or Tensor), remembered here by identity for as long
as it lives; ``buffer_sum`` is the engine's addition of two gradients.
"""

from __future__ import annotations

import weakref
from typing import Any

import numpy as np

from ..tensor import Tensor

#: id -> weak reference of the live efficient zeros (a plain dict: empty, it costs nothing)
_ZEROS: dict[int, weakref.ref] = {}


def efficient_zeros(zeros: Any) -> Any:
    """``zeros`` (a new array or Tensor of zeros), marked as PyTorch's efficient zeros."""
    key = id(zeros)
    _ZEROS[key] = weakref.ref(zeros, lambda _, key=key: _ZEROS.pop(key, None))
    return zeros


def buffer_sum(old: Any, g: Any) -> Any:
    """``old + g`` as PyTorch's input buffer adds two gradients of one node's input: efficient
    zeros there first are replaced by ``g`` itself (``zeros + g`` copies ``g``); arriving second
    they are added in place (``old.add_(zeros)`` fills them: -0. + 0. is 0.), as here. Under
    ``create_graph`` (Tensors) the sum is recorded either way, with the other one's values."""
    if _ZEROS:
        if _is_zeros(old):
            return _recorded_sum(old, g, g) if isinstance(g, Tensor) else g
        if isinstance(old, Tensor) and _is_zeros(g):
            return _recorded_sum(old, g, old)
    return old + g


def _is_zeros(g: Any) -> bool:
    ref = _ZEROS.get(id(g))
    return ref is not None and ref() is g


def _recorded_sum(old: Tensor, g: Tensor, kept: Tensor) -> Tensor:
    """``old + g`` under ``create_graph`` with one of them efficient zeros: the graph of the
    sum (``AddBackward0``), the values of ``kept`` (PyTorch's ``add_zerotensor`` copies it)."""
    out = old + g
    np.copyto(out._data, kept._data)
    return efficient_zeros(out) if _is_zeros(old) and _is_zeros(g) else out
