"""The differential fuzzer in CI: 3,000 programs on a fixed seed, each the same in both engines.

A difference fails the test unless the allow-list (``tests/difffuzz/allowlist.py``: C++
details no learner sees) or the list of open findings (``tests/difffuzz/open_findings.py``:
known, not yet fixed, see FINDINGS.md) covers it; an open finding that no program shows any
more must leave that list, so the list only shrinks. Reproduce a failure with
``python -m tests.difffuzz --replay ID --minimise``.
"""

from __future__ import annotations

import pytest
from difffuzz.allowlist import ALLOWED
from difffuzz.campaign import campaign, cause
from difffuzz.compare import first_difference
from difffuzz.minimise import minimise
from difffuzz.open_findings import OPEN, open_finding
from difffuzz.program import Program, Ref, Stmt
from difffuzz.runner import run
from difffuzz.values import kind

import minigrad

pytestmark = pytest.mark.parity

SEED = 0
PROGRAMS = 3000


def test_programs_run_the_same_in_minigrad_and_pytorch(torch) -> None:
    differing, _ = campaign(PROGRAMS, SEED, torch, minigrad)
    unexplained, seen = [], set()
    for outcome in differing:
        key = cause(outcome.program, outcome.difference)
        entry = open_finding(key)
        if entry is None:
            unexplained.append(f"--replay {outcome.program.seed}: {key}")
        else:
            seen.add(entry.finding)
    assert not unexplained, (
        f"{len(unexplained)} of {PROGRAMS} programs differ from PyTorch:\n"
        + "\n".join(unexplained[:20])
        + "\n(python -m tests.difffuzz --replay ID --minimise shows one)"
    )
    fixed = sorted({e.finding for e in OPEN} - seen)
    assert not fixed, f"open findings no program shows any more: remove {fixed} from OPEN"


def test_allow_list_is_short_and_explained() -> None:
    assert len(ALLOWED) <= 10
    assert all(len(entry.reason) > 20 for entry in ALLOWED)


# -- the fuzzer itself must be able to see a difference ---------------------------------------


def _program(*lines: str) -> Program:
    return Program(0, [Stmt("x", (line,)) for line in lines])


def test_comparison_sees_values_names_errors_and_warnings(torch) -> None:
    def diff(*lines):
        p = _program(*lines)
        return first_difference(run(torch, p), run(minigrad, p))

    same = "a = T.tensor([1., 2.], requires_grad=True)\nshow((a * a).sum())"
    assert diff(same) is None
    engine = "(T.__name__ == 'torch')"
    assert diff(f"show(T.tensor([1., 2. + {engine} * 1e-5]))").field == "values"
    assert diff(f"show(T.tensor([1., 2. + {engine} * 1e-9]))") is None  # within a few ulp
    assert diff(f"show(T.tensor([1., float('nan') if {engine} else 0.]))").field == "values"
    # a float32 result cast to float64 keeps float32's tolerance (two ulps of 0.1 here) ...
    assert diff(f"show((T.tensor([0.1]) + {engine} * 2**-26).double())") is None
    # ... a float64 result does not
    f64 = "T.tensor([0.1], dtype=T.float64)"
    assert diff(f"show({f64} + {engine} * 2**-26)").field == "values"
    assert diff(f"show(T.tensor([-0.0 if {engine} else 0.0]))").field == "repr"
    assert diff(f"x = T.ones(2, requires_grad=True)\nshow(x * 2 if {engine} else 2 * x)") is None
    assert diff(f"x = T.ones(2, requires_grad=True)\ngraph(x * 2 if {engine} else x * x)")
    assert diff(f"raise (ValueError if {engine} else TypeError)('m')").field == "raises"
    assert diff(f"import warnings\nif {engine}: warnings.warn('w')").field == "missing-warning"


