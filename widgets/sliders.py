"""``SliderView``: the seed example, ``mean(x*x)``, with one slider per entry of ``x``.

Moving a slider builds ``x`` anew, computes ``out = f(x)``, calls
``out.backward()`` and shows the new graph: the learner sees ``out`` and
``x.grad`` (``x/2`` for the mean of squares) follow the sliders, and can step
through each new backward pass. The graph view draws once per change: it
starts listening before ``backward()`` and draws what that pass recorded.

The sliders call back through a weak reference: a slider view that is
closed, or dropped once ipywidgets lets go of it, is not kept alive by its
own sliders.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from html import escape
from typing import Any

import ipywidgets
import numpy as np

import minigrad
from minigrad import Tensor

from .fmt import short
from .graph_view import GraphView

__all__ = ["SliderView"]


def _mean_of_squares(x: Tensor) -> Tensor:
    return minigrad.mean(x * x)


class SliderView(ipywidgets.VBox):
    """Sliders for ``x``'s entries, a readout of ``out`` and ``x.grad``, and the graph.

    ``f`` (default ``mean(x*x)``) must return a scalar tensor. ``low``, ``high``
    and ``step`` bound the sliders. ``lang`` is the language of the graph view's
    own words. Other keywords go to ``GraphView``.
    """

    def __init__(
        self,
        x0: Sequence | np.ndarray = ((1.0, 2.0), (3.0, 4.0)),
        f: Callable[[Tensor], Tensor] | None = None,
        *,
        low: float = -5.0,
        high: float = 5.0,
        step: float = 0.1,
        label: str = "mean(x*x)",
        lang: str | None = None,
        **view_options,
    ) -> None:
        start = np.array(x0, dtype=np.float32)
        if start.size == 0 or start.size > 16:
            raise ValueError(f"SliderView needs 1 to 16 entries in x0, got {start.size}")
        self.f = f or _mean_of_squares
        self.label = label if f is None or label != "mean(x*x)" else "f(x)"
        self.shape = start.shape
        names = [entry_name("x", np.unravel_index(i, self.shape)) for i in range(start.size)]
        width = max(56, 8 * max(len(n) for n in names) + 8)  # "x[0, 0]" whole, never cut
        self.sliders = [
            ipywidgets.FloatSlider(
                value=float(v),
                min=low,
                max=high,
                step=step,
                description=names[i],
                continuous_update=False,
                readout_format=".1f",
                style={"description_width": f"{width}px"},
                layout=ipywidgets.Layout(width=f"{244 + width}px"),
            )
            for i, v in enumerate(start.reshape(-1))
        ]
        self.readout = ipywidgets.HTML()
        self.x, self.out = self._compute()
        self.view = GraphView(
            self.out, names={"x": self.x, "out": self.out}, lang=lang, **view_options
        )
        self.out.backward()
        self._show_readout()
        changed = weakref.WeakMethod(self._changed)
        self._callback = lambda change: _call(changed, change)
        for slider in self.sliders:
            slider.observe(self._callback, "value")
        grid = ipywidgets.GridBox(
            self.sliders,
            layout=ipywidgets.Layout(
                grid_template_columns=f"repeat({min(2, len(self.sliders))}, {254 + width}px)"
            ),
        )
        super().__init__([grid, self.readout, self.view])

    def close(self) -> None:
        """Close the sliders, the readout and the graph view (which stops listening)."""
        parts = [*getattr(self, "sliders", ()), getattr(self, "readout", None)]
        for part in [*parts, getattr(self, "view", None)]:
            if part is not None:
                part.close()  # closing drops the slider's callbacks too
        super().close()

    def _repr_mimebundle_(self, **kwargs: Any):
        self.view._mark_displayed()  # the graph view is shown as part of this box
        return super()._repr_mimebundle_(**kwargs)

    def _compute(self) -> tuple[Tensor, Tensor]:
        values = np.array([s.value for s in self.sliders], dtype=np.float32).reshape(self.shape)
        x = minigrad.tensor(values, requires_grad=True)
        out = self.f(x)
        if not isinstance(out, Tensor) or out.numel() != 1:
            raise ValueError("SliderView's f(x) must return a scalar minigrad tensor")
        return x, out

    def _changed(self, change: dict) -> None:
        self.x, self.out = self._compute()
        self.view.show(self.out, names={"x": self.x, "out": self.out}, redraw=False)
        self.out.backward()
        self._show_readout()

    def _show_readout(self) -> None:
        grad = self.x.grad.detach().numpy()
        self.readout.value = (
            '<div class="mg-slider-readout" style="font-family:monospace">'
            f"out = {escape(self.label)} = <b>{escape(short(self.out.item()))}</b>"
            f' &nbsp; x.grad = <b style="color:#c0262d">{escape(short(grad, 16))}</b></div>'
        )


def entry_name(name: str, index: tuple) -> str:
    """``x[0, 1]`` for an entry of ``x`` (plain ints, whatever numpy returns); ``x`` if 0-d."""
    return f"{name}[{', '.join(str(int(i)) for i in index)}]" if len(index) else name


def _call(method: weakref.WeakMethod, change: dict) -> None:
    bound = method()
    if bound is not None:
        bound(change)
