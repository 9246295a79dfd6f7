"""Matrix products: mm, mv, dot, addmm (Linear's op) and batched matmul."""

from __future__ import annotations

import numpy as np

from .._quiet import loud, quiet
from ..autograd import grad_mode
from ..autograd.accumulate_grad import sum_to_shape
from ..autograd.function import ArrayFunction
from ..tensor import new_tensor
from ._common import C_NAMES, LEGACY_NAMES, broadcast_shapes, check_expand
from ._short_path import NOT_KEPT, edge, node
from .namespace import namespace

# For these, np.dot is matmul's BLAS product, bit for bit, with less set-up: 0.3 us less a
# call on small matrices (a quarter of a Linear layer's product), the same on large ones.
# Other dtypes keep matmul's own loops (tests/test_nn_fast_paths.py).
BLAS_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))


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


def mm_grads(grad, a, b, need_a: bool, need_b: bool, layout: tuple | None = None) -> tuple:
    """The gradients of ``a @ b`` (matrices), each in the layout of its input, as PyTorch.

    ``layout``: whether ``a`` and ``b`` were column-major, when they may not be saved.
    """
    a_cm, b_cm = layout if layout is not None else (column_major(a), column_major(b))
    grad_a = grad_b = None
    if type(grad) is np.ndarray:  # the ordinary backward: numpy's ``.T``, no namespace calls
        mm = np.dot if grad.dtype in BLAS_FLOATS else np.matmul
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


def _dims(shape: tuple) -> str:
    return "x".join(str(n) for n in shape)


class Mm(ArrayFunction):
    """``a @ b`` of two matrices. A layer written ``x @ W`` runs it every step, so two
    float32/float64 matrices take a short ``apply`` (``_short_path``): the general path's
    node, recorded directly."""

    node_name = "MmBackward0"
    saved_names = ("self", "mat2")
    saved_when = (1, 0)  # self is kept for mat2's gradient only, mat2 for self's

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
            and ad.shape[1] == bd.shape[0]
            and ad.shape[1] != 1  # one inner column: the exact outer product (forward)
            and type(a._vc) is list  # not an inference tensor (the general path refuses it)
            and type(b._vc) is list
        ):
            return ArrayFunction.apply.__func__(cls, a, b)  # and its errors
        token = quiet()
        try:
            out = np.dot(ad, bd)  # as forward computes it
        finally:
            loud(token)
        if not (_grad_state.enabled and (a._requires_grad or b._requires_grad)):
            return new_tensor(out)
        ctx = node(cls, (na := edge(a), nb := edge(b)))
        ctx.layout = (column_major(ad), column_major(bd))
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
                f"mat1 and mat2 shapes cannot be multiplied ({_dims(a.shape)} and {_dims(b.shape)})"
            )
        _no_bool(a, b, "addmm_impl_cpu_")
        ctx.save_for_backward(a, b)
        ctx.layout = (column_major(a), column_major(b))  # a is kept only if b requires grad
        if a.shape[1] == 1:
            return outer(a, b)
        return np.dot(a, b) if a.dtype in BLAS_FLOATS else a @ b

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        na, nb = ctx._next
        return mm_grads(grad, a, b, na is not None, nb is not None, ctx.layout)


