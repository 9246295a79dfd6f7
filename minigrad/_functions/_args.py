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
from ..tensor import Tensor, new_tensor


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
