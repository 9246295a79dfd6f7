"""``%`` of floats as PyTorch's CPU loops compute it (V1), bit for bit against torch.

One by one PyTorch's ``fmod`` is exact; its vector loop (SLEEF's ``fmodf``) gives nan where
its first quotient overflows (``1. % 1e-45``, ``3e38 % 0.8``), so which elements the vector
loop computes (the layouts) shows in print (``ops/vector_fmod.py``).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from same_error import assert_raises_the_same

import minigrad as mg

# compares last bits with PyTorch's AVX-512 kernels (minigrad/ops/_cpu_vectors.py)
pytestmark = pytest.mark.bit_exact

SETTINGS = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
POOL = [0.0, -0.0, 1e-45, 1e-40, -1e-40, 1e-38, 1e-30, 1e30, -1e30, 3e38, -3e38, 0.8046, -2.5]
POOL += [1.0, 7.3, -0.04, 1e5, float("inf"), float("-inf"), float("nan")]


@st.composite
def operand(draw, shape: tuple, dtypes):
    """A ``make(T)`` of an array of ``shape`` (dims maybe broadcast), permuted or strided."""
    shape = tuple(n if draw(st.integers(0, 3)) else 1 for n in shape)
    dtype = draw(st.sampled_from(dtypes))
    order = draw(st.permutations(range(len(shape))))
    values = draw(st.lists(st.sampled_from(POOL), min_size=1, max_size=8))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    with np.errstate(invalid="ignore"):
        base = rng.choice(values, size=[shape[d] for d in order]).astype(dtype)
    back = tuple(int(i) for i in np.argsort(order))
    if draw(st.booleans()):  # every other element along the last dim
        base = np.repeat(base, 2, axis=-1)
        return lambda T: T.tensor(base)[..., ::2].permute(back)
    return lambda T: T.tensor(base).permute(back)


def assert_same(got: np.ndarray, want: np.ndarray) -> None:
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)  # nan equals nan here
    signs = ~np.isnan(want)
    np.testing.assert_array_equal(np.signbit(got[signs]), np.signbit(want[signs]))


@SETTINGS
@given(
    st.data(),
    st.lists(st.sampled_from([1, 2, 3, 5, 16, 33, 40]), min_size=1, max_size=3),
    st.sampled_from(["tensor % tensor", "tensor % number", "number % tensor", "%="]),
    st.sampled_from(POOL),
)
def test_remainder_of_floats_as_pytorch(torch, data, shape, form, number):
    if np.prod(shape) > 4000:
        shape = shape[-1:]
    a = data.draw(operand(tuple(shape), [np.float32, np.float64]))
    b = data.draw(operand(tuple(shape), [np.float32, np.float64, np.int32]))

    def run(T):
        x, y = a(T), b(T)
        if form == "tensor % tensor":
            return T.remainder(x, y).numpy()
        if form == "tensor % number":
            return (x % number).numpy()
        if form == "number % tensor":
            return (number % x).numpy()
        x = x * 1
        x %= y
        return x.numpy()

    try:
        want = run(torch)
    except RuntimeError as error:  # %= into a tensor broadcast to a larger shape
        assert_raises_the_same(run, mg, error)
        return
    with np.errstate(all="ignore"):
        assert_same(run(mg), want)


def test_remainder_by_a_subnormal_in_the_vector_loop(torch):
    """The fuzzer's program 2658: ``t %= c`` with 1e-40 in c; the first 16 elements go by
    vectors (nan), the 17th one by one (the exact remainder)."""
    exact = np.fmod(np.float32(1), np.float32(1e-40))
    for T in (torch, mg):
        out = (T.ones(17) % T.full((17,), 1e-40)).numpy()
        assert np.isnan(out[:16]).all() and out[16] == exact > 0
