"""Fuzzing ``minigrad.load``: whatever the bytes, only the contract's exception comes out.

Hypothesis builds headers from a grammar (near-valid entries, any JSON values, huge and
negative numbers, every dtype name, metadata, checkpoint structures), mutates valid files
(flipped, cut and inserted bytes, a rewritten header length) and throws random bytes. Each
case must load or raise UnsafeOrCorruptFileError; any other exception fails the test, and
Hypothesis shrinks it to a small reproducer. The bracket scanner under the header check is
compared with a plain Python reference on random JSON-like text, across chunk boundaries.
"""

from __future__ import annotations

import io
import json
import os
import struct
import tempfile
from collections import OrderedDict

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

import minigrad
from minigrad import _json_scan
from minigrad._safetensors import UnsafeOrCorruptFileError

CODES = [
    "F64",
    "F32",
    "F16",
    "BF16",
    "I64",
    "I32",
    "I16",
    "I8",
    "U8",
    "U16",
    "U32",
    "U64",
    "BOOL",
    "F8_E4M3",
    "F8_E5M2",
    "F8_E8M0",
    "C64",
    "F4",
    "F6_E2M3",
    "f32",
    "",
    "X" * 50,
]
FUZZ = settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _load_keeps_the_contract(data: bytes, upcast: bool = False, via_path: bool = False):
    try:
        if via_path:
            with tempfile.TemporaryDirectory() as folder:
                path = os.path.join(folder, "f.safetensors")
                with open(path, "wb") as f:
                    f.write(data)
                return minigrad.load(path, upcast=upcast)
        return minigrad.load(io.BytesIO(data), upcast=upcast)
    except UnsafeOrCorruptFileError as e:
        assert str(e).startswith("cannot load ")
        return e


def _file(header_text: bytes, buffer: bytes, declared: int | None = None) -> bytes:
    n = len(header_text) if declared is None else declared
    return struct.pack("<Q", n) + header_text + buffer


# -- headers from a grammar --------------------------------------------------------------------

_counts = hs.one_of(
    hs.integers(0, 8), hs.integers(-3, 2**70), hs.sampled_from([2**63, 2**64 - 1, 2**64])
)
_json_leaf = hs.one_of(
    hs.none(), hs.booleans(), _counts, hs.floats(allow_nan=False), hs.text(max_size=6)
)
_json = hs.recursive(
    _json_leaf,
    lambda c: hs.lists(c, max_size=4) | hs.dictionaries(hs.text(max_size=4), c, max_size=4),
    max_leaves=12,
)
_entry = hs.fixed_dictionaries(
    {
        "dtype": hs.sampled_from(CODES) | _json,
        "shape": hs.lists(_counts, max_size=4) | _json,
        "data_offsets": hs.lists(_counts, min_size=2, max_size=2) | _json,
    },
    optional={"extra": _json},
)
_metadata = hs.dictionaries(hs.text(max_size=6), hs.text(max_size=6) | _json, max_size=3)


@FUZZ
@given(
    entries=hs.dictionaries(hs.text(max_size=5), _entry | _json, max_size=4),
    metadata=hs.none() | _metadata,
    buffer=hs.binary(max_size=96),
    pad=hs.integers(0, 9),
    upcast=hs.booleans(),
)
def test_headers_from_a_grammar_keep_the_contract(entries, metadata, buffer, pad, upcast):
    header = dict(entries)
    if metadata is not None:
        header["__metadata__"] = metadata
    text = json.dumps(header).encode() + b" " * pad
    result = _load_keeps_the_contract(_file(text, buffer), upcast)
    if isinstance(result, OrderedDict):
        assert all(isinstance(t, minigrad.Tensor) for t in result.values())


@FUZZ
@given(
    offsets=hs.lists(
        hs.tuples(hs.sampled_from(CODES[:16]), hs.lists(hs.integers(0, 3), max_size=3)), max_size=4
    ),
    upcast=hs.booleans(),
    data=hs.data(),
)
def test_near_valid_files_load_exactly_or_are_refused(offsets, upcast, data):
    """Consistent offsets (maybe nudged by one): what loads has the declared dtypes and shapes."""
    header, position = {}, 0
    widths = {
        "F64": 8,
        "F32": 4,
        "F16": 2,
        "BF16": 2,
        "I64": 8,
        "I32": 4,
        "I16": 2,
        "I8": 1,
        "U8": 1,
        "U16": 2,
        "U32": 4,
        "U64": 8,
        "BOOL": 1,
    }
    for i, (code, shape) in enumerate(offsets):
        nbytes = int(np.prod(shape)) * widths.get(code, 1)
        nudge = data.draw(hs.sampled_from([0, 0, 0, 1, -1]))
        header[f"t{i}"] = {
            "dtype": code,
            "shape": shape,
            "data_offsets": [position, max(position + nbytes + nudge, 0)],
        }
        position += nbytes
    buffer = data.draw(hs.binary(min_size=position, max_size=position + 2))
    text = json.dumps(header).encode()
    result = _load_keeps_the_contract(_file(text, buffer), upcast, data.draw(hs.booleans()))
    if isinstance(result, OrderedDict):
        for key, tensor in result.items():
            assert tuple(tensor.shape) == tuple(header[key]["shape"])


# -- mutations of valid files ------------------------------------------------------------------