class Addmm(ArrayFunction):
    """``bias + a @ b``: what Linear computes on a batch (``AddmmBackward0``).

    Every layer of every training step runs it, so its usual case (three tensors of
    float32 or float64, a 1-d bias) has an ``apply`` of its own: the same node, edges, saved
    values and versions as the general ``ArrayFunction.apply``, without its loops.
    """

    node_name = "AddmmBackward0"
    saved_names = ("mat1", "mat2")
    saved_when = (2, 1)  # mat1 is kept for mat2's gradient only, mat2 for mat1's

    @classmethod
    def apply(cls, bias, a, b):
        try:
            bd, ad, md = bias._data, a._data, b._data
        except AttributeError:  # a Python number or an array: the general path
            return ArrayFunction.apply.__func__(cls, bias, a, b)
        dtype = md.dtype
        if not (
            ad.ndim == 2
            and md.ndim == 2
            and bd.ndim == 1
            and ad.dtype is dtype
            and bd.dtype is dtype
            and dtype in BLAS_FLOATS
            and ad.shape[1] == md.shape[0]
            and bd.shape[0] == md.shape[1]
            and type(a._vc) is list  # not an inference tensor (the general path refuses it)
            and type(b._vc) is list
        ):
            return ArrayFunction.apply.__func__(cls, bias, a, b)  # and its errors
        token = quiet()
        try:
            out = np.dot(ad, md) if ad.shape[1] != 1 else outer(ad, md)  # as Mm.forward
            out += bd
        finally:
            loud(token)
        if not (
            _grad_state.enabled and (bias._requires_grad or a._requires_grad or b._requires_grad)
        ):
            return new_tensor(out)
        ctx = node(cls, (edge(bias), na := edge(a), nb := edge(b)))
        ctx.bias_shape = bd.shape
        ctx.layout = (column_major(ad), column_major(md))
        # mat1 is kept for mat2's gradient, mat2 for mat1's, each watched by its version
        va, vb = a._vc, b._vc
        ctx._saved = (ad if nb is not None else None, md if na is not None else None)
        ctx._saved_checks = (
            *((va, va[0], 1) if nb is not None else NOT_KEPT),
            *((vb, vb[0], 2) if na is not None else NOT_KEPT),
        )
        return new_tensor(out, ctx, True)

    @staticmethod
    def forward(ctx, bias, a, b):
        if a.ndim != 2 or b.ndim != 2:
            name, m = ("mat1", a) if a.ndim != 2 else ("mat2", b)
            raise RuntimeError(f"{name} must be a matrix, got {m.ndim}-D tensor")
        bias_dtype = getattr(bias, "dtype", b.dtype)
        if bias_dtype != b.dtype:
            raise RuntimeError(
                "self and mat2 must have the same dtype, but got "
                f"{LEGACY_NAMES[bias_dtype]} and {LEGACY_NAMES[b.dtype]}"
            )
        ctx.bias_shape = np.shape(bias)
        out = Mm.forward(ctx, a, b)
        try:
            out += bias
        except ValueError:
            check_expand(np.shape(bias), out.shape, bias_dtype)  # PyTorch's words for it
            raise
        return out

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        nexts = ctx._next
        grad_bias = None
        if nexts[0] is not None:  # the bias was broadcast over the rows: summed back
            if type(grad) is np.ndarray:
                grad_bias = _sum_rows(grad, ctx.bias_shape)
            else:
                grad_bias = namespace(grad).sum_to_shape(grad, ctx.bias_shape)
        # the layouts were taken in forward: the same arrays, the same strides
        need_a, need_b = nexts[1] is not None, nexts[2] is not None
        return (grad_bias, *mm_grads(grad, a, b, need_a, need_b, ctx.layout))


_grad_state = grad_mode.state


def _sum_rows(grad: np.ndarray, shape: tuple) -> np.ndarray:
    """``sum_to_shape(grad, shape)``; for many rows of a few columns, by einsum.

    Both add the rows one after the other (the same sums, bit for bit), but
    ``np.add.reduce`` over axis 0 pays per row: on (100, 16) einsum takes 1.6 us instead
    of 2.3, on (1000, 16) 4.3 instead of 16. With wide rows reduce is the faster one.
    """
    if grad.ndim == 2 and len(shape) == 1 and grad.shape[1] == shape[0]:
        if grad.shape[0] >= 64 and 1 < shape[0] <= 64:
            return np.einsum("ij->j", grad)
        return np.add.reduce(grad, 0)  # what sum_to_shape does here, without its tests
    return sum_to_shape(grad, shape)


class Mv(ArrayFunction):
    node_name = "MvBackward0"
    saved_names = ("self", "vec")
    saved_when = (1, 0)

    @staticmethod
    def forward(ctx, m, v):
        if m.ndim == 0:
            raise IndexError("Dimension specified as 0 but tensor has no dimensions")
        if m.ndim != 2 or v.ndim != 1:
            raise RuntimeError(f"vector + matrix @ vector expected, got 1, {m.ndim}, {v.ndim}")
        if m.ndim != 2 or v.ndim != 1 or m.shape[1] != v.shape[0]:
            raise RuntimeError(
                f"size mismatch, got input ({m.shape[0] if m.ndim else 0}), "
                f"mat ({_dims(m.shape)}), vec ({_dims(v.shape)})"
            )
        # the sizes first, then the dtypes, as PyTorch's addmv checks them
        if m.dtype != v.dtype:
            raise RuntimeError(
                "addmv input tensors must have the same dtype, but got "
                f"{LEGACY_NAMES[v.dtype]}, {LEGACY_NAMES[m.dtype]}, and {LEGACY_NAMES[v.dtype]}"
            )
        _no_bool(m, v, "addmv_impl_cpu")
        ctx.save_for_backward(m, v)
        return m @ v

    @staticmethod
    def backward(ctx, grad):
        m, v = ctx.saved_tensors
        xp = namespace(grad)
        grad_m = None if v is None else xp.reshape(grad, (-1, 1)) * v
        return grad_m, None if m is None else xp.t(m) @ grad


