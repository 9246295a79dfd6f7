"""``minigrad.save`` and ``minigrad.load``: PyTorch's calls, in a file format that cannot run code.

``torch.save`` pickles, and unpickling a file can run any code its author chose. A learner
must be able to load a file from anyone, so minigrad never pickles and never unpickles: it
writes safetensors (see ``_safetensors``), which holds only names, dtypes, shapes and bytes.

What goes into the file:

* A state_dict, i.e. a mapping of str to Tensor, is written as a plain safetensors file whose
  tensor names are the keys, with metadata ``{"format": "pt"}`` (the tag Hugging Face tools
  expect of PyTorch-layout weights). Real PyTorch reads it with
  ``safetensors.torch.load_file(path)``. Loading any plain safetensors file, whoever wrote
  it, gives an ``OrderedDict`` of tensors in the file's header order.
* Anything else (a checkpoint such as ``{"model": sd, "optimizer": opt.state_dict(),
  "epoch": 3}``: dicts with str or int keys, lists, tuples, tensors, int, float, bool, None,
  str) stores its tensors flat, each named by its key path joined with dots
  (``model.fc1.weight``, ``optimizer.state.0.momentum_buffer``; ``#2``, ``#3``... is added if
  a name is taken), and its structure as JSON in the metadata key ``STRUCTURE_KEY``
  (``"minigrad.object"``): ``{"version": 1, "object": node}`` where a node is a JSON
  null/bool/int/float/str, a JSON list for a list, or a one-key object:
  ``{"tensor": name}``, ``{"tuple": [...]}``, ``{"dict": [[key, node], ...]}``,
  ``{"odict": [[key, node], ...]}`` (an OrderedDict) or ``{"float": "nan" | "inf" | "-inf"}``.
  Loading rebuilds the same structure: tuples stay tuples, int keys stay ints, a tensor that
  appears twice comes back as one tensor. Subclasses come back as their base type
  (a defaultdict as a dict, a namedtuple as a tuple, a Parameter as a Tensor).

Saving to a path is atomic: a temporary file in the same folder, flushed and fsynced, then
``os.replace``; on any error the temporary file is removed and an existing file is untouched.
Any file that is not valid (empty, truncated, random, a pickle, a torch.save zip archive, a
lying header) raises :class:`UnsafeOrCorruptFileError`, naming the file and the problem.
"""

from __future__ import annotations

import contextlib
import errno
import json
import math
import os
import secrets
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any, BinaryIO

import numpy as np

from . import _safetensors
from ._safetensors import UnsafeOrCorruptFileError
from .creation import from_numpy
from .tensor import Tensor

__all__ = ["save", "load", "UnsafeOrCorruptFileError", "STRUCTURE_KEY"]

STRUCTURE_KEY = "minigrad.object"
_VERSION = 1
FileLike = str | os.PathLike | BinaryIO


# -- the one seam between the engine and the file format ----------------------------------


def _to_array(t: Tensor) -> np.ndarray:
    return t.detach().numpy()


def _to_tensor(array: np.ndarray) -> Tensor:
    return from_numpy(array)


# -- save ---------------------------------------------------------------------------------


def save(obj: Any, f: FileLike) -> None:
    """Save a state_dict or a checkpoint made of tensors and plain values, like ``torch.save``.

    ``f`` is a path (str or os.PathLike), written atomically, or a binary file object.
    Anything that is not a tensor, dict, list, tuple, str, int, float, bool or None raises a
    TypeError naming where it is, before anything is written.
    """
    __tracebackhide__ = True  # IPython leaves this frame out of a learner's traceback
    if _is_flat_state_dict(obj):
        arrays = {key: _array_of(t, [key]) for key, t in obj.items()}
        metadata = {"format": "pt"}
    else:
        arrays = {}
        node = _encode(obj, [], arrays, {}, set())
        document = {"version": _VERSION, "object": node}
        metadata = {STRUCTURE_KEY: json.dumps(document, separators=(",", ":"))}
    if isinstance(f, (str, os.PathLike)):
        _atomic_write(os.fsdecode(f), arrays, metadata)
    elif hasattr(f, "write"):
        _safetensors.write(f, arrays, metadata)
    else:
        raise TypeError(f"f must be a str, an os.PathLike or a binary file, not {type(f)}")


