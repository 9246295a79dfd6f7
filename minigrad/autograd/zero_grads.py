"""PyTorch's efficient zero tensors where the engine adds a node's gradients.

sgn's gradient (``sgn_backward``: ``_efficientzerotensor``) is a zero that PyTorch does
not fill: where two gradients meet at a node, its input buffer keeps the first and adds the
second, and such zeros kept first are replaced by the second gradient itself. So through abs
under ``create_graph`` (abs's gradient records ``SgnBackward0``) a -0. from the other path
stays -0., where adding zeros gives 0.
minigrad's is an ordinary zeros array (or Tensor), remembered here by identity for as long
as it lives; ``buffer_sum`` is the engine's addition of two gradients.
"""

from __future__ import annotations

import weakref
from typing import Any

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
    they are added in place (``old.add_(zeros)`` fills them: -0. + 0. is 0.), as here."""
    if _ZEROS:
        ref = _ZEROS.get(id(old))
        if ref is not None and ref() is old:
            return g
    return old + g
