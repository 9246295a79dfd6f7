"""When a view draws: when someone will see it, and never often enough to slow a loop.

A backward pass through a view's graph only marks the view dirty. It draws
(records → text → DOT → SVG → one message to the browser) when:

- it is displayed, or a browser view of it appears (``GraphView`` decides
  whether anyone is looking; a view nobody looks at never draws);
- otherwise at the next "frame": at once if the view has rested long enough
  since its last drawing, else at the end of the running cell (IPython's
  ``post_run_cell``) or, for a pass started by a slider outside any cell, as
  soon as the kernel is idle (a ``call_later`` on the kernel's event loop).

"Long enough" is ten times what the last drawing cost, and at least
``MIN_GAP`` seconds: a loop through a displayed view's graph spends at most
about a tenth of its time drawing, however many passes it makes.
"""

from __future__ import annotations

import asyncio
import time
import weakref
from typing import Protocol

__all__ = ["request", "at_cell_end", "flush_all", "MIN_GAP", "COST_FACTOR"]

MIN_GAP = 0.2  # seconds between two drawings of one view, at least
COST_FACTOR = 10  # ... and at least this many times what the last drawing took


class Drawable(Protocol):
    _next_draw_at: float

    def flush(self) -> bool: ...


_due: weakref.WeakSet = weakref.WeakSet()
_hooked: set[int] = set()  # ids of the IPython shells whose post_run_cell we listen to
_timer: list = []  # the pending call_later handle, if any


def request(view: Drawable) -> None:
    """``view`` changed and someone is looking: draw now or at the next frame."""
    now = time.perf_counter()
    if now >= view._next_draw_at:
        view.flush()
        return
    _due.add(view)
    _hook_cell_end()
    _wake_at(view._next_draw_at - now)


def at_cell_end(view: Drawable) -> None:
    """Draw ``view`` when the running cell ends (a loop's final figure: after the loop,
    not inside it); in a script, only an explicit ``flush()`` draws it."""
    _due.add(view)
    _hook_cell_end()


def drew(view: Drawable, cost: float) -> None:
    """Record a drawing that took ``cost`` seconds: the next one waits."""
    view._next_draw_at = time.perf_counter() + max(MIN_GAP, COST_FACTOR * cost)
    _due.discard(view)


def flush_all() -> None:
    """Draw every view that is waiting for its frame."""
    for view in list(_due):
        _due.discard(view)
        view.flush()


def _post_run_cell(*_: object) -> None:
    flush_all()


def _hook_cell_end() -> None:
    try:
        from IPython import get_ipython
    except ImportError:
        return
    shell = get_ipython()
    if shell is None or id(shell) in _hooked:
        return
    shell.events.register("post_run_cell", _post_run_cell)
    _hooked.add(id(shell))


def _wake_at(delay: float) -> None:
    """Flush on the kernel's event loop once it is idle (passes started by a widget)."""
    if _timer:
        return
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return  # a script or a test: the end of the cell, or an explicit flush(), draws

    def wake() -> None:
        _timer.clear()
        flush_all()

    _timer.append(loop.call_later(max(0.0, delay), wake))
