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

from workloads import (  # noqa: E402 - bench/workloads.py, after the thread settings
    chain,
    graph_build_time,
    graph_memory,
    makemore,
    mean_x_x,
    mlp,
    mlp_hvp,
    wide_minigrad,
    wide_numpy,
)

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
