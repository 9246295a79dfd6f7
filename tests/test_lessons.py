"""The lessons, in English and in Chinese: every notebook runs and says the truth.

- Each lesson (``lessons/NN_*.ipynb`` and its Chinese twin ``lessons/zh-CN/NN_*.ipynb``)
  executes in a fresh kernel (nbclient, cwd = the notebook's folder, as Jupyter
  does) with no error output except in cells tagged ``raises-exception``, and
  every tagged cell really raises and says in its text that it fails on purpose.
  Its traceback shows the learner's line and the line that raised: the engine's
  frames in between are hidden (``__tracebackhide__``).
- Every output a lesson states in its markdown is what the cells print. A
  markdown cell that shows output puts it in a top-level ```` ```text ```` block,
  right after the code cell that prints it, and says "You should see" (in Chinese
  "你应该看到") before it, so that nothing looks like output before it runs (cell ids
  are left to nbstripout); short claims inside sentences (``7.5``) are listed in
  ``metadata.lesson.inline``. Old PyTorch output is told as history inside a ``>``
  quote, which is not checked.
- A Chinese lesson has exactly the English lesson's code: the same code cells
  with the same tags, token for token, comments and the contents of strings aside.
- Notebooks are committed without outputs or execution counts.
- Every "Your turn" checker accepts the right answer, hints at a wrong one, and
  only reminds when the answer is still ``...``, in both languages.

How long each lesson takes is printed (``-s``) and written to
test-artifacts/lesson-times/; it is not asserted (the machine's load varies).
"""

from __future__ import annotations

import ast
import importlib.util
import io
import os
import re
import sys
import time
import tokenize
import unicodedata
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
LESSONS_DIR = ROOT / "lessons"
ZH_DIR = LESSONS_DIR / "zh-CN"
LESSON_NAMES = [
    "00_start_here",
    "01_eggs_and_baskets",
    "02_graph_behind_the_curtain",
    "03_getting_the_eggs_out",
    "04_tensors_to_plots",
    "05_train_save_load",
    "06_inside_minigrad",
    "07_gradients_of_gradients",
]
ENGLISH = sorted(LESSONS_DIR.glob("[0-9][0-9]_*.ipynb"))
CHINESE = sorted(ZH_DIR.glob("[0-9][0-9]_*.ipynb"))
NOTEBOOKS = ENGLISH + CHINESE
TIMEOUT = 120  # seconds per cell: generous, a lesson takes a few seconds in all
CHECK_CALL = re.compile(r'(?<![\w.])check\("([^"]+)"')


class Words:
    """What each edition says where the tests look."""

    def __init__(self, language, fails, should_see, title, goal, recap, correct, not_yet):
        self.language, self.fails, self.should_see = language, fails, should_see
        self.title, self.goal, self.recap = title, goal, recap
        self.correct, self.not_yet = correct, not_yet


EN = Words("en", "fails on purpose", "You should see", "# Lesson {n} ·", "**Goal:**", "## Recap",
           "Correct!", "Not yet.")  # fmt: skip
ZH = Words("zh-CN", "故意出错", "你应该看到", "# 第 {n} 课 ·", "**目标**\uff1a", "## 小结",
           "答对了\uff01", "还不对。")  # fmt: skip
FAILS_ON_PURPOSE = EN.fails


def words(path: Path) -> Words:
    return ZH if path.parent == ZH_DIR else EN


def lesson_id(path: Path) -> str:
    return f"zh-CN/{path.stem}" if path.parent == ZH_DIR else path.stem


def _param(path: Path):
    # One xdist group per notebook: its tests share one execution on one worker.
    group = f"lesson-{lesson_id(path)}"
    return pytest.param(path, id=lesson_id(path), marks=pytest.mark.xdist_group(group))


LESSON_PARAMS = [_param(p) for p in NOTEBOOKS]
PAIRS = [pytest.param(LESSONS_DIR / p.name, p, id=p.stem) for p in CHINESE]  # (English, Chinese)


def read(path: Path) -> nbformat.NotebookNode:
    return nbformat.read(path, as_version=4)


