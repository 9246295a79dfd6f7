"""``jacobian`` and ``hessian`` of ``autograd.functional``: one backward pass per output
element, rows stacked; the Hessian is the Jacobian of the gradient."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .._functions.joining import stack
from ..tensor import Tensor, new_tensor
from .functional_args import (
    Tensors,
    as_tuple,
    check_outputs,
    finish,
    grad_of,
    outputs_of,
    prepare_inputs,
    unwrap,
)
from .grad_mode import enable_grad


def jacobian(
    func: Callable,
    inputs: Tensors,
    create_graph: bool = False,
    strict: bool = False,
    vectorize: bool = False,
    strategy: str = "reverse-mode",
) -> Any:
    """The Jacobian of ``func`` at ``inputs``: ``output.shape + input.shape`` per pair.

    PyTorch computes ``vectorize=True`` with vmap and ``strategy="forward-mode"`` (which it
    allows only with ``vectorize=True``) with forward-mode AD; minigrad has neither and
    computes the same values one row at a time with reverse mode, with PyTorch's checks and
    errors, and its result structure (forward mode gives lists where reverse mode gives
    tuples)."""
    _check_strategy(strategy, create_graph, strict, vectorize)
    with enable_grad():
        is_in_tuple, inputs = as_tuple(inputs, "inputs", "jacobian")
        inputs = prepare_inputs(inputs, create_graph)
        is_out_tuple, outputs = outputs_of(func, inputs, "jacobian")
        check_outputs(outputs, strict)
        if vectorize and strict:
            raise RuntimeError(
                "torch.autograd.functional.jacobian: `strict=True` and `vectorized=True` are "
                "not supported together. Please either set `strict=False` or "
                "`vectorize=False`."
            )
        result = []
        for i, out in enumerate(outputs):
            if not out.numel():  # PyTorch's errors: vmap's basis, or stack of no rows
                if vectorize:
                    raise IndexError("index 0 is out of bounds for dimension 0 with size 0")
                raise RuntimeError("stack expects a non-empty TensorList")
            rows: list[list] = [[] for _ in inputs]
            flat = out.reshape(-1)
            for j in range(out.numel()):
                grads = grad_of((flat[j],), inputs, retain_graph=True, create_graph=create_graph)
                for k, (g, x) in enumerate(zip(grads, inputs)):
                    if g is None:
                        if strict:
                            raise RuntimeError(
                                f"Output {i} of the user-provided function is independent of "
                                f"input {k}. This is not allowed in strict mode."
                            )
                        g = new_tensor(np.zeros_like(x._data))
                    rows[k].append(g)
            result.append(
                tuple(
                    _stack(rows[k], x).view(tuple(out.shape) + tuple(x.shape))
                    for k, x in enumerate(inputs)
                )
            )
    jac = unwrap(finish(tuple(result), create_graph), (is_out_tuple, is_in_tuple))
    return _as_lists(jac) if strategy == "forward-mode" else jac


def _check_strategy(strategy: str, create_graph: bool, strict: bool, vectorize: bool) -> None:
    """PyTorch's checks of ``strategy``, in its order."""
    if strategy not in ("reverse-mode", "forward-mode"):
        raise AssertionError(
            'Expected strategy to be either "forward-mode" or "reverse-mode". Hint: If your '
            'function has more outputs than inputs, "forward-mode" tends to be more performant. '
            'Otherwise, prefer to use "reverse-mode".'
        )
    if strategy != "forward-mode":
        return
    if create_graph:
        raise NotImplementedError(
            "torch.autograd.functional.jacobian: `create_graph=True` and "
            '`strategy="forward-mode"` are not supported together (yet). Please either set '
            '`create_graph=False` or `strategy="reverse-mode"`.'
        )
    if strict:
        raise RuntimeError(
            "torch.autograd.functional.jacobian: `strict=True` and "
            '`strategy="forward-mode"` are not supported together (yet). Please either set '
            '`strict=False` or `strategy="reverse-mode"`.'
        )
    if not vectorize:
        raise NotImplementedError(  # PyTorch's words, its missing space included
            "Computing Jacobian using forward-AD or forward-over-reverse Hessian is"
            "only implemented for `vectorize=True`."
        )


def _as_lists(result):
    """Forward mode's structure in PyTorch: lists (of lists) of Tensors, not tuples."""
    if isinstance(result, tuple):
        return [_as_lists(r) for r in result]
    return result


def _stack(rows: list, x: Tensor) -> Tensor:
    if not rows:  # an output with no elements
        return new_tensor(np.zeros((0,) + x._data.shape, x._data.dtype))
    return stack(rows)


def hessian(
    func: Callable,
    inputs: Tensors,
    create_graph: bool = False,
    strict: bool = False,
    vectorize: bool = False,
    outer_jacobian_strategy: str = "reverse-mode",
) -> Any:
    """The Hessian of a scalar function: the Jacobian of its gradient."""
    is_in_tuple, inputs = as_tuple(inputs, "inputs", "hessian")

    def scalar(*xs):
        is_tuple, out = as_tuple(func(*xs), "outputs of the user-provided function", "hessian")
        if len(out) != 1:
            raise RuntimeError("The function given to hessian should return a single Tensor")
        if out[0].numel() != 1:
            raise RuntimeError(
                "The Tensor returned by the function given to hessian should contain a single "
                "element"
            )
        return out[0].squeeze()

    def gradient(*xs):
        return jacobian(scalar, xs, create_graph=True)

    result = jacobian(
        gradient,
        inputs,
        create_graph=create_graph,
        strict=strict,
        vectorize=vectorize,
        strategy=outer_jacobian_strategy,
    )
    if outer_jacobian_strategy == "forward-mode":
        result = tuple(tuple(r) if isinstance(r, list) else r for r in result)
        return _as_lists(unwrap(result, (is_in_tuple, is_in_tuple)))
    return unwrap(result, (is_in_tuple, is_in_tuple))
