"""``Optimizer``: parameter groups, per-parameter state, zero_grad and state_dict, as PyTorch.

An optimizer holds ``param_groups`` (lists of parameters with their own settings,
such as ``lr``) and ``state`` (per parameter: momentum buffers, Adam's moments).
Subclasses implement ``step``. They update the numpy arrays inside the parameters
directly, which is what ``with no_grad(): p -= lr * p.grad`` amounts to, minus the
cost of building Tensors, and bump each parameter's version counter so that
autograd still notices the in-place change.
"""

from __future__ import annotations

import copy
import warnings
from collections import defaultdict
from collections.abc import Callable, Iterable
from itertools import chain
from typing import Any

import numpy as np

from .._dtypes import get_default_dtype
from ..autograd.grad_mode import enable_grad
from ..tensor import Tensor, new_tensor

__all__ = ["Optimizer", "required", "check_non_negative", "new_step_counter"]


class _Required:
    """Marks a setting that has no default (PyTorch's ``required``)."""

    def __repr__(self) -> str:
        return "<required parameter>"


required = _Required()


def check_non_negative(*settings: tuple[str, float]) -> None:
    """PyTorch's ``ValueError("Invalid learning rate: -1")`` for the first negative setting,
    checked in the order given (each optimizer's own order, as PyTorch checks them)."""
    for what, value in settings:
        if not 0.0 <= value:
            raise ValueError(f"Invalid {what}: {value}")


def new_step_counter() -> Tensor:
    """A parameter's ``state["step"]``: a 0-d float tensor (float32, or float64 when that is
    the default dtype), as PyTorch's ``_get_scalar_dtype`` makes it."""
    return new_tensor(np.zeros((), get_default_dtype().numpy))


def _typename(obj: Any) -> str:
    if isinstance(obj, Tensor):
        return obj.type()
    module = type(obj).__module__
    name = type(obj).__qualname__
    return name if module == "builtins" else f"{module}.{name}"


