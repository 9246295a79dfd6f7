"""Grad mode: whether new operations are recorded in the graph.

One module-level switch, read on every operation (``state.enabled``), and the
context managers / decorators that flip it, as in PyTorch. ``no_grad`` is how
a training loop updates weights in place without recording the update.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["no_grad", "enable_grad", "set_grad_enabled", "is_grad_enabled"]

F = TypeVar("F", bound=Callable[..., Any])


class _State:
    __slots__ = ("enabled",)

    def __init__(self) -> None:
        self.enabled = True


state = _State()


def is_grad_enabled() -> bool:
    """True when operations on tensors that require grad build a graph."""
    return state.enabled


class _GradModeContext:
    """Base of the three context managers; also usable as a decorator."""

    _mode: bool

    def __enter__(self) -> None:
        self._prev = state.enabled
        state.enabled = self._mode

    def __exit__(self, *exc: object) -> None:
        state.enabled = self._prev

    def __call__(self, func: F) -> F:
        mode = self._mode

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            prev = state.enabled
            state.enabled = mode
            try:
                return func(*args, **kwargs)
            finally:
                state.enabled = prev

        return wrapper  # type: ignore[return-value]

    def __repr__(self) -> str:
        return f"<minigrad.autograd.grad_mode.{type(self).__name__} object at {id(self):#x}>"


class _NoParamContext(_GradModeContext):
    """``@no_grad`` works without parentheses too, as in PyTorch 2.x."""

    def __new__(cls, orig_func: Callable | None = None):
        if orig_func is None:
            return super().__new__(cls)
        return cls()(orig_func)


class no_grad(_NoParamContext):  # noqa: N801 - PyTorch's name
    """Disable graph recording: ``with minigrad.no_grad(): w -= lr * w.grad``."""

    _mode = False


class enable_grad(_NoParamContext):  # noqa: N801
    """Re-enable graph recording inside a ``no_grad`` block."""

    _mode = True


class set_grad_enabled(_GradModeContext):  # noqa: N801
    """Set grad mode to ``mode``; takes effect at once, and undoes it on exit.

    Used as a decorator, it only applies while the function runs.
    """

    def __init__(self, mode: bool) -> None:
        if not isinstance(mode, bool):
            raise TypeError(
                "set_grad_enabled(): argument 'enabled' (position 1) must be bool, "
                f"not {type(mode).__name__}"
            )
        self._prev = state.enabled
        self._mode = mode
        state.enabled = mode

    def __call__(self, func: F) -> F:
        state.enabled = self._prev
        return super().__call__(func)

    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc: object) -> None:
        state.enabled = self._prev

    def __repr__(self) -> str:
        return f"minigrad.autograd.grad_mode.set_grad_enabled(mode={self._mode})"
