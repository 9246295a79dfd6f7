"""Matrix products: ``mm`` (``@`` of two matrices), and what ``addmm`` shares with it.

``addmm`` (Linear's op) is in ``addmm.py``, ``mv`` and ``dot`` in ``vector_products.py``,
``bmm`` (batched matmul) in ``bmm.py``.
"""

from __future__ import annotations

import numpy as np

from .._quiet import loud, quiet
from ..autograd import grad_mode
from ..autograd.function import ArrayFunction
from ..tensor import new_tensor
from ._common import C_NAMES
from ._short_path import NOT_KEPT, edge, late, node
from .namespace import namespace

# For these, np.dot is matmul's BLAS product, bit for bit, with less set-up: 0.3 us less a
# call on small matrices (a quarter of a Linear layer's product), the same on large ones.
# Other dtypes keep matmul's own loops (tests/test_nn_fast_paths.py).
BLAS_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))
_dot = np.ndarray.dot  # np.dot's C product, without np.dot's Python-level dispatcher


def column_major(a) -> bool:
    """A transposed matrix (``W.t()``): PyTorch then computes its gradient transposed too."""
    if type(a) is not np.ndarray:
        a = a._data
    s, i = a.strides, a.itemsize
    return s[0] == i and s[1] == i * a.shape[0]


def outer(col: np.ndarray, row: np.ndarray) -> np.ndarray:
    """``col @ row`` of a column (m, 1) and a row (1, n) as PyTorch's mm computes it: the
    exact products (a -0. stays -0.), but where m or n is 1 (BLAS's gemv) a sum from 0.
    (numpy's matmul always adds to 0., so -0. becomes 0.)."""
    out = col * row
    if (out.shape[0] == 1 or out.shape[1] == 1) and out.dtype.kind == "f":  # integers: no -0.
        out += 0.0
    return out


SMALL = 400  # small_product's limit: callers test it first, a call less per training batch


def small_product(a: np.ndarray, b: np.ndarray, start=None) -> np.ndarray | None:
    """``a @ b`` (``start + a @ b`` for addmm) as PyTorch's BLAS computes a small float product
    with ``b`` in row order, or None when it is not one: each element ``start`` (else 0.)
    plus the products one after the other (numpy's BLAS adds in another order: an ulp apart
    in most results; with the bias first, a -0. bias stays -0. where the products are -0.).
    Measured against torch for inner sizes 2 to 7 and fewer than 400 multiplications; a
    column-major ``b`` (``W.t()``, a Linear layer's) adds the bias after the products (one
    row's or column's sum of fewer than 4 columns keeps a -0.): inner size 2-3, and up to
    7 in the shapes where MKL adds in order too (``_products_in_order``); np.dot in the
    others, as for the benchmarks' layers."""
    if a.size * b.shape[1] >= SMALL:  # first, as it is the cheapest test (a training batch)
        return None
    n, k = a.shape
    m = b.shape[1]
    if a.dtype not in BLAS_FLOATS or a.dtype != b.dtype:  # float16: PyTorch's own loops
        return None
    if k == 1 and start is not None:  # addmm: the bias plus the one product (-0. stays -0.)
        return start + a * b
    if b.flags.c_contiguous and 1 < k < 8 and m > 1:
        from_bias = True
    elif b.flags.f_contiguous and _products_in_order(n, k, m):  # W.t(): products, then bias
        from_bias = False
    else:
        return None
    products = a[:, :, None] * b[None, :, :]
    if start is None or not from_bias:  # (C-ordered results, as np.dot's: layouts matter)
        sums = np.cumsum(products, axis=1)[:, -1, :]
        if start is not None and m < 4 and 1 in (n, m):  # a row or a column: -0. stays
            return np.array(sums, order="C") + start
        out = np.add(sums, 0.0, order="C")  # from 0.: never -0.
        return out if start is None else out + start
    first = np.broadcast_to(np.asarray(start, dtype=a.dtype), (n, m))[:, None, :]
    return np.cumsum(np.concatenate([first, products], axis=1), axis=1)[:, -1, :].copy()


def _products_in_order(n: int, k: int, m: int) -> bool:
    """Whether MKL adds the ``k`` products of an ``(n, k) @ (k, m)`` product with a
    column-major right side one after the other (measured against torch, float32 and
    float64): inner size 2-3; 4 for fewer than 4 columns or one row; 5-7 for 2-3 columns, or
    one column and fewer than 4 rows. In the other shapes its kernels pair the products."""
    if k < 4:
        return k > 1
    if k == 4:
        return m < 4 or n == 1
    return k < 8 and (1 < m < 4 or (m == 1 and n < 4))


