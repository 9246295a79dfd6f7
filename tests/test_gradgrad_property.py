"""Property tests: every differentiable op's second derivatives equal finite differences.

The same ops, value ranges and broadcastable shapes as ``test_gradients_property.py`` (its
tables are reused), checked with ``gradgradcheck`` in float64: the gradients computed with
``create_graph=True`` for random ``grad_outputs`` are themselves differentiated and compared
with central differences, as functions of the inputs and of ``grad_outputs``. Inputs are also
used twice. Non-smooth ops are tested away from their kinks, as there.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from test_gradients_property import (
    BINARY,
    EXTREMES,
    REDUCTIONS,
    SCALAR,
    SHAPE_OPS,
    UNARY,
    _dims,
    distinct,
    values,
)

import minigrad
from minigrad.autograd import gradgradcheck

SETTINGS = settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
BROADCAST = hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=2, max_side=3)
SHAPES = hnp.array_shapes(min_dims=0, max_dims=2, max_side=3)
NONEMPTY = hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=2)


def check(f, *arrays: np.ndarray) -> None:
    inputs = [minigrad.tensor(a, dtype=minigrad.float64, requires_grad=True) for a in arrays]
    assert gradgradcheck(f, inputs, atol=1e-5, rtol=1e-3)


@pytest.mark.parametrize("name", sorted(BINARY))
@SETTINGS
@given(data=st.data(), shapes=BROADCAST)
def test_binary_ops_with_broadcasting(name, data, shapes) -> None:
    f, elements = BINARY[name]
    sa, sb = shapes.input_shapes
    a = data.draw(hnp.arrays(np.float64, sa, elements=elements.get("a", st.floats(-2, 2))))
    b = data.draw(hnp.arrays(np.float64, sb, elements=elements.get("b", st.floats(-2, 2))))
    if name in ("maximum", "minimum", "where", "clamp_tensor_bounds"):
        assume(np.all(np.abs(np.subtract(a, b)) > 1e-2))
    if name == "pow":
        assume(np.all(np.abs(b) > 1e-2))  # b == 0: the gradient of a is 0 by convention
    if name == "remainder":
        fraction = np.divide(a, b) % 1
        assume(np.all((fraction > 1e-2) & (fraction < 1 - 1e-2)))
    check(f, a, b)


@pytest.mark.parametrize("name", sorted(BINARY))
@SETTINGS
@given(data=st.data(), shape=SHAPES)
def test_binary_ops_with_a_tensor_used_twice(name, data, shape) -> None:
    f, _ = BINARY[name]
    ties = name in ("maximum", "minimum", "where", "clamp_tensor_bounds")
    low = 0.3 if name in ("pow", "div", "remainder") else -2.0
    x = data.draw(values(shape, low, 2.0))
    if ties:
        assume(np.all(np.abs(x - (x * 0.5 + 0.75)) > 1e-2))
    if name == "remainder":
        assume(np.all(np.abs(x) > 0.3))
    check((lambda t: f(t, t * 0.5 + 0.75)) if ties else (lambda t: f(t, t)), x)


@pytest.mark.parametrize("name", sorted(SCALAR))
@SETTINGS
@given(data=st.data(), shape=SHAPES)
def test_ops_with_a_number(name, data, shape) -> None:
    f, (low, high) = SCALAR[name]
    check(f, data.draw(values(shape, low, high)))


@pytest.mark.parametrize("name", sorted(UNARY))
@SETTINGS
@given(data=st.data(), shape=SHAPES)
def test_elementwise_functions_times_their_input(name, data, shape) -> None:
    f, elements = UNARY[name]
    check(lambda x: x * f(x), data.draw(hnp.arrays(np.float64, shape, elements=elements)))


@pytest.mark.parametrize("name", sorted(REDUCTIONS))
@SETTINGS
@given(data=st.data(), shape=NONEMPTY, keepdim=st.booleans())
def test_reductions(name, data, shape, keepdim) -> None:
    d = _dims(shape, data)
    x = data.draw(values(shape))
    if name.startswith(("var", "std")):
        n = shape[d] if name.endswith("_dim") else x.size
        assume(n >= 2)
        assume(np.all(np.std(x, axis=d if name.endswith("_dim") else None) > 0.1))
    check(lambda t: REDUCTIONS[name](t, d, keepdim) * t.sum(), x)  # x used twice


@pytest.mark.parametrize("name", sorted(EXTREMES))
@SETTINGS
@given(data=st.data(), shape=NONEMPTY, keepdim=st.booleans())
def test_max_and_min(name, data, shape, keepdim) -> None:
    d = _dims(shape, data)
    check(lambda t: EXTREMES[name](t, d, keepdim) ** 2, data.draw(distinct(shape)))


@SETTINGS
@given(
    data=st.data(),
    n=st.integers(1, 3),
    k=st.integers(1, 3),
    m=st.integers(1, 2),
    batch=hnp.array_shapes(min_dims=0, max_dims=2, max_side=2),
)
def test_matmul_at_every_rank(data, n, k, m, batch) -> None:
    a = data.draw(values((n, k)))
    b = data.draw(values((k, m)))
    v = data.draw(values((k,)))
    bias = data.draw(values((m,)))
    check(lambda x, y: x @ y, a, b)
    check(lambda x, y: x @ y, a, v)
    check(lambda x, y: x @ y, v, b)
    check(lambda x, y: x.dot(y), v, v * 0.5 + 1)
    check(lambda c, x, y: minigrad.addmm(c, x, y), bias, a, b)
    check(lambda x: x @ x.t(), a)
    check(lambda x, y: x @ y, data.draw(values(batch + (n, k))), b)
    check(lambda x, y: x @ y, v, data.draw(values(batch + (k, m))))


@pytest.mark.parametrize("name", sorted(SHAPE_OPS))
@SETTINGS
@given(data=st.data(), shape=NONEMPTY)
def test_shape_and_indexing_ops(name, data, shape) -> None:
    f = SHAPE_OPS[name]
    x = data.draw(values(shape))
    if name == "mask":
        assume(np.all(np.abs(x) > 1e-2))
    check(lambda t: f(t) * 1.5 + f(t) ** 2, x)


@SETTINGS
@given(data=st.data(), shape=NONEMPTY)
def test_setitem_and_inplace_through_a_view(data, shape) -> None:
    x = data.draw(values(shape, 0.3, 2.0))
    v = data.draw(values(shape[1:]))

    def setitem(a, b):
        y = a * 1.5
        y[0] = b * b
        return y * a

    def inplace_through_view(a):
        y = a * 2
        view = y[0]
        view.mul_(a[0])
        y.add_(a)
        y.div_(a + 1)
        return y * y

    check(setitem, x, v)
    check(inplace_through_view, x)


F = minigrad.nn.functional
LOSSES = {
    "mse": lambda x, t: F.mse_loss(x, t),
    "mse_sum": lambda x, t: F.mse_loss(x * x, t, reduction="sum"),
    "mse_none": lambda x, t: F.mse_loss(x, t, reduction="none"),
    "cross_entropy": lambda x, t: F.cross_entropy(x * x, minigrad.tensor([0, 2, 1])[: len(x)]),
    "nll_none": lambda x, t: F.nll_loss(
        x.log_softmax(1), minigrad.tensor([1, 0, 2])[: len(x)], reduction="none"
    ),
    "bce": lambda x, t: F.binary_cross_entropy(x.sigmoid(), t.sigmoid()),
    "bce_logits": lambda x, t: F.binary_cross_entropy_with_logits(x * x, t.sigmoid()),
    "bce_weight_none": lambda x, t: F.binary_cross_entropy(
        x.sigmoid(), t.sigmoid(), weight=minigrad.tensor([0.5, 2.0, 1.5]), reduction="none"
    ),
    "bce_logits_pos_weight": lambda x, t: F.binary_cross_entropy_with_logits(
        x,
        t.sigmoid(),
        weight=minigrad.tensor([0.5, 2.0, 1.5]),
        pos_weight=minigrad.tensor([3.0, 0.5, 1.0]),
        reduction="sum",
    ),
}


@pytest.mark.parametrize("name", sorted(LOSSES))
@SETTINGS
@given(data=st.data(), n=st.integers(1, 3))
def test_losses(name, data, n) -> None:
    check(LOSSES[name], data.draw(values((n, 3))), data.draw(values((n, 3))))
