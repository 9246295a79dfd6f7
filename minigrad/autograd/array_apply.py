"""How a built-in op (an ``ArrayFunction``) runs and records itself: its ``apply`` paths.

``ArrayFunction.apply`` is the hot path of the whole engine: every operation a
learner writes goes through it, so it is written for speed rather than brevity.
``_apply_arrays`` is the general path; ops of one tensor and broadcasting ops of
two inputs get their own short paths (``_apply_unary``, ``_apply_binary``), which
``ArrayFunction.__init_subclass__`` (``function.py``) installs. ``_array_node_run``
is the other half: what the engine calls to run such an op's backward.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._dtypes import get_default_dtype, promote_pair, promote_zero_dim
from .._quiet import loud, quiet
from .._shapes import broadcast_shapes
from ..ops._output_layout import elementwise_layout, iterator_layout
from ..ops.number_range import check_scalar_int, wrap_int
from ..tensor import Tensor, follows_base, new_tensor
from . import anomaly_mode, grad_mode
from .accumulate_grad import AccumulateGrad, accumulator_of, sum_to_shape
from .forward_results import _as_array, _keep_default_float, _relaid
from .inference_saved import refuse_saved_inference
from .node import sequence
from .saved_values import _FREED, _SECOND_BACKWARD, BackwardNode, WithCasts, with_casts
from .views import view_history
from .zero_grads import _ZEROS, is_efficient_zeros, kept_zeros

_grad_state = grad_mode.state
_anomaly = anomaly_mode.state
_F64 = np.dtype(np.float64)
_ndarray = np.ndarray
_NUMBERS = frozenset((float, int, bool))


def gather_inputs(inputs: tuple) -> tuple[list, list, bool]:
    """Each input's array (or number), where its gradient goes (None for a number or a tensor
    that needs none; used only if the graph is recorded), and whether any input requires grad."""
    values = []
    nexts = []
    requires = False
    for x in inputs:
        if isinstance(x, Tensor):
            values.append(x._data)
            if x._requires_grad:
                requires = True
                fn = x._grad_fn if x._base is None else view_history(x)
                nexts.append(fn if fn is not None else x._accumulator or accumulator_of(x))
                continue
            if x._base is not None and x._base._requires_grad:  # follows_base: no edge of its
                requires = True  # own, unless its base changed in place since
                nexts.append(view_history(x))
                continue
        else:
            values.append(x)
        nexts.append(None)
    return values, nexts, requires


def _apply_arrays(cls, *args: Any) -> Tensor:
    """``ArrayFunction.apply``, the general path: any number of inputs and settings."""
    n_params = cls.n_params
    inputs = args[: len(args) - n_params] if n_params else args
    values, nexts, requires = gather_inputs(inputs)
    if cls.promotes:
        values[0], values[1] = promote_pair(values[0], values[1])
    ctx = cls._Node()
    token = quiet()  # no numpy warnings for inf and nan (minigrad/_quiet.py)
    try:
        if n_params:
            out = cls.forward(ctx, *values, *args[len(inputs) :])
        else:
            out = cls.forward(ctx, *values)
        if type(out) is not _ndarray:
            out = _as_array(ctx, out)
        if out.dtype is _F64 and cls.default_float:
            out = _keep_default_float(out, inputs)
    except Exception:
        if requires and _grad_state.enabled:  # PyTorch saved the inputs first
            refuse_saved_inference(cls, inputs, nexts)
        raise
    finally:
        loud(token)
    requires = requires and _grad_state.enabled
    result = new_tensor(out, ctx if requires else None, requires)
    if cls.is_view:
        base = args[0]
        result._vc = base._vc
        result._base = base if base._base is None else base._base
        result._view_version = base._vc[0]
        result._no_grad_view = not _grad_state.enabled or (
            base._base is not None and base._no_grad_view
        )
    if requires:
        ctx._next = tuple(nexts)
        ctx._seq = next(sequence)
        if _anomaly.enabled:
            anomaly_mode.remember_forward(ctx)
        if ctx._saved is not None:
            ctx._record_versions(inputs, values, result)
        if cls.broadcasts:
            ctx._shapes = tuple([v.shape if type(v) is _ndarray else None for v in values])
        if cls.promotes or cls.broadcasts:  # an input of another float dtype than the result
            casts = [_cast_to(x, out.dtype) for x in inputs]
            if any(casts):
                ctx._shapes = with_casts(ctx._shapes or (None,) * len(casts), casts)
    return result


def _cast_to(x: Any, dtype: np.dtype) -> np.dtype | None:
    """The dtype ``x``'s gradient is cast to: its own, if it requires grad and differs."""
    if isinstance(x, Tensor) and x._data.dtype != dtype and x._data.dtype.kind == "f":
        return x._data.dtype if x._requires_grad or follows_base(x) else None
    return None


