"""Views and in-place changes: keeping a view's history right, as PyTorch does.

A view (``v = y[0]``, ``y.t()``, ``y.view(...)``) shares memory and version
counter with its base. Two things follow:

- An in-place op *through* a view changes the base too. PyTorch records it on
  the base: ``y.grad_fn`` becomes ``CopySlices`` (the old ``y`` with the region
  the view covers replaced by the op's result: the node runs the op's own
  backward on that region), and ``v.grad_fn`` becomes ``AsStridedBackward0``
  (that region, read from the new ``y``). See ``rebase_view``.
- A view whose base changed in place after the view's history was recorded
  (its version counter moved on) would otherwise keep a stale history and get
  a silently wrong gradient. ``view_history`` notices the new version and
  regenerates it as ``AsStridedBackward0`` from the base's current history.

To know the region whatever view op made ``v``, ``view_key`` reads it off the
memory layout: which element of the base each element of the view lies on.
"""

from __future__ import annotations

import math

import numpy as np

from ..tensor import Tensor, new_tensor
from .accumulate_grad import node_of
from .multi_output import MULTI_OUTPUT, MULTI_VIEW_ADVICE, multi_view_error, multi_view_of
from .node import Node, sequence
from .saved_values import _FREED, _SECOND_BACKWARD


def _byte_offsets(array: np.ndarray) -> np.ndarray:
    """The memory offset (in bytes, from its first element) of every element of ``array``."""
    offsets = np.zeros(array.shape, dtype=np.int64)
    for axis, (n, stride) in enumerate(zip(array.shape, array.strides)):
        shape = [1] * array.ndim
        shape[axis] = n
        offsets = offsets + (np.arange(n, dtype=np.int64) * stride).reshape(shape)
    return offsets


def view_key(base: np.ndarray, view: np.ndarray) -> np.ndarray:
    """Where each element of ``view`` lies in ``base``: an array of ``view``'s shape that
    indexes ``base.reshape(-1)`` (one form for every base, a 0-d one too)."""
    start = view.__array_interface__["data"][0] - base.__array_interface__["data"][0]
    in_base = _byte_offsets(base).ravel()
    order = np.argsort(in_base, kind="stable")
    wanted = (start + _byte_offsets(view)).ravel()
    found = np.minimum(np.searchsorted(in_base[order], wanted), max(in_base.size - 1, 0))
    flat = order[found] if in_base.size else found
    if in_base.size == 0 and wanted.size or not np.array_equal(in_base[flat], wanted):
        raise RuntimeError("an in-place change to a view that does not share its base's memory")
    return flat.reshape(view.shape)


class AsStridedBackward0(Node):
    """A view's history read from its base: the elements ``key`` of the flat base.

    An expanded view reads some elements several times, and their gradients add up.
    """

    __module__ = "builtins"  # prints bare, like the nodes of the built-in ops

    def __init__(self, base: Tensor, key: np.ndarray) -> None:
        self.shape, self.key = base._data.shape, key
        self.overlaps = np.unique(key).size < key.size
        self._next = (node_of(base),)
        self._seq = next(sequence)

    def _run(self, grad: np.ndarray) -> tuple:
        full = np.zeros(math.prod(self.shape), dtype=grad.dtype)
        if self.overlaps:
            np.add.at(full, self.key.reshape(-1), grad.reshape(-1))
        else:
            full[self.key] = grad
        return (full.reshape(self.shape),)

    def _run_graph(self, grad: Tensor) -> tuple:
        size = math.prod(self.shape)
        if self.overlaps:  # the sum of the repeats, as a product a second backward can follow
            picks = np.zeros((size, self.key.size), dtype=grad._data.dtype)
            picks[self.key.reshape(-1), np.arange(self.key.size)] = 1
            return ((new_tensor(picks) @ grad.reshape(-1)).reshape(self.shape),)
        return (as_strided_backward(grad, self.shape, self.key),)


def as_strided_backward(grad: Tensor, shape: tuple, key: np.ndarray) -> Tensor:
    """``grad`` of the region ``key`` put back into zeros of ``shape``, recorded as PyTorch's
    ``as_strided_backward``: new zeros, their region as_strided, the gradient ``copy_``-ed
    in (CopySlices), the zeros read as_strided in the base's shape (AsStridedBackward0)."""
    size = math.prod(shape)
    if key.size == 0:  # nothing to put back: zeros, no graph
        return new_tensor(np.zeros(shape, grad._data.dtype))
    for i in reversed(range(key.ndim)):  # the region's dims of size 1 squeezed out first
        if key.shape[i] == 1:
            grad, key = grad.squeeze(i), key.squeeze(i)
    full = new_tensor(np.zeros(size, grad._data.dtype))
    try:
        full._as_strided_region(key).copy_(grad)
        return full._as_strided_region(np.arange(size).reshape(shape))
    except ValueError:  # no strides give the region: a recorded setitem
        full = new_tensor(np.zeros(size, grad._data.dtype))
        full[key] = grad
        return full.reshape(shape)


