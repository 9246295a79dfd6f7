"""The safetensors file format, written from its published specification with numpy only.

Why this format: a file must never be a way to run someone else's code on a learner's machine.
safetensors holds nothing but names, dtypes, shapes and raw bytes, so reading it executes
nothing, and real PyTorch (``safetensors.torch.load_file``) reads the same files.

Layout::

    8 bytes   N, the header length, an unsigned little-endian 64-bit integer
    N bytes   UTF-8 JSON object, starting with '{', maybe padded with spaces:
              {"__metadata__": {str: str, ...},            (optional)
               name: {"dtype": "F32", "shape": [2, 3], "data_offsets": [begin, end]}, ...}
    the rest  the byte buffer: every tensor little-endian, C order; offsets are relative to
              the buffer start, and the tensors cover it exactly, without holes or overlaps.

The reader trusts nothing in the file: every number is checked before it is used, and any
problem raises :class:`UnsafeOrCorruptFileError` naming the file.
"""

from __future__ import annotations

import json
import os
import struct
from collections.abc import Mapping
from typing import BinaryIO

import numpy as np

__all__ = ["UnsafeOrCorruptFileError", "read", "write", "parse", "name_of", "dtype_code"]

MAX_HEADER_SIZE = 100_000_000  # the specification's cap on N
METADATA_KEY = "__metadata__"
_ENTRY_KEYS = {"dtype", "shape", "data_offsets"}

# The dtypes minigrad can hold, by their safetensors names, as little-endian numpy dtypes.
_DTYPES: dict[str, np.dtype] = {
    "F64": np.dtype("<f8"),
    "F32": np.dtype("<f4"),
    "F16": np.dtype("<f2"),
    "I64": np.dtype("<i8"),
    "I32": np.dtype("<i4"),
    "I16": np.dtype("<i2"),
    "I8": np.dtype("i1"),
    "U8": np.dtype("u1"),
    "BOOL": np.dtype("?"),
}
_CODES = {dt.newbyteorder("="): code for code, dt in _DTYPES.items()}
SUPPORTED = ", ".join(_DTYPES)


class UnsafeOrCorruptFileError(ValueError):
    """A file that minigrad refuses to load: not a valid safetensors file, or a pickle.

    One class for every such case (empty, truncated, random bytes, a pickle, a torch.save
    zip file, a header that lies), so a caller has one thing to catch. ``filename`` and
    ``reason`` are kept as attributes; the message names the file and says what is wrong.
    """

    __module__ = "minigrad.serialization"  # its public home, as tracebacks show it

    def __init__(self, filename: str, reason: str) -> None:
        super().__init__(filename, reason)
        self.filename = filename
        self.reason = reason

    def __str__(self) -> str:
        return f"cannot load {self.filename!r}: {self.reason}"


def dtype_code(dtype: np.dtype) -> str:
    """The safetensors name of a numpy dtype; TypeError for one minigrad cannot store."""
    code = _CODES.get(np.dtype(dtype).newbyteorder("="))
    if code is None:
        raise TypeError(f"cannot save dtype {np.dtype(dtype)}; supported: {SUPPORTED}")
    return code


def write(
    path_or_file: str | os.PathLike | BinaryIO,
    arrays: Mapping[str, np.ndarray],
    metadata: Mapping[str, str] | None = None,
) -> None:
    """Write ``arrays`` (and string ``metadata``) as a safetensors file.

    The header lists the tensors in the mapping's order, which the reader gives back. In the
    buffer, tensors with wider items come first (a stable sort), as the reference writer
    does, so each tensor stays aligned to its item size for readers that map the file.
    """
    header: dict[str, object] = {}
    if metadata is not None:
        if not all(isinstance(k, str) and isinstance(v, str) for k, v in metadata.items()):
            raise TypeError("metadata must map str to str")
        header[METADATA_KEY] = dict(metadata)
    flat = {}
    for name, array in arrays.items():
        if not isinstance(name, str) or name == METADATA_KEY:
            raise ValueError(f"invalid tensor name {name!r}")
        if not isinstance(array, np.ndarray):
            raise TypeError(f"{name!r}: expected a numpy array, got {type(array).__name__}")
        code = dtype_code(array.dtype)
        flat[name] = np.ascontiguousarray(array, dtype=_DTYPES[code])
        header[name] = {"dtype": code, "shape": list(array.shape)}
    order = sorted(flat, key=lambda n: -flat[n].itemsize)
    offset = 0
    for name in order:
        header[name]["data_offsets"] = [offset, offset + flat[name].nbytes]
        offset += flat[name].nbytes
    text = json.dumps(header, separators=(",", ":"), allow_nan=False).encode("utf-8")
    text += b" " * (-(len(text) + 8) % 8)  # the buffer starts 8-aligned
    if isinstance(path_or_file, (str, bytes, os.PathLike)):
        with open(path_or_file, "wb") as f:
            _write(f, text, [flat[n] for n in order])
    else:
        _write(path_or_file, text, [flat[n] for n in order])


