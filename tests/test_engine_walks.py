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
