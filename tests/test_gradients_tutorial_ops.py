"""Property tests for the ops that tutorials use beside the basic ones (issue 8).

Each gradient is checked against central finite differences with the helpers of
``test_gradients_property.py``: norm, prod, cumsum, cumprod, amax/amin, gather, masked_fill, repeat,
the parts of split/chunk/narrow, bmm, square, leaky_relu and the smooth L1 / Huber losses.
Non-smooth ops are tested away from their kinks and ties (``distinct`` values).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from test_gradients_property import NONEMPTY, SETTINGS, away_from, check_gradients, distinct, values

import minigrad

F = minigrad.nn.functional


def _dim(shape: tuple, data) -> int:
    return data.draw(st.integers(-len(shape), len(shape) - 1))


REDUCTIONS = {
    "norm": lambda x, d, k: x.norm(),
    "norm_dim": lambda x, d, k: x.norm(dim=d, keepdim=k),
    "vector_norm_1": lambda x, d, k: minigrad.linalg.vector_norm(x, 1, dim=d, keepdim=k),
    "vector_norm_3": lambda x, d, k: minigrad.linalg.vector_norm(x, 3),
    "vector_norm_inf": lambda x, d, k: minigrad.linalg.vector_norm(x, float("inf"), d, k),
    "prod": lambda x, d, k: x.prod(),
    "prod_dim": lambda x, d, k: x.prod(d, keepdim=k),
    "cumsum": lambda x, d, k: x.cumsum(d),
    "cumprod": lambda x, d, k: x.cumprod(d),
    "amax": lambda x, d, k: x.amax(d, keepdim=k),
    "amin_all": lambda x, d, k: minigrad.amin(x),
}


@pytest.mark.parametrize("name", sorted(REDUCTIONS))
@SETTINGS
@given(data=st.data(), shape=NONEMPTY, keepdim=st.booleans())
def test_reductions_and_scans(name, data, shape, keepdim) -> None:
    d = _dim(shape, data)
    if name.startswith(("amax", "amin", "vector_norm_inf", "vector_norm_1")):
        # a unique winner, also in absolute value, and no zero (the kinks)
        x = data.draw(distinct(shape)) + 0.07
    else:  # away from 0, where the norm has its kink
        x = data.draw(hnp.arrays(np.float64, shape, elements=away_from(-2, 2, 0.0, margin=0.1)))
    check_gradients(lambda t: REDUCTIONS[name](t, d, keepdim), x)


def test_prod_with_zeros_is_the_product_of_the_others() -> None:
    for x in ([[2.0, 0.0], [3.0, 4.0]], [[0.0, 0.0], [3.0, 4.0]]):
        check_gradients(lambda t: t.prod(), np.array(x))
        check_gradients(lambda t: t.prod(1), np.array(x))


@SETTINGS
@given(data=st.data(), shape=NONEMPTY)
def test_cumprod_through_zeros(data, shape) -> None:
    """cumprod's gradient is a polynomial: exact through zeros (one, two, anywhere), where
    PyTorch's formula leaves division for masks (outside create_graph) or omitted products."""
    d = _dim(shape, data)
    x = data.draw(hnp.arrays(np.float64, shape, elements=st.sampled_from([0.0, -1.5, 0.5, 2.0])))
    check_gradients(lambda t: t.cumprod(d), x)
    t = minigrad.tensor(x, requires_grad=True)
    assert minigrad.autograd.gradgradcheck(lambda t: t.cumprod(d), (t,))
    assert minigrad.autograd.gradgradcheck(lambda t: t.prod(d), (t,))
    assert minigrad.autograd.gradgradcheck(lambda t: t.prod(), (t,))


