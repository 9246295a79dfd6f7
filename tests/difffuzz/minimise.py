"""Shrink a program while its difference persists (same field, same exception types).

Greedy, newest statement first, until nothing more can go: dropping a statement that made a
result lets the later statements read that statement's main input instead (so ``t3 = t2.exp()``
can go and ``t4 = t3 * 2`` becomes ``t4 = t2 * 2``); inputs go once nothing reads them.
"""

from __future__ import annotations

from .compare import first_difference
from .program import Program, Stmt
from .runner import run


def _without(stmts: list[Stmt], i: int) -> list[Stmt] | None:
    s = stmts[i]
    rest = stmts[:i] + stmts[i + 1 :]
    later = rest[i:]
    used = set().union(*(t.refs() for t in later)) if later else set()
    for name in s.defines:
        if name in used:
            if s.primary is None:
                return None
            later = [t.rename(name, s.primary) for t in later]
    return rest[:i] + later


def differs(program: Program, torch, minigrad, kind: str | None) -> bool:
    d = first_difference(run(torch, program), run(minigrad, program))
    return d is not None and (kind is None or d.kind() == kind)


def minimise(program: Program, torch, minigrad, budget: int = 400) -> Program:
    """The smallest program found that still shows ``program``'s first difference."""
    d = first_difference(run(torch, program), run(minigrad, program))
    if d is None:
        return program
    kind = d.kind()
    stmts = list(program.stmts)
    changed = True
    while changed and budget > 0:
        changed = False
        for i in reversed(range(len(stmts))):
            if i >= len(stmts):
                continue
            candidate = _without(stmts, i)
            if candidate is None:
                continue
            budget -= 1
            if differs(Program(program.seed, candidate), torch, minigrad, kind):
                stmts = candidate
                changed = True
            if budget <= 0:
                break
    return Program(program.seed, stmts)