def _is_flat_state_dict(obj: Any) -> bool:
    return isinstance(obj, Mapping) and all(
        isinstance(k, str) and k != _safetensors.METADATA_KEY and isinstance(v, Tensor)
        for k, v in obj.items()
    )


def _array_of(t: Tensor, path: list) -> np.ndarray:
    array = _to_array(t)
    try:
        _safetensors.dtype_code(array.dtype)
    except TypeError as e:
        raise TypeError(f"cannot save {_where(path)}: {e}") from None
    return array


def _encode(obj: Any, path: list, arrays: dict, names: dict, active: set) -> Any:
    """The JSON node for ``obj``; its tensors go into ``arrays`` (``names``: id -> name)."""
    if isinstance(obj, Tensor):
        if id(obj) not in names:
            name = base = ".".join(map(str, path)) or "tensor"
            n = 1
            while name in arrays or name == _safetensors.METADATA_KEY:
                n += 1
                name = f"{base}#{n}"
            arrays[name] = _array_of(obj, path)
            names[id(obj)] = name
        return {"tensor": names[id(obj)]}
    if obj is None or isinstance(obj, bool):
        return obj
    if isinstance(obj, (int, str)):
        return int(obj) if isinstance(obj, int) else str(obj)
    if isinstance(obj, float):
        return float(obj) if math.isfinite(obj) else {"float": str(float(obj))}
    if not isinstance(obj, (list, tuple, Mapping)):
        raise TypeError(
            f"cannot save {_where(path)}: {type(obj).__module__}.{type(obj).__qualname__} is "
            "not a tensor, dict, list, tuple, str, int, float, bool or None"
        )
    if id(obj) in active:
        raise ValueError(f"cannot save {_where(path)}: it contains itself")
    active.add(id(obj))
    if isinstance(obj, Mapping):
        items = []
        for k, v in obj.items():
            if not isinstance(k, (str, int)) or isinstance(k, bool):
                raise TypeError(
                    f"cannot save {_where(path)}: key {k!r} is a {type(k).__name__}; "
                    "dict keys must be str or int"
                )
            key = str(k) if isinstance(k, str) else int(k)
            items.append([key, _encode(v, [*path, key], arrays, names, active)])
        node = {"odict" if isinstance(obj, OrderedDict) else "dict": items}
    else:
        items = [_encode(v, [*path, i], arrays, names, active) for i, v in enumerate(obj)]
        node = {"tuple": items} if isinstance(obj, tuple) else items
    active.discard(id(obj))
    return node


def _where(path: list) -> str:
    return "obj" + "".join(f"[{k!r}]" for k in path)


def _atomic_write(path: str, arrays: dict, metadata: dict) -> None:
    """Write to a new file beside ``path``, fsync it, then rename it over ``path``."""
    folder, base = os.path.split(os.path.abspath(path))
    while True:
        tmp = os.path.join(folder, f".{base}.{secrets.token_hex(4)}.tmp")
        try:  # mode 0o666 under the umask, as a plain open() would give
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _O_BINARY, 0o666)
            break
        except FileExistsError:
            continue
        except FileNotFoundError:  # name the file the caller asked for, not our temporary
            raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), path) from None
    try:
        with open(fd, "wb") as f:
            _safetensors.write(f, arrays, metadata)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    with contextlib.suppress(OSError, AttributeError):  # make the rename itself durable
        dir_fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)


_O_BINARY = getattr(os, "O_BINARY", 0)  # Windows only


# -- load ---------------------------------------------------------------------------------


