"""``Module.state_dict`` and ``Module.load_state_dict``: a model's values by dotted name.

A state_dict holds tensors only, never code, which is why it is the recommended
thing to save: ``minigrad.save(model.state_dict(), path)`` then, in a fresh model,
``model.load_state_dict(minigrad.load(path))``. The walk, the key bookkeeping and
every error message follow PyTorch's ``Module._load_from_state_dict`` so that a
learner sees the same report in both libraries.
"""

from __future__ import annotations

from collections import OrderedDict, namedtuple
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..autograd.grad_mode import no_grad
from ..tensor import Tensor
from .parameter import Parameter

if TYPE_CHECKING:
    from .module import Module

__all__ = ["IncompatibleKeys", "state_dict", "load_state_dict"]


class IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    """What ``load_state_dict`` returns; prints ``<All keys matched successfully>`` when empty."""

    __slots__ = ()

    def __repr__(self) -> str:
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return (
            f"_IncompatibleKeys(missing_keys={self.missing_keys!r}, "
            f"unexpected_keys={self.unexpected_keys!r})"
        )

    __str__ = __repr__


IncompatibleKeys.__name__ = IncompatibleKeys.__qualname__ = "_IncompatibleKeys"


def state_dict(
    module: Module, destination: dict | None, prefix: str, keep_vars: bool
) -> OrderedDict[str, Tensor]:
    """Parameters, then persistent buffers, then each child's entries under ``name.``."""
    if destination is None:
        destination = OrderedDict()
    for name, param in module._parameters.items():
        if param is not None:
            destination[prefix + name] = param if keep_vars else param.detach()
    skip = module._non_persistent_buffers_set
    for name, buf in module._buffers.items():
        if buf is not None and name not in skip:
            destination[prefix + name] = buf if keep_vars else buf.detach()
    for name, child in module._modules.items():
        if child is not None:
            child.state_dict(
                destination=destination, prefix=prefix + name + ".", keep_vars=keep_vars
            )
    return destination


def load_state_dict(
    module: Module, state_dict: Mapping[str, Any], strict: bool, assign: bool
) -> IncompatibleKeys:
    """Load ``state_dict`` into ``module`` and its children; see ``Module.load_state_dict``."""
    if not isinstance(state_dict, Mapping):
        raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict)}.")
    missing: list[str] = []
    unexpected: list[str] = []
    errors: list[str] = []
    state = OrderedDict(state_dict)
    stack = [(module, state, "")]
    while stack:  # depth first, parent before children, as PyTorch's recursive load()
        mod, local, prefix = stack.pop()
        _load_local(mod, local, prefix, assign, missing, unexpected, errors)
        children = []
        for name, child in mod._modules.items():
            if child is not None:
                child_prefix = prefix + name + "."
                child_state = {k: v for k, v in local.items() if k.startswith(child_prefix)}
                children.append((child, child_state, child_prefix))
        stack.extend(reversed(children))
    if strict:
        if unexpected:
            errors.insert(
                0,
                "Unexpected key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in unexpected)
                ),
            )
        if missing:
            errors.insert(
                0, "Missing key(s) in state_dict: {}. ".format(", ".join(f'"{k}"' for k in missing))
            )
    if errors:
        raise RuntimeError(
            "Error(s) in loading state_dict for {}:\n\t{}".format(
                type(module).__name__, "\n\t".join(errors)
            )
        )
    return IncompatibleKeys(missing, unexpected)


def _load_local(
    module: Module,
    state: Mapping[str, Any],
    prefix: str,
    assign: bool,
    missing: list,
    unexpected: list,
    errors: list,
) -> None:
    """One module's own parameters and persistent buffers (PyTorch's _load_from_state_dict)."""
    skip = module._non_persistent_buffers_set
    local = {k: v for k, v in module._parameters.items() if v is not None}
    local.update((k, v) for k, v in module._buffers.items() if v is not None and k not in skip)
    for name, param in local.items():
        key = prefix + name
        if key not in state:
            missing.append(key)
            continue
        value = state[key]
        if not isinstance(value, Tensor):
            errors.append(
                f'While copying the parameter named "{key}", expected minigrad.Tensor or '
                f"Tensor-like object from checkpoint but received {type(value)}"
            )
            continue
        if param.ndim == 0 and value.ndim == 1:  # checkpoints from before 0-d tensors
            value = value[0]
        if value.shape != param.shape:
            errors.append(
                f"size mismatch for {key}: copying a param with shape {value.shape} from "
                f"checkpoint, the shape in current model is {param.shape}."
            )
            continue
        try:
            with no_grad():
                if assign:
                    _assign(module, name, param, value)
                else:
                    param.copy_(value)
        except Exception as ex:  # noqa: BLE001 - reported like PyTorch, with the others
            errors.append(
                f'While copying the parameter named "{key}", whose dimensions in the model '
                f"are {param.size()} and whose dimensions in the checkpoint are "
                f"{value.size()}, an exception occurred : {ex.args}."
            )
    for key in state:
        if key.startswith(prefix):
            first = key[len(prefix) :].split(".", 1)[0]
            if first not in module._modules and first not in local:
                unexpected.append(key)


def _assign(module: Module, name: str, param: Tensor, value: Tensor) -> None:
    """``assign=True``: the loaded tensor replaces the parameter (keeping requires_grad)."""
    if isinstance(param, Parameter):
        if isinstance(value, Parameter):
            value.requires_grad_(param.requires_grad)
        else:
            value = Parameter(value, requires_grad=param.requires_grad)
    setattr(module, name, value)
