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


def test_of_two_leaves_the_first_queued_runs_first():
    """What the walks' short cut for two leaves relies on: the first leaf climbs to the top
    and a tie never moves it, whatever the heap holds and is pushed between them."""
    rng = random.Random(0)
    for _ in range(2000):
        pushes = [False] * rng.randrange(6)
        for _ in range(2):
            pushes.insert(rng.randrange(len(pushes) + 1), True)
        assert leaf_order(rng.randrange(40), tuple(pushes)) == (0, 1)


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


# -- random graphs, compared with PyTorch -----------------------------------------------------


def random_program(rng: random.Random) -> tuple[list, int, tuple]:
    """Instructions over a pool that starts with six leaves: ops that make several leaves ready
    at once (stack, cat, add, mul of pool entries, repeated ones too), nodes that wait (exp),
    multi-output nodes (unbind); then one of the walks."""
    steps, size, outputs = [], 6, []
    for _ in range(rng.randrange(1, 9)):
        kind = rng.choice(["exp", "stack", "mix", "cat", "unbind", "unbind", "add", "mul"])
        if kind == "mix" and outputs:  # leaves and a multi-output node's outputs, together
            picks = rng.sample(range(6), rng.randrange(2, 6)) + rng.sample(outputs[-2:], 2)
            picks += rng.choices(picks, k=rng.randrange(3))
            rng.shuffle(picks)
            steps.append(("stack", tuple(picks)))
            size += 1
        elif kind == "exp":
            steps.append(("exp", rng.randrange(size)))
            size += 1
        elif kind == "unbind":
            steps.append(("unbind", rng.randrange(size), rng.randrange(size)))
            outputs += [size, size + 1]
            size += 2
        else:  # (mix before any unbind: a plain stack)
            n = 2 if kind in ("add", "mul") else rng.randrange(2, 7)
            steps.append(
                (kind.replace("mix", "stack"), tuple(rng.randrange(size) for _ in range(n)))
            )
            size += 1
    roots = tuple(sorted(rng.sample(range(6, size), min(rng.randrange(1, 4), size - 6))))
    walk = rng.choice(["backward", "backward", "grad", "grad_some", "create_graph", "roots"])
    inputs = tuple(sorted(rng.sample(range(6), rng.randrange(1, 6))))
    return steps, roots or (size - 1,), (walk, inputs)


def run_program(T, program) -> list:
    """The hooks' calls (and any error) when ``program`` runs in module ``T``."""
    steps, roots, (walk, inputs) = program
    calls: list = []
    pool = [T.tensor([1.0, 2.0], requires_grad=True) for _ in range(6)]
    for k, leaf in enumerate(pool):
        leaf.register_hook(lambda g, k=k: calls.append(k))
    for step in steps:
        if step[0] == "exp":
            pool.append(pool[step[1]].exp())
        elif step[0] == "unbind":
            pool.extend(T.stack([pool[step[1]], pool[step[2]]]).unbind())
        elif step[0] == "stack":
            pool.append(T.stack([pool[i] for i in step[1]]).sum(0))
        elif step[0] == "cat":
            pool.append(T.cat([pool[i] for i in step[1]]).reshape(-1, 2).sum(0))
        else:
            a, b = (pool[i] for i in step[1])
            pool.append(a + b if step[0] == "add" else a * b)
    losses = [pool[i].sum() for i in roots]
    try:
        if walk == "roots":
            T.autograd.backward(losses)
        elif walk == "create_graph":
            sum(losses).backward(create_graph=True)
        elif walk == "backward":
            sum(losses).backward()
        else:
            asked = [pool[i] for i in (inputs if walk == "grad_some" else range(6))]
            T.autograd.grad(sum(losses), asked, allow_unused=True)
    except RuntimeError as e:
        calls.append(str(e))
    return calls


@pytest.mark.filterwarnings("ignore:Using backward")
@pytest.mark.parametrize("seed", range(4))
def test_hooks_run_in_pytorchs_order_on_random_graphs(torch, seed):
    rng = random.Random(seed)
    for _ in range(250):
        program = random_program(rng)
        assert run_program(minigrad, program) == run_program(torch, program), program
