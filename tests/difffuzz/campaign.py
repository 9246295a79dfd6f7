"""Run many programs, compare, and sort the differences into causes.

Program ``i`` of a campaign with seed ``S`` has the id ``S * 1_000_000 + i``; ``--replay ID``
rebuilds exactly that program. ``cause()`` is a coarse key for grouping (the field that
differs, the entry of the table that produced it, and the two exception types or the warning),
which is how ``FINDINGS.md`` counts them.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from .allowlist import allowed
from .compare import Difference, first_difference
from .generator import generate
from .program import Program
from .runner import compiled, run


@dataclass
class Outcome:
    program: Program
    difference: Difference | None

    @property
    def identical(self) -> bool:
        return self.difference is None


def program_id(seed: int, i: int) -> int:
    return seed * 1_000_000 + i


def check(pid: int, torch, minigrad) -> Outcome:
    program = generate(pid, torch, minigrad)
    codes = compiled(program)
    d = first_difference(run(torch, program, codes), run(minigrad, program, codes))
    return Outcome(program, d)


def _op_at(program: Program, stmt: int) -> str:
    """The table entry behind statement ``stmt`` (a ``show`` names the statement it shows)."""
    if stmt < 0 or stmt >= len(program.stmts):
        return "?"
    s = program.stmts[stmt]
    if s.op == "show" and s.code().endswith(".grad)"):
        return "grad"
    if s.op in ("show", "graph"):
        target = next(iter(s.refs()), None)
        for t in program.stmts[:stmt]:
            if target in t.defines:
                return f"{t.op}" if s.op == "show" else f"graph<{t.op}>"
        return s.op
    return s.op


_DIGITS = re.compile(r"\d+")


def _event(item) -> tuple[str, str]:
    """(type, message) of a recorded exception or warning; ("-", "") for anything else."""
    if isinstance(item, tuple) and len(item) == 3 and item[0] in ("raises", "warning"):
        return item[1], item[2]
    return "-", ""


def cause(program: Program, d: Difference) -> str:
    op = _op_at(program, d.stmt)
    if d.field in ("raises", "warning", "missing-raises", "missing-warning"):
        t, m = _event(d.torch), _event(d.minigrad)
        text = (t[1] if t[0] != "-" else m[1])[:60]
        return f"{d.field} @ {op}: torch {t[0]} / minigrad {m[0]}: {_DIGITS.sub('N', text)}"
    return f"{d.field} @ {op}"


def campaign(
    n: int, seed: int, torch, minigrad, progress=None, start: int = 0, step: int = 1
) -> tuple[list[Outcome], Counter]:
    """Programs ``start, start + step, ...`` below ``n``; the outcomes that differ (allowed ones
    left out) and the causes counted (the allowed ones under ``"allowed: <reason>"``)."""
    differing: list[Outcome] = []
    causes: Counter = Counter()
    for i in range(start, n, step):
        outcome = check(program_id(seed, i), torch, minigrad)
        d = outcome.difference
        if d is not None:
            entry = allowed(d.line())
            if entry is None:
                differing.append(outcome)
                causes[cause(outcome.program, d)] += 1
            else:
                causes["allowed: " + entry.reason] += 1
        if progress:
            progress(i)
    return differing, causes


def parallel_campaign(n: int, seed: int, torch, minigrad, jobs: int) -> tuple[list, Counter]:
    """``campaign`` in ``jobs`` forked processes (program ``i`` goes to process ``i % jobs``)."""
    if jobs <= 1:
        return campaign(n, seed, torch, minigrad)
    import multiprocessing

    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        parts = pool.starmap(
            _part, [(n, seed, torch.__name__, minigrad.__name__, j, jobs) for j in range(jobs)]
        )
    differing = sorted((o for part, _ in parts for o in part), key=lambda o: o.program.seed)
    causes: Counter = Counter()
    for _, c in parts:
        causes.update(c)
    return differing, causes


def _part(n, seed, torch_name, minigrad_name, start, step):
    import importlib

    torch, minigrad = importlib.import_module(torch_name), importlib.import_module(minigrad_name)
    return campaign(n, seed, torch, minigrad, start=start, step=step)