def load(f: FileLike, map_location: Any = None, weights_only: bool = True) -> Any:
    """Load what :func:`save` wrote, or any safetensors file, like ``torch.load``.

    ``map_location`` may only be None or 'cpu' (minigrad has no other device).
    ``weights_only`` is accepted for compatibility and changes nothing: minigrad never
    unpickles, so loading is always as safe as PyTorch's ``weights_only=True``.
    A missing path raises FileNotFoundError; an invalid file, UnsafeOrCorruptFileError.
    """
    __tracebackhide__ = True  # IPython leaves this frame out of a learner's traceback
    if map_location not in (None, "cpu"):
        raise RuntimeError(
            f"minigrad only has the 'cpu' device; map_location must be None or 'cpu', "
            f"not {map_location!r}"
        )
    if not isinstance(f, (str, os.PathLike)) and not hasattr(f, "read"):
        raise TypeError(f"f must be a str, an os.PathLike or a binary file, not {type(f)}")
    arrays, metadata = _safetensors.read(f)
    tensors = {name: _to_tensor(array) for name, array in arrays.items()}
    if STRUCTURE_KEY not in metadata:
        return OrderedDict(tensors)
    used: set[str] = set()
    try:
        document = json.loads(
            metadata[STRUCTURE_KEY], object_pairs_hook=_pairs, parse_constant=_constant
        )
        if not isinstance(document, dict) or type(document.get("version")) is not int:
            raise _BadNode("expected an object with an integer 'version'")
        if document["version"] != _VERSION:
            raise _BadNode(
                f"version {document['version']} is unknown; this minigrad reads {_VERSION}"
            )
        if set(document) != {"version", "object"}:
            raise _BadNode("expected exactly the keys 'version' and 'object'")
        obj = _decode(document["object"], tensors, used)
        if used != set(tensors):
            raise _BadNode(f"tensor {sorted(set(tensors) - used)[0]!r} is not referenced")
    except (_BadNode, json.JSONDecodeError, RecursionError) as e:
        name = _safetensors.name_of(f)
        raise UnsafeOrCorruptFileError(name, f"invalid {STRUCTURE_KEY} metadata: {e}") from None
    return obj


class _BadNode(Exception):
    """Internal: the structure metadata is malformed."""


def _pairs(pairs: list) -> dict:
    result = dict(pairs)
    if len(result) != len(pairs):
        raise _BadNode("duplicate key in JSON")
    return result


def _constant(name: str) -> None:
    raise _BadNode(f"{name} is not valid JSON")


def _decode(node: Any, tensors: dict, used: set) -> Any:
    if node is None or isinstance(node, (bool, int, float, str)):
        return node
    if isinstance(node, list):
        return [_decode(x, tensors, used) for x in node]
    if not (isinstance(node, dict) and len(node) == 1):
        raise _BadNode(f"a node must have one key, not {len(node)}")
    ((tag, value),) = node.items()
    if tag == "tensor" and isinstance(value, str) and value in tensors:
        used.add(value)
        return tensors[value]
    if tag == "tuple" and isinstance(value, list):
        return tuple(_decode(x, tensors, used) for x in value)
    if tag == "float" and value in ("nan", "inf", "-inf"):
        return float(value)
    if tag in ("dict", "odict") and isinstance(value, list):
        result = OrderedDict() if tag == "odict" else {}
        for pair in value:
            if not (isinstance(pair, list) and len(pair) == 2 and _is_key(pair[0])):
                raise _BadNode("a dict item is not a [str or int key, value] pair")
            if pair[0] in result:
                raise _BadNode(f"duplicate dict key {pair[0]!r}")
            result[pair[0]] = _decode(pair[1], tensors, used)
        return result
    raise _BadNode(f"unknown node {json.dumps(node)[:80]}")


def _is_key(key: Any) -> bool:
    return isinstance(key, str) or (isinstance(key, int) and not isinstance(key, bool))
