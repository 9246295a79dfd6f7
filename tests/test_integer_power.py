"""Integer powers as PyTorch's ``powi`` (V1): squarings that wrap around, and a negative
exponent gives 0 (1 for a base of 1, +-1 for -1), bit for bit against torch."""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import minigrad as mg

SETTINGS = settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
BASES = st.sampled_from([0, 1, -1, 2, -2, 3, 7, 2**20, 2**40, -(2**31) + 1])
EXPONENTS = st.sampled_from([0, 1, 2, 3, 4, 31, 63, 64, -1, -2, -3, -100])


@SETTINGS
@given(
    st.lists(BASES, min_size=1, max_size=6),
    st.lists(EXPONENTS, min_size=1, max_size=6),
    st.sampled_from([np.int64, np.int32]),
    st.sampled_from(["tensor ** tensor", "number ** tensor"]),
)
def test_integer_powers_wrap_and_negative_exponents_give_zero(torch, bases, exps, dtype, form):
    n = min(len(bases), len(exps))
    base = np.array(bases[:n], np.int64).astype(dtype)
    exponent = np.array(exps[:n], dtype)

    def run(T):
        if form == "number ** tensor":
            return (int(bases[0]) ** T.tensor(exponent)).numpy()
        return (T.tensor(base) ** T.tensor(exponent)).numpy()

    try:
        want = run(torch)
    except RuntimeError:  # a number too large for the tensor's dtype
        return
    got = run(mg)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)


def test_power_of_two_to_the_40_wraps(torch):
    """The fuzzer's program 11910: ``(2**40) ** 4`` wraps to 0 in int64, ``** -1`` is 0."""
    for T in (torch, mg):
        out = (2**40) ** T.tensor([4, -1, 1, 0])
        assert out.tolist() == [0, 0, 2**40, 1]