class Optimizer:
    """Base class: ``Optimizer(params, defaults)``; ``params`` is an iterable of tensors,
    of ``(name, tensor)`` pairs, or of dicts (parameter groups) with their own settings.
    """

    def __init__(self, params: Iterable[Any], defaults: dict[str, Any]) -> None:
        self.defaults = defaults
        self.state: defaultdict[Tensor, dict[str, Any]] = defaultdict(dict)
        self.param_groups: list[dict[str, Any]] = []
        if isinstance(params, Tensor):
            raise TypeError(
                "params argument given to the optimizer should be an iterable of "
                f"Tensors or dicts, but got {params.type()}"
            )
        groups = list(params)
        if not groups:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(groups[0], dict):
            groups = [{"params": groups}]
        for group in groups:
            self.add_param_group(group)

    def add_param_group(self, param_group: dict[str, Any]) -> None:
        """Add a group of parameters with its own settings (missing ones take the defaults)."""
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group)}")
        params = param_group["params"]
        if isinstance(params, Tensor):
            params = [params]
        elif isinstance(params, set):
            raise TypeError(
                "optimizer parameters need to be organized in ordered collections, "
                "but the ordering of tensors in sets will change between runs. "
                "Please use a list instead."
            )
        else:
            params = list(params)
        names = [p[0] for p in params if isinstance(p, tuple)]
        tensors = [p[1] if isinstance(p, tuple) else p for p in params]
        if names and len(names) != len(tensors):
            raise ValueError(
                "all optimizer params should be with/without names. Some param names are missing"
            )
        param_group["params"] = tensors
        if names:
            param_group["param_names"] = names
        for p in tensors:
            if not isinstance(p, Tensor):
                raise TypeError(
                    "optimizer can only optimize Tensors, but one of the params is " + _typename(p)
                )
            if not (p.is_leaf or p._retains_grad):
                raise ValueError("can't optimize a non-leaf Tensor")
        for name, default in self.defaults.items():
            if default is required and name not in param_group:
                raise ValueError(
                    "parameter group didn't specify a value of required "
                    f"optimization parameter {name}"
                )
            param_group.setdefault(name, default)
        if len(tensors) != len({id(p) for p in tensors}):
            warnings.warn(
                "optimizer contains a parameter group with duplicate parameters; in "
                "future, this will cause an error; see "
                "github.com/pytorch/pytorch/issues/40967 for more information",
                stacklevel=3,
            )
        seen = {id(p) for group in self.param_groups for p in group["params"]}
        if any(id(p) in seen for p in tensors):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(param_group)

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Forget the gradients of the last backward (by default: set ``.grad`` to None)."""
        for group in self.param_groups:
            for p in group["params"]:
                grad = p._grad
                if grad is None:
                    continue
                if set_to_none:
                    p._grad = None
                else:
                    if grad._grad_fn is not None:
                        grad.detach_()
                    else:
                        grad.requires_grad_(False)
                    grad.zero_()

    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        raise NotImplementedError

    @staticmethod
    def _no_graph_options(**options: bool) -> None:
        """minigrad's optimizers update arrays in place: no graph through the step itself."""
        if any(options.values()):
            names = " or ".join(f"{name}=True" for name in options)
            raise NotImplementedError(f"minigrad's optimizers do not support {names}")

    @staticmethod
    def _count_step(state: dict[str, Any]) -> None:
        """``state["step"] += 1``, in place as PyTorch's ``step_t += 1``."""
        step = state["step"]
        step._data += 1
        step._vc[0] += 1

    @staticmethod
    def _bump_versions(p: Tensor, state: dict[str, Any]) -> None:
        """Tell autograd that the parameter and its state tensors changed in place."""
        p._vc[0] += 1
        for key, value in state.items():
            if key != "step" and isinstance(value, Tensor):
                value._vc[0] += 1

    def _closure_loss(self, closure: Callable[[], Any] | None) -> Any:
        if closure is None:
            return None
        with enable_grad():
            return closure()

    # -- saving and loading ------------------------------------------------------------

    def state_dict(self) -> dict[str, Any]:
        """``{"state": {index: {...}}, "param_groups": [{..., "params": [index, ...]}]}``.

        Parameters are replaced by their position (0, 1, ... across the groups), so the
        dict holds only tensors and plain values and ``minigrad.save`` can write it.
        """
        index: dict[int, int] = {}
        groups = []
        start = 0
        for group in self.param_groups:
            packed = {k: v for k, v in group.items() if k != "params"}
            for i, p in enumerate(group["params"], start):
                index.setdefault(id(p), i)
            packed["params"] = [index[id(p)] for p in group["params"]]
            start += len(packed["params"])
            groups.append(packed)
        state = {(index[id(k)] if isinstance(k, Tensor) else k): v for k, v in self.state.items()}
        return {"state": state, "param_groups": groups}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Restore settings and state saved by ``state_dict`` into this optimizer's parameters.

        The groups must have the same sizes. State tensors are copied (as the parameter's
        dtype), so the loaded dict and the optimizer never share memory.
        """
        groups = self.param_groups
        saved_groups = copy.deepcopy(state_dict["param_groups"])
        if len(groups) != len(saved_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        if any(
            len(g["params"]) != len(s["params"]) for g, s in zip(groups, saved_groups, strict=True)
        ):
            raise ValueError(
                "loaded state dict contains a parameter group that doesn't match "
                "the size of optimizer's group"
            )
        id_map = dict(
            zip(
                chain.from_iterable(g["params"] for g in saved_groups),
                chain.from_iterable(g["params"] for g in groups),
                strict=True,
            )
        )
        state: defaultdict[Any, dict[str, Any]] = defaultdict(dict)
        for k, v in state_dict["state"].items():
            if k in id_map:
                param = id_map[k]
                state[param] = {key: _cast(param, value, key) for key, value in v.items()}
            else:
                state[k] = v
        for group, saved in zip(groups, saved_groups, strict=True):
            saved["params"] = group["params"]
            if "param_names" in group and "param_names" not in saved:
                saved["param_names"] = group["param_names"]
        self.state = state
        self.param_groups = saved_groups

    def __repr__(self) -> str:
        text = type(self).__name__ + " ("
        for i, group in enumerate(self.param_groups):
            text += f"\nParameter Group {i}\n"
            for key in sorted(group):
                if key != "params":
                    text += f"    {key}: {group[key]}\n"
        return text + ")"


def _cast(param: Tensor, value: Any, key: str) -> Any:
    """A private copy of a loaded state value, in the parameter's float dtype (not 'step')."""
    if isinstance(value, Tensor):
        dtype = value._data.dtype
        if key != "step" and param._data.dtype.kind == "f":
            dtype = param._data.dtype
        return new_tensor(np.array(value._data, dtype=dtype))
    if isinstance(value, dict):
        return {k: _cast(param, v, k) for k, v in value.items()}
    return value
