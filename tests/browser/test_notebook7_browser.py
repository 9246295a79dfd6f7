"""GraphView in Notebook 7 (``jupyter notebook``), in headless Chromium: the issue's check.

The view is an anywidget, so it should need nothing special in Notebook 7; these
tests make sure, with the same notebooks as the JupyterLab tests
(notebooks/graph_view.ipynb cell by cell, notebooks/run_all.ipynb with Run All)
on one Notebook 7 server. What the page must show is not written out by hand:
``reference()`` builds the same graph in this process with the same engine and
reads the view's boxes, backward steps and gradient texts, so the browser is
held to the engine's order.

- cell by cell: the SVG with the graph's boxes, no gradient yet, Step walking
  the predicted order; ``backward()`` in the next cell makes the gradient
  labels (the grad row of ``v``, the text on every arrow) appear by themselves;
  Step then highlights the nodes in the engine's order, and Reset goes back.
- Run All (Run > Run All Cells, after the notebook's kernel is ready): every
  cell ran, the static drawing and the view show their boxes and ``v.grad``.
  Then the harness's self-check: it tolerates Notebook 7.6's own start-up error
  (``JupyterNotebook.known_page_errors``), but the same message thrown by the
  page's code still fails the test.

Run: ``.venv/bin/python -m pytest -m browser tests/browser/test_notebook7_browser.py``.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import nbformat
import pytest
from conftest import require_program
from harness import ARTIFACTS, JupyterNotebook, require_browser

NOTEBOOKS = Path(__file__).parent / "notebooks"
ACTIVE = re.compile(r"\bmg-active\b")

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser-notebook7")]


def reference() -> dict:
    """What the view of graph_view.ipynb's first cell shows, from the engine in this process.

    Runs the cell's source (``mean(v*v)`` and its ``GraphView``), then
    ``out.backward()``: the box ids in the SVG, the steps in the engine's order,
    the grad rows' texts before and after, and each arrow's gradient text.
    """
    require_program("dot")  # the SVG, as in the kernel
    import widgets

    cell = nbformat.read(NOTEBOOKS / "graph_view.ipynb", as_version=4).cells[0].source
    namespace: dict = {}
    exec(compile(cell, "graph_view.ipynb[0]", "exec"), namespace)
    view: widgets.GraphView = namespace["view"]
    view.flush()  # what displaying it does (a view draws when someone looks)
    predicted = [step["node"] for step in view.steps]
    namespace["out"].backward()
    view.flush()
    steps = view.steps
    return {
        "boxes": re.findall(r'<g id="mg_(\w+)" class="node\b', view.svg),
        "predicted": predicted,
        "order": [step["node"] for step in steps],
        "labels": [step["label"] for step in steps],
        "texts": [step["text"] for step in steps],
        "cells": {cid: (before, after) for s in steps for cid, before, after in s["cells"]},
        "edges": {
            eid: text for s in steps for eid, text in [*filter(None, [s["in_edge"]]), *s["edges"]]
        },
    }


@pytest.fixture(scope="module")
def notebook7():
    """One Notebook 7 server on a copy of notebooks/, for the tests of this module."""
    require_browser(JupyterNotebook)
    with JupyterNotebook(NOTEBOOKS) as server:
        yield server


def test_reference_is_the_lessons_graph():
    """The engine's picture of mean(v*v), which the browser checks below rely on."""
    ref = reference()
    assert ref["boxes"] == ["T0", "F0", "F1", "T1"]
    assert ref["order"] == ref["predicted"] == ["F0", "F1", "T1"]
    assert ref["labels"] == ["MeanBackward0", "MulBackward0", "AccumulateGrad"]
    assert ref["cells"] == {"T1_grad": ("grad None", "grad [[0.5, 1], [1.5, 2]]")}
    assert ref["edges"]["E0"] == "1"
    assert ref["edges"]["E1"] == "[[0.25, 0.25], [0.25, 0.25]]"


