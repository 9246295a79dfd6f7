"""Grad mode and inference mode: whether new operations are recorded in the graph.

The switches are per thread, as in PyTorch (``minigrad/_modes.py`` holds them): a
``no_grad`` block in one thread leaves every other thread recording. The context
managers and decorators here flip them. ``no_grad`` is how a training loop updates
weights in place without recording the update; ``inference_mode`` is ``no_grad``
plus a promise: what it makes (inference tensors) never enters a graph later, which
PyTorch enforces with an error and minigrad too.

Decorating a generator function applies the mode while the generator's own code
runs, each time it is resumed, and not while the caller uses what it yielded.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any, TypeVar

from .._modes import set_modes, state
from .._typename import type_name
from ..tensor import Tensor

__all__ = [
    "no_grad",
    "enable_grad",
    "set_grad_enabled",
    "is_grad_enabled",
    "inference_mode",
    "is_inference_mode_enabled",
    "is_inference",
]

F = TypeVar("F", bound=Callable[..., Any])


def is_grad_enabled() -> bool:
    """True when operations on tensors that require grad build a graph (in this thread)."""
    return state.grad


def is_inference_mode_enabled() -> bool:
    """True inside ``inference_mode()`` (in this thread)."""
    return state.inference


def is_inference(input: Tensor) -> bool:
    """``minigrad.is_inference(t)``: ``t.is_inference()``, for a Tensor only."""
    if not isinstance(input, Tensor):
        raise TypeError(
            f"is_inference(): argument 'input' (position 1) must be Tensor, not {type_name(input)}"
        )
    return input.is_inference()


class _ModeContext:
    """Base of the context managers; also usable as a decorator.

    A subclass says which modes it sets (``_modes``); ``__enter__`` remembers
    this thread's modes and ``__exit__`` puts them back.
    """

    def _modes(self) -> tuple[bool, bool]:
        raise NotImplementedError

    def __enter__(self) -> None:
        self._prev = (state.grad, state.inference)
        set_modes(*self._modes())

    def __exit__(self, *exc: object) -> None:
        set_modes(*self._prev)

    def clone(self) -> _ModeContext:
        """A fresh context with the same setting (one per call of a decorated function)."""
        return type(self)()

    def __call__(self, func: F) -> F:
        if inspect.isgeneratorfunction(func):
            return _wrap_generator(self.clone, func)  # type: ignore[return-value]
        clone = self.clone

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            with clone():
                return func(*args, **kwargs)

        return wrapper  # type: ignore[return-value]

    def __repr__(self) -> str:
        return f"<minigrad.autograd.grad_mode.{type(self).__name__} object at {id(self):#x}>"


def _wrap_generator(make_context: Callable[[], _ModeContext], func: Callable) -> Callable:
    """A generator function whose every step (start, send, throw, close) runs in the mode."""

    @functools.wraps(func)
    def generator(*args: Any, **kwargs: Any) -> Any:
        gen = func(*args, **kwargs)
        try:
            with make_context():
                value = next(gen)
            while True:
                try:
                    sent = yield value
                except GeneratorExit:
                    with make_context():
                        gen.close()
                    raise
                except BaseException as error:  # thrown in by the caller: pass it on
                    with make_context():
                        value = gen.throw(error)
                else:
                    with make_context():
                        value = gen.send(sent)
        except StopIteration as stop:
            return stop.value

    return generator


class _NoParamContext(_ModeContext):
    """``@no_grad`` works without parentheses too, as in PyTorch 2.x."""

    def __new__(cls, orig_func: Callable | None = None):
        if orig_func is None:
            return super().__new__(cls)
        return cls()(orig_func)


class no_grad(_NoParamContext):  # noqa: N801 - PyTorch's name
    """Disable graph recording: ``with minigrad.no_grad(): w -= lr * w.grad``."""

    def _modes(self) -> tuple[bool, bool]:
        return False, state.inference


class enable_grad(_NoParamContext):  # noqa: N801
    """Re-enable graph recording inside a ``no_grad`` block (not inside inference mode)."""

    def _modes(self) -> tuple[bool, bool]:
        return True, state.inference


class _SetGrad(_ModeContext):
    """Grad mode ``mode`` while inside: what a ``@set_grad_enabled(mode)`` call runs in."""

    def __init__(self, mode: bool) -> None:
        self._mode = mode

    def _modes(self) -> tuple[bool, bool]:
        return self._mode, state.inference

    def clone(self) -> _SetGrad:
        return _SetGrad(self._mode)


class set_grad_enabled(_SetGrad):  # noqa: N801
    """Set grad mode to ``mode``; takes effect at once, and undoes it on exit.

    Used as a decorator, it only applies while the function runs.
    """

    def __init__(self, mode: bool) -> None:
        if not isinstance(mode, bool):
            raise TypeError(
                "set_grad_enabled(): argument 'enabled' (position 1) must be bool, "
                f"not {type(mode).__name__}"
            )
        self._mode = mode
        self._prev = (state.grad, state.inference)
        set_modes(mode, state.inference)

    def clone(self) -> _SetGrad:
        return _SetGrad(self._mode)

    def __call__(self, func: F) -> F:
        set_modes(*self._prev)  # a decorator: only while the function runs
        return super().__call__(func)

    def __enter__(self) -> None:
        pass  # already set by __init__

    def __repr__(self) -> str:
        return f"minigrad.autograd.grad_mode.set_grad_enabled(mode={self._mode})"


class inference_mode(_ModeContext):  # noqa: N801
    """``no_grad`` for code that will never need gradients: evaluation, serving.

    Inside, nothing is recorded (even under ``enable_grad``) and every tensor made
    is an inference tensor (``t.is_inference()``). Outside, an inference tensor
    cannot be saved for a backward pass, changed in place, or made to require grad:
    clone it to get a normal tensor. ``inference_mode(False)`` turns it off inside.
    """

    def __new__(cls, mode_or_orig_func: Any = True):
        if mode_or_orig_func is None or isinstance(mode_or_orig_func, bool):
            return super().__new__(cls)
        return cls()(mode_or_orig_func)  # @inference_mode without parentheses

    def __init__(self, mode: bool = True) -> None:
        self.mode = mode

    def _modes(self) -> tuple[bool, bool]:
        return not self.mode, self.mode

    def clone(self) -> inference_mode:
        return type(self)(self.mode)
