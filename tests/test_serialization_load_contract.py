"""``minigrad.load`` keeps its contract for any bytes (issue 10).

Whatever a file holds, load returns or raises UnsafeOrCorruptFileError; only the operating
system's own errors about the path (FileNotFoundError, IsADirectoryError) come out otherwise.
Every limit is checked before anything is allocated, reads stop at what the header declares,
and memory stays close to the file's size. Memory is measured with tracemalloc (numpy reports
its allocations to it), never with a clock.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import struct
import subprocess
import sys
import threading
import tracemalloc
from collections import OrderedDict

import numpy as np
import pytest

import minigrad
from minigrad import _safetensors as st
from minigrad._safetensors import UnsafeOrCorruptFileError

posix_only = pytest.mark.skipif(os.name != "posix", reason="FIFOs and /dev/zero are POSIX")


def _file(header: dict | bytes, buffer: bytes = b"") -> bytes:
    text = header if isinstance(header, bytes) else json.dumps(header).encode()
    text += b" " * (-len(text) % 8)
    return struct.pack("<Q", len(text)) + text + buffer


def _refused(data: bytes, tmp_path, *words: str) -> str:
    path = tmp_path / "bad.safetensors"
    path.write_bytes(data)
    with pytest.raises(UnsafeOrCorruptFileError) as info:
        minigrad.load(path)
    message = str(info.value)
    assert str(path) in message
    for word in words:
        assert word in message, message
    return message


def _entry(dtype: str, shape: list, begin: int, end: int) -> dict:
    return {"dtype": dtype, "shape": shape, "data_offsets": [begin, end]}


# -- reads bounded by the declared size ------------------------------------------------------


@posix_only
def test_dev_zero_ends_at_once_with_the_clear_error():
    """Run in a child with a generous guard: a reader that reads to EOF would never return."""
    code = (
        "import minigrad\n"
        "try:\n    minigrad.load('/dev/zero')\n"
        "except minigrad.serialization.UnsafeOrCorruptFileError as e:\n    print(e)\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=300, env=env
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("cannot load '/dev/zero': not a safetensors file: the header")


@posix_only
def test_a_fifo_without_a_writer_is_an_empty_file(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(UnsafeOrCorruptFileError, match="the file is empty"):
        minigrad.load(fifo)


@contextlib.contextmanager
def _fifo_with_writer(path, data: bytes, endless: bytes = b""):
    """A FIFO whose writer is connected before the test reads it (no timing involved).

    A reader opened first (and kept, unread) lets the writer's blocking open return; once it
    has, load finds a writer. Closing that reader at the end ends an endless writer (EPIPE).
    """
    os.mkfifo(path)
    keeper = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    connected = threading.Event()

    def run():
        try:
            with open(path, "wb", buffering=0) as f:
                connected.set()
                f.write(data)
                while endless:
                    f.write(endless)
        except BrokenPipeError:
            pass

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    connected.wait()
    try:
        yield path
    finally:
        os.close(keeper)
        thread.join()


@posix_only
def test_a_fifo_carrying_a_valid_file_loads(tmp_path):
    buffer = io.BytesIO()
    minigrad.save(OrderedDict(w=minigrad.arange(6.0).reshape(2, 3)), buffer)
    with _fifo_with_writer(tmp_path / "pipe", buffer.getvalue()) as fifo:
        out = minigrad.load(fifo)
    assert out["w"].tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]


@posix_only
@pytest.mark.parametrize("endless", [b"\x00", b"garbage"])
def test_a_fifo_that_never_ends_stops_at_the_declared_size(tmp_path, endless):
    data = _file({"w": _entry("F32", [2], 0, 8)}, bytes(8))
    with _fifo_with_writer(tmp_path / "pipe", data, endless) as fifo:
        with pytest.raises(UnsafeOrCorruptFileError, match="stray bytes follow the last tensor"):
            minigrad.load(fifo)


@posix_only
def test_a_fifo_declaring_more_than_it_sends(tmp_path):
    data = _file({"w": _entry("F32", [4], 0, 16)}, bytes(8))
    with _fifo_with_writer(tmp_path / "pipe", data) as fifo:
        with pytest.raises(UnsafeOrCorruptFileError, match="'w' runs past the end of the file"):
            minigrad.load(fifo)


def test_a_folder_raises_is_a_directory_as_open_and_torch_do(tmp_path):
    with pytest.raises(IsADirectoryError) as info:
        minigrad.load(tmp_path)
    assert str(info.value) == f"[Errno 21] Is a directory: {str(tmp_path)!r}"


@pytest.mark.parity
def test_a_folder_error_is_pytorchs(tmp_path, torch):
    with pytest.raises(IsADirectoryError) as theirs:
        torch.load(tmp_path)
    with pytest.raises(IsADirectoryError) as ours:
        minigrad.load(tmp_path)
    assert str(ours.value) == str(theirs.value)


def test_a_file_object_is_read_no_further_than_the_file(tmp_path):
    data = _file({"w": _entry("U8", [3], 0, 3)}, b"abc")
    f = io.BytesIO(data + b"next")
    with pytest.raises(UnsafeOrCorruptFileError, match="4 stray byte"):
        minigrad.load(f)


# -- limits checked before allocating ---------------------------------------------------------


def test_64_dimensions_load_and_65_are_refused(tmp_path):
    ok = _file({"w": _entry("F32", [1] * 64, 0, 4)}, bytes(4))
    assert minigrad.load(io.BytesIO(ok))["w"].shape == (1,) * 64
    _refused(_file({"w": _entry("F32", [1] * 65, 0, 4)}, bytes(4)), tmp_path, "more than 64")


@pytest.mark.parametrize("shape", [[0, 2**62], [2**40, 0, 2**40], [0, 2**64 - 1]])
def test_an_empty_tensor_with_huge_dimensions_is_refused(tmp_path, shape):
    _refused(_file({"w": _entry("F64", shape, 0, 0)}), tmp_path, "larger than any array")


def test_an_empty_tensor_with_a_large_dimension_loads():
    out = minigrad.load(io.BytesIO(_file({"w": _entry("F32", [0, 2**40], 0, 0)})))
    assert tuple(out["w"].shape) == (0, 2**40)


@pytest.mark.parametrize(
    "number, word",
    [
        ("1" * 5000, "5000 digits"),
        ("18446744073709551616" + "0", "21 digits"),
        ("1.0", "not an integer"),
        ("1e999", "not an integer"),
        ("NaN", "not an integer"),
        ("-Infinity", "not an integer"),
    ],
)
def test_numbers_in_a_header_are_bounded(tmp_path, number, word):
    header = b'{"w": {"dtype": "U8", "shape": [' + number.encode() + b'], "data_offsets": [0, 1]}}'
    _refused(_file(header, bytes(1)), tmp_path, word)


def test_numbers_in_a_checkpoint_structure_are_bounded(tmp_path):
    structure = '{"version": 1, "object": [' + "7" * 5000 + "]}"
    path = tmp_path / "ck"
    st.write(path, {}, {minigrad.serialization.STRUCTURE_KEY: structure})
    with pytest.raises(UnsafeOrCorruptFileError, match="more than 4300 digits"):
        minigrad.load(path)


@pytest.mark.parametrize(
    "header, word",
    [
        (b"{" + b'"a":' * 1 + b"[" * 50_000 + b"]" * 50_000 + b"}", "nested deeper"),
        (b'{"a": {"b": {"c": {}}}}', "nested deeper"),
        (b'{"a": [{"dtype": "F32"}]}', "nested deeper"),
        (b'{"a": {"dtype": "F32", "shape": [[1]], "data_offsets": [0, 4]}}', "nested deeper"),
        (b'{"a": 1}]]]', "brackets do not match"),
        (b'{"x": {' + b",".join(b'"%d": ""' % i for i in range(100_001)) + b"}}", "100000 keys"),
        (b'{"a": {}, "b": {}, "c": {}}', "not a tensor entry"),
        (b'{"a": "\\"[[[[[[[[[[[[[[["}', "must have exactly the keys"),
    ],
)
def test_shapes_no_header_can_have(tmp_path, header, word):
    _refused(_file(header), tmp_path, word)


def test_brackets_inside_strings_and_escapes_are_not_structure():
    names = ['a"[[[[', "b\\", 'c\\"{{{{', "d\\\\"]
    buffer = io.BytesIO()
    minigrad.save(OrderedDict((n, minigrad.ones(1)) for n in names), buffer)
    assert list(minigrad.load(io.BytesIO(buffer.getvalue()))) == names


def test_bool_bytes_other_than_zero_and_one_are_true():
    out = minigrad.load(io.BytesIO(_file({"b": _entry("BOOL", [4], 0, 4)}, b"\x00\x01\x02\xff")))
    assert out["b"].tolist() == [False, True, True, True]
    assert out["b"].numpy().view(np.uint8).tolist() == [0, 1, 1, 1]
    assert (out["b"] == minigrad.tensor([False, True, True, True])).all().item()


def test_metadata_of_many_keys_within_the_limit_is_fine():
    metadata = {f"k{i}": "[{" * 3 for i in range(1000)}
    out, got = st.parse(_file({"__metadata__": metadata}))
    assert got == metadata


# -- bounded memory, for hostile headers and for real files -----------------------------------


def _peak_of_load(path) -> tuple[int, object]:
    tracemalloc.start()
    try:
        try:
            result = minigrad.load(path)
        except UnsafeOrCorruptFileError as e:
            result = e
        return tracemalloc.get_traced_memory()[1], result
    finally:
        tracemalloc.stop()


HOSTILE = {
    "empty objects in a list": lambda n: b'{"a":[' + b"{}," * (n // 3) + b"{}]}",
    "empty lists in a list": lambda n: b'{"a":[' + b"[]," * (n // 3) + b"[]]}",
    "nested lists": lambda n: b'{"a":' + b"[" * (n // 2) + b"]" * (n // 2) + b"}",
    "a long shape": lambda n: b'{"a":{"dtype":"F32","shape":[' + b"1," * (n // 2) + b"1]}}",
    "one huge integer": lambda n: b'{"a":{"dtype":"F32","shape":[' + b"9" * n + b"]}}",
    "many metadata keys": lambda n: (
        b'{"__metadata__":{' + b",".join(b'"%d":""' % i for i in range(n // 10)) + b"}}"
    ),
    "empty entries": lambda n: b"{" + b",".join(b'"%d":{}' % i for i in range(n // 10)) + b"}",
    "a structure of 1,333,333 empty lists": lambda n: (
        b'{"__metadata__":{"minigrad.object":"{\\"version\\":1,\\"object\\":['
        + b"[]," * (n // 3)
        + b'[]]}"}}'
    ),
}


@pytest.mark.parametrize("kind", HOSTILE)
def test_a_hostile_header_is_refused_in_memory_close_to_its_size(tmp_path, kind):
    header = HOSTILE[kind](4_000_000)
    path = tmp_path / "hostile.safetensors"
    path.write_bytes(_file(header))
    peak, result = _peak_of_load(path)
    assert isinstance(result, UnsafeOrCorruptFileError), result
    size = path.stat().st_size
    assert peak < 3 * size + 8_000_000, (kind, peak / size)


def test_loading_takes_about_the_files_size_in_memory(tmp_path):
    """No second copy of the data: the bytes are read straight into each tensor's array."""
    rng = np.random.default_rng(0)
    sd = OrderedDict(
        (f"layer{i}.weight", minigrad.from_numpy(rng.standard_normal((1024, 1024), np.float32)))
        for i in range(16)
    )
    path = tmp_path / "big.safetensors"
    minigrad.save(sd, path)
    del sd
    size = path.stat().st_size
    peak, result = _peak_of_load(path)
    assert isinstance(result, OrderedDict) and len(result) == 16
    assert peak < 1.1 * size, peak / size
    for tensor in result.values():
        assert tensor.numpy().flags.owndata and tensor.numpy().flags.writeable


