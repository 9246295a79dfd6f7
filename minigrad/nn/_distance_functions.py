"""``F.normalize`` and ``F.cosine_similarity``: vectors scaled to unit length, and compared.

Both are composites in PyTorch, so their graphs are the graphs of the ops they are made of,
written here in the same order: ``normalize`` is ``input / norm.clamp_min(eps).expand_as``
(PyTorch's Python source), ``cosine_similarity`` divides each side by its own clamped norm
before the dot product (PyTorch's ``Distance.cpp``: no overflow from ``<x1, x2>``, and a
result between -1 and 1).
"""

from __future__ import annotations

from .._dtypes import LEGACY_NAMES, from_numpy_dtype, result_dtype
from .._functions.scans import vector_norm
from .._shapes import broadcast_shapes
from ..autograd.grad_mode import no_grad
from ..tensor import Tensor

__all__ = ["normalize", "cosine_similarity"]


def normalize(
    input: Tensor, p: float = 2.0, dim: int = 1, eps: float = 1e-12, out: Tensor | None = None
) -> Tensor:
    """``input`` divided by its ``p``-norm along ``dim`` (at least ``eps``, so that a zero
    vector stays zero): ``DivBackward0`` over ``ExpandBackward0``, ``ClampMinBackward0`` and
    ``LinalgVectorNormBackward0``, as PyTorch records it."""
    if out is not None:
        raise NotImplementedError("minigrad's normalize has no out= argument: use its result")
    denom = input.norm(p, dim, keepdim=True).clamp_min(eps).expand_as(input)
    return input / denom


def cosine_similarity(x1: Tensor, x2: Tensor, dim: int = 1, eps: float = 1e-8) -> Tensor:
    """The cosine of the angle between ``x1`` and ``x2`` along ``dim`` (they broadcast).

    Each side is divided by its own 2-norm, clamped to ``eps`` in place on a clone under
    ``no_grad`` (so the clamp is not differentiated, as in PyTorch), then the products summed.
    """
    common = result_dtype(x1._data, x2._data)
    if common.kind != "f":
        raise RuntimeError(
            "expected common dtype to be floating point, yet common dtype is "
            f"{LEGACY_NAMES[common]}"
        )
    if x1._data.dtype.kind != "f":  # integers (and bools) are accepted, vector_norm is not
        x1 = x1.to(from_numpy_dtype(common))
    if x2._data.dtype.kind != "f":
        x2 = x2.to(from_numpy_dtype(common))
    if x1.shape != x2.shape:  # PyTorch's expand_outplace: both expanded, or neither
        shape = broadcast_shapes(x1.shape, x2.shape)
        x1, x2 = x1.expand(shape), x2.expand(shape)
    x1_norm = vector_norm(x1, 2, dim=dim, keepdim=True).clone()
    x2_norm = vector_norm(x2, 2, dim=dim, keepdim=True).clone()
    with no_grad():
        x1_norm.clamp_min_(eps)
        x2_norm.clamp_min_(eps)
    # C++ evaluates ``(x1 / x1_norm) * (x2 / x2_norm)``'s right operand first (GCC's order of
    # arguments): x2's division is the older node, which decides the order of a backward pass
    right = x2 / x2_norm
    return ((x1 / x1_norm) * right).sum(dim)
