"""SLEEF's float64 exp, its float32/float64 log, and the exact fused multiply-add they need
(``minigrad/ops/sleef_double``, ``sleef_log``, ``_fma``).

The fused multiply-add is checked against exact rational arithmetic; ``exp`` against PyTorch's
own kernel, seen through softmax: softmax of (0, d) with d below -37 is (1, exp(d)) exactly,
since 1 + exp(d) rounds to 1, so the second output is the kernel's exp bit for bit.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from minigrad.ops import _fma, sleef_double, sleef_log

# compares last bits with PyTorch's AVX-512 kernels (minigrad/ops/_cpu_vectors.py)
pytestmark = pytest.mark.bit_exact

finite = st.floats(allow_nan=False, allow_infinity=False, min_value=-1e150, max_value=1e150)

#: _fma is exact while the product neither overflows nor underflows (its docstring): Dekker's
#: product error of a * b is a multiple of 2**(ea + eb - 104), a double only from 2**-1074 on,
#: so |a|, |b| >= 2**-485 (or 0). Below, fma(5e-324, 1.5, 5e-324) gives 1.5e-323, exact 1e-323.
SMALLEST_FACTOR = 2.0**-485
factors = st.one_of(
    st.just(0.0),
    st.floats(min_value=SMALLEST_FACTOR, max_value=1e150),
    st.floats(min_value=-1e150, max_value=-SMALLEST_FACTOR),
)


@settings(max_examples=300, deadline=None)
@given(factors, factors, finite, st.integers(-60, 60))
@example(SMALLEST_FACTOR * (1 + 2**-52), SMALLEST_FACTOR * (1 + 2**-51), -(2.0**-970), 0)
@example(SMALLEST_FACTOR, -SMALLEST_FACTOR * 1.5, 5e-324, 0)  # the limit, a subnormal c
def test_fma_is_rounded_once(a, b, c, shift):
    c = c * 2.0**shift if abs(c) < 1e100 else c
    want = float(Fraction(a) * Fraction(b) + Fraction(c))
    assert sleef_double.fma(np.float64(a), np.float64(b), np.float64(c)) == want


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_fma_where_the_sum_cancels(seed):
    # c close to -a*b: the result is the product's rounding error, the hard case
    rng = np.random.default_rng(seed)
    a, b = rng.standard_normal(64), rng.standard_normal(64)
    c = -(a * b) * (1 + rng.standard_normal(64) * 2.0**-40)
    got = sleef_double.fma(a, b, c)
    want = [float(Fraction(x) * Fraction(y) + Fraction(z)) for x, y, z in zip(a, b, c)]
    np.testing.assert_array_equal(got, want)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(-745, -37, allow_nan=False), min_size=1, max_size=40))
def test_exp_is_pytorchs(torch, values):
    d = np.asarray(values, dtype=np.float64)
    pairs = np.stack([np.zeros_like(d), d], 1)
    want = torch.softmax(torch.from_numpy(pairs), 1).numpy()[:, 1]
    np.testing.assert_array_equal(sleef_double.exp(d), want)


def test_exp_special_values():
    x = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 709.7, 709.8, -1000.5, 1.0])
    got = sleef_double.exp(x)
    assert got[0] == 1 and got[1] == 1 and got[2] == np.inf and got[3] == 0
    assert np.isnan(got[4]) and np.isfinite(got[5]) and got[6] == np.inf and got[7] == 0
    assert abs(got[8] - np.e) <= np.spacing(np.e)


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from([np.float32, np.float64]),
    st.lists(st.floats(1, 5000, allow_nan=False), min_size=1, max_size=10),
)
def test_log_is_pytorchs(torch, dtype, sums):
    # log_softmax of n zeros is 0 - 0 - log(n): SLEEF's log of the exact sum n, seen directly
    # (other sums are checked through log_softmax's rows in test_softmax_rounding.py)
    for n in np.unique(np.asarray(sums, dtype=np.int64)):
        zeros = torch.zeros(int(n), dtype=getattr(torch, dtype.__name__))
        want = -torch.log_softmax(zeros, 0)[0].item()
        assert sleef_log.log(np.asarray([n], dtype))[0] == dtype(want)


def test_log_special_values():
    for dtype in (np.float32, np.float64):
        x = np.array([0.0, -0.0, -1.0, np.inf, np.nan, 1.0, 1e-40], dtype)
        got = sleef_log.log(x)
        assert got[0] == -np.inf and got[1] == -np.inf and np.isnan(got[2]) and got[3] == np.inf
        assert np.isnan(got[4]) and got[5] == 0 and abs(got[6] - np.log(np.float64(x[6]))) < 1e-5


def test_fma_keeps_the_sign_of_zero():
    for dtype in (np.float32, np.float64):
        a, b, c = (
            np.array(v, dtype)
            for v in ([-1.0, 1.0, -0.0, 2.0], [0.0, 0.0, 1.0, 3.0], [-0.0, -0.0, -0.0, -6.0])
        )
        got = _fma.fma(a, b, c)
        np.testing.assert_array_equal(np.signbit(got), [True, False, True, False])
        assert got.dtype == dtype
