"""``minigrad.save`` and ``minigrad.load``: PyTorch's calls, in a file format that cannot run code.

``torch.save`` pickles, and unpickling a file can run any code its author chose. A learner
must be able to load a file from anyone, so minigrad never pickles and never unpickles: it
writes safetensors (see ``_safetensors``), which holds only names, dtypes, shapes and bytes.

What goes into the file:

* A state_dict as ``model.state_dict()`` returns it (an OrderedDict of str to tensors that do
  not require grad) is written as a plain safetensors file whose tensor names are the keys,
  with metadata ``{"format": "pt"}`` (the tag Hugging Face tools expect of PyTorch-layout
  weights). Loading any plain safetensors file, whoever wrote it, gives such an OrderedDict.
* Anything else that ``torch.save`` and ``torch.load`` carry as data (a checkpoint such as
  ``{"model": sd, "optimizer": opt.state_dict(), "epoch": 3}``; tensors that require grad,
  Parameters, dtypes, ``Size``, numpy scalars) is stored with the same tensors and its structure
  as JSON metadata (``_checkpoint``), and comes back as it was. Real PyTorch reads either kind
  with ``safetensors.torch.load_file(path)``, which gives the tensors by name.

Objects that carry code (a whole ``nn.Module``, an optimizer) are refused with a TypeError that
says to save their ``state_dict()``; nothing is written then. Saving to a path is atomic and
keeps symlinks and permissions (``_atomic_save``). Loading checks everything before it
allocates (``_safetensors_header``): whatever the bytes, it raises only FileNotFoundError,
IsADirectoryError or PermissionError (as ``open`` does, and PyTorch) or
:class:`UnsafeOrCorruptFileError`, naming the file and the problem.
"""

from __future__ import annotations

import os
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, BinaryIO

from . import _checkpoint, _checkpoint_load, _dtypes, _safetensors
from ._atomic_save import write_atomically
from ._checkpoint import STRUCTURE_KEY, BadStructure, array_of
from ._safetensors import UnsafeOrCorruptFileError
from .creation import from_numpy
from .tensor import Tensor

__all__ = ["save", "load", "UnsafeOrCorruptFileError", "STRUCTURE_KEY"]

FileLike = str | os.PathLike | BinaryIO


def save(obj: Any, f: FileLike) -> None:
    """Save a state_dict or a checkpoint made of tensors and plain values, like ``torch.save``.

    ``f`` is a path (str or os.PathLike), written atomically, or a binary file object.
    Anything that cannot be stored raises a TypeError (ValueError for a structure that contains
    itself or exceeds a limit) naming where it is, before anything is written.
    """
    __tracebackhide__ = True  # IPython leaves this frame out of a learner's traceback
    if type(obj) is OrderedDict and all(_is_plain_weight(k, v) for k, v in obj.items()):
        arrays = {key: array_of(t, [key]) for key, t in obj.items()}
        metadata = {"format": "pt"}
    else:
        arrays = {}
        metadata = {"format": "pt", STRUCTURE_KEY: _checkpoint.encode(obj, arrays)}
    if isinstance(f, (str, os.PathLike)):
        write_atomically(os.fsdecode(f), lambda file: _safetensors.write(file, arrays, metadata))
    elif hasattr(f, "write"):
        _safetensors.write(f, arrays, metadata)
    else:
        raise TypeError(f"f must be a str, an os.PathLike or a binary file, not {type(f)}")


def _is_plain_weight(key: Any, value: Any) -> bool:
    return (
        isinstance(key, str)
        and key != _safetensors.METADATA_KEY
        and type(value) is Tensor
        and not value.requires_grad
    )


MapLocation = None | str | _dtypes.device | dict | Callable


def load(
    f: FileLike,
    map_location: MapLocation = None,
    *,
    weights_only: bool | None = None,
    upcast: bool = False,
) -> Any:
    """Load what :func:`save` wrote, or any safetensors file, like ``torch.load``.

    ``map_location`` may be None, ``"cpu"``, ``minigrad.device("cpu")``, a dict whose values
    are cpu, or a function called as ``map_location(tensor, "cpu")`` for each tensor (PyTorch
    passes storages); minigrad has no other device. ``weights_only`` is accepted for
    compatibility and changes nothing: minigrad never unpickles, so loading is always as safe as
    PyTorch's ``weights_only=True``. ``upcast=True`` loads tensors of dtypes minigrad has no
    type for exactly into wider ones: bfloat16 and 8-bit floats into float32, uint16 into int32,
    uint32 and uint64 into int64 (see ``_foreign_dtypes``); without it they raise.

    A missing path raises FileNotFoundError and a folder IsADirectoryError; whatever the
    file holds, any other problem raises :class:`UnsafeOrCorruptFileError`.
    """
    __tracebackhide__ = True  # IPython leaves this frame out of a learner's traceback
    mapper = _mapper(map_location)
    if not isinstance(f, (str, os.PathLike)) and not hasattr(f, "read"):
        raise TypeError(f"f must be a str, an os.PathLike or a binary file, not {type(f)}")
    arrays, metadata = _safetensors.read(f, upcast=upcast)
    tensors = {name: mapper(from_numpy(array)) for name, array in arrays.items()}
    del arrays
    if STRUCTURE_KEY not in metadata:
        return OrderedDict(tensors)
    try:
        return _checkpoint_load.decode(metadata[STRUCTURE_KEY], tensors)
    except BadStructure as e:
        name = _safetensors.name_of(f)
        raise UnsafeOrCorruptFileError(name, f"invalid {STRUCTURE_KEY} metadata: {e}") from None


_CUDA = (
    "Attempting to deserialize object on a CUDA device but minigrad.cuda.is_available() is "
    "False. If you are running on a CPU-only machine, please use minigrad.load with "
    "map_location=minigrad.device('cpu') to map your storages to the CPU."
)


def _mapper(map_location: Any) -> Callable[[Tensor], Tensor]:
    """What to do with each loaded tensor: nothing, unless a function was given."""
    if callable(map_location) and not isinstance(map_location, (str, _dtypes.device)):
        return lambda t: _mapped(map_location(t, "cpu"))
    places = map_location.values() if isinstance(map_location, dict) else [map_location]
    for place in places:
        if place is None and not isinstance(map_location, dict):
            continue
        if not isinstance(place, (str, _dtypes.device)):
            raise TypeError(f"'{type(place).__name__}' object is not callable")
        kind = _dtypes.device(place).type
        if kind == "cuda":
            raise RuntimeError(_CUDA)
        if kind != "cpu":
            raise RuntimeError(
                f"minigrad only has the 'cpu' device; map_location {str(place)!r} is not cpu"
            )
    return lambda t: t


def _mapped(result: Any) -> Tensor:
    if not isinstance(result, Tensor):
        raise TypeError(f"map_location must return a tensor, not {type(result).__name__}")
    return result
