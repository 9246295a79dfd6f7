"""Parity with PyTorch for multi-output nodes (issue 8): ``parity_multi_output.MULTI_OUTPUT``.

Each snippet runs with ``T = torch`` and ``T = minigrad`` through ``parity_snippets``' harness
and must record the same values, graphs (with each edge's output number), warnings and
exceptions.
"""

from __future__ import annotations

import pytest
from parity_multi_output import MULTI_OUTPUT
from parity_snippets import run, same
from test_parity import _explain

import minigrad

pytestmark = pytest.mark.parity


@pytest.mark.parametrize("name", sorted(MULTI_OUTPUT))
def test_multi_output_matches_pytorch(torch, name: str) -> None:
    code = MULTI_OUTPUT[name]
    expected = run(torch, code)
    got = run(minigrad, code)
    assert len(got) == len(expected) and all(
        same(x, y) for x, y in zip(got, expected, strict=True)
    ), f"{name}: {_explain(expected, got)}"
