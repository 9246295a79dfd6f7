"""sinh, cosh, expm1, exp2, sigmoid give PyTorch's bits (SLEEF's blocks, the C library's tails).

``minigrad/ops/sleef_float.py`` redoes SLEEF's float32 functions, ``libm_float.py`` glibc's,
and ``kernel_loop.py`` which elements PyTorch gives to which. Compared bit for bit against a
live torch on drawn tensors: sizes around the 32-element blocks, contiguous, transposed and
strided layouts, special values (0, -0., inf, nan, the overflow and underflow edges, huge
arguments). float64 is exact for the C library's part (tensors under 16 elements and the
tails); its SLEEF blocks are numpy's here (within an ulp), so larger float64 tensors are
compared to an ulp.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad as mg

SPECIALS = [0.0, -0.0, np.inf, -np.inf, np.nan, 88.72, 88.73, 89.5, -16.7, -18.8, 127.9, 128.0]
SPECIALS += [-149.9, -150.5, 1e-30, -1e-30, 1e30, -104.5, 3e38, 22.0, -22.0, 0.3466, 1.0397]
OPS = ["sinh", "cosh", "expm1", "exp2", "sigmoid"]


@st.composite
def tensors(draw, dtype):
    n = draw(st.one_of(st.integers(1, 40), st.integers(60, 70), st.just(0)))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    scale = draw(st.sampled_from([0.3, 1.0, 4.0, 30.0]))
    x = rng.standard_normal(2 * n + 3) * scale
    specials = draw(st.lists(st.sampled_from(SPECIALS), max_size=4))
    x[: len(specials)] = specials[: x.size]
    layout = draw(st.sampled_from(["flat", "strided", "transposed", "sliced rows"]))
    return x.astype(dtype), n, layout


def _view(T, x, n, layout):
    t = T.tensor(x)
    if layout == "flat":
        return t[:n]
    if layout == "strided":
        return t[: 2 * n : 2]
    if layout == "transposed":
        return t[: n - n % 3].reshape(-1, 3).t()
    return t[: 2 * n].reshape(2, n)[:, : max(n - 1, 0)]


def _assert_same(got: np.ndarray, want: np.ndarray) -> None:
    """Equal values, zeros' signs too; nan in the same places (SLEEF's nan has its own bits)."""
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(
        np.signbit(got) | np.isnan(got), np.signbit(want) | np.isnan(want)
    )


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(OPS), tensors(np.float32))
def test_float32_is_pytorchs_bits(torch, op, case):
    x, n, layout = case
    want = getattr(torch, op)(_view(torch, x, n, layout)).numpy()
    got = getattr(mg, op)(_view(mg, x, n, layout)).numpy()
    _assert_same(got, want)


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(OPS), tensors(np.float64))
def test_float64_c_library_part_is_pytorchs_bits(torch, op, case):
    x, n, layout = case
    want = getattr(torch, op)(_view(torch, x, n, layout)).numpy()
    got = getattr(mg, op)(_view(mg, x, n, layout)).numpy()
    if n < 16 and op != "expm1":  # all tail: glibc's own functions
        _assert_same(got, want)
    else:
        np.testing.assert_array_max_ulp(got, want, maxulp=1)
