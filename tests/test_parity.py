"""Parity with real PyTorch: the same snippet, run with ``T = torch`` and ``T = minigrad``.

Every snippet in ``parity_snippets.SNIPPETS`` must give the same printed text, dtypes, shapes,
grad_fn names, graph structure, gradient values, warnings and exceptions (type and message), with
``torch.`` read as ``minigrad.``. The tests skip on a machine without torch and fail in CI
(``MINIGRAD_REQUIRE_ALL=1``), through the ``torch`` fixture of ``conftest.py``.
"""

from __future__ import annotations

import pprint

import pytest
from parity_snippets import SNIPPETS, Recorder, normalise, run, same

import minigrad

pytestmark = pytest.mark.parity


def _explain(a: list, b: list) -> str:
    for i in range(max(len(a), len(b))):
        x = a[i] if i < len(a) else "<nothing>"
        y = b[i] if i < len(b) else "<nothing>"
        if not same(x, y):
            return (
                f"first difference at item {i}:\n  torch:    {pprint.pformat(x)}\n"
                f"  minigrad: {pprint.pformat(y)}"
            )
    return "no difference"


@pytest.mark.parametrize("name", sorted(SNIPPETS))
def test_snippet_matches_pytorch(torch, name: str) -> None:
    code = SNIPPETS[name]
    expected = run(torch, code)
    got = run(minigrad, code)
    assert len(got) == len(expected) and all(
        same(x, y) for x, y in zip(got, expected, strict=True)
    ), f"{name}: {_explain(expected, got)}"


# -- the harness itself must be able to fail ---------------------------------------------------


def test_harness_sees_a_different_value() -> None:
    a = run(minigrad, "show(T.tensor([1., 2.]))")
    b = run(minigrad, "show(T.tensor([1., 2.5]))")
    assert not all(same(x, y) for x, y in zip(a, b, strict=True))


def test_harness_sees_a_different_grad_fn_and_graph() -> None:
    a = run(minigrad, "x = T.ones(2, requires_grad=True); y = (x * x).sum(); show(y); graph(y)")
    b = run(minigrad, "x = T.ones(2, requires_grad=True); y = (x * 1).sum(); show(y); graph(y)")
    c = run(minigrad, "x = T.ones(2, requires_grad=True); y = (x * x).sum(); show(y); graph(y)")
    assert same(a, c)
    assert not same(a, b)  # x * x reaches the same AccumulateGrad twice, x * 1 once
    assert a[1][1] != b[1][1]


def test_harness_sees_a_different_exception_and_warning() -> None:
    a = run(minigrad, "T.ones(2) + T.ones(3)")
    b = run(minigrad, "T.ones(2) + T.ones(4)")
    assert a[0][:2] == ("raises", "RuntimeError")
    assert not same(a, b)
    w = run(minigrad, "x = T.ones(2, requires_grad=True); y = x * 2; y.grad")
    assert w and w[-1][:2] == ("warning", "UserWarning")


def test_harness_restores_grad_mode_after_a_failing_snippet() -> None:
    run(minigrad, "T.set_grad_enabled(False); raise ValueError('boom')")
    assert minigrad.is_grad_enabled()


def test_normalise() -> None:
    assert normalise("<class 'torch.Tensor'> at 0x7f00ab") == "<class 'minigrad.Tensor'> at 0x?"
    assert normalise("torch::autograd::AccumulateGrad") == "minigrad::autograd::AccumulateGrad"
    assert normalise("x (Triggered internally at /a/b.cpp:12.)") == "x"


def test_graph_names_the_leaf() -> None:
    rec = Recorder(minigrad)
    x = minigrad.ones(2, requires_grad=True)
    rec.namespace["x"] = x
    rec.graph((x * x).sum())
    (_, entries) = rec.items[0]
    assert (2, "minigrad::autograd::AccumulateGrad", ("x",)) in entries
    assert (2, "seen", 2) in entries
