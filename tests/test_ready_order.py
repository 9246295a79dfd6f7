"""``minigrad/autograd/ready_order.py``: leaves ready together, in the order of PyTorch's heap.

``leaf_order`` replays libstdc++'s ``push_heap``/``pop_heap`` with two keys (a leaf or not).
Its premise is that the other nodes' sequence numbers never change the leaves' order; the
model below keeps them (distinct numbers, a random history of pushes and pops before the
leaves come), as PyTorch's heap does, and must agree with it. The orders PyTorch gives are
compared with PyTorch itself in ``parity_fuzz_findings.py`` (``hooks_of_leaves_*``) and by
the fuzzer's ``hooks_all_leaves`` endings.
"""

from __future__ import annotations

import random

import pytest

import minigrad
from minigrad.autograd import graph
from minigrad.autograd.ready_order import leaf_order

LEAF = 1 << 64  # PyTorch's UINT64_MAX: above every other node's number


class ModelHeap:
    """``std::priority_queue`` of (sequence number, name), largest number on top, as
    libstdc++'s ``stl_heap.h`` moves the items: the heap PyTorch's ready queue is."""

    def __init__(self) -> None:
        self.items: list = []

    def push(self, item: tuple) -> None:
        heap = self.items
        heap.append(item)
        hole = len(heap) - 1
        while hole > 0 and heap[(hole - 1) // 2][0] < item[0]:
            heap[hole] = heap[(hole - 1) // 2]
            hole = (hole - 1) // 2
        heap[hole] = item

    def pop(self) -> tuple:
        heap = self.items
        top, last = heap[0], heap.pop()
        n = len(heap)
        if n:
            hole = child = 0
            while child < (n - 1) // 2:
                child = 2 * child + 2
                if heap[child][0] < heap[child - 1][0]:
                    child -= 1
                heap[hole], hole = heap[child], child
            if n % 2 == 0 and child == (n - 2) // 2:
                child = 2 * child + 2
                heap[hole], hole = heap[child - 1], child - 1
            while hole > 0 and heap[(hole - 1) // 2][0] < last[0]:
                heap[hole] = heap[(hole - 1) // 2]
                hole = (hole - 1) // 2
            heap[hole] = last
        return top


@pytest.mark.parametrize("seed", range(8))
def test_the_other_nodes_numbers_never_change_the_leaves_order(seed):
    rng = random.Random(seed)
    for _ in range(500):
        heap = ModelHeap()
        for _ in range(rng.randrange(12)):  # a history: the heap's shape is not a fresh one
            if heap.items and rng.random() < 0.4:
                heap.pop()
            else:
                heap.push((rng.randrange(LEAF), "node"))
        pending = len(heap.items)
        pushes = tuple(rng.random() < 0.6 for _ in range(rng.randrange(1, 9)))
        for k, is_leaf in enumerate(pushes):
            heap.push((LEAF, sum(pushes[:k])) if is_leaf else (rng.randrange(LEAF), "node"))
        popped = [heap.pop()[1] for _ in range(sum(pushes))]
        assert tuple(popped) == leaf_order(pending, pushes), (pending, pushes)


def test_orders_pytorch_gives():
    # measured in torch 2.13: x + b runs x's hook first; stack([x, b, c, d]) x, c, b, d;
    # the same stack while one other node waits: x, b, d, c
    assert leaf_order(0, (True, True)) == (0, 1)
    assert leaf_order(0, (True,) * 4) == (0, 2, 1, 3)
    assert leaf_order(1, (True,) * 4) == (0, 1, 3, 2)
    assert leaf_order(3, (False, True)) == (0,)


def test_order_of_a_walk_with_leaves_ready_together():
    x, b, c, d = (minigrad.ones(2, requires_grad=True) for _ in range(4))
    y = minigrad.stack([x, b, c, d]).sum()
    order = [n.variable for n in graph.execution_order(y)[2:]]
    assert [id(t) for t in order] == [id(x), id(c), id(b), id(d)]


def test_predicting_the_order_calls_no_hook():
    x = minigrad.ones(2, requires_grad=True)
    calls = []
    x.register_hook(calls.append)
    y = (x * 2).sum()
    y.grad_fn.register_prehook(calls.append)
    assert len(graph.execution_order(y)) == 3
    assert calls == []
    y.backward()
    assert len(calls) == 2
