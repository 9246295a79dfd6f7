"""The Tensor: a numpy array (the eggs) in a basket that may join backpropagation.

This module holds the data model only: storage, autograd attributes, version
counter, conversion (how it prints, hashes and converts to a number is in
``_tensor_protocol.py``). The differentiable operations live in
``minigrad/ops`` as ``Function`` classes and are bound to Tensor methods in
one table, ``minigrad/_tensor_methods.py``, so that this file never imports an
op and the layers stay visible: dtypes/printing -> Tensor -> Function -> ops.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from . import _dtypes
from ._dims import wrap_dim
from ._dtypes import Size, dtype, from_numpy_dtype
from ._modes import DetachedInferenceVersion, InferenceVersion
from ._modes import state as _modes
from ._tensor_protocol import PythonProtocol
from ._typename import type_name

__all__ = ["Tensor", "new_tensor", "follows_base"]

_object_new = object.__new__


class Tensor(PythonProtocol):
    """A multi-dimensional array that can record the operations made with it.

    Attributes that drive autograd, as in PyTorch:
    ``requires_grad`` (does this basket join backpropagation?), ``grad_fn`` (the
    node of the backward graph that made it, None for a leaf), ``grad`` (filled
    in by ``backward()`` on leaves), and ``_version`` (bumped by every in-place
    change; shared with ``detach()``ed copies, so that autograd can tell when a
    value it saved was changed behind its back).
    """

    __slots__ = (
        "_data",  # the numpy array: the eggs
        "_vc",  # version counter: a one-element list shared by views and detach()
        "_requires_grad",
        "_grad_fn",
        "_grad",
        "_accumulator",  # the AccumulateGrad node of a leaf that requires grad
        "_retains_grad",
        "_base",  # the tensor this one is a view of, or None
        "_view_version",  # a view: the version its grad_fn was recorded at (autograd/views.py)
        # a view: made under no_grad (True), or an output of split, unbind ... that needs no
        # grad (MULTI_OUTPUT), or a view of such a view; PyTorch's creation meta. Views only
        "_no_grad_view",
        "__weakref__",
    )

    # -- construction -------------------------------------------------------------

    # Tensor(...) / __new__ (the legacy constructor), the ops, operators, backward() and
    # hooks are bound in minigrad/_tensor_methods.py: this module imports no op.

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        pass  # all work is done in __new__, which subclasses (Parameter) share

    # -- autograd attributes ------------------------------------------------------

    @property
    def is_leaf(self) -> bool:
        """Leaves are tensors the learner made (or that need no grad): no grad_fn."""
        return self._grad_fn is None

    @property
    def requires_grad(self) -> bool:
        """Its own flag, or, for a view, its base's (``follows_base``)."""
        return self._requires_grad or follows_base(self)

    @requires_grad.setter
    def requires_grad(self, value: bool) -> None:
        if type(value) is not bool:
            raise RuntimeError("requires_grad must be a bool")
        if self._grad_fn is not None:
            message = "you can only change requires_grad flags of leaf variables."
            if not value:
                message += (
                    " If you want to use a computed variable in a subgraph that doesn't require "
                    "differentiation use var_no_grad = var.detach()."
                )
            raise RuntimeError(message)
        if value and not self.dtype.is_floating_point:
            raise RuntimeError(
                "only Tensors of floating point and complex dtype can require gradients"
            )
        if value and isinstance(self._vc, InferenceVersion) and not _modes.inference:
            raise RuntimeError(
                "Setting requires_grad=True on inference tensor outside InferenceMode is not "
                "allowed."
            )
        self._requires_grad = bool(value)

    def requires_grad_(self, requires_grad: bool = True) -> Tensor:
        if type(requires_grad) is not bool:
            raise TypeError(
                "requires_grad_(): argument 'requires_grad' (position 1) must be bool, not "
                f"{type_name(requires_grad)}"
            )
        if requires_grad and not self.dtype.is_floating_point:
            raise RuntimeError("only Tensors of floating point dtype can require gradients")
        if requires_grad and self._grad_fn is not None:
            return self  # a non-leaf already requires grad: nothing to change
        self.requires_grad = requires_grad
        return self

    @property
    def grad(self) -> Tensor | None:
        if self._grad_fn is not None and not self._retains_grad:
            warnings.warn(_NON_LEAF_GRAD_WARNING, UserWarning, stacklevel=2)
        return self._grad

    @grad.setter
    def grad(self, value: Tensor | None) -> None:
        if value is not None:
            if not isinstance(value, Tensor):
                raise TypeError(
                    f"assigned grad expected to be a Tensor or None but got grad of type "
                    f"{type(value).__name__}"
                )
            if value._data.dtype != self._data.dtype:
                raise RuntimeError(
                    f"attempting to assign a gradient with dtype "
                    f"'{_dtypes.C_NAMES[value._data.dtype]}' to a tensor with grad_dtype "
                    f"'{_dtypes.LEGACY_NAMES[self._data.dtype]}'. The gradient must match the "
                    "tensor's grad_dtype (defaults to the tensor's dtype). You can set the "
                    "tensor's grad_dtype attribute with a specific dtype, or None to allow any "
                    "dtype. Set grad_dtype with caution. Diverging the dtypes of a tensor and its "
                    "gradient may break downstream systems that assume they match."
                )
            if value._data.shape != self._data.shape:
                raise RuntimeError(
                    f"attempting to assign a gradient of size '{list(value._data.shape)}' to a "
                    f"tensor of size '{list(self._data.shape)}'. Please ensure that the gradient "
                    "and the tensor are the same size"
                )
        self._grad = value

    @grad.deleter
    def grad(self) -> None:
        self._grad = None

    @property
    def _version(self) -> int:
        if type(self._vc) is InferenceVersion:
            raise RuntimeError("Inference tensors do not track version counter.")
        return self._vc[0]

    def is_inference(self) -> bool:
        """Made in ``inference_mode()`` (or a view or detached copy of such a tensor)."""
        return isinstance(self._vc, InferenceVersion)

    # -- getting the eggs out --------------------------------------------------------

    @property
    def data(self) -> Tensor:
        """The same values in a new basket that takes no part in autograd.

        It shares memory with this tensor but NOT its version counter: changes
        made through ``.data`` are invisible to autograd (see ``detach()``).
        """
        t = new_tensor(self._data)
        if isinstance(self._vc, InferenceVersion):
            t._vc = DetachedInferenceVersion([0])
        return t

    @data.setter
    def data(self, value: Tensor) -> None:
        if not isinstance(value, Tensor):
            raise TypeError(f"data must be a Tensor, not {type(value).__name__}")
        if self._requires_grad and value._data.dtype.kind != "f":
            raise RuntimeError(
                "data set to a tensor that requires gradients must be floating "
                "point or complex dtype"
            )
        self._data = value._data

    def detach(self) -> Tensor:
        """A new tensor sharing storage AND version counter, out of the graph.

        Not a view, even of a view (PyTorch's ``_base`` is None): an in-place change to it,
        with an input that requires grad, records on it alone, and after ``requires_grad_()``
        it is a leaf of its own.
        """
        t = new_tensor(self._data)
        t._vc = self._vc
        if isinstance(self._vc, InferenceVersion):  # no counter to share: PyTorch's rules
            t._vc = DetachedInferenceVersion([0])
        return t

    def detach_(self) -> Tensor:
        """Detach this tensor from the graph that created it, in place."""
        if self._base is not None and self._base._requires_grad:
            raise RuntimeError(
                "Can't detach views in-place. Use detach() instead. If you are using "
                "DistributedDataParallel (DDP) for training, and gradient_as_bucket_view "
                "is set as True, gradients are views of DDP buckets, and hence detach_() "
                "cannot be called on these gradients. To fix this error, please refer to "
                "the Optimizer.zero_grad() function in torch/optim/optimizer.py as the solution."
            )
        self._grad_fn = None
        self._requires_grad = False
        return self

    def numpy(self, *, force: bool = False) -> np.ndarray:
        """The numpy array itself (shared memory); refused while grad is required."""
        if (self._requires_grad or follows_base(self)) and not force:
            raise RuntimeError(
                "Can't call numpy() on Tensor that requires grad. "
                "Use tensor.detach().numpy() instead."
            )
        return self._data if not force else self._data.copy()

    def __array__(self, dtype=None, copy=None) -> np.ndarray:
        array = self.numpy()
        if dtype is not None and np.dtype(dtype) != array.dtype:
            return array.astype(dtype)
        return array.copy() if copy else array

    def item(self) -> float | int | bool:
        if self._data.size != 1:
            raise RuntimeError(
                f"a Tensor with {self._data.size} elements cannot be converted to Scalar"
            )
        return self._data.item()

    def tolist(self) -> Any:
        return self._data.tolist()

    # -- shape and type -------------------------------------------------------------

    @property
    def shape(self) -> Size:
        return Size(self._data.shape)

    def size(self, dim: int | None = None) -> Size | int:
        if dim is None:
            return Size(self._data.shape)
        return self._data.shape[wrap_dim(dim, self._data.ndim, scalar_ok=False)]

    @property
    def dtype(self) -> dtype:
        return from_numpy_dtype(self._data.dtype)

    @property
    def ndim(self) -> int:
        return self._data.ndim

    def dim(self) -> int:
        return self._data.ndim

    def ndimension(self) -> int:
        return self._data.ndim

    def numel(self) -> int:
        return self._data.size

    def nelement(self) -> int:
        return self._data.size

    def element_size(self) -> int:
        return self._data.itemsize

    @property
    def device(self) -> _dtypes.device:
        return _dtypes.CPU

    @property
    def is_cuda(self) -> bool:
        return False

    def is_floating_point(self) -> bool:
        return self._data.dtype.kind == "f"

    def data_ptr(self) -> int:
        """Address of the first element: equal for tensors that share memory."""
        return self._data.__array_interface__["data"][0]

    def is_contiguous(self) -> bool:
        return self._data.flags.c_contiguous

    def equal(self, other: Tensor) -> bool:
        """True if both tensors have the same shape and the same values."""
        if not isinstance(other, Tensor):
            raise TypeError(f"equal(): argument 'other' must be Tensor, not {type(other).__name__}")
        return self._data.shape == other._data.shape and bool(
            np.array_equal(self._data, other._data)
        )


