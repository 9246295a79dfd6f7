"""``nn.Sequential``: modules called one after the other, numbered (0), (1), ..."""

from __future__ import annotations

import operator
from collections import OrderedDict
from collections.abc import Iterator
from typing import Any

from .module import Module

__all__ = ["Sequential"]


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
            input = module(input)
        return input
