"""What an open view costs a training loop: the rows of ``make bench`` for issue 10.

The loop is 1,000 SGD steps of the 2-16-16-1 MLP of ``run.py`` per round;
each round times it with no view open anywhere, then again with the views
open (made and displayed before the clock starts, closed after it stops), so
a busy machine slows both alike. Ten rounds: 10,000 steps with views. The
ratio (with / without) has the target 1.1: a view adds at most 10%.

- ``GraphView``: one view of the loss's graph, displayed.
- ``GraphView``, cell re-run 30 times: thirty such views, none closed (in a
  script no browser says that the old ones are gone).
- ``SliderView``: sliders for the input of the same model, ``f = model(x).mean()``.
- ``LossPlot``: ``update(loss)`` at every step, live, each redraw rendered to
  PNG as a notebook's display would; three loops of 10,000 steps, each
  ending with ``finish()`` (the final figure) inside the time.

Run alone: ``python bench/views.py`` (prints the rows).
"""

from __future__ import annotations

import io
import statistics
import time
from collections.abc import Callable

import numpy as np

import minigrad as mg

STEPS = 1000
ROUNDS = 10
TARGET = 1.1


def training(seed: int = 0):
    """The model, and a function that runs ``n`` training steps (calling ``each(loss)``)."""
    mg.manual_seed(seed)
    model = mg.nn.Sequential(
        mg.nn.Linear(2, 16), mg.nn.ReLU(), mg.nn.Linear(16, 16), mg.nn.ReLU(), mg.nn.Linear(16, 1)
    )
    opt = mg.optim.SGD(model.parameters(), lr=0.01)
    loss_fn = mg.nn.MSELoss()
    rng = np.random.default_rng(seed)
    x = mg.tensor(rng.standard_normal((100, 2)).astype(np.float32))
    y = mg.tensor(rng.standard_normal((100, 1)).astype(np.float32))

    def loss():
        return loss_fn(model(x), y)

    def run(n: int, each: Callable | None = None, end: Callable | None = None) -> float:
        start = time.perf_counter()
        for _ in range(n):
            opt.zero_grad()
            out = loss()
            out.backward()
            opt.step()
            if each is not None:
                each(out)
        if end is not None:
            end()
        return time.perf_counter() - start

    return model, loss, run


def _displayed(view):
    """As a notebook's display() would: the view draws once and counts as seen."""
    mark = getattr(view, "_mark_displayed", None)
    if mark is not None:
        mark()
    return view


def graph_views(count: int):
    def open_views(model, loss):
        import widgets

        return [_displayed(widgets.GraphView(loss())) for _ in range(count)], None

    return open_views


def slider_view(model, loss):
    import widgets

    view = widgets.SliderView([[0.5, -0.5]], f=lambda x: model(x).mean())
    _displayed(view.view)
    return [view], None


def loss_plot(model, loss):
    import widgets

    try:
        plot = widgets.LossPlot(total=STEPS, live=True)
    except TypeError:  # before issue 10: no live= (it always drew)
        plot = widgets.LossPlot(total=STEPS)

    if hasattr(plot, "_display"):
        plot._display = lambda png: None  # rendered as in a notebook, shown nowhere
    else:  # before issue 10: displayed the figure, which IPython renders as a PNG
        plot._show = lambda: plot.figure.savefig(io.BytesIO(), format="png", bbox_inches="tight")
    return [plot], plot.update


CASES = {  # name: (open the views, rounds, steps per round)
    "MLP training, 1 GraphView open": (graph_views(1), ROUNDS, STEPS),
    "MLP training, GraphView cell re-run 30 times": (graph_views(30), ROUNDS // 2, STEPS),
    "MLP training, 1 SliderView open": (slider_view, ROUNDS, STEPS),
    # one loop of 10,000 steps per round: the final figure is part of the time
    "MLP training, LossPlot.update every step": (loss_plot, 3, 10 * STEPS),
}


def measure(open_views: Callable, rounds: int, steps: int = STEPS) -> tuple[float, float]:
    """Median seconds per step without and with the views."""
    model, loss, run = training()
    run(min(steps, STEPS) // 5)  # warm up
    without, with_views = [], []
    for _ in range(rounds):
        without.append(run(steps) / steps)
        views, each = open_views(model, loss)
        end = getattr(views[0], "finish", None)  # a LossPlot's final figure is in the time
        with_views.append(run(steps, each, end) / steps)
        for view in views:
            if hasattr(view, "close"):
                view.close()
    return statistics.median(without), statistics.median(with_views)


def rows(row: Callable, rounds_scale: float = 1.0) -> list[dict]:
    """The table's rows (``row`` is ``run.row``): seconds per step with views vs without."""
    result = []
    for name, (open_views, rounds, steps) in CASES.items():
        none, views = measure(open_views, max(3, round(rounds * rounds_scale)), steps)
        result.append(row(name, views, none, "no view", TARGET))
    return result


if __name__ == "__main__":
    import sys

    sys.path.insert(0, str(__import__("pathlib").Path(__file__).parent))
    from run import row

    for r in rows(row):
        print(r)
