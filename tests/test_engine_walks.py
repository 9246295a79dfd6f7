"""The engine's two walks agree: ``loss.backward()`` takes a plain walk (``_run_plain``), every
other call the general one (``_run``). Same hooks in the same order, same gradients, for random
graphs where leaves and intermediate results are used several times and in several places.
"""

from __future__ import annotations

import random

import numpy as np

import minigrad
from minigrad.autograd import engine


def _program(seed: int, general: bool) -> tuple[list, list]:
    rng = random.Random(seed)
    minigrad.manual_seed(seed)
    calls: list = []
    leaves = [minigrad.randn(3, requires_grad=True) for _ in range(rng.randint(1, 4))]
    for i, x in enumerate(leaves):
        x.register_hook(lambda g, i=i: calls.append(("leaf", i, g.tolist())))
    pool = list(leaves)
    for k in range(rng.randint(1, 8)):
        a, b = rng.choice(pool), rng.choice(pool)
        op = rng.choice(("mul", "add", "sin", "sub", "view"))
        if op == "mul":
            t = a * b
        elif op == "add":
            t = a + b
        elif op == "sub":
            t = a - b
        elif op == "sin":
            t = a.sin()
        else:
            t = a.view(3, 1).view(3)
        t.register_hook(lambda g, k=k: calls.append(("node", k)))
        pool.append(t)
    root = sum(rng.sample(pool, rng.randint(1, len(pool)))).sum()
    if general:
        engine.run_backward(((root.grad_fn, np.ones((), root._data.dtype)),), False)
    else:
        root.backward()
    return calls, [None if x.grad is None else x.grad.tolist() for x in leaves]


def test_the_plain_walk_runs_what_the_general_walk_runs_in_the_same_order() -> None:
    for seed in range(300):
        assert _program(seed, False) == _program(seed, True), f"program {seed}"


class _Order:
    """A backward observer that writes down the nodes in the order they run."""

    def __init__(self) -> None:
        self.seen: list = []

    def on_backward_begin(self, roots) -> None:
        pass

    def on_node(self, node, grad, outs) -> None:
        self.seen.append(node)

    def on_backward_end(self) -> None:
        pass


def test_the_plain_walk_runs_a_models_nodes_in_the_general_walks_order() -> None:
    """A layer's addmm makes its input's node and W.t()'s TBackward0 ready at once: the newer
    (T) runs first in both walks, as do the leaves' AccumulateGrad."""
    from minigrad.autograd.graph import register_backward_observer

    minigrad.manual_seed(0)
    nn = minigrad.nn
    model = nn.Sequential(nn.Linear(2, 8), nn.ReLU(), nn.Linear(8, 8), nn.Tanh(), nn.Linear(8, 1))
    x = minigrad.randn(5, 2)
    loss = nn.MSELoss()(model(x), minigrad.zeros(5, 1))
    orders = []
    for general in (False, True):
        observer = _Order()
        handle = register_backward_observer(observer)
        try:
            if general:
                engine.run_backward(((loss.grad_fn, np.ones((), np.float32)),), True)
            else:
                loss.backward(retain_graph=True)
        finally:
            handle.remove()
        orders.append(observer.seen)
    assert orders[0] == orders[1]
    assert len(orders[0]) == 15 and orders[0][:3] == [
        loss.grad_fn,
        loss.grad_fn._next[0],
        loss.grad_fn._next[0]._next[0],  # the bias's AccumulateGrad
    ]
