"""``out=``: the functional forms write their result into a tensor the caller gives.

``torch.matmul(a, b, out=c)`` and ``torch.mul(a, b, out=c)`` are in PyTorch's first tutorial.
PyTorch's functions with ``out=`` compute the result, check that ``out`` can hold its dtype
(each family of ops has its own rule and its own words for it), resize ``out`` when its shape
differs (warning when it had elements), write, and return ``out``, whose version goes up by one.
They record no graph: with grad mode on, an argument (or ``out``) that requires grad is refused.

``install`` wraps the functions of minigrad's namespace named in ``RULES``; the others take no
``out=`` (as ``relu``, ``isnan`` in PyTorch). The Tensor methods are not wrapped: PyTorch's
methods take no ``out=`` either.
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from ._dtypes import C_NAMES, LEGACY_NAMES
from ._functions._args import _overloads
from ._typename import type_name
from .autograd import grad_mode
from .tensor import Tensor

_L, _C = LEGACY_NAMES, C_NAMES


def _can_cast(res: np.dtype, out: np.dtype) -> bool:
    """PyTorch's ``canCast``: no float into integers or bool, no number into bool."""
    return not (res.kind == "f" and out.kind in "iub") and not (res.kind != "b" and out.kind == "b")


def _equal(words: str) -> Callable:
    """A rule that wants ``out`` in the result's dtype exactly, refused in PyTorch's ``words``
    (``{res}``, ``{out}``: the legacy names, Float; ``{res_c}``, ``{out_c}``: C++'s, float)."""

    def rule(name: str, res: np.dtype, out: np.dtype) -> Exception | None:
        if res == out:
            return None
        return RuntimeError(words.format(res=_L[res], out=_L[out], res_c=_C[res], out_c=_C[out]))

    return rule


def _castable(words: str, error: type[Exception] = RuntimeError) -> Callable:
    """A rule that wants the result castable into ``out`` (``_can_cast``), in PyTorch's words."""

    def rule(name: str, res: np.dtype, out: np.dtype) -> Exception | None:
        return None if _can_cast(res, out) else error(words.format(res=_L[res], out=_L[out]))

    return rule


_CAST_WORDS = "result type {res} can't be cast to the desired output type {out}"
_cast = _castable(_CAST_WORDS)
_cast_after_resize = _castable(_CAST_WORDS)  # the same check, made by a reduction after resizing
_same = _equal("Found dtype {out} but expected {res}")
_exact = _equal("Expected out tensor to have dtype {res_c}, but got {out_c} instead")
_dot = _equal("result dtype {out} does not match input dtype {res}")
_where = _equal("Expected out type to be {res} but got {out}")
_reduced = _equal(
    "Expected the dtype for input and out to match, but got {res} for input's dtype and {out} "
    "for out's dtype."
)
_joined = _castable(
    "minigrad.cat(): input types can't be cast to the desired output type {out}", TypeError
)
# mean with no dim is another overload (mean.dtype_out), with its own words
_mean_all = _castable(
    "mean.dtype_out(): input types can't be cast to the desired output type {out}"
)


def _floating(name: str, res: np.dtype, out: np.dtype) -> Exception | None:
    if out.kind == "f":
        return None
    return RuntimeError(
        f"{name}(): Expected floating point type for result tensor, but got: {_L[out]}"
    )


def _any(name: str, res: np.dtype, out: np.dtype) -> Exception | None:
    return None


_IN_OUT_DTYPE = "the op computes in out's dtype"  # sum, prod, cumsum: ``dtype=out.dtype``

