"""Containers: ``nn.Sequential`` (modules called one after the other), ``nn.ModuleList``,
``nn.ModuleDict`` (modules registered by position or name, called by the model's own code)."""

from __future__ import annotations

import operator
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from .module import Module, _addindent

__all__ = ["Sequential", "ModuleList", "ModuleDict"]

_MODULE_CALL = Module.__call__


class Sequential(Module):
    """``Sequential(Linear(2, 16), ReLU(), Linear(16, 1))``, or from an OrderedDict of names.

    Indexing gives a layer (``seq[0]``, ``seq[-1]``) or, with a slice, a new Sequential
    that keeps the original names.
    """

    def __init__(self, *args: Module) -> None:
        super().__init__()
        if len(args) == 1 and isinstance(args[0], OrderedDict):
            for key, module in args[0].items():
                self.add_module(key, module)
        else:
            for idx, module in enumerate(args):
                self.add_module(str(idx), module)

    def _key_at(self, idx: int) -> str:
        size = len(self._modules)
        idx = operator.index(idx)
        if not -size <= idx < size:
            raise IndexError(f"index {idx} is out of range")
        return list(self._modules)[idx % size]

    def __getitem__(self, idx: int | slice) -> Any:
        if isinstance(idx, slice):
            return type(self)(OrderedDict(list(self._modules.items())[idx]))
        return self._modules[self._key_at(idx)]

    def __setitem__(self, idx: int, module: Module) -> None:
        setattr(self, self._key_at(idx), module)

    def __delitem__(self, idx: int | slice) -> None:
        keys = list(self._modules)[idx] if isinstance(idx, slice) else [self._key_at(idx)]
        for key in keys:
            delattr(self, key)
        # renumber, as PyTorch does, so that the names stay 0, 1, 2, ...
        self._modules = dict(
            zip(map(str, range(len(self._modules))), self._modules.values(), strict=True)
        )

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[Module]:
        return iter(self._modules.values())

    def append(self, module: Module) -> Sequential:
        self.add_module(str(len(self)), module)
        return self

    def forward(self, input: Any) -> Any:
        for module in self._modules.values():
            # module(input) is forward(input) (Module.__call__): called directly, a call less
            input = (
                module.forward(input) if type(module).__call__ is _MODULE_CALL else module(input)
            )
        return input


class ModuleList(Module):
    """A list of modules, registered so that ``parameters()`` and ``state_dict()`` see them.

    A plain Python list of layers would hide their weights from the optimizer; a ModuleList
    holds them as children named ``0``, ``1``, ... . It has no ``forward``: the model's own
    ``forward`` loops over it.
    """

    def __init__(self, modules: Iterable[Module] | None = None) -> None:
        super().__init__()
        if modules is not None:
            self.extend(modules)

    def _key_at(self, idx: int) -> str:
        size = len(self._modules)
        idx = operator.index(idx)
        if not -size <= idx < size:
            raise IndexError(f"index {idx} is out of range")
        return str(idx % size)

    def __getitem__(self, idx: int | slice) -> Any:
        if isinstance(idx, slice):
            return type(self)(list(self._modules.values())[idx])
        return self._modules[self._key_at(idx)]

    def __setitem__(self, idx: int, module: Module) -> None:
        setattr(self, self._key_at(idx), module)

    def __delitem__(self, idx: int | slice) -> None:
        keys = list(self._modules)[idx] if isinstance(idx, slice) else [self._key_at(idx)]
        for key in keys:
            delattr(self, key)
        self._modules = dict(  # renumbered 0, 1, 2, ... as in PyTorch
            zip(map(str, range(len(self._modules))), self._modules.values(), strict=True)
        )

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[Module]:
        return iter(self._modules.values())

    def __iadd__(self, modules: Iterable[Module]) -> ModuleList:
        return self.extend(modules)

    def __add__(self, other: Iterable[Module]) -> ModuleList:
        return type(self)([*self, *other])

    def append(self, module: Module) -> ModuleList:
        self.add_module(str(len(self)), module)
        return self

    def extend(self, modules: Iterable[Module]) -> ModuleList:
        for module in modules:
            self.append(module)
        return self

    def insert(self, index: int, module: Module) -> None:
        items = list(self._modules.values())
        items.insert(index, module)
        self._modules = {}
        for i, m in enumerate(items):
            self.add_module(str(i), m)

    def __repr__(self) -> str:
        """Runs of identical layers are shown once: ``(0-2): 3 x Linear(...)``, as PyTorch."""
        reprs = [repr(m) for m in self]
        if not reprs:
            return "ModuleList()"
        lines, start = [], 0
        for i in range(1, len(reprs) + 1):
            if i < len(reprs) and reprs[i] == reprs[start]:
                continue
            text = _addindent(reprs[start], 2)
            if i - start == 1:
                lines.append(f"({start}): {text}")
            else:
                lines.append(f"({start}-{i - 1}): {i - start} x {text}")
            start = i
        return "ModuleList(\n  " + "\n  ".join(lines) + "\n)"


class ModuleDict(Module):
    """A dict of modules by name, registered as children (``parameters()`` sees them)."""

    def __init__(self, modules: Mapping[str, Module] | None = None) -> None:
        super().__init__()
        if modules is not None:
            self.update(modules)

    def __getitem__(self, key: str) -> Module:
        return self._modules[key]

    def __setitem__(self, key: str, module: Module) -> None:
        self.add_module(key, module)

    def __delitem__(self, key: str) -> None:
        del self._modules[key]

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[str]:
        return iter(self._modules)

    def __contains__(self, key: object) -> bool:
        return key in self._modules

    def clear(self) -> None:
        self._modules.clear()

    def pop(self, key: str) -> Module:
        module = self[key]
        del self[key]
        return module

    def keys(self) -> Iterable[str]:
        return self._modules.keys()

    def items(self) -> Iterable[tuple[str, Module]]:
        return self._modules.items()

    def values(self) -> Iterable[Module]:
        return self._modules.values()

    def update(self, modules: Mapping[str, Module] | Iterable[tuple[str, Module]]) -> None:
        pairs = modules.items() if isinstance(modules, Mapping) else modules
        for key, module in pairs:
            self[key] = module