def _write(f: BinaryIO, text: bytes, arrays: list[np.ndarray]) -> None:
    f.write(struct.pack("<Q", len(text)))
    f.write(text)
    for array in arrays:
        f.write(array.tobytes())


def read(
    path_or_file: str | os.PathLike | BinaryIO,
) -> tuple[dict[str, np.ndarray], dict[str, str]]:
    """Read a safetensors file: (arrays in header order, metadata).

    The arrays are writable copies in native byte order; they share nothing with the file.
    A missing path raises FileNotFoundError; anything wrong inside the file raises
    :class:`UnsafeOrCorruptFileError`.
    """
    __tracebackhide__ = True  # IPython leaves this frame out of a learner's traceback
    name = name_of(path_or_file)
    if isinstance(path_or_file, (str, bytes, os.PathLike)):
        with open(path_or_file, "rb") as f:
            data = f.read()
    else:
        data = path_or_file.read()
        if not isinstance(data, bytes):
            raise TypeError(f"{name}: file must be opened in binary mode ('rb')")
    return parse(data, name)


def name_of(path_or_file: str | os.PathLike | BinaryIO) -> str:
    """How error messages name a file: its path, else the file object's name or repr."""
    if isinstance(path_or_file, (str, bytes, os.PathLike)):
        return os.fsdecode(path_or_file)
    name = getattr(path_or_file, "name", None)
    return name if isinstance(name, str) else repr(path_or_file)


def parse(data: bytes, name: str = "<bytes>") -> tuple[dict[str, np.ndarray], dict[str, str]]:
    """Parse the bytes of a whole safetensors file; ``name`` is used in error messages."""
    try:
        entries, metadata, start = _parse_header(data)
    except _Corrupt as e:
        raise UnsafeOrCorruptFileError(name, _explain(data, str(e))) from None
    arrays = {}
    for key, (dtype, shape, begin, end) in entries.items():
        count = (end - begin) // dtype.itemsize
        view = np.frombuffer(data, dtype=dtype, count=count, offset=start + begin)
        arrays[key] = view.reshape(shape).astype(dtype.newbyteorder("="))  # a copy
    return arrays, metadata


class _Corrupt(Exception):
    """Internal: what is wrong with the file, before the file name is attached."""


def _parse_header(data: bytes) -> tuple[dict, dict[str, str], int]:
    if len(data) == 0:
        raise _Corrupt("the file is empty")
    if len(data) < 8:
        raise _Corrupt(f"the file is {len(data)} bytes long, too short for a header")
    (n,) = struct.unpack_from("<Q", data)
    if n > MAX_HEADER_SIZE:
        raise _Corrupt(f"the header length {n} exceeds the limit of {MAX_HEADER_SIZE} bytes")
    if 8 + n > len(data):
        raise _Corrupt(f"the header length {n} runs past the end of the file (truncated?)")
    if data[8:9] != b"{":
        raise _Corrupt("the header does not start with '{'")
    try:
        header = json.loads(
            data[8 : 8 + n].decode("utf-8"),
            object_pairs_hook=_no_duplicates,
            parse_constant=_no_constants,
        )
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError, _Corrupt) as e:
        raise _Corrupt(f"the header is not valid UTF-8 JSON ({e})") from None
    if not isinstance(header, dict):
        raise _Corrupt("the header is not a JSON object")
    metadata = header.pop(METADATA_KEY, {})
    if not isinstance(metadata, dict) or not all(isinstance(v, str) for v in metadata.values()):
        raise _Corrupt(f"{METADATA_KEY} must map strings to strings")
    entries = {key: _check_entry(key, info) for key, info in header.items()}
    buffer_size = len(data) - 8 - n
    position = 0
    for key, (_, _, begin, end) in sorted(entries.items(), key=lambda kv: kv[1][2:]):
        if begin != position:
            problem = "overlaps another tensor" if begin < position else "leaves a gap before it"
            raise _Corrupt(f"tensor {key!r}: data_offsets [{begin}, {end}] {problem}")
        if end > buffer_size:
            raise _Corrupt(f"tensor {key!r} runs past the end of the file (truncated?)")
        position = end
    if position != buffer_size:
        raise _Corrupt(f"{buffer_size - position} stray byte(s) follow the last tensor")
    return entries, metadata, 8 + n


