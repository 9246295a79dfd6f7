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
    """PyTorch's error for a tuple of ints with something else inside (``view(2, 2.0)``).
    This is its unpacking of each element, which reads a bool after the first as an int
    (``view(4, True)`` is ``view(4, 1)``); the first is checked before, by ``int_list``'s rule."""
    for i, v in enumerate(values):
        if type(v) is not int and not _is_int(v) and not (i and isinstance(v, bool)):
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


def int_list(
    name: str, arg: str, value: Any, position: int | None, single: bool = True
) -> tuple[int, ...]:
    """An ``int[]`` argument as PyTorch's parser reads it: a tuple/list whose first element
    must be an int (else "found element ... at pos 0"), the others being unpacked afterwards
    (``_check_ints``); a lone int too where the signature allows one (``single``)."""
    where = f"argument '{arg}'" + ("" if position is None else f" (position {position})")
    if single and _is_int(value):
        return (int(value),)
    if not isinstance(value, (tuple, list)):
        raise TypeError(f"{name}(): {where} must be tuple of ints, not {type_name(value)}")
    if value and not _is_int(value[0]):
        raise TypeError(
            f"{name}(): {where} must be tuple of ints, but found element of type "
            f"{type_name(value[0])} at pos 0"
        )
    _check_ints(name, arg, value)
    return tuple(int(v) for v in value)
