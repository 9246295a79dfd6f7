"""How a Tensor behaves as a Python object: printing, ``len``, ``bool``, numbers, hashing.

``Tensor`` inherits these from ``PythonProtocol`` so that ``tensor.py`` holds the data
model (storage, autograd attributes, version counter) on one screen. They are what makes a
tensor print as PyTorch's does, refuse ``bool()`` when it has several values, convert with
``float(t)`` and ``f"{loss:.4f}"``, hash by identity, and refuse to be pickled.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import _printing

if TYPE_CHECKING:
    from .tensor import Tensor


class PythonProtocol:
    """The dunder methods of ``Tensor`` that are not arithmetic (those are bound by
    ``_tensor_methods.py``)."""

    __slots__ = ()

    def __repr__(self, *, tensor_contents: Any = None) -> str:
        suffixes = []
        grad_fn = self.grad_fn  # for a view, its current history (see _tensor_methods)
        if grad_fn is not None:
            suffixes.append(f"grad_fn=<{type(grad_fn).__name__}>")
        elif self.requires_grad:  # its own flag, or its base's (a view)
            suffixes.append("requires_grad=True")
        return _printing.format_tensor(self._data, suffixes)

    __str__ = __repr__

    def __len__(self) -> int:
        if self._data.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self._data.shape[0]

    def __bool__(self) -> bool:
        if self._data.size != 1:
            many = "more than one value" if self._data.size else "no values"
            raise RuntimeError(f"Boolean value of Tensor with {many} is ambiguous")
        return bool(self._data)

    def _python_scalar(self):
        """What ``float(t)``, ``int(t)``, ``complex(t)`` convert: the one element."""
        if self._data.size != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        return self._data.item()

    def __float__(self) -> float:
        return float(self._python_scalar())

    def __int__(self) -> int:
        return int(self._python_scalar())

    def __complex__(self) -> complex:
        return complex(self._python_scalar())

    def __format__(self, format_spec: str) -> str:
        """``f"{loss:.4f}"``: a 0-d tensor formats as its Python number, as in PyTorch
        (``f"{loss}"`` too); other tensors take no format spec."""
        from .tensor import Tensor  # noqa: PLC0415 - tensor.py imports this module

        if self._data.ndim == 0 and type(self) is Tensor:
            return self._data.item().__format__(format_spec)
        return object.__format__(self, format_spec)

    def __index__(self) -> int:
        if self._data.dtype.kind not in "iub" or self._data.size != 1:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self._data)

    def __hash__(self) -> int:
        return id(self)

    def __reduce_ex__(self, protocol: int):
        raise TypeError(
            "minigrad tensors cannot be pickled: pickle files can run code when loaded. "
            "Use minigrad.save(obj, path), which writes the safe safetensors format."
        )

    def __deepcopy__(self, memo: dict) -> Tensor:
        if self._grad_fn is not None:
            raise RuntimeError(
                "Only Tensors created explicitly by the user (graph leaves) support the "
                "deepcopy protocol at the moment.  If you were attempting to deepcopy a module, "
                "this may be because of a torch.nn.utils.weight_norm usage, see "
                "https://github.com/pytorch/pytorch/pull/103001"
            )
        from .tensor import new_tensor  # noqa: PLC0415 - tensor.py imports this module

        t = new_tensor(self._data.copy(), None, self._requires_grad, type(self))
        if self._grad is not None:
            t._grad = self._grad.__deepcopy__(memo)
        memo[id(self)] = t
        return t