def mm_grads(grad, a, b, need_a: bool, need_b: bool, layout: tuple | None = None) -> tuple:
    """The gradients of ``a @ b`` (matrices), each in the layout of its input, as PyTorch.

    ``layout``: whether ``a`` and ``b`` were column-major, when they may not be saved.
    """
    a_cm, b_cm = layout if layout is not None else (column_major(a), column_major(b))
    grad_a = grad_b = None
    if type(grad) is np.ndarray:  # the ordinary backward: numpy's ``.T``, no namespace calls
        mm = _dot if grad.dtype in BLAS_FLOATS else np.matmul
        if need_a:
            if grad.shape[1] == 1:  # a layer of one output: an outer product
                grad_a = outer(b, grad.T).T if a_cm else outer(grad, b.T)
            else:
                grad_a = mm(b, grad.T).T if a_cm else mm(grad, b.T)
        if need_b:
            if grad.shape[0] == 1:  # a batch of one: an outer product too
                grad_b = outer(grad.T, a).T if b_cm else outer(a.T, grad)
            else:
                grad_b = mm(grad.T, a).T if b_cm else mm(a.T, grad)
        return grad_a, grad_b
    t = namespace(grad).t
    if need_b:  # mat2's first, as PyTorch's MmBackward0 (the order the nodes are recorded in)
        grad_b = t(t(grad) @ a) if b_cm else t(a) @ grad
    if need_a:
        grad_a = t(b @ t(grad)) if a_cm else grad @ t(b)
    return grad_a, grad_b


def dims_text(shape: tuple) -> str:
    """``2x3``: how PyTorch's messages write a shape."""
    return "x".join(str(n) for n in shape)


class Mm(ArrayFunction):
    """``a @ b`` of two matrices. A layer written ``x @ W`` runs it every step, so two
    float32/float64 matrices take a short ``apply`` (``_short_path``): the general path's
    node, recorded directly."""

    node_name = "MmBackward0"
    saved_names = ("self", "mat2")
    saved_when = (1, 0)  # self is kept for mat2's gradient only, mat2 for self's
    exact_grads = True

    @classmethod
    def apply(cls, a, b):
        try:
            ad, bd = a._data, b._data
        except AttributeError:  # not two tensors: the general path
            return ArrayFunction.apply.__func__(cls, a, b)
        dtype = ad.dtype
        if not (
            ad.ndim == 2
            and bd.ndim == 2
            and bd.dtype is dtype
            and dtype in BLAS_FLOATS
            and (k := ad.shape[1]) == bd.shape[0]
            and k != 1  # one inner column: the exact outer product (forward)
            and type(a._vc) is list  # not an inference tensor (the general path refuses it)
            and type(b._vc) is list
        ):
            return ArrayFunction.apply.__func__(cls, a, b)  # and its errors
        token = quiet()
        try:
            out = small_product(ad, bd) if ad.size * bd.shape[1] < SMALL else None
            if out is None:  # as forward computes it
                out = _dot(ad, bd)
        finally:
            loud(token)
        if not (_grad_state.enabled and (a._requires_grad or b._requires_grad or late(a, b))):
            return new_tensor(out)
        ctx = node(cls, (na := edge(a), nb := edge(b)))
        i, sa, sb = ad.itemsize, ad.strides, bd.strides  # column_major of each, inlined
        ctx.layout = (sa[0] == i and sa[1] == i * ad.shape[0], sb[0] == i and sb[1] == i * k)
        va, vb = a._vc, b._vc
        ctx._saved = (ad if nb is not None else None, bd if na is not None else None)
        ctx._saved_checks = (
            *((va, va[0], 0) if nb is not None else NOT_KEPT),
            *((vb, vb[0], 1) if na is not None else NOT_KEPT),
        )
        return new_tensor(out, ctx, True)

    @staticmethod
    def forward(ctx, a, b):
        if a.ndim != 2 or b.ndim != 2:
            raise RuntimeError(f"{'self' if a.ndim != 2 else 'mat2'} must be a matrix")
        if a.dtype != b.dtype:
            raise RuntimeError(
                "expected m1 and m2 to have the same dtype, but got: "
                f"{C_NAMES[a.dtype]} != {C_NAMES[b.dtype]}"
            )
        if a.shape[1] != b.shape[0]:
            raise RuntimeError(
                "mat1 and mat2 shapes cannot be multiplied "
                f"({dims_text(a.shape)} and {dims_text(b.shape)})"
            )
        check_not_bool(a, b, "addmm_impl_cpu_")
        ctx.save_for_backward(a, b)
        ctx.layout = (column_major(a), column_major(b))  # a is kept only if b requires grad
        if a.shape[1] == 1:
            return outer(a, b)
        out = small_product(a, b)
        if out is not None:
            return out
        return _dot(a, b) if a.dtype in BLAS_FLOATS else a @ b

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        na, nb = ctx._next
        return mm_grads(grad, a, b, na is not None, nb is not None, ctx.layout)


_grad_state = grad_mode.state


def check_not_bool(a: np.ndarray, b: np.ndarray, kernel: str) -> None:
    """PyTorch has no matrix product of bools; an empty product never reaches its kernel."""
    if a.dtype == np.bool_ and (kernel == "dot" or a.size and b.size):
        raise NotImplementedError(f"\"{kernel}\" not implemented for 'Bool'")