def _apply_unary(cls, a: Tensor, *params: Any) -> Tensor:
    """``apply`` for ops of one tensor (exp, sum, mean, views such as t() ...)."""
    ctx = cls._Node()
    try:
        data = a._data
    except AttributeError:
        raise TypeError(
            f"{cls.__name__.lower()}(): argument 'input' (position 1) must be "
            f"Tensor, not {type(a).__name__}"
        ) from None
    if cls.is_view:  # a view computes nothing: numpy has nothing to warn about
        out = cls.forward(ctx, data, *params)
        if type(out) is not _ndarray:  # x[0] of a vector: numpy gives a scalar
            out = _as_array(ctx, out)
    else:
        token = quiet()
        try:
            out = cls.forward(ctx, data, *params)
            if type(out) is not _ndarray:
                out = _as_array(ctx, out)
            if out.dtype is _F64 and data.dtype is not _F64 and cls.default_float:
                out = out.astype(get_default_dtype().numpy)
            # numpy's layout for x.expand(), or a kernel's C order for x.t() (``elementwise``)
            if out.ndim > 1 and (
                not out.flags.c_contiguous or (cls.elementwise and not data.flags.c_contiguous)
            ):
                out = _relaid(ctx, out, elementwise_layout(out, data))
        finally:
            loud(token)
    requires = (a._requires_grad or follows_base(a)) and _grad_state.enabled
    result = new_tensor(out, ctx if requires else None, requires)
    if cls.is_view:  # same memory as ``a``: same version counter
        result._vc = a._vc
        result._base = a if a._base is None else a._base
        result._view_version = a._vc[0]
        result._no_grad_view = not _grad_state.enabled or (a._base is not None and a._no_grad_view)
    if not requires:
        return result
    fn = a._grad_fn if a._base is None else view_history(a)
    if fn is None:
        fn = a._accumulator or (accumulator_of(a) if a._requires_grad else None)
    ctx._next = (fn,)
    ctx._seq = next(sequence)
    if _anomaly.enabled:
        anomaly_mode.remember_forward(ctx)
    saved = ctx._saved
    if saved is not None:
        if len(saved) == 1 and saved[0] is out and out is not data:  # the result (relu, exp)
            vc = result._vc
            ctx._saved_checks = (vc, vc[0], -1)
        else:
            ctx._record_versions((a,), (data,), result)
    return result


def _apply_binary(cls, a: Any, b: Any) -> Tensor:
    """``apply`` for broadcasting ops of two inputs (+ - * / ...), either may be a number."""
    ctx = cls._Node()
    if isinstance(a, Tensor):
        ad, ar = a._data, a._requires_grad
        if not ar and a._base is not None:  # follows_base, inlined
            ar = a._base._requires_grad
    else:
        ad, ar = a, False
        if type(a) is int and isinstance(b, Tensor):
            if b._data.dtype.kind in "iub":
                ad = wrap_int(a, b._data.dtype, cls.true_division)  # -2 + uint8: wraps
            elif not -(2**63) <= a < 2**64:
                check_scalar_int(a)  # 2**64 * float_tensor: refused, as PyTorch
    if isinstance(b, Tensor):
        bd, br = b._data, b._requires_grad
        if not br and b._base is not None:
            br = b._base._requires_grad
    else:
        bd, br = b, False
        if type(b) is int and type(ad) is _ndarray:
            if ad.dtype.kind in "iub":
                bd = wrap_int(b, ad.dtype, cls.true_division)  # uint8 + -2: wraps, as PyTorch
            elif not -(2**63) <= b < 2**64:
                check_scalar_int(b)  # float_tensor * 2**64: refused, as PyTorch
    mixed = None
    if type(ad) is _ndarray and type(bd) is _ndarray and ad.dtype is not bd.dtype:
        mixed = (ad.dtype, bd.dtype)  # their gradients may need a cast (WithCasts)
        if (ad.ndim == 0) is not (bd.ndim == 0):  # promote_pair, inlined: the hot path
            ad, bd = promote_zero_dim(ad, bd)
        elif cls.float_operands and (ad.dtype.kind == "f") is not (bd.dtype.kind == "f"):
            ad, bd = _float_pair(ad, bd)
    token = quiet()
    try:
        out = cls.forward(ctx, ad, bd)
        if type(out) is not _ndarray:
            out = _as_array(ctx, out)
        if out.dtype is _F64:  # (a saved result is the cast one: its version is watched)
            out = _relaid(ctx, out, _keep_default_float(out, (a, b)))
        if out.ndim > 1 and ad is not bd and type(bd) is _ndarray and type(ad) is _ndarray:
            if not (ad.flags.c_contiguous and bd.flags.c_contiguous):  # layouts may disagree
                out = _relaid(ctx, out, iterator_layout(out, (ad, bd)))
    except ValueError:
        if (ar or br) and _grad_state.enabled:  # PyTorch saved the inputs first
            refuse_saved_inference(cls, (a, b), (ar or None, br or None))
        broadcast_shapes(np.shape(ad), np.shape(bd))  # PyTorch's error if they do not broadcast
        raise  # they do: another problem, reported as numpy said it
    finally:
        loud(token)
    if not ((ar or br) and _grad_state.enabled):
        return new_tensor(out)
    result = new_tensor(out, ctx, True)
    if ar:
        fn = a._grad_fn if a._base is None else view_history(a)
        fa = fn if fn is not None else a._accumulator or _leaf_edge(a)
    else:
        fa = None
    if br:
        fn = b._grad_fn if b._base is None else view_history(b)
        fb = fn if fn is not None else b._accumulator or _leaf_edge(b)
    else:
        fb = None
    ctx._next = (fa, fb)
    ctx._seq = next(sequence)
    if _anomaly.enabled:
        anomaly_mode.remember_forward(ctx)
    saved = ctx._saved
    if saved is not None:
        va = a._vc if ar else None
        vb = b._vc if br else None
        if (  # both inputs saved as they came (x * y): _record_versions' answer, directly
            type(va) is list
            and type(vb) is list
            and len(saved) == 2
            and saved[0] is ad
            and saved[1] is bd
            and out is not ad
            and out is not bd
        ):
            ctx._saved_checks = (va, va[0], 0, vb, vb[0], 1)
        else:
            ctx._record_versions((a, b), (ad, bd), result)
    if mixed is not None:
        casts = [
            d if r and d != out.dtype and d.kind == "f" else None for d, r in zip(mixed, (ar, br))
        ]
        if any(casts):
            ctx._shapes = with_casts((ad.shape if ar else None, bd.shape if br else None), casts)
            return result
    if ar and br and ad.shape == bd.shape:  # the same shape: nothing was broadcast
        return result
    if type(bd) in _NUMBERS or type(ad) in _NUMBERS:  # x * 2.0: the tensor's shape
        return result
    shape = out.shape
    sa = ad.shape if ar and ad.shape != shape else None
    sb = bd.shape if br and bd.shape != shape else None
    if sa is not None or sb is not None:
        ctx._shapes = (sa, sb)
    return result


