"""A float tensor and a Python number that record no graph, as one ufunc: ``-lr * p.grad``.

The update ``p.data += -lr * p.grad`` of a training loop written by hand makes one such product
per parameter per step; the op's general ``apply`` (``_apply_binary``) would find the same ufunc
on the same operands after its checks of dtypes, shapes and graphs, which this case passes.
``tests/test_fast_paths.py`` compares the two.
"""

from __future__ import annotations

import numpy as np

from .._quiet import loud, quiet
from ..autograd import grad_mode
from ..tensor import Tensor, follows_base, new_tensor

__all__ = ["number_op"]

_grad_state = grad_mode.state


def number_op(ufunc, apply, t: Tensor, number: float) -> Tensor:
    """``t + 2.0``, ``t - 2.0``, ``-lr * t`` (``ufunc``: a value of ``inplace.UFUNCS``) as one
    ufunc, for a float tensor that records no graph: the other half of ``p.data += -lr * p.grad``.
    The op's general ``apply`` (``_apply_binary``) computes the same ufunc on the same operands
    and takes the other cases (a 0-d tensor too: numpy's result is then a scalar)."""
    data = t._data
    if (
        data.dtype.kind != "f"
        or _grad_state.enabled
        and (t._requires_grad or t._base is not None and follows_base(t))
    ):
        return apply(t, number)
    token = quiet()
    try:
        out = ufunc(data, number)
    finally:
        loud(token)
    return new_tensor(out) if type(out) is np.ndarray else apply(t, number)
