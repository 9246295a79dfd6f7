"""AccumulateGrad: the node at a leaf, which adds the incoming gradient into ``.grad``.

Also what finds a leaf's node (``accumulator_of``, ``node_of``), the hook behind
``retain_grad()``, and ``sum_to_shape``, which undoes broadcasting before a gradient
is added to a tensor of a smaller shape.
"""

from __future__ import annotations

import sys
import weakref
from collections.abc import Callable
from typing import Any

import numpy as np

from ..ops._summation import float_sum, summable
from ..tensor import Tensor, new_tensor
from .node import Node, sequence

__all__ = ["AccumulateGrad", "accumulator_of", "node_of", "retain_grad_hook", "sum_to_shape"]

_ACCUMULATE_PRIORITY = 1 << 62  # AccumulateGrad runs as soon as it is ready, as in PyTorch


def _refs_of_an_unshared_argument() -> int:
    """What ``sys.getrefcount`` says of an array that only the caller's variable holds.

    Measured once, the way the engine hands a gradient to ``AccumulateGrad._run``,
    so that the test below stays right whatever Python's reference counting does.
    """

    def callee(array: np.ndarray) -> int:
        return sys.getrefcount(array)

    def caller() -> int:
        array = np.empty(1)
        return callee(array)

    return caller()


_UNSHARED_REFS = _refs_of_an_unshared_argument()


def _refs_of_an_unshared_base() -> int:
    """What ``sys.getrefcount`` says, in ``AccumulateGrad._run``, of a base one view holds."""
    view = np.empty((2, 1)).T
    base = view.base
    return sys.getrefcount(base)


_UNSHARED_BASE_REFS = _refs_of_an_unshared_base()


class AccumulateGrad(Node):
    """The node at a leaf: adds the incoming gradient into ``variable.grad``.

    The first gradient becomes ``.grad`` without a copy when nothing else can
    see it (PyTorch does the same): for a large weight that saves copying
    megabytes on every backward. A gradient that is shared, or a view of
    another array, is copied, so two ``.grad`` never alias each other.
    """

    _namespace = "minigrad::autograd::"
    _prints_bare = True
    _asap = True

    def __init__(self, variable: Tensor) -> None:
        self.variable = variable
        self._seq = _ACCUMULATE_PRIORITY + next(sequence)

    def __call__(self, grad: Tensor) -> tuple:
        """``acc(grad)``: accumulate ``grad`` into the leaf's ``.grad`` by hand (as PyTorch)."""
        if not isinstance(grad, Tensor):
            raise TypeError("argument 0 is not a Variable")
        return self._run(np.array(grad._data))

    def _run(self, grad: np.ndarray) -> tuple:
        var = self.variable
        if not var._requires_grad:  # detach_() after the leaf was used: no gradient, as PyTorch
            return ()
        data = var._data
        if type(grad) is not np.ndarray:  # a 0-d result of numpy arithmetic is a numpy scalar
            grad = np.array(grad)
        if grad.dtype is not data.dtype and grad.dtype != data.dtype:
            grad = grad.astype(data.dtype)
        shape = data.shape
        if grad.shape != shape:
            grad = sum_to_shape(grad, shape)
        old = var._grad
        if old is None:
            base = grad.base
            if base is None:
                unshared = sys.getrefcount(grad) <= _UNSHARED_REFS and grad.flags.writeable
            else:
                # Can ``.grad`` be this view as it is? Only if it is all its base, laid out as
                # ``data``, and nothing else holds the base or another view of it (each would
                # hold the base). A weight used as ``W.t()`` (Linear) gets its gradient as the
                # transpose of a transposed product: a view of a fresh array nobody else sees.
                # PyTorch keeps it without a copy too. Inline: a call less per such weight.
                unshared = (
                    type(base) is np.ndarray
                    and sys.getrefcount(base) <= _UNSHARED_BASE_REFS
                    and base.base is None
                    and base.nbytes == grad.nbytes
                    and grad.strides == data.strides
                    and sys.getrefcount(grad) <= _UNSHARED_REFS
                    and grad.flags.writeable
                )
                base = None
            if unshared:
                var._grad = new_tensor(grad)
            else:  # PyTorch copies it with copy_ into a new tensor: ._version is 1
                var._grad = new_tensor(grad.copy())
                var._grad._vc[0] = 1
        else:
            np.add(old._data, grad, out=old._data)
            old._vc[0] += 1
        return ()

    def _run_graph(self, grad: Tensor) -> tuple:
        """Under ``create_graph``: ``.grad`` keeps the gradient's graph, as in PyTorch.

        The first gradient is copied (``CopyBackwards``), later ones are added out of
        place (``AddBackward0``), so that ``.grad`` can be differentiated again.
        """
        var = self.variable
        if not var._requires_grad:
            return ()
        data = var._data
        if grad._data.dtype != data.dtype:
            grad = grad.to(var.dtype)
        if grad._data.shape != data.shape:
            grad = grad.sum_to_size(data.shape)
        old = var._grad
        if old is None and not _dense(data):  # an expanded or gappy leaf: PyTorch clones
            var._grad = grad.clone()
        elif old is None:  # a copy made by copy_ (its _version is 1), as PyTorch's
            var._grad = new_tensor(np.empty_like(data)).copy_(grad)
        else:
            var._grad = old + grad
        return ()


