"""Random numbers: ``manual_seed``, ``rand``, ``randn``, ``randint``, ``rand_like``, ``randn_like``.

They come from one numpy generator, which ``manual_seed`` replaces so that a
lesson gives the same numbers every run (numpy's numbers, not PyTorch's); the
initialisers of ``nn.init`` draw from it too, through ``default_generator()``.
"""

from __future__ import annotations

import numpy as np

from ._dtypes import Size, to_numpy_dtype
from ._factories import _float_dtype, _like, _size
from .creation import _finish
from .tensor import Tensor

__all__ = ["manual_seed", "rand", "randn", "randint", "rand_like", "randn_like"]

_generator = [np.random.default_rng()]


def manual_seed(seed: int) -> np.random.Generator:
    """Seed minigrad's random numbers so that a lesson gives the same numbers every run."""
    _generator[0] = np.random.default_rng(int(seed))
    return _generator[0]


def default_generator() -> np.random.Generator:
    return _generator[0]


def rand(*size, dtype=None, requires_grad: bool = False, generator=None, **_) -> Tensor:
    """Uniform on [0, 1)."""
    g = generator or _generator[0]
    array = g.random(_size(size, "rand")).astype(_float_dtype(dtype))
    return _finish(array, requires_grad, "rand")


def randn(*size, dtype=None, requires_grad: bool = False, generator=None, **_) -> Tensor:
    """Standard normal."""
    g = generator or _generator[0]
    array = g.standard_normal(_size(size, "randn")).astype(_float_dtype(dtype))
    return _finish(array, requires_grad, "randn")


def randint(
    low, high=None, size=None, dtype=None, requires_grad: bool = False, generator=None, **_
) -> Tensor:
    """Integers in [low, high); ``randint(high, size)`` starts at 0."""
    if size is None:
        if high is None or not isinstance(high, (tuple, list, Size)):
            raise TypeError("randint() missing required argument 'size'")
        low, high, size = 0, low, high
    elif high is None:
        low, high = 0, low
    if low >= high:
        raise RuntimeError(
            f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}"
        )
    g = generator or _generator[0]
    np_dtype = to_numpy_dtype(dtype) if dtype is not None else np.dtype(np.int64)
    array = g.integers(low, high, _size((size,), "randint")).astype(np_dtype)
    return _finish(array, requires_grad, "randint")


def rand_like(t: Tensor, dtype=None, requires_grad: bool = False, **_) -> Tensor:
    shape, d = _like(t, dtype)
    return _finish(_generator[0].random(shape).astype(d), requires_grad, "rand_like")


def randn_like(t: Tensor, dtype=None, requires_grad: bool = False, **_) -> Tensor:
    shape, d = _like(t, dtype)
    return _finish(_generator[0].standard_normal(shape).astype(d), requires_grad, "randn_like")
