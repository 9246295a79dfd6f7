"""atan2's scalar loop and lerp give PyTorch's bits (``ops/libm_atan2f.py``, ``ops/lerp.py``).

``atan2`` of float32 tensors that PyTorch's vector loop does not take (fewer than 16
elements, strided, broadcast along the inner dim) is the C library's ``atan2f``, which
``libm_atan2f`` redoes; compared bit for bit with a live torch on drawn values (every
binade, zeros of both signs, infinities, nan). ``lerp``'s two halves of the weight and the
sign of its zeros depend on which loop computes an element: compared on drawn tensors of
sizes around the 16-float / 8-double blocks, contiguous, transposed and broadcast.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad as mg

pytestmark = pytest.mark.bit_exact

SPECIALS = [0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, 1e-45, -3e38, 1e-38, 2.4375, 0.4375]


def _assert_same(got: np.ndarray, want: np.ndarray) -> None:
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(
        np.signbit(got) | np.isnan(got), np.signbit(want) | np.isnan(want)
    )


@st.composite
def scalar_loop_pairs(draw):
    """Two float32 arrays of 1-15 elements: PyTorch's scalar loop computes all of them."""
    n = draw(st.integers(1, 15))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    y = rng.standard_normal(n) * np.exp(rng.uniform(-60, 60, n))
    x = rng.standard_normal(n) * np.exp(rng.uniform(-60, 60, n)) ** draw(st.sampled_from([0, 1]))
    for values in (y, x):
        specials = draw(st.lists(st.sampled_from(SPECIALS), max_size=3))
        values[: len(specials)] = specials[:n]
    return y.astype(np.float32), x.astype(np.float32)


@settings(max_examples=300, deadline=None)
@given(scalar_loop_pairs())
def test_atan2_scalar_loop_is_pytorchs_bits(torch, pair):
    y, x = pair
    want = torch.atan2(torch.from_numpy(y), torch.from_numpy(x)).numpy()
    _assert_same(mg.atan2(mg.from_numpy(y), mg.from_numpy(x)).numpy(), want)


def test_atan2_strided_and_broadcast_rows_are_pytorchs_bits(torch):
    rng = np.random.default_rng(0)
    y = rng.standard_normal((200, 40)).astype(np.float32)[:, ::2]
    x = rng.standard_normal((200, 1)).astype(np.float32)
    want = torch.atan2(torch.from_numpy(y), torch.from_numpy(x)).numpy()
    _assert_same(mg.atan2(mg.from_numpy(y), mg.from_numpy(x)).numpy(), want)


@st.composite
def lerp_cases(draw):
    dtype = draw(st.sampled_from([np.float32, np.float64]))
    n = draw(st.one_of(st.integers(1, 20), st.integers(28, 36)))
    rows = draw(st.integers(1, 3))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    values = [1.0, -1.0, 0.0, -0.0, 2.0, 0.3, 1e30, np.inf]
    a, b = (rng.choice(values, (rows, n)).astype(dtype) for _ in range(2))
    w = rng.choice([1.0, 0.0, -0.0, 0.5, 0.49, 2.0, 0.25, -0.5, np.nan], (rows, n)).astype(dtype)
    layout = draw(st.sampled_from(["flat", "transposed", "broadcast", "number", "0-d"]))
    return a, b, w, layout


@settings(max_examples=200, deadline=None)
@given(lerp_cases())
def test_lerp_is_pytorchs_bits(torch, case):
    a, b, w, layout = case

    def run(T):
        ta, tb, tw = T.from_numpy(a), T.from_numpy(b), T.from_numpy(w)
        if layout == "transposed":
            ta, tb, tw = ta.t(), tb.t(), tw.t()
        if layout == "broadcast":
            tb = tb[:1]
        if layout == "number":
            return T.lerp(ta, tb, float(w.flat[0]))
        if layout == "0-d":
            return T.lerp(ta, tb, tw[0, 0])
        return T.lerp(ta, tb, tw)

    _assert_same(run(mg).numpy(), run(torch).numpy())
