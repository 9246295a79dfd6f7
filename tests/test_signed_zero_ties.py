"""Which zero PyTorch returns when ``0.`` and ``-0.`` tie (V1): bit for bit against torch.

The two compare equal, so the kernel's order of comparisons decides, and it shows in print
(``tensor(0.)`` or ``tensor(-0.)``). ``amax``/``amin`` follow the reduction kernel's walk
(``ops/_reduction_ties.py``): rows of 32 float32 go by vectors, other layouts one by one.
"""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import minigrad as mg

SETTINGS = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
SIZES = st.sampled_from([1, 2, 3, 5, 8, 16, 33, 40, 70])


def assert_same_bits(got: np.ndarray, want: np.ndarray) -> None:
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(np.signbit(got), np.signbit(want))


@st.composite
def laid_out(draw):
    """Zeros of both signs and a few negatives, in a drawn memory layout: (make, dims)."""
    shape = tuple(draw(st.lists(SIZES, min_size=1, max_size=3)))
    if np.prod(shape) > 4000:
        shape = shape[:1]
    dtype = draw(st.sampled_from([np.float32, np.float64]))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    values = np.array([0.0, -0.0, -1.0, -2.0], dtype)
    order = draw(st.permutations(range(len(shape))))
    base = rng.choice(values, size=[shape[d] for d in order], p=[0.4, 0.4, 0.1, 0.1])
    back = tuple(int(i) for i in np.argsort(order))
    step = draw(st.sampled_from([1, 1, 2]))

    def make(T):
        return T.tensor(base).permute(back)[::step]

    dims = draw(st.lists(st.integers(0, len(shape) - 1), unique=True, max_size=len(shape)))
    return make, tuple(dims)


@SETTINGS
@given(laid_out(), st.booleans(), st.sampled_from(["amax", "amin"]))
def test_amax_amin_keep_pytorchs_zero(torch, case, keepdim, name):
    make, dims = case
    want = getattr(make(torch), name)(dims, keepdim).numpy()
    got = getattr(make(mg), name)(dims, keepdim).numpy()
    assert_same_bits(got, want)


def test_amax_of_two_zeros_is_the_first(torch):
    """The fuzzer's program 1973: ``(tensor([3., -3.]) * 0).amax(-1)`` is 0. in PyTorch."""
    for T in (torch, mg):
        assert not np.signbit((T.tensor([3.0, -3.0]) * 0).amax(-1).numpy())
        assert np.signbit(T.tensor([-0.0, 0.0]).amin().numpy())