RULES: dict[str, Callable | str] = {
    **dict.fromkeys(
        "add sub mul div pow maximum minimum remainder floor_divide fmod outer exp log "
        "ger sin cos tanh sigmoid sqrt square reciprocal rsqrt log1p expm1 log2 log10 exp2 sinh "
        "cosh multiply subtract divide true_divide erf erfc erfinv atan2 "
        "arctan2".split(),
        _cast,
    ),
    **dict.fromkeys("eq ne lt le gt ge".split(), _any),
    **dict.fromkeys(
        "abs neg negative ceil floor trunc round frac sgn sign clamp clip clamp_min "
        "clamp_max".split(),
        _same,
    ),
    **dict.fromkeys(
        "matmul mm bmm mv addmm tril triu gather softmax log_softmax argmax argmin".split(), _exact
    ),
    **dict.fromkeys("cat concat stack".split(), _joined),
    **dict.fromkeys("sum prod cumsum cumprod".split(), _IN_OUT_DTYPE),
    **dict.fromkeys("amax amin".split(), _reduced),
    **dict.fromkeys("std var".split(), _cast_after_resize),
    "dot": _dot,
    "where": _where,
    "logsumexp": _floating,
    "lerp": "picked by its weight",  # _OVERLOADS
    "mean": "picked by its dim and dtype",
}


def _lerp(args: tuple, kwargs: dict) -> Callable:
    """``lerp``'s two overloads check ``out`` apart: a number weight as an elementwise op
    (``_cast``), a tensor weight wants ``out``'s dtype to be the result's (``_same``)."""
    weight = kwargs.get("weight", args[2] if len(args) > 2 else None)
    return _same if isinstance(weight, Tensor) else _cast


def _mean_all_in_dtype(name: str, res: np.dtype, out: np.dtype) -> Exception | None:
    """``mean(x, dtype=d, out=o)``: ``mean.dtype_out``'s cast check, then ``d`` exactly."""
    return _mean_all(name, res, out) or _exact(name, res, out)


def _mean(args: tuple, kwargs: dict) -> Callable:
    """With a ``dim`` (even None) ``mean`` is a reduction as ``std``, wanting ``out`` in the
    ``dtype=`` given exactly; with none it is ``mean.dtype_out``, which checks the cast first."""
    all_dims = len(args) < 2 and "dim" not in kwargs
    if kwargs.get("dtype") is not None:
        return _mean_all_in_dtype if all_dims else _exact
    return _mean_all if all_dims else _cast_after_resize


_OVERLOADS = {"lerp": _lerp, "mean": _mean}  # the ops whose rule depends on the overload called

# PyTorch names an alias's own op in its refusal (``torch.multiply`` says ``mul()``); it does not
# refuse ops with no derivative, nor softmax's, log_softmax's and floor_divide's out= (it records
# a NotImplemented node on ``out`` instead: minigrad writes ``out`` with no graph); composite ops
# make their own checks (``matmul``'s dims, ``outer``'s) before the op they call refuses.
_NAMED_AS = {
    "multiply": "mul",
    "subtract": "sub",
    "divide": "div",
    "true_divide": "div",
    "negative": "neg",
    "clip": "clamp",
    "concat": "cat",
    "arctan2": "atan2",
    "outer": "mul",
    "ger": "mul",
}
_NOT_REFUSED = set("eq ne lt le gt ge argmax argmin softmax log_softmax floor_divide".split())
_COMPOSITE = {  # the composite op's own check, before the op it calls refuses
    "matmul": lambda a, b, *_, **__: a.ndim >= 1 and b.ndim >= 1,
    "outer": lambda a, b, *_, **__: a.ndim == 1 and b.ndim == 1,
    "ger": lambda a, b, *_, **__: a.ndim == 1 and b.ndim == 1,
}

_RESIZED = (
    "An output with one or more elements was resized since it had shape {old}, which does not "
    "match the required output shape {new}. This behavior is deprecated, and in a future "
    "PyTorch release outputs will not be resized unless they have zero elements. You can "
    "explicitly reuse an out tensor t by resizing it, inplace, to zero elements with "
    "t.resize_(0)."
)


def _tensors(args: tuple, kwargs: dict):
    for a in (*args, *kwargs.values()):
        if isinstance(a, Tensor):
            yield a
        elif isinstance(a, (list, tuple)):
            yield from (t for t in a if isinstance(t, Tensor))


def _refuse_grad(name: str, args: tuple, kwargs: dict, out: Tensor) -> None:
    if name in _NOT_REFUSED or not grad_mode.state.enabled:
        return
    if out.requires_grad or any(t.requires_grad for t in _tensors(args, kwargs)):
        raise RuntimeError(
            f"{_NAMED_AS.get(name, name)}(): functions with out=... arguments don't support "
            "automatic differentiation, but one of the arguments requires grad."
        )


