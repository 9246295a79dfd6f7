"""Tensors of the kinds a model hands an op: each takes another way to its edge in the graph.

The short paths of a training step's ops (addmm, relu, mse_loss) look a hot input's edge up
themselves; their tests compare the edges they find with the general path's for each kind.
"""

from __future__ import annotations

import numpy as np

import minigrad as mg


def of_kind(array: np.ndarray, kind: str):
    """A layer's tensor as a model may hand it over: each takes another way to its edge."""
    if kind == "constant":
        return mg.tensor(array)
    if kind == "view of a leaf":
        return mg.tensor(np.concatenate([array, array]), requires_grad=True)[: len(array)]
    t = mg.tensor(array, requires_grad=True)
    if kind == "non-leaf":
        return t * 1
    if kind == "view whose base changed":  # its grad_fn out of date (views.view_history)
        base = mg.tensor(np.concatenate([array, array]), requires_grad=True) * 1
        view = base[: len(array)]
        base.mul_(1)
        return view
    if kind == "fresh leaf":
        return t
    t.sum()  # its AccumulateGrad, made by an earlier use
    if kind == "used leaf":
        return t
    t.requires_grad_(False)  # "turned off"
    if kind == "made a non-leaf in place":  # its AccumulateGrad is no longer its edge
        t.add_(mg.zeros(array.shape, requires_grad=True))
    return t


KINDS = ("constant", "fresh leaf", "used leaf", "turned off", "made a non-leaf in place")
KINDS += ("non-leaf", "view of a leaf", "view whose base changed")
