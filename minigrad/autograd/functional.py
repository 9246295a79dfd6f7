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
``minigrad/__init__.py`` imports it last, as ``minigrad.autograd.functional``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .._functions.joining import stack
from ..tensor import Tensor, new_tensor
from .backward_api import grad as autograd_grad
from .grad_mode import enable_grad

__all__ = ["vjp", "jvp", "jacobian", "hessian", "hvp", "vhp"]


def _as_tuple(x: Any, arg_name: str, fn_name: str) -> tuple[bool, tuple]:
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


def _outputs_of(func: Callable, inputs: tuple, fn_name: str) -> tuple[bool, tuple]:
    return _as_tuple(func(*inputs), "outputs of the user-provided function", fn_name)


def _prepare(inputs: tuple, create_graph: bool) -> tuple:
    """Inputs that require grad: a view of each (create_graph) or a detached copy."""
    if create_graph:
        return tuple(
            x.view_as(x) if x.requires_grad else x.detach().requires_grad_() for x in inputs
        )
    return tuple(x.detach().requires_grad_() for x in inputs)


def _finish(values: tuple, create_graph: bool) -> tuple:
    if create_graph:
        return values
    return tuple(
        _finish(v, False) if isinstance(v, tuple) else (None if v is None else v.detach())
        for v in values
    )


def _unwrap(values: tuple, is_tuple) -> Any:
    """Give back the structure the caller used: a Tensor for a Tensor, a tuple for a tuple."""
    if isinstance(is_tuple, tuple):  # a nested (outputs, inputs) structure
        outer, inner = is_tuple
        values = tuple(_unwrap(v, inner) for v in values)
        return values if outer else values[0]
    return values if is_tuple else values[0]


def _grad(outputs: tuple, inputs: tuple, grad_outputs=None, create_graph=False, retain_graph=None):
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


def _check_outputs(outputs: tuple, strict: bool) -> None:
    if strict:
        for i, out in enumerate(outputs):
            if not out.requires_grad:
                raise RuntimeError(
                    f"Output {i} of the user-provided function does not require gradients. The "
                    "outputs must be computed in a differentiable manner from the input when "
                    "running in strict mode."
                )


def _zeros_for_missing(grads: tuple, refs: tuple, strict: bool, message: str) -> tuple:
    result = []
    for i, (g, ref) in enumerate(zip(grads, refs)):
        if g is None:
            if strict:
                raise RuntimeError(message.format(i=i))
            g = new_tensor(np.zeros_like(ref._data))
        result.append(g)
    return tuple(result)


def _check_v(v: tuple, other: tuple) -> None:
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


_INDEPENDENT = (
    "The output of the user-provided function is independent of input {i}. This is not "
    "allowed in strict mode."
)


def vjp(func: Callable, inputs, v=None, create_graph: bool = False, strict: bool = False):
    """``(func(inputs), v^T J)``: a vector-Jacobian product, one backward pass."""
    with enable_grad():
        is_in_tuple, inputs = _as_tuple(inputs, "inputs", "vjp")
        inputs = _prepare(inputs, create_graph)
        is_out_tuple, outputs = _outputs_of(func, inputs, "vjp")
        _check_outputs(outputs, strict)
        if v is not None:
            v = _as_tuple(v, "v", "vjp")[1]
            _check_v(v, outputs)
        elif len(outputs) != 1 or outputs[0].numel() != 1:
            raise RuntimeError(
                "The vector v can only be None if the user-provided function returns a single "
                "Tensor with a single element."
            )
        grads = _grad(outputs, inputs, v, create_graph=create_graph)
        grads = _zeros_for_missing(grads, inputs, strict, _INDEPENDENT)
    return _unwrap(_finish(outputs, create_graph), is_out_tuple), _unwrap(
        _finish(grads, create_graph), is_in_tuple
    )


def jvp(func: Callable, inputs, v=None, create_graph: bool = False, strict: bool = False):
    """``(func(inputs), J v)``: a Jacobian-vector product, by the double backward trick."""
    with enable_grad():
        is_in_tuple, inputs = _as_tuple(inputs, "inputs", "jvp")
        inputs = _prepare(inputs, create_graph)
        if v is not None:
            v = _as_tuple(v, "v", "jvp")[1]
            _check_v(v, inputs)
        elif len(inputs) != 1 or inputs[0].numel() != 1:
            raise RuntimeError(
                "The vector v can only be None if the input to the user-provided function is a "
                "single Tensor with a single element."
            )
        is_out_tuple, outputs = _outputs_of(func, inputs, "jvp")
        _check_outputs(outputs, strict)
        dummies = tuple(new_tensor(np.zeros_like(o._data), None, True) for o in outputs)
        grad_inputs = _grad(outputs, inputs, dummies, create_graph=True)
        if strict:
            for i, g in enumerate(grad_inputs):
                if g is None:
                    raise RuntimeError(_INDEPENDENT.format(i=i))
        products = _grad(grad_inputs, dummies, v, create_graph=create_graph)
        products = _zeros_for_missing(
            products,
            outputs,
            strict,
            "The gradient with respect to the input is independent of entry {i} in the "
            "grad_outputs when using the double backward trick to compute forward mode "
            "gradients. This is not allowed in strict mode.",
        )
    return _unwrap(_finish(outputs, create_graph), is_out_tuple), _unwrap(
        _finish(products, create_graph), is_out_tuple
    )


