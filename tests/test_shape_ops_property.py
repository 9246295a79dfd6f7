"""Gradient checks (Hypothesis against central differences) of logsumexp, flip, roll, mT,
sort, topk, clamp_min/clamp_max and squeeze with a tuple of dims; first and second
derivatives with ``gradcheck``/``gradgradcheck``; and the tie orders of sort and topk
against a plain definition (a stable sort must keep equal values in their order)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from test_gradients_property import NONEMPTY, SETTINGS, _dims, check_gradients, distinct, values

import minigrad
from minigrad.autograd import gradcheck, gradgradcheck

OPS = {
    "logsumexp": lambda x, d: x.logsumexp(d),
    "logsumexp_keepdim": lambda x, d: minigrad.logsumexp(x, d, keepdim=True),
    "logsumexp_all": lambda x, d: x.logsumexp(tuple(range(x.ndim))),
    "flip": lambda x, d: x.flip(d),
    "flip_all": lambda x, d: minigrad.flip(x, tuple(range(x.ndim))),
    "roll": lambda x, d: x.roll(2, d),
    "roll_flat": lambda x, d: x.roll(-1),
    "roll_two_dims": lambda x, d: x.roll((1, -1), (d, 0)),
    "mT": lambda x, d: x.unsqueeze(0).mT,
    "squeeze_dims": lambda x, d: x.unsqueeze(d).unsqueeze(0).squeeze((0, d + 1 if d >= 0 else d)),
    "clamp_min": lambda x, d: x.clamp_min(0.05),
    "clamp_max": lambda x, d: minigrad.clamp_max(x, 0.05),
}
ORDERED = {  # need distinct values: the order must not change within eps
    "sort": lambda x, d: x.sort(d).values,
    "sort_descending_stable": lambda x, d: x.sort(dim=d, descending=True, stable=True)[0],
    "topk": lambda x, d: x.topk(1, d).values,
    "topk_smallest": lambda x, d: minigrad.topk(x, x.shape[d], d, largest=False)[0],
    "msort": lambda x, d: x.msort(),
}


@pytest.mark.parametrize("name", sorted(OPS))
@SETTINGS
@given(data=st.data(), shape=NONEMPTY)
def test_gradients(name, data, shape) -> None:
    d = _dims(shape, data)
    x = data.draw(values(shape))
    if name.startswith("clamp"):
        assume(np.all(np.abs(x - 0.05) > 1e-3))
    f = OPS[name]
    check_gradients(lambda t: f(t, d) * 1.5 + f(t, d) ** 2, x)  # x used twice


@pytest.mark.parametrize("name", sorted(ORDERED))
@SETTINGS
@given(data=st.data(), shape=NONEMPTY)
def test_gradients_of_orderings(name, data, shape) -> None:
    d = _dims(shape, data)
    x = data.draw(distinct(shape))
    check_gradients(lambda t: ORDERED[name](t, d) ** 2, x)


@SETTINGS
@given(data=st.data(), shape=NONEMPTY)
def test_clamp_by_tensor_bounds(data, shape) -> None:
    x = data.draw(values(shape))
    lo = data.draw(values(shape[-1:]))
    assume(np.all(np.abs(x - lo) > 1e-3))
    check_gradients(lambda a, b: minigrad.clamp_min(a, b) * 2, x, lo)
    check_gradients(lambda a, b: a.clamp_max(b) * 2, x, lo)


@pytest.mark.parametrize("name", sorted(OPS) + sorted(ORDERED))
def test_second_derivatives(name) -> None:
    x = minigrad.tensor(
        np.array([[0.3, -1.2, 2.0], [0.7, -0.4, 1.1]]), dtype=minigrad.float64, requires_grad=True
    )
    f = OPS.get(name) or ORDERED[name]
    assert gradcheck(lambda t: f(t, 1) * t.sum(), (x,))
    assert gradgradcheck(lambda t: f(t, 1) * t.sum(), (x,))


@SETTINGS
@given(keys=st.lists(st.integers(0, 3), min_size=0, max_size=40), descending=st.booleans())
def test_stable_sort_keeps_equal_values_in_order(keys, descending) -> None:
    x = minigrad.tensor(keys)
    got = x.sort(stable=True, descending=descending).indices.tolist()
    want = sorted(range(len(keys)), key=lambda i: -keys[i] if descending else keys[i])
    assert got == want
    assert x.argsort(stable=True, descending=descending).tolist() == want
    # the default sort may order ties otherwise, but it is a sort, and its indices a permutation
    values, indices = x.sort(descending=descending)
    assert sorted(indices.tolist()) == list(range(len(keys)))
    assert values.tolist() == sorted(keys, reverse=descending)
    assert [keys[i] for i in indices.tolist()] == values.tolist()


@SETTINGS
@given(keys=st.lists(st.integers(0, 3), min_size=1, max_size=200), data=st.data())
def test_topk_picks_the_k_largest(keys, data) -> None:
    k = data.draw(st.integers(0, len(keys)))
    largest, ordered = data.draw(st.booleans()), data.draw(st.booleans())
    values, indices = minigrad.tensor(keys).topk(k, largest=largest, sorted=ordered)
    assert sorted(values.tolist()) == sorted(sorted(keys, reverse=largest)[:k])
    assert len(set(indices.tolist())) == k
    assert [keys[i] for i in indices.tolist()] == values.tolist()
    if ordered:
        assert values.tolist() == sorted(values.tolist(), reverse=largest)
