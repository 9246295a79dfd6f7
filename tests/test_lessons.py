"""The lessons: every notebook runs top to bottom in a fresh kernel and says the truth.

- Each lesson executes in a fresh kernel (nbclient, cwd = lessons/, as Jupyter
  does) with no error output except in cells tagged ``raises-exception``, and
  every tagged cell really raises and says in its text that it fails on purpose.
- Every output a lesson states in its markdown is what the cells print. A
  markdown cell that shows output puts it in a top-level ```` ```text ```` block,
  right after the code cell that prints it (cell ids are left to nbstripout);
  short claims inside sentences (``7.5``) are listed in ``metadata.lesson.inline``.
  Old PyTorch output is told as history inside a ``>`` quote, which is not checked.
- Notebooks are committed without outputs or execution counts.
- Every "Your turn" checker accepts the right answer, hints at a wrong one, and
  only reminds when the answer is still ``...``.

How long each lesson takes is printed (``-s``) and written to
test-artifacts/lesson-times/; it is not asserted (the machine's load varies).
"""

from __future__ import annotations

import ast
import os
import re
import sys
import time
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
LESSONS_DIR = ROOT / "lessons"
LESSON_NAMES = [
    "00_start_here",
    "01_eggs_and_baskets",
    "02_graph_behind_the_curtain",
    "03_getting_the_eggs_out",
    "04_tensors_to_plots",
    "05_train_save_load",
    "06_inside_minigrad",
]
NOTEBOOKS = sorted(LESSONS_DIR.glob("[0-9][0-9]_*.ipynb"))
TIMEOUT = 120  # seconds per cell: generous, a lesson takes a few seconds in all
FAILS_ON_PURPOSE = "fails on purpose"
CHECK_CALL = re.compile(r'(?<![\w.])check\("([^"]+)"')


def _param(path: Path):
    # One xdist group per notebook: its tests share one execution on one worker.
    return pytest.param(path, id=path.stem, marks=pytest.mark.xdist_group(f"lesson-{path.stem}"))


LESSON_PARAMS = [_param(p) for p in NOTEBOOKS]


def read(path: Path) -> nbformat.NotebookNode:
    return nbformat.read(path, as_version=4)


