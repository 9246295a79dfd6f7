"""``LossPlot``: a loss curve that grows while a training loop runs, cheap enough to leave on.

In a notebook it redraws one output in place, a light SVG sketch during the loop and the
matplotlib figure at the end; outside a notebook it only collects the losses.
"""

from __future__ import annotations

import html
import io
import time
from collections.abc import Callable, Sequence

import numpy as np

from minigrad import Tensor

from . import frames
from .plots import pyplot

__all__ = ["LossPlot"]


class LossPlot:
    """A loss curve that grows while a training loop runs, with a progress readout.

    ::

        plot = LossPlot(total=200)
        for step in range(200):
            ...
            plot.update(loss)     # a Tensor or a number
        plot.finish()             # the final figure

    In a notebook it redraws in place (one output), at most every ``every``
    seconds and never for more than about a tenth of the loop's time: after a
    redraw that took ``c`` seconds, the next waits at least ``20 * c``. Frames
    during the loop are a light SVG sketch with the readout (about a
    millisecond each); the end shows the matplotlib figure, drawn at ``finish()``
    or when the cell ends (the ``total``-th update only asks for it: tens of
    milliseconds of matplotlib are not the loop's to pay). Elsewhere
    (a script, a test; or ``live=False``) ``update`` only records a number and
    ``finish()`` draws once. Also a context manager: ``with LossPlot(total=200) as plot:``.
    """

    COST_FACTOR = 20  # a redraw costing c seconds is followed by at least 20 c of training

    def __init__(
        self,
        total: int | None = None,
        every: float = 0.25,
        title: str = "training loss",
        *,
        live: bool | None = None,
    ):
        self.total = total
        self.every = every
        self.title = title
        self.live = _in_notebook() if live is None else live
        self.losses: list[float] = []
        self._start = time.perf_counter()
        self._next_draw = self._start + every  # the first frame after `every` seconds
        self._drawn = -1  # how many losses the figure shows
        self._final = False  # whether what is shown is the final figure (not a sketch)
        self._display = _notebook_display()  # where frames go (PNG bytes); None: nowhere
        plt = pyplot()
        self.figure, self.ax = plt.subplots(figsize=(6.4, 3.6))
        (self._line,) = self.ax.plot([], [], color="#2563eb", lw=1.8)
        self.ax.set_xlabel("step")
        self.ax.set_ylabel("loss")
        self.ax.grid(alpha=0.3)
        # Lay the figure out now, before the loop: frames then only move the line and the text.
        self.ax.set_xlim(0.5, (total or 100) + 0.5)  # the widest step labels, for the margins
        self.ax.set_title(f"{self.title}\n{self.readout}", fontsize=10)
        self.figure.tight_layout()
        plt.close(self.figure)

    @property
    def readout(self) -> str:
        """``step 37/200 (18%) · loss 0.0123 · best 0.0120 · 1.2 s``"""
        n = len(self.losses)
        done = f"step {n}" + (f"/{self.total} ({100 * n // self.total}%)" if self.total else "")
        if not self.losses:
            return done
        return (
            f"{done} · loss {self.losses[-1]:.4g} · best {self._best():.4g} · "
            f"{time.perf_counter() - self._start:.1f} s"
        )

    def _best(self) -> float:
        """The lowest loss so far, nan never the best (``np.nanmin``), looking only at the
        losses added since the last call: a frame's readout must not cost the whole list."""
        losses = self.losses
        start, best = getattr(self, "_best_seen", (0, float("nan")))
        if start > len(losses):  # the list was replaced: look at all of it
            start, best = 0, float("nan")
        new = [x for x in losses[start:] if x == x]
        if new:
            low = min(new)
            best = low if best != best or low < best else best
        self._best_seen = (len(losses), best)
        return best

    def update(self, loss: Tensor | float) -> None:
        """Record one loss value (a float: the graph behind ``loss`` is not kept); redraw
        when it is time."""
        self.losses.append(float(loss.item() if isinstance(loss, Tensor) else loss))
        if not self.live:
            return
        if self.total and len(self.losses) == self.total:
            # The last step: the final figure (matplotlib, tens of ms) when the cell ends
            # or at finish(), whichever comes first, never inside the loop.
            frames.at_cell_end(self)
            return
        now = time.perf_counter()
        if now >= self._next_draw:
            self._draw()
            # Count from the end of the draw: a slow redraw must not make every update redraw.
            end = time.perf_counter()
            self._next_draw = end + max(self.every, self.COST_FACTOR * (end - now))

    def finish(self):
        """Draw the final curve (unless it is already on screen) and return the figure."""
        self.flush()
        return self.figure

    def flush(self) -> bool:
        """Draw the final figure if the curve changed since it was drawn; True if it drew."""
        frames._due.discard(self)
        if self._drawn == len(self.losses) and self._final:
            return False
        self._draw(final=True)
        return True

    def __enter__(self) -> LossPlot:
        return self

    def __exit__(self, *exc: object) -> None:
        self.finish()

    def _draw(self, final: bool = False) -> None:
        """A frame: in a notebook, while the loop runs, a light SVG sketch of the curve
        (a millisecond); at the end, and outside a notebook, the matplotlib figure."""
        self._drawn, self._final = len(self.losses), final or self._display is None
        if self._display is not None and not final:
            self._display("text/html", self._sketch())
            return
        self._update_figure()
        if self._display is not None:
            png = io.BytesIO()
            self.figure.savefig(png, format="png")
            self._display("image/png", png.getvalue())

    def _update_figure(self) -> None:
        steps = np.arange(1, len(self.losses) + 1)
        self._line.set_data(steps, self.losses)
        if self.losses:
            scale = "log" if _spans_decades(self.losses) else "linear"
            if self.ax.get_yscale() != scale:  # setting a scale rebuilds the axis: only on change
                self.ax.set_yscale(scale)
                if scale == "log":  # plain tick labels (0.01): mathtext ones cost twice as much
                    from matplotlib.ticker import FuncFormatter, NullFormatter

                    self.ax.yaxis.set_major_formatter(FuncFormatter(lambda y, _: f"{y:g}"))
                    self.ax.yaxis.set_minor_formatter(NullFormatter())
            self.ax.set_xlim(0.5, max(self.total or 0, len(self.losses)) + 0.5)
            self.ax.relim()
            self.ax.autoscale_view(scalex=False)
        self.ax.set_title(f"{self.title}\n{self.readout}", fontsize=10)

    def _sketch(self, width: int = 460, height: int = 150, points: int = 300) -> str:
        """The curve so far as an inline SVG polyline (low and high of each of ``points``
        buckets, so a spike still shows), with the readout: cheap to make and to send."""
        losses = np.asarray(self.losses, dtype=float)
        finite = losses[np.isfinite(losses)]
        line = ""
        if finite.size:
            log = _spans_decades((finite.min(), finite.max()))
            ys = (
                np.log10(np.where(np.isfinite(losses) & (losses > 0), losses, np.nan))
                if log
                else losses
            )
            ys = np.where(np.isfinite(ys), ys, np.nan)
            starts = np.linspace(0, len(ys), min(len(ys), points) + 1).astype(int)[:-1]
            with np.errstate(all="ignore"):
                low = np.fmin.reduceat(ys, starts)
                high = np.fmax.reduceat(ys, starts)
            xs = np.repeat(starts + 1, 2).astype(float)
            yy = np.stack([high, low], axis=1).reshape(-1)
            keep = np.isfinite(yy)
            xs, yy = xs[keep], yy[keep]
            if yy.size:
                span = max(self.total or 0, len(losses))
                top, bottom = float(yy.max()), float(yy.min())
                sx = (xs - 1) / max(1, span - 1) * (width - 10) + 5
                sy = 5 + (top - yy) / ((top - bottom) or 1.0) * (height - 10)
                # Python floats: formatting a numpy scalar costs ten times more, per point
                pairs = zip(sx.tolist(), sy.tolist(), strict=True)
                coords = " ".join(f"{x:.1f},{y:.1f}" for x, y in pairs)
                scale = " (log scale)" if log else ""
                line = (
                    f'<polyline points="{coords}" fill="none" stroke="#2563eb" '
                    'stroke-width="1.5"/>'
                    f'<text x="{width - 4}" y="14" text-anchor="end" font-size="11" '
                    f'fill="#64748b">{_axis_value(top, log)}</text>'
                    f'<text x="{width - 4}" y="{height - 6}" text-anchor="end" font-size="11" '
                    f'fill="#64748b">{_axis_value(bottom, log)}{scale}</text>'
                )
        head = html.escape(f"{self.title} · {self.readout}")
        return (
            f'<div class="mg-loss-sketch" style="font:12px sans-serif;color:#334155">{head}'
            f'<svg width="{width}" height="{height}" style="display:block;'
            f'border:1px solid #cbd5e1;background:#fff">{line}</svg></div>'
        )


def _axis_value(y: float, log: bool) -> str:
    return f"{10**y if log else y:.3g}"


def _spans_decades(losses: Sequence[float]) -> bool:
    """Whether the curve reads better on a log scale: all positive, over 100x apart."""
    low, high = min(losses), max(losses)
    return low > 0 and high / low > 100


def _notebook_display() -> Callable[[str, object], None] | None:
    """Show one output (HTML or PNG) in a notebook, updated in place; None outside one."""
    if not _in_notebook():
        return None
    from IPython.display import display

    handle = []

    def show(mime: str, data: object) -> None:
        bundle = {mime: data, "text/plain": "<LossPlot>"}
        if handle:
            handle[0].update(bundle, raw=True)
        else:
            handle.append(display(bundle, raw=True, display_id=True))

    return show


def _in_notebook() -> bool:
    """True in an IPython kernel (a notebook), where a figure can be shown and updated."""
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    shell = get_ipython()
    return shell is not None and getattr(shell, "kernel", None) is not None
