"""sinh, cosh, expm1, exp2, sigmoid give PyTorch's bits (SLEEF's blocks, the C library's tails).

``minigrad/ops/sleef_float.py`` and ``sleef_double.py`` redo SLEEF's functions,
``libm_float.py`` glibc's float ones (float64 uses Python's ``math``, which is glibc), and
``cpu_loop_split.py`` which elements PyTorch gives to which. Compared bit for bit against a
live torch on drawn float32 and float64 tensors: sizes around the blocks (32 floats, 16
doubles), contiguous, transposed, strided, expanded and 3-D (sliced, expanded, permuted)
layouts, special values (0, -0., inf, nan, the overflow and underflow edges, huge arguments).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad as mg

# compares last bits with PyTorch's AVX-512 kernels (minigrad/ops/_cpu_vectors.py)
pytestmark = pytest.mark.bit_exact

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
    layout = draw(
        st.sampled_from(
            [
                "flat",
                "strided",
                "transposed",
                "sliced rows",
                "expanded",
                "expanded rows",
                "3-D sliced",
                "3-D expanded",
                "expanded permuted",
            ]
        )
    )
    return x.astype(dtype), n, layout


def _view(T, x, n, layout):
    t = T.tensor(x)
    if layout == "flat":
        return t[:n]
    if layout == "strided":
        return t[: 2 * n : 2]
    if layout == "transposed":
        return t[: n - n % 3].reshape(-1, 3).t()
    if layout == "expanded":  # each row repeated: runs along the last dim, read with stride 0
        return t[:n].reshape(n, 1).expand(n, 3)
    if layout == "expanded rows":
        return t[:n].reshape(1, n).expand(3, n)
    # TensorIterator merges the inner dims that follow on in memory into one run
    if layout == "3-D sliced":  # (2, 2, m) of (2, 3, m): each matrix's 2m elements one run
        m = n // 3
        return t[: 6 * m].reshape(2, 3, m)[:, 1:]
    if layout == "3-D expanded":  # (3, 2, m) repeating one (2, m) matrix: runs of 2m
        m = n // 2
        return t[: 2 * m].reshape(1, 2, m).expand(3, 2, m)
    if layout == "expanded permuted":
        m = n // 2
        return t[: 2 * m].reshape(1, 2, m).expand(3, 2, m).permute(2, 0, 1)
    return t[: 2 * n].reshape(2, n)[:, : max(n - 1, 0)]


def _assert_same(got: np.ndarray, want: np.ndarray) -> None:
    """Equal values, zeros' signs too; nan in the same places (SLEEF's nan has its own bits)."""
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(
        np.signbit(got) | np.isnan(got), np.signbit(want) | np.isnan(want)
    )


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(OPS), st.sampled_from([np.float32, np.float64]).flatmap(tensors))
def test_is_pytorchs_bits(torch, op, case):
    x, n, layout = case
    want = getattr(torch, op)(_view(torch, x, n, layout)).numpy()
    got = getattr(mg, op)(_view(mg, x, n, layout)).numpy()
    _assert_same(got, want)
