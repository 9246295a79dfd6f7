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


def test_emulated_fused_multiply_add_keeps_the_sign_of_zero():
    """``a * b + c`` with an exact zero result: -0. only from -0. + -0. (IEEE), as the
    processor's fma gives it to PyTorch's log_softmax gradient."""
    from minigrad.ops._fma import fma

    for dtype in (np.float32, np.float64):
        a = np.array([-0.5, 0.5, -0.5, 2.0, -0.0], dtype)
        b = np.array([0.0, 0.0, -0.0, 3.0, 1.0], dtype)
        c = np.array([-0.0, -0.0, 0.0, -6.0, -0.0], dtype)
        got = fma(a, b, c)
        np.testing.assert_array_equal(np.signbit(got), [True, False, False, False, True])
        np.testing.assert_array_equal(got, 0)


@pytest.mark.bit_exact  # 31 elements: all in the scalar loop only when a block is 32 (AVX-512)
def test_float32_powers_and_their_gradients_round_once(torch):
    """``x ** y``, ``2.5 ** y`` and their gradients (``y * x ** (y - 1)``, ``out * log(x)``):
    PyTorch's powf of fewer than 32 elements (its scalar loop) is correctly rounded but for
    rare inputs; numpy's float32 power was an ulp off for 1 input in 5 (fuzzer 12622, 13232)."""
    rng = np.random.default_rng(3)
    x = np.abs(rng.standard_normal(31) * 3).astype(np.float32) + np.float32(0.1)
    y = (rng.standard_normal(31) * 3).astype(np.float32)

    def run(T):
        a, b = T.tensor(x, requires_grad=True), T.tensor(y, requires_grad=True)
        out = a**b + 2.5**b
        out.backward(T.ones(31))
        return out.detach().numpy(), a.grad.numpy(), b.grad.numpy()

    for want, got in zip(run(torch), run(mg), strict=True):  # glibc's rare misrounding: an ulp
        np.testing.assert_array_max_ulp(got, want, maxulp=1)
        assert np.count_nonzero(got != want) <= 1