def jacobian(
    func: Callable,
    inputs,
    create_graph: bool = False,
    strict: bool = False,
    vectorize: bool = False,
    strategy: str = "reverse-mode",
):
    """The Jacobian of ``func`` at ``inputs``: ``output.shape + input.shape`` per pair.

    PyTorch computes ``vectorize=True`` with vmap and ``strategy="forward-mode"`` (which it
    allows only with ``vectorize=True``) with forward-mode AD; minigrad has neither and
    computes the same values one row at a time with reverse mode, with PyTorch's checks and
    errors, and its result structure (forward mode gives lists where reverse mode gives
    tuples)."""
    _check_strategy(strategy, create_graph, strict, vectorize)
    with enable_grad():
        is_in_tuple, inputs = _as_tuple(inputs, "inputs", "jacobian")
        inputs = _prepare(inputs, create_graph)
        is_out_tuple, outputs = _outputs_of(func, inputs, "jacobian")
        _check_outputs(outputs, strict)
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
                grads = _grad((flat[j],), inputs, retain_graph=True, create_graph=create_graph)
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
    jac = _unwrap(_finish(tuple(result), create_graph), (is_out_tuple, is_in_tuple))
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
    inputs,
    create_graph: bool = False,
    strict: bool = False,
    vectorize: bool = False,
    outer_jacobian_strategy: str = "reverse-mode",
):
    """The Hessian of a scalar function: the Jacobian of its gradient."""
    is_in_tuple, inputs = _as_tuple(inputs, "inputs", "hessian")

    def scalar(*xs):
        is_tuple, out = _as_tuple(func(*xs), "outputs of the user-provided function", "hessian")
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
        return _as_lists(_unwrap(result, (is_in_tuple, is_in_tuple)))
    return _unwrap(result, (is_in_tuple, is_in_tuple))


def _scalar_output(outputs: tuple, name: str) -> None:
    if len(outputs) != 1:
        raise RuntimeError(f"The function given to {name} should return a single Tensor")
    if outputs[0].numel() != 1:
        raise RuntimeError(
            f"The Tensor returned by the function given to {name} should contain a single element"
        )


def _v_or_single(v, inputs: tuple, name: str) -> tuple | None:
    if v is not None:
        v = _as_tuple(v, "v", name)[1]
        _check_v(v, inputs)
        return v
    if len(inputs) != 1 or inputs[0].numel() != 1:
        raise RuntimeError(
            "The vector v can only be None if the input to the user-provided function is a "
            "single Tensor with a single element."
        )
    return None


def _gradient_of_scalar(func: Callable, inputs, v, create_graph: bool, strict: bool, name: str):
    """What vhp and hvp share: the checked inputs, v, outputs and the gradient (with a graph)."""
    is_in_tuple, inputs = _as_tuple(inputs, "inputs", name)
    inputs = _prepare(inputs, create_graph)
    v = _v_or_single(v, inputs, name)
    is_out_tuple, outputs = _outputs_of(func, inputs, name)
    _scalar_output(outputs, name)
    _check_outputs(outputs, strict)
    jac = _grad(outputs, inputs, create_graph=True)
    if strict:
        _zeros_for_missing(jac, inputs, True, _INDEPENDENT)
    return is_in_tuple, inputs, v, is_out_tuple, outputs, jac


def vhp(func: Callable, inputs, v=None, create_graph: bool = False, strict: bool = False):
    """``(func(inputs), v^T H)``: a vector-Hessian product of a scalar function."""
    with enable_grad():
        is_in_tuple, inputs, v, is_out_tuple, outputs, jac = _gradient_of_scalar(
            func, inputs, v, create_graph, strict, "vhp"
        )
        products = _grad(jac, inputs, v, create_graph=create_graph)
        products = _zeros_for_missing(
            products,
            inputs,
            strict,
            "The jacobian of the user-provided function is independent of input {i}. This is "
            "not allowed in strict mode.",
        )
    return _unwrap(_finish(outputs, create_graph), is_out_tuple), _unwrap(
        _finish(products, create_graph), is_in_tuple
    )


def hvp(func: Callable, inputs, v=None, create_graph: bool = False, strict: bool = False):
    """``(func(inputs), H v)``: a Hessian-vector product, by the double backward trick."""
    with enable_grad():
        is_in_tuple, inputs, v, is_out_tuple, outputs, jac = _gradient_of_scalar(
            func, inputs, v, create_graph, strict, "hvp"
        )
        dummies = tuple(new_tensor(np.zeros_like(x._data), None, True) for x in inputs)
        double_back = _grad(jac, inputs, dummies, create_graph=True)
        products = _grad(double_back, dummies, v, create_graph=create_graph)
        products = _zeros_for_missing(
            products,
            inputs,
            strict,
            "The hessian of the user-provided function is independent of entry {i} in the "
            "grad_jacobian. This is not allowed in strict mode as this prevents from using the "
            "double backward trick to replace forward mode AD.",
        )
    return _unwrap(_finish(outputs, create_graph), is_out_tuple), _unwrap(
        _finish(products, create_graph), is_in_tuple
    )
