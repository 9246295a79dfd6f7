"""Anomaly detection: find the forward line behind a failing backward, as in PyTorch.

While it is on, every recorded node keeps the stack of the forward call that
made it (``node.metadata["traceback_"]``); if that node's backward fails, the
engine warns with that stack before the error propagates, and (``check_nan``)
a backward that produces NaN raises at once, naming the node. It slows every
operation down, so it is off by default.

Unlike grad mode, which is per thread, the anomaly switch is one for the whole
process, as in PyTorch 2.x (``torch.autograd.set_detect_anomaly`` in one thread
is seen by every thread): it is a debugging aid, not part of a computation.
"""

from __future__ import annotations

import functools
import traceback
import warnings
from collections.abc import Callable
from typing import Any

__all__ = [
    "detect_anomaly",
    "set_detect_anomaly",
    "is_anomaly_enabled",
    "is_anomaly_check_nan_enabled",
]


class _State:
    __slots__ = ("enabled", "check_nan")

    def __init__(self) -> None:
        self.enabled = False
        self.check_nan = True


state = _State()


def is_anomaly_enabled() -> bool:
    return state.enabled


def is_anomaly_check_nan_enabled() -> bool:
    return state.check_nan


def remember_forward(node: Any) -> None:
    """Store where in the learner's code this node was created."""
    node.metadata["traceback_"] = traceback.format_stack()[:-3]


class set_detect_anomaly:  # noqa: N801 - PyTorch's name
    """Turn anomaly detection on or off; a context manager restores the old setting."""

    def __init__(self, mode: bool, check_nan: bool = True) -> None:
        self._prev = (state.enabled, state.check_nan)
        state.enabled, state.check_nan = mode, check_nan

    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc: object) -> None:
        state.enabled, state.check_nan = self._prev


class detect_anomaly:  # noqa: N801
    """``with detect_anomaly():`` (or as a decorator) turns anomaly detection on."""

    def __init__(self, check_nan: bool = True) -> None:
        self.check_nan = check_nan
        warnings.warn(
            "Anomaly Detection has been enabled. This mode will increase the runtime and should "
            "only be enabled for debugging.",
            UserWarning,
            stacklevel=2,
        )

    def __enter__(self) -> None:
        self._prev = (state.enabled, state.check_nan)
        state.enabled, state.check_nan = True, self.check_nan

    def __exit__(self, *exc: object) -> None:
        state.enabled, state.check_nan = self._prev

    def __call__(self, func: Callable) -> Callable:
        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            with self:
                return func(*args, **kwargs)

        return wrapper


def report_failure(node: Any) -> None:
    """Warn with the forward stack of the node whose backward failed."""
    stack = node.metadata.get("traceback_") if node._metadata else None
    if stack:
        warnings.warn(
            f"Error detected in {node.name()}. Traceback of forward call that caused the "
            f"error:\n{''.join(stack)}",
            UserWarning,
            stacklevel=3,
        )


def check_nan(node: Any, outs: tuple) -> None:
    import numpy as np

    for i, g in enumerate(outs):
        if g is not None and g.dtype.kind == "f" and np.isnan(g).any():
            raise RuntimeError(f"Function '{node.name()}' returned nan values in its {i}th output.")
