"""``linalg.vector_norm`` rounds as PyTorch's CPU norm kernel (V1), bit for bit against torch.

PyTorch adds ``|x| ** p`` one by one in the tensor's dtype, in TensorIterator's order; the
2-norm of rows contiguous in memory goes by 8 float32 lanes (``ops/_norm_kernel.py``).
Float32 orders other than 1 and 2 are left out: PyTorch's ``powf`` is glibc's, an ulp off
the correctly rounded power in a few cases, which minigrad computes.
"""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import minigrad as mg

SETTINGS = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@SETTINGS
@given(
    st.lists(st.sampled_from([1, 2, 3, 5, 8, 9, 16, 17, 33]), min_size=1, max_size=3),
    st.sampled_from(
        [(np.float32, 1), (np.float32, 2)] + [(np.float64, p) for p in (1, 2, 0.5, 3, -1, -2.5)]
    ),
    st.integers(0, 2**32 - 1),
    st.booleans(),
    st.data(),
)
def test_vector_norm_as_pytorch(torch, shape, kind, seed, keepdim, data):
    if np.prod(shape) > 4000:  # PyTorch splits bigger sums between threads
        shape = shape[-1:]
    dtype, ord = kind
    rng = np.random.default_rng(seed)
    base = (rng.standard_normal(shape) * 10 ** rng.uniform(-2, 2, shape)).astype(dtype)
    order = data.draw(st.permutations(range(len(shape))))
    base = np.ascontiguousarray(base.transpose(order))
    back = tuple(int(i) for i in np.argsort(order))
    dims = data.draw(st.lists(st.integers(0, len(shape) - 1), unique=True, max_size=len(shape)))

    def run(T):
        return T.linalg.vector_norm(T.tensor(base).permute(back), ord, dims or None, keepdim)

    want, got = run(torch).numpy(), run(mg).numpy()
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)


def test_one_norm_adds_in_float32(torch):
    """The fuzzer's program 12793: 100000 + 1.2 + 4.1 added in float32 is 100005.3047."""
    for T in (torch, mg):
        x = T.tensor([100000.0, 1.2, 4.1])
        assert T.linalg.vector_norm(x, 1).item() == np.float32(100005.3046875)


def test_norms_of_zeros_and_infinities(torch):
    """``0 ** -1`` is inf and ``inf ** -1`` is 0 (C's pow); the fuzzer's program 913."""
    for values in ([0.0, 1.0, -2.0], [0.0, -0.0], [float("inf"), 1.0], [float("nan"), 2.0]):
        for ord in (-1, -2.5, 0.5, 3):
            want = torch.linalg.vector_norm(torch.tensor(values), ord).numpy()
            got = mg.linalg.vector_norm(mg.tensor(values), ord).numpy()
            np.testing.assert_array_equal(got, want)
