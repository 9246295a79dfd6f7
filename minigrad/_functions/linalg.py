"""``minigrad.matmul``, ``mm``, ``mv``, ``dot``, ``addmm``, ``outer``: the matrix products.

``matmul`` (and ``@``) picks the product by the operands' dimensions, as PyTorch
does, including the way PyTorch folds a batch into one product, which shows in
the graph. ``outer`` is no op of its own: PyTorch writes it as a column times a row,
and so does minigrad, so its graph is the same ``MulBackward0`` over a ``ViewBackward0``.
"""

from __future__ import annotations

from .._shapes import broadcast_shapes
from .._typename import type_name
from ..autograd import grad_mode
from ..autograd.inference_saved import refuse_saved_inference
from ..ops import arithmetic as A
from ..ops import bmm as BMM
from ..ops import linalg as L
from ..ops import shape as S
from ..ops import vector_products as VEC
from ..ops.addmm import Addmm
from ..tensor import Tensor
from .shape import expand, reshape, squeeze, unsqueeze


def mm(input: Tensor, mat2: Tensor) -> Tensor:
    return L.Mm.apply(input, mat2)


def mv(input: Tensor, vec: Tensor) -> Tensor:
    return VEC.Mv.apply(input, vec)


def dot(input: Tensor, other: Tensor) -> Tensor:
    return VEC.Dot.apply(input, other)


def addmm(input: Tensor, mat1: Tensor, mat2: Tensor) -> Tensor:
    return Addmm.apply(input, mat1, mat2)


def _outer(name: str, method: bool):
    def outer(input: Tensor, vec2: Tensor) -> Tensor:
        """``input[i] * vec2[j]``, as PyTorch computes it: ``input.reshape(-1, 1) * vec2``, a
        broadcast product (so dtypes promote as ``*`` does, and bools stay bools)."""
        for arg, value, position in (("input", input, 1), ("vec2", vec2, 2 - method)):
            if not isinstance(value, Tensor):
                raise TypeError(
                    f"{name}(): argument '{arg}' (position {position}) must be Tensor, "
                    f"not {type_name(value)}"
                )
        for arg, value in (("self", input), ("vec2", vec2)):
            if value._data.ndim != 1:
                raise RuntimeError(
                    f"outer: Expected 1-D argument {arg}, but got {value._data.ndim}-D"
                )
        return A.Mul.apply(reshape(input, (input._data.shape[0], 1)), vec2)

    outer.__name__ = name
    return outer


outer, ger = _outer("outer", False), _outer("ger", False)  # ger: PyTorch's older name
outer_method, ger_method = _outer("outer", True), _outer("ger", True)


def matmul(input: Tensor, other: Tensor) -> Tensor:
    try:  # two matrices, the usual ``x @ W``: mm at once
        if input._data.ndim == 2 and other._data.ndim == 2:
            return L.Mm.apply(input, other)
    except AttributeError:  # not two tensors: the checks below say which
        pass
    if not isinstance(other, Tensor) or not isinstance(input, Tensor):
        raise TypeError(
            f"matmul(): argument 'other' (position 2) must be Tensor, not {type(other).__name__}"
        )
    a, b = input.ndim, other.ndim
    if a == 0 or b == 0:
        raise RuntimeError(
            f"both arguments to matmul need to be at least 1D, but they are {a}D and {b}D"
        )
    if a == 1 and b == 1:
        return dot(input, other)
    if a == 2 and b == 1:
        return mv(input, other)
    if a == 2 and b == 2:
        return mm(input, other)
    if a == 1 and b == 2:
        if input.shape[0] != other.shape[0]:
            if grad_mode.state.enabled:  # the mm it runs would refuse an inference tensor first
                edges = [x if x.requires_grad else None for x in (input, other)]
                refuse_saved_inference(L.Mm, (input, other), edges)
            raise RuntimeError(
                f"mat1 and mat2 shapes cannot be multiplied (1x{input.shape[0]} "
                f"and {other.shape[0]}x{other.shape[1]})"
            )
        out = S.SqueezeMatmul.apply(mm(unsqueeze(input, 0), other), 0)
        if type(out._vc) is list:  # PyTorch's squeeze_(0), in place: _version 1
            out._vc[0] += 1
        return out
    if _should_fold(input, other):
        return _folded(input, other)
    return _batched(input, other)


