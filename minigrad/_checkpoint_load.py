"""Loading a checkpoint's structure (the format is described in ``_checkpoint.py``).

The JSON comes from a file that may be hostile: its size and nesting are counted before
``json.loads`` builds anything, every node is checked against the format, and any problem
raises ``BadStructure`` (the caller names the file).
"""

from __future__ import annotations

import json
import re
from collections import OrderedDict
from typing import Any

import numpy as np

from . import _dtypes
from ._checkpoint import (
    MAX_CONTAINERS,
    MAX_DEPTH,
    MAX_DIGITS,
    NUMPY_SCALARS,
    VERSION,
    BadStructure,
    containers_and_depth,
)
from .nn.parameter import Parameter
from .tensor import Tensor

_DTYPES = {d.name: d for d in _dtypes._ALL}
_DEVICE = re.compile(r"[a-z_]{1,32}(:\d{1,9})?")


def decode(text: str, tensors: dict[str, Tensor]) -> Any:
    """Rebuild the object the structure JSON ``text`` describes; BadStructure if it is wrong."""
    containers, deepest = containers_and_depth(text)
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
        or name not in NUMPY_SCALARS
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
