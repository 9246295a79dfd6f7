"""Plot helpers for the lessons, all matplotlib, each returning its figure.

They take the eggs out of the basket the way lesson 3 teaches
(``.detach().numpy()``, ``.data.numpy()``), so a learner can read them as
examples. Figures are closed in pyplot before they are returned: a notebook
shows a returned figure once (not twice), and a loop that makes many does not
keep them all in memory. ``LossPlot``, the curve that grows during training, is in
``loss_plot.py``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

import minigrad
from minigrad import Tensor

from .fmt import short
from .tensor_names import check_tensor

__all__ = ["plot_function_and_grad", "plot_fit"]


def pyplot():
    """matplotlib's pyplot, imported when a plot is made (importing widgets stays light)."""
    import matplotlib.pyplot as plt

    return plt


def _as_float_tensor(xs: Sequence[float] | np.ndarray | Tensor) -> Tensor:
    if isinstance(xs, Tensor):
        return minigrad.tensor(xs.detach().numpy().astype(np.float32), requires_grad=True)
    return minigrad.tensor(np.asarray(xs, dtype=np.float32), requires_grad=True)


def plot_function_and_grad(
    f: Callable[[Tensor], Tensor],
    xs: Sequence[float] | np.ndarray | Tensor,
    tangents_at: Sequence[float] | None = None,
    title: str | None = None,
):
    """Plot ``f`` over ``xs``, its derivative found by autograd, and tangent lines.

    ``f`` works elementwise on a tensor (``lambda x: x**3 - 2*x``). Autograd gives
    every derivative in one ``backward()``: ``f(x).sum()`` has ``d/dx_i = f'(x_i)``.
    ``tangents_at`` are the x values where tangents are drawn (default: three).
    """
    x = _as_float_tensor(xs)
    if x.ndim != 1 or x.numel() < 2:
        raise ValueError("plot_function_and_grad needs xs: a 1-d sequence of at least 2 numbers")
    y = f(x)
    check_tensor(y, "plot_function_and_grad(f, xs): f")
    if tuple(y.shape) != tuple(x.shape):
        raise ValueError(
            f"f must work elementwise: f(x) has shape {list(y.shape)}, x {list(x.shape)}"
        )
    y.sum().backward()
    xv, yv, dy = x.detach().numpy(), y.detach().numpy(), x.grad.numpy()
    plt = pyplot()
    fig, (top, bottom) = plt.subplots(2, 1, sharex=True, figsize=(6.4, 5.6))
    top.plot(xv, yv, color="#2563eb", lw=2, label="f(x)")
    if tangents_at is None:
        tangents_at = np.quantile(xv, [0.2, 0.5, 0.8])
    span = (xv.max() - xv.min()) * 0.12
    for x0 in tangents_at:
        i = int(np.argmin(np.abs(xv - x0)))
        line = np.array([xv[i] - span, xv[i] + span])
        top.plot(line, yv[i] + dy[i] * (line - xv[i]), color="#c0262d", lw=1.5)
        top.plot(xv[i], yv[i], "o", color="#c0262d", ms=5)
        top.annotate(f"slope {short(dy[i])}", (xv[i], yv[i]), textcoords="offset points",
                     xytext=(6, -14), fontsize=9, color="#c0262d")  # fmt: skip
    top.set_ylabel("f(x)")
    top.legend(loc="best")
    bottom.plot(xv, dy, color="#c0262d", lw=2, label="f'(x) from x.grad")
    bottom.axhline(0, color="#94a3b8", lw=0.8)
    bottom.set_xlabel("x")
    bottom.set_ylabel("f'(x)")
    bottom.legend(loc="best")
    top.set_title(title or "f and its gradient, from backward()")
    for ax in (top, bottom):
        ax.grid(alpha=0.3)
    fig.tight_layout()
    plt.close(fig)
    return fig


def plot_fit(
    x: Tensor,
    y: Tensor,
    model: Callable[[Tensor], Tensor] | Tensor | None = None,
    title: str = "data and fit",
):
    """Scatter ``(x, y)`` and draw the model's prediction, all through ``.data.numpy()``.

    ``model`` is a callable (``nn.Linear``, a lambda) or the predicted tensor itself.
    """
    check_tensor(x, "plot_fit(x, y)")
    check_tensor(y, "plot_fit(x, y)")
    xv = x.data.numpy().reshape(-1)
    yv = y.data.numpy().reshape(-1)
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    ax.scatter(xv, yv, s=18, color="#2563eb", alpha=0.8, label="data")
    if model is not None:
        pred = model if isinstance(model, Tensor) else model(x)
        check_tensor(pred, "plot_fit: the model's prediction")
        pv = pred.data.numpy().reshape(-1)
        order = np.argsort(xv)
        ax.plot(xv[order], pv[order], color="#c0262d", lw=2, label="model")
    ax.set_xlabel("x")
    ax.set_ylabel("y")
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend(loc="best")
    fig.tight_layout()
    plt.close(fig)
    return fig
