"""Property tests for the elementwise ops added from the fuzzer's table (issue 8): rounding,
the relatives of exp and log, and the smooth activations (gelu, softplus, silu, elu).

Each gradient is checked against central finite differences (``check_gradients`` of
``test_gradients_property.py``), and each second derivative with ``gradgradcheck``, on random
float64 values (Hypothesis) in the op's domain, away from the kinks of the rounding ops and of
elu (0) and softplus (its threshold). The in-place forms are checked on a copy in the graph.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from test_gradients_property import SETTINGS, SHAPES, away_from, check_gradients

import minigrad
from minigrad.autograd import gradgradcheck

F = minigrad.nn.functional

_HALVES = [k / 2 for k in range(-6, 7)]  # the kinks of floor/ceil/trunc/frac (whole numbers)

OPS = {
    "floor": (lambda x: x.floor() * x, away_from(-3, 3, *_HALVES)),
    "ceil": (lambda x: minigrad.ceil(x) + x, away_from(-3, 3, *_HALVES)),
    "trunc": (lambda x: x.trunc() * x, away_from(-3, 3, *_HALVES)),
    "frac": (lambda x: x.frac(), away_from(-3, 3, *_HALVES)),
    "reciprocal": (lambda x: x.reciprocal(), away_from(-2, 2, 0.0, margin=0.3)),
    "rsqrt": (lambda x: minigrad.rsqrt(x), st.floats(0.2, 3)),
    "log1p": (lambda x: x.log1p(), st.floats(-0.8, 3)),
    "expm1": (lambda x: minigrad.expm1(x), st.floats(-2, 2)),
    "log2": (lambda x: x.log2(), st.floats(0.2, 3)),
    "log10": (lambda x: minigrad.log10(x), st.floats(0.2, 3)),
    "exp2": (lambda x: x.exp2(), st.floats(-2, 2)),
    "reciprocal_": (lambda x: (x * 1).reciprocal_(), away_from(-2, 2, 0.0, margin=0.3)),
    "rsqrt_": (lambda x: (x * 1).rsqrt_(), st.floats(0.2, 3)),
    "log1p_": (lambda x: (x + 0).log1p_() * x, st.floats(-0.8, 3)),
    "expm1_": (lambda x: (x * 1).expm1_(), st.floats(-2, 2)),
    "log2_": (lambda x: (x * 1).log2_(), st.floats(0.2, 3)),
    "exp2_": (lambda x: (x * 1).exp2_(), st.floats(-2, 2)),
    "sinh": (lambda x: x.sinh(), st.floats(-2, 2)),
    "cosh": (lambda x: minigrad.cosh(x), st.floats(-2, 2)),
    "gelu": (lambda x: F.gelu(x), st.floats(-4, 4)),
    "gelu_tanh": (lambda x: F.gelu(x, approximate="tanh"), st.floats(-4, 4)),
    "softplus": (lambda x: F.softplus(x), st.floats(-4, 4)),
    "softplus_beta": (lambda x: F.softplus(x, beta=2, threshold=3), away_from(-3, 3, 1.5)),
    "silu": (lambda x: F.silu(x), st.floats(-4, 4)),
    "silu_": (lambda x: F.silu(x * 1, inplace=True), st.floats(-4, 4)),
    "elu": (lambda x: F.elu(x), away_from(-3, 3, 0.0)),
    "elu_alpha": (lambda x: F.elu(x, alpha=0.5), away_from(-3, 3, 0.0)),
    "elu_": (lambda x: F.elu(x * 1, 0.5, inplace=True), away_from(-3, 3, 0.0)),
    "modules": (
        lambda x: minigrad.nn.Sequential(
            minigrad.nn.GELU(), minigrad.nn.SiLU(), minigrad.nn.ELU(), minigrad.nn.Softplus()
        )(x),
        away_from(-3, 3, 0.0),
    ),
}


@pytest.mark.parametrize("name", sorted(OPS))
@SETTINGS
@given(data=st.data(), shape=SHAPES)
def test_gradient(name, data, shape) -> None:
    f, elements = OPS[name]
    check_gradients(f, data.draw(hnp.arrays(np.float64, shape, elements=elements)))


@pytest.mark.parametrize("name", sorted(OPS))
@SETTINGS
@given(data=st.data(), shape=SHAPES)
def test_second_derivative(name, data, shape) -> None:
    f, elements = OPS[name]
    x = data.draw(hnp.arrays(np.float64, shape, elements=elements))
    inputs = [minigrad.tensor(x, dtype=minigrad.float64, requires_grad=True)]
    assert gradgradcheck(lambda t: f(t) * t, inputs, atol=1e-5, rtol=1e-3)