def _check_entry(key: str, info: object) -> tuple[np.dtype, tuple[int, ...], int, int]:
    if not isinstance(info, dict) or set(info) != _ENTRY_KEYS:
        raise _Corrupt(f"tensor {key!r} must have exactly the keys dtype, shape, data_offsets")
    code, shape, offsets = info["dtype"], info["shape"], info["data_offsets"]
    if not isinstance(code, str):
        raise _Corrupt(f"tensor {key!r}: dtype must be a string")
    if code not in _DTYPES:
        raise _Corrupt(
            f"tensor {key!r} has dtype {code}, which minigrad cannot hold (it reads "
            f"{SUPPORTED}); in PyTorch, convert it first, e.g. with .float()"
        )
    if not isinstance(shape, list) or not all(_is_count(s) for s in shape):
        raise _Corrupt(f"tensor {key!r}: shape must be a list of non-negative integers")
    if not (isinstance(offsets, list) and len(offsets) == 2 and all(map(_is_count, offsets))):
        raise _Corrupt(f"tensor {key!r}: data_offsets must be two non-negative integers")
    begin, end = offsets
    count = 1
    for s in shape:
        count *= s
    dtype = _DTYPES[code]
    if end < begin or end - begin != count * dtype.itemsize:
        raise _Corrupt(
            f"tensor {key!r}: data_offsets [{begin}, {end}] hold {end - begin} bytes, but "
            f"{code} of shape {shape} needs {count * dtype.itemsize}"
        )
    return dtype, tuple(shape), begin, end


def _is_count(x: object) -> bool:
    return type(x) is int and x >= 0


def _no_duplicates(pairs: list[tuple[str, object]]) -> dict:
    result = dict(pairs)
    if len(result) != len(pairs):
        seen = set()
        duplicate = next(k for k, _ in pairs if k in seen or seen.add(k))
        raise _Corrupt(f"duplicate key {duplicate!r}")
    return result


def _no_constants(name: str) -> None:
    raise _Corrupt(f"{name} is not valid JSON")


def _explain(data: bytes, problem: str) -> str:
    """Say what the file most likely is, so a learner with a PyTorch file knows what to do."""
    convert = (
        " minigrad never unpickles, because unpickling a file can run any code in it. "
        "To convert a PyTorch model, run in PyTorch: from safetensors.torch import save_file; "
        'save_file(model.state_dict(), "model.safetensors"), then minigrad.load that file.'
    )
    if data[:4] == b"PK\x03\x04":
        return "it is a zip archive, as torch.save writes (a pickle inside)." + convert
    if _looks_like_pickle(data):
        return "it is a Python pickle (as torch.save or pickle.dump write)." + convert
    return f"not a safetensors file: {problem}"


def _looks_like_pickle(data: bytes) -> bool:
    """Protocol 2+ pickles start with PROTO (0x80, version); 0 and 1 end with STOP ('.')."""
    if len(data) >= 2 and data[0] == 0x80:
        return 2 <= data[1] <= 5
    return data.rstrip(b"\n")[-1:] == b"." and data[:1] in _PICKLE_OPENERS


_PICKLE_OPENERS = {bytes([c]) for c in b"(}]NIJKLFGSTUVXBCcM\x88\x89)"}
