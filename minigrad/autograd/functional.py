"""``minigrad.autograd.functional``: Jacobians, Hessians and their products, as in PyTorch.

Each is built from ``autograd.grad``, mostly with ``create_graph=True`` (gradients of
gradients): ``vjp`` is one backward pass; ``jvp`` and ``hvp`` use the "double backward
trick" (the gradient of a gradient with respect to a dummy ``grad_outputs`` is a forward-mode
product); ``jacobian`` is one backward pass per output element; ``hessian`` is the Jacobian
of the gradient. ``inputs`` is a Tensor or a tuple of Tensors, and the results keep that
structure. Results are detached unless ``create_graph=True``. ``strict=True`` raises when
an output does not depend on an input (instead of returning zeros); ``vectorize`` and
``strategy="forward-mode"`` are accepted (with PyTorch's checks) and compute the same values
one row at a time.

This module sits above the ops (it stacks rows with ``minigrad.stack``), so
``minigrad/__init__.py`` imports it last, as ``minigrad.autograd.functional``. The
products are here; ``jacobian`` and ``hessian`` are in ``jacobian.py``, what all six share
in ``functional_args.py``.
"""

from __future__ import annotations

from collections.abc import Callable

from .functional_args import (
    INDEPENDENT,
    Tensors,
    as_tuple,
    check_outputs,
    check_v,
    dummies_like,
    grad_of,
    outputs_of,
    prepare_inputs,
    results,
    zeros_for_missing,
)
from .grad_mode import enable_grad
from .jacobian import hessian, jacobian

__all__ = ["vjp", "jvp", "jacobian", "hessian", "hvp", "vhp"]


def vjp(
    func: Callable,
    inputs: Tensors,
    v: Tensors | None = None,
    create_graph: bool = False,
    strict: bool = False,
) -> tuple[Tensors, Tensors]:
    """``(func(inputs), v^T J)``: a vector-Jacobian product, one backward pass."""
    with enable_grad():
        is_in_tuple, inputs = as_tuple(inputs, "inputs", "vjp")
        inputs = prepare_inputs(inputs, create_graph)
        is_out_tuple, outputs = outputs_of(func, inputs, "vjp")
        check_outputs(outputs, strict)
        if v is not None:
            v = as_tuple(v, "v", "vjp")[1]
            check_v(v, outputs)
        elif len(outputs) != 1 or outputs[0].numel() != 1:
            raise RuntimeError(
                "The vector v can only be None if the user-provided function returns a single "
                "Tensor with a single element."
            )
        grads = grad_of(outputs, inputs, v, create_graph=create_graph)
        grads = zeros_for_missing(grads, inputs, strict, INDEPENDENT)
    return results(outputs, is_out_tuple, grads, is_in_tuple, create_graph)


def jvp(
    func: Callable,
    inputs: Tensors,
    v: Tensors | None = None,
    create_graph: bool = False,
    strict: bool = False,
) -> tuple[Tensors, Tensors]:
    """``(func(inputs), J v)``: a Jacobian-vector product, by the double backward trick."""
    with enable_grad():
        is_in_tuple, inputs = as_tuple(inputs, "inputs", "jvp")
        inputs = prepare_inputs(inputs, create_graph)
        v = _v_or_single(v, inputs, "jvp")
        is_out_tuple, outputs = outputs_of(func, inputs, "jvp")
        check_outputs(outputs, strict)
        dummies = dummies_like(outputs)
        grad_inputs = grad_of(outputs, inputs, dummies, create_graph=True)
        if strict:
            for i, g in enumerate(grad_inputs):
                if g is None:
                    raise RuntimeError(INDEPENDENT.format(i=i))
        products = grad_of(grad_inputs, dummies, v, create_graph=create_graph)
        products = zeros_for_missing(
            products,
            outputs,
            strict,
            "The gradient with respect to the input is independent of entry {i} in the "
            "grad_outputs when using the double backward trick to compute forward mode "
            "gradients. This is not allowed in strict mode.",
        )
    return results(outputs, is_out_tuple, products, is_out_tuple, create_graph)


def _scalar_output(outputs: tuple, name: str) -> None:
    if len(outputs) != 1:
        raise RuntimeError(f"The function given to {name} should return a single Tensor")
    if outputs[0].numel() != 1:
        raise RuntimeError(
            f"The Tensor returned by the function given to {name} should contain a single element"
        )


def _v_or_single(v, inputs: tuple, name: str) -> tuple | None:
    if v is not None:
        v = as_tuple(v, "v", name)[1]
        check_v(v, inputs)
        return v
    if len(inputs) != 1 or inputs[0].numel() != 1:
        raise RuntimeError(
            "The vector v can only be None if the input to the user-provided function is a "
            "single Tensor with a single element."
        )
    return None


def _gradient_of_scalar(func: Callable, inputs, v, create_graph: bool, strict: bool, name: str):
    """What vhp and hvp share: the checked inputs, v, outputs and the gradient (with a graph)."""
    is_in_tuple, inputs = as_tuple(inputs, "inputs", name)
    inputs = prepare_inputs(inputs, create_graph)
    v = _v_or_single(v, inputs, name)
    is_out_tuple, outputs = outputs_of(func, inputs, name)
    _scalar_output(outputs, name)
    check_outputs(outputs, strict)
    jac = grad_of(outputs, inputs, create_graph=True)
    if strict:
        zeros_for_missing(jac, inputs, True, INDEPENDENT)
    return is_in_tuple, inputs, v, is_out_tuple, outputs, jac


def vhp(
    func: Callable,
    inputs: Tensors,
    v: Tensors | None = None,
    create_graph: bool = False,
    strict: bool = False,
) -> tuple[Tensors, Tensors]:
    """``(func(inputs), v^T H)``: a vector-Hessian product of a scalar function."""
    with enable_grad():
        is_in_tuple, inputs, v, is_out_tuple, outputs, jac = _gradient_of_scalar(
            func, inputs, v, create_graph, strict, "vhp"
        )
        products = grad_of(jac, inputs, v, create_graph=create_graph)
        products = zeros_for_missing(
            products,
            inputs,
            strict,
            "The jacobian of the user-provided function is independent of input {i}. This is "
            "not allowed in strict mode.",
        )
    return results(outputs, is_out_tuple, products, is_in_tuple, create_graph)


def hvp(
    func: Callable,
    inputs: Tensors,
    v: Tensors | None = None,
    create_graph: bool = False,
    strict: bool = False,
) -> tuple[Tensors, Tensors]:
    """``(func(inputs), H v)``: a Hessian-vector product, by the double backward trick."""
    with enable_grad():
        is_in_tuple, inputs, v, is_out_tuple, outputs, jac = _gradient_of_scalar(
            func, inputs, v, create_graph, strict, "hvp"
        )
        dummies = dummies_like(inputs)
        double_back = grad_of(jac, inputs, dummies, create_graph=True)
        products = grad_of(double_back, dummies, v, create_graph=create_graph)
        products = zeros_for_missing(
            products,
            inputs,
            strict,
            "The hessian of the user-provided function is independent of entry {i} in the "
            "grad_jacobian. This is not allowed in strict mode as this prevents from using the "
            "double backward trick to replace forward mode AD.",
        )
    return results(outputs, is_out_tuple, products, is_in_tuple, create_graph)
