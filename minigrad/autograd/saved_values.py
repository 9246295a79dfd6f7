"""BackwardNode: the node of an op, and the values its forward saved for backward.

Each saved value is kept with the version its tensor had when saved, so that an
in-place change made afterwards is caught (PyTorch's "modified by an inplace
operation" error) instead of silently giving a wrong gradient; and a pass that
frees the graph marks them freed, so that a second pass fails as in PyTorch.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .._modes import InferenceVersion
from ..tensor import Tensor
from . import anomaly_mode
from .accumulate_grad import AccumulateGrad
from .node import Node

__all__ = ["BackwardNode"]

_anomaly = anomaly_mode.state
_FREED = ("freed",)  # marks saved values released by a backward pass


class BackwardNode(Node):
    """The node (and ``ctx``) of a Function call; subclassed once per Function."""

    _saved_checks: tuple = ()
    # the order PyTorch's generated code unpacks the saved values in (the first modified one
    # is named): the order of their first use in derivatives.yaml; None: as saved
    _check_order: tuple | None = None
    _saved_unless: tuple | None = None  # (slot, input) pairs: see ArrayFunction.saved_when
    _shapes: tuple | None = None
    _tensor_positions: tuple | None = None  # a custom Function: where its Tensor arguments are
    _seq = 0

    def save_for_backward(self, *values: Any) -> None:
        """Keep values for ``backward``; their versions are checked when read back."""
        self._saved = values

    @property
    def saved_tensors(self) -> tuple:
        saved = self._saved
        if saved is _FREED:
            versions = self._saved_checks[1::3]  # -1: a value not kept (``saved_when``)
            if any([version != -1 for version in versions]):
                raise RuntimeError(_SECOND_BACKWARD)
            return (None,) * len(versions)  # nothing was kept, nothing is missing (PyTorch)
        if saved is None:
            return ()
        checks = self._saved_checks
        n = len(checks)  # read on every backward: one or two values unrolled
        if n == 6:
            c, v, _, c2, v2, _ = checks
            if (c is None or c[0] == v) and (c2 is None or c2[0] == v2):
                return saved
        elif n == 3:
            c, v, _ = checks
            if c is None or c[0] == v:
                return saved
        order = self._check_order
        if order is None or len(order) * 3 != n:
            order = range(n // 3)
        for k in order:
            counter = checks[3 * k]
            if counter is not None and counter[0] != checks[3 * k + 1]:
                raise RuntimeError(_modified_message(self, k))
        return saved

    def _run_without_grad(self, graph: bool = False) -> tuple:
        """No gradient reached this node: PyTorch's generated code still unpacks what forward
        saved before it sees that, so a value changed in place since, or freed by an earlier
        pass, raises here too (``vector_norm(x * x, 0)`` after ``x`` was modified)."""
        if self._saved is not None:
            self.saved_tensors  # noqa: B018 - read for its checks
        return (None,) * len(self._next)

    @property
    def needs_input_grad(self) -> tuple[bool, ...]:
        positions = self._tensor_positions
        if positions is None:
            return tuple([fn is not None for fn in self._next])
        flags = [False] * self._n_args  # a custom Function: one flag per argument of forward
        for i, fn in zip(positions, self._next, strict=True):
            flags[i] = fn is not None
        return tuple(flags)

    def _record_versions(self, inputs: tuple, values: Sequence, output: Tensor) -> None:
        """Remember the version of every saved input/output, to detect in-place changes.

        ``values`` are what forward received for ``inputs`` (their arrays). For
        each saved value ``_saved_checks`` holds three entries: the version
        counter it is watched by (None: not a tensor's value), the version when
        saved, and which input it was (-1: the output).
        """
        saved = self._saved
        drop = self._saved_unless
        nexts = self._next
        if drop is not None and None in nexts:  # keep only what the gradients need
            for k, needed_by in drop:
                if nexts[needed_by] is None:
                    saved = (*saved[:k], None, *saved[k + 1 :])
            self._saved = saved
        checks: list = []
        out_data = output._data
        n = len(values)
        k = -1
        for value in saved:  # every op pays for this loop: its tests go from common to rare
            k += 1
            if value is None:  # not kept (``saved_when``): -1 says so after the graph is freed
                checks += _NOT_KEPT
                continue
            if value is out_data or value is output:
                vc = output._vc
                checks += (vc, vc[0], -1)
                continue
            # saved in input order (``save_for_backward(a, b)``): the input at the same place
            # first, so that ``x * x.detach()`` (one array, two inputs) ties each to its own
            if k < n and (value is values[k] or value is inputs[k]):
                x = inputs[k]
                if isinstance(x, Tensor):
                    vc = x._vc
                    if type(vc) is not list and isinstance(vc, InferenceVersion):
                        raise RuntimeError(_INFERENCE_SAVED)
                    checks += (vc, vc[0], k)
                    continue
                if type(value) is not np.ndarray:  # a number (x * 2.0): no tensor's value
                    checks += _UNWATCHED
                    continue
            i = 0
            for array in values:
                if value is array or value is inputs[i]:
                    x = inputs[i]
                    if isinstance(x, Tensor):
                        if isinstance(x._vc, InferenceVersion):
                            raise RuntimeError(_INFERENCE_SAVED)
                        checks += (x._vc, x._vc[0], i)
                        break
                i += 1
            else:
                checks += _UNWATCHED
        self._saved_checks = tuple(checks)


class WithCasts(tuple):
    """``_shapes`` of a node whose float inputs differ in dtype from its result (``x32 +
    y64``): the shape to sum each gradient back to, and in ``dtypes`` the dtype to cast it to
    (None: none). PyTorch's engine casts a gradient to its input's dtype at the node that
    made it (``ToCopyBackward0`` under create_graph), not at the leaf."""

    dtypes: tuple


def with_casts(shapes: tuple, dtypes) -> WithCasts:
    result = WithCasts(shapes)
    result.dtypes = tuple(dtypes)
    return result


_NOT_KEPT = (None, -1, 0)  # _saved_checks of a value no gradient needed (``saved_when``)
_UNWATCHED = (None, 0, 0)  # ... of a number, or an array that is neither input nor output
_INFERENCE_SAVED = (
    "Inference tensors cannot be saved for backward. Please do not use Tensors created in "
    "inference mode in computation tracked by autograd. To work around this, you can make a "
    "clone to get a normal tensor and use it in autograd, or use `minigrad.no_grad()` instead of "
    "`minigrad.inference_mode()`."
)
_SECOND_BACKWARD = (
    "Trying to backward through the graph a second time (or directly access saved tensors "
    "after they have already been freed). Saved intermediate values of the graph are freed "
    "when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to "
    "backward through the graph a second time or if you need to access saved tensors after "
    "calling backward."
)


def _is_view_node(node: Node) -> bool:
    """Whether ``node`` is the grad_fn of a view (``t()``, ``x[0]``, ``view`` ...)."""
    function = getattr(node, "_function", None)
    return getattr(function, "is_view", False) or type(node).__name__ == "AsStridedBackward0"


def _of_multi_view(edge: Node) -> bool:
    """Whether ``edge`` is an output of unbind, split ... or of a view of one: PyTorch's views
    inherit the ``MULTI_OUTPUT_NODE`` creation meta (``matmul``'s reshape of a split part)."""
    while edge is not None:
        owner = getattr(edge, "_owner", None)
        if owner is not None:
            return getattr(getattr(owner, "_function", None), "is_view", False)
        if not getattr(getattr(edge, "_function", None), "is_view", False) or not edge._next:
            return False
        edge = edge._next[0]
    return False


def _modified_message(node: BackwardNode, k: int) -> str:
    """PyTorch's words for "a value saved for backward was changed in place"."""
    from .._dtypes import from_numpy_dtype

    counter, expected, which = node._saved_checks[3 * k : 3 * k + 3]
    # which: an input (its edge), the output (< 0), or past the edges (nll_loss's target)
    edge = node._next[which] if 0 <= which < len(node._next) else None
    if edge is not None and _of_multi_view(edge):
        from .multi_output import multi_view_message  # a saved output of unbind, split ...

        return multi_view_message(edge, edge._nr if edge._owner is not None else 0, True)
    value = node._saved[k]
    array = value._data if isinstance(value, Tensor) else np.asarray(value)
    if array.dtype == np.bool_:  # no legacy tensor type: PyTorch names its C++ type
        described = f"[CPUBoolType {list(array.shape)}]"
    else:
        described = f"[minigrad.{from_numpy_dtype(array.dtype).legacy_name} {list(array.shape)}]"
    owner = node if which < 0 else edge
    if which >= 0 and owner is not None and _is_view_node(owner):
        # a view (its base, or itself, changed in place): PyTorch names the history it
        # regenerates for the view from the changed base, AsStridedBackward0
        described += ", which is output 0 of AsStrided,"
        owner = None
    elif which >= 0 and len(counter) > 1 and owner is not None:  # changed in place: the
        owner = counter[1]  # input's current grad_fn, the in-place op's
    if owner is not None and not isinstance(owner, AccumulateGrad):
        nr = -1 - which if which < 0 else owner._nr if owner._owner is not None else 0
        op = owner.name()
        short = op.replace("Backward", "")  # PyTorch's words: Add, Pow1, CopySlices
        described += f", which is output {nr} of {short[:-1] if short.endswith('0') else short},"
    hint = (
        "the backtrace further above shows the operation that failed to compute its gradient. "
        "The variable in question was changed in there or anywhere later. Good luck!"
        if _anomaly.enabled
        else "enable anomaly detection to find the operation that failed to compute its gradient, "
        "with minigrad.autograd.set_detect_anomaly(True, check_nan=False)."
    )
    return (
        "one of the variables needed for gradient computation has been modified by an inplace "
        f"operation: {described} is at version {counter[0]}; expected version {expected} "
        f"instead. Hint: {hint}"
    )