def kernel_env() -> dict[str, str]:
    """The kernel imports this working tree's minigrad and widgets, installed or not."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    env.setdefault("MPLBACKEND", "module://matplotlib_inline.backend_inline")
    return env


def execute(path: Path, cwd: Path = LESSONS_DIR, env: dict | None = None):
    """Run a notebook in a fresh kernel; return the executed notebook and the seconds taken."""
    from nbclient import NotebookClient

    nb = read(path)
    client = NotebookClient(
        nb,
        timeout=TIMEOUT,
        kernel_name="python3",
        resources={"metadata": {"path": str(cwd)}},
    )
    start = time.perf_counter()
    client.execute(env=env if env is not None else kernel_env())
    return nb, time.perf_counter() - start


_executed: dict[Path, tuple] = {}


def executed(path: Path):
    if path not in _executed:
        _executed[path] = execute(path)
    return _executed[path]


# -- reading cells --------------------------------------------------------------------------


def is_tagged(cell) -> bool:
    return "raises-exception" in cell.get("metadata", {}).get("tags", [])


def output_text(cell) -> str:
    """What a learner sees under a code cell, as text (an error as its last line)."""
    parts = []
    for out in cell.get("outputs", []):
        kind = out["output_type"]
        if kind == "stream":
            parts.append(out["text"])
        elif kind in ("execute_result", "display_data"):
            text = out.get("data", {}).get("text/plain")
            if text and kind == "execute_result":
                parts.append(text + "\n")
        elif kind == "error":
            parts.append(f"{out['ename']}: {out['evalue']}\n")
    return "".join(parts)


def normalise(text: str) -> str:
    return "\n".join(line.rstrip() for line in text.strip("\n").splitlines())


FENCE = re.compile(r"^```text\n(.*?)^```$", re.S | re.M)


def claimed_blocks(markdown: str) -> list[str]:
    """Top-level ```text blocks (quoted history blocks start with '>' and are skipped)."""
    return [normalise(m.group(1)) for m in FENCE.finditer(markdown)]


def code_of(cell) -> str:
    return cell["source"]


# -- structure --------------------------------------------------------------------------------


def test_all_seven_lessons_exist():
    assert [p.stem for p in NOTEBOOKS] == LESSON_NAMES


@pytest.mark.parametrize("path", LESSON_PARAMS)
def test_committed_without_outputs(path):
    nb = read(path)
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [], f"{path.name}: cell {cell.id} carries outputs"
            assert cell.execution_count is None, f"{path.name}: cell {cell.id} has a count"
    assert "widgets" not in nb.metadata, f"{path.name} carries saved widget state"
    nbformat.validate(nb)


def test_nbstripout_verify_passes():
    import subprocess

    from conftest import require_module

    require_module("nbstripout")
    result = subprocess.run(
        [sys.executable, "-m", "nbstripout", "--verify", *map(str, NOTEBOOKS)],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("path", LESSON_PARAMS)
def test_shape_of_a_lesson(path):
    """A one-line goal at the top, 2-3 checked exercises, a recap."""
    nb = read(path)
    first = nb.cells[0]
    number = int(path.stem[:2])
    assert first.cell_type == "markdown"
    assert first.source.startswith(f"# Lesson {number} ·"), first.source[:40]
    goals = [line for line in first.source.splitlines() if line.startswith("**Goal:**")]
    assert len(goals) == 1, f"{path.name}: one '**Goal:**' line at the top"
    checks = [c for c in nb.cells if c.cell_type == "code" and CHECK_CALL.search(c.source)]
    assert 2 <= len(checks) <= 3, f"{path.name} has {len(checks)} exercises"
    assert any(c.source.startswith("## Recap") for c in nb.cells if c.cell_type == "markdown")


@pytest.mark.parametrize("path", LESSON_PARAMS)
def test_code_is_valid_python_without_torch_or_path_hacks(path):
    nb = read(path)
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        src = cell.source
        tree = ast.parse(src)  # no magics needed: plain Python everywhere
        assert "sys.path" not in src, f"{path.name}: cell {cell.id} edits sys.path"
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            if any(n.split(".")[0] == "torch" for n in names):
                # Only lesson 5's optional cell, and only behind try/except ImportError.
                assert path.stem == "05_train_save_load", f"{path.name} imports torch"
                assert "except ImportError" in src, "the torch import must be guarded"


@pytest.mark.parametrize("path", LESSON_PARAMS)
def test_raises_exception_tags_match_the_text(path):
    """A cell fails on purpose exactly when it says so, in its first line and in the text."""
    nb = read(path)
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        says = FAILS_ON_PURPOSE in cell.source.splitlines()[0].lower()
        assert says == is_tagged(cell), (
            f"{path.name} cell {cell.id}: tag raises-exception={is_tagged(cell)} "
            f"but first line says fails on purpose={says}"
        )
        if says:
            before = nb.cells[i - 1]
            text = " ".join(before.source.replace("*", "").split()).lower()
            assert before.cell_type == "markdown" and FAILS_ON_PURPOSE in text, (
                f"{path.name} cell {cell.id}: the text before it must say it fails on purpose"
            )


@pytest.mark.parametrize("path", LESSON_PARAMS)
def test_links_between_lessons_exist(path):
    nb = read(path)
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            for target in re.findall(r"\]\(([^)#\s]+\.ipynb)\)", cell.source):
                assert (LESSONS_DIR / target).exists(), f"{path.name} links to missing {target}"


# -- execution --------------------------------------------------------------------------------


@pytest.mark.parametrize("path", LESSON_PARAMS)
def test_lesson_runs_top_to_bottom(path):
    nb, seconds = executed(path)
    report = ROOT / "test-artifacts" / "lesson-times" / f"{path.stem}.txt"
    report.parent.mkdir(parents=True, exist_ok=True)
    report.write_text(f"{path.name}\t{seconds:.1f} s\n")
    print(f"{path.name}: {seconds:.1f} s")
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        errors = [o for o in cell.outputs if o.output_type == "error"]
        stderr = "".join(
            o.text for o in cell.outputs if o.output_type == "stream" and o.name == "stderr"
        )
        if is_tagged(cell):
            assert errors, f"{path.name} cell {cell.id} is tagged raises-exception but ran fine"
        else:
            assert not errors, f"{path.name} cell {cell.id} raised:\n{output_text(cell)}"
            assert "Warning" not in stderr, f"{path.name} cell {cell.id} warned:\n{stderr}"


@pytest.mark.parametrize("path", LESSON_PARAMS)
def test_outputs_stated_in_the_text_are_what_the_cells_print(path):
    nb, _ = executed(path)
    checked = 0
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "markdown":
            continue
        blocks = claimed_blocks(cell.source)
        inline = cell.metadata.get("lesson", {}).get("inline", [])
        if not blocks and not inline:
            continue
        where = f"{path.name}, markdown cell {i}"
        before = nb.cells[i - 1] if i else None
        assert before is not None and before.cell_type == "code", (
            f"{where} states output but does not follow the code cell that prints it"
        )
        printed = normalise(output_text(before))
        for block in blocks:
            assert block in printed, f"{where} says\n{block}\nbut the cell printed\n{printed}"
            checked += 1
        for claim in inline:
            assert claim in cell.source, f"{where}: inline claim {claim!r} is not in its text"
            assert claim in printed, f"{where}: {claim!r} is not printed:\n{printed}"
            checked += 1
    assert checked or path.stem == "00_start_here", f"{path.name} states no checked output"


def test_the_story_s_key_numbers_are_checked():
    """The 7.5 and the [[0.5, 1.0], [1.5, 2.0]] gradient of lesson 2 are stated and checked."""
    nb = read(LESSONS_DIR / "02_graph_behind_the_curtain.ipynb")
    stated = "".join(
        "".join(claimed_blocks(c.source)) + "".join(c.metadata.get("lesson", {}).get("inline", []))
        for c in nb.cells
        if c.cell_type == "markdown"
    )
    assert "7.5" in stated
    assert "[[0.5, 1.0], [1.5, 2.0]]" in stated


# -- exercises --------------------------------------------------------------------------------


def _check_module():
    sys.path.insert(0, str(LESSONS_DIR))
    try:
        import _check
    finally:
        sys.path.remove(str(LESSONS_DIR))
    return _check


def _solutions():
    """For each exercise: (right answer, a wrong answer, extra arguments)."""
    import numpy as np

    import minigrad
    from minigrad import FloatTensor
    from minigrad.autograd import Function, Variable

    def weights():
        return Variable(FloatTensor([0.5, -1.5]), requires_grad=True)

    w_right, w_wrong = weights(), weights()

    def trained(reset: bool):
        w = Variable(FloatTensor([2.0]), requires_grad=True)
        for _ in range(3):
            if reset:
                w.grad = None
            (w * w).sum().backward()
        return w

    class Cube(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x**3

        @staticmethod
        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            return 3 * x**2 * grad

    class WrongCube(Cube):
        @staticmethod
        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            return 2 * x**2 * grad

    class UnfinishedCube(Cube):
        @staticmethod
        def backward(ctx, grad):
            return ...

    basket = Variable(FloatTensor([1, 2, 3]), requires_grad=True)
    solutions = {
        "basket": (Variable(FloatTensor([5, 6, 7]), requires_grad=True), FloatTensor([5, 6, 7])),
        "refused-flags": ([1.0, None, "yes"], [1.0, None, "yes", 7]),
        "eggs-out": (basket.detach(), basket),
        "grad-by-hand": ([1.0, 4.0, 9.0], [3.0, 12.0, 27.0]),
        "accumulate": (9.0, 3.0),
        "zero-grad": (trained(reset=True), trained(reset=False)),
        "to-numpy": (w_right.detach().numpy(), w_wrong.detach().numpy().copy()),
        "shared-eggs": (7.0, -1.5),
        "safe-way": (".detach()", ".data"),
        "order": (
            ["AddBackward0", "MulBackward0", "AccumulateGrad"],
            ["AddBackward0", "AccumulateGrad", "MulBackward0"],
        ),
        "cube": (Cube, WrongCube),
        "where": ("minigrad.ops.unary", "minigrad.ops.arithmetic"),
    }
    x = minigrad.linspace(-2, 2, 5)
    w = minigrad.ones(1, requires_grad=True)
    pred = w * x
    minigrad.manual_seed(0)
    trained_model = minigrad.nn.Linear(1, 1)
    restored, untouched = minigrad.nn.Linear(1, 1), minigrad.nn.Linear(1, 1)
    restored.load_state_dict(trained_model.state_dict())
    solutions.update(
        {
            "warm-up": (42, 41),
            "first-tensor": (minigrad.tensor([1, 2, 3]), [1, 2, 3]),
            "slope": (4.75, 0.375),
            "plot-ready": (pred.detach().numpy(), pred.detach().numpy().copy()),
            "learning-rate": ("up", "down"),
            "param-count": (49, 33),
            "restore": (restored, untouched),
            "step-order": ("CDBA", "ABCD"),
        }
    )
    extra = {
        "to-numpy": {"right": (w_right,), "wrong": (w_wrong,)},
        "plot-ready": {"right": (pred,), "wrong": (pred,)},
        "restore": {"right": (trained_model,), "wrong": (trained_model,)},
    }
    not_attempted = {"cube": UnfinishedCube}
    _ = np
    return solutions, extra, not_attempted


def _exercises_in_notebooks() -> set[str]:
    names = set()
    for path in NOTEBOOKS:
        for cell in read(path).cells:
            if cell.cell_type == "code":
                names.update(CHECK_CALL.findall(cell.source))
    return names


def test_every_exercise_has_a_checker_and_a_tested_solution():
    check = _check_module()
    solutions, _, _ = _solutions()
    used = _exercises_in_notebooks()
    assert used <= set(check._CHECKERS), used - set(check._CHECKERS)
    assert used <= set(solutions), f"exercises without a solution here: {used - set(solutions)}"


@pytest.mark.parametrize("name", sorted(_exercises_in_notebooks()))
def test_checker_accepts_the_right_answer_and_hints_at_a_wrong_one(name, capsys):
    check = _check_module()
    solutions, extra, not_attempted = _solutions()
    right, wrong = solutions[name]
    given = extra.get(name, {})
    ok, message = check.verdict(name, right, *given.get("right", ()))
    assert ok is True, message
    ok, hint = check.verdict(name, wrong, *given.get("wrong", ()))
    assert ok is False and hint, hint
    ok, reminder = check.verdict(name, not_attempted.get(name, ...), *given.get("right", ()))
    assert ok is None and "..." in reminder
    check.check(name, right, *given.get("right", ()))
    assert capsys.readouterr().out.startswith("Correct!")
    check.check(name, wrong, *given.get("wrong", ()))
    assert capsys.readouterr().out.startswith("Not yet.")


def test_a_checker_never_raises_at_the_learner(capsys):
    check = _check_module()
    for name in check._CHECKERS:
        for odd in (None, 42, "x", object(), [object()]):
            check.check(name, odd)
            assert capsys.readouterr().out


# -- how learners get to the lessons ------------------------------------------------------------

BINDER_URL = re.compile(
    r"https://mybinder\.org/v2/gh/minigrad-lessons/minigrad-lessons/main\?urlpath=lab/tree/([^)\s]+)"
)


def test_binder_badges_and_links_open_real_lessons():
    """README's badge opens lesson 0; docs/lessons.md has a badge per lesson; links resolve."""
    readme = (ROOT / "README.md").read_text()
    lessons_md = (ROOT / "docs" / "lessons.md").read_text()
    assert BINDER_URL.findall(readme)[0] == "lessons/00_start_here.ipynb"
    badges = BINDER_URL.findall(lessons_md)
    assert badges == [f"lessons/{name}.ipynb" for name in LESSON_NAMES]
    for doc in (ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))):
        text = doc.read_text()
        for target in BINDER_URL.findall(text):
            assert (ROOT / target).exists(), f"{doc.name}: Binder link to missing {target}"
        for target in re.findall(r"\]\(((?:\.\./)?lessons/[^)#\s]+\.ipynb)\)", text):
            assert (doc.parent / target).resolve().exists(), f"{doc.name} links to {target}"


def test_make_lab_opens_lesson_0():
    makefile = (ROOT / "Makefile").read_text()
    match = re.search(r"^LESSON\s*\??=\s*(\S+)", makefile, re.M)
    assert match and match.group(1) == "lessons/00_start_here.ipynb"
    assert (ROOT / match.group(1)).exists()
