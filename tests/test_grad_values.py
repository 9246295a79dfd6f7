"""Gradients with PyTorch's bits: backward formulas in its order of operations (issue 8).

The printed parity snippets (``parity_grad_values.py``) show four digits; these compare every
bit against a live torch (one thread, the ``torch`` fixture) on random inputs.
"""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg

pytestmark = pytest.mark.parity


def _grads(T, x, y, reduction, g):
    a = T.tensor(x, requires_grad=True)
    b = T.tensor(y, requires_grad=True)
    loss = T.nn.functional.mse_loss(a, b, reduction=reduction)
    loss.backward(T.tensor(g))
    return a.grad.numpy(), b.grad.numpy()


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_mse_loss_gradient_is_norm_times_difference_then_grad(torch, dtype, reduction):
    """PyTorch's kernel: ``norm * (input - target) * grad``, norm (2 / n for a mean) in the
    tensor's dtype; ``(input - target) * (grad * norm)`` rounds otherwise for 1 element in 3."""
    rng = np.random.default_rng(7)
    for n in (1, 3, 7, 100, 300):
        x = rng.standard_normal(n).astype(dtype)
        y = rng.standard_normal(n).astype(dtype)
        g = (rng.standard_normal(() if reduction != "none" else n) * 3).astype(dtype)
        for want, got in zip(
            _grads(torch, x, y, reduction, g), _grads(mg, x, y, reduction, g), strict=True
        ):
            np.testing.assert_array_equal(
                got.view(f"u{got.itemsize}"), want.view(f"u{want.itemsize}")
            )


def test_mse_loss_gradient_overflows_before_the_zero(torch):
    """2 * (1e30 - 3e38) overflows float32 to -inf before it meets the -0. gradient: nan."""
    x = np.array([3e38, 1.0], np.float32)
    y = np.array([1e30, 2.0], np.float32)
    g = np.array([-0.0, 1.0], np.float32)
    for want, got in zip(_grads(torch, x, y, "none", g), _grads(mg, x, y, "none", g), strict=True):
        np.testing.assert_array_equal(got, want)