class CopySlices(Node):
    """The base's node after an in-place op on one of its views (PyTorch's CopySlices).

    Its edges are the base's old history, then the op's other inputs. Backward
    passes the base's gradient through unchanged outside the view's region, and
    runs the op's own backward (``fn``) on the region (``key`` into the flat base).
    """

    __module__ = "builtins"  # prints as <CopySlices object at ...>, like PyTorch's C++ node
    _namespace = "minigrad::autograd::"

    _released = False  # a backward pass without retain_graph released ``fn`` (PyTorch's)

    def __init__(self, base: Tensor, fn: Node, key: np.ndarray) -> None:
        self.fn, self.key = fn, key
        self._next = (node_of(base), *fn._next[1:])
        self._seq = next(sequence)

    @property
    def _saved(self):
        """What the op saved, freed (and checked) with this node. Never None: PyTorch's
        CopySlices releases its op after a backward pass, even one that saved nothing
        (``t[0] = 3``), and refuses a second pass."""
        if self._released:
            return _FREED
        saved = self.fn._saved
        return () if saved is None else saved

    @_saved.setter
    def _saved(self, value) -> None:
        self._released = value is _FREED
        if self.fn._saved is not None:
            self.fn._saved = value

    def _run(self, grad: np.ndarray) -> tuple:
        if self._released:
            raise RuntimeError(_SECOND_BACKWARD)
        result = np.array(grad, order="C")  # a copy (grad may be a numpy scalar); ``flat`` is
        flat = result.reshape(-1)  # a view of it
        grads = self.fn._run(flat[self.key])
        flat[self.key] = 0 if grads[0] is None else grads[0]
        return (result, *grads[1:])

    def _run_graph(self, grad: Tensor) -> tuple:
        """PyTorch's steps: ``result = grad`` copied (CopyBackwards), the region read from it
        with ``as_strided`` and cloned for the op's backward, its gradient copied back into
        the region (CopySlices again)."""
        if self._released:
            raise RuntimeError(_SECOND_BACKWARD)
        result = new_tensor(np.empty(grad._data.shape, grad._data.dtype)).copy_(grad)
        region = result._as_strided_region(self.key)
        grads = self.fn._run_graph(region.clone())
        if grads[0] is None:
            region.zero_()
        else:
            region.copy_(grads[0])
        return (result, *grads[1:])


_NO_GRAD_ADVICE = (
    " Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify "
    "your code by moving both the view and the inplace either both inside the no_grad block "
    "(if you don't want the inplace to be tracked) or both outside (if you want the inplace "
    "to be tracked)."
)


def no_grad_view_error(view: Tensor, indirect: bool) -> RuntimeError:
    """PyTorch's refusal of a view made under ``no_grad`` (or a view of one) that changes in
    place with grad mode on (``indirect``: its base or another view of it changed, seen when
    the view is used next): whether the change should be recorded is ambiguous."""
    modified = "its base or another view of its base has been" if indirect else "is being"
    if view._no_grad_view is MULTI_OUTPUT:  # of split, unbind ... in grad mode, no grad
        advice = " " + MULTI_VIEW_ADVICE
    else:
        advice = _NO_GRAD_ADVICE
    fn = view._grad_fn
    if fn is None:
        head = "A view was created in no_grad mode and"
    else:  # made with grad mode on, of a view made under no_grad
        name = fn.name().rsplit("Backward", 1)[0]
        head = (
            f"Output {getattr(fn, '_nr', 0)} of {name} is a view of a view which was created "
            "in no_grad mode and"
        )
    return RuntimeError(f"{head} {modified} modified inplace with grad mode enabled.{advice}")


def rebase_view(view: Tensor, fn: Node) -> None:
    """``view`` was changed in place by the op whose node is ``fn``: record it on the base."""
    base = view._base
    key = view_key(base._data, view._data)
    base._grad_fn = CopySlices(base, fn, key)
    base._requires_grad = True
    view._grad_fn = AsStridedBackward0(base, key)
    view._requires_grad = True
    view._view_version = view._vc[0]


def view_history(view: Tensor) -> Node | None:
    """The view's grad_fn, regenerated from its base if the base changed in place since."""
    if view._view_version == view._vc[0]:
        return view._grad_fn
    base = view._base
    fn = view._grad_fn
    if fn is not None and (fn._owner is not None or multi_view_of(view) is not None):
        raise multi_view_error(view, base_changed=True)  # unbind's, split's ... outputs (or
        # a view of one: PyTorch's views inherit the MULTI_OUTPUT_NODE creation meta)
    if view._no_grad_view and (view._grad_fn is not None or base._requires_grad):
        raise no_grad_view_error(view, indirect=True)
    view._view_version = view._vc[0]
    # a view of a leaf made a view by requires_grad_() (x[3:].requires_grad_()) is regenerated
    # too, as in PyTorch: its base needs no grad, so the new node leads nowhere
    if base._requires_grad or view._requires_grad and view._grad_fn is not None:
        view._grad_fn = AsStridedBackward0(base, view_key(base._data, view._data))
    return view._grad_fn
