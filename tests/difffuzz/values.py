"""``python -m tests.difffuzz.values --n N --seed S [--jobs J] [--minimise]``: V1 by kind.

V1's differences (``repr @`` and ``values @`` causes: the same op, another number) have
several roots that ``cause()`` does not tell apart. This sorts each by what differs in the
first differing tensor: the sign of a zero (``-0:torch`` where PyTorch has -0., ``-0:minigrad``
where minigrad has), nan or inf positions, digits of the printed text only (``round``: within
the comparison's tolerance, a last-place rounding shown), or values beyond the tolerance
(``far``, typically a float32 result widened to float64). With ``--minimise`` each program is
shrunk first and the table entries left are listed, which names the op behind the kind.
"""

from __future__ import annotations

import argparse
from collections import Counter

import numpy as np

import minigrad

from .campaign import cause, parallel_campaign
from .compare import Difference, first_difference
from .minimise import minimise
from .runner import run


def kind(d: Difference) -> str:
    """What differs between the two tensors of a V1 difference (see the module docstring)."""
    t, m = d.torch, d.minigrad
    if not (isinstance(t, tuple) and t and t[0] == "tensor" and isinstance(m, tuple)):
        return "other"
    a, b = np.asarray(t[7]), np.asarray(m[7])
    if a.shape != b.shape or a.dtype.kind != "f":
        return "other"
    nan_a, nan_b = np.isnan(a), np.isnan(b)
    if (nan_a != nan_b).any():
        return "nan"
    if (np.isinf(a) != np.isinf(b)).any():
        return "inf"
    same = (a == b) | nan_a
    if same.all():
        sign_a, sign_b = np.signbit(a) & (a == 0), np.signbit(b) & (b == 0)
        if (sign_a & ~sign_b).any():
            return "-0:torch"
        return "-0:minigrad" if (sign_b & ~sign_a).any() else "other"
    return "round" if d.field == "repr" else "far"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.difffuzz.values", description=__doc__)
    parser.add_argument("--n", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--minimise", action="store_true", help="list the ops left per kind")
    args = parser.parse_args(argv)
    import torch

    differing, _ = parallel_campaign(args.n, args.seed, torch, minigrad, args.jobs)
    kinds: Counter = Counter()
    for o in differing:
        d = o.difference
        if not cause(o.program, d).startswith(("repr @", "values @")):
            continue
        program = minimise(o.program, torch, minigrad) if args.minimise else o.program
        shrunk = first_difference(run(torch, program), run(minigrad, program)) or d
        ops = " ".join(sorted(set(program.ops()))) if args.minimise else ""
        kinds[(kind(shrunk), ops)] += 1
    print(f"V1: {sum(kinds.values())} of {args.n} programs (seed {args.seed})")
    for (k, ops), count in kinds.most_common():
        print(f"{count:6d}  {k:12s} {ops}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
