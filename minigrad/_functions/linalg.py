"""``minigrad.matmul``, ``mm``, ``mv``, ``dot``, ``addmm``: the matrix products.

``matmul`` (and ``@``) picks the product by the operands' dimensions, as PyTorch
does, including the way PyTorch folds a batch into one product, which shows in
the graph.
"""

from __future__ import annotations

from ..ops import linalg as L
from ..ops import shape as S
from ..tensor import Tensor
from .shape import unsqueeze


def mm(input, mat2):
    return L.Mm.apply(input, mat2)


def mv(input, vec):
    return L.Mv.apply(input, vec)


def dot(input, other):
    return L.Dot.apply(input, other)


def addmm(input, mat1, mat2):
    return L.Addmm.apply(input, mat1, mat2)


def matmul(input, other):
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
            raise RuntimeError(
                f"mat1 and mat2 shapes cannot be multiplied (1x{input.shape[0]} "
                f"and {other.shape[0]}x{other.shape[1]})"
            )
        return S.SqueezeMatmul.apply(mm(unsqueeze(input, 0), other), 0)
    if a <= 2 and b >= 3 and input._requires_grad:
        # PyTorch folds the batch into one matrix product when the smaller side requires grad:
        # x @ B is (B.mT @ x.mT).mT.contiguous() (for a vector, B.mT @ x), as its graph shows
        folded = L.BatchedMatmul.apply(
            S.Transpose.apply(other, -2, -1), input if a == 1 else S.Transpose.apply(input, 0, 1)
        )
        if a == 1:
            return folded
        result = S.Transpose.apply(folded, -2, -1)
        return result if result._data.flags.c_contiguous else S.Clone.apply(result)
    return L.BatchedMatmul.apply(input, other)
