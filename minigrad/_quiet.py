"""numpy's floating-point warnings off while minigrad computes, as PyTorch is silent.

PyTorch returns inf or nan for ``log(0)``, ``1 / 0`` or ``exp(1000)`` without a word; numpy
warns (``RuntimeWarning: divide by zero encountered in log``), through the user's warning
filters, so a filter cannot silence it for every user (``simplefilter("always")``, pytest's
``filterwarnings = error``). So the engine switches numpy's error state to "ignore" around
each op's computation and around a backward pass, and back afterwards: the user's own numpy
code keeps numpy's behaviour.

``np.errstate`` does this but costs several microseconds per use, as much as a small op; numpy
keeps the state in a context variable, and setting that variable directly costs a fraction of
a microsecond. If a numpy version lacks it, ``np.errstate`` is used instead.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["IGNORE", "quiet", "restore"]

try:
    from numpy._core._ufunc_config import _extobj_contextvar as _state
except ImportError:  # pragma: no cover - another numpy layout: the public, slower way
    _state = None

if _state is not None:
    with np.errstate(all="ignore"):
        IGNORE = _state.get()
    # the hot path calls these bound methods directly: ``token = quiet(IGNORE)``, then
    # ``restore(token)`` (no Python function in between)
    quiet = _state.set
    restore = _state.reset

else:  # pragma: no cover
    IGNORE = None

    def quiet(_: Any) -> Any:
        state = np.errstate(all="ignore")
        state.__enter__()
        return state

    def restore(token: Any) -> None:
        token.__exit__(None, None, None)
