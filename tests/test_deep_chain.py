"""A 100,000-op chain: backward walks it without recursion, and the graph can be freed.

Python's default recursion limit is 1000, so a recursive backward (or a recursive
destructor) would fail long before the end of this chain.
"""

from __future__ import annotations

import gc
import sys

import pytest

import minigrad

N = 100_000


def chain(x: minigrad.Tensor, n: int = N) -> minigrad.Tensor:
    y = x
    for _ in range(n):
        y = y * 1.0 + 0.5 / N  # two ops per step: y grows by 0.5 in total
    return y


@pytest.fixture(scope="module")
def recursion_limit_stays_default():
    assert sys.getrecursionlimit() <= 10_000  # nothing raised it for us
    yield


def test_backward_of_a_100000_op_chain(recursion_limit_stays_default) -> None:
    x = minigrad.tensor([1.0, 2.0], dtype=minigrad.float64, requires_grad=True)
    y = chain(x, N // 2)  # N // 2 steps of two ops: N ops
    assert y.tolist() == pytest.approx([1.25, 2.25])
    depth, node = 0, y.grad_fn
    while node is not None and node.next_functions:
        node = node.next_functions[0][0]
        depth += 1
    assert depth == N  # every op is a node of the graph
    y.sum().backward()
    assert x.grad.tolist() == [1.0, 1.0]


def test_retain_graph_grad_and_execution_order_on_a_deep_chain() -> None:
    n = N // 4
    x = minigrad.tensor(3.0, dtype=minigrad.float64, requires_grad=True)
    y = x
    for _ in range(n):
        y = y * 1.00001
    (g,) = minigrad.autograd.grad(y, x, retain_graph=True)
    assert g.item() == pytest.approx(1.00001**n)
    order = minigrad.autograd.graph.execution_order(y)
    assert len(order) == n + 1 and order[-1].name() == "minigrad::autograd::AccumulateGrad"
    y.backward()
    assert x.grad.item() == pytest.approx(1.00001**n)


def test_a_deep_chain_is_freed_without_recursion() -> None:
    x = minigrad.tensor(1.0, requires_grad=True)
    y = chain(x, N // 2)
    del y
    gc.collect()  # deallocating 100,000 linked nodes must not overflow the C stack
    assert x.grad is None


def test_a_wide_graph_too() -> None:
    """11,000 uses of one leaf: its AccumulateGrad waits for all of them."""
    x = minigrad.tensor(1.0, dtype=minigrad.float64, requires_grad=True)
    total = minigrad.stack([x * i for i in range(1000)]).sum()
    terms = [x * 2.0 for _ in range(N // 10)]
    for t in terms:
        total = total + t
    total.backward()
    assert x.grad.item() == pytest.approx(sum(range(1000)) + 2.0 * (N // 10))
