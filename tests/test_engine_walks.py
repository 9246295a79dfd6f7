"""The engine's two walks agree: ``loss.backward()`` takes a plain walk (``_run_plain``), every
other call the general one (``_run``). Same hooks in the same order, same gradients, for random
graphs where leaves and intermediate results are used several times and in several places.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import minigrad
from minigrad.autograd import engine
from minigrad.autograd.graph import register_backward_observer


@pytest.fixture(autouse=True)
def _no_views_left_open():
    """Each test chooses its observers: a view another test left to the garbage collector
    (its widget hub still registered) is set aside meanwhile."""
    left = engine.observers[:]
    engine.observers.clear()
    yield
    engine.observers[:] = left


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


def _mlp_step(general: bool, variant: str) -> tuple[list, list]:
    """One backward of a small MLP; what its hooks saw, in order, and each parameter's .grad."""
    minigrad.manual_seed(0)
    nn = minigrad.nn
    calls: list = []
    layers = [nn.Linear(2, 8), nn.ReLU(), nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 1)]
    if variant == "a layer used twice":  # its weight's AccumulateGrad waits for two edges
        layers[3:3] = [layers[2], nn.ReLU()]
    model = nn.Sequential(*layers)
    params = list(model.parameters())
    if variant == "leaf hooks":
        for i, p in enumerate(params):
            p.register_hook(lambda g, i=i: calls.append((i, g.tolist())))
    x = minigrad.randn(100, 2, requires_grad=variant == "a gradient penalty")
    if variant == "an input's node newer than W.t()'s":
        wide = minigrad.randn(100, 4, requires_grad=True) * 1
        x = wide[:, :2]
        wide.mul_(2)  # x's node is made again when the first layer records its addmm
        layers[0].weight.register_hook(lambda g: calls.append("W1"))
    loss = nn.MSELoss()(model(x), minigrad.zeros(100, 1))
    addmm = loss.grad_fn._next[0]
    t = addmm._next[2]
    if variant == "an input's node newer than W.t()'s":
        node = loss.grad_fn  # down to the first layer's addmm: its input is x's node
        while len(node._next) < 2 or type(node._next[1]).__name__ != "AsStridedBackward0":
            node = next(fn for fn in node._next if fn is not None and fn._next)
        node._next[1].register_prehook(lambda grads: calls.append("input's node"))
    if variant == "a hook put on W.t()'s node by a bias hook":

        def on_bias(g):
            calls.append("bias")
            t.register_prehook(lambda grads: calls.append(("t", grads[0].tolist())))

        layers[-1].bias.register_hook(on_bias)
    if variant == "W's layout changed since forward":
        with minigrad.no_grad():
            params[0].data = params[0].data.t().contiguous().t()  # the same values
    if variant == "a prehook on W.t()'s node":
        t.register_prehook(lambda grads: calls.append(("t", grads[0].tolist())))
    if variant == "a hook on W.t()'s node":
        t.register_hook(lambda grads, outs: calls.append(("t", grads[0].tolist())))
    if variant == "a hook on addmm's node":
        addmm.register_hook(lambda grads, outs: calls.append(("addmm", grads[2].tolist())))
    if variant == "a gradient penalty":  # its graph goes through W.t()'s node again
        (g,) = minigrad.autograd.grad(loss, x, create_graph=True)
        loss = loss + (g * g).sum()
    observer = _Order()
    if variant == "a view of another graph open":  # it wants none of this pass's nodes
        observer.nodes = set()
    watched = variant in ("an observer", "a view of another graph open")
    handle = register_backward_observer(observer) if watched else None
    try:
        if general:
            engine.run_backward(((loss.grad_fn, np.ones((), np.float32)),), False)
        else:
            loss.backward()
    finally:
        if handle is not None:
            handle.remove()
    if variant == "an observer":  # (the general walk shows every node to each observer; the
        calls += [type(node).__name__ for node in observer.seen]  # plain one, those it wants)
    grads = [(p.grad._data.tobytes(), p.grad._data.strides, p.grad._version) for p in params]
    return calls, grads


@pytest.mark.parametrize(
    "variant",
    [
        "plain",
        "leaf hooks",
        "a prehook on W.t()'s node",
        "a hook on W.t()'s node",
        "a hook on addmm's node",
        "a layer used twice",
        "a gradient penalty",
        "an observer",
        "an input's node newer than W.t()'s",
        "a hook put on W.t()'s node by a bias hook",
        "W's layout changed since forward",
        "a view of another graph open",
    ],
)
def test_the_plain_walk_runs_linears_t_in_place_as_the_general_walk_runs_it(variant) -> None:
    """The plain walk runs a Linear weight's TBackward0 itself and hands W's AccumulateGrad the
    product uncopied: the same hooks in the same order, the same .grad (bits, layout, version)."""
    ours, theirs = _mlp_step(False, variant), _mlp_step(True, variant)
    assert ours == theirs
    if variant == "W's layout changed since forward":  # X.T.T is not laid out as W: copied
        assert [version for _, _, version in ours[1]] == [1] + [0] * 5
    elif variant != "a gradient penalty":  # (there W3's two gradients add up in T's buffer)
        assert all(version == 0 for _, _, version in ours[1])  # no copy_ anywhere
    if variant == "an input's node newer than W.t()'s":
        assert ours[0].index("input's node") < ours[0].index("W1")  # the heap's order
    if variant == "a hook put on W.t()'s node by a bias hook":
        assert [c if c == "bias" else c[0] for c in ours[0]] == ["bias", "t"]


def test_the_plain_walk_hands_a_linear_weight_its_gradient_as_computed() -> None:
    """W's .grad is the product addmm's backward made (X, W.t()'s gradient being X.T), not
    a view of it: the walk ran W.t()'s T itself, which is what the speed-up is for."""
    minigrad.manual_seed(0)
    model = minigrad.nn.Sequential(minigrad.nn.Linear(3, 4), minigrad.nn.Linear(4, 1))
    model(minigrad.randn(5, 3)).sum().backward()
    assert [p.grad._data.base is None for p in model.parameters()] == [True] * 4
