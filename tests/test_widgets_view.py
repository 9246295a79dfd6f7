"""GraphView and SliderView, Python side: live updates, the recorded walk, static output.

A view draws when someone will see it (``widgets.frames``); these tests look
at it through ``view.flush()``, which draws what is due, as a display does.
"""

from __future__ import annotations

import gc
import json
import os
import re
from pathlib import Path

import numpy as np
import pytest
from conftest import require_module, require_program

import minigrad
from minigrad.autograd import engine
from minigrad.autograd.graph import execution_order, register_backward_observer
from widgets import GraphView, SliderView
from widgets.fmt import short
from widgets.listen import listening, subscribe

ROOT = Path(__file__).resolve().parents[1]


def seed():
    v = minigrad.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    out = minigrad.mean(v * v)
    return v, out


class EngineLog:
    """An independent observer: what the engine really did."""

    def __init__(self):
        self.order, self.sent = [], []
        self.handle = register_backward_observer(self)

    def on_backward_begin(self, roots):
        self.order, self.sent = [], []

    def on_node(self, node, grad, outs):
        self.order.append(node)
        self.sent.append([None if g is None else np.array(g) for g in outs])

    def on_backward_end(self):
        pass


@pytest.fixture
def engine_log():
    log = EngineLog()
    yield log
    log.handle.remove()


@pytest.fixture(autouse=True)
def no_leftover_observers():
    before = len(engine.observers)
    yield
    gc.collect()
    assert len(engine.observers) <= before + 1  # a closed or collected view stops listening


def test_before_backward_the_steps_are_the_predicted_order():
    require_program("dot")
    v, out = seed()
    view = GraphView(out)
    view.flush()
    assert view.predicted
    order = execution_order(out)
    assert [s["node"] for s in view.steps] == [view.graph.box_of[n] for n in order]
    assert [s["label"] for s in view.steps] == [type(n).__name__ for n in order]
    assert view.steps[0]["text"] == "MeanBackward0 will send a gradient to MulBackward0"
    assert len(re.findall(r'class="node', view.svg)) == 4
    assert "grad None" in view.svg
    view.close()


def test_a_hooked_leaf_is_drawn_without_calling_its_hook():
    """The predicted order runs no hook: a learner's ``lambda g: g * 2`` would fail on None."""
    require_program("dot")
    v, out = seed()
    w = minigrad.tensor([1.0, 2.0], requires_grad=True)
    calls = []
    for leaf in (v, w):
        leaf.register_hook(lambda g: calls.append(g) or g * 2)
    out = out + (w * w).sum()
    view = GraphView(out)
    view.flush()
    assert view.predicted and calls == []
    out.backward()
    assert len(calls) == 2
    assert np.array_equal(w.grad.numpy(), [4.0, 8.0])
    view.close()


def test_after_backward_the_view_shows_the_engines_walk(engine_log):
    require_program("dot")
    v, out = seed()
    view = GraphView(out)
    view.flush()
    revision = view.revision
    out.backward()
    assert view.revision == revision  # not displayed: nothing drawn, nothing sent
    assert view.flush() and not view.flush()
    assert view.revision == revision + 1  # one message per backward pass
    assert not view.predicted
    g = view.graph
    assert [s["node"] for s in view.steps] == [g.box_of[n] for n in engine_log.order]
    for step, node, sent in zip(view.steps, engine_log.order, engine_log.sent, strict=True):
        texts = [text for _, text in step["edges"]]
        assert texts == [short(a) for a in sent]
        assert [e for e, _ in step["edges"]] == [
            g.slot_edge[(node, k)] for k in range(len(node.next_functions))
        ]
    mean, mul, acc = view.steps
    assert mean["in_edge"] == ["E0", "1"]  # the seed gradient arrives at out's grad_fn
    assert mean["text"] == (
        "MeanBackward0 received 1 and sent [[0.25, 0.25], [0.25, 0.25]] to MulBackward0"
    )
    assert acc["cells"] == [["T1_grad", "grad None", f"grad {short(v.grad.numpy())}"]]
    assert acc["text"] == "AccumulateGrad: v.grad was None, is now [[0.5, 1], [1.5, 2]]"
    # the SVG carries the final state: every gradient on its arrow, v.grad in its row
    assert f"grad {short(v.grad.numpy())}" in view.svg
    for _, text in mul["edges"]:
        assert text in view.svg
    assert 'id="mg_T1_grad"' in view.svg and "xlink:href" not in view.svg
    view.close()


def test_gradients_accumulate_in_the_view():
    require_program("dot")
    v, out = seed()
    view = GraphView(out)
    out.backward(retain_graph=True)
    out.backward()
    view.flush()
    (cell,) = view.steps[-1]["cells"]
    assert cell == ["T1_grad", "grad [[0.5, 1], [1.5, 2]]", "grad [[1, 2], [3, 4]]"]
    assert (
        "was [[0.5, 1], [1.5, 2]], adds [[0.5, 1], [1.5, 2]], is now [[1, 2], [3, 4]]"
        in (view.steps[-1]["text"])
    )
    view.close()


def test_accumulate_nodes_get_their_own_step_box():
    require_program("dot")
    v, out = seed()
    view = GraphView(out, show_accumulate=True)
    out.backward()
    view.flush()
    assert [s["node"] for s in view.steps] == ["F0", "F1", "A0"]
    assert view.steps[-1]["in_edge"][1] == short(v.grad.numpy())
    view.close()


def test_a_pass_from_a_bigger_graph_is_recorded_and_said():
    require_program("dot")
    v, out = seed()
    view = GraphView(out)
    (out * 3).backward()
    view.flush()
    assert [s["node"] for s in view.steps] == ["F0", "F1", "T1"]
    assert view.steps[0]["in_edge"] == ["E0", "3"]
    assert "started outside this graph" in view.note
    view.close()


