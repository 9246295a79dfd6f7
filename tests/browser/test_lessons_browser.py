"""Every lesson in a real JupyterLab, in headless Chromium: what a learner gets on Run All.

For each lesson (its own server and kernel, from the harness): Run > Run All
Cells runs every cell (JupyterLab goes on past cells tagged ``raises-exception``,
and stops at any other error, which the wait would then report); a traceback
appears exactly under the tagged cells and no other cell writes to stderr;
every graph cell (``widgets.draw``, ``GraphView``, ``SliderView``) shows an SVG
graph with boxes; every matplotlib cell shows a picture; the "Your turn" cells
answer; and the page raises no JavaScript error (the harness fails on one).
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import nbformat
import pytest
from harness import JupyterLab, require_browser

ROOT = Path(__file__).resolve().parents[2]
LESSONS_DIR = ROOT / "lessons"
LESSONS = sorted(LESSONS_DIR.glob("[0-9][0-9]_*.ipynb")) + sorted(
    LESSONS_DIR.glob("zh-CN/[0-9][0-9]_*.ipynb")
)  # the English lessons, then their Chinese twins
REMINDER = {"lessons": "Replace the ... with your answer", "zh-CN": "把 ... 换成你的答案"}
GRAPH_CALL = re.compile(r"widgets\.(draw|GraphView|SliderView)\(")
PICTURE_CALL = re.compile(r"plt\.show\(\)|widgets\.(plot_fit|plot_function_and_grad|LossPlot)\(")
STDERR = '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]'
RUN_ALL_TIMEOUT = 240_000  # ms; a lesson runs in a few seconds, a loaded machine is far slower

# No xdist group: each lesson has its own server, so make test's two workers share the
# lessons instead of one worker running all of them in a row (the longest chain of the run).
pytestmark = pytest.mark.browser


def code_cells(path: Path) -> list:
    return [c for c in nbformat.read(path, as_version=4).cells if c.cell_type == "code"]


@pytest.mark.parametrize(
    "path", LESSONS, ids=[p.relative_to(LESSONS_DIR).as_posix() for p in LESSONS]
)
def test_lesson_runs_in_jupyterlab(path):
    require_browser()
    from playwright.sync_api import expect

    cells = code_cells(path)
    start = time.perf_counter()
    name = path.relative_to(LESSONS_DIR).as_posix()
    with JupyterLab(LESSONS_DIR) as lab, lab.open(name, name.replace("/", "-")) as nb:
        expect(nb.code_cells()).to_have_count(
            len(cells), timeout=RUN_ALL_TIMEOUT
        )  # slow under load
        nb.run_all()
        nb.wait_until_executed(timeout=RUN_ALL_TIMEOUT)

        for i, cell in enumerate(cells):
            where = f"{path.name}, code cell {i}"
            stderr = nb.code_cells().nth(i).locator(STDERR)
            if "raises-exception" in cell.metadata.get("tags", []):
                expect(stderr.first, where).to_contain_text("Traceback")
            else:
                assert stderr.count() == 0, f"{where} wrote to stderr:\n{stderr.all_inner_texts()}"
            if GRAPH_CALL.search(cell.source):
                expect(nb.outputs(i).locator("svg g.node").first, where).to_be_visible()
                assert nb.outputs(i).locator("svg g.node").count() >= 2, where
            if PICTURE_CALL.search(cell.source):
                expect(nb.outputs(i).locator("img").first, where).to_be_visible()
            if "check(" in cell.source and "answer = ..." in cell.source:
                expect(nb.outputs(i), where).to_contain_text(REMINDER[path.parent.name])
    print(f"\n{path.name} in JupyterLab: {time.perf_counter() - start:.1f} s")