def _batched(input: Tensor, other: Tensor) -> Tensor:
    """A batch of products in PyTorch's steps, so that the graph is PyTorch's: each side
    expanded to the common batch and reshaped to 3-d, one ``bmm``, ``_unsafe_view`` back."""
    BMM.check_batched(input._data, other._data)
    d1, d2 = input.ndim, other.ndim
    s1, s2 = input._data.shape, other._data.shape
    n, m1 = (s1[-2] if d1 > 1 else 1), s1[-1]
    m2, p = (s2[-2], s2[-1]) if d2 > 1 else (s2[-1], 1)
    b1, b2 = s1[: max(d1 - 2, 0)], s2[: max(d2 - 2, 0)]
    if d1 == 3 and d2 == 3 and b1[0] != b2[0]:  # a batch of 1 that wants a gradient: one mm
        if b1[0] == 1 and input.requires_grad:
            return matmul(squeeze(input, 0), other)
        if b2[0] == 1 and other.requires_grad:
            return matmul(input, squeeze(other, 0))
    batch = broadcast_shapes(b1, b2)
    count = 1
    for d in batch:
        count *= d
    t1 = reshape(expand(input, batch + (n, m1)), (count, n, m1))
    if d2 == 1:  # a vector: a batch of one-column matrices
        t2 = unsqueeze(reshape(expand(other, batch + (m2,)), (count, m2)), 2)
        out = S.SqueezeDim.apply(BMM.Bmm.apply(t1, t2), -1)
    else:
        out = BMM.Bmm.apply(t1, reshape(expand(other, batch + (m2, p)), (count, m2, p)))
    return S.UnsafeView.apply(out, batch + ((n,) if d1 > 1 else ()) + ((p,) if d2 > 1 else ()))


def _should_fold(input: Tensor, other: Tensor) -> bool:
    """PyTorch's ``should_fold``: a >= 3-d side times a vector or matrix is one mm (or mv) of
    the batch folded into rows, when that needs no copy or when the small side wants a
    gradient (then a copy beats a batch-sized gradient)."""
    larger = input.ndim >= other.ndim
    big, small = (input.ndim, other.ndim) if larger else (other.ndim, input.ndim)
    if big < 3 or small > 2:
        return False
    if (other if larger else input).requires_grad:
        return True
    if input.ndim == 2:
        return False
    t1 = input._data if larger else other._data.swapaxes(-1, -2)
    if t1.size == 0:
        return True
    strides = [s // t1.itemsize for s in t1.strides]
    return all(strides[i] == strides[i + 1] * t1.shape[i + 1] for i in range(t1.ndim - 2))


def _folded(input: Tensor, other: Tensor) -> Tensor:
    """``_unsafe_view(reshape(t1, (-1, k)) @ t2)``, with the sides swapped (and the result
    transposed back) when the batch is on the right, as PyTorch's ``_matmul_impl``."""
    transpose = other.ndim > input.ndim
    t1 = S.Transpose.apply(other, -2, -1) if transpose else input
    t2 = (S.T.apply(input) if input.ndim == 2 else input) if transpose else other
    lead = t1._data.shape[:-1]
    rows = 1
    for d in lead:
        rows *= d
    flat = reshape(t1, (rows, t1._data.shape[-1]))
    if t2.ndim == 1:
        return S.UnsafeView.apply(mv(flat, t2), lead)
    out = S.UnsafeView.apply(mm(flat, t2), lead + (t2._data.shape[1],))
    if not transpose:
        return out
    out = S.Transpose.apply(out, -2, -1)
    return out if out._data.flags.c_contiguous else S.Clone.apply(out)
