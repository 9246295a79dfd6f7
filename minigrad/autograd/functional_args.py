"""What the six functions of ``autograd.functional`` share: their arguments and results.

``inputs``, the outputs and ``v`` may each be a Tensor or a tuple of Tensors; they are
checked with PyTorch's messages, the inputs are prepared to require grad, and the results
are given back detached (unless ``create_graph``) in the structure the caller used.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..tensor import Tensor, new_tensor
from .backward_api import grad as autograd_grad

# ``inputs``, ``v`` and the outputs: one Tensor or a tuple of them, kept in the results.
Tensors = Tensor | tuple[Tensor, ...]


def as_tuple(x: Any, arg_name: str, fn_name: str) -> tuple[bool, tuple]:
    is_tuple = isinstance(x, tuple)
    items = x if is_tuple else (x,)
    for i, el in enumerate(items):
        if not isinstance(el, Tensor):
            where = f"value at index {i}" if is_tuple else f"given {arg_name}"
            raise TypeError(
                f"The {arg_name} given to {fn_name} must be either a Tensor or a tuple of Tensors "
                f"but the {where} has type {type(el)}."
            )
    return is_tuple, items


def outputs_of(func: Callable, inputs: tuple, fn_name: str) -> tuple[bool, tuple]:
    return as_tuple(func(*inputs), "outputs of the user-provided function", fn_name)


def prepare_inputs(inputs: tuple, create_graph: bool) -> tuple:
    """Inputs that require grad: a view of each (create_graph) or a detached copy."""
    if create_graph:
        return tuple(
            x.view_as(x) if x.requires_grad else x.detach().requires_grad_() for x in inputs
        )
    return tuple(x.detach().requires_grad_() for x in inputs)


def finish(values: tuple, create_graph: bool) -> tuple:
    if create_graph:
        return values
    return tuple(
        finish(v, False) if isinstance(v, tuple) else (None if v is None else v.detach())
        for v in values
    )


def unwrap(values: tuple, is_tuple) -> Any:
    """Give back the structure the caller used: a Tensor for a Tensor, a tuple for a tuple."""
    if isinstance(is_tuple, tuple):  # a nested (outputs, inputs) structure
        outer, inner = is_tuple
        values = tuple(unwrap(v, inner) for v in values)
        return values if outer else values[0]
    return values if is_tuple else values[0]


def grad_of(
    outputs: tuple, inputs: tuple, grad_outputs=None, create_graph=False, retain_graph=None
):
    """``autograd.grad`` on the outputs that require grad; None for an input nothing reaches."""
    if grad_outputs is None:
        grad_outputs = (None,) * len(outputs)
    pairs = [(o, g) for o, g in zip(outputs, grad_outputs) if o is not None and o.requires_grad]
    if not pairs:
        return (None,) * len(inputs)
    outs, gouts = zip(*pairs)
    return autograd_grad(
        outs,
        inputs,
        gouts,
        retain_graph=retain_graph,
        create_graph=create_graph,
        allow_unused=True,
    )


def check_outputs(outputs: tuple, strict: bool) -> None:
    if strict:
        for i, out in enumerate(outputs):
            if not out.requires_grad:
                raise RuntimeError(
                    f"Output {i} of the user-provided function does not require gradients. The "
                    "outputs must be computed in a differentiable manner from the input when "
                    "running in strict mode."
                )


def zeros_for_missing(grads: tuple, refs: tuple, strict: bool, message: str) -> tuple:
    result = []
    for i, (g, ref) in enumerate(zip(grads, refs)):
        if g is None:
            if strict:
                raise RuntimeError(message.format(i=i))
            g = new_tensor(np.zeros_like(ref._data))
        result.append(g)
    return tuple(result)


def check_v(v: tuple, other: tuple) -> None:
    if len(v) != len(other):
        raise RuntimeError(
            f"v is a tuple of invalid length: should be {len(other)} but got {len(v)}."
        )
    for i, (a, b) in enumerate(zip(v, other)):
        if a.shape != b.shape:
            prefix = f"Entry {i} in " if len(v) > 1 else ""
            raise RuntimeError(
                f"{prefix}v has invalid size: should be {b.size()} but got {a.size()}."
            )


INDEPENDENT = (
    "The output of the user-provided function is independent of input {i}. This is not "
    "allowed in strict mode."
)


def dummies_like(tensors: tuple) -> tuple:
    """Zeros that require grad, one per tensor: the ``grad_outputs`` of the double backward
    trick, whose gradient is the forward-mode product (``jvp``, ``hvp``)."""
    return tuple(new_tensor(np.zeros_like(t._data), None, True) for t in tensors)


def results(outputs: tuple, out_structure, values: tuple, structure, create_graph: bool) -> tuple:
    """``(func's outputs, the gradients or products)``, as ``vjp``, ``jvp``, ``vhp`` and ``hvp``
    return them: detached unless ``create_graph``, in the structures the caller used."""
    return unwrap(finish(outputs, create_graph), out_structure), unwrap(
        finish(values, create_graph), structure
    )
