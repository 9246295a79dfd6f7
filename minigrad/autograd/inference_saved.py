"""An inference tensor that an op would save for backward, refused before the op runs."""

from __future__ import annotations

from .._modes import InferenceVersion
from ..tensor import Tensor
from .saved_values import _INFERENCE_SAVED

_NOT_INPUTS = ("result", "indices", "self_or_result")  # saved, but made by the op


def refuse_saved_inference(cls: type, inputs: tuple, nexts: tuple) -> None:
    """Called when ``cls``'s forward failed. PyTorch saves an op's inputs for backward before
    it runs the op, so an inference tensor it would save is refused first: ``mm`` of a 4-d
    inference tensor and a matrix that requires grad says "Inference tensors cannot be saved",
    not "self must be a matrix". ``nexts``: where each input's gradient goes (None: none).

    Which input a saved name is: all in order when every input is saved; otherwise ``self``
    (or ``grad_output``) is the first and the others the last ones (addmm saves mat1 and mat2,
    not its bias)."""
    names = [n for n in cls.saved_names if n not in _NOT_INPUTS] or [None] * len(
        cls.saved_when or ()
    )
    n = len(inputs)
    if not names or len(names) > n:
        return
    head = 1 if names[0] in ("self", "grad_output") and len(names) < n else 0
    where = list(range(head)) + list(range(n - len(names) + head, n))
    when = cls.saved_when
    for slot, k in enumerate(where):
        needed_by = None if when is None or slot >= len(when) else when[slot]
        if needed_by is not None and nexts[needed_by] is None:
            continue  # kept only for a gradient no one needs
        x = inputs[k]
        if isinstance(x, Tensor) and isinstance(x._vc, InferenceVersion):
            raise RuntimeError(_INFERENCE_SAVED)
