"""Which zero PyTorch returns when ``0.`` and ``-0.`` tie (V1): bit for bit against torch.

The two compare equal, so the kernel's order of comparisons decides, and it shows in print
(``tensor(0.)`` or ``tensor(-0.)``). ``amax``/``amin`` follow the reduction kernel's walk
(``ops/_reduction_ties.py``): rows of 32 float32 go by vectors, other layouts one by one.
``maximum``/``minimum``/``clamp`` with tensor bounds follow the elementwise loop
(``ops/_simd_ties.py``): blocks of 16 float32 where the inner dim is contiguous for every
operand (dims sorted by the inputs' strides), the input kept at a tie elsewhere.
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


@st.composite
def operand(draw, shape: tuple, dtypes):
    """An array of ``shape`` (some dims maybe broadcast) in a drawn layout: a ``make(T)``."""
    shape = tuple(n if draw(st.integers(0, 3)) else 1 for n in shape)
    shape = shape[draw(st.integers(0, len(shape) - 1)) :] if draw(st.booleans()) else shape
    dtype = draw(st.sampled_from(dtypes))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    order = draw(st.permutations(range(len(shape))))
    values = np.array([0.0, -0.0, -1.0, 1.0], np.float64)
    base = rng.choice(values, size=[shape[d] for d in order], p=[0.4, 0.4, 0.1, 0.1])
    base = base.astype(dtype)
    back = tuple(int(i) for i in np.argsort(order))
    return lambda T: T.tensor(base).permute(back)


@SETTINGS
@given(st.data(), st.sampled_from(["maximum", "minimum", "clamp_min", "clamp_max", "clamp"]))
def test_elementwise_extremes_keep_pytorchs_zero(torch, data, name):
    shape = tuple(data.draw(st.lists(SIZES, min_size=1, max_size=3)))
    if np.prod(shape) > 4000:
        shape = shape[-1:]
    a = data.draw(operand(shape, [np.float32, np.float64]))
    b = data.draw(operand(shape, [np.float32, np.float64, np.int32]))
    c = data.draw(operand(shape, [np.float32, np.float64]))

    def run(T):
        x, y, z = a(T), b(T), c(T)
        if name == "clamp":
            return T.clamp(x, y, z).numpy()
        return getattr(T, name)(x, y).numpy()

    try:
        want = run(torch)
    except RuntimeError as error:
        # the output's shape is not the input's (clamp_min of a broadcast x)
        assert_raises_the_same(run, mg, error)
        return
    assert_same_bits(run(mg), want)


def test_maximum_of_a_transposed_tensor_and_integers(torch):
    """The fuzzer's program 2926: ``maximum(x.t(), ints)`` loops one by one (the inner dim is
    contiguous in x only), so ``-0.`` of x stays, as PyTorch's ``std::max`` keeps its first."""
    for T in (torch, mg):
        x = T.full((3, 4), -0.0).t()
        out = T.maximum(x, T.zeros(2, 4, 3, dtype=T.int32)).numpy()
        assert out.dtype == np.float32 and np.signbit(out).all()


def test_dot_is_never_negative_zero(torch):
    """BLAS's dot sums from 0.: ``dot([-1.888], [0.])`` is 0. (the fuzzer's program 17696)."""
    for dtype in (np.float32, np.float64):
        for n in (1, 3, 17):
            a, b = np.full(n, -1.888, dtype), np.zeros(n, dtype)
            for T in (torch, mg):
                assert not np.signbit(T.dot(T.tensor(a), T.tensor(b)).numpy())


def test_full_like_keeps_negative_zero(torch):
    """``full_like(x, -0.)`` is -0. (the fuzzer's program 6790), in any layout."""
    for T in (torch, mg):
        for x in (T.ones(2), T.ones(3, 2).t(), T.ones(2, dtype=T.float64)):
            assert np.signbit(T.full_like(x, -0.0).numpy()).all()
