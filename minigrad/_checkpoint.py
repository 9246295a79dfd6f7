"""A checkpoint's structure as JSON: what ``torch.save`` would pickle, without any code in it.

``minigrad.save`` stores a checkpoint's tensors flat in a safetensors file, each named by its key
path joined with dots (``model.fc1.weight``; ``#2``, ``#3``... is added if a name is taken), and
its structure as JSON in the metadata key ``minigrad.object``: ``{"version": 1, "object": node}``.
A node is a JSON null, bool, int, float, str or list (a Python list), or an object:

* ``{"tensor": name}``, with ``"requires_grad": true`` if it required grad, or
  ``{"parameter": name}``, with ``"requires_grad": false`` if it did not: an ``nn.Parameter``;
* ``{"tuple": [node, ...]}``, ``{"dict": [[key, node], ...]}``, ``{"odict": [...]}`` (an
  OrderedDict); keys are str or int;
* ``{"float": "nan" | "inf" | "-inf"}``; ``{"size": [2, 3]}`` (a ``minigrad.Size``);
  ``{"dtype": "float32"}``; ``{"device": "cpu"}``; ``{"numpy": ["float32", value]}``
  (a numpy scalar: bool, integer or float types).

Loading rebuilds the same structure: tuples stay tuples, int keys stay ints, a tensor that
appears twice comes back as one tensor. Other subclasses come back as their base type (a
defaultdict as a dict, a namedtuple as a tuple). Limits, the same when saving and loading, keep
a hostile file from taking unbounded time or memory: at most ``MAX_DEPTH`` levels of nesting,
``MAX_CONTAINERS`` JSON lists and objects in the document (counted before ``json.loads`` builds
any), and ints of at most ``MAX_DIGITS`` digits.

This module saves (``encode``); ``_checkpoint_load.py`` loads (``decode``).
"""

from __future__ import annotations

import json
import math
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

import numpy as np

from . import _dtypes
from ._json_scan import chunks
from ._safetensors import METADATA_KEY, dtype_code
from .nn.module import Module
from .nn.parameter import Parameter
from .optim.optimizer import Optimizer
from .tensor import Tensor

__all__ = ["STRUCTURE_KEY", "VERSION", "encode", "BadStructure"]

STRUCTURE_KEY = "minigrad.object"
VERSION = 1
MAX_DEPTH = 100
MAX_CONTAINERS = 1_000_000  # JSON lists and objects: at most about 100 MB of Python objects
MAX_DIGITS = 4300  # Python's own default limit for int <-> str conversion
_MAX_INT = 10**MAX_DIGITS
NUMPY_SCALARS = {
    np.dtype(t).name
    for t in ("?", "i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8", "f2", "f4", "f8")
}


class BadStructure(Exception):
    """The structure metadata is malformed (the caller names the file)."""


def encode(obj: Any, arrays: dict) -> str:
    """The structure JSON for ``obj``; its tensors go into ``arrays`` (name -> numpy array)."""
    __tracebackhide__ = True  # IPython leaves this frame out of a learner's traceback
    encoder = _Encoder(arrays)
    node = encoder.node(obj, [])
    text = json.dumps({"version": VERSION, "object": node}, separators=(",", ":"))
    if containers_and_depth(text)[0] > MAX_CONTAINERS:
        raise ValueError(
            f"cannot save obj: its structure needs more than {MAX_CONTAINERS} JSON lists and "
            "objects (a list is one, a tuple two, a dict two and one per item); store large "
            "data in tensors"
        )
    return text


def containers_and_depth(text: str) -> tuple[int, int]:
    """How many JSON arrays and objects ``text`` has, and how deep they nest."""
    containers = deepest = 0
    for chunk in chunks(text.encode("utf-8", "surrogatepass")):
        containers += int(np.count_nonzero(chunk.opens))
        deepest = max(deepest, int(chunk.depth.max(initial=0)))
    return containers, deepest


