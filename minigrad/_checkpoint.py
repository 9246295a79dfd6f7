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
"""

from __future__ import annotations

import json
import math
import re
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

__all__ = ["STRUCTURE_KEY", "VERSION", "encode", "decode", "BadStructure"]

STRUCTURE_KEY = "minigrad.object"
VERSION = 1
MAX_DEPTH = 100
MAX_CONTAINERS = 1_000_000  # JSON lists and objects: at most about 100 MB of Python objects
MAX_DIGITS = 4300  # Python's own default limit for int <-> str conversion
_MAX_INT = 10**MAX_DIGITS
_DTYPES = {d.name: d for d in _dtypes._ALL}
_NUMPY_SCALARS = {
    np.dtype(t).name
    for t in ("?", "i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8", "f2", "f4", "f8")
}
_DEVICE = re.compile(r"[a-z_]{1,32}(:\d{1,9})?")


class BadStructure(Exception):
    """The structure metadata is malformed (the caller names the file)."""


# -- saving -------------------------------------------------------------------------------


def encode(obj: Any, arrays: dict) -> str:
    """The structure JSON for ``obj``; its tensors go into ``arrays`` (name -> numpy array)."""
    __tracebackhide__ = True  # IPython leaves this frame out of a learner's traceback
    encoder = _Encoder(arrays)
    node = encoder.node(obj, [])
    text = json.dumps({"version": VERSION, "object": node}, separators=(",", ":"))
    if _containers_and_depth(text)[0] > MAX_CONTAINERS:
        raise ValueError(
            f"cannot save obj: its structure needs more than {MAX_CONTAINERS} JSON lists and "
            "objects (a list is one, a tuple two, a dict two and one per item); store large "
            "data in tensors"
        )
    return text


def _containers_and_depth(text: str) -> tuple[int, int]:
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
        if isinstance(obj, np.generic) and obj.dtype.name in _NUMPY_SCALARS:
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


# -- loading ------------------------------------------------------------------------------


def decode(text: str, tensors: dict[str, Tensor]) -> Any:
    """Rebuild the object the structure JSON ``text`` describes; BadStructure if it is wrong."""
    containers, deepest = _containers_and_depth(text)
    if containers > MAX_CONTAINERS:
        raise BadStructure(f"more than {MAX_CONTAINERS} JSON lists and objects")
    if deepest > 3 * MAX_DEPTH + 3:  # a dict is three JSON levels: {"dict": [[key, value]]}
        raise BadStructure(f"nested more than {MAX_DEPTH} levels deep")
    try:
        document = json.loads(
            text, object_pairs_hook=_pairs, parse_constant=_constant, parse_int=_bounded_int
        )
    except (json.JSONDecodeError, RecursionError) as e:
        raise BadStructure(str(e)) from None
    if not isinstance(document, dict) or type(document.get("version")) is not int:
        raise BadStructure("expected an object with an integer 'version'")
    if document["version"] != VERSION:
        raise BadStructure(
            f"version {document['version']} is unknown; this minigrad reads {VERSION}"
        )
    if set(document) != {"version", "object"}:
        raise BadStructure("expected exactly the keys 'version' and 'object'")
    decoder = _Decoder(tensors)
    obj = decoder.node(document["object"], 0)
    if decoder.used != set(tensors):
        raise BadStructure(f"tensor {sorted(set(tensors) - decoder.used)[0]!r} is not referenced")
    return obj


def _pairs(pairs: list) -> dict:
    result = dict(pairs)
    if len(result) != len(pairs):
        raise BadStructure("duplicate key in JSON")
    return result


def _constant(name: str) -> None:
    raise BadStructure(f"{name} is not valid JSON")


def _bounded_int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_DIGITS:
        raise BadStructure(f"an int of more than {MAX_DIGITS} digits")
    return int(digits)


class _Decoder:
    def __init__(self, tensors: dict[str, Tensor]) -> None:
        self.tensors = tensors
        self.used: set[str] = set()
        self.made: dict[str, tuple[dict, Tensor]] = {}  # name -> (its node, the tensor)

    def node(self, node: Any, depth: int) -> Any:
        if node is None or isinstance(node, (bool, int, float, str)):
            return node
        if depth >= MAX_DEPTH and _is_container(node):
            raise BadStructure(f"nested more than {MAX_DEPTH} levels deep")
        if isinstance(node, list):
            return [self.node(x, depth + 1) for x in node]
        if not isinstance(node, dict) or not node:
            raise BadStructure("a node must be a JSON value or an object with one key")
        tag = next(iter(node))
        if tag in ("tensor", "parameter"):
            return self.tensor(node)
        if len(node) != 1:
            raise BadStructure(f"a node must have one key, not {len(node)}")
        value = node[tag]
        if tag == "tuple" and isinstance(value, list):
            return tuple(self.node(x, depth + 1) for x in value)
        if tag in ("dict", "odict") and isinstance(value, list):
            return self.mapping(OrderedDict() if tag == "odict" else {}, value, depth)
        if tag == "float" and value in ("nan", "inf", "-inf"):
            return float(value)
        if tag == "size" and isinstance(value, list) and all(_is_count(s) for s in value):
            return _dtypes.Size(value)
        if tag == "dtype" and isinstance(value, str) and value in _DTYPES:
            return _DTYPES[value]
        if tag == "device" and isinstance(value, str) and _DEVICE.fullmatch(value):
            return _dtypes.device(value)
        if tag == "numpy" and isinstance(value, list) and len(value) == 2:
            return _numpy_scalar(value[0], self.node(value[1], depth + 1))
        raise BadStructure(f"unknown node {json.dumps(node)[:80]}")

    def mapping(self, result: dict, items: list, depth: int) -> dict:
        for pair in items:
            if not (isinstance(pair, list) and len(pair) == 2 and _is_key(pair[0])):
                raise BadStructure("a dict item is not a [str or int key, value] pair")
            if pair[0] in result:
                raise BadStructure(f"duplicate dict key {pair[0]!r}")
            result[pair[0]] = self.node(pair[1], depth + 1)
        return result

    def tensor(self, node: dict) -> Tensor:
        tag = "tensor" if "tensor" in node else "parameter"
        name = node[tag]
        extra = set(node) - {tag, "requires_grad"}
        requires_grad = node.get("requires_grad", tag == "parameter")
        if extra or not isinstance(name, str) or not isinstance(requires_grad, bool):
            raise BadStructure(f"invalid tensor node {json.dumps(node)[:80]}")
        if name not in self.tensors:
            raise BadStructure(f"tensor {name[:80]!r} is not in the file")
        if name in self.made:
            if self.made[name][0] != node:
                raise BadStructure(f"tensor {name[:80]!r} is described in two different ways")
            return self.made[name][1]
        data = self.tensors[name]
        if requires_grad and not data.dtype.is_floating_point:
            raise BadStructure(f"tensor {name[:80]!r} is not floating point but requires grad")
        if tag == "parameter":
            t = Parameter(data, requires_grad=requires_grad)
        else:
            t = data.requires_grad_() if requires_grad else data
        self.used.add(name)
        self.made[name] = (node, t)
        return t


def _numpy_scalar(name: Any, value: Any) -> np.generic:
    if (
        not isinstance(name, str)
        or name not in _NUMPY_SCALARS
        or type(value) not in (bool, int, float)
    ):
        raise BadStructure(f"invalid numpy scalar {name!r}")
    kind = np.dtype(name).kind
    if (kind == "b") != (type(value) is bool) or (kind in "iu" and type(value) is not int):
        raise BadStructure(f"invalid numpy {name} value {value!r}")
    try:
        return np.dtype(name).type(value)
    except (OverflowError, ValueError) as e:
        raise BadStructure(f"invalid numpy {name} value: {e}") from None


def _is_container(node: Any) -> bool:
    """A list, tuple or dict node: what counts towards the nesting limit, as in saving."""
    return isinstance(node, list) or (
        isinstance(node, dict) and len(node) == 1 and next(iter(node)) in ("tuple", "dict", "odict")
    )


def _is_count(x: object) -> bool:
    return type(x) is int and x >= 0


def _is_key(key: Any) -> bool:
    return isinstance(key, str) or (isinstance(key, int) and not isinstance(key, bool))
