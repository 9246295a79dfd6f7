"""What a Module owns, and the rules for ``self.name = value`` (PyTorch's, message for message).

A Module keeps its members in three dicts: ``_parameters`` (Parameters),
``_buffers`` (tensors that are state but not learned) and ``_modules`` (child
Modules). Assigning a Parameter or a Module to an attribute registers it there;
reading ``self.fc1`` finds it there (``__getattr__`` is only called when normal
lookup fails, so plain attributes stay as fast as on any object). ``Module``
(in ``module.py``) builds on this class; nothing else should.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..tensor import Tensor
from .parameter import Parameter

__all__ = ["Registry", "typename"]


def typename(obj: Any) -> str:
    """PyTorch's ``torch.typename``: ``minigrad.FloatTensor`` for a tensor, else the type."""
    if isinstance(obj, Tensor):
        return obj.type()
    module = getattr(obj, "__module__", "") or ""
    if hasattr(obj, "__qualname__"):
        qualname = obj.__qualname__
    elif hasattr(obj, "__name__"):
        qualname = obj.__name__
    else:
        module = type(obj).__module__ or ""
        qualname = type(obj).__qualname__
    return qualname if module in ("", "builtins") else f"{module}.{qualname}"


def _check_name(kind: str, name: Any, owner: Registry, own: Mapping) -> None:
    """The checks register_parameter/register_buffer/add_module share, in PyTorch's words."""
    if not isinstance(name, str):
        raise TypeError(f"{kind} name should be a string. Got {typename(name)}")
    if "." in name:
        suffix = f", got: {name}" if kind == "module" else ""
        raise KeyError(f'{kind} name can\'t contain "."{suffix}')
    if name == "":
        raise KeyError(f'{kind} name can\'t be empty string ""')
    if hasattr(owner, name) and name not in own:
        raise KeyError(f"attribute '{name}' already exists")


class Registry:
    """The members of a Module and the attribute protocol that registers them."""

    training: bool
    _parameters: dict[str, Parameter | None]
    _buffers: dict[str, Tensor | None]
    _modules: dict[str, Registry | None]

    def __init__(self) -> None:
        set_ = object.__setattr__  # the dicts must exist before __setattr__ can use them
        set_(self, "training", True)
        set_(self, "_parameters", {})
        set_(self, "_buffers", {})
        set_(self, "_non_persistent_buffers_set", set())
        set_(self, "_modules", {})

    def register_parameter(self, name: str, param: Parameter | None) -> None:
        """Add a parameter under ``name`` (``None`` keeps the name with no value)."""
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        _check_name("parameter", name, self, self._parameters)
        if param is None:
            self._parameters[name] = None
            return
        if not isinstance(param, Parameter):
            raise TypeError(
                f"cannot assign '{typename(param)}' object to parameter '{name}' "
                "(minigrad.nn.Parameter or None required)"
            )
        if param.grad_fn is not None:
            raise ValueError(
                f"Cannot assign non-leaf Tensor to parameter '{name}'. Model parameters must "
                f"be created explicitly. To express '{name}' as a function of another Tensor, "
                "compute the value in the forward() method."
            )
        self._parameters[name] = param

    def register_buffer(self, name: str, tensor: Tensor | None, persistent: bool = True) -> None:
        """Add state that is not learned (saved in state_dict unless ``persistent=False``)."""
        if "_buffers" not in self.__dict__:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        _check_name("buffer", name, self, self._buffers)
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(
                f"cannot assign '{typename(tensor)}' object to buffer '{name}' "
                "(minigrad Tensor or None required)"
            )
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def add_module(self, name: str, module: Registry | None) -> None:
        """Add a child module under ``name``; it is then reachable as an attribute."""
        if module is not None and not isinstance(module, Registry):
            raise TypeError(f"{typename(module)} is not a Module subclass")
        _check_name("module", name, self, self._modules)
        self._modules[name] = module

    register_module = add_module

    def __setattr__(self, name: str, value: Any) -> None:
        d = self.__dict__
        params = d.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            self._remove(name, d, self._buffers, self._modules)
            self.register_parameter(name, value)
        elif params is not None and name in params:
            if value is not None:
                raise TypeError(
                    f"cannot assign '{typename(value)}' as parameter '{name}' "
                    "(minigrad.nn.Parameter or None expected)"
                )
            self.register_parameter(name, value)
        elif isinstance(value, Registry):
            modules = d.get("_modules")
            if modules is None:
                raise AttributeError("cannot assign module before Module.__init__() call")
            self._remove(name, d, params, self._buffers)
            modules[name] = value
        elif name in d.get("_modules", ()):
            if value is not None:
                raise TypeError(
                    f"cannot assign '{typename(value)}' as child module '{name}' "
                    "(minigrad.nn.Module or None expected)"
                )
            d["_modules"][name] = value
        elif name in d.get("_buffers", ()):
            if value is not None and not isinstance(value, Tensor):
                raise TypeError(
                    f"cannot assign '{typename(value)}' as buffer '{name}' "
                    "(minigrad.nn.Buffer, minigrad.Tensor or None expected)"
                )
            d["_buffers"][name] = value
        else:
            object.__setattr__(self, name, value)

    def _remove(self, name: str, *dicts: dict) -> None:
        for d in dicts:
            d.pop(name, None)
        self._non_persistent_buffers_set.discard(name)

    def __getattr__(self, name: str) -> Any:
        # Only called when normal lookup fails: registered members live in the three dicts.
        d = self.__dict__
        for store in ("_parameters", "_buffers", "_modules"):
            members = d.get(store)
            if members is not None and name in members:
                return members[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name: str) -> None:
        for store in (self._parameters, self._buffers, self._modules):
            if name in store:
                del store[name]
                self._non_persistent_buffers_set.discard(name)
                return
        object.__delattr__(self, name)

    def __dir__(self) -> list[str]:
        keys = [*dir(type(self)), *self.__dict__, *self._parameters, *self._modules, *self._buffers]
        return sorted(k for k in keys if not k[0].isdigit())
