"""``x @ W + b``'s add, recorded directly: the short ``apply`` of ``Add`` (``_short_path``).

A layer written by hand (makemore's ``emb.view(-1, 30) @ W1 + b1``) adds a bias row to a
batch in every step. For the usual case, a C-ordered float32 (N, M) tensor plus an (M,)
float32 tensor, neither a view, this computes the same ``a + b`` and records the same node
as the general binary apply (``array_apply._apply_binary``): the same edges, creation order
and broadcast shapes ``(None, (M,))`` for the backward's sum over the batch
(``arithmetic._add_run``). Anything else takes the general path, with its errors.
"""

from __future__ import annotations

import numpy as np

from .._quiet import loud, quiet
from ..autograd import anomaly_mode, grad_mode
from ..autograd.array_apply import _apply_binary
from ..tensor import new_tensor
from ._short_path import edge, node

_F32 = np.dtype(np.float32)
_anomaly = anomaly_mode.state
_state = grad_mode.state


def bias_add(cls, a, b):
    """``a + b`` for a batch ``a`` (N, M) and a bias ``b`` (M,); else the general apply."""
    bd = getattr(b, "_data", None)  # a number (``y + 0.0001``): no exception to catch
    if bd is None or bd.ndim != 1:
        return _apply_binary(cls, a, b)
    ad = getattr(a, "_data", None)
    if ad is None or a._base is not None or b._base is not None:  # a view: follows_base
        return _apply_binary(cls, a, b)  # and view_history
    if (
        ad.ndim != 2
        or ad.dtype is not _F32
        or bd.dtype is not _F32
        or bd.shape[0] != ad.shape[1]
        or not ad.flags.c_contiguous
        or not bd.flags.c_contiguous
        or _anomaly.enabled
    ):
        return _apply_binary(cls, a, b)
    token = quiet()
    try:
        out = np.add(ad, bd)
    finally:
        loud(token)
    ar, br = a._requires_grad, b._requires_grad
    if not ((ar or br) and _state.enabled):
        return new_tensor(out)
    ctx = node(cls, (edge(a) if ar else None, edge(b) if br else None))
    if br:
        ctx._shapes = (None, bd.shape)  # b was broadcast over the batch; a was not
    return new_tensor(out, ctx, True)
