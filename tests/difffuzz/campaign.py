"""Run many programs, compare, and sort the differences into causes.

Program ``i`` of a campaign with seed ``S`` has the id ``S * 1_000_000 + i``; ``--replay ID``
rebuilds exactly that program. ``cause()`` is a coarse key for grouping (the field that
differs, the entry of the table that produced it, and the two exception types or the warning),
which is how ``FINDINGS.md`` counts them.
"""

from __future__ import annotations

import re
import signal
import threading
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


def one_thread(torch) -> None:
    """PyTorch on one thread, as the CI test's ``torch`` fixture (``tests/conftest.py``) has it.

    Some CPU kernels give other last bits on more threads: softmax along a dim that is not the
    last splits its columns between the threads (``parallel_for`` with a grain of 1), and a
    thread's share vectorises only whole vectors of 16 columns, so on two threads a (3, 24)
    softmax(0) takes the scalar ``std::exp`` for every column (on one: 16 vectorised, 8 not).
    minigrad computes as one thread does; the CLI then counts what the CI test sees, on any
    machine."""
    if torch.__name__ == "torch" and torch.get_num_threads() != 1:
        torch.set_num_threads(1)


def check(pid: int, torch, minigrad) -> Outcome:
    one_thread(torch)
    program = generate(pid, torch, minigrad)
    codes = compiled(program)
    d = first_difference(run(torch, program, codes), run(minigrad, program, codes))
    return Outcome(program, d)


TIMEOUT = 60.0  # seconds for one program (both engines): none takes a second on a busy core


class ProgramTimeout(BaseException):
    """A program ran past ``TIMEOUT``: a BaseException, so that the runner does not record
    it as the program's own error."""


def check_in_time(pid: int, torch, minigrad, seconds: float | None = TIMEOUT) -> Outcome:
    """``check``, stopped after ``seconds`` (a program that never ends is a difference,
    ``timeout``, not a campaign that hangs); only where SIGALRM exists, in a main thread."""
    if (
        seconds is None
        or not hasattr(signal, "SIGALRM")
        or threading.current_thread() is not threading.main_thread()
    ):
        return check(pid, torch, minigrad)

    def stop(signum, frame):
        raise ProgramTimeout

    previous = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        return check(pid, torch, minigrad)
    except ProgramTimeout:
        return Outcome(Program(pid), Difference(-1, "timeout", f"over {seconds:.0f} s", None))
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


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
        outcome = check_in_time(program_id(seed, i), torch, minigrad)
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
    """``campaign`` in ``jobs`` forked processes (program ``i`` goes to process ``i % jobs``).

    A process that dies (killed for memory, a crash in a C library) raises
    ``BrokenProcessPool`` here instead of leaving the campaign waiting for it for ever, as a
    ``multiprocessing.Pool`` would."""
    if jobs <= 1:
        return campaign(n, seed, torch, minigrad)
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(jobs, mp_context=context) as pool:
        futures = [
            pool.submit(_part, n, seed, torch.__name__, minigrad.__name__, j, jobs)
            for j in range(jobs)
        ]
        parts = [f.result() for f in futures]
    differing = sorted((o for part, _ in parts for o in part), key=lambda o: o.program.seed)
    causes: Counter = Counter()
    for _, c in parts:
        causes.update(c)
    return differing, causes


def _part(n, seed, torch_name, minigrad_name, start, step):
    import importlib

    torch, minigrad = importlib.import_module(torch_name), importlib.import_module(minigrad_name)
    return campaign(n, seed, torch, minigrad, start=start, step=step)
