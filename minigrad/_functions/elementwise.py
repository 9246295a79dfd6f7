"""``minigrad.floor``, ``reciprocal``, ``log1p``, ``erf``, ``le``, ... and their Tensor methods.

The rounding functions (``ops/rounding.py``), the relatives of exp and log
(``ops/exp_log.py``), ``erf``, ``erfc`` and ``erfinv`` (``ops/erf.py``) and the comparisons
as functions (``minigrad.le(x, y)``, which PyTorch has beside ``x <= y`` and ``x.le(y)``).
``METHODS`` lists the Tensor methods made from them, in-place forms included
(``x.floor_()``), and those of ``two_operand.py``; ``_tensor_methods.py`` adds it to its
table.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..ops import arithmetic as A
from ..ops import erf as ERF
from ..ops import exp_log as EL
from ..ops import hyperbolic as H
from ..ops import rounding as R
from ..ops.inplace import apply_inplace
from ..tensor import Tensor
from .comparison import _compare
from .two_operand import METHODS as _TWO_OPERAND


def floor(input: Tensor) -> Tensor:
    return R.Floor.apply(input)


def ceil(input: Tensor) -> Tensor:
    return R.Ceil.apply(input)


def trunc(input: Tensor) -> Tensor:
    return R.Trunc.apply(input)


fix = trunc


def frac(input: Tensor) -> Tensor:
    return R.Frac.apply(input)


def reciprocal(input: Tensor) -> Tensor:
    return A.Reciprocal.apply(input)


def rsqrt(input: Tensor) -> Tensor:
    return EL.Rsqrt.apply(input)


def log1p(input: Tensor) -> Tensor:
    return EL.Log1p.apply(input)


def expm1(input: Tensor) -> Tensor:
    return EL.Expm1.apply(input)


def log2(input: Tensor) -> Tensor:
    return EL.Log2.apply(input)


def log10(input: Tensor) -> Tensor:
    return EL.Log10.apply(input)


def exp2(input: Tensor) -> Tensor:
    return EL.Exp2.apply(input)


def sinh(input: Tensor) -> Tensor:
    return H.Sinh.apply(input)


def cosh(input: Tensor) -> Tensor:
    return H.Cosh.apply(input)


def erf(input: Tensor) -> Tensor:
    return ERF.Erf.apply(input)


def erfc(input: Tensor) -> Tensor:
    return ERF.Erfc.apply(input)


def erfinv(input: Tensor) -> Tensor:
    return ERF.Erfinv.apply(input)


def _comparison(ufunc, name: str):
    """``minigrad.le(input, other)``: the method ``input.le(other)``, as a function."""
    method = _compare(ufunc)

    def function(input: Tensor, other: Any) -> Tensor:
        if not isinstance(input, Tensor):
            raise TypeError(
                f"{name}() received an invalid combination of arguments - got "
                f"({type(input).__name__}, {type(other).__name__}), but expected one of:\n"
                " * (Tensor input, Tensor other, *, Tensor out = None)\n"
                " * (Tensor input, Number other, *, Tensor out = None)\n"
            )
        out = method(input, other)
        if out is NotImplemented:
            raise TypeError(
                f"{name}(): argument 'other' (position 2) must be Tensor, not "
                f"{type(other).__name__}"
            )
        return out

    function.__name__ = name
    return function


eq = _comparison(np.equal, "eq")
ne = _comparison(np.not_equal, "ne")
lt = _comparison(np.less, "lt")
le = _comparison(np.less_equal, "le")
gt = _comparison(np.greater, "gt")
ge = _comparison(np.greater_equal, "ge")
not_equal, less, less_equal, greater, greater_equal = ne, lt, le, gt, ge


def _inplace(op):
    def method(self: Tensor) -> Tensor:
        return apply_inplace(op, self)

    return method


FUNCTIONS: dict[str, Any] = {
    "floor": floor,
    "ceil": ceil,
    "trunc": trunc,
    "fix": fix,
    "frac": frac,
    "reciprocal": reciprocal,
    "rsqrt": rsqrt,
    "log1p": log1p,
    "expm1": expm1,
    "log2": log2,
    "log10": log10,
    "exp2": exp2,
    "sinh": sinh,
    "cosh": cosh,
    "erf": erf,
    "erfc": erfc,
    "erfinv": erfinv,
}

_INPLACE = {
    "floor_": R.Floor,
    "ceil_": R.Ceil,
    "trunc_": R.Trunc,
    "fix_": R.Trunc,
    "frac_": R.Frac,
    "reciprocal_": A.Reciprocal,
    "rsqrt_": EL.Rsqrt,
    "log1p_": EL.Log1p,
    "expm1_": EL.Expm1,
    "log2_": EL.Log2,
    "log10_": EL.Log10,
    "exp2_": EL.Exp2,
    "sinh_": H.Sinh,
    "cosh_": H.Cosh,
    "erf_": ERF.Erf,
    "erfc_": ERF.Erfc,
    "erfinv_": ERF.Erfinv,
}

METHODS: dict[str, Any] = {
    **FUNCTIONS,
    **_TWO_OPERAND,  # atan2, fmod, lerp, outer, ... (two_operand.py)
    **{name: _inplace(op) for name, op in _INPLACE.items()},
    "not_equal": ne,
    "less": lt,
    "less_equal": le,
    "greater": gt,
    "greater_equal": ge,
}
