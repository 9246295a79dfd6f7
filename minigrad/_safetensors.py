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

The reader trusts nothing in the file: the header is checked (``_safetensors_header``) before
anything is allocated, every size is compared with the file's, reads stop at what the header
declares (``_bounded_source``: an endless stream such as ``/dev/zero`` cannot keep it reading),
and each tensor's bytes go straight into its own new array, so memory stays about the file's
size. Any problem raises :class:`UnsafeOrCorruptFileError` naming the file. The format has no
checksum: a changed byte inside a tensor's data loads as a different value.
"""

from __future__ import annotations

import io
import json
import os
import struct
from collections.abc import Mapping
from typing import BinaryIO

import numpy as np

from ._bounded_source import BoundedSource, name_of
from ._foreign_dtypes import FOREIGN
from ._foreign_dtypes import upcast as upcast_array
from ._safetensors_header import MAX_HEADER_SIZE, METADATA_KEY, Corrupt, Entry, Header, parse_header

__all__ = ["UnsafeOrCorruptFileError", "read", "write", "parse", "name_of", "dtype_code"]


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
_BITS = {code: dt.itemsize * 8 for code, dt in _DTYPES.items()} | {
    code: f.bits for code, f in FOREIGN.items()
}


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
    for array in arrays:  # C-contiguous little-endian: its memory is the file's bytes
        if array.size:
            f.write(array.reshape(-1).view(np.uint8).data)


def read(
    path_or_file: str | os.PathLike | BinaryIO, *, upcast: bool = False
) -> tuple[dict[str, np.ndarray], dict[str, str]]:
    """Read a safetensors file: (arrays in header order, metadata).

    Each array is a new, writable array in native byte order that owns its memory; nothing is
    shared with the file, and at most the file's size is allocated. Reads never go past what
    the header declares, so an endless stream (``/dev/zero``, a pipe) ends with an error.
    A missing path raises FileNotFoundError and a folder IsADirectoryError, as ``open`` does;
    anything wrong inside the file raises :class:`UnsafeOrCorruptFileError`, and so does a
    dtype minigrad has no type for, unless ``upcast`` converts it exactly (``_foreign_dtypes``).
    """
    __tracebackhide__ = True  # IPython leaves this frame out of a learner's traceback
    name = name_of(path_or_file)
    with BoundedSource(path_or_file, name) as source:
        head = b""
        try:
            head = source.read(8)
            header, start = _read_header(source, head)
        except Corrupt as e:
            raise UnsafeOrCorruptFileError(name, _explain(head, source.tail(), str(e))) from None
        _check_dtypes(header, name, upcast)
        arrays = {}
        for key, (code, shape, begin, end) in sorted(header.entries.items(), key=_by_offset):
            try:
                arrays[key] = _read_array(source, code, shape, end - begin)
            except Corrupt as e:
                problem = f"not a safetensors file: tensor {key!r} {e}"
                raise UnsafeOrCorruptFileError(name, problem) from None
            except ValueError as e:  # an upcast that cannot be exact
                raise UnsafeOrCorruptFileError(name, f"tensor {key!r}: {e}") from None
        if source.size is None and source.read(1):
            raise UnsafeOrCorruptFileError(
                name, "not a safetensors file: stray bytes follow the last tensor"
            )
    return {key: arrays[key] for key in header.entries}, header.metadata


def _by_offset(item: tuple[str, Entry]) -> tuple[int, int]:
    return item[1][2], item[1][3]


def _read_header(source: BoundedSource, head: bytes) -> tuple[Header, int]:
    if len(head) == 0:
        raise Corrupt("the file is empty")
    if len(head) < 8:
        raise Corrupt(f"the file is {len(head)} bytes long, too short for a header")
    (n,) = struct.unpack("<Q", head)
    if n > MAX_HEADER_SIZE:
        raise Corrupt(f"the header length {n} exceeds the limit of {MAX_HEADER_SIZE} bytes")
    past_the_end = f"the header length {n} runs past the end of the file (truncated?)"
    if source.size is not None and 8 + n > source.size:
        raise Corrupt(past_the_end)
    text = source.read(n)
    if len(text) < n:
        raise Corrupt(past_the_end)
    header = parse_header(text, _BITS)
    if source.size is not None:  # a file of known size: check it all before allocating
        available = source.size - 8 - n
        for key, (_, _, _, end) in sorted(header.entries.items(), key=_by_offset):
            if end > available:
                raise Corrupt(f"tensor {key!r} runs past the end of the file (truncated?)")
        if available > header.buffer_size:
            stray = available - header.buffer_size
            raise Corrupt(f"{stray} stray byte(s) follow the last tensor")
    return header, 8 + n


def _check_dtypes(header: Header, name: str, upcast: bool) -> None:
    for key, (code, shape, _, _) in header.entries.items():
        foreign = FOREIGN.get(code)
        if foreign is None:
            continue
        if foreign.decode is None:
            how = (
                "minigrad has no type that holds it exactly; convert it in PyTorch first "
                "(e.g. with .float()) and save again"
            )
        elif not upcast:
            how = (
                f"load it as {foreign.target} (exactly) with minigrad.load(path, upcast=True), "
                "or convert it in PyTorch first (e.g. with .float())"
            )
        else:
            continue
        raise UnsafeOrCorruptFileError(
            name,
            f"{code} is not supported by minigrad: tensor {key!r} (shape {list(shape)}) is "
            f"{foreign.description}; {how}",
        )


def _read_array(
    source: BoundedSource, code: str, shape: tuple[int, ...], nbytes: int
) -> np.ndarray:
    """The tensor's bytes, read straight into a new array of the right type and shape."""
    dtype = _DTYPES.get(code)
    try:
        array = np.empty(shape if dtype is not None else (nbytes,), dtype or np.uint8)
    except MemoryError:  # only a stream's size is unknown beforehand
        raise Corrupt(f"declares {nbytes} bytes, more than this machine can allocate") from None
    if nbytes and source.readinto(array.reshape(-1).view(np.uint8)) < nbytes:
        raise Corrupt("runs past the end of the file (truncated?)")
    if dtype is None:
        return upcast_array(code, array, shape)
    if code == "BOOL":  # any nonzero byte is True, as in PyTorch; numpy needs exactly 1
        raw = array.reshape(-1).view(np.uint8)
        np.minimum(raw, 1, out=raw)
    if not dtype.isnative:
        array = array.byteswap(inplace=True).view(dtype.newbyteorder("="))
    return array


