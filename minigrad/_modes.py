"""The switches of autograd, one set per thread: grad mode and inference mode.

PyTorch keeps them per thread, so a training loop can call ``backward()`` in one
thread while an evaluation thread sits in ``no_grad``; so does minigrad. They live at
the bottom of the package (beside the dtypes) because the Tensor itself reads one:
a tensor made in inference mode is an inference tensor.

Each thread has its own three attributes, set afresh (grad on, inference off) the first
time the thread touches them (a ``threading.local``, ``_local``):

- ``grad``: grad mode as ``is_grad_enabled()`` reports it;
- ``inference``: inside ``inference_mode()``;
- ``enabled``: ``grad and not inference``, whether a new operation is recorded. Every
  operation reads this one attribute (``autograd/array_apply.py``, ``function.py``), so it
  is kept precomputed rather than derived on each read.

Everyone reads them as ``state.grad``, ``state.inference``, ``state.enabled``. Reading a
``threading.local`` costs 90 ns, five times a plain attribute, and a training step reads
them some twenty times (every op, every new Tensor). So while every thread is in the
default modes (no ``no_grad`` anywhere: a training loop), ``state`` is a plain object
holding the defaults; as soon as one thread leaves them, ``set_modes`` turns ``state``
into one that reads each thread's own values (``_PerThread``), until all are back.
"""

from __future__ import annotations

import functools
import threading

__all__ = ["state", "set_modes", "InferenceVersion", "DetachedInferenceVersion"]


class _Local(threading.local):
    def __init__(self) -> None:
        self.grad = True
        self.inference = False
        self.enabled = True
        self.away = None  # an _Away while this thread is not in the default modes


_local = _Local()


class _Everywhere:
    """``state`` while every thread is in the default modes: plain attributes."""


def _this_threads(name: str) -> property:
    # getattr(_local, name, default): the thread's own value, read without a Python frame
    # (the default, ``state`` itself, is never returned: _Local sets all three)
    return property(functools.partial(getattr, _local, name))


class _PerThread(_Everywhere):
    """``state`` while a thread is not in the default modes: each thread's own values."""

    grad = _this_threads("grad")
    inference = _this_threads("inference")
    enabled = _this_threads("enabled")


state = _Everywhere()
state.grad, state.inference, state.enabled = True, False, True
_lock = threading.RLock()  # re-entered when an _Away is let go of while it is held
_away = 0  # threads not in the default modes (grad on, inference off)


def set_modes(grad: bool, inference: bool) -> None:
    """Set this thread's grad mode and inference mode together."""
    enabled = grad and not inference  # the default modes, and only they, record operations
    with _lock:
        was = _local.enabled
        _local.grad, _local.inference, _local.enabled = grad, inference, enabled
        if was != enabled:
            if enabled:
                _local.away.counted = False  # counted back here, not when it goes
                _local.away = None
            else:
                _local.away = _Away()
            _count(-1 if enabled else 1)


def _count(step: int) -> None:
    global _away
    _away += step
    state.__class__ = _PerThread if _away else _Everywhere


class _Away:
    """Kept in a thread's locals while it is not in the default modes: a thread that ends so
    (``set_grad_enabled(False)`` never undone) is counted back when Python drops its locals."""

    counted = True

    def __del__(self) -> None:
        if self.counted:
            try:
                with _lock:
                    _count(-1)
            except Exception:  # noqa: BLE001 - the interpreter is shutting down
                pass


class InferenceVersion(list):
    """The version counter of an inference tensor (and its views and ``detach()``).

    PyTorch's inference tensors have no version counter; minigrad marks them by the
    type of theirs, which views and detached copies share, so they are inference
    tensors too, as in PyTorch. ``Tensor.is_inference()`` tests this type.
    """

    __slots__ = ()


class DetachedInferenceVersion(InferenceVersion):
    """The counter of ``detach()`` or ``.data`` of an inference tensor: still an inference
    tensor, but, as in PyTorch, one whose own in-place ops (``add_``, ``fill_``) are allowed
    outside inference mode and whose ``_version`` reads 0; its views and ``t[i] = v`` are not.
    """

    __slots__ = ()
