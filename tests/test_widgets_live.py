"""Live views that cost nothing while nobody looks (issue 10).

The speed itself is a benchmark row (``bench/views.py`` in ``make bench``);
these tests check the mechanism behind it: one observer for all views, no
text and no drawing per backward pass while a view is not displayed, at most
one drawing per frame while it is, and nothing that keeps a dead view alive.
"""

from __future__ import annotations

import gc
import time
import weakref

import numpy as np
import pytest
from conftest import require_program

import minigrad
import widgets
from minigrad.autograd import engine
from widgets import GraphView, SliderView, frames
from widgets.listen import listening


def mlp():
    minigrad.manual_seed(0)
    model = minigrad.nn.Sequential(
        minigrad.nn.Linear(2, 8), minigrad.nn.ReLU(), minigrad.nn.Linear(8, 1)
    )
    x = minigrad.tensor(np.random.default_rng(0).standard_normal((16, 2)).astype(np.float32))
    opt = minigrad.optim.SGD(model.parameters(), lr=0.01)

    def loss():
        return model(x).pow(2).mean()

    def steps(n: int) -> None:
        for _ in range(n):
            opt.zero_grad()
            loss().backward()
            opt.step()

    return model, loss, steps


def browser(view, event: str, name: str = "v1") -> None:
    """What static/graph_view.js sends when a browser view appears or goes."""
    view._on_browser_msg(view, {"event": event, "view": name}, [])


class Counting:
    """Counts calls of a module-level function (formatting, rendering)."""

    def __init__(self, monkeypatch, module, name):
        self.calls = 0
        real = getattr(module, name)

        def counted(*args, **kwargs):
            self.calls += 1
            return real(*args, **kwargs)

        monkeypatch.setattr(module, name, counted)


@pytest.fixture(autouse=True)
def closes_every_view():
    before = listening()
    yield
    gc.collect()
    assert listening() == before


def test_one_engine_observer_serves_thirty_views_and_is_gone_with_them():
    model, loss, steps = mlp()
    n = len(engine.observers)
    views = [GraphView(loss()) for _ in range(30)]  # the cell, re-run 30 times
    assert listening() >= 30
    assert len(engine.observers) <= n + 1  # one hub, whatever the number of views
    for view in views:
        view.close()
    if listening() == 0:  # no view left anywhere: backward runs as without widgets
        assert not any(isinstance(o, widgets.listen._Hub) for o in engine.observers)


def test_a_training_step_does_no_view_work(monkeypatch):
    """The next steps of a loop only reach the views' AccumulateGrad nodes: no copy,
    no text, no drawing, no call into any view."""
    model, loss, steps = mlp()
    views = [GraphView(loss()) for _ in range(30)]
    passes = []
    monkeypatch.setattr(GraphView, "_on_pass", lambda self, p: passes.append(p))
    copies = Counting(monkeypatch, widgets.walk, "_copy")
    texts = Counting(monkeypatch, widgets.walk, "short")
    steps(50)
    assert passes == [] and copies.calls == 0 and texts.calls == 0
    for view in views:
        view.close()


def test_a_training_step_calls_the_hub_at_no_node(monkeypatch):
    """The views' AccumulateGrad nodes are shared with every later step's graph: the hub
    names only the views' ops to the engine (a per-node call is a tenth of a small step),
    and a pass that records names their accumulators only until it ends."""
    model, loss, steps = mlp()
    views = [GraphView(loss()) for _ in range(30)]
    hub = widgets.listen._HUB
    assert not any(isinstance(fn, minigrad.autograd.graph.AccumulateGrad) for fn in hub.nodes)
    calls = []
    real = hub.on_node
    monkeypatch.setattr(hub, "on_node", lambda *args: calls.append(args) or real(*args))
    steps(20)
    assert calls == []
    views.append(GraphView(loss()))
    named = dict(hub.nodes)
    views[-1].tensor.backward()  # a pass through a view's graph: recorded, leaves included
    assert hub.nodes == named  # its accumulators were named for that pass only
    recorded = [type(fn).__name__ for fn, *_ in views[-1]._pass.events]
    assert recorded.count("AccumulateGrad") == 4 and len(calls) == len(recorded)
    for view in views:
        view.close()