def test_a_pass_through_another_graph_sharing_a_leaf_does_not_redraw():
    require_program("dot")
    v, out = seed()
    view = GraphView(out)
    view.flush()
    revision = view.revision
    (v * 2).sum().backward()
    assert not view.flush()
    assert view.revision == revision and view.predicted
    view.close()


def test_close_stops_listening_and_a_collected_owner_unregisters():
    v, out = seed()
    n = listening()
    view = GraphView(out)
    assert listening() == n + 1 and view.listening
    view.close()
    assert listening() == n and not view.listening
    out.backward()  # no error, nobody listening

    class Owner:
        def _on_pass(self, recorded):
            self.recorded = recorded

        def _on_error(self, error):
            raise AssertionError(error)

    owner = Owner()
    v, out = seed()
    subscribe(owner, __import__("widgets").extract(out, {}))
    assert listening() == n + 1
    del owner
    gc.collect()
    assert listening() == n  # at once, not at the next backward pass


def test_a_drawing_problem_never_breaks_backward(monkeypatch):
    require_program("dot")
    v, out = seed()
    view = GraphView(out)

    def broken(walk):
        raise ValueError("boom")

    monkeypatch.setattr(view, "_on_pass", broken)
    out.backward()
    assert np.allclose(v.grad.numpy(), v.detach().numpy() / 2)
    assert "could not follow this backward pass" in view.error and "boom" in view.error
    view.close()


def test_without_dot_the_view_shows_install_help_and_text(monkeypatch, tmp_path):
    v, out = seed()
    monkeypatch.setenv("PATH", str(tmp_path))
    view = GraphView(out)
    out.backward()
    view.flush()
    assert view.svg == ""
    assert "apt-get install graphviz" in view.note and "brew install graphviz" in view.note
    assert "MulBackward0" in view.text and "grad [[0.5, 1], [1.5, 2]]" in view.text
    assert [s["node"] for s in view.steps] == ["F0", "F1", "T1"]  # stepping still works
    data, _ = view._repr_mimebundle_()
    assert "apt-get install graphviz" in data["text/html"]
    view.close()


def test_large_graph_view_is_folded_and_its_steps_merged():
    require_program("dot")
    x = minigrad.tensor(1.0, requires_grad=True)
    y = x
    for _ in range(400):
        y = y * 1.001 + 0.5
    view = GraphView(y)
    y.backward()
    view.flush()
    assert view.graph.collapsed and "801 backward nodes" in view.note
    assert len(view.steps) == 151  # 150 drawn nodes + one merged step for the folded rest
    assert view.steps[-1]["node"] == "C0" and view.steps[-1]["count"] == 651
    assert len(json.dumps(view.steps)) < 100_000
    view.close()


def test_not_a_tensor_is_a_type_error():
    with pytest.raises(TypeError, match=r"GraphView\(\) expects a minigrad Tensor"):
        GraphView([1.0, 2.0])


def test_static_mimebundle_carries_the_final_svg():
    require_program("dot")
    v, out = seed()
    view = GraphView(out)
    out.backward()
    data, _ = view._repr_mimebundle_()  # displaying draws what is due
    assert "application/vnd.jupyter.widget-view+json" in data
    assert view.svg in data["text/html"] and "max-width:100%" in data["text/html"]
    view.close()


def test_slider_view_updates_out_grad_and_graph_once_per_change():
    require_program("dot")
    sv = SliderView()
    view = sv.view
    view.flush()
    assert np.allclose(sv.x.grad.numpy(), sv.x.detach().numpy() / 2)
    assert "7.5" in sv.readout.value and "[[0.5, 1], [1.5, 2]]" in sv.readout.value
    assert not view.predicted and "<B>x</B>" in view.dot_source
    revision = view.revision
    sv.sliders[0].value = 3.0  # what the browser does
    view.flush()
    assert view.revision == revision + 1
    assert sv.x.detach().numpy().tolist() == [[3.0, 2.0], [3.0, 4.0]]
    assert "grad [[1.5, 1], [1.5, 2]]" in view.svg
    assert "[[1.5, 1], [1.5, 2]]" in sv.readout.value and "9.5" in sv.readout.value
    assert view.steps[-1]["cells"][0][2] == "grad [[1.5, 1], [1.5, 2]]"
    sv.close()


def test_slider_view_checks_f():
    with pytest.raises(ValueError, match="must return a scalar"):
        SliderView(f=lambda x: x * 2)


# -- in a kernel: display ids keep the static copy up to date --------------------------


def kernel_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    return env


def test_static_export_shows_the_final_svg():
    """nbconvert without widget state falls back to text/html: it must be the latest graph."""
    require_program("dot")
    nbformat = require_module("nbformat")
    nbclient = require_module("nbclient")
    nbconvert = require_module("nbconvert")
    cells = [
        "import minigrad, widgets\n"
        "v = minigrad.tensor([[1., 2.], [3., 4.]], requires_grad=True)\n"
        "out = minigrad.mean(v * v)\n"
        "view = widgets.GraphView(out)\n"
        "view",
        "out.backward()",
    ]
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    nbclient.NotebookClient(nb, timeout=60, kernel_name="python3").execute(env=kernel_env())
    (output,) = nb.cells[0].outputs
    assert "application/vnd.jupyter.widget-view+json" in output["data"]
    assert "grad [[0.5, 1], [1.5, 2]]" in output["data"]["text/html"]  # updated after backward
    nb.metadata.pop("widgets", None)  # an export without widget state
    html, _ = nbconvert.HTMLExporter().from_notebook_node(nb)
    assert "grad [[0.5, 1], [1.5, 2]]" in html and "MulBackward0" in html