def test_leaves_grads_sharing_memory_are_noted_and_allowed(torch) -> None:
    """PyTorch's two leaves' .grad as views of one buffer (a second backward adds into both):
    the runner notes it on the shown .grad, and only such a difference is allowed."""
    from difffuzz.allowlist import allowed

    backward_twice = (
        "a = T.tensor(-1., requires_grad=True)\nc = T.tensor(2., requires_grad=True)\n"
        "l = T.stack([a, c]).sum()\nl.backward(retain_graph=True)\nl.backward()\nshow(a.grad)"
    )
    p = _program(backward_twice)
    d = first_difference(run(torch, p), run(minigrad, p))
    assert d.field == "values" and "shares its memory" in d.note
    assert allowed(d.line()) is not None
    p = _program(backward_twice.replace("T.tensor(-1.", "T.tensor([-1.]").replace("2.)", "[2.])"))
    assert first_difference(run(torch, p), run(minigrad, p)) is None  # no view of one number
    p = _program("a = T.ones(2, requires_grad=True)\nshow(a * (2 if T.__name__ == 'torch' else 3))")
    assert allowed(first_difference(run(torch, p), run(minigrad, p)).line()) is None
    # a .grad that is PyTorch's efficient zeros (abs's double backward) has no memory to compare
    zeros = (
        "a = T.tensor([4., -3.], requires_grad=True)\n"
        "(g,) = T.autograd.grad(abs(a).sum(), [a], create_graph=True)\n"
        "(g * g).sum().backward()\nshow(a.grad)"
    )
    p = _program(zeros)
    assert first_difference(run(torch, p), run(minigrad, p)) is None
    # nor may looking for leaves touch a view PyTorch refuses to describe (its base changed)
    chunked = (
        "a = T.tensor([-1., 2.7, 3.1], requires_grad=True)\nt = a.chunk(3, -1)[-1]\n"
        "(a * 2).sum().backward()\nwith T.no_grad():\n    a.mul_(2)\nshow(a.grad)"
    )
    p = _program(chunked)
    assert first_difference(run(torch, p), run(minigrad, p)) is None


def test_minimiser_keeps_the_difference_and_drops_the_rest(torch) -> None:
    engine = "(T.__name__ == 'torch')"
    stmts = [
        Stmt("input", ("a = T.ones(3)",), ("a",)),
        Stmt("exp", ("t1 = ", Ref("a"), ".exp()"), ("t1",), primary="a"),
        Stmt("show", ("show(", Ref("t1"), ")")),
        Stmt("bad", ("t2 = ", Ref("t1"), f" * (2 if {engine} else 3)"), ("t2",), primary="t1"),
        Stmt("show", ("show(", Ref("t2"), ")")),
    ]
    small = minimise(Program(7, stmts), torch, minigrad)
    assert [s.op for s in small.stmts] == ["input", "bad", "show"]
    assert "t2 = a * (2 if" in small.code()
    assert "import minigrad as T" in small.reproducer()


def test_value_differences_are_sorted_by_kind(torch) -> None:
    """``values.kind`` tells a -0., a nan, a printed last digit and a far value apart."""

    def kind_of(code_torch: str, code_minigrad: str) -> str:
        program = Program(0, [Stmt("show", ("show(", code_torch, ")"))])
        other = Program(0, [Stmt("show", ("show(", code_minigrad, ")"))])
        d = first_difference(run(minigrad, program), run(minigrad, other))
        assert d is not None
        return kind(d)

    assert kind_of("T.tensor([-0., 1.])", "T.tensor([0., 1.])") == "-0:torch"
    assert kind_of("T.tensor([0., 1.])", "T.tensor([-0., 1.])") == "-0:minigrad"
    assert kind_of("T.tensor([0., 1.])", "T.tensor([nan, 1.])") == "nan"
    assert kind_of("T.tensor([0.18255001])", "T.tensor([0.18255])") == "round"
    wide, wider = "T.tensor([0.5], dtype=T.float64)", "T.tensor([0.5000001], dtype=T.float64)"
    assert kind_of(wide, wider) == "far"  # the same printed text, beyond float64's tolerance


# -- a campaign never hangs ------------------------------------------------------------------


def test_a_program_that_never_ends_is_a_timeout_difference(monkeypatch) -> None:
    import time

    from difffuzz import campaign as C

    monkeypatch.setattr(C, "check", lambda pid, torch, minigrad: time.sleep(30))
    start = time.perf_counter()
    outcome = C.check_in_time(7, None, minigrad, seconds=0.2)
    assert time.perf_counter() - start < 5
    assert outcome.program.seed == 7 and outcome.difference.field == "timeout"
    assert C.cause(outcome.program, outcome.difference) == "timeout @ ?"


def _die(*args):
    import os
    import signal

    os.kill(os.getpid(), signal.SIGKILL)


def test_a_worker_that_dies_stops_the_campaign_instead_of_hanging(monkeypatch, torch) -> None:
    from concurrent.futures.process import BrokenProcessPool

    from difffuzz import campaign as C

    monkeypatch.setattr(C, "_part", _die)
    with pytest.raises(BrokenProcessPool):
        C.parallel_campaign(4, 0, torch, minigrad, 2)
