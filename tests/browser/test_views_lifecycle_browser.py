"""A view's life in JupyterLab: its words in the lesson's language, and re-running its cell.

Re-running the cell that makes a ``GraphView`` replaces its output; the old
browser view tells the kernel it is gone, and the old view stops listening
(issue 10: thirty re-runs used to leave thirty listeners, each slowing every
later backward). The view speaks Chinese when the notebook asks (issue 11).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from harness import JupyterLab, require_browser

NOTEBOOKS = Path(__file__).parent / "notebooks"

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser-graph-view")]


def test_graph_view_lifecycle_and_language():
    require_browser()
    from playwright.sync_api import expect

    with JupyterLab(NOTEBOOKS) as lab, lab.open("views_lifecycle.ipynb") as nb:
        nb.run_cell(0)
        view = nb.outputs(0).locator(".mg-view")
        expect(view.locator(".mg-stage svg g.node")).to_have_count(4)
        for word in ("单步", "播放", "重置"):
            expect(view.get_by_role("button", name=word)).to_be_visible()
        expect(view.locator(".mg-readout")).to_contain_text("backward() 将运行 3 步")
        view.get_by_role("button", name="单步").click()
        expect(view.locator(".mg-readout")).to_contain_text("MeanBackward0 将把梯度传给")
        nb.run_cell(1)  # keep the first view in a variable
        nb.run_cell(0)  # the learner re-runs the cell: a new view replaces the old output
        expect(nb.outputs(0).locator(".mg-view .mg-stage svg g.node")).to_have_count(4)
        nb.run_cell(2)
        expect(nb.outputs(2)).to_contain_text("first False, new True, listening 1")