def test_graph_view_in_notebook7(notebook7):
    from playwright.sync_api import expect

    ref = reference()
    order, n = ref["order"], len(ref["order"])
    start = time.perf_counter()
    with notebook7.open("graph_view.ipynb", name="notebook7-graph-view") as nb:
        page = nb.page
        expect(page.locator("body")).to_have_attribute("data-notebook", "notebooks")  # Notebook 7
        assert "/notebooks/graph_view.ipynb" in page.url

        # 1. the view appears with the graph's boxes; no gradient yet; Step walks the prediction
        nb.run_cell(0)
        view = nb.outputs(0).locator(".mg-view")
        expect(view.locator(".mg-stage svg g.node")).to_have_count(len(ref["boxes"]))
        expect(view.locator(".mg-stage svg g.node > title")).to_have_text(ref["boxes"])
        for cid, (before, _) in ref["cells"].items():
            expect(view.locator(f'[id="mg_{cid}"] text')).to_have_text(before)
        expect(view.locator(".mg-readout")).to_contain_text(f"backward() will run {n} steps")
        view.get_by_role("button", name="Step").click()
        expect(view).to_have_attribute("data-active", ref["predicted"][0])
        expect(view.locator(f"#mg_{ref['predicted'][0]}")).to_have_class(ACTIVE)

        # 2. backward() in the next cell: the gradient labels appear without a redraw
        nb.run_cell(1)
        view = nb.outputs(0).locator(".mg-view")
        for cid, (_, after) in ref["cells"].items():
            expect(view.locator(f'[id="mg_{cid}"] text')).to_have_text(after)
        for eid, text in ref["edges"].items():
            expect(view.locator(f"#mg_{eid} text")).to_have_text(text)
            expect(view.locator(f"#mg_{eid} text")).to_be_visible()
        expect(view.locator(".mg-readout")).to_contain_text(f"backward() ran {n} steps")
        expect(view.locator(".mg-stage svg g.node")).to_have_count(len(ref["boxes"]))
        expect(view.locator(".mg-stage svg .mg-active")).to_have_count(0)

        # 3. Step highlights the nodes one at a time, in the engine's order
        step = view.get_by_role("button", name="Step")
        seen = []
        for k, (node, text) in enumerate(zip(order, ref["texts"]), start=1):
            step.click()
            expect(view).to_have_attribute("data-step", str(k))
            expect(view).to_have_attribute("data-active", node)
            expect(view.locator(f"#mg_{node}")).to_have_class(ACTIVE)
            expect(view.locator(".mg-stage svg .mg-active")).to_have_count(1)
            expect(view.locator(".mg-counter")).to_have_text(f"step {k} / {n}")
            expect(view.locator(".mg-readout")).to_have_text(f"{k}. {text}")
            seen.append(view.get_attribute("data-active"))
            if k == 1:  # the leaf's gradient arrives only at its own step
                for cid, (before, _) in ref["cells"].items():
                    expect(view.locator(f'[id="mg_{cid}"] text')).to_have_text(before)
        assert seen == order
        for cid, (_, after) in ref["cells"].items():
            expect(view.locator(f'[id="mg_{cid}"] text')).to_have_text(after)

        # 4. Reset: back to before the pass
        view.get_by_role("button", name="Reset").click()
        expect(view).to_have_attribute("data-step", "0")
        for cid, (before, _) in ref["cells"].items():
            expect(view.locator(f'[id="mg_{cid}"] text')).to_have_text(before)
    print(f"\nNotebook 7 graph view test took {time.perf_counter() - start:.1f} s")


def test_run_all_in_notebook7(notebook7):
    from playwright.sync_api import expect

    ref = reference()
    grad = ref["cells"]["T1_grad"][1]
    start = time.perf_counter()
    with notebook7.open("run_all.ipynb", name="notebook7-run-all") as nb:
        nb.run_all()
        nb.wait_until_executed()
        expect(nb.code_cells().locator(".jp-InputArea-prompt")).to_have_text(
            ["[1]:", "[2]:", "[3]:"]
        )
        expect(nb.outputs(0).locator("svg g.node")).to_have_count(len(ref["boxes"]))
        view = nb.outputs(1).locator(".mg-view")
        expect(view.locator(".mg-stage svg g.node")).to_have_count(len(ref["boxes"]))
        expect(view.locator('[id="mg_T1_grad"] text')).to_have_text(grad)
        view.get_by_role("button", name="Step").click()
        expect(view).to_have_attribute("data-active", ref["order"][0])
        expect(nb.outputs(2)).to_contain_text("tensor([[0.5000, 1.0000],")

    # the known Notebook error is matched on message *and* stack: the same message
    # thrown from the page's own code still fails the test
    with pytest.raises(AssertionError, match=r"errors in the page:\n.*reading 'schema'"):
        with notebook7.open("run_all.ipynb", name="notebook7-selftest") as nb:
            known = nb.lab.known_page_error  # Notebook's own start-up error may come first
            with nb.page.expect_event(
                "pageerror", lambda error: known(str(error), error.stack or "") is None
            ):
                nb.page.evaluate("setTimeout(() => { const plugin = undefined; plugin.schema })")
    assert (ARTIFACTS / "notebook7-selftest-page-errors.png").exists()
    print(f"\nNotebook 7 Run All test took {time.perf_counter() - start:.1f} s")