def kernel_env() -> dict[str, str]:
    """The kernel imports this working tree's minigrad and widgets, installed or not."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    env.setdefault("MPLBACKEND", "module://matplotlib_inline.backend_inline")
    return env


def execute(path: Path, cwd: Path | None = None, env: dict | None = None):
    """Run a notebook in a fresh kernel; return the executed notebook and the seconds taken."""
    from nbclient import NotebookClient

    nb = read(path)
    client = NotebookClient(
        nb,
        timeout=TIMEOUT,
        kernel_name="python3",
        resources={"metadata": {"path": str(cwd or path.parent)}},
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
    assert [p.stem for p in ENGLISH] == LESSON_NAMES


def test_every_chinese_lesson_has_an_english_twin():
    assert {p.stem for p in CHINESE} <= set(LESSON_NAMES)


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
    w = words(path)
    first = nb.cells[0]
    number = int(path.stem[:2])
    assert first.cell_type == "markdown"
    assert first.source.startswith(w.title.format(n=number)), first.source[:40]
    goals = [line for line in first.source.splitlines() if line.startswith(w.goal)]
    assert len(goals) == 1, f"{path.name}: one {w.goal!r} line at the top"
    checks = [c for c in nb.cells if c.cell_type == "code" and CHECK_CALL.search(c.source)]
    assert 2 <= len(checks) <= 3, f"{path.name} has {len(checks)} exercises"
    assert any(c.source.startswith(w.recap) for c in nb.cells if c.cell_type == "markdown")


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
    fails = words(path).fails
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        says = fails in cell.source.splitlines()[0].lower()
        assert says == is_tagged(cell), (
            f"{path.name} cell {cell.id}: tag raises-exception={is_tagged(cell)} "
            f"but first line says fails on purpose={says}"
        )
        if says:
            before = nb.cells[i - 1]
            text = " ".join(before.source.replace("*", "").split()).lower()
            assert before.cell_type == "markdown" and fails in text, (
                f"{path.name} cell {cell.id}: the text before it must say it fails on purpose"
            )


@pytest.mark.parametrize("path", LESSON_PARAMS)
def test_links_between_lessons_exist(path):
    nb = read(path)
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            for target in re.findall(r"\]\(([^)#\s]+\.ipynb)\)", cell.source):
                assert (path.parent / target).exists(), f"{path.name} links to missing {target}"


# -- execution --------------------------------------------------------------------------------


@pytest.mark.parametrize("path", LESSON_PARAMS)
def test_lesson_runs_top_to_bottom(path):
    nb, seconds = executed(path)
    name = lesson_id(path)
    report = ROOT / "test-artifacts" / "lesson-times" / f"{name.replace('/', '-')}.txt"
    report.parent.mkdir(parents=True, exist_ok=True)
    report.write_text(f"{name}\t{seconds:.1f} s\n")
    print(f"{name}: {seconds:.1f} s")
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


ANSI = re.compile(r"\x1b\[[0-9;]*m")


@pytest.mark.parametrize("path", LESSON_PARAMS)
def test_a_failing_cell_s_traceback_ends_in_the_learner_s_cell(path):
    """minigrad's walk through its engine is hidden (``__tracebackhide__``).

    IPython always shows the innermost frame, the line that raised; besides it
    a learner sees their own cell and, for a backward, the op's own ``backward``
    (lesson 6's subject). A comprehension's frame (its own frame before Python
    3.12) does not count.
    """
    nb, _ = executed(path)
    for cell in nb.cells:
        if cell.cell_type != "code" or not is_tagged(cell):
            continue
        (error,) = [o for o in cell.outputs if o.output_type == "error"]
        text = ANSI.sub("", "\n".join(error.traceback))
        frames = re.findall(r"^(Cell In\[\d+\]|File (\S+):\d+, in ([^(]+))", text, re.M)
        assert frames and frames[0][0].startswith("Cell In"), text
        inner = [
            f"{file} {func}"
            for _, file, func in frames[1:-1]
            if "/minigrad/" in file and not func.startswith("<") and not func.endswith(".backward")
        ]
        assert not inner, f"{path.name} cell {cell.id} shows minigrad's frames {inner}:\n{text}"


@pytest.mark.parametrize("path", LESSON_PARAMS)
def test_stated_output_is_set_apart_as_what_you_should_see(path):
    """Nothing in the text looks like output before the cell runs: "You should see" first."""
    should_see = words(path).should_see
    for i, cell in enumerate(read(path).cells):
        if cell.cell_type != "markdown":
            continue
        text = cell.source
        for match in FENCE.finditer(text):
            before = text[: match.start()].rstrip().splitlines()
            assert before and should_see in before[-1], (
                f"{path.name}, markdown cell {i}: say {should_see!r} before\n{match.group(0)}"
            )


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


def code_tokens(source: str) -> list[tuple[int, str]]:
    """The tokens of a cell's code, without comments and with every string's contents blanked."""
    tokens = []
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type in (tokenize.COMMENT, tokenize.NL):
            continue
        text = tok.string
        if tok.type == tokenize.STRING:
            prefix = re.match(r"[A-Za-z]*", text).group(0).lower()
            text = f"{prefix}STRING"
        elif tok.type == getattr(tokenize, "FSTRING_MIDDLE", -1):
            continue
        tokens.append((tok.type, text))
    return tokens


@pytest.mark.parametrize(("english", "chinese"), PAIRS)
def test_the_chinese_lesson_has_the_english_lesson_s_code(english, chinese):
    en = [c for c in read(english).cells if c.cell_type == "code"]
    zh = [c for c in read(chinese).cells if c.cell_type == "code"]
    assert len(zh) == len(en), f"{chinese.name}: {len(zh)} code cells, English has {len(en)}"
    for i, (a, b) in enumerate(zip(en, zh, strict=True)):
        assert a.metadata.get("tags", []) == b.metadata.get("tags", []), f"code cell {i}: tags"
        assert code_tokens(b.source) == code_tokens(a.source), (
            f"{chinese.name}, code cell {i} differs from the English:\n{b.source}\n---\n{a.source}"
        )


@pytest.mark.parametrize(("english", "chinese"), PAIRS)
def test_the_chinese_lesson_is_written_in_chinese(english, chinese):
    """Every markdown cell of the Chinese edition is Chinese, and they are as many as in English."""
    en = [c for c in read(english).cells if c.cell_type == "markdown"]
    zh = [c for c in read(chinese).cells if c.cell_type == "markdown"]
    assert len(zh) == len(en), f"{chinese.name}: {len(zh)} markdown cells, English has {len(en)}"
    for i, cell in enumerate(zh):
        assert re.search(r"[\u4e00-\u9fff]", cell.source), (
            f"{chinese.name} markdown {i}:\n{cell.source}"
        )
    code = "".join(c.source for c in read(chinese).cells if c.cell_type == "code")
    if re.search(r"widgets\.(draw|GraphView|SliderView)\(", code):
        assert 'widgets.set_language("zh-CN")' in code, f"{chinese.name}: graph views in English"
        assert "set_language(" not in code.replace('set_language("zh-CN")', "")
    for link in re.findall(r"\]\(([^)#\s]+\.ipynb)\)", "".join(c.source for c in zh)):
        assert not link.startswith(".."), f"{chinese.name} links out of zh-CN/: {link}"


def _punctuation(ch: str) -> bool:
    return unicodedata.category(ch).startswith(("P", "S"))


@pytest.mark.parametrize("path", CHINESE, ids=[p.stem for p in CHINESE])
def test_chinese_bold_text_renders_bold(path):
    """CommonMark does not close ``**`` after punctuation when a letter follows: ``**目标:**了``
    shows its asterisks. Chinese puts the full-width mark outside: ``**目标**：了``."""
    for i, cell in enumerate(read(path).cells):
        if cell.cell_type != "markdown":
            continue
        for paragraph in re.sub(r"`[^`]*`", "x", cell.source).split("\n\n"):
            marks = [m.start() for m in re.finditer(r"\*\*", paragraph)]
            for closing in marks[1::2]:
                before, after = paragraph[closing - 1], paragraph[closing + 2 : closing + 3]
                stuck = (
                    _punctuation(before) and after and not (after.isspace() or _punctuation(after))
                )
                assert not stuck, (
                    f"{path.name} markdown {i}: **…{paragraph[closing - 8 : closing + 4]}"
                )


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


def _check_module(language: str = "en"):
    """lessons/_check.py, or the Chinese front end lessons/zh-CN/_check.py, freshly loaded."""
    folder = ZH_DIR if language == "zh-CN" else LESSONS_DIR
    name = f"_check_{language.replace('-', '_')}"
    spec = importlib.util.spec_from_file_location(name, folder / "_check.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up here
    spec.loader.exec_module(module)
    return module


LANGUAGES = [pytest.param(EN, id="en"), pytest.param(ZH, id="zh-CN")]
CJK = re.compile(r"[\u4e00-\u9fff]")


def _solutions():
    """For each exercise: (right answer, a wrong answer, extra arguments)."""
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

    class SineNet(minigrad.nn.Module):
        def __init__(self):
            super().__init__()
            self.hidden = minigrad.nn.Linear(1, 16)
            self.out = minigrad.nn.Linear(16, 1)

    tuned, untouched_net = SineNet(), SineNet()
    for p in tuned.hidden.parameters():
        p.requires_grad_(False)

    basket = minigrad.tensor([1.0, 2.0, 3.0], requires_grad=True)
    solutions = {
        "basket": (
            minigrad.tensor([5.0, 6.0, 7.0], requires_grad=True),
            minigrad.tensor([5.0, 6.0, 7.0]),
        ),
        "refused-flags": ([1, 0, 1.0, "yes"], ["1", "0", "1.0", "yes"]),
        "eggs-out": (basket.detach(), basket.detach().clone()),
        "grad-by-hand": ([1.0, 4.0, 9.0], [3.0, 12.0, 27.0]),
        "vjp": ([2.0, 0.0, -6.0], [2.0, 4.0, 6.0]),
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
        "freeze": (tuned, untouched_net),
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
            "restore": (restored, untouched),
            "step-order": ("CDBA", "ABCD"),
            "second-derivative": (minigrad.tensor(48.0), 32.0),
            "hvp": (minigrad.tensor([2.0, 12.0]), minigrad.tensor([4.0, 2.0])),
            "newton": (4 / 3, 2.0),
        }
    )
    extra = {
        "eggs-out": {"right": (basket,), "wrong": (basket,)},
        "to-numpy": {"right": (w_right,), "wrong": (w_wrong,)},
        "plot-ready": {"right": (pred,), "wrong": (pred,)},
        "restore": {"right": (trained_model,), "wrong": (trained_model,)},
    }
    not_attempted = {"cube": UnfinishedCube}
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


def test_the_chinese_front_end_is_the_same_rules():
    assert _check_module("zh-CN")._CHECKERS.keys() == _check_module()._CHECKERS.keys()


@pytest.mark.parametrize("w", LANGUAGES)
@pytest.mark.parametrize("name", sorted(_exercises_in_notebooks()))
def test_checker_accepts_the_right_answer_and_hints_at_a_wrong_one(name, w, capsys):
    check = _check_module(w.language)
    solutions, extra, not_attempted = _solutions()
    right, wrong = solutions[name]
    given = extra.get(name, {})
    ok, message = check.verdict(name, right, *given.get("right", ()))
    assert ok is True, message
    ok, hint = check.verdict(name, wrong, *given.get("wrong", ()))
    assert ok is False and hint, hint
    ok, reminder = check.verdict(name, not_attempted.get(name, ...), *given.get("right", ()))
    assert ok is None and "..." in reminder
    for said in (message, hint, reminder):
        assert bool(CJK.search(said)) == (w is ZH), f"{w.language}: {said!r}"
    check.check(name, right, *given.get("right", ()))
    assert capsys.readouterr().out.startswith(w.correct)
    check.check(name, wrong, *given.get("wrong", ()))
    assert capsys.readouterr().out.startswith(w.not_yet)


@pytest.mark.parametrize("w", LANGUAGES)
def test_a_checker_never_raises_at_the_learner(w, capsys):
    check = _check_module(w.language)
    for name in check._CHECKERS:
        for odd in (None, 42, "x", object(), [object()]):
            check.check(name, odd)
            assert capsys.readouterr().out


@pytest.mark.parametrize("w", LANGUAGES)
def test_a_cell_still_holding_its_ellipsis_gets_a_reminder_not_the_answer(w, capsys):
    """On the first Run All, zero-grad and restore must not hint (their answer is a line)."""
    check = _check_module(w.language)
    solutions, extra, _ = _solutions()
    cell = "w = ...\nfor _ in range(3):\n    ...  # your line here\n    loss.backward()\n"
    for name in ("zero-grad", "restore", "freeze"):
        wrong = solutions[name][1]
        ok, said = check.verdict(name, wrong, *extra.get(name, {}).get("wrong", ()), source=cell)
        assert ok is None and "..." in said, said
    # the same through check(), which reads the asking cell's code itself
    code = compile(
        cell.replace("w = ...", "w = wrong") + "check('zero-grad', w)\n", "<cell>", "exec"
    )
    import linecache

    linecache.cache["<cell>"] = (0, None, cell.splitlines(True), "<cell>")
    try:
        exec(code, {"wrong": solutions["zero-grad"][1], "check": check.check, "loss": _Noop()})
    finally:
        del linecache.cache["<cell>"]
    assert capsys.readouterr().out.strip() == check.verdict("x", ...)[1]


class _Noop:
    def backward(self):
        pass


@pytest.mark.parametrize("w", LANGUAGES)
def test_numpy_through_data_is_not_the_recommended_way(w):
    import minigrad

    check = _check_module(w.language)
    weights = minigrad.tensor([0.5, -1.5], requires_grad=True)
    ok, hint = check.verdict(
        "to-numpy", weights.data.numpy(), weights, source="answer = weights.data.numpy()"
    )
    assert ok is False and ".data" in hint
    ok, _ = check.verdict(
        "to-numpy", weights.detach().numpy(), weights, source="answer = weights.detach().numpy()"
    )
    assert ok is True


@pytest.mark.parametrize("w", LANGUAGES)
def test_refused_flags_are_the_flags_not_their_spelling(w):
    check = _check_module(w.language)
    for wrong in (["1.0", "None", "yes"], [1, 0, "1.0", "yes"], [True, 1, 0, 1.0, "yes"], [1.0]):
        assert check.verdict("refused-flags", wrong)[0] is False, wrong
    assert check.verdict("refused-flags", ["yes", 1.0, 0, 1])[0] is True


# -- how learners get to the lessons ------------------------------------------------------------

BINDER_URL = re.compile(
    r"https://mybinder\.org/v2/gh/minigrad-lessons/minigrad-lessons/main\?urlpath=lab/tree/([^)\s]+)"
)


def test_every_lesson_has_its_chinese_edition():
    assert [p.stem for p in CHINESE] == LESSON_NAMES


def test_binder_badges_and_links_open_real_lessons():
    """Each README's first badge opens its lesson 0; docs/lessons.md has a badge per lesson in
    both editions, README.zh-CN.md one per Chinese lesson; the READMEs link to each other."""
    readme = (ROOT / "README.md").read_text()
    readme_zh = (ROOT / "README.zh-CN.md").read_text()
    lessons_md = (ROOT / "docs" / "lessons.md").read_text()
    english = [f"lessons/{name}.ipynb" for name in LESSON_NAMES]
    chinese = [f"lessons/zh-CN/{name}.ipynb" for name in LESSON_NAMES]
    assert BINDER_URL.findall(readme)[0] == english[0]
    assert BINDER_URL.findall(readme_zh) == [chinese[0], *chinese]
    assert BINDER_URL.findall(lessons_md) == english + chinese
    assert "](README.zh-CN.md)" in readme and "](README.md)" in readme_zh
    for doc in (
        ROOT / "README.md",
        ROOT / "README.zh-CN.md",
        *sorted((ROOT / "docs").glob("*.md")),
    ):
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
