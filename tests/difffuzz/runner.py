"""Run a program's text in one engine and record what a learner would see.

``show(v)`` records a value: a tensor's repr, dtype, shape, ``requires_grad``, ``is_leaf``,
grad_fn name and its values (with their dtype, for the comparison's ulp tolerance); Python
numbers, strings, ``None``, sequences. ``graph(t)`` records the backward graph below
``t.grad_fn``: names, ``next_functions`` in order, ``None`` edges, nodes reached twice, and for
each ``AccumulateGrad`` the program's names that hold its variable. An exception ends the run
and is recorded by type and message, with the statement it came from; every warning is
recorded (no filter: a numpy RuntimeWarning that reaches the user is a difference).
"""

from __future__ import annotations

import math
import re
import warnings

import numpy as np

_ADDRESS = re.compile(r"0x[0-9a-fA-F]+")
_TRIGGERED = re.compile(r" \(Triggered internally at [^)]*\.\)")


def normalise(text: str) -> str:
    """PyTorch's names for itself read as minigrad's; addresses and C++ locations out."""
    text = text.replace("torch.", "minigrad.").replace("torch::", "minigrad::")
    return _TRIGGERED.sub("", _ADDRESS.sub("0x?", text))


def graph_signature(tensor, names: dict) -> tuple:
    """The backward graph below ``tensor.grad_fn``, as comparable data.

    Depth-first from the root: each node's name and number of edges, ``None`` edges, a node
    reached twice as ``("seen", k)``, and for each ``AccumulateGrad`` the names in ``names``
    that hold its variable (names starting with ``_`` belong to the harness, not the program).
    Shared by the fuzzer and the parity snippets (tests/parity_snippets.py).
    """
    seen: dict = {}
    out: list = []
    stack = [(tensor.grad_fn, 0)]
    while stack:
        node, depth = stack.pop()
        if node is None:
            out.append((depth, None))
            continue
        if id(node) in seen:
            out.append((depth, "seen", seen[id(node)]))
            continue
        seen[id(node)] = len(seen)
        name = normalise(node.name())
        if name.endswith("AccumulateGrad"):
            holders = sorted(
                k for k, v in names.items() if v is node.variable and not k.startswith("_")
            )
            out.append((depth, name, tuple(holders)))
        else:
            out.append((depth, name, len(node.next_functions)))
        for fn, index in reversed(node.next_functions):
            out.append((depth + 1, "edge", index))
            stack.append((fn, depth + 1))
    return tuple(out)


def _is_tensor(value) -> bool:
    return hasattr(value, "grad_fn") and hasattr(value, "requires_grad")


class Recorder:
    """The items one run produced, each tagged with the statement that produced it."""

    def __init__(self, module) -> None:
        self.module = module
        self.items: list = []
        self.namespace: dict = {}
        self.where = -1  # index of the statement being run (set by ``run``)

    def describe(self, value):
        if _is_tensor(value):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                fn = value.grad_fn
            plain = value.detach()
            if getattr(plain, "_is_zerotensor", bool)():  # PyTorch's unallocated zeros
                plain = plain.new_zeros(plain.shape)  # (a gradient it knows is 0): read as 0s
            return (
                "tensor",
                normalise(repr(value)),
                normalise(str(value.dtype)),
                tuple(value.shape),
                value.requires_grad,
                value.is_leaf,
                None if fn is None else normalise(fn.name()),
                np.array(plain.tolist(), dtype=np.float64).reshape(tuple(value.shape)),
            )
        if isinstance(value, bool) or value is None:
            return ("repr", repr(value))
        if isinstance(value, float):
            return ("float", value)
        if type(value) in (tuple, list):
            return (type(value).__name__, tuple(self.describe(v) for v in value))
        return ("repr", normalise(repr(value)))

    def show(self, value) -> None:
        self.items.append((self.where, self.describe(value)))
        if self.module.__name__ == "torch" and _shares_grad_memory(value, self.namespace):
            self.items.append((self.where, ("note", SHARED_GRADS)))

    def graph(self, tensor) -> None:
        self.items.append((self.where, ("graph", graph_signature(tensor, self.namespace))))


#: a note on a shown ``.grad`` (PyTorch only; ``compare`` puts it on the difference's line)
SHARED_GRADS = "this leaf's .grad shares its memory with another leaf's"


def _shares_grad_memory(value, names: dict) -> bool:
    """Whether ``value`` is a leaf's ``.grad`` whose memory is also another leaf's ``.grad``:
    PyTorch's AccumulateGrad keeps a gradient it receives without copying it, and two views
    of one buffer (``stack([a, c]).sum()``'s gradient, expanded from one number) become two
    leaves' ``.grad``; a second backward then adds into both at once."""
    if not _is_tensor(value) or not value.numel():
        return False
    grads = [g for t in names.values() if (g := _leaf_grad(t)) is not None]
    if not any(g is value for g in grads):
        return False
    grads = [g for g in grads if not _is_zero_tensor(g)]  # no memory: no data pointer
    if not any(g is value for g in grads):
        return False
    ptr = value.untyped_storage().data_ptr()
    return any(
        g is not value and g.numel() and g.untyped_storage().data_ptr() == ptr for g in grads
    )


def _leaf_grad(t):
    """A leaf's ``.grad``, or None; PyTorch refuses even to say whether a view is a leaf once
    its base was changed in place (an output of ``chunk``: 'Output 2 of Split is a view ...'),
    and the program, not this note, must be what raises."""
    try:
        return t.grad if _is_tensor(t) and t.is_leaf and t.requires_grad else None
    except RuntimeError:
        return None


def _is_zero_tensor(t) -> bool:
    """PyTorch's efficient zeros (sgn's gradient, kept as a leaf's ``.grad``) have no storage:
    asking for their data pointer raises."""
    return getattr(t, "_is_zerotensor", bool)()


def namespace(module) -> dict:
    return {"T": module, "F": module.nn.functional, "np": np, "nan": math.nan, "inf": math.inf}


def compiled(program) -> list:
    """Each statement compiled on its own, so an exception names its statement."""
    return [compile(s.code(), f"<difffuzz {i}>", "exec") for i, s in enumerate(program.stmts)]


def run(module, program, codes: list | None = None) -> list:
    """Execute ``program`` with ``T = module``; the recorded items, exception last."""
    rec = Recorder(module)
    ns = rec.namespace
    ns.update(namespace(module), show=rec.show, graph=rec.graph)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            for i, code in enumerate(codes or compiled(program)):
                rec.where = i
                exec(code, ns)
        except Exception as e:  # noqa: BLE001 - the exception is the result
            rec.items.append((rec.where, ("raises", type(e).__name__, normalise(str(e)))))
        finally:
            module.set_grad_enabled(True)
    for w in caught:
        if issubclass(w.category, (DeprecationWarning, PendingDeprecationWarning)):
            continue
        rec.items.append((-1, ("warning", w.category.__name__, normalise(str(w.message)))))
    return rec.items
