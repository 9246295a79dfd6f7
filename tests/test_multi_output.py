"""Multi-output nodes (``unbind``, ``split``, ``chunk``): gradients and second derivatives.

Property tests with Hypothesis: some outputs used (one of them twice), others not at all,
each with its own weight; the gradient must match central differences and the second
derivatives ``gradgradcheck``. The engine must run the node once per pass, whichever of its
outputs the gradients come through.
"""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from test_gradients_property import check_gradients

import minigrad
from minigrad.autograd import gradgradcheck

SETTINGS = settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
SHAPES = hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=3)


def parts_used(parts: tuple, picks: list[int]):
    """A loss-like combination of some parts: part k weighted by k + 1, the first one twice."""
    total = 0
    for j, k in enumerate(picks):
        p = parts[k % len(parts)]
        total = total + ((p * (k + 1)) * (p if j == 0 else 1.0)).sum()  # parts differ in shape
    return total


def multi(kind: str, dim: int, size: int, picks: list[int]):
    def f(x):
        d = dim % x.ndim
        if kind == "unbind":
            parts = x.unbind(d)
        elif kind == "split":
            parts = x.split(size, d)
        elif kind == "chunk":
            parts = x.chunk(size, d)
        else:
            n = x.shape[d]
            parts = x.split([min(size, n), n - min(size, n)], d)
        return parts_used(parts, picks)

    return f


CASES = dict(
    kind=st.sampled_from(["unbind", "split", "chunk", "split_with_sizes"]),
    dim=st.integers(-3, 2),
    size=st.integers(1, 3),
    picks=st.lists(st.integers(0, 3), min_size=1, max_size=3),
)


@SETTINGS
@given(data=st.data(), shape=SHAPES, **CASES)
def test_gradients_of_some_outputs(data, shape, kind, dim, size, picks) -> None:
    x = data.draw(hnp.arrays(np.float64, shape, elements=st.floats(-2, 2)))
    check_gradients(multi(kind, dim, size, picks), x)


@SETTINGS
@given(data=st.data(), shape=SHAPES, **CASES)
def test_second_derivatives_of_some_outputs(data, shape, kind, dim, size, picks) -> None:
    x = data.draw(hnp.arrays(np.float64, shape, elements=st.floats(-2, 2)))
    inputs = [minigrad.tensor(x, requires_grad=True)]
    assert gradgradcheck(multi(kind, dim, size, picks), inputs, atol=1e-5, rtol=1e-3)


def test_the_node_runs_once_and_each_output_has_its_own_buffer() -> None:
    x = minigrad.arange(6.0).reshape(3, 2).requires_grad_()
    a, b, c = x.unbind()
    seen = []
    a.grad_fn.register_prehook(lambda grads: seen.append(grads))
    loss = (a * 2).sum() + (a * 3).sum() + (c * c).sum()
    loss.backward()
    (grads,) = seen  # one call: the node ran once
    assert grads[0].tolist() == [5.0, 5.0]  # both uses of a added up in a's buffer
    assert grads[1] is None
    assert grads[2].tolist() == (2 * c).tolist()
    assert x.grad.tolist() == [[5.0, 5.0], [0.0, 0.0], [8.0, 10.0]]
