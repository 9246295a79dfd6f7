"""``clamp``'s bounds as PyTorch reads them: both Tensors, or both numbers, never one of each.

PyTorch's ``clamp`` has two overloads, ``(Tensor min, Tensor max)`` and ``(Number min, Number
max)``; ``clamp(x, min=lo_tensor, max=1.0)`` fits neither and is refused with its "invalid
combination of arguments" error, which names the arguments as they were given (positional or
keyword), so ``clamp``, ``clip`` and their method and in-place forms take ``*args, **kwargs``.
"""

from __future__ import annotations

from typing import Any

from .._typename import type_name
from ..tensor import Tensor

_FUNCTION = (
    "(Tensor input, Tensor min = None, Tensor max = None, *, Tensor out = None)",
    "(Tensor input, Number min = None, Number max = None, *, Tensor out = None)",
)
_METHOD = ("(Tensor min = None, Tensor max = None)", "(Number min = None, Number max = None)")


def clamp_bounds(name: str, given: tuple, named: dict[str, Any], method: bool) -> tuple:
    """``(min, max)`` from the positional arguments ``given`` (the input first, unless a
    method) and the keywords ``named``; PyTorch's error for one Tensor bound and one number."""
    skip = 0 if method else 1
    bounds = list(given[skip:])
    if len(bounds) > 2 or any(k not in ("min", "max") for k in named):
        raise TypeError(f"{name}() takes at most 2 bounds, min and max")
    n_given = len(bounds)
    bounds += [None] * (2 - n_given)
    for k, key in enumerate(("min", "max")):
        if key in named:
            if k < n_given:
                raise TypeError(f"{name}() got multiple values for argument '{key}'")
            bounds[k] = named[key]
    if len({isinstance(b, Tensor) for b in bounds if b is not None}) < 2:
        return bounds[0], bounds[1]
    positional = [type_name(a) for a in given]
    keywords = [f"{k}={type_name(v)}" for k, v in reversed(named.items())]  # PyTorch's order
    got = ", ".join(positional + keywords) if positional else "".join(f"{k}, " for k in keywords)
    lines = _FUNCTION
    if method:
        if named:
            why = "some of the keywords were incorrect: " + ", ".join(reversed(named))
        else:
            marked = ", ".join(f"!{t}!" for t in positional)
            why = f"some of the arguments have invalid types: ({marked})"
        lines = tuple(f"{s}\n      didn't match because {why}" for s in _METHOD)
    listed = "".join(f" * {s}\n" for s in lines)
    raise TypeError(
        f"{name}() received an invalid combination of arguments - got ({got}), but expected "
        f"one of:\n{listed}"
    )
