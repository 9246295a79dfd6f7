"""``nn.Module``: the base class of every model, as in PyTorch.

What a Module owns (parameters, buffers, child modules) and how attribute
assignment registers it is in ``_registry``; saving and loading in
``_state_dict``. This file adds what a model does with them: ``model(x)`` calls
``forward(x)`` directly (the call path is kept short: it runs for every layer of
every training step), ``parameters()`` for the optimizer, ``train()``/``eval()``,
``zero_grad()``, dtype conversion and the printed tree.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import numpy as np

from .._dtypes import check_device, from_numpy_dtype
from .._dtypes import dtype as _dtype
from ..tensor import Tensor
from . import _state_dict
from ._registry import Registry, typename
from .parameter import Parameter

__all__ = ["Module", "typename"]  # typename: PyTorch's torch.typename


def _addindent(text: str, spaces: int) -> str:
    lines = text.split("\n")
    if len(lines) == 1:
        return text
    return lines[0] + "\n" + "\n".join(" " * spaces + line for line in lines[1:])


class Module(Registry):
    """Base class for all neural network modules: subclass it and write ``forward``.

    ::

        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc1 = nn.Linear(4, 3)   # registered as a child module

            def forward(self, x):
                return self.fc1(x)
    """

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(
            f'Module [{type(self).__name__}] is missing the required "forward" function'
        )

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        # Sequential.forward calls forward() itself where __call__ is this one: if __call__
        # ever does more (hooks), Sequential must call module(input) again.
        return self.forward(*args, **kwargs)

    def get_submodule(self, target: str) -> Module:
        """The module at the dotted path ``target`` (``""`` is this module)."""
        if target == "":
            return self
        mod = self
        for item in target.split("."):
            if not hasattr(mod, item):
                raise AttributeError(f"{mod._get_name()} has no attribute `{item}`")
            mod = getattr(mod, item)
            if not isinstance(mod, Module):
                raise AttributeError("`" + item + "` is not an nn.Module")
        return mod

    # -- walking the tree ----------------------------------------------------------------

    def named_modules(
        self, memo: set | None = None, prefix: str = "", remove_duplicate: bool = True
    ) -> Iterator[tuple[str, Module]]:
        """This module and all below it, depth first, each once, with dotted names."""
        if memo is None:
            memo = set()
        if self in memo:
            return
        if remove_duplicate:
            memo.add(self)
        yield prefix, self
        for name, module in self._modules.items():
            if module is None:
                continue
            sub = prefix + ("." if prefix else "") + name
            yield from module.named_modules(memo, sub, remove_duplicate)

    def modules(self) -> Iterator[Module]:
        for _, module in self.named_modules():
            yield module

    def named_children(self) -> Iterator[tuple[str, Module]]:
        memo = set()
        for name, module in self._modules.items():
            if module is not None and module not in memo:
                memo.add(module)
                yield name, module

    def children(self) -> Iterator[Module]:
        for _, module in self.named_children():
            yield module

    def _named_members(
        self, store: str, prefix: str, recurse: bool, remove_duplicate: bool
    ) -> Iterator[tuple[str, Tensor]]:
        memo: set = set()
        modules = (
            self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate)
            if recurse
            else [(prefix, self)]
        )
        for module_prefix, module in modules:
            for name, value in getattr(module, store).items():
                if value is None or value in memo:
                    continue
                if remove_duplicate:
                    memo.add(value)
                yield module_prefix + ("." if module_prefix else "") + name, value

    def named_parameters(
        self, prefix: str = "", recurse: bool = True, remove_duplicate: bool = True
    ) -> Iterator[tuple[str, Parameter]]:
        """``("fc1.weight", Parameter)`` pairs; a shared parameter appears once."""
        return self._named_members("_parameters", prefix, recurse, remove_duplicate)

    def parameters(self, recurse: bool = True) -> Iterator[Parameter]:
        """What the optimizer updates: ``optim.SGD(model.parameters(), lr=0.1)``."""
        for _, param in self.named_parameters(recurse=recurse):
            yield param

    def named_buffers(
        self, prefix: str = "", recurse: bool = True, remove_duplicate: bool = True
    ) -> Iterator[tuple[str, Tensor]]:
        return self._named_members("_buffers", prefix, recurse, remove_duplicate)

    def buffers(self, recurse: bool = True) -> Iterator[Tensor]:
        for _, buf in self.named_buffers(recurse=recurse):
            yield buf

    def apply(self, fn: Callable[[Module], None]) -> Module:
        """Call ``fn`` on every submodule, then on this module (e.g. to initialise weights)."""
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    # -- modes and gradients -------------------------------------------------------------

    def train(self, mode: bool = True) -> Module:
        """Set training mode here and below (it changes layers such as Dropout in PyTorch)."""
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        self.training = mode
        for module in self.children():
            module.train(mode)
        return self

    def eval(self) -> Module:
        return self.train(False)

    def requires_grad_(self, requires_grad: bool = True) -> Module:
        """Freeze (False) or unfreeze every parameter, e.g. for fine-tuning."""
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Forget the gradients of the last backward (they accumulate otherwise)."""
        for p in self.parameters():
            grad = p._grad
            if grad is None:
                continue
            if set_to_none:
                p._grad = None
            else:
                grad.detach_() if grad.grad_fn is not None else grad.requires_grad_(False)
                grad.zero_()

    # -- dtype ---------------------------------------------------------------------------

    def _apply_to_floats(self, np_dtype: Any) -> Module:
        """Convert floating parameters (keeping their identity), grads and buffers."""
        for module in self.modules():
            for p in module._parameters.values():
                if p is not None and p._data.dtype.kind == "f":
                    p._data = p._data.astype(np_dtype)
                    if p._grad is not None:
                        p._grad._data = p._grad._data.astype(np_dtype)
            for name, b in module._buffers.items():
                if b is not None and b._data.dtype.kind == "f":
                    module._buffers[name] = b.to(from_numpy_dtype(np_dtype))
        return self

    def to(self, *args: Any, **kwargs: Any) -> Module:
        """``to(minigrad.float64)`` converts floating parameters; ``to('cpu')`` is a no-op."""
        target = kwargs.get("dtype")
        for a in (*args, kwargs.get("device")):
            if isinstance(a, _dtype):
                target = a
            elif isinstance(a, Tensor):
                target = a.dtype
            else:
                check_device(a)
        if target is None:
            return self
        if not target.is_floating_point:
            raise TypeError(
                "nn.Module.to only accepts floating point or complex dtypes, but got desired "
                f"dtype={target}"
            )
        return self._apply_to_floats(target.numpy)

    def float(self) -> Module:
        return self._apply_to_floats(np.dtype(np.float32))

    def double(self) -> Module:
        return self._apply_to_floats(np.dtype(np.float64))

    def cpu(self) -> Module:
        return self

    # -- saving and loading ----------------------------------------------------------------

    def state_dict(
        self, *, destination: dict | None = None, prefix: str = "", keep_vars: bool = False
    ) -> OrderedDict[str, Tensor]:
        """Every parameter and persistent buffer, by dotted name (``fc1.weight``).

        The values are detached tensors sharing memory with the parameters; this dict,
        not the Module object, is what ``minigrad.save`` writes.
        """
        return _state_dict.state_dict(self, destination, prefix, keep_vars)

    def load_state_dict(
        self, state_dict: Mapping[str, Any], strict: bool = True, assign: bool = False
    ) -> _state_dict.IncompatibleKeys:
        """Copy values from ``state_dict`` into this module's parameters and buffers.

        Values are copied in place, so parameters keep their identity and an optimizer
        built earlier still updates them. Missing or unexpected keys raise when
        ``strict`` (otherwise they are reported in the result); a shape mismatch always
        raises, as in PyTorch.
        """
        __tracebackhide__ = True  # IPython leaves this frame out of a learner's traceback
        return _state_dict.load_state_dict(self, state_dict, strict, assign)

    # -- printing ------------------------------------------------------------------------

    def _get_name(self) -> str:
        return type(self).__name__

    def extra_repr(self) -> str:
        """The settings shown inside the parentheses; override it in subclasses."""
        return ""

    def __repr__(self) -> str:
        extra = self.extra_repr()
        extra_lines = extra.split("\n") if extra else []
        child_lines = [
            f"({key}): " + _addindent(repr(module), 2) for key, module in self._modules.items()
        ]
        lines = extra_lines + child_lines
        text = self._get_name() + "("
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                text += extra_lines[0]
            else:
                text += "\n  " + "\n  ".join(lines) + "\n"
        return text + ")"