class _Encoder:
    def __init__(self, arrays: dict) -> None:
        self.arrays = arrays
        self.nodes: dict[int, dict] = {}  # id(tensor) -> its node, so a shared tensor is one
        self.active: set[int] = set()

    def node(self, obj: Any, path: list) -> Any:
        __tracebackhide__ = True
        if isinstance(obj, Tensor):
            return self.tensor(obj, path)
        if obj is None or isinstance(obj, bool):
            return obj
        if isinstance(obj, np.generic) and obj.dtype.name in NUMPY_SCALARS:
            return {"numpy": [obj.dtype.name, self.node(obj.item(), path)]}
        if isinstance(obj, int):
            if abs(obj) >= _MAX_INT:
                raise ValueError(
                    f"cannot save {where(path)}: an int of more than {MAX_DIGITS} digits"
                )
            return int(obj)
        if isinstance(obj, str):
            return str(obj)
        if isinstance(obj, float):
            return float(obj) if math.isfinite(obj) else {"float": str(float(obj))}
        if isinstance(obj, _dtypes.dtype):
            return {"dtype": obj.name}
        if isinstance(obj, _dtypes.device):
            return {"device": str(obj)}
        if isinstance(obj, _dtypes.Size):
            return {"size": [int(s) for s in obj]}
        if not isinstance(obj, (list, tuple, Mapping)):
            raise TypeError(f"cannot save {where(path)}: {_refusal(obj)}")
        return self.container(obj, path)

    def container(self, obj: list | tuple | Mapping, path: list) -> Any:
        __tracebackhide__ = True
        if id(obj) in self.active:
            raise ValueError(f"cannot save {where(path)}: it contains itself")
        if len(path) >= MAX_DEPTH:
            raise ValueError(f"cannot save {where(path)}: nested more than {MAX_DEPTH} levels deep")
        self.active.add(id(obj))
        if isinstance(obj, Mapping):
            items = []
            for k, v in obj.items():
                if not isinstance(k, (str, int)) or isinstance(k, bool):
                    raise TypeError(
                        f"cannot save {where(path)}: key {k!r} is a {type(k).__name__}; "
                        "dict keys must be str or int"
                    )
                key = str(k) if isinstance(k, str) else int(k)
                items.append([key, self.node(v, [*path, key])])
            node = {"odict" if isinstance(obj, OrderedDict) else "dict": items}
        else:
            items = [self.node(v, [*path, i]) for i, v in enumerate(obj)]
            node = {"tuple": items} if isinstance(obj, tuple) else items
        self.active.discard(id(obj))
        return node

    def tensor(self, t: Tensor, path: list) -> dict:
        __tracebackhide__ = True
        if id(t) not in self.nodes:
            name = base = ".".join(map(str, path)) or "tensor"
            n = 1
            while name in self.arrays or name == METADATA_KEY:
                n += 1
                name = f"{base}#{n}"
            self.arrays[name] = array_of(t, path)
            if isinstance(t, Parameter):
                node = (
                    {"parameter": name}
                    if t.requires_grad
                    else {"parameter": name, "requires_grad": False}
                )
            else:
                node = (
                    {"tensor": name, "requires_grad": True} if t.requires_grad else {"tensor": name}
                )
            self.nodes[id(t)] = node
        return self.nodes[id(t)]


def array_of(t: Tensor, path: list):
    """The tensor's numpy array, checked to be storable."""
    __tracebackhide__ = True
    array = t.detach().numpy()
    try:
        dtype_code(array.dtype)
    except TypeError as e:
        raise TypeError(f"cannot save {where(path)}: {e}") from None
    return array


def where(path: list) -> str:
    return "obj" + "".join(f"[{k!r}]" for k in path[:MAX_DEPTH])


def _refusal(obj: Any) -> str:
    name = f"{type(obj).__module__}.{type(obj).__qualname__}"
    if isinstance(obj, Module):
        return (
            f"{name} is a Module; minigrad saves tensors and plain values, not objects (a file "
            "that rebuilds an object can run code). Save model.state_dict() instead: "
            "minigrad.save(model.state_dict(), path)"
        )
    if isinstance(obj, Optimizer):
        return (
            f"{name} is an Optimizer; save optimizer.state_dict() instead, and load it with "
            "optimizer.load_state_dict(minigrad.load(path))"
        )
    return (
        f"{name} is not a tensor, dict, list, tuple, str, int, float, bool, None, "
        "numpy scalar, minigrad.Size, dtype or device"
    )
