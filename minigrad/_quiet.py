"""numpy's floating-point warnings off while minigrad computes, as PyTorch is silent.

PyTorch returns inf or nan for ``log(0)``, ``1 / 0``, ``sqrt(-1)`` or an overflowing cast and
prints nothing; numpy warns, and a warning filter cannot silence it for every user (a
``warnings.simplefilter("always")`` or pytest's ``filterwarnings = error`` overrides it). So the
ops run with numpy's error state set to ignore, and only while they run: ``quiet()`` before,
``loud(token)`` after (in a ``finally``). numpy keeps that state in a context variable; setting
it directly costs a tenth of a microsecond, where ``with np.errstate(all="ignore")`` costs
three, on every op.
"""

from __future__ import annotations

import functools

import numpy as np

try:  # numpy >= 2: the error state is a ContextVar
    from numpy._core._ufunc_config import _extobj_contextvar as _STATE

    with np.errstate(all="ignore"):
        _IGNORE = _STATE.get()

    # Bound C methods, no Python frame: quiet() -> token, loud(token).
    quiet = functools.partial(_STATE.set, _IGNORE)
    loud = _STATE.reset

except ImportError:  # another numpy layout: the public (slower) way

    def quiet():
        state = np.errstate(all="ignore")
        state.__enter__()
        return state

    def loud(token) -> None:
        token.__exit__(None, None, None)
