"""The vectorised ``std::sort`` and ``std::nth_element`` (``minigrad/ops/_cpp_sort_rows.py``)
give the order of the step-by-step ones (``_cpp_sort``) on rows full of ties, and torch's
``sort`` and ``topk`` indices.

Rows of up to 16 elements are an insertion sort in libstdc++ (stable), so the rows drawn here
are longer; few distinct keys make many ties, sorted and reversed rows exercise the
median-of-three, and one key throughout the most even partitions.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad
from minigrad.ops import _cpp_sort as cpp
from minigrad.ops._cpp_sort_rows import nth_element_rows, std_sort_rows


def _step_by_step(row) -> list[int]:
    pairs = [(int(r), i) for i, r in enumerate(row)]
    cpp.std_sort(pairs, 0, len(pairs), lambda x, y: x[0] < y[0])
    return [i for _, i in pairs]


@st.composite
def _rows(draw):
    n = draw(st.integers(1, 200))
    distinct = draw(st.integers(1, 12))
    rows = draw(st.integers(1, 3))
    seed = draw(st.integers(0, 2**32 - 1))
    keys = np.random.default_rng(seed).integers(0, distinct, size=(rows, n))
    shape = draw(st.sampled_from(("random", "sorted", "reversed", "one key")))
    if shape == "sorted":
        keys = np.sort(keys, axis=1)
    elif shape == "reversed":
        keys = -np.sort(keys, axis=1)
    elif shape == "one key":
        keys[:] = 7
    return keys


@settings(max_examples=60, deadline=None)
@given(_rows())
def test_rows_match_the_step_by_step_sort(keys) -> None:
    got = std_sort_rows(keys)
    assert [list(r) for r in got] == [_step_by_step(r) for r in keys]


def test_a_piece_out_of_depth_budget_takes_the_heapsort(monkeypatch) -> None:
    # A budget of 2 levels (libstdc++ gives 2 * lg n) sends most pieces to the heapsort,
    # in both implementations.
    monkeypatch.setattr(cpp, "_lg", lambda n: 1)
    keys = np.random.default_rng(3).integers(0, 6, size=(4, 300))
    keys[1] = np.sort(keys[1])
    assert [list(r) for r in std_sort_rows(keys)] == [_step_by_step(r) for r in keys]


@pytest.mark.parametrize("shape", [(5000,), (40, 300), (3, 17)])
@pytest.mark.parametrize("descending", [False, True])
def test_sort_with_ties_matches_pytorch(torch, shape, descending) -> None:
    values = np.random.default_rng(len(shape)).integers(0, 7, size=shape).astype(np.float32)
    values.reshape(-1)[::11] = -0.0  # -0. ties with 0.
    want = torch.from_numpy(values).sort(descending=descending).indices.numpy()
    got = minigrad.from_numpy(values).sort(descending=descending).indices.numpy()
    np.testing.assert_array_equal(got, want)


def _nth_step_by_step(row, nth: int) -> list[int]:
    pairs = [(int(r), i) for i, r in enumerate(row)]
    cpp.nth_element(pairs, 0, nth, len(pairs), lambda x, y: x[0] < y[0])
    return [i for _, i in pairs]


@settings(max_examples=60, deadline=None)
@given(_rows(), st.integers(0, 10**6))
def test_nth_element_rows_match_the_step_by_step_one(keys, pick) -> None:
    nth = pick % keys.shape[1]
    got = nth_element_rows(keys, nth)
    assert [list(r) for r in got] == [_nth_step_by_step(r, nth) for r in keys]


def test_nth_element_out_of_depth_budget_takes_the_heap_selection(monkeypatch) -> None:
    monkeypatch.setattr(cpp, "_lg", lambda n: 1)
    keys = np.random.default_rng(4).integers(0, 6, size=(4, 300))
    for nth in (0, 7, 150, 299):
        got = nth_element_rows(keys, nth)
        assert [list(r) for r in got] == [_nth_step_by_step(r, nth) for r in keys]


@pytest.mark.parametrize(("shape", "k"), [((600, 100), 10), ((60000,), 1000), ((40, 300), 20)])
@pytest.mark.parametrize("largest", [False, True])
def test_topk_with_ties_matches_pytorch(torch, shape, k, largest) -> None:
    values = np.random.default_rng(k).integers(0, 9, size=shape).astype(np.float32)
    for ordered in (True, False):
        want = torch.from_numpy(values).topk(k, largest=largest, sorted=ordered).indices
        got = minigrad.from_numpy(values).topk(k, largest=largest, sorted=ordered).indices
        np.testing.assert_array_equal(got.numpy(), want.numpy())
