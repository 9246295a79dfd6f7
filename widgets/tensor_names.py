"""Which tensors a drawing can name, and how a widget checks what it was given.

A box in a drawing says ``x`` or ``model.weight`` when the learner's code holds that tensor
under that name: the names come from the calling notebook cell's variables (or ``names=``),
a Module's parameters, and the ``.grad`` of either.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import Any

from minigrad import Tensor
from minigrad.autograd.graph import Node

__all__ = ["caller_namespace", "check_tensor", "find_names", "named_tensors", "names_from_mapping"]


def check_tensor(t: object, what: str) -> Tensor:
    """``t`` if it is a minigrad Tensor, else a TypeError that says what is expected."""
    if isinstance(t, Tensor):
        return t
    kind = f"{type(t).__module__}.{type(t).__qualname__}".replace("builtins.", "")
    hint = ""
    if kind.startswith("torch."):
        hint = " (a PyTorch tensor: build it with minigrad instead of torch)"
    elif isinstance(t, Node):
        hint = " (this is a grad_fn node: pass the tensor it belongs to)"
    raise TypeError(
        f"{what} expects a minigrad Tensor, for example out = minigrad.mean(x * x); "
        f"got {kind}{hint}"
    )


def caller_namespace() -> dict[str, Any]:
    """The variables of the code that called into ``widgets`` (a notebook cell's globals).

    Walks out of the ``widgets`` package, so it works from any depth of helpers.
    Function locals shadow globals, as in Python's own lookup.
    """
    frame = sys._getframe(1)
    while frame is not None and str(frame.f_globals.get("__name__", "")).startswith("widgets"):
        frame = frame.f_back
    if frame is None:
        return {}
    if frame.f_locals is frame.f_globals:
        return frame.f_globals
    return {**frame.f_globals, **frame.f_locals}


def find_names(namespace: Mapping[str, Any]) -> dict[int, list[str]]:
    """Names of the tensors in ``namespace`` (and of a minigrad Module's parameters).

    Keyed by ``id(tensor)``: valid while the namespace keeps the tensors alive.
    Names starting with ``_`` are IPython's output history (``_``, ``_3``).
    """
    names: dict[int, list[str]] = {}
    for name, value in named_tensors(namespace):
        names.setdefault(id(value), []).append(name)
    return names


def named_tensors(namespace: Mapping[str, Any]) -> list[tuple[str, Tensor]]:
    """``(name, tensor)`` for the tensors a learner can name in ``namespace``.

    Variables, a minigrad Module's parameters (``model.weight``), and the ``.grad`` of
    either when it is a tensor (``x.grad``): after ``backward(create_graph=True)`` the
    gradient has a graph of its own, and the learner knows it by that name.
    """
    found: list[tuple[str, Tensor]] = []
    module_type = getattr(sys.modules.get("minigrad.nn"), "Module", None)
    for name, value in list(namespace.items()):
        if not isinstance(name, str) or name.startswith("_"):
            continue
        if isinstance(value, Tensor):
            found.append((name, value))
        elif module_type is not None and isinstance(value, module_type):
            try:
                found.extend((f"{name}.{pname}", p) for pname, p in value.named_parameters())
            except Exception:  # a half-built module must not break a drawing
                continue
    grads = [(f"{name}.grad", t.grad) for name, t in found if t.is_leaf]
    return found + [(name, g) for name, g in grads if isinstance(g, Tensor)]


def names_from_mapping(names: Mapping[str, Tensor]) -> dict[int, list[str]]:
    """The ``names=`` argument (variable name -> tensor), checked."""
    if not isinstance(names, Mapping):
        raise TypeError(f"names= maps variable names to tensors, got {type(names).__name__}")
    found: dict[int, list[str]] = {}
    for name, value in names.items():
        if not isinstance(value, Tensor):
            raise TypeError(
                f"names= maps variable names to minigrad tensors; {name!r} maps to "
                f"{type(value).__name__}"
            )
        found.setdefault(id(value), []).append(str(name))
    return found
