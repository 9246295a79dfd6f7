"""Random input tensors, written as code both engines run from the same numpy values.

An input is ``T.tensor(np.array([...], dtype='float32').reshape(shape))``, sometimes seen
through a view (transpose, permute, a strided slice, expand) so that it is not contiguous,
then ``.requires_grad_()`` when it takes part in autograd (a leaf, even through a view, as in
PyTorch). Values are small numbers with a few exactly representable decimals, and now and then
the special ones: 0, -0.0, nan, +-inf, huge and tiny (float32 subnormal) numbers.
"""

from __future__ import annotations

import random

import numpy as np

DTYPES = ("float32", "float64", "int64", "int32", "bool")
_DTYPE_WEIGHTS = (60, 12, 12, 6, 10)
_SPECIAL_FLOATS = (0.0, -0.0, np.nan, np.inf, -np.inf, 1e30, -1e30, 1e-30, 1e-40, 3e38, 1e5)
_SPECIAL_INTS = (0, -1, 1, 100, -100)


def random_dtype(rng: random.Random, kind: str = "any") -> str:
    if kind == "float":
        return rng.choices(("float32", "float64"), (80, 20))[0]
    if kind == "num":
        return rng.choices(DTYPES[:4], _DTYPE_WEIGHTS[:4])[0]
    if kind == "int":
        return rng.choice(("int64", "int32"))
    if kind == "bool":
        return "bool"
    return rng.choices(DTYPES, _DTYPE_WEIGHTS)[0]


def random_shape(rng: random.Random) -> tuple:
    ndim = rng.choices((0, 1, 2, 3, 4), (12, 30, 33, 17, 8))[0]
    return tuple(rng.choices((0, 1, 2, 3, 4), (3, 20, 35, 30, 12), k=ndim))


def random_values(rng: random.Random, n: int, dtype: str, special: bool) -> list:
    if dtype == "bool":
        return [rng.random() < 0.5 for _ in range(n)]
    if dtype.startswith("int"):
        return [
            rng.choice(_SPECIAL_INTS) if special and rng.random() < 0.3 else rng.randint(-5, 5)
            for _ in range(n)
        ]
    out = []
    for _ in range(n):
        if special and rng.random() < 0.3:
            out.append(float(rng.choice(_SPECIAL_FLOATS)))
        else:
            out.append(round(rng.gauss(0.0, 2.0), rng.choice((0, 1, 2, 4))))
    if dtype == "float32":
        out = [float(v) for v in np.array(out, dtype=np.float32)]
    return out


def _literal(values: list) -> str:
    return "[" + ", ".join(repr(v) for v in values) + "]"


def input_code(
    rng: random.Random,
    shape: tuple,
    dtype: str,
    requires_grad: bool,
    special: bool,
    view: bool,
) -> str:
    """The expression of a new input of ``shape`` (the shape it has after its view)."""
    kind, base_shape, suffix = "plain", shape, ""
    if view:
        kind = rng.choice(("transpose", "permute", "slice", "expand"))
    if kind == "transpose" and len(shape) >= 2:
        i, j = rng.sample(range(len(shape)), 2)
        base = list(shape)
        base[i], base[j] = base[j], base[i]
        base_shape, suffix = tuple(base), f".transpose({i}, {j})"
    elif kind == "permute" and len(shape) >= 2:
        perm = list(range(len(shape)))
        rng.shuffle(perm)
        base = [0] * len(shape)
        for out_dim, in_dim in enumerate(perm):
            base[in_dim] = shape[out_dim]
        base_shape, suffix = tuple(base), ".permute(" + ", ".join(map(str, perm)) + ")"
    elif kind == "slice" and len(shape) >= 1:
        base_shape = (2 * shape[0],) + shape[1:]
        suffix = "[::2]" if rng.random() < 0.5 else f"[{shape[0]}:]"
    elif kind == "expand" and len(shape) >= 1:
        base = [1 if rng.random() < 0.5 else d for d in shape]
        lead = rng.randint(0, len(base) - 1)
        base_shape = tuple(base[lead:])
        suffix = ".expand(" + ", ".join(map(str, shape)) + ")"
    n = int(np.prod(base_shape, dtype=np.int64))
    values = random_values(rng, n, dtype, special)
    array = f"np.array({_literal(values)}, dtype='{dtype}')"
    if len(base_shape) != 1 or n == 0:
        array += f".reshape({base_shape!r})"
    code = f"T.tensor({array})" + suffix
    if requires_grad:
        code = code + ".requires_grad_()" if suffix else code[:-1] + ", requires_grad=True)"
    return code
