"""``addmm``, ``bias + a @ b``: Linear's op, one ``AddmmBackward0`` per layer of a batch.

``F.linear`` records it with ``weight.t()``'s ``TBackward0`` (``Addmm.of_weight``): every layer
of every training step runs it, forward and backward, so both have a short path for arrays of
float32 and float64. The matrix product itself is ``mm``'s (``linalg.py``).
"""

from __future__ import annotations

import numpy as np

from .._quiet import loud, quiet
from ..autograd import anomaly_mode, grad_mode
from ..autograd.accumulate_grad import sum_to_shape
from ..autograd.anomaly_mode import remember_forward
from ..autograd.function import ArrayFunction
from ..autograd.node import sequence
from ..tensor import new_tensor
from ._common import LEGACY_NAMES, check_expand
from ._short_path import NOT_KEPT, edge, late
from .linalg import BLAS_FLOATS, SMALL, Mm, _dot, mm_grads, outer, small_product
from .namespace import namespace
from .shape import T

try:  # np.einsum's C function, without the Python wrapper's argument parsing (1 us a call)
    from numpy._core.multiarray import c_einsum as _einsum
except ImportError:  # pragma: no cover - a numpy that moved it
    _einsum = np.einsum


class Addmm(ArrayFunction):
    """``bias + a @ b``: what Linear computes on a batch (``AddmmBackward0``).

    Every layer of every training step runs it, so its usual case (three tensors of
    float32 or float64, a 1-d bias) has an ``apply`` of its own: the same node, edges, saved
    values and versions as the general ``ArrayFunction.apply``, without its loops.
    """

    node_name = "AddmmBackward0"
    saved_names = ("mat1", "mat2")
    saved_when = (2, 1)  # mat1 is kept for mat2's gradient only, mat2 for mat1's
    exact_grads = True

    @classmethod
    def apply(cls, bias, a, b):
        return cls.of_weight(bias, a, b, False)

    @classmethod
    def of_weight(cls, bias, a, b, transposed: bool = True):
        """``F.linear`` of a batch, ``addmm(bias, a, weight.t())`` (``b`` is the weight), with
        ``weight.t()``'s ``TBackward0`` recorded here: the view itself is never seen (the node
        keeps its array and the weight's version counter), so no Tensor is made for it. None
        if the weight is not a matrix (F.linear's general path then says what is wrong).

        ``transposed=False`` is ``addmm(bias, a, b)`` itself (``apply``): both take the short
        path when they can, the general one (and its errors) otherwise.
        """
        md = getattr(b, "_data", None)
        if md is None:  # a Python number or an array: the general path
            return ArrayFunction.apply.__func__(cls, bias, a, b) if not transposed else None
        if transposed:
            if md.ndim != 2:
                return None
            md = md.T
        try:
            bd, ad = bias._data, a._data
        except AttributeError:  # a Python number or an array: the general path
            bd = ad = None
        dtype = md.dtype
        if not (
            ad is not None
            and ad.ndim == 2
            and md.ndim == 2
            and bd.ndim == 1
            and ad.dtype is dtype
            and bd.dtype is dtype
            and dtype in BLAS_FLOATS
            and (k := ad.shape[1]) == md.shape[0]
            and bd.shape[0] == md.shape[1]
            and type(a._vc) is list  # not an inference tensor (the general path refuses it)
            and type(b._vc) is list
        ):
            mat2 = T.apply(b) if transposed else b
            return ArrayFunction.apply.__func__(cls, bias, a, mat2)  # and its errors
        token = quiet()
        try:
            out = small_product(ad, md, bd) if ad.size * md.shape[1] < SMALL else None
            if out is None:  # as forward computes it
                out = _dot(ad, md) if k != 1 else ad * md  # the bias, plus each product
                out += bd
        finally:
            loud(token)
        if not (
            _grad_state.enabled
            and (bias._requires_grad or a._requires_grad or b._requires_grad or late(bias, a, b))
        ):
            return new_tensor(out)
        # edge() and node() written out for a layer (five calls less): a weight and a bias
        # that are leaves with their AccumulateGrad already, an input that is no view
        if not transposed:
            nb = edge(b)
        elif b._requires_grad:  # the node t() records, first, as when the view is made
            nw = b._accumulator
            if nw is None or b._base is not None or b._grad_fn is not None:
                nw = edge(b)
            nb = _T_NODE()
            nb._next, nb._seq = (nw,), next(sequence)
            if _anomaly.enabled:
                remember_forward(nb)
        else:
            nb = None
        ne = bias._accumulator
        if ne is None or bias._grad_fn is not None or bias._base is not None:
            ne = edge(bias)
        elif not bias._requires_grad:  # requires_grad_(False) since its first use
            ne = None
        na = a._grad_fn
        if na is None or not a._requires_grad or a._base is not None:
            na = edge(a)
        ctx = cls._Node()
        ctx._next, ctx._seq = (ne, na, nb), next(sequence)
        if _anomaly.enabled:
            remember_forward(ctx)
        ctx.bias_shape = bd.shape
        i, sa, sm = ad.itemsize, ad.strides, md.strides  # column_major of each, inlined
        ctx.layout = (sa[0] == i and sa[1] == i * ad.shape[0], sm[0] == i and sm[1] == i * k)
        if transposed and nb is not None and ctx.layout[1]:
            ctx._past_t = nb  # backward hands it X.T (a new X): plain_walk runs it in place
        # mat1 is kept for mat2's gradient, mat2 for mat1's, each watched by its version
        va, vb = a._vc, b._vc
        ctx._saved = (ad if nb is not None else None, md if na is not None else None)
        if na is not None and nb is not None:  # a hidden layer's
            ctx._saved_checks = (va, va[0], 1, vb, vb[0], 2)
        else:
            ctx._saved_checks = (
                *((va, va[0], 1) if nb is not None else NOT_KEPT),
                *((vb, vb[0], 2) if na is not None else NOT_KEPT),
            )
        return new_tensor(out, ctx, True)

    @staticmethod
    def forward(ctx, bias, a, b):
        # PyTorch's order: the dtypes (self against mat2, then mat1), then the dimensions
        bias_dtype = getattr(bias, "dtype", b.dtype)
        for name, dtype in (("self", bias_dtype), ("mat1", a.dtype)):
            if dtype != b.dtype:
                raise RuntimeError(
                    f"{name} and mat2 must have the same dtype, but got "
                    f"{LEGACY_NAMES[dtype]} and {LEGACY_NAMES[b.dtype]}"
                )
        if a.ndim != 2 or b.ndim != 2:
            name, m = ("mat1", a) if a.ndim != 2 else ("mat2", b)
            raise RuntimeError(f"{name} must be a matrix, got {m.ndim}-D tensor")
        ctx.bias_shape = np.shape(bias)
        out = Mm.forward(ctx, a, b)
        try:
            out += bias
        except ValueError:
            check_expand(np.shape(bias), out.shape, bias_dtype)  # PyTorch's words for it
            raise
        exact = small_product(a, b, bias)  # the bias first, then the products
        if exact is None and a.shape[1] == 1:
            exact = np.add(a * b, bias, order="C")  # one product: -0. stays -0.
        return out if exact is None else exact

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        bias, mat1, mat2 = ctx._next
        if type(grad) is not np.ndarray:  # under create_graph: Tensors, recorded
            xp = namespace(grad)
            grad_bias = None if bias is None else xp.sum_to_shape(grad, ctx.bias_shape)
            return grad_bias, *mm_grads(grad, a, b, mat1 is not None, mat2 is not None, ctx.layout)
        # every layer of every training step: mm_grads's arrays and the bias's sum written out
        n, m = grad.shape
        grad_bias = grad_a = grad_b = None
        if bias is not None:  # the bias was broadcast over the rows: summed back
            shape = ctx.bias_shape
            if shape != (m,):
                grad_bias = sum_to_shape(grad, shape)
            elif n >= 64 and 1 < m <= 64:
                # Both add the rows one after the other (sum_to_shape's sums, bit for bit), but
                # reduce over axis 0 pays per row: on (100, 16) einsum takes 1.6 us instead of
                # 2.3, on (1000, 16) 4.3 instead of 16. With wide rows reduce is the faster.
                grad_bias = _einsum("ij->j", grad)
            else:
                grad_bias = np.add.reduce(grad, 0)  # what sum_to_shape does, without its tests
        mm = _dot if grad.dtype in BLAS_FLOATS else np.matmul
        a_cm, b_cm = ctx.layout  # taken in forward: the same arrays, the same strides
        if mat1 is not None:
            if m == 1:  # a layer of one output: an outer product
                grad_a = outer(b, grad.T).T if a_cm else outer(grad, b.T)
            else:
                grad_a = mm(b, grad.T).T if a_cm else mm(grad, b.T)
        if mat2 is not None:
            if n == 1:  # a batch of one
                grad_b = outer(grad.T, a).T if b_cm else outer(a.T, grad)
            else:
                grad_b = mm(grad.T, a).T if b_cm else mm(a.T, grad)
        return grad_bias, grad_a, grad_b


_grad_state = grad_mode.state
_T_NODE = T._Node
_anomaly = anomaly_mode.state
