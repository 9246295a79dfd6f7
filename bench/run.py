"""``make bench``: minigrad beside numpy and PyTorch, one thread each, in one process.

Each workload runs in interleaved rounds (minigrad, then the reference, then
minigrad again ...) so that a busy machine slows both alike; the table shows
medians and the ratio minigrad / reference, with the project's target. Times
are CPU time of this process (``time.process_time``), each workload on one
thread: while other processes hold the core the clock stops, so the ratios
hold on a shared machine. ``--only mlp,makemore`` runs some rows only.
Memory per graph node is measured in fresh subprocesses, by the growth of the
resident set size while a 10,000-node graph is alive, the same way for both.

Before measuring, ``gc.freeze()`` moves the objects that exist after the imports
out of the garbage collector's reach. Importing PyTorch creates hundreds of
thousands of Python objects that a learner's minigrad process does not have;
without the freeze, every collection triggered by minigrad's own allocations
would walk them too, and the table would measure PyTorch's heap, not minigrad.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import gc  # noqa: E402
import json  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402

import numpy as np  # noqa: E402

import minigrad as mg  # noqa: E402

try:
    import torch

    torch.set_num_threads(1)
except ImportError:  # the table then shows minigrad and numpy only
    torch = None

ROUNDS = 15
ROW_KEYS = ("mean", "chain", "mlp", "hvp", "makemore", "wide", "memory", "build", "views")


def timed(fn: Callable[[], object], number: int) -> float:
    """CPU seconds of this process per call of ``fn``, over ``number`` calls.

    CPU time, not wall-clock time: while another process has the core, this one's
    clock stops, so a busy machine (tests running beside the bench) adds far less
    noise. Every workload runs on one thread, so CPU time is its running time.
    """
    start = time.process_time()
    for _ in range(number):
        fn()
    return (time.process_time() - start) / number


def compare(cases: dict[str, tuple[Callable, int]], rounds: int = ROUNDS) -> dict[str, float]:
    """Interleave the cases round by round; return the median seconds per call of each."""
    samples: dict[str, list[float]] = {name: [] for name in cases}
    for fn, number in cases.values():
        timed(fn, max(1, number // 5))  # warm up
    for _ in range(rounds):
        for name, (fn, number) in cases.items():
            samples[name].append(timed(fn, number))
    return {name: statistics.median(s) for name, s in samples.items()}


# -- workloads ---------------------------------------------------------------------------------


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


# -- the table ---------------------------------------------------------------------------------


def row(
    name: str,
    ours: float,
    ref: float | None,
    ref_name: str,
    target: float | None,
    unit: str = "us",
) -> dict:
    """One line of the table; ``target`` None: shown for information, no target."""
    scale = 1e6 if unit == "us" else 1e3
    ratio = ours / ref if ref else None
    if ratio is None or target is None:
        ok = "-"
    else:
        ok = "yes" if ratio <= target else "NO"
    return {
        "workload": name,
        "minigrad": f"{ours * scale:.1f} {unit}",
        "reference": f"{ref * scale:.1f} {unit} ({ref_name})" if ref else "n/a",
        "ratio": f"{ratio:.2f}x" if ratio else "n/a",
        "target": f"<= {target}x" if target is not None else "(none)",
        "met": ok,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=ROUNDS)
    parser.add_argument("--json", help="also write the results to this file")
    parser.add_argument(
        "--only",
        help="comma-separated rows to run: " + ", ".join(ROW_KEYS) + " (default: all)",
    )
    args = parser.parse_args()
    only = set(args.only.split(",")) if args.only else set(ROW_KEYS)
    if only - set(ROW_KEYS):
        parser.error(f"unknown rows: {', '.join(sorted(only - set(ROW_KEYS)))}")

    def wanted(key: str) -> bool:
        return key in only

    gc.collect()
    gc.freeze()  # see the module docstring
    rows = []
    have_torch = torch is not None

    if wanted("mean"):
        cases = {"mg": (mean_x_x(mg), 2000)}
        if have_torch:
            cases["torch"] = (mean_x_x(torch), 2000)
        r = compare(cases, args.rounds)
        rows.append(row("mean(x*x) + backward, 2x2", r["mg"], r.get("torch"), "PyTorch", 0.5))

    if wanted("chain"):
        n = 1000
        mg_fwd, mg_fb = chain(mg, n)
        cases = {"mg_f": (mg_fwd, 20), "mg_fb": (mg_fb, 20)}
        if have_torch:
            t_fwd, t_fb = chain(torch, n)
            cases.update({"t_f": (t_fwd, 20), "t_fb": (t_fb, 20)})
        r = compare(cases, args.rounds)
        mg_b = r["mg_fb"] - r["mg_f"]
        t_b = r["t_fb"] - r["t_f"] if have_torch else None
        rows.append(
            row(
                "chain of 1,000 ops: forward per op",
                r["mg_f"] / n,
                r["t_f"] / n if have_torch else None,
                "PyTorch",
                1.0,
            )
        )
        rows.append(
            row(
                "chain of 1,000 ops: backward per op",
                mg_b / n,
                t_b / n if have_torch else None,
                "PyTorch",
                1.0,
            )
        )

    if wanted("mlp") and hasattr(mg, "nn") and hasattr(mg, "optim"):
        cases = {"mg": (mlp(mg), 200)}
        if have_torch:
            cases["torch"] = (mlp(torch), 200)
        r = compare(cases, args.rounds)
        rows.append(
            row("MLP 2-16-16-1, SGD step, 100 points", r["mg"], r.get("torch"), "PyTorch", 0.5)
        )

    if wanted("hvp") and hasattr(mg, "nn"):
        cases = {"mg": (mlp_hvp(mg), 100)}
        if have_torch:
            cases["torch"] = (mlp_hvp(torch), 100)
        r = compare(cases, args.rounds)
        rows.append(
            row("MLP 2-16-16-1, Hessian-vector product", r["mg"], r.get("torch"), "PyTorch", 1.5)
        )

    if wanted("makemore") and hasattr(mg, "nn"):
        cases = {"mg": (makemore(mg), 200)}
        if have_torch:
            cases["torch"] = (makemore(torch), 200)
        r = compare(cases, args.rounds)
        rows.append(
            row(
                "makemore: C[X], tanh, cross_entropy, batch 32, SGD step",
                r["mg"],
                r.get("torch"),
                "PyTorch",
                0.8,
            )
        )

    if wanted("wide"):  # 10 ms a call: 2 x 30 samples of 3 calls take 2 s
        cases = {"mg": (wide_minigrad(), 3), "np": (wide_numpy(), 3)}
        r = compare(cases, 2 * args.rounds)
        rows.append(
            row("(relu(X@W1+b1)@W2).mean() fwd+bwd", r["mg"], r["np"], "numpy", 1.1, unit="ms")
        )

    if wanted("memory"):
        mem_mg = graph_memory("minigrad")
        mem_t = graph_memory("torch") if have_torch else None
        ratio = mem_mg / mem_t if mem_t else None
        rows.append(
            {
                "workload": "10,000-node graph: memory per node",
                "minigrad": f"{mem_mg:.0f} B",
                "reference": f"{mem_t:.0f} B (PyTorch)" if mem_t else "n/a",
                "ratio": f"{ratio:.2f}x" if ratio else "n/a",
                "target": "<= 1.5x",
                "met": "-" if ratio is None else ("yes" if ratio <= 1.5 else "NO"),
            }
        )
    if wanted("build"):
        build = {"mg": graph_build_time(mg)}
        if have_torch:
            build["torch"] = graph_build_time(torch)
        rows.append(
            row(
                "10,000-node graph: build time per node",
                build["mg"],
                build.get("torch"),
                "PyTorch",
                None,
            )
        )

    if wanted("views"):
        import views  # bench/views.py: what an open widget costs a training loop (issue 10)

        rows += views.rows(row, args.rounds / ROUNDS)

    headers = ["workload", "minigrad", "reference", "ratio", "target", "met"]
    widths = [max(len(h), *(len(str(rw[h])) for rw in rows)) for h in headers]
    print(
        f"numpy {np.__version__}, torch {torch.__version__ if torch else 'not installed'}, "
        f"python {sys.version.split()[0]}, 1 thread each, CPU time, median of {args.rounds} "
        "rounds\n"
    )
    print("| " + " | ".join(h.ljust(w) for h, w in zip(headers, widths)) + " |")
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for rw in rows:
        print("| " + " | ".join(str(rw[h]).ljust(w) for h, w in zip(headers, widths)) + " |")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=2)


if __name__ == "__main__":
    main()
