"""The workloads of ``bench/run.py``: each takes the library (``minigrad`` or ``torch``) as ``T``
and returns what to time, so that both run the very same code.

``run.py`` sets one thread per library before it imports this module.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time

import numpy as np

import minigrad as mg


def mean_x_x(T):
    def run():
        x = T.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
        T.mean(x * x).backward()

    return run


def chain(T, n: int = 1000):
    """n elementwise ops on a 1-element tensor: returns (forward, forward+backward) callables."""

    def forward():
        x = T.ones(1, requires_grad=True)
        y = x
        for _ in range(n // 2):
            y = y * 1.0001
            y = y + 0.0001
        return y

    def forward_backward():
        forward().sum().backward()

    return forward, forward_backward


def mlp(T):
    """One SGD step of a 2-16-16-1 MLP on 100 points."""
    T.manual_seed(0)
    model = T.nn.Sequential(
        T.nn.Linear(2, 16), T.nn.ReLU(), T.nn.Linear(16, 16), T.nn.ReLU(), T.nn.Linear(16, 1)
    )
    opt = T.optim.SGD(model.parameters(), lr=0.01)
    loss_fn = T.nn.MSELoss()
    rng = np.random.default_rng(0)
    x = T.tensor(rng.standard_normal((100, 2)).astype(np.float32))
    y = T.tensor(rng.standard_normal((100, 1)).astype(np.float32))

    def step():
        opt.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()

    return step


def mlp_hvp(T):
    """A Hessian-vector product of the same MLP's loss: a backward with ``create_graph=True``,
    then the backward of ``sum(grad * v)`` through the gradient's graph."""
    T.manual_seed(0)
    model = T.nn.Sequential(
        T.nn.Linear(2, 16), T.nn.Tanh(), T.nn.Linear(16, 16), T.nn.Tanh(), T.nn.Linear(16, 1)
    )
    params = tuple(model.parameters())
    vs = [T.ones_like(p) * 0.01 for p in params]
    loss_fn = T.nn.MSELoss()
    rng = np.random.default_rng(0)
    x = T.tensor(rng.standard_normal((100, 2)).astype(np.float32))
    y = T.tensor(rng.standard_normal((100, 1)).astype(np.float32))

    def hvp():
        grads = T.autograd.grad(loss_fn(model(x), y), params, create_graph=True)
        dot = sum((g * v).sum() for g, v in zip(grads, vs))
        return T.autograd.grad(dot, params)

    return hvp


def makemore(T):
    """One SGD step of Karpathy's makemore MLP: a (27, 10) embedding looked up by integer
    indexing (``C[X]``), a 30-200 tanh layer, 27 logits, ``cross_entropy``, batch 32."""
    rng = np.random.default_rng(0)
    words = rng.integers(0, 27, (2000, 4))
    X, Y = T.tensor(words[:, :3]), T.tensor(words[:, 3])
    batches = [T.tensor(rng.integers(0, len(words), 32)) for _ in range(64)]
    C = T.tensor(rng.standard_normal((27, 10)).astype(np.float32), requires_grad=True)
    W1 = T.tensor((rng.standard_normal((30, 200)) * 0.2).astype(np.float32), requires_grad=True)
    b1 = T.tensor((rng.standard_normal(200) * 0.01).astype(np.float32), requires_grad=True)
    W2 = T.tensor((rng.standard_normal((200, 27)) * 0.01).astype(np.float32), requires_grad=True)
    b2 = T.tensor(np.zeros(27, np.float32), requires_grad=True)
    params = [C, W1, b1, W2, b2]
    F = T.nn.functional
    state = {"i": 0}

    def step():
        ix = batches[state["i"] % len(batches)]
        state["i"] += 1
        emb = C[X[ix]]  # (32, 3, 10)
        h = T.tanh(emb.view(-1, 30) @ W1 + b1)
        loss = F.cross_entropy(h @ W2 + b2, Y[ix])
        for p in params:
            p.grad = None
        loss.backward()
        for p in params:
            p.data += -0.1 * p.grad

    return step


def wide_arrays():
    rng = np.random.default_rng(0)
    return (
        rng.standard_normal((256, 1024)).astype(np.float32),
        (rng.standard_normal((1024, 1024)) * 0.03).astype(np.float32),
        (rng.standard_normal(1024) * 0.03).astype(np.float32),
        (rng.standard_normal((1024, 10)) * 0.03).astype(np.float32),
    )


def wide_minigrad():
    X, W1, b1, W2 = (mg.from_numpy(a) for a in wide_arrays())
    for p in (W1, b1, W2):
        p.requires_grad_()

    def run():
        for p in (W1, b1, W2):
            p.grad = None
        (mg.relu(X @ W1 + b1) @ W2).mean().backward()

    return run


def wide_numpy():
    """The same forward and backward written by hand in numpy: the floor to compare with."""
    X, W1, b1, W2 = wide_arrays()

    def run():
        h = X @ W1 + b1
        r = np.maximum(h, 0)
        out = r @ W2
        g = np.full(out.shape, 1.0 / out.size, dtype=np.float32)
        gW2 = r.T @ g
        gr = g @ W2.T
        gh = gr * (h > 0)
        gb1 = gh.sum(axis=0)
        gW1 = X.T @ gh
        return gW1, gb1, gW2

    return run


def graph_build_time(T, nodes: int = 10_000, rounds: int = 7) -> float:
    """Median seconds per node to build a ``nodes``-op graph (freeing the last one is not timed)."""
    x = T.ones(1, requires_grad=True)
    times = []
    y = None
    for _ in range(rounds):
        y = None  # free the previous graph before the clock starts
        start = time.process_time()
        y = x
        for _ in range(nodes):
            y = y * 1.0001
        times.append((time.process_time() - start) / nodes)
    return statistics.median(times)


def graph_memory(library: str, nodes: int = 10_000) -> float:
    """Bytes of resident memory per node of a live ``nodes``-op graph (a fresh process)."""
    code = f"""
import os, json
for v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[v] = "1"
import {library} as T
def rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
x = T.ones(1, requires_grad=True)
y = x
for _ in range(200):  # warm the allocator and caches
    y = y * 1.0001
del y
before = rss()
y = x
for _ in range({nodes}):
    y = y * 1.0001
after = rss()
print(json.dumps((after - before) / {nodes}))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)
