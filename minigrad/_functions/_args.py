"""How the functional forms read their arguments, shared by all of them.

``_operand`` accepts what PyTorch accepts beside a tensor (Python and numpy
numbers, numpy arrays) and refuses the rest with None, so that an operator can
return NotImplemented; ``_shape_args`` lets ``view(2, 3)`` and ``view((2, 3))``
mean the same shape.
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from .._dtypes import Size
from .._typename import type_name
from ..tensor import Tensor, new_tensor

# What a ``dim`` argument may be: one dim, several, or None for all of them.
Dims = int | tuple[int, ...] | list[int] | None


def _operand(x: Any) -> Any:
    """A Tensor or a Python number; numpy scalars become numbers, others are refused."""
    if isinstance(x, (Tensor, int, float)):
        return x
    if isinstance(x, (np.generic, numbers.Number)) and not isinstance(x, complex):
        return x.item() if isinstance(x, np.generic) else x
    if isinstance(x, np.ndarray):
        return new_tensor(x)
    return None


def _shape_args(args: tuple) -> tuple:
    if len(args) == 1 and isinstance(args[0], (tuple, list, Size)):
        return tuple(args[0])
    return args


def _is_int(x: Any) -> bool:
    return (
        isinstance(x, (int, np.integer))
        and not isinstance(x, (bool, np.bool_))
        or (isinstance(x, Tensor) and x._data.ndim == 0 and x._data.dtype.kind in "iu")
    )


def _check_ints(name: str, arg: str, values: Any) -> None:
    """PyTorch's error for a tuple of ints with something else inside (``view(2, 2.0)``)."""
    for i, v in enumerate(values):
        if type(v) is not int and not _is_int(v):
            raise TypeError(
                f"{name}(): argument '{arg}' failed to unpack the object at pos {i + 1} with "
                f'error "type must be tuple of ints,but got {type_name(v)}"'
            )


def _overloads(name: str, got: str, signatures: tuple[str, ...]) -> TypeError:
    """PyTorch's "received an invalid combination of arguments" error."""
    lines = "".join(f" * {s}\n" for s in signatures)
    return TypeError(
        f"{name}() received an invalid combination of arguments - got ({got}), but expected "
        f"one of:\n{lines}"
    )


def _dims_arg(name: str, dim: Any) -> Any:
    """Check the ``dim=`` of a reduction: an int, a tuple/list of ints, or None."""
    if dim is None or type(dim) is int:
        return dim
    if isinstance(dim, (tuple, list, Size)):
        _check_ints(name, "dim", dim)
        return dim
    if _is_int(dim):
        return int(dim)
    raise _overloads(
        name,
        f"dim={type_name(dim)}, ",
        (
            "(*, minigrad.dtype dtype = None)",
            "(tuple of ints dim, bool keepdim = False, *, minigrad.dtype dtype = None)",
        ),
    )


def int_list(name: str, arg: str, value: Any, position: int | None) -> tuple[int, ...]:
    """An ``int[]`` argument as PyTorch reads it: an int, or a tuple/list of ints."""
    where = f"argument '{arg}'" + ("" if position is None else f" (position {position})")
    if _is_int(value):
        return (int(value),)
    if not isinstance(value, (tuple, list)):
        raise TypeError(f"{name}(): {where} must be tuple of ints, not {type_name(value)}")
    for i, v in enumerate(value):
        if not _is_int(v):
            raise TypeError(
                f"{name}(): {where} must be tuple of ints, but found element of type "
                f"{type_name(v)} at pos {i}"
            )
    return tuple(int(v) for v in value)
