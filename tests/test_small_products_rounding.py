"""Small matrix products give PyTorch's bits (V1): bmm, mm, addmm, mv and what calls them.

PyTorch's ``bmm`` of fewer than 400 multiplications is a plain loop (``baddbmm_cpu_kernel``):
each element a sum from 0. of the products in order. Its BLAS ``mm``/``addmm`` of small
matrices in row order adds the same way, ``addmm`` starting from the bias (so a -0. bias
stays -0. over -0. products). numpy's BLAS adds in another order, an ulp apart in most
results (shown in printed digits and in a float32 result widened to float64).
"""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import minigrad as mg

SETTINGS = settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def _arrays(seed: int, dtype, *shapes):
    rng = np.random.default_rng(seed)
    return [np.asarray(rng.standard_normal(s) * 3, dtype=dtype) for s in shapes]


@SETTINGS
@given(
    st.integers(1, 4), st.integers(1, 5), st.integers(1, 7), st.integers(1, 5),
    st.integers(0, 2**32 - 1), st.sampled_from([np.float32, np.float64]),
)  # fmt: skip
def test_bmm_and_its_gradients(torch, batch, n, k, m, seed, dtype):
    a, b, g = _arrays(seed, dtype, (batch, n, k), (batch, k, m), (batch, n, m))
    out = {}
    for T in (torch, mg):
        x, y = T.tensor(a, requires_grad=True), T.tensor(b, requires_grad=True)
        z = T.bmm(x, y)
        z.backward(T.tensor(g))
        out[T] = z.detach().numpy(), x.grad.numpy(), y.grad.numpy()
    for want, got in zip(out[torch], out[mg]):
        np.testing.assert_array_equal(got, want)


@SETTINGS
@given(
    st.integers(1, 6), st.integers(2, 7), st.integers(2, 6), st.integers(0, 2**32 - 1),
    st.sampled_from([np.float32, np.float64]), st.booleans(),
)  # fmt: skip
def test_mm_addmm_matmul_of_small_matrices(torch, n, k, m, seed, dtype, negative_zeros):
    a, b, c = _arrays(seed, dtype, (n, k), (k, m), (m,))
    if negative_zeros:  # -0. products over a -0. bias: PyTorch keeps -0.
        a[:, : k // 2], c[: m // 2] = 0.0, -0.0
    for op in (
        lambda T: T.mm(T.tensor(a), T.tensor(b)),
        lambda T: T.tensor(a) @ T.tensor(b, requires_grad=True),
        lambda T: T.addmm(T.tensor(c), T.tensor(a), T.tensor(b)),
        lambda T: T.addmm(T.tensor(c, requires_grad=True), T.tensor(a), T.tensor(b)),
    ):
        want, got = op(torch).detach().numpy(), op(mg).detach().numpy()
        np.testing.assert_array_equal(got, want)
        np.testing.assert_array_equal(np.signbit(got), np.signbit(want))


@SETTINGS
@given(
    st.integers(1, 4), st.integers(1, 4), st.integers(0, 2**32 - 1), st.booleans(),
)  # fmt: skip
def test_mv_and_the_gradient_of_its_vector(torch, n, k, seed, transposed):
    # n up to 4: the gradient is m.t() @ grad, an inner size of n (larger ones in row order
    # are not yet known, numpy's order then)
    a, v, g = _arrays(seed, np.float32, (n, k), (k,), (n,))
    out = {}
    for T in (torch, mg):
        m = T.tensor(np.ascontiguousarray(a.T)).t() if transposed else T.tensor(a)
        x = T.tensor(v, requires_grad=True)
        y = T.mv(m, x)
        y.backward(T.tensor(g))
        out[T] = y.detach().numpy(), x.grad.numpy()
    for want, got in zip(out[torch], out[mg]):
        np.testing.assert_array_equal(got, want)


@SETTINGS
@given(
    st.integers(1, 6), st.integers(2, 3), st.integers(1, 6), st.integers(0, 2**32 - 1),
    st.sampled_from([np.float32, np.float64]),
)  # fmt: skip
def test_linear_layers_weight_transposed(torch, n, k, m, seed, dtype):
    x, w, c = _arrays(seed, dtype, (n, k), (m, k), (m,))
    for op in (
        lambda T: T.nn.functional.linear(T.tensor(x), T.tensor(w), T.tensor(c)),
        lambda T: T.mm(T.tensor(x), T.tensor(w).t()),
        lambda T: T.addmm(T.tensor(c), T.tensor(x, requires_grad=True), T.tensor(w).t()),
    ):
        np.testing.assert_array_equal(op(mg).detach().numpy(), op(torch).detach().numpy())
