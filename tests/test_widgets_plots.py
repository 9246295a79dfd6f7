"""The matplotlib helpers: what they plot comes from autograd and from .data.numpy()."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import require_module

import minigrad
from widgets import LossPlot, plot_fit, plot_function_and_grad


@pytest.fixture(autouse=True)
def agg():
    matplotlib = require_module("matplotlib")
    matplotlib.use("Agg")


def test_function_and_grad_plots_the_autograd_derivative():
    xs = np.linspace(-2, 2, 41)
    fig = plot_function_and_grad(lambda x: x**3 - 2 * x, xs)
    top, bottom = fig.axes
    (f_line, *_) = top.get_lines()
    assert np.allclose(f_line.get_ydata(), xs**3 - 2 * xs, atol=1e-5)
    grad_line = bottom.get_lines()[0]
    assert np.allclose(grad_line.get_xdata(), xs, atol=1e-6)
    assert np.allclose(grad_line.get_ydata(), 3 * xs**2 - 2, atol=1e-4)
    # three tangents by default, each touching the curve with the slope autograd found
    slopes = [t.get_text() for t in top.texts]
    assert len(slopes) == 3 and all(s.startswith("slope ") for s in slopes)
    tangent = top.get_lines()[1]
    (x0, x1), (y0, y1) = tangent.get_xdata(), tangent.get_ydata()
    xm = (x0 + x1) / 2
    assert (y1 - y0) / (x1 - x0) == pytest.approx(3 * xm**2 - 2, rel=1e-4)


def test_function_and_grad_accepts_a_tensor_and_tangent_points():
    fig = plot_function_and_grad(minigrad.sin, minigrad.linspace(0, 3, 31), tangents_at=[1.0])
    assert len(fig.axes[0].texts) == 1
    assert fig.axes[0].get_title() == "f and its gradient, from backward()"


def test_function_and_grad_rejects_bad_input():
    with pytest.raises(ValueError, match="elementwise"):
        plot_function_and_grad(lambda x: x.sum(), np.linspace(0, 1, 5))
    with pytest.raises(TypeError, match="expects a minigrad Tensor"):
        plot_function_and_grad(lambda x: 3.0, np.linspace(0, 1, 5))
    with pytest.raises(ValueError, match="1-d sequence"):
        plot_function_and_grad(minigrad.sin, [1.0])


def test_plot_fit_uses_the_data_and_the_models_prediction():
    x = minigrad.linspace(0, 1, 10)
    y = 2 * x + 1
    w = minigrad.tensor(1.5, requires_grad=True)
    fig = plot_fit(x, y, lambda t: w * t)  # the prediction requires grad: .data.numpy() copes
    (ax,) = fig.axes
    points = ax.collections[0].get_offsets()
    assert np.allclose(points[:, 0], x.numpy()) and np.allclose(points[:, 1], y.numpy())
    (line,) = ax.get_lines()
    assert np.allclose(line.get_ydata(), 1.5 * x.numpy())
    assert len(plot_fit(x, y).axes[0].get_lines()) == 0


def test_loss_plot_grows_and_reads_out_progress(monkeypatch):
    clock = [0.0]  # a clock of our own: the test must not depend on how busy the machine is
    monkeypatch.setattr("widgets.loss_plot.time.perf_counter", lambda: clock[0])
    plot = LossPlot(total=20, every=0, live=True)
    real_draw = plot._draw

    def draw_taking_a_tenth_of_a_second(final=False):
        clock[0] += 0.1
        real_draw(final)

    monkeypatch.setattr(plot, "_draw", draw_taking_a_tenth_of_a_second)
    assert plot.readout == "step 0/20 (0%)"
    for i in range(10):
        plot.update(minigrad.tensor(1.0 / (i + 1)))
        clock[0] += 0.01  # a training step: 10 of them cost less than 10 draws
    (line,) = plot.ax.get_lines()
    assert len(line.get_xdata()) == 1  # the first update drew; then 10x its cost of training
    assert plot.finish() is plot.figure
    assert len(line.get_xdata()) == 10
    assert plot.readout.startswith("step 10/20 (50%) · loss 0.1 · best 0.1 · ")
    assert "\nstep 10/20 (50%) · loss 0.1 · best 0.1 · " in plot.ax.get_title()
    with plot:
        plot.update(0.05)
    assert "step 11/20" in plot.ax.get_title()
    assert plot.finish() is plot.figure


def test_loss_plot_redraws_at_most_every_interval():
    plot = LossPlot(every=3600, live=True)
    for i in range(5):
        plot.update(float(i))
    (line,) = plot.ax.get_lines()
    assert len(line.get_xdata()) == 0  # the first frame waits `every` seconds
    plot.finish()
    assert len(line.get_xdata()) == 5


def test_loss_plot_slow_redraws_do_not_redraw_on_every_update(monkeypatch):
    """A redraw that takes longer than ``every`` must not make each update redraw."""
    clock = [0.0]
    monkeypatch.setattr("widgets.loss_plot.time.perf_counter", lambda: clock[0])
    plot = LossPlot(total=100, every=0.5, live=True)
    draws = []
    real_draw = plot._draw

    def slow_draw(final=False):
        draws.append(len(plot.losses))
        clock[0] += 1.0  # each redraw takes a (simulated) second
        real_draw(final)

    monkeypatch.setattr(plot, "_draw", slow_draw)
    for step in range(100):
        plot.update(1.0 / (step + 1))
        clock[0] += 0.01  # training itself is fast
    plot.finish()
    assert draws[0] == 51 and draws[-1] == 100  # after 0.5 s of training; at the end
    assert len(draws) <= 3, draws  # then the slow redraw makes the next one wait 10 s
    assert draws.count(100) == 1  # finish() does not draw the same curve again