class Dot(ArrayFunction):
    node_name = "DotBackward0"
    saved_names = ("self", "tensor")
    saved_when = (1, 0)

    @staticmethod
    def forward(ctx, a, b):
        if a.ndim != 1 or b.ndim != 1:
            raise RuntimeError(f"1D tensors expected, but got {a.ndim}D and {b.ndim}D tensors")
        if a.dtype != b.dtype:
            raise RuntimeError(
                "dot : expected both vectors to have same dtype, but found "
                f"{LEGACY_NAMES[a.dtype]} and {LEGACY_NAMES[b.dtype]}"
            )
        if a.shape != b.shape:
            raise RuntimeError(
                f"inconsistent tensor size, expected tensor [{a.size}] and src [{b.size}] to have "
                f"the same number of elements, but got {a.size} and {b.size} elements respectively"
            )
        _no_bool(a, b, "dot")
        ctx.save_for_backward(a, b)
        return np.dot(a, b)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return None if b is None else grad * b, None if a is None else grad * a


def _no_bool(a: np.ndarray, b: np.ndarray, kernel: str) -> None:
    """PyTorch has no matrix product of bools; an empty product never reaches its kernel."""
    if a.dtype == np.bool_ and (kernel == "dot" or a.size and b.size):
        raise NotImplementedError(f"\"{kernel}\" not implemented for 'Bool'")


def check_batched(a: np.ndarray, b: np.ndarray) -> None:
    """PyTorch's errors for a batched matmul (bmm after expanding both batches; a matmul that
    folds its batch into one mm or mv is not computed here, see ``minigrad.matmul``)."""
    a2 = a if a.ndim > 1 else a[None, :]
    b2 = b if b.ndim > 1 else b[:, None]
    batch = broadcast_shapes(a2.shape[:-2], b2.shape[:-2])  # the batches first, as PyTorch
    if a2.shape[-1] != b2.shape[-2]:
        n = int(np.prod(batch))
        raise RuntimeError(
            f"Expected size for first two dimensions of batch2 tensor to be: [{n}, "
            f"{a2.shape[-1]}] but got: [{n}, {b2.shape[-2]}]."
        )
    _check_bmm_dtypes(a2, b2)


def _check_bmm_dtypes(a: np.ndarray, b: np.ndarray) -> None:
    """bmm's kernel reads both in one dtype; with nothing to compute (an empty result or an
    empty inner dim) it returns before reading, so it checks nothing (PyTorch)."""
    empty = a.shape[-1] == 0 or a.shape[-2] == 0 or b.shape[-1] == 0 or 0 in a.shape[:-2]
    if a.dtype != b.dtype and not empty:
        raise RuntimeError(
            f"expected scalar type {LEGACY_NAMES[a.dtype]} but found {LEGACY_NAMES[b.dtype]}"
        )


class Bmm(ArrayFunction):
    """``bmm``: a batch of matrix products, ``(b, n, m) @ (b, m, p)``, no broadcasting."""

    node_name = "BmmBackward0"
    saved_when = (1, 0)  # a is kept for b's gradient only, b for a's (as PyTorch)

    @staticmethod
    def forward(ctx, a, b):
        if a.ndim != 3:
            raise RuntimeError("batch1 must be a 3D tensor")
        if b.ndim != 3:
            raise RuntimeError("batch2 must be a 3D tensor")
        if a.shape[0] != b.shape[0] or a.shape[2] != b.shape[1]:
            raise RuntimeError(
                f"Expected size for first two dimensions of batch2 tensor to be: "
                f"[{a.shape[0]}, {a.shape[2]}] but got: [{b.shape[0]}, {b.shape[1]}]."
            )
        _check_bmm_dtypes(a, b)
        _no_bool(a, b, "bmm")
        ctx.save_for_backward(a, b)
        return np.matmul(a, b).astype(b.dtype, copy=False)  # mixed only when empty: b's dtype

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        xp = namespace(grad)
        # bmm again (not matmul, which would fold the batch), mat2's first, as PyTorch
        grad_b = None if a is None else Bmm.call(xp.swapaxes(a, 1, 2), grad)
        return None if b is None else Bmm.call(grad, xp.swapaxes(b, 1, 2)), grad_b