def _float_pair(a: np.ndarray, b: np.ndarray) -> tuple:
    """A float and an integer (or bool) array of the same rank: both in the float's dtype,
    as PyTorch computes them (numpy would compute float32 with int64 in float64)."""
    if a.dtype.kind == "f":
        return a, b.astype(a.dtype)
    return a.astype(b.dtype), b


def _leaf_edge(x: Tensor):
    """A leaf's AccumulateGrad; None for a view that requires grad only through its base.

    ``accumulator_of``, inlined: a new leaf (``mean(x*x)`` of a fresh ``x``) pays one call
    less."""
    if not x._requires_grad:
        return None
    acc = x._accumulator
    if acc is None:
        acc = x._accumulator = AccumulateGrad(x)
    return acc


def _array_node_run(self: BackwardNode, grad: np.ndarray) -> tuple:
    """Run an ArrayFunction's backward and sum gradients back to broadcast inputs."""
    __tracebackhide__ = True  # IPython leaves this frame out of a learner's traceback
    if self._saved is _FREED and _kept_any(self):  # also what a formula reads from ctx is gone
        raise RuntimeError(_SECOND_BACKWARD)
    grads = self._backward(self, grad)
    if type(grads) is not tuple:
        grads = (grads,)
    if _ZEROS and self._keeps_zeros and is_efficient_zeros(grad):  # PyTorch's zeros * x
        grads = kept_zeros(grads, self._keeps_zeros)
    shapes = self._shapes
    if type(shapes) is tuple and len(grads) == 2 and len(shapes) == 2:
        # a binary op's two gradients (``x @ W + b``'s bias, summed over the batch): no loop
        ga, gb = grads
        sa, sb = shapes
        if ga is not None and sa is not None and ga.shape != sa:
            ga = sum_to_shape(ga, sa)
        if gb is not None and sb is not None and gb.shape != sb:
            gb = sum_to_shape(gb, sb)
        return ga, gb
    if shapes is not None:
        grads = tuple(
            [
                g if g is None or s is None or g.shape == s else sum_to_shape(g, s)
                for g, s in zip(grads, shapes)
            ]
        )
        if type(shapes) is WithCasts:
            grads = tuple(
                [g if d is None or g is None else g.astype(d) for g, d in zip(grads, shapes.dtypes)]
            )
    return grads


def _kept_any(node: BackwardNode) -> bool:
    """Whether forward kept a value (PyTorch raises on a second backward exactly then);
    a version of -1 marks one not kept (``saved_when``)."""
    return any([version != -1 for version in node._saved_checks[1::3]])


class _Discard:
    """The ``ctx`` of an op run by ``call`` on arrays: nothing is recorded.

    One instance serves every call (the fast path makes no object): a forward may set
    settings on it (``ctx.axis``); nothing reads them back.
    """

    def save_for_backward(self, *values: Any) -> None:
        pass


_DISCARD = _Discard()
