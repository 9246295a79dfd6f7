"""Compare what two runs recorded; describe the first difference in one line.

Values: integers and bools exactly; floats within a few ulp of their own dtype (float32
results of numpy and PyTorch may round differently in the last place), with nan and inf
positions (and signs) exact. A float64 tensor whose values are float32 numbers on both sides
was cast from float32 (``.double()``, ``.to(float64)``): it keeps float32's tolerance, because
the cast does not make a float32 result's last bit more exact. (PyTorch computes float32
cos/sin/exp/log/tanh/sqrt with Intel MKL's closed-source VML routines, which are not
correctly rounded: minigrad matches them within an ulp, not bit for bit.) Everything else
(printed text, dtype, shape, grad_fn names, the graph, exception type and message,
warnings) exactly, after ``normalise``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

# Tolerances in units of the dtype's epsilon (relative) and an absolute floor for results
# near zero that come from cancellation (sums in another order).
_ULPS = 8
_EPS = {"float32": 2.0**-23, "float64": 2.0**-52, "float16": 2.0**-10}
_FLOOR = {"float32": 1e-6, "float64": 1e-13, "float16": 1e-3}

# The fields of a described tensor, and the order they are compared in (the most telling
# first: a wrong grad_fn also changes the printed text, but the cause is the grad_fn).
_TENSOR_FIELDS = ("kind", "repr", "dtype", "shape", "requires_grad", "is_leaf", "grad_fn", "values")
_ORDER = (0, 6, 2, 3, 4, 5, 7, 1)


@dataclass(frozen=True)
class Difference:
    """The first item where the runs differ: which statement, which field, both sides."""

    stmt: int
    field: str
    torch: object
    minigrad: object
    note: str = ""  # what the runner noted on PyTorch's side at that statement

    def kind(self) -> str:
        """A coarse key that the minimiser keeps constant while it shrinks a program."""
        if self.field == "raises":
            return f"raises:{_head(self.torch)}/{_head(self.minigrad)}"
        return self.field

    def line(self) -> str:
        note = f" [torch: {self.note}]" if self.note else ""
        return f"{self.field}: torch {_short(self.torch)} | minigrad {_short(self.minigrad)}{note}"


def _head(item) -> str:
    return item[1] if isinstance(item, tuple) and item and item[0] == "raises" else "-"


def _short(value, limit: int = 300) -> str:
    text = repr(value) if not isinstance(value, str) else value
    return text if len(text) <= limit else text[:limit] + "..."


def _float32_numbers(x: np.ndarray) -> bool:
    """Whether every value of ``x`` (finite float64) is a float32 number, as after a cast."""
    with np.errstate(over="ignore"):
        return bool(np.array_equal(x.astype(np.float32).astype(np.float64), x))


def close(a: np.ndarray, b: np.ndarray, dtype: str) -> bool:
    """Same shape, same nan/inf positions, finite values within the dtype's tolerance."""
    if a.shape != b.shape:
        return False
    if not np.array_equal(np.isnan(a), np.isnan(b)):
        return False
    inf_a, inf_b = np.isinf(a), np.isinf(b)
    if not np.array_equal(inf_a, inf_b) or not np.array_equal(a[inf_a], b[inf_b]):
        return False
    fa, fb = a[np.isfinite(a)], b[np.isfinite(b)]
    name = dtype.rsplit(".", 1)[-1]
    if name == "float64" and _float32_numbers(fa) and _float32_numbers(fb):
        name = "float32"
    if name not in _EPS:
        return bool(np.array_equal(fa, fb))
    tol = _ULPS * _EPS[name] * np.maximum(np.abs(fa), np.abs(fb)) + _FLOOR[name]
    return bool(np.all(np.abs(fa - fb) <= tol))


def _same_value(a, b) -> str | None:
    """None when ``a`` and ``b`` (described values) match, else the differing field."""
    if type(a) is not type(b) or (isinstance(a, tuple) and a and b and a[0] != b[0]):
        return "kind"
    if not isinstance(a, tuple):
        return None if a == b else "value"
    if a[0] == "float":
        x, y = a[1], b[1]
        same = x == y or (x != x and y != y) or abs(x - y) <= 1e-6 * max(abs(x), abs(y), 1.0)
        return None if same else "number"
    if a[0] == "tensor":
        for i in _ORDER:
            if i == 7:
                if not close(a[i], b[i], a[2]):
                    return "values"
            elif a[i] != b[i]:
                return _TENSOR_FIELDS[i]
        return None
    if a[0] in ("tuple", "list"):
        if len(a[1]) != len(b[1]):
            return "length"
        for x, y in zip(a[1], b[1]):
            field = _same_value(x, y)
            if field:
                return field
        return None
    if a[0] == "graph":
        return None if a == b else "graph"
    if a[0] == "raises":
        return None if a == b else "raises"
    if a[0] == "warning":
        return None if a == b else "warning"
    return None if a == b else a[0]


def _notes(items: list) -> tuple[list, dict]:
    """The items without the runner's notes, and the notes by statement."""
    notes = {stmt: v[1] for stmt, v in items if type(v) is tuple and v and v[0] == "note"}
    if notes:
        items = [(stmt, v) for stmt, v in items if not (type(v) is tuple and v and v[0] == "note")]
    return items, notes


def first_difference(torch_items: list, minigrad_items: list) -> Difference | None:
    """The first difference between two runs (items are ``(statement, value)``); a note the
    runner made on PyTorch's side at its statement goes with it."""
    torch_items, notes = _notes(torch_items)
    d = _first_difference(torch_items, minigrad_items)
    if d is not None and d.stmt in notes:
        d = Difference(d.stmt, d.field, d.torch, d.minigrad, notes[d.stmt])
    return d


def _first_difference(torch_items: list, minigrad_items: list) -> Difference | None:
    for i in range(max(len(torch_items), len(minigrad_items))):
        if i >= len(torch_items) or i >= len(minigrad_items):
            longer = torch_items if i < len(torch_items) else minigrad_items
            stmt, value = longer[i]
            t = value if longer is torch_items else None
            m = value if longer is minigrad_items else None
            field = value[0] if isinstance(value, tuple) and value else "extra"
            return Difference(stmt, "missing-" + str(field), t, m)
        (ts, tv), (ms, mv) = torch_items[i], minigrad_items[i]
        field = _same_value(tv, mv)
        if field is None and ts != ms:
            field = "where"
        if field is not None:
            if tv and tv[0] in ("raises", "warning") or mv and mv[0] in ("raises", "warning"):
                field = tv[0] if tv[0] in ("raises", "warning") else mv[0]
            return Difference(ts if ts >= 0 else ms, field, tv, mv)
    return None