def _dense(a: np.ndarray) -> bool:
    """PyTorch's is_non_overlapping_and_dense: the elements fill their memory exactly, in
    some order of the dimensions (not an expanded view, no gaps)."""
    expected = a.itemsize
    for stride, size in sorted((abs(st), n) for st, n in zip(a.strides, a.shape) if n != 1):
        if stride != expected:
            return a.size == 0
        expected *= size
    return True


def accumulator_of(leaf: Tensor) -> AccumulateGrad:
    """The leaf's AccumulateGrad node, created once and reused (as PyTorch does)."""
    acc = leaf._accumulator
    if acc is None:
        acc = leaf._accumulator = AccumulateGrad(leaf)
    return acc


def node_of(x: Any) -> Node | None:
    """Where a gradient for input ``x`` goes: its grad_fn, its AccumulateGrad, or nowhere."""
    if isinstance(x, Tensor) and x._requires_grad:
        fn = x._grad_fn
        if fn is None:
            fn = x._accumulator or accumulator_of(x)
        return fn
    return None


def retain_grad_hook(tensor: Tensor) -> Callable:
    """The hook behind ``retain_grad()``: accumulates into a non-leaf's ``.grad``."""
    ref = weakref.ref(tensor)

    def hook(grad: np.ndarray | Tensor) -> None:
        t = ref()
        if t is None:
            return
        if isinstance(grad, Tensor):  # under create_graph: keep the gradient's graph
            t._grad = grad if t._grad is None else t._grad + grad
        elif t._grad is None:
            t._grad = new_tensor(np.array(grad, copy=True))
        else:
            t._grad = new_tensor(t._grad._data + grad)

    return hook


def sum_to_shape(grad: np.ndarray, shape: tuple) -> np.ndarray:
    """Undo broadcasting: sum ``grad`` over the dimensions that were expanded."""
    if grad.shape == shape:
        return grad
    lead = grad.ndim - len(shape)
    if lead == 1 and grad.shape[1:] == shape:  # a bias added to every row: one reduce
        # numpy adds the rows one after the other, as PyTorch does up to 4 rows; from the
        # 5th row PyTorch interleaves four accumulators (``_summation``), which costs a
        # training step 2-7 us per bias: not done here (a last-bit difference)
        return np.add.reduce(grad, 0)
    axes = tuple(range(lead)) + tuple(
        i + lead for i, n in enumerate(shape) if n == 1 and grad.shape[i + lead] != 1
    )
    if grad.dtype.char in summable:
        return float_sum(grad, axes, True).reshape(shape) if axes else grad.reshape(shape)
    if axes:
        grad = grad.sum(axis=axes, keepdims=True)
    return grad.reshape(shape)
