"""What an open view costs a training loop: the rows of ``make bench`` for issue 10.

The loop is 1,000 SGD steps of the 2-16-16-1 MLP of ``run.py`` per round;
each round times it with no view open anywhere, then again with the views
open (made and displayed before the clock starts, closed after it stops),
in alternating order, in CPU time (``time.process_time``: other processes on
a busy machine do not count), from a collected heap. Ten rounds: 10,000
steps with views. The ratio (with / without) has the target 1.1: a view
adds at most 10%.

- ``GraphView``: one view of the loss's graph, displayed.
- ``GraphView``, cell re-run 30 times: thirty such views, none closed (in a
  script no browser says that the old ones are gone).
- ``SliderView``: sliders for the input of the same model, ``f = model(x).mean()``.
- ``LossPlot``: ``update(loss)`` at every step, live, each frame made as in a
  notebook (an SVG sketch while the loop runs); three loops of 10,000 steps.
  The final figure (``finish()``: matplotlib, rendered to PNG) comes after the
  loop, once: its own row gives its time.

Run alone: ``python bench/views.py`` (prints the rows).
"""

from __future__ import annotations

import gc
import io
import statistics
import time
from collections.abc import Callable

import numpy as np

import minigrad as mg

STEPS = 1000
ROUNDS = 10
PLOT_STEPS = 10 * STEPS  # a LossPlot's loop: its total, as a learner would give it
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
        gc.collect()  # both halves start from the same heap
        start = time.process_time()
        for _ in range(n):
            opt.zero_grad()
            out = loss()
            out.backward()
            opt.step()
            if each is not None:
                each(out)
        if end is not None:
            end()
        return time.process_time() - start

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
        plot = widgets.LossPlot(total=PLOT_STEPS, live=True)
    except TypeError:  # before issue 10: no live= (it always drew)
        plot = widgets.LossPlot(total=PLOT_STEPS)

    if hasattr(plot, "_display"):
        plot._display = lambda *shown: None  # made as in a notebook, shown nowhere
    else:  # before issue 10: displayed the figure, which IPython renders as a PNG
        plot._show = lambda: plot.figure.savefig(io.BytesIO(), format="png", bbox_inches="tight")
    return [plot], plot.update


CASES = {  # name: (open the views, rounds, steps per round)
    "MLP training, 1 GraphView open": (graph_views(1), ROUNDS, STEPS),
    "MLP training, GraphView cell re-run 30 times": (graph_views(30), ROUNDS // 2, STEPS),
    "MLP training, 1 SliderView open": (slider_view, ROUNDS, STEPS),
    # one loop of 10,000 steps per round: the final figure is part of the time
    "MLP training, LossPlot.update every step": (loss_plot, 3, PLOT_STEPS),
}


def measure(open_views: Callable, rounds: int, steps: int = STEPS) -> tuple[float, float, float]:
    """Median CPU seconds per step without and with the views, and of a LossPlot's final
    figure (``finish()``, once per loop; 0 for the views)."""
    model, loss, run = training()
    run(min(steps, STEPS) // 5)  # warm up
    without, with_views, final = [], [], []
    for i in range(rounds):
        if i % 2 == 0:  # alternate which half runs first
            without.append(run(steps) / steps)
        views, each = open_views(model, loss)
        with_views.append(run(steps, each) / steps)
        start = time.process_time()
        for view in views:
            (view.finish if hasattr(view, "finish") else view.close)()
        final.append(time.process_time() - start if hasattr(views[0], "finish") else 0.0)
        if i % 2 == 1:
            without.append(run(steps) / steps)
    return statistics.median(without), statistics.median(with_views), statistics.median(final)


def rows(row: Callable, rounds_scale: float = 1.0) -> list[dict]:
    """The table's rows (``row`` is ``run.row``): seconds per step with views vs without."""
    result = []
    for name, (open_views, rounds, steps) in CASES.items():
        none, views, final = measure(open_views, max(3, round(rounds * rounds_scale)), steps)
        result.append(row(name, views, none, "no view", TARGET))
        if final:
            result.append(
                row("LossPlot: its final figure, once per loop", final, None, "", None, unit="ms")
            )
    return result


if __name__ == "__main__":
    import sys

    sys.path.insert(0, str(__import__("pathlib").Path(__file__).parent))
    from run import row

    for r in rows(row):
        print(r)
