"""The switches of autograd, one set per thread: grad mode and inference mode.

PyTorch keeps them per thread, so a training loop can call ``backward()`` in one
thread while an evaluation thread sits in ``no_grad``; so does minigrad. They live at
the bottom of the package (beside the dtypes) because the Tensor itself reads one:
a tensor made in inference mode is an inference tensor.

``state`` is a ``threading.local``: each thread sees its own three attributes, set
afresh (grad on, inference off) the first time the thread touches them.

- ``grad``: grad mode as ``is_grad_enabled()`` reports it;
- ``inference``: inside ``inference_mode()``;
- ``enabled``: ``grad and not inference``, whether a new operation is recorded. Every
  operation reads this one attribute (``autograd/array_apply.py``, ``function.py``), so it
  is kept precomputed rather than derived on each read.
"""

from __future__ import annotations

import threading

__all__ = ["state", "set_modes", "InferenceVersion", "DetachedInferenceVersion"]


class _State(threading.local):
    def __init__(self) -> None:
        self.grad = True
        self.inference = False
        self.enabled = True


state = _State()


def set_modes(grad: bool, inference: bool) -> None:
    """Set this thread's grad mode and inference mode together."""
    state.grad, state.inference = grad, inference
    state.enabled = grad and not inference


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