# -- checkpoint structure limits: save refuses what load would refuse --------------------------


def _nested(depth: int, leaf: object) -> object:
    obj = leaf
    for i in range(depth):
        obj = {"k": obj} if i % 3 == 0 else ([obj] if i % 3 == 1 else (obj,))
    return obj


def test_the_deepest_structure_save_allows_loads():
    deepest = _nested(100, minigrad.ones(1))
    buffer = io.BytesIO()
    minigrad.save(deepest, buffer)
    out = minigrad.load(io.BytesIO(buffer.getvalue()))
    for _ in range(100):
        out = out["k"] if isinstance(out, dict) else out[0]
    assert out.tolist() == [1.0]


def test_one_level_deeper_is_refused_by_save_and_by_load(tmp_path):
    with pytest.raises(ValueError, match="nested more than 100 levels deep"):
        minigrad.save(_nested(101, 1), io.BytesIO())
    structure = json.dumps({"version": 1, "object": [[[[0]]]]}).replace(
        "[[[[0]]]]", "[" * 400 + "]" * 400
    )
    path = tmp_path / "deep"
    st.write(path, {}, {minigrad.serialization.STRUCTURE_KEY: structure})
    with pytest.raises(UnsafeOrCorruptFileError, match="nested more than 100 levels deep"):
        minigrad.load(path)


def test_too_many_containers_are_refused_by_save_and_by_load(tmp_path):
    with pytest.raises(ValueError, match="more than 1000000 JSON lists and objects"):
        minigrad.save([[] for _ in range(1_000_001)], io.BytesIO())
    structure = '{"version": 1, "object": [' + ",".join(["[]"] * 1_000_001) + "]}"
    path = tmp_path / "wide"
    st.write(path, {}, {minigrad.serialization.STRUCTURE_KEY: structure})
    with pytest.raises(UnsafeOrCorruptFileError, match="more than 1000000 JSON lists"):
        minigrad.load(path)


def test_ints_beyond_4300_digits_are_refused_by_save():
    minigrad.save({"n": 10**4299}, io.BytesIO())
    with pytest.raises(ValueError, match=r"cannot save obj\['n'\]: an int of more than 4300"):
        minigrad.save({"n": 10**4300}, io.BytesIO())
