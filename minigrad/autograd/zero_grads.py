"""PyTorch's efficient zero tensors where the engine adds a node's gradients.

sgn's gradient (``sgn_backward``: ``_efficientzerotensor``) is a zero that PyTorch does
not fill: where two gradients meet at a node, its input buffer keeps the first and adds the
second, and such zeros kept first are replaced by the second gradient itself. So through abs
under ``create_graph`` (abs's gradient records ``SgnBackward0``) a -0. from the other path
stays -0., where adding zeros gives 0.
Under ``create_graph`` (grad mode on) the buffer adds out of place, ``old + g``, always:
the sum is recorded as ``AddBackward0`` (a ``None`` edge for the zeros), and adding
efficient zeros copies the other gradient (so its -0. stays -0.).
Multiplied or divided, they stay efficient zeros (``mul_zerotensor``: no ``0 * nan``), so an
op whose gradient formula only scales ``grad`` passes them on (``kept_zeros``), and so does
a view of them; added, negated or summed they become ordinary zeros.
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
        if is_efficient_zeros(old):
            return _recorded_sum(old, g, g) if isinstance(g, Tensor) else g
        if isinstance(old, Tensor) and is_efficient_zeros(g):
            return _recorded_sum(old, g, old)
    return old + g


def is_efficient_zeros(g: Any) -> bool:
    """Whether ``g`` is marked by ``efficient_zeros`` (and still alive), or a numpy view of
    such an array (``view``'s and ``expand``'s gradients: PyTorch's view of efficient zeros
    is efficient zeros)."""
    ref = _ZEROS.get(id(g))
    if ref is None:
        base = g.base if type(g) is np.ndarray else None
        if base is None:
            return False
        g, ref = base, _ZEROS.get(id(base))
    return ref is not None and ref() is g


def kept_zeros(grads: tuple, keeps: tuple[bool, ...]) -> tuple:
    """An op's input gradients for efficient zeros arriving: those whose formula only
    multiplies or divides ``grad`` (``keeps[i]``) are efficient zeros again, the others
    (``-grad * ...``: ordinary -0. and 0.) as the formula computed them."""
    return tuple(
        [
            efficient_zeros(np.zeros(g.shape, g.dtype)) if keep and g is not None else g
            for g, keep in zip(grads, keeps + (False,) * (len(grads) - len(keeps)))
        ]
    )


def _recorded_sum(old: Tensor, g: Tensor, kept: Tensor) -> Tensor:
    """``old + g`` under ``create_graph`` with one of them efficient zeros: the graph of the
    sum (``AddBackward0``), the values of ``kept`` (PyTorch's ``add_zerotensor`` copies it)."""
    out = old + g
    np.copyto(out._data, kept._data)
    return efficient_zeros(out) if is_efficient_zeros(old) and is_efficient_zeros(g) else out