def test_a_pass_from_outside_shows_the_accumulations_the_views_ops_fed():
    """An accumulation only the outside part of a pass reaches is not the view's step
    (the engine may even run it before any of the view's ops)."""
    a = minigrad.tensor([1.0, 2.0], requires_grad=True)
    b = minigrad.tensor([3.0, 4.0], requires_grad=True)
    h = a * 2
    out = (h + b).sum()
    view = GraphView(out, names={"a": a, "b": b, "h": h, "out": out})
    (h.sum() + (b * 10).sum()).backward()  # reaches b only from outside the view's ops
    recorded = [fn for fn, *_ in view._pass.events]
    assert a.grad_fn is None and recorded[0] is h.grad_fn
    kinds = [type(fn).__name__ for fn in recorded]
    assert kinds == ["MulBackward0", "AccumulateGrad"] and recorded[1].variable is a
    view.close()


def test_no_text_and_no_drawing_per_backward_while_not_displayed(monkeypatch):
    require_program("dot")
    v = minigrad.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    out = minigrad.mean(v * v)
    view = GraphView(out)
    texts = Counting(monkeypatch, widgets.walk, "short")
    renders = Counting(monkeypatch, widgets.graph_view, "render_svg")
    for _ in range(100):
        out.backward(retain_graph=True)
    assert texts.calls == 0 and renders.calls == 0 and view.revision == 0
    assert view.flush()  # when someone looks: one drawing of the last pass
    assert renders.calls == 1 and texts.calls > 0 and view.revision == 1
    assert view.steps[-1]["cells"][0][2] == "grad [[50, 100], [150, 200]]"
    view.close()


def test_a_displayed_view_draws_at_most_once_per_frame(monkeypatch):
    require_program("dot")
    now = time.perf_counter()  # the clock stands still: a busy machine cannot open a frame early
    monkeypatch.setattr("widgets.frames.time.perf_counter", lambda: now)
    v = minigrad.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    out = minigrad.mean(v * v)
    view = GraphView(out)
    browser(view, "mount")  # a browser shows it: it draws at once
    assert view.revision == 1 and view.visible
    renders = Counting(monkeypatch, widgets.graph_view, "render_svg")
    out.backward(retain_graph=True)
    assert renders.calls == 0  # drawn 0 s ago: the pass waits for the next frame
    for _ in range(100):
        out.backward(retain_graph=True)
    assert renders.calls == 0 and view in frames._due
    frames.flush_all()  # the end of the cell (post_run_cell) or the kernel's next idle moment
    assert renders.calls == 1 and "grad [[50.5, 101], [151.5, 202]]" in view.svg
    assert view._next_draw_at > time.perf_counter()  # the next drawing waits
    view.close()


def test_a_view_whose_browser_views_are_gone_stops_listening_and_comes_back():
    require_program("dot")
    v = minigrad.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    out = minigrad.mean(v * v)
    view = GraphView(out)
    browser(view, "mount", "a")
    browser(view, "mount", "b")  # shown twice (two outputs)
    browser(view, "unmount", "a")
    assert view.listening
    browser(view, "unmount", "b")  # its cell was re-run: nobody sees it any more
    assert not view.listening and not view.visible
    out.backward(retain_graph=True)  # not recorded: it costs this view nothing
    browser(view, "mount", "c")  # displayed again
    assert view.listening and view.predicted  # the missed pass is not invented...
    assert "call backward() to see" not in view.caption  # ...and the caption says so
    out.backward()
    view.flush()
    assert not view.predicted and view.caption.startswith("backward() ran 3 steps")
    view.close()


def test_closed_and_dropped_views_are_collected_and_stop_listening():
    model, loss, steps = mlp()
    n = listening()
    view = GraphView(loss())
    ref = weakref.ref(view)
    view.close()
    del view
    gc.collect()
    assert ref() is None and listening() == n

    slider = SliderView([[0.5, -0.5]], f=lambda x: model(x).mean())
    refs = [weakref.ref(slider), weakref.ref(slider.view)]
    assert listening() == n + 1
    slider.close()
    del slider
    gc.collect()
    assert [r() for r in refs] == [None, None] and listening() == n


