"""The graph of a gradient (``create_graph=True``) in a real JupyterLab: lesson 7's view.

notebooks/gradient_graph.ipynb, cell by cell: ``GraphView(dy)`` of
``dy = grad(x**3, x, create_graph=True)`` shows the nodes backward recorded with
PyTorch's names; Step walks the predicted order; ``dy.backward()`` fills in the
second derivative and Step/Reset/Play replay it; a Hessian-vector product through
``autograd.grad`` ends on a step that says the gradient was returned and ``w.grad``
did not change. Nothing in the browser code is special to gradients: this checks
that it needs nothing.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from harness import JupyterLab, require_browser

NOTEBOOKS = Path(__file__).parent / "notebooks"

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser-gradient-graph")]


def test_gradient_graph_view_in_jupyterlab():
    require_browser()
    from playwright.sync_api import expect

    start = time.perf_counter()
    with JupyterLab(NOTEBOOKS) as lab, lab.open("gradient_graph.ipynb") as nb:
        # 1. the gradient's graph, before a second backward: 3 nodes made inside backward
        nb.run_cell(0)
        view = nb.outputs(0).locator(".mg-view")
        nodes = view.locator(".mg-stage svg g.node")
        expect(nodes).to_have_count(5)
        expect(view.locator("svg g.node title")).to_have_text(["T0", "F0", "F1", "F2", "T1"])
        for box, name in (("F0", "MulBackward0"), ("F1", "MulBackward1"), ("F2", "PowBackward0")):
            expect(view.locator(f"#mg_{box}")).to_contain_text(name)
        expect(view.locator("#mg_T0")).to_contain_text("dy")
        expect(view.locator('[id="mg_T1_grad"] text')).to_have_text("grad None")
        expect(view.locator(".mg-readout")).to_contain_text("backward() will run 4 steps")
        view.get_by_role("button", name="Step").click()
        expect(view).to_have_attribute("data-active", "F0")

        # 2. the second backward: x.grad is the second derivative, and Step replays the pass
        nb.run_cell(1)
        view = nb.outputs(0).locator(".mg-view")
        grad_cell = view.locator('[id="mg_T1_grad"] text')
        expect(grad_cell).to_have_text("grad 18")
        expect(view.locator(".mg-readout")).to_contain_text("backward() ran 4 steps")
        step = view.get_by_role("button", name="Step")
        for expected in ("F0", "F1", "F2", "T1"):
            step.click()
            expect(view).to_have_attribute("data-active", expected)
            expect(view.locator(f"#mg_{expected}")).to_have_class(re.compile(r"\bmg-active\b"))
            if expected == "F1":
                expect(grad_cell).to_have_text("grad None")
                expect(view.locator(".mg-readout")).to_contain_text(
                    "MulBackward1 received 1 and sent 3 to PowBackward0"
                )
        expect(view.locator(".mg-readout")).to_contain_text("x.grad was None, is now 18")
        expect(grad_cell).to_have_text("grad 18")
        view.get_by_role("button", name="Reset").click()
        expect(grad_cell).to_have_text("grad None")
        view.get_by_role("button", name="Play").click()
        expect(view).to_have_attribute("data-step", "4")
        expect(grad_cell).to_have_text("grad 18")

        # 3. a Hessian-vector product: autograd.grad returns H v, w.grad stays None
        nb.run_cell(2)
        hvp = nb.outputs(2).locator(".mg-view")
        expect(hvp.locator(".mg-stage svg g.node").first).to_be_visible()
        expect(hvp.locator("svg")).to_contain_text("SelectBackwardBackward0")
        nb.run_cell(3)
        hvp = nb.outputs(2).locator(".mg-view")
        expect(hvp.locator(".mg-readout")).to_contain_text("backward() ran")
        hvp.get_by_role("button", name="Play").click()
        expect(hvp.locator(".mg-readout")).to_contain_text(
            "AccumulateGrad: [4, 2] reached w and autograd.grad() returns it; w.grad stays None",
            timeout=30_000,
        )
        expect(hvp.locator('[id="mg_T1_grad"] text')).to_have_text("grad None")
    print(f"\ngradient graph browser test took {time.perf_counter() - start:.1f} s")