def _passes(check: Callable, args: tuple, kwargs: dict) -> bool:
    try:
        return bool(check(*args, **kwargs))
    except (AttributeError, TypeError):  # not tensors: the op's own error comes first
        return False


_WITHOUT_DIM = {  # their overloads with no dim take no out=
    "sum": "(Tensor input, tuple of ints dim, bool keepdim = False, *, minigrad.dtype dtype = "
    "None, Tensor out = None)",
    "prod": "(Tensor input, int dim, bool keepdim = False, *, minigrad.dtype dtype = None, "
    "Tensor out = None)",
}


def _check_dim_given(name: str, args: tuple, kwargs: dict) -> None:
    """``sum(x, out=o)``: PyTorch's parser finds no overload of ``sum`` or ``prod`` with an
    ``out`` and no ``dim``, and says so (a TypeError, before anything else)."""
    if len(args) != 1 or "dim" in kwargs:
        return
    if kwargs:
        raise TypeError(f'{name}() missing 1 required positional arguments: "dim"')
    got = f"{type_name(args[0])}, out=Tensor"
    raise _overloads(
        name, got, ("(Tensor input, *, minigrad.dtype dtype = None)", _WITHOUT_DIM[name])
    )


def _in_out_dtype(name: str, kwargs: dict, out: Tensor) -> dict:
    """``sum``, ``prod``, ``cumsum``, ``cumprod`` compute in ``out``'s dtype, which must be
    the ``dtype=`` given, if one is."""
    dtype = kwargs.get("dtype")
    if dtype is None:
        return {**kwargs, "dtype": out.dtype}
    given = getattr(dtype, "numpy", None)  # not a dtype: the op's own error
    if given is not None and (error := _exact(name, np.dtype(given), out._data.dtype)):
        raise error
    return kwargs


def with_out(fn: Callable, name: str, rule: Callable | str) -> Callable:
    """``fn`` taking ``out=`` as PyTorch's function of that name does."""

    @functools.wraps(fn)
    def function(*args: Any, out: Tensor | None = None, **kwargs: Any) -> Any:
        if out is None:
            return fn(*args, **kwargs)
        if not isinstance(out, Tensor):
            raise TypeError(f"{name}(): argument 'out' must be Tensor, not {type(out).__name__}")
        if name in _WITHOUT_DIM:
            _check_dim_given(name, args, kwargs)
        check = _COMPOSITE.get(name)
        refused_first = check is None or _passes(check, args, kwargs)
        if refused_first:
            _refuse_grad(name, args, kwargs, out)
        if rule is _IN_OUT_DTYPE:
            kwargs = _in_out_dtype(name, kwargs, out)
        with grad_mode.no_grad():  # (a composite op's own check raises here)
            result = fn(*args, **kwargs)
        if not refused_first:
            _refuse_grad(name, args, kwargs, out)
        check = _OVERLOADS[name](args, kwargs) if name in _OVERLOADS else rule
        error = None if check is _IN_OUT_DTYPE else check(name, result._data.dtype, out._data.dtype)
        if error and check is not _cast_after_resize:
            raise error
        with grad_mode.no_grad():
            if out._data.shape != result._data.shape:
                if out._data.size:
                    message = _RESIZED.format(
                        old=list(out._data.shape), new=list(result._data.shape)
                    )
                    # an elementwise op writing another dtype resizes twice in PyTorch (its
                    # result, then the cast copy), and says so twice
                    cast = check is _cast and result._data.dtype != out._data.dtype
                    for _ in range(2 if cast else 1):
                        warnings.warn(message, UserWarning, stacklevel=2)
                out._data = np.empty(result._data.shape, out._data.dtype)
            if error:
                raise error
            out.copy_(result)
        return out

    return function


def install(namespace: dict) -> None:
    """Give the functions of ``namespace`` named in ``RULES`` their ``out=``."""
    for name, rule in RULES.items():
        if name in namespace:
            namespace[name] = with_out(namespace[name], name, rule)