SHAPED = {
    "gather": lambda x: x.gather(
        0, minigrad.tensor(np.zeros((2,) + tuple(x.shape[1:]), dtype=np.int64))
    ),
    "masked_fill": lambda x: x.masked_fill(x > 0.5, -1.0),
    "repeat": lambda x: x.repeat(*([2] * (x.ndim + 1))),
    "chunk": lambda x: x.chunk(2, -1)[-1],
    "split_sizes": lambda x: x.split([1, x.shape[0] - 1])[0],
    "narrow": lambda x: x.narrow(0, 0, 1),
    "square": lambda x: x.square(),
    "tril": lambda x: x.unsqueeze(0).unsqueeze(0).tril(1) * 2,
    "triu": lambda x: minigrad.triu(x.unsqueeze(0).unsqueeze(0), -1),
    # type_as, and constants made by new_* (leaves that need no grad: x's gradient only)
    "type_as_new": lambda x: (
        x.type_as(x.new_zeros(1)) * x.new_full(tuple(x.shape), 1.5) + x.new_tensor(0.25)
    ),
    "leaky_relu": lambda x: F.leaky_relu(x, 0.2),
    "smooth_l1_loss": lambda x: F.smooth_l1_loss(x, minigrad.zeros(x.shape, dtype=x.dtype)),
    "huber_loss": lambda x: F.huber_loss(x, minigrad.ones(x.shape, dtype=x.dtype), delta=0.7),
}


@pytest.mark.parametrize("name", sorted(SHAPED))
@SETTINGS
@given(data=st.data(), shape=NONEMPTY)
def test_selection_and_activation_ops(name, data, shape) -> None:
    kinks = {"masked_fill": (0.5,), "leaky_relu": (0.0,), "smooth_l1_loss": (-1.0, 1.0)}
    kinks["huber_loss"] = (0.3, 1.7)
    x = data.draw(hnp.arrays(np.float64, shape, elements=away_from(-2, 2, *kinks.get(name, ()))))
    check_gradients(SHAPED[name], x)


def test_masked_fill_with_a_tensor_value() -> None:
    mask = minigrad.tensor([[True, False], [False, True]])
    check_gradients(lambda x, v: x.masked_fill(mask, v), np.ones((2, 2)) * 0.3, np.array(2.0))


@SETTINGS
@given(data=st.data(), b=st.integers(1, 3), n=st.integers(1, 3), m=st.integers(1, 3))
def test_bmm(data, b, n, m) -> None:
    check_gradients(minigrad.bmm, data.draw(values((b, n, m))), data.draw(values((b, m, 2))))


SECOND_ORDER = {
    "cumsum": lambda x: x.cumsum(0) ** 2,
    "cumprod": lambda x: x.cumprod(1) ** 2,
    "gather": lambda x: x.gather(1, minigrad.tensor([[1, 1], [0, 1]])) ** 3,
    "norm": lambda x: x.norm() ** 3,
    "vector_norm_3": lambda x: minigrad.linalg.vector_norm(x, 3, dim=1),
    "amax": lambda x: x.amax(0) ** 2,
    "prod": lambda x: x.prod(1),
    "repeat": lambda x: x.repeat(2, 1) ** 2,
    "masked_fill": lambda x: x.masked_fill(x > 1.5, 0.0) ** 2,
    "bmm": lambda x: minigrad.bmm(x.unsqueeze(0), x.t().unsqueeze(0)),
    "leaky_relu": lambda x: F.leaky_relu(x, 0.1) ** 2,
    "smooth_l1": lambda x: F.smooth_l1_loss(x**2, minigrad.ones(2, 2, dtype=x.dtype)),
    "huber": lambda x: F.huber_loss(x**2, minigrad.ones(2, 2, dtype=x.dtype), delta=2.0),
}


@pytest.mark.parametrize("name", sorted(SECOND_ORDER))
def test_second_derivatives(name) -> None:
    """create_graph=True through the new ops: gradgradcheck against finite differences."""
    x = minigrad.tensor([[1.0, -2.0], [3.0, 0.5]], dtype=minigrad.float64, requires_grad=True)
    assert minigrad.autograd.gradgradcheck(SECOND_ORDER[name], (x,))
