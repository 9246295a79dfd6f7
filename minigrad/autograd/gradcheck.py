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
from .engine import grad as autograd_grad
from .grad_mode import no_grad

__all__ = ["gradcheck", "GradcheckError"]


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
        with no_grad():
            flat[k] = orig + eps
            plus = _outputs(func, inputs)[out_index]._data.astype(np.float64).ravel()
            flat[k] = orig - eps
            minus = _outputs(func, inputs)[out_index]._data.astype(np.float64).ravel()
        flat[k] = orig
        jac[k] = (plus - minus) / (2 * eps)
    return jac


def _analytical(func, inputs, i, out_index) -> np.ndarray:
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
    **_ignored,
) -> bool:
    """True if ``func``'s gradients at ``inputs`` match finite differences."""
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
            analytical = _analytical(func, inputs, i, out_index)
            if not np.allclose(analytical, numerical, rtol=rtol, atol=atol):
                if not raise_exception:
                    return False
                raise GradcheckError(
                    f"Jacobian mismatch for output {out_index} with respect to input {i},\n"
                    f"numerical:{new_tensor(numerical)!r}\nanalytical:{new_tensor(analytical)!r}\n"
                )
    return True
