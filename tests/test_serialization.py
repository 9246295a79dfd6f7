"""minigrad.save / minigrad.load and the safetensors layer under them.

The format layer is tested on numpy arrays alone; the tensor-level tests need the engine.
Hostile files must all end in the one UnsafeOrCorruptFileError, and nothing in them may run.
"""

from __future__ import annotations

import io
import json
import pathlib
import pickle
import struct

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs
from hypothesis.extra import numpy as hnp

from minigrad import _safetensors as st
from minigrad._safetensors import UnsafeOrCorruptFileError

DTYPES = ["float32", "float64", "float16", "int64", "int32", "int16", "int8", "uint8", "bool"]
SHAPES = [(), (0,), (3,), (2, 3), (0, 4), (2, 1, 3)]


def _array(dtype: str, shape: tuple, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.asarray(rng.standard_normal(shape) * 50).astype(dtype)


def _raw(header: dict | bytes, buffer: bytes = b"", n: int | None = None) -> bytes:
    """A file built by hand: header JSON (or raw header bytes), then the buffer."""
    text = header if isinstance(header, bytes) else json.dumps(header).encode()
    return struct.pack("<Q", len(text) if n is None else n) + text + buffer


def _assert_refused(data: bytes, tmp_path: pathlib.Path, *words: str) -> str:
    path = tmp_path / "bad.safetensors"
    path.write_bytes(data)
    with pytest.raises(UnsafeOrCorruptFileError) as info:
        st.read(path)
    message = str(info.value)
    assert str(path) in message
    for word in words:
        assert word in message
    return message


# -- format layer: round trips -------------------------------------------------------------


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", SHAPES)
def test_every_dtype_and_shape_round_trips(dtype, shape):
    arrays = {"a": _array(dtype, shape), "b": _array(dtype, shape, seed=1)}
    f = io.BytesIO()
    st.write(f, arrays, {"note": "hi"})
    f.seek(0)
    out, metadata = st.read(f)
    assert metadata == {"note": "hi"}
    assert list(out) == ["a", "b"]
    for key, array in arrays.items():
        assert out[key].dtype == array.dtype and out[key].shape == array.shape
        np.testing.assert_array_equal(out[key], array)
        assert out[key].flags.writeable and out[key].flags.owndata


def test_header_order_is_kept_and_buffer_is_aligned():
    arrays = {"z": np.ones(3, bool), "a": np.arange(3.0), "m": np.ones(1, np.float16)}
    data = _write_bytes(arrays)
    (n,) = struct.unpack_from("<Q", data)
    header = json.loads(data[8 : 8 + n])
    assert (8 + n) % 8 == 0
    assert list(header) == ["z", "a", "m"]
    assert header["a"]["data_offsets"] == [0, 24]  # widest items first, as the reference does
    assert list(st.parse(data)[0]) == ["z", "a", "m"]


def test_big_endian_and_strided_inputs_are_written_little_endian_c_order():
    big = np.arange(6, dtype=">i4").reshape(2, 3)
    out, _ = st.parse(_write_bytes({"big": big, "t": np.arange(6.0).reshape(2, 3).T}))
    np.testing.assert_array_equal(out["big"], big)
    assert out["big"].dtype == np.dtype("=i4")
    np.testing.assert_array_equal(out["t"], np.arange(6.0).reshape(2, 3).T)


def test_paths_and_pathlike(tmp_path):
    st.write(str(tmp_path / "a"), {"x": np.ones(2)}, None)
    st.write(tmp_path / "b", {"x": np.ones(2)}, None)
    assert st.read(tmp_path / "a")[0]["x"].tolist() == [1.0, 1.0]
    assert st.read(str(tmp_path / "b"))[1] == {}


@pytest.mark.parametrize("dtype", ["complex64", "uint16", "uint32", "object", "<U3"])
def test_write_refuses_dtypes_minigrad_cannot_hold(dtype):
    with pytest.raises(TypeError, match="cannot save dtype"):
        _write_bytes({"x": np.zeros(2, dtype=dtype)})


def test_write_refuses_reserved_name_and_non_string_metadata():
    with pytest.raises(ValueError, match="__metadata__"):
        _write_bytes({"__metadata__": np.zeros(1)})
    with pytest.raises(TypeError, match="metadata"):
        st.write(io.BytesIO(), {}, {"k": 1})


@settings(max_examples=60, deadline=None)
@given(
    hs.dictionaries(
        hs.text(max_size=8).filter(lambda k: k != "__metadata__"),
        hnp.arrays(hs.sampled_from(DTYPES), hnp.array_shapes(min_dims=0, max_dims=3, min_side=0)),
        max_size=5,
    )
)
def test_property_any_arrays_round_trip(arrays):
    out, _ = st.parse(_write_bytes(arrays))
    assert list(out) == list(arrays)
    for key, array in arrays.items():
        assert out[key].dtype == array.dtype
        np.testing.assert_array_equal(out[key], array)


def _write_bytes(arrays, metadata=None) -> bytes:
    f = io.BytesIO()
    st.write(f, arrays, metadata)
    return f.getvalue()


# -- format layer: files that are not what they claim --------------------------------------

GOOD = _write_bytes({"w": np.arange(6, dtype=np.float32).reshape(2, 3), "b": np.ones(2)})


def test_missing_file_is_pythons_file_not_found(tmp_path):
    path = tmp_path / "nope.safetensors"
    with pytest.raises(FileNotFoundError) as info:
        st.read(path)
    assert str(info.value) == f"[Errno 2] No such file or directory: {str(path)!r}"


def test_empty_and_short_files(tmp_path):
    _assert_refused(b"", tmp_path, "empty")
    _assert_refused(b"\x10\x00\x00", tmp_path, "too short")


def test_every_truncation_is_refused(tmp_path):
    for cut in range(len(GOOD)):
        _assert_refused(GOOD[:cut], tmp_path)


def test_trailing_bytes_are_refused(tmp_path):
    _assert_refused(GOOD + b"\x00", tmp_path, "stray")


def test_random_bytes_are_refused(tmp_path):
    rng = np.random.default_rng(0)
    for size in (1, 7, 8, 9, 64, 4096):
        _assert_refused(rng.bytes(size), tmp_path)


@settings(max_examples=300, deadline=None)
@given(hs.data())
def test_property_mutated_files_load_or_give_the_one_error(data):
    """Flip, cut or insert bytes anywhere: the reader answers or refuses, never crashes."""
    raw = bytearray(GOOD)
    for _ in range(data.draw(hs.integers(1, 4))):
        i = data.draw(hs.integers(0, len(raw) - 1))
        action = data.draw(hs.sampled_from(["set", "cut", "insert"]))
        if action == "set":
            raw[i] = data.draw(hs.integers(0, 255))
        elif action == "cut":
            del raw[i]
        else:
            raw.insert(i, data.draw(hs.integers(0, 255)))
    try:
        arrays, _ = st.parse(bytes(raw), "mutated")
    except UnsafeOrCorruptFileError as e:
        assert "mutated" in str(e)
    else:
        assert all(isinstance(a, np.ndarray) for a in arrays.values())


def test_header_length_huge_or_past_the_end(tmp_path):
    _assert_refused(_raw({}, n=2**64 - 1), tmp_path, "exceeds the limit")
    _assert_refused(_raw({}, n=100_000_001), tmp_path, "exceeds the limit")
    _assert_refused(_raw({}, n=1000), tmp_path, "past the end")


@pytest.mark.parametrize(
    "header",
    [
        b"not json at all",
        b'{"a": ',
        b"[1, 2, 3]",
        b'"{"',
        b"{\xff\xfe}",
        b'{"a": NaN}',
        b'{"__metadata__": {"k": 1}}',
        b'{"__metadata__": []}',
        b'{"a": 1}',
        b'{"a": {"dtype": "F32", "shape": [], "data_offsets": [0, 0], "extra": 1}}',
        b'{"a": {"dtype": "F32", "shape": []}}',
        b'{"a": {"dtype": "F32", "dtype": "F32", "shape": [], "data_offsets": [0, 4]}}',
        b'{"a": {"dtype": 32, "shape": [1], "data_offsets": [0, 4]}}',
        b'{"a": {"dtype": "F32", "shape": [-1], "data_offsets": [0, 4]}}',
        b'{"a": {"dtype": "F32", "shape": [1.0], "data_offsets": [0, 4]}}',
        b'{"a": {"dtype": "F32", "shape": [true], "data_offsets": [0, 4]}}',
        b'{"a": {"dtype": "F32", "shape": "1", "data_offsets": [0, 4]}}',
        b'{"a": {"dtype": "F32", "shape": [1], "data_offsets": [0]}}',
        b'{"a": {"dtype": "F32", "shape": [1], "data_offsets": [4, 0]}}',
        b'{"a": {"dtype": "F32", "shape": [1], "data_offsets": [0, 8]}}',
        b'{"a": {"dtype": "F32", "shape": [1], "data_offsets": [0, -4]}}',
        b'{"a": {"dtype": "F32", "shape": [4611686018427387904, 4], "data_offsets": [0, 4]}}',
    ],
)
def test_malformed_headers(tmp_path, header):
    _assert_refused(_raw(header, b"\x00" * 4), tmp_path, "not a safetensors file")


def test_duplicate_tensor_names(tmp_path):
    entry = '{"dtype": "U8", "shape": [1], "data_offsets": [0, 1]}'
    header = f'{{"a": {entry}, "a": {entry}}}'.encode()
    _assert_refused(_raw(header, b"\x00"), tmp_path, "duplicate key 'a'")


def test_offsets_overlapping_gapped_or_out_of_range(tmp_path):
    def entry(begin, end):
        return {"dtype": "F32", "shape": [(end - begin) // 4], "data_offsets": [begin, end]}

    _assert_refused(_raw({"a": entry(0, 8), "b": entry(4, 12)}, bytes(12)), tmp_path, "overlaps")
    _assert_refused(_raw({"a": entry(0, 4), "b": entry(8, 12)}, bytes(12)), tmp_path, "gap")
    _assert_refused(_raw({"a": entry(4, 8)}, bytes(8)), tmp_path, "gap")
    _assert_refused(_raw({"a": entry(0, 8)}, bytes(4)), tmp_path, "past the end")
    _assert_refused(_raw({"a": entry(0, 4)}, bytes(8)), tmp_path, "stray")


def test_unsupported_dtype_is_named(tmp_path):
    header = {"w": {"dtype": "BF16", "shape": [2], "data_offsets": [0, 4]}}
    _assert_refused(_raw(header, bytes(4)), tmp_path, "BF16", "F32")


def test_header_padded_with_spaces_and_zero_tensors_are_fine():
    assert st.parse(_raw(b"{}      ")) == ({}, {})


class _Payload:
    """Unpickling this would create the marker file: the proof that nothing ran."""

    def __init__(self, marker: str) -> None:
        self.marker = marker

    def __reduce__(self):
        return (open, (self.marker, "w"))


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_pickles_are_never_unpickled(tmp_path, protocol):
    marker = tmp_path / "pwned"
    payload = pickle.dumps({"w": _Payload(str(marker))}, protocol=protocol)
    message = _assert_refused(payload, tmp_path, "pickle", "never unpickles", "save_file")
    assert "safetensors.torch" in message
    assert not marker.exists()


@pytest.mark.parametrize("obj", [None, 1, [1, 2], {"a": (1.5, "x")}])
@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_plain_pickles_are_recognised(tmp_path, obj, protocol):
    _assert_refused(pickle.dumps(obj, protocol=protocol), tmp_path, "pickle")


def test_a_torch_save_zip_is_refused_with_a_way_out(tmp_path):
    torch = pytest.importorskip("torch")
    path = tmp_path / "model.pt"
    torch.save(torch.nn.Linear(2, 3).state_dict(), path)
    _assert_refused(path.read_bytes(), tmp_path, "zip", "never unpickles", "save_file")


def test_a_legacy_torch_save_is_refused(tmp_path):
    torch = pytest.importorskip("torch")
    path = tmp_path / "model.pt"
    torch.save({"w": torch.ones(2)}, path, _use_new_zipfile_serialization=False)
    _assert_refused(path.read_bytes(), tmp_path, "pickle")


# -- interoperability with the reference implementation -------------------------------------


@pytest.mark.parity
@pytest.mark.parametrize("dtype", DTYPES)
def test_safetensors_numpy_reads_ours_and_we_read_theirs(tmp_path, dtype):
    sn = pytest.importorskip("safetensors.numpy")
    arrays = {f"t{i}": _array(dtype, shape, seed=i) for i, shape in enumerate(SHAPES)}
    arrays["other"] = np.arange(5, dtype=np.float64)  # mixed widths test alignment
    st.write(tmp_path / "ours", arrays, {"k": "v"})
    theirs = sn.load_file(str(tmp_path / "ours"))
    sn.save_file(arrays, str(tmp_path / "theirs"), metadata={"k": "v"})
    ours, metadata = st.read(tmp_path / "theirs")
    assert metadata == {"k": "v"}
    for key, array in arrays.items():
        for got in (theirs[key], ours[key]):
            assert got.dtype == array.dtype and got.shape == array.shape
            np.testing.assert_array_equal(got, array)