def parse(data: bytes, name: str = "<bytes>") -> tuple[dict[str, np.ndarray], dict[str, str]]:
    """Parse the bytes of a whole safetensors file; ``name`` is used in error messages."""
    source = io.BytesIO(data)
    source.name = name
    return read(source)


def _explain(head: bytes, tail: bytes, problem: str) -> str:
    """Say what the file most likely is, so a learner with a PyTorch file knows what to do.

    ``head`` is the file's first bytes, ``tail`` its last ones (empty when unknown).
    """
    convert = (
        " minigrad never unpickles, because unpickling a file can run any code in it. "
        "To convert a PyTorch model, run in PyTorch: from safetensors.torch import save_file; "
        'save_file(model.state_dict(), "model.safetensors"), then minigrad.load that file.'
    )
    if head[:4] == b"PK\x03\x04":
        return "it is a zip archive, as torch.save writes (a pickle inside)." + convert
    if _looks_like_pickle(head, tail):
        return "it is a Python pickle (as torch.save or pickle.dump write)." + convert
    return f"not a safetensors file: {problem}"


def _looks_like_pickle(head: bytes, tail: bytes) -> bool:
    """Protocol 2+ pickles start with PROTO (0x80, version); 0 and 1 end with STOP ('.')."""
    if len(head) >= 2 and head[0] == 0x80:
        return 2 <= head[1] <= 5
    return tail.rstrip(b"\n")[-1:] == b"." and head[:1] in _PICKLE_OPENERS


_PICKLE_OPENERS = {bytes([c]) for c in b"(}]NIJKLFGSTUVXBCcM\x88\x89)"}
