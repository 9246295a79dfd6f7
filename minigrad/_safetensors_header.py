"""Reading a safetensors header without trusting it: bounded in time and memory for any bytes.

The header is JSON of a fixed shape: an object of tensor entries
(``{"dtype": "F32", "shape": [2, 3], "data_offsets": [0, 24]}``) and an optional
``__metadata__`` object of strings. Parsing arbitrary JSON with ``json.loads`` would build
whatever a hostile file describes (millions of empty objects from a few megabytes, integers of
millions of digits that take minutes to convert) before anything could be checked. So:

1. a cheap scan (``_json_scan``: numpy, no Python object per value) refuses anything nested
   deeper than that fixed shape, lists longer than a shape can be (64 dimensions, numpy's
   limit) and metadata of more than 100,000 keys, before ``json.loads`` runs;
2. ``json.loads`` then checks each entry the moment it is parsed (``object_pairs_hook``), so the
   first wrong object stops it; integers longer than a 64-bit count (20 digits) and any float
   or NaN are refused before Python converts them;
3. every count is checked before it is used: the element count against the bytes the entry
   claims, an empty tensor's other dimensions against numpy's largest array, and the entries'
   offsets must tile the buffer exactly, without gaps or overlaps.
"""

from __future__ import annotations

import gc
import json
import sys
from collections.abc import Mapping

import numpy as np

from ._json_scan import Chunk, chunks

__all__ = ["Corrupt", "Header", "parse_header", "MAX_HEADER_SIZE", "MAX_DIMS", "METADATA_KEY"]

MAX_HEADER_SIZE = 100_000_000  # the specification's cap on the header length
MAX_DIMS = 64  # numpy's limit on the number of dimensions
MAX_METADATA_KEYS = 100_000
METADATA_KEY = "__metadata__"
_ENTRY_KEYS = {"dtype", "shape", "data_offsets"}
_MAX_DIGITS = 20  # 2**64 - 1 has 20 digits


class Corrupt(Exception):
    """What is wrong with the file, before the file's name is attached."""


class Entry(tuple):
    """A checked tensor entry: (dtype code, shape, begin, end), offsets relative to the buffer."""

    __slots__ = ()


class Header:
    """The parsed header: entries by name (in the file's order), metadata, buffer size."""

    __slots__ = ("entries", "metadata", "buffer_size")

    def __init__(self, entries: dict[str, Entry], metadata: dict[str, str], size: int) -> None:
        self.entries = entries
        self.metadata = metadata
        self.buffer_size = size


def parse_header(raw: bytes | memoryview, bits: Mapping[str, int]) -> Header:
    """Check and parse the header bytes; ``bits`` gives each known dtype's width in bits."""
    if bytes(raw[:1]) != b"{":
        raise Corrupt("the header does not start with '{'")
    _check_skeleton(raw)
    try:
        text = str(raw, "utf-8")
    except UnicodeDecodeError as e:
        raise Corrupt(f"the header is not valid UTF-8 ({e})") from None
    hook = _ObjectHook(bits)
    collecting = gc.isenabled()
    gc.disable()  # a header of a million entries makes no cycles, but would trigger many passes
    try:
        header = json.loads(
            text,
            object_pairs_hook=hook,
            parse_int=_bounded_int,
            parse_float=_no_float,
            parse_constant=_no_float,
        )
    except (json.JSONDecodeError, RecursionError) as e:
        raise Corrupt(f"the header is not valid JSON ({e})") from None
    finally:
        if collecting:
            gc.enable()
    if not isinstance(header, dict):
        raise Corrupt("the header is not a JSON object")
    metadata = header.pop(METADATA_KEY, {})
    if not isinstance(metadata, dict) or not all(isinstance(v, str) for v in metadata.values()):
        raise Corrupt(f"{METADATA_KEY} must map strings to strings")
    for key, entry in header.items():
        if not isinstance(entry, Entry):
            raise Corrupt(f"tensor {key!r} must have exactly the keys dtype, shape, data_offsets")
    position = 0
    for key, (_, _, begin, end) in sorted(header.items(), key=lambda kv: kv[1][2:]):
        if begin != position:
            problem = "overlaps another tensor" if begin < position else "leaves a gap before it"
            raise Corrupt(f"tensor {key!r}: data_offsets [{begin}, {end}] {problem}")
        position = end
    return Header(header, metadata, position)


