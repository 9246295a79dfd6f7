"""GraphView in a real JupyterLab, in headless Chromium: what a learner sees.

One notebook (notebooks/graph_view.ipynb), run cell by cell, in one test: the
server and kernel start once (about 10 s of the run). The checks follow the
lesson: the graph appears with the right boxes, the Step control walks the
predicted order, backward() makes the gradients appear without a redraw by
the learner, Step / Reset / Play replay the engine's order, the slider view
updates the graph, a static draw() renders, and a large graph stays small.

Set MINIGRAD_SCREENSHOTS=1 to refresh docs/graphview.png from this run; every
run saves the same picture in test-artifacts/graphview.png.
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

import pytest
from harness import ARTIFACTS, EXPECT_TIMEOUT, ROOT, JupyterLab, require_browser

NOTEBOOKS = Path(__file__).parent / "notebooks"

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser-graph-view")]


def grad_cell(view):
    return view.locator('[id="mg_T1_grad"] text')


def test_graph_view_in_jupyterlab():
    require_browser()
    from playwright.sync_api import expect

    start = time.perf_counter()
    with JupyterLab(NOTEBOOKS) as lab, lab.open("graph_view.ipynb", scale=2) as nb:
        page = nb.page
        # 1. the view appears, before backward: 4 boxes, no gradient yet, predicted order
        nb.run_cell(0)
        view = nb.outputs(0).locator(".mg-view")
        expect(view.locator(".mg-stage svg g.node")).to_have_count(4)
        expect(view.locator("svg g.node title")).to_have_text(["T0", "F0", "F1", "T1"])
        expect(grad_cell(view)).to_have_text("grad None")
        expect(view.locator(".mg-readout")).to_contain_text("backward() will run 3 steps")
        step = view.get_by_role("button", name="Step")
        step.click()
        expect(view).to_have_attribute("data-active", "F0")
        expect(view.locator("#mg_F0")).to_have_class(re.compile(r"\bmg-active\b"))
        expect(view.locator(".mg-readout")).to_contain_text("MeanBackward0 will send a gradient")

        # 2. backward() in the next cell: the gradients appear in the view by themselves
        nb.run_cell(1)
        view = nb.outputs(0).locator(".mg-view")
        expect(grad_cell(view)).to_have_text("grad [[0.5, 1], [1.5, 2]]")
        expect(view.locator("#mg_E1 text")).to_have_text("[[0.25, 0.25], [0.25, 0.25]]")
        expect(view.locator("#mg_E0 text")).to_have_text("1")
        expect(view.locator(".mg-readout")).to_contain_text("backward() ran 3 steps")
        expect(view.locator(".mg-stage svg g.node")).to_have_count(4)

        # 3. Step walks the engine's order, highlighting each node and what it sends
        step = view.get_by_role("button", name="Step")
        order = []
        for expected in ("F0", "F1", "T1"):
            step.click()
            expect(view).to_have_attribute("data-active", expected)
            expect(view.locator(f"#mg_{expected}")).to_have_class(re.compile(r"\bmg-active\b"))
            order.append(expected)
            if expected == "F0":  # the gradient for MulBackward0 is on its way, v has none yet
                expect(view.locator("#mg_E1")).to_have_class(re.compile(r"\bmg-sending\b"))
                expect(view.locator("#mg_E2 text")).to_be_hidden()
                expect(grad_cell(view)).to_have_text("grad None")
                expect(view.locator(".mg-counter")).to_have_text("step 1 / 3")
            if expected == "F1":
                expect(view.locator("#mg_E2 text")).to_be_visible()
                save_screenshot(view)
        expect(grad_cell(view)).to_have_text("grad [[0.5, 1], [1.5, 2]]")
        expect(view.locator(".mg-readout")).to_contain_text("v.grad was None, is now")
        assert order == ["F0", "F1", "T1"]

        # 4. Reset goes back to before the pass; Play runs it to the end in the browser
        view.get_by_role("button", name="Reset").click()
        expect(grad_cell(view)).to_have_text("grad None")
        expect(view.locator("#mg_E1 text")).to_be_hidden()
        expect(view).to_have_attribute("data-step", "0")
        view.get_by_role("button", name="Play").click()
        expect(view).to_have_attribute("data-step", "3")
        expect(grad_cell(view)).to_have_text("grad [[0.5, 1], [1.5, 2]]")
        expect(view.get_by_role("button", name="Play")).to_be_visible()  # not "Pause"

        # 5. the slider view: moving x[0, 0] updates out, x.grad and the graph
        nb.run_cell(2)
        sliders = nb.outputs(2)
        graph = sliders.locator(".mg-view")
        expect(graph.locator(".mg-stage svg g.node")).to_have_count(4)
        expect(grad_cell(graph)).to_have_text("grad [[0.5, 1], [1.5, 2]]")
        sent = len(nb.comm_messages_sent)
        sliders.locator(".noUi-handle").first.click()
        page.keyboard.press("ArrowRight")
        expect(grad_cell(graph)).to_have_text("grad [[0.55, 1], [1.5, 2]]")
        assert len(nb.comm_messages_sent) > sent  # a slider talks to the kernel (section 7)
        expect(sliders.locator(".mg-slider-readout")).to_contain_text("[[0.55, 1], [1.5, 2]]")
        graph.get_by_role("button", name="Step").click()
        expect(graph).to_have_attribute("data-active", "F0")

        # 6. draw(): a plain SVG output, fitted to the output area
        nb.run_cell(3)
        drawn = nb.outputs(3).locator("svg")
        expect(drawn.locator("g.node")).to_have_count(4)
        box = drawn.bounding_box()
        area = nb.outputs(3).bounding_box()
        assert box["width"] <= area["width"] + 1

        # 7. a 2001-node graph is drawn folded and steps instantly
        nb.run_cell(4)
        big = nb.outputs(4).locator(".mg-view")
        nodes = big.locator(".mg-stage svg g.node")
        expect(nodes.first).to_be_visible()
        assert nodes.count() <= 160
        expect(big.locator(".mg-note")).to_contain_text("2001 backward nodes")
        big_step = big.get_by_role("button", name="Step")
        sent = len(nb.comm_messages_sent)
        for k in range(1, 4):
            big_step.click()
            expect(big).to_have_attribute("data-step", str(k))
        # responsive without a clock: a small DOM (above) and no round trip to the kernel
        assert nb.comm_messages_sent[sent:] == [], "Step went through the kernel"
        big.get_by_role("button", name="Play").click()  # 151 steps (150 nodes + the folded rest)
        expect(big).to_have_attribute("data-step", "151", timeout=151 * 50 + EXPECT_TIMEOUT)
        expect(big).to_have_attribute("data-active", "C0")
    print(f"\nbrowser test took {time.perf_counter() - start:.1f} s")


def save_screenshot(view) -> None:
    """The README's picture: the view mid-walk, MulBackward0 active."""
    ARTIFACTS.mkdir(exist_ok=True)
    view.screenshot(path=str(ARTIFACTS / "graphview.png"))
    if os.environ.get("MINIGRAD_SCREENSHOTS") == "1":
        view.screenshot(path=str(ROOT / "docs" / "graphview.png"))


def test_run_all_and_page_errors():
    """The harness as the lessons use it: Run All, wait, check outputs; page errors fail."""
    require_browser()
    from playwright.sync_api import expect

    start = time.perf_counter()
    with JupyterLab(NOTEBOOKS) as lab:
        with lab.open("run_all.ipynb") as nb:
            nb.run_all()
            nb.wait_until_executed()
            expect(nb.outputs(0).locator("svg g.node")).to_have_count(4)
            view = nb.outputs(1).locator(".mg-view")
            expect(view.locator(".mg-stage svg g.node")).to_have_count(4)
            expect(grad_cell(view)).to_have_text("grad [[0.5, 1], [1.5, 2]]")
            expect(nb.outputs(2)).to_contain_text("tensor([[0.5000, 1.0000],")
        with pytest.raises(AssertionError, match="errors in the page:\n.*boom"):
            with lab.open("run_all.ipynb", name="harness-selftest") as nb:
                with nb.page.expect_event("pageerror"):
                    nb.page.evaluate("setTimeout(() => { throw new Error('boom') })")
    assert (ARTIFACTS / "harness-selftest-page-errors.png").exists()
    print(f"\nRun All test took {time.perf_counter() - start:.1f} s")
