"""gradcheck: compare backward's gradients with finite differences, as PyTorch does.

For every input that requires grad and every output, the analytical Jacobian
(one backward per output element) must match the numerical one (central
differences, ``(f(x + eps) - f(x - eps)) / 2 eps``) within ``atol + rtol * |numerical|``.
Use float64 inputs: float32 rounding swamps the differences.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence

import numpy as np

from ..tensor import Tensor, new_tensor
from .backward_api import grad as autograd_grad

__all__ = ["gradcheck", "gradgradcheck", "GradcheckError"]


class GradcheckError(RuntimeError):
    """Raised by gradcheck when analytical and numerical gradients disagree."""


def _outputs(func: Callable, inputs: tuple) -> tuple[Tensor, ...]:
    out = func(*inputs)
    return (out,) if isinstance(out, Tensor) else tuple(out)


def _numerical(func, inputs, i, out_index, eps) -> np.ndarray:
    x = inputs[i]._data
    out_size = _outputs(func, inputs)[out_index]._data.size
    jac = np.zeros((x.size, out_size))
    flat = x.reshape(-1)  # a view: perturb the input in place, then restore it
    for k in range(x.size):
        orig = flat[k].copy()
        # grad mode stays on: gradgradcheck's function computes gradients itself
        flat[k] = orig + eps
        plus = _outputs(func, inputs)[out_index]._data.astype(np.float64).ravel()
        flat[k] = orig - eps
        minus = _outputs(func, inputs)[out_index]._data.astype(np.float64).ravel()
        flat[k] = orig
        jac[k] = (plus - minus) / (2 * eps)
    return jac


def _analytical(func, inputs, i, out_index, check_grad_dtypes=False) -> np.ndarray:
    out = _outputs(func, inputs)[out_index]
    x = inputs[i]
    jac = np.zeros((x._data.size, out._data.size))
    for j in range(out._data.size):
        seed = np.zeros(out._data.size, dtype=out._data.dtype)
        seed[j] = 1
        (g,) = autograd_grad(
            out, x, new_tensor(seed.reshape(out._data.shape)), retain_graph=True, allow_unused=True
        )
        if g is not None:
            if check_grad_dtypes and g._data.dtype != x._data.dtype:
                raise GradcheckError("Gradient has dtype mismatch")
            jac[:, j] = g._data.astype(np.float64).ravel()
    return jac


def gradcheck(
    func: Callable,
    inputs: Tensor | Sequence,
    *,
    eps: float = 1e-6,
    atol: float = 1e-5,
    rtol: float = 1e-3,
    raise_exception: bool = True,
    nondet_tol: float = 0.0,
    check_undefined_grad: bool = True,
    check_grad_dtypes: bool = False,
    check_batched_grad: bool = False,
    check_batched_forward_grad: bool = False,
    check_forward_ad: bool = False,
    check_backward_ad: bool = True,
    fast_mode: bool = False,
    masked: bool | None = None,
) -> bool:
    """True if ``func``'s gradients at ``inputs`` match finite differences.

    PyTorch's keyword arguments are accepted; minigrad checks backward mode only
    (``check_forward_ad`` and the batched checks have nothing to check here) and
    ``check_grad_dtypes`` compares each gradient's dtype with its input's.
    """
    if check_forward_ad or check_batched_grad or check_batched_forward_grad:
        raise NotImplementedError("minigrad has no forward-mode AD nor vmap: backward checks only")
    if not check_backward_ad:
        return True
    inputs = (inputs,) if isinstance(inputs, Tensor) else tuple(inputs)
    checked = [i for i, x in enumerate(inputs) if isinstance(x, Tensor) and x.requires_grad]
    if not checked:
        raise ValueError(
            "gradcheck expects at least one input tensor to require gradient, "
            "but none of them have requires_grad=True."
        )
    for i in checked:
        if inputs[i]._data.dtype != np.float64:
            warnings.warn(
                f"Input #{i} requires gradient and is not a double precision floating point or "
                "complex. This check will likely fail if all the inputs are not of double "
                "precision floating point or complex. ",
                UserWarning,
                stacklevel=2,
            )
    for out_index, out in enumerate(_outputs(func, inputs)):
        if not out.requires_grad:
            continue
        for i in checked:
            numerical = _numerical(func, inputs, i, out_index, eps)
            try:
                analytical = _analytical(func, inputs, i, out_index, check_grad_dtypes)
            except GradcheckError:
                if not raise_exception:
                    return False
                raise
            if not np.allclose(analytical, numerical, rtol=rtol, atol=atol):
                if not raise_exception:
                    return False
                raise GradcheckError(
                    f"Jacobian mismatch for output {out_index} with respect to input {i},\n"
                    f"numerical:{new_tensor(numerical)!r}\nanalytical:{new_tensor(analytical)!r}\n"
                )
    return True


def gradgradcheck(
    func: Callable,
    inputs: Tensor | Sequence,
    grad_outputs: Tensor | Sequence | None = None,
    *,
    eps: float = 1e-6,
    atol: float = 1e-5,
    rtol: float = 1e-3,
    gen_non_contig_grad_outputs: bool = False,
    raise_exception: bool = True,
    nondet_tol: float = 0.0,
    check_undefined_grad: bool = True,
    check_grad_dtypes: bool = False,
    check_batched_grad: bool = False,
    check_fwd_over_rev: bool = False,
    check_rev_over_rev: bool = True,
    fast_mode: bool = False,
    masked: bool = False,
) -> bool:
    """True if the gradients of ``func``'s gradients match finite differences.

    As in PyTorch: the gradients of ``func`` with respect to its inputs, computed with
    ``create_graph=True`` for ``grad_outputs`` (random ones that require grad when not
    given), are themselves checked with ``gradcheck``, as a function of the inputs
    and of ``grad_outputs``.
    """
    inputs = (inputs,) if isinstance(inputs, Tensor) else tuple(inputs)
    if check_fwd_over_rev or check_batched_grad:
        raise NotImplementedError("minigrad has no forward-mode AD nor vmap: backward checks only")
    if not check_rev_over_rev:
        return True
    if grad_outputs is None:
        rng = np.random.default_rng(0)
        outputs = _outputs(func, inputs)
        grad_outputs = tuple(
            new_tensor(rng.uniform(-1, 1, o._data.shape).astype(o._data.dtype), None, True)
            for o in outputs
            if o.requires_grad
        )
    else:
        grad_outputs = (grad_outputs,) if isinstance(grad_outputs, Tensor) else tuple(grad_outputs)
    n_in = len(inputs)

    def first_gradients(*args):
        xs, gs = args[:n_in], args[n_in:]
        outs = [o for o in _outputs(func, xs) if o.requires_grad]
        wrt = [x for x in xs if isinstance(x, Tensor) and x.requires_grad]
        grads = autograd_grad(outs, wrt, gs, create_graph=True, allow_unused=True)
        return tuple(g for g in grads if g is not None)

    return gradcheck(
        first_gradients,
        inputs + grad_outputs,
        eps=eps,
        atol=atol,
        rtol=rtol,
        raise_exception=raise_exception,
        check_grad_dtypes=check_grad_dtypes,
    )