def _valid_files() -> list[bytes]:
    files = []
    for obj in (
        OrderedDict(w=minigrad.arange(6.0).reshape(2, 3), b=minigrad.tensor([True, False])),
        {
            "model": {"w": minigrad.ones(2, requires_grad=True)},
            "epoch": 3,
            "lr": [0.1, (1, "x")],
            "p": minigrad.nn.Parameter(minigrad.zeros(1)),
            "size": minigrad.Size([2]),
            "dtype": minigrad.float16,
            "n": np.int64(4),
            "inf": float("inf"),
        },
    ):
        f = io.BytesIO()
        minigrad.save(obj, f)
        files.append(f.getvalue())
    bf16 = {
        "__metadata__": {"format": "pt"},
        "h": {"dtype": "BF16", "shape": [2], "data_offsets": [0, 4]},
    }
    files.append(_file(json.dumps(bf16).encode(), b"\x80\x3f\x00\xc0"))
    return files


VALID = _valid_files()


@FUZZ
@given(which=hs.sampled_from(range(len(VALID))), data=hs.data(), upcast=hs.booleans())
def test_mutated_valid_files_keep_the_contract(which, data, upcast):
    raw = bytearray(VALID[which])
    for _ in range(data.draw(hs.integers(1, 6))):
        if not raw:
            break
        i = data.draw(hs.integers(0, len(raw) - 1))
        action = data.draw(hs.sampled_from(["set", "cut", "insert", "length"]))
        if action == "set":
            raw[i] = data.draw(hs.integers(0, 255))
        elif action == "cut":
            del raw[i : i + data.draw(hs.integers(1, 16))]
        elif action == "insert":
            raw[i:i] = data.draw(hs.binary(min_size=1, max_size=8))
        elif len(raw) >= 8:
            raw[:8] = struct.pack("<Q", data.draw(hs.integers(0, 2**64 - 1)))
    _load_keeps_the_contract(bytes(raw), upcast, data.draw(hs.booleans()))


@FUZZ
@given(hs.binary(max_size=200))
def test_random_bytes_keep_the_contract(raw):
    _load_keeps_the_contract(raw)


_node = hs.recursive(
    _json_leaf | hs.just({"tensor": "w"}) | hs.just({"float": "nan"}),
    lambda c: (
        hs.lists(c, max_size=3)
        | hs.builds(lambda xs: {"tuple": xs}, hs.lists(c, max_size=3))
        | hs.builds(
            lambda kv: {"dict": kv},
            hs.lists(hs.tuples(hs.text(max_size=3) | hs.integers(), c).map(list), max_size=3),
        )
        | hs.builds(
            lambda v, k: {k: v},
            c,
            hs.sampled_from(["size", "dtype", "device", "numpy", "parameter", "odict", "tensor"]),
        )
        | hs.dictionaries(hs.text(max_size=4), c, max_size=2)
    ),
    max_leaves=10,
)


@FUZZ
@given(node=_node, version=hs.sampled_from([1, 1, 1, 2, "1", None]), extra=hs.booleans())
def test_checkpoint_structures_keep_the_contract(node, version, extra):
    document = {"version": version, "object": node}
    if extra:
        document["more"] = 1
    header = {
        "__metadata__": {"minigrad.object": json.dumps(document)},
        "w": {"dtype": "F32", "shape": [1], "data_offsets": [0, 4]},
    }
    _load_keeps_the_contract(_file(json.dumps(header).encode(), bytes(4)))


# -- the bracket scanner against a reference ---------------------------------------------------


def _reference(text: bytes) -> tuple[list[int], list[int]]:
    """The structural bytes outside strings and the depth after each, one byte at a time.

    A quote after an odd run of backslashes is escaped. Outside a string a backslash is not
    JSON at all (``json.loads`` stops there), and the rule is kept the same for simplicity.
    """
    chars, depths, depth, in_string, run = [], [], 0, False, 0
    for b in text:
        if b == ord('"') and run % 2 == 0:
            in_string = not in_string
        elif not in_string and chr(b) in "{}[],:":
            depth += {"{": 1, "[": 1, "}": -1, "]": -1}.get(chr(b), 0)
            chars.append(b)
            depths.append(depth)
        run = run + 1 if b == ord("\\") else 0
    return chars, depths


@settings(max_examples=400, deadline=None)
@given(
    text=hs.lists(hs.sampled_from(list(b'{}[],:"\\\\ a1')), max_size=120).map(bytes),
    chunk=hs.integers(1, 9),
)
def test_the_bracket_scanner_agrees_with_a_reference(text, chunk):
    real = _json_scan._CHUNK
    _json_scan._CHUNK = chunk
    try:
        found = list(_json_scan.chunks(text))
    finally:
        _json_scan._CHUNK = real
    chars = [int(c) for part in found for c in part.char]
    depths = [int(d) for part in found for d in part.depth]
    assert (chars, depths) == _reference(text)


@pytest.mark.parametrize("text", [b'"\\\\"[', b'"\\"[', b'\\"[', b'"a\\\\\\"b"[', b"[\\\\]"])
def test_scanner_edge_cases_of_escapes(text):
    _json_scan_chars = [int(c) for part in _json_scan.chunks(text) for c in part.char]
    assert _json_scan_chars == _reference(text)[0]
