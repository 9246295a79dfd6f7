"""Parity with PyTorch for the graph and the autograd engine (issue 8, from the bottom up).

The snippets of ``parity_graph_autograd.GRAPH_AUTOGRAD`` run with ``T = torch`` and
``T = minigrad`` through ``parity_snippets``' harness and must record the same values, graphs,
warnings and exceptions.
"""

from __future__ import annotations

import pytest
from parity_graph_autograd import GRAPH_AUTOGRAD
from parity_snippets import run, same
from test_parity import _explain

import minigrad

pytestmark = pytest.mark.parity


@pytest.mark.parametrize("name", sorted(GRAPH_AUTOGRAD))
def test_graph_and_autograd_match_pytorch(torch, name: str) -> None:
    code = GRAPH_AUTOGRAD[name]
    expected = run(torch, code)
    got = run(minigrad, code)
    assert len(got) == len(expected) and all(
        same(x, y) for x, y in zip(got, expected, strict=True)
    ), f"{name}: {_explain(expected, got)}"
