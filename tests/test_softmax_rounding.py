"""softmax and log_softmax give PyTorch's float32 and float64 bits, forward and backward (V1).

PyTorch's CPU kernels use SLEEF's vectorised exp, lane-wise sums and fused multiply-adds
(``minigrad/ops/vector_kernels.py``); numpy's float32 exp differs in the last bit for about a
third of the inputs, which showed in printed digits and in cancellations (``sum(softmax)``
exactly 1, so the gradient of ``softmax(x).sum()`` is exactly 0 in PyTorch). Compared bit for
bit against a live torch on random tensors of up to ``EXACT_UP_TO`` elements.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import minigrad as mg
from minigrad.ops.vector_kernels import EXACT_UP_TO, vector_exp

# compares last bits with PyTorch's AVX-512 kernels (minigrad/ops/_cpu_vectors.py)
pytestmark = pytest.mark.bit_exact

SETTINGS = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@st.composite
def scores(draw):
    shape = tuple(draw(st.lists(st.integers(1, 5), min_size=0, max_size=4)))
    if draw(st.booleans()) and shape:  # a long row: lane-wise sums and the scalar tail
        shape = shape[:-1] + (draw(st.integers(16, 40)),)
    assume(np.prod(shape) <= EXACT_UP_TO)  # larger tensors keep numpy's faster ufuncs
    seed = draw(st.integers(0, 2**32 - 1))
    scale = draw(st.sampled_from([0.1, 1.0, 5.0, 30.0]))
    rng = np.random.default_rng(seed)
    dtype = draw(st.sampled_from([np.float32, np.float64]))
    x = np.asarray(rng.standard_normal(shape) * scale, dtype=dtype)
    g = np.asarray(rng.standard_normal(shape), dtype=dtype)
    dim = draw(st.integers(0, max(len(shape) - 1, 0)))
    return x, g, dim


def _run(T, name, x, g, dim):
    t = T.tensor(x, requires_grad=True)
    out = getattr(T, name)(t, dim)
    out.backward(T.tensor(g))
    return out.detach().numpy(), t.grad.numpy()


@SETTINGS
@given(scores(), st.sampled_from(["softmax", "log_softmax"]))
def test_is_pytorchs_bits(torch, case, name):
    # rows: SLEEF's exp (and log); along another dim the columns past the last whole vector
    # take glibc's exp, redone here too (with one torch thread, as the fixture sets)
    x, g, dim = case
    want, want_grad = _run(torch, name, x, g, dim)
    got, got_grad = _run(mg, name, x, g, dim)
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(got_grad, want_grad)


@SETTINGS
@given(st.lists(st.floats(-110, 110, width=32), min_size=1, max_size=50))
def test_vector_exp_is_sleefs(torch, values):
    # softmax of (0, d) with d < -17 is (1, exp(d)) exactly: the kernel's exp, seen directly
    d = np.asarray(values, dtype=np.float32)
    d = np.where(d > -17.5, d - 128, d).astype(np.float32)
    pairs = np.stack([np.zeros_like(d), d], 1)
    want = torch.softmax(torch.from_numpy(pairs), 1).numpy()[:, 1]
    np.testing.assert_array_equal(vector_exp(d), want)


@pytest.mark.parametrize("x", [[4.53, -0.64, -2.42], [-0.8, -2.7, -2.63], [2.0]])
def test_gradient_of_a_softmax_sum(torch, x):
    # PyTorch: exactly 0. for the second row (its outputs sum to exactly 1), not -9.1e-08
    want = torch.tensor(x, requires_grad=True)
    want.softmax(-1).sum().backward()
    got = mg.tensor(x, requires_grad=True)
    got.softmax(-1).sum().backward()
    np.testing.assert_array_equal(got.grad.numpy(), want.grad.numpy())