_NON_LEAF_GRAD_WARNING = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
    "attribute won't be populated during autograd.backward(). If you indeed want the .grad "
    "field to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. "
    "If you access the non-leaf Tensor by mistake, make sure you access the leaf Tensor "
    "instead. See github.com/pytorch/pytorch/pull/30531 for more information."
)


def new_tensor(
    data: np.ndarray, grad_fn=None, requires_grad: bool = False, cls: type = Tensor
) -> Tensor:
    """Wrap a numpy array in a Tensor without copying: the engine's constructor.

    ``data`` must already be an ndarray of a supported dtype; this is the fast
    path every operation uses, so it validates nothing.
    """
    t = _object_new(cls)
    t._data = data
    t._vc = InferenceVersion([0]) if _modes.inference else [0]
    t._requires_grad = requires_grad
    t._grad_fn = grad_fn
    t._grad = None
    t._accumulator = None
    t._retains_grad = False
    t._base = None
    return t


def follows_base(t: Tensor) -> bool:
    """Whether ``t``, whose own flag is off, requires grad through its base.

    PyTorch reads a view's ``requires_grad`` through its base: ``v = b[1:]`` made while ``b``
    needed no grad (or under ``no_grad``) requires grad once ``b.requires_grad_()`` is called,
    with no path of its own (an op on it records a ``None`` edge, ``v.grad`` stays None) until
    the base changes in place (then ``views.view_history`` gives it one). Every view keeps its
    base anyway, so nothing has to find the views of a base: the ops ask this, lazily, only of
    an input that does not require grad itself.
    """
    base = t._base
    return base is not None and base._requires_grad
