"""``python -m tests.difffuzz --n N --seed S [--replay ID] [--minimise]``.

Runs ``N`` programs (ids ``S * 1_000_000 + i``), prints the identical rate and the differences
counted by cause, each with the id of a program that shows it; ``--replay ID`` prints one
program, its difference and a runnable reproducer (minimised with ``--minimise``).
"""

from __future__ import annotations

import argparse
import sys
import time

import minigrad

from .campaign import cause, check, parallel_campaign
from .minimise import minimise
from .open_findings import open_finding
from .table import missing


def _torch():
    try:
        import torch
    except ImportError:
        sys.exit("the differential fuzzer needs PyTorch: pip install torch==2.13.0")
    return torch


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.difffuzz", description=__doc__)
    parser.add_argument("--n", type=int, default=1000, help="how many programs")
    parser.add_argument("--seed", type=int, default=0, help="the campaign's seed")
    parser.add_argument("--replay", type=int, help="run the program of this id only")
    parser.add_argument("--minimise", action="store_true", help="shrink the programs shown")
    parser.add_argument("--examples", type=int, default=1, help="program ids shown per cause")
    parser.add_argument("--jobs", type=int, default=1, help="processes to run them in")
    args = parser.parse_args(argv)
    torch = _torch()

    if args.replay is not None:
        outcome = check(args.replay, torch, minigrad)
        program = outcome.program
        print(program.code())
        if outcome.identical:
            print("identical in both engines")
            return 0
        if args.minimise:
            program = minimise(program, torch, minigrad)
        d = check_again(program, torch)
        print("difference:", d.line() if d else outcome.difference.line())
        print("\n# --- reproducer (swap the import for torch to compare) ---")
        print(program.reproducer())
        return 1

    start = time.perf_counter()
    differing, causes = parallel_campaign(args.n, args.seed, torch, minigrad, args.jobs)
    seconds = time.perf_counter() - start
    same = args.n - len(differing)
    allowed = sum(c for k, c in causes.items() if k.startswith("allowed: "))
    print(
        f"{same}/{args.n} programs identical ({100 * same / args.n:.2f}%), {seconds:.0f} s"
        + (f" ({allowed} of them by the allow-list)" if allowed else "")
    )
    for key in [k for k in causes if k.startswith("allowed: ")]:
        del causes[key]
    examples: dict[str, list[int]] = {}
    for o in differing:
        examples.setdefault(cause(o.program, o.difference), []).append(o.program.seed)
    for key, count in causes.most_common():
        ids = " ".join(map(str, examples[key][: args.examples]))
        print(f"{count:6d}  {key}   [e.g. --replay {ids}]")
    by_finding: dict[str, int] = {}
    for key, count in causes.items():
        entry = open_finding(key)
        name = entry.finding if entry else "NEW (not in open_findings.py)"
        by_finding[name] = by_finding.get(name, 0) + count
    print("\nby finding (open_findings.py, FINDINGS.md):")
    for name, count in sorted(by_finding.items(), key=lambda kv: -kv[1]):
        print(f"{count:6d}  {name}")
    lacking = missing(minigrad)
    if lacking:
        print(f"\n{len(lacking)} table entries skipped (minigrad lacks them):", ", ".join(lacking))
    return 1 if differing else 0


def check_again(program, torch):
    from .compare import first_difference
    from .runner import run

    return first_difference(run(torch, program), run(minigrad, program))


if __name__ == "__main__":
    sys.exit(main())