def test_thirty_re_runs_with_a_browser_leave_one_listener():
    """Re-running a cell replaces its output: each old browser view says it is gone."""
    model, loss, steps = mlp()
    n = listening()
    views = []
    for i in range(30):
        if views:
            browser(views[-1], "unmount", f"v{i - 1}")
        views.append(GraphView(loss()))
        browser(views[-1], "mount", f"v{i}")
    assert listening() == n + 1
    for view in views:
        view.close()


def test_a_pass_from_a_graph_built_on_an_inner_tensor_is_recorded():
    """A pass can reach a view's leaves first and its ops later: still recorded right."""
    require_program("dot")
    a = minigrad.tensor([1.0, 2.0], requires_grad=True)
    b = minigrad.tensor([3.0, 4.0], requires_grad=True)
    h = a * b
    out = (h + a).sum()
    view = GraphView(out, names={"a": a, "b": b, "h": h, "out": out})
    (h.sum() * 2 + (a * 10).sum()).backward()  # enters at h, not at out
    view.flush()
    assert not view.predicted and "started outside this graph" in view.note
    texts = [s["text"] for s in view.steps]
    assert any(t.startswith("MulBackward0 received [2, 2]") for t in texts), texts
    assert np.allclose(a.grad.numpy(), [16.0, 18.0])
    view.close()


def test_loss_plot_update_only_records_outside_a_notebook(monkeypatch):
    plot = widgets.LossPlot(total=1000)
    assert not plot.live
    drew = []
    monkeypatch.setattr(plot, "_draw", lambda final=False: drew.append(final))
    for i in range(1000):
        plot.update(1.0 / (i + 1))
    assert drew == [] and len(plot.losses) == 1000
    plot.finish()
    assert drew == [True]


def test_passes_in_two_threads_are_recorded_apart():
    """A training thread and an evaluation thread: each view sees its own graph's pass."""
    import threading

    def graph(scale: float):
        v = minigrad.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
        return v, minigrad.mean(v * v * scale)

    (va, a), (vb, b) = graph(1.0), graph(3.0)
    views = [GraphView(a, names={"v": va, "out": a}), GraphView(b, names={"v": vb, "out": b})]
    errors = []

    def loop(out):
        try:
            for _ in range(200):
                out.backward(retain_graph=True)
        except Exception as error:  # pragma: no cover - what the test is about
            errors.append(error)

    threads = [threading.Thread(target=loop, args=(out,)) for out in (a, b)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    for view, v, scale in zip(views, (va, vb), (1.0, 3.0), strict=True):
        walk = view.walk
        labels = [s["label"] for s in walk.steps]
        assert labels == ["MeanBackward0", "MulBackward0", "MulBackward0", "AccumulateGrad"]
        (cell,) = walk.steps[-1]["cells"]
        step = v.detach().numpy() / 2 * scale
        assert cell[1:] == [
            f"grad {widgets.fmt.short(199 * step)}",
            f"grad {widgets.fmt.short(200 * step)}",
        ]
        view.close()


def test_loss_plot_frames_in_a_notebook_are_light_sketches(monkeypatch):
    """While the loop runs a frame is an SVG sketch (no matplotlib drawing); the end is the
    figure, once, when the cell ends (not in the loop's last step)."""
    clock = [0.0]
    monkeypatch.setattr("widgets.loss_plot.time.perf_counter", lambda: clock[0])
    plot = widgets.LossPlot(total=3000, every=0.1, live=True)
    shown = []
    plot._display = lambda mime, data: shown.append(mime)
    renders = Counting(monkeypatch, type(plot.figure), "savefig")
    for i in range(3000):
        plot.update(1.0 / (i + 1) if i != 1500 else float("nan"))
        clock[0] += 0.001
    assert renders.calls == 0 and plot in frames._due  # the figure: after the loop...
    frames.flush_all()  # ...when the cell ends (post_run_cell)
    assert renders.calls == 1 and shown[-1] == "image/png"
    plot.finish()
    assert renders.calls == 1  # not drawn twice
    assert 10 <= len(shown[:-1]) <= 30 and set(shown[:-1]) == {"text/html"}  # ~every 0.1 s
    sketch = plot._sketch()
    assert "<polyline" in sketch and "step 3000/3000 (100%)" in sketch
    assert "best 0.0003333" in sketch  # nan is not the best loss
    assert len(sketch) < 20_000