def _check_skeleton(raw: bytes | memoryview) -> None:
    """Refuse, without building any JSON value, what cannot be a safetensors header.

    Depth 1 is the header object, depth 2 the entries (and the metadata), depth 3 the lists.
    """
    list_items = object_keys = 0  # the separators counted so far in the open list, object
    for chunk in chunks(raw):
        depth = chunk.depth
        if len(depth) == 0:  # a chunk inside one string or number
            continue
        if depth.min() < 0:
            raise Corrupt("the header's brackets do not match")
        lists = chunk.char == ord("[")
        objects = chunk.opens & ~lists
        if depth.max() > 3 or (lists & (depth != 3)).any() or (objects & (depth == 3)).any():
            raise Corrupt(
                "the header is nested deeper than a safetensors header "
                "(an object of tensor entries, each with two lists of integers)"
            )
        list_items = _count(chunk, ",", 3, lists, list_items, MAX_DIMS - 1)
        object_keys = _count(chunk, ":", 2, objects & (depth == 2), object_keys, MAX_METADATA_KEYS)


def _count(chunk: Chunk, separator: str, depth: int, opens, carried: int, limit: int) -> int:
    """Check the separators per container at ``depth``; the count carried to the next chunk."""
    container = np.cumsum(opens)  # 0: the container still open from the previous chunk
    at = (chunk.char == ord(separator)) & (chunk.depth == depth)
    counts = np.bincount(container[at], minlength=int(container[-1]) + 1)
    counts[0] += carried
    if counts.max() > limit:
        what = f"a list of more than {MAX_DIMS} items"
        if separator == ":":
            what = f"an object of more than {MAX_METADATA_KEYS} keys"
        raise Corrupt(f"the header holds {what}")
    return int(counts[-1]) if chunk.depth[-1] >= depth else 0


class _ObjectHook:
    """Called by ``json.loads`` for every object, innermost first: checks it at once.

    Entries become :class:`Entry` tuples. An object of strings is the metadata (or the whole
    header when it holds no tensors); more than two such objects cannot be a header. The object
    holding entries is the header itself.
    """

    def __init__(self, bits: Mapping[str, int]) -> None:
        self.bits = bits
        self.plain = 0

    def __call__(self, pairs: list[tuple[str, object]]) -> object:
        result = dict(pairs)
        if (
            len(pairs) == len(result) == 3
            and type(result.get("shape")) is list
            and result.keys() == _ENTRY_KEYS
            and type(result["dtype"]) is str
        ):
            return _entry(result, self.bits)
        if len(result) != len(pairs):
            seen: set[str] = set()
            duplicate = next(k for k, _ in pairs if k in seen or seen.add(k))
            raise Corrupt(f"duplicate key {duplicate!r}")
        values = result.values()
        if all(isinstance(v, str) for v in values):
            self.plain += 1
            if self.plain > 2:
                raise Corrupt("the header holds an object that is not a tensor entry")
            return result
        if result.keys() == _ENTRY_KEYS and not isinstance(result["dtype"], (Entry, dict)):
            return _entry(result, self.bits)  # an entry with a wrong dtype: say what is wrong
        if all(isinstance(v, (Entry, dict)) for v in values):
            return result
        raise Corrupt("the header holds an object that is not a tensor entry")


def _entry(info: dict, bits: Mapping[str, int]) -> Entry:
    code, shape, offsets = info["dtype"], info["shape"], info["data_offsets"]
    if not isinstance(code, str):
        raise Corrupt(f"a tensor's dtype must be a string, not {code!r}")
    if code not in bits:
        raise Corrupt(f"unknown dtype {code[:40]!r}")
    if not isinstance(shape, list) or not all(_is_count(s) for s in shape):
        raise Corrupt(f"a tensor's shape must be a list of non-negative integers, not {shape!r}")
    if not (isinstance(offsets, list) and len(offsets) == 2 and all(map(_is_count, offsets))):
        raise Corrupt(f"data_offsets must be two non-negative integers, not {offsets!r}")
    begin, end = offsets
    count = 1
    for s in shape:
        count *= s
    nbits = count * bits[code]
    if end < begin or nbits != (end - begin) * 8:
        needs = f"{nbits // 8}" if nbits % 8 == 0 else f"{nbits / 8}"
        raise Corrupt(
            f"data_offsets [{begin}, {end}] hold {end - begin} bytes, but {code} of shape "
            f"{shape} needs {needs}"
        )
    if count == 0:  # numpy still needs the other dimensions' product to be an array size
        product = 1
        for s in shape:
            product *= max(s, 1)
        if product * max(bits[code] // 8, 1) > sys.maxsize:
            raise Corrupt(f"the empty shape {shape} is larger than any array can be")
    return Entry((code, tuple(shape), begin, end))


def _is_count(x: object) -> bool:
    return type(x) is int and x >= 0


def _bounded_int(digits: str) -> int:
    if len(digits) > _MAX_DIGITS:
        raise Corrupt(f"an integer of {len(digits)} digits is larger than any size")
    return int(digits)


def _no_float(text: str) -> None:
    raise Corrupt(f"{text[:40]} is not an integer; a header holds only integers and strings")
