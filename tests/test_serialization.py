"""minigrad.save / minigrad.load and the safetensors layer under them.

The format layer is tested on numpy arrays alone; the tensor-level tests need the engine.
Hostile files must all end in the one UnsafeOrCorruptFileError, and nothing in them may run.
"""

from __future__ import annotations

import io
import json
import math
import os
import pathlib
import pickle
import struct
from collections import OrderedDict, defaultdict

import numpy as np
import pytest
from conftest import require_module
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
    _assert_refused(
        _raw(header, bytes(4)), tmp_path, "BF16 is not supported by minigrad", "'w'", "upcast=True"
    )


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
    torch = require_module("torch")
    path = tmp_path / "model.pt"
    torch.save(torch.nn.Linear(2, 3).state_dict(), path)
    _assert_refused(path.read_bytes(), tmp_path, "zip", "never unpickles", "save_file")


def test_a_legacy_torch_save_is_refused(tmp_path):
    torch = require_module("torch")
    path = tmp_path / "model.pt"
    torch.save({"w": torch.ones(2)}, path, _use_new_zipfile_serialization=False)
    _assert_refused(path.read_bytes(), tmp_path, "pickle")


# -- interoperability with the reference implementation -------------------------------------


@pytest.mark.parity
@pytest.mark.parametrize("dtype", DTYPES)
def test_safetensors_numpy_reads_ours_and_we_read_theirs(tmp_path, dtype):
    sn = require_module("safetensors.numpy")
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


# -- minigrad.save / minigrad.load: tensors and checkpoints ---------------------------------


@pytest.fixture(scope="module")
def mg():
    """The engine, imported here so that the format tests above need numpy alone."""
    import minigrad

    return minigrad


def _save(mg, obj, f):
    mg.serialization.save(obj, f)


def _load(mg, f, **kwargs):
    return mg.serialization.load(f, **kwargs)


def _bytes_round_trip(mg, obj):
    f = io.BytesIO()
    _save(mg, obj, f)
    f.seek(0)
    return _load(mg, f)


def _state_dict(mg):
    w = mg.from_numpy(np.arange(6, dtype=np.float32).reshape(3, 2))
    return OrderedDict(
        [
            ("fc1.weight", w),
            ("fc1.bias", mg.from_numpy(np.array([0.5, -1.0, 2.0], dtype=np.float32))),
            ("fc2.weight", mg.from_numpy(np.ones((1, 3), dtype=np.float32))),
            ("bn.num_batches_tracked", mg.from_numpy(np.array(7, dtype=np.int64))),
        ]
    )


def _assert_same(got, want):
    """Equal values AND equal types, all the way down (a tuple must stay a tuple)."""
    assert type(got) is type(want), (got, want)
    if isinstance(want, (list, tuple)):
        assert len(got) == len(want)
        for g, w in zip(got, want, strict=True):
            _assert_same(g, w)
    elif isinstance(want, dict):
        assert list(got) == list(want)
        assert [type(k) for k in got] == [type(k) for k in want]
        for key in want:
            _assert_same(got[key], want[key])
    elif isinstance(want, float) and math.isnan(want):
        assert math.isnan(got)
    elif hasattr(want, "detach"):
        assert got.dtype == want.dtype and tuple(got.shape) == tuple(want.shape)
        np.testing.assert_array_equal(got.detach().numpy(), want.detach().numpy())
    else:
        assert got == want


def test_minigrad_exports_save_load_and_the_error(mg):
    assert mg.save is mg.serialization.save
    assert mg.load is mg.serialization.load
    assert mg.serialization.UnsafeOrCorruptFileError is UnsafeOrCorruptFileError
    assert issubclass(UnsafeOrCorruptFileError, ValueError)


@pytest.mark.parametrize("kind", ["str", "pathlike", "open file", "BytesIO"])
def test_state_dict_round_trip(mg, tmp_path, kind):
    sd = _state_dict(mg)
    path = tmp_path / "model.safetensors"
    if kind == "str":
        _save(mg, sd, str(path))
        out = _load(mg, str(path))
    elif kind == "pathlike":
        _save(mg, sd, path)
        out = _load(mg, path)
    elif kind == "open file":
        with open(path, "wb") as f:
            _save(mg, sd, f)
        with open(path, "rb") as f:
            out = _load(mg, f)
    else:
        out = _bytes_round_trip(mg, sd)
    _assert_same(out, OrderedDict((k, v.detach()) for k, v in sd.items()))
    for tensor in out.values():
        assert not tensor.requires_grad
        assert tensor.detach().numpy().flags.writeable


def test_a_state_dict_is_a_plain_safetensors_file(mg, tmp_path):
    _save(mg, _state_dict(mg), tmp_path / "m")
    arrays, metadata = st.read(tmp_path / "m")
    assert list(arrays) == list(_state_dict(mg))
    assert metadata == {"format": "pt"}


def test_a_plain_dict_of_tensors_loads_as_a_dict_as_in_pytorch(mg, tmp_path):
    sd = {"b": mg.from_numpy(np.ones(2)), "a": mg.from_numpy(np.zeros(2))}
    out = _bytes_round_trip(mg, sd)
    assert type(out) is dict and list(out) == ["b", "a"]
    _save(mg, sd, tmp_path / "m")  # still a safetensors file whose tensor names are the keys
    assert list(st.read(tmp_path / "m")[0]) == ["b", "a"]


def _checkpoint(mg):
    sd = _state_dict(mg)
    momentum = mg.from_numpy(np.full((3, 2), 0.25, dtype=np.float32))
    return {
        "model": sd,
        "optimizer": {
            "state": {0: {"momentum_buffer": momentum}, 1: {"momentum_buffer": None}},
            "param_groups": [
                {"lr": 0.1, "momentum": 0.9, "nesterov": False, "params": [0, 1, 2, 3]},
                {"lr": 1e-3, "betas": (0.9, 0.999), "eps": 1e-8, "weight_decay": 0},
            ],
        },
        "epoch": 3,
        "losses": [2.5, float("nan"), float("inf"), -float("inf")],
        "name": "lesson 5 ✓",
        "shape": (),
        "big": 2**70,
        -1: "int key",
    }


def test_checkpoint_round_trips_exactly(mg, tmp_path):
    ck = _checkpoint(mg)
    _save(mg, ck, tmp_path / "ck")
    _assert_same(_load(mg, tmp_path / "ck"), ck)


def test_checkpoint_tensor_names_follow_key_paths(mg, tmp_path):
    w = mg.from_numpy(np.ones(1))
    _save(mg, {"a": {"b": w}, "a.b": mg.from_numpy(np.zeros(1)), "l": [w]}, tmp_path / "ck")
    arrays, metadata = st.read(tmp_path / "ck")
    assert list(arrays) == ["a.b", "a.b#2"]
    assert json.loads(metadata[mg.serialization.STRUCTURE_KEY])["version"] == 1


def test_a_tensor_saved_twice_loads_as_one_tensor(mg):
    w = mg.from_numpy(np.ones(3))
    out = _bytes_round_trip(mg, {"a": w, "b": [w, 1]})
    assert out["a"] is out["b"][0]


def test_subclasses_load_as_their_base_type(mg):
    state = defaultdict(dict, {0: {"step": 1}})
    out = _bytes_round_trip(mg, {"state": state, "od": OrderedDict(x=1)})
    _assert_same(out, {"state": {0: {"step": 1}}, "od": OrderedDict(x=1)})


@pytest.mark.parametrize("dtype", DTYPES)
def test_every_dtype_zero_d_empty(mg, dtype):
    obj = {f"s{i}": mg.from_numpy(_array(dtype, shape, seed=i)) for i, shape in enumerate(SHAPES)}
    _assert_same(_bytes_round_trip(mg, obj), obj)
    _assert_same(_bytes_round_trip(mg, OrderedDict(obj)), OrderedDict(obj))
    _assert_same(_bytes_round_trip(mg, [obj["s0"], (obj["s1"],)]), [obj["s0"], (obj["s1"],)])


def test_bare_tensor_and_bare_values(mg):
    t = mg.from_numpy(np.arange(4.0))
    _assert_same(_bytes_round_trip(mg, t), t)
    for value in (None, 3, "x", [], (), 1.5):
        _assert_same(_bytes_round_trip(mg, value), value)


def test_large_tensor(mg, tmp_path):
    big = mg.from_numpy(np.random.default_rng(0).standard_normal((1024, 1024)).astype(np.float32))
    _save(mg, {"big": big}, tmp_path / "big")
    assert (tmp_path / "big").stat().st_size > 4 * 1024 * 1024
    _assert_same(_load(mg, tmp_path / "big"), {"big": big})


@pytest.mark.parametrize(
    "obj, where",
    [
        ({"a": {1, 2}}, "obj['a']"),
        ({"model": {"w": np.ones(2)}}, "obj['model']['w']"),
        ({"opt": {"state": {0: [object()]}}}, "obj['opt']['state'][0][0]"),
        ({"a": {(1, 2): 3}}, "obj['a']"),
        ({"a": {True: 3}}, "obj['a']"),
        ({"a": {1.5: 3}}, "obj['a']"),
        ({"f": print}, "obj['f']"),
        ({"b": b"bytes"}, "obj['b']"),
    ],
)
def test_unsupported_objects_raise_type_error_before_writing(mg, tmp_path, obj, where):
    path = tmp_path / "ck"
    path.write_bytes(b"old")
    with pytest.raises(TypeError) as info:
        _save(mg, obj, path)
    assert where in str(info.value)
    assert path.read_bytes() == b"old"
    assert os.listdir(tmp_path) == ["ck"]
    f = io.BytesIO()
    with pytest.raises(TypeError):
        _save(mg, obj, f)
    assert f.getvalue() == b""


def test_a_structure_that_contains_itself(mg):
    loop: list = [1]
    loop.append({"again": loop})
    with pytest.raises(ValueError, match="contains itself"):
        _save(mg, loop, io.BytesIO())


def test_save_into_a_missing_folder_raises_pytorchs_error(mg, tmp_path):
    path = tmp_path / "no" / "m.safetensors"
    with pytest.raises(RuntimeError) as info:
        _save(mg, {}, path)
    assert str(info.value) == f"Parent directory {tmp_path / 'no'} does not exist."
    assert os.listdir(tmp_path) == []


def test_f_must_be_a_path_or_a_file(mg):
    with pytest.raises(TypeError):
        _save(mg, {}, 42)
    with pytest.raises(TypeError):
        _load(mg, 42)


@pytest.mark.parametrize("error", [OSError("disk full"), KeyboardInterrupt()])
def test_a_failed_write_leaves_the_old_file_and_no_temporary(mg, tmp_path, monkeypatch, error):
    path = tmp_path / "model.safetensors"
    _save(mg, _state_dict(mg), path)
    before = path.read_bytes()
    real_write = st._write

    def half_then_fail(f, text, arrays):
        real_write(f, text, arrays[:1])
        raise error

    monkeypatch.setattr(st, "_write", half_then_fail)
    with pytest.raises(type(error)):
        _save(mg, {"other": mg.from_numpy(np.zeros(9))}, path)
    assert path.read_bytes() == before
    assert os.listdir(tmp_path) == ["model.safetensors"]


def test_a_failed_first_write_leaves_nothing(mg, tmp_path, monkeypatch):
    monkeypatch.setattr(st, "_write", lambda *args: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        _save(mg, _state_dict(mg), tmp_path / "m")
    assert os.listdir(tmp_path) == []


@pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")
def test_a_saved_file_gets_ordinary_permissions(mg, tmp_path):
    umask = os.umask(0o022)
    os.umask(umask)
    _save(mg, {}, tmp_path / "m")
    assert (tmp_path / "m").stat().st_mode & 0o777 == 0o666 & ~umask


def test_load_of_a_missing_file(mg, tmp_path):
    path = tmp_path / "missing.safetensors"
    with pytest.raises(FileNotFoundError) as info:
        _load(mg, path)
    assert str(info.value) == f"[Errno 2] No such file or directory: {str(path)!r}"


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_load_never_runs_a_pickle(mg, tmp_path, protocol):
    marker = tmp_path / "pwned"
    path = tmp_path / "model.pt"
    path.write_bytes(pickle.dumps(OrderedDict(w=_Payload(str(marker))), protocol=protocol))
    for weights_only in (True, False):
        with pytest.raises(UnsafeOrCorruptFileError, match="never unpickles") as info:
            _load(mg, path, weights_only=weights_only)
        assert str(path) in str(info.value)
    with open(path, "rb") as f, pytest.raises(UnsafeOrCorruptFileError):
        _load(mg, f)
    assert not marker.exists()


@pytest.mark.parametrize("data", [b"", GOOD[:20], GOOD[:-1], b"\x00" * 64, b"PK\x03\x04zip"])
def test_load_of_broken_files(mg, tmp_path, data):
    path = tmp_path / "broken.safetensors"
    path.write_bytes(data)
    with pytest.raises(UnsafeOrCorruptFileError, match="broken.safetensors"):
        _load(mg, path)


def test_load_of_a_torch_save_file(mg, tmp_path):
    torch = require_module("torch")
    path = tmp_path / "model.pt"
    torch.save(torch.nn.Linear(2, 3).state_dict(), path)
    with pytest.raises(UnsafeOrCorruptFileError, match="never unpickles") as info:
        _load(mg, path)
    assert "save_file(model.state_dict()" in str(info.value)


@pytest.mark.parametrize(
    "structure",
    [
        "not json",
        '{"version": 2, "object": null}',
        '{"version": true, "object": null}',
        '{"version": 1}',
        '{"version": 1, "object": null, "x": 1}',
        "[1]",
        '{"version": 1, "object": {"tensor": "nope"}}',
        '{"version": 1, "object": {"tensor": "w", "tuple": []}}',
        '{"version": 1, "object": {"set": [1]}}',
        '{"version": 1, "object": {}}',
        '{"version": 1, "object": {"float": "1e5"}}',
        '{"version": 1, "object": {"dict": [["a", 1], ["a", 2]]}}',
        '{"version": 1, "object": {"dict": [[true, 1]]}}',
        '{"version": 1, "object": {"dict": [["a"]]}}',
        '{"version": 1, "object": {"dict": {"a": 1}}}',
        '{"version": 1, "object": [NaN]}',
        '{"version": 1, "object": [{"tensor": "w"}], "object": 1}',
        '{"version": 1, "object": []}',  # the tensor w is never used
        '{"version": 1, "object": ' + "[" * 100_000 + "]" * 100_000 + "}",
    ],
)
def test_load_of_a_broken_structure(mg, tmp_path, structure):
    path = tmp_path / "ck"
    st.write(path, {"w": np.ones(2)}, {mg.serialization.STRUCTURE_KEY: structure})
    with pytest.raises(UnsafeOrCorruptFileError, match="minigrad.object") as info:
        _load(mg, path)
    assert str(path) in str(info.value)


def test_map_location_and_weights_only(mg):
    data = io.BytesIO()
    _save(mg, _state_dict(mg), data)
    for kwargs in ({"map_location": "cpu"}, {"map_location": None}, {"weights_only": False}):
        data.seek(0)
        assert list(_load(mg, data, **kwargs)) == list(_state_dict(mg))
    with pytest.raises(RuntimeError, match="cpu"):
        _load(mg, data, map_location="cuda:0")


def _train_step(mg, model, opt, x, y):
    opt.zero_grad()
    loss = mg.nn.functional.mse_loss(model(x), y)
    loss.backward()
    opt.step()
    return loss.item()


@pytest.mark.parametrize("optimizer", ["SGD", "Adam"])
def test_lesson_5_train_save_load_resume(mg, tmp_path, optimizer):
    """Save model and optimizer mid-training; a fresh pair resumes on the very same path."""

    def fresh():
        model = mg.nn.Sequential(mg.nn.Linear(2, 4), mg.nn.ReLU(), mg.nn.Linear(4, 1))
        kwargs = {"lr": 0.05, "momentum": 0.9} if optimizer == "SGD" else {"lr": 0.01}
        return model, getattr(mg.optim, optimizer)(model.parameters(), **kwargs)

    mg.manual_seed(0)
    x, y = mg.randn(16, 2), mg.randn(16, 1)
    model, opt = fresh()
    for _ in range(3):
        _train_step(mg, model, opt, x, y)
    mg.save(model.state_dict(), tmp_path / "model.safetensors")
    mg.save(
        {"model": model.state_dict(), "optimizer": opt.state_dict(), "epoch": 3}, tmp_path / "ck"
    )

    model2, opt2 = fresh()
    model2.load_state_dict(mg.load(tmp_path / "model.safetensors"))
    assert mg.equal(model2(x), model(x))
    checkpoint = mg.load(tmp_path / "ck")
    assert checkpoint["epoch"] == 3
    model2.load_state_dict(checkpoint["model"])
    opt2.load_state_dict(checkpoint["optimizer"])
    for _ in range(2):
        assert _train_step(mg, model2, opt2, x, y) == _train_step(mg, model, opt, x, y)


@pytest.mark.parity
def test_a_pytorch_linear_loads_a_minigrad_linear(mg, tmp_path):
    torch = require_module("torch")
    storch = require_module("safetensors.torch")
    linear = mg.nn.Linear(3, 2)
    mg.save(linear.state_dict(), tmp_path / "linear.safetensors")
    twin = torch.nn.Linear(3, 2)
    twin.load_state_dict(storch.load_file(str(tmp_path / "linear.safetensors")))
    x = np.random.default_rng(0).standard_normal((4, 3)).astype(np.float32)
    want = linear(mg.from_numpy(x)).detach().numpy()
    np.testing.assert_allclose(twin(torch.from_numpy(x)).detach().numpy(), want, atol=1e-6)
    torch_sd = torch.nn.Linear(3, 2).state_dict()
    storch.save_file(torch_sd, str(tmp_path / "from_torch.safetensors"))
    linear.load_state_dict(mg.load(tmp_path / "from_torch.safetensors"))
    np.testing.assert_array_equal(linear.weight.detach().numpy(), torch_sd["weight"].numpy())


def _structures(mg):
    tensors = hnp.arrays(
        hs.sampled_from(DTYPES), hnp.array_shapes(min_dims=0, max_dims=2, min_side=0, max_side=3)
    ).map(mg.from_numpy)
    leaves = hs.none() | hs.booleans() | hs.integers() | hs.floats() | hs.text() | tensors
    keys = hs.text(max_size=6) | hs.integers(-3, 3)

    def containers(children):
        return (
            hs.lists(children, max_size=3)
            | hs.lists(children, max_size=3).map(tuple)
            | hs.dictionaries(keys, children, max_size=3)
            | hs.dictionaries(keys, children, max_size=3).map(OrderedDict)
        )

    return hs.recursive(leaves, containers, max_leaves=12)


@settings(max_examples=150, deadline=None)
@given(data=hs.data())
def test_property_nested_structures_round_trip(mg, data):
    obj = data.draw(_structures(mg))
    _assert_same(_bytes_round_trip(mg, obj), obj)


# -- interoperability: real PyTorch and the reference safetensors ---------------------------

TORCH_DTYPES = ["float32", "float64", "float16", "int64", "int32", "int16", "int8", "uint8", "bool"]


@pytest.mark.parity
def test_pytorch_reads_what_minigrad_saves(mg, tmp_path):
    torch = require_module("torch")
    storch = require_module("safetensors.torch")
    sd = {f"t.{d}": mg.from_numpy(_array(d, (2, 3))) for d in TORCH_DTYPES}
    sd["scalar"] = mg.from_numpy(np.array(1.5, dtype=np.float32))
    sd["empty"] = mg.from_numpy(np.zeros((0, 2), dtype=np.float32))
    _save(mg, sd, tmp_path / "m.safetensors")
    loaded = storch.load_file(str(tmp_path / "m.safetensors"))
    assert set(loaded) == set(sd)
    for key, t in sd.items():
        array = t.detach().numpy()
        assert loaded[key].dtype == torch.from_numpy(np.zeros(0, array.dtype)).dtype
        np.testing.assert_array_equal(loaded[key].numpy(), array)


@pytest.mark.parity
def test_a_pytorch_model_loads_a_minigrad_state_dict(mg, tmp_path):
    torch = require_module("torch")
    storch = require_module("safetensors.torch")
    rng = np.random.default_rng(0)
    sd = OrderedDict(
        weight=mg.from_numpy(rng.standard_normal((3, 2)).astype(np.float32)),
        bias=mg.from_numpy(rng.standard_normal(3).astype(np.float32)),
    )
    _save(mg, sd, tmp_path / "linear.safetensors")
    model = torch.nn.Linear(2, 3)
    model.load_state_dict(storch.load_file(str(tmp_path / "linear.safetensors")))
    np.testing.assert_array_equal(model.weight.detach().numpy(), sd["weight"].detach().numpy())


@pytest.mark.parity
def test_minigrad_loads_what_pytorch_saves(mg, tmp_path):
    torch = require_module("torch")
    storch = require_module("safetensors.torch")
    torch.manual_seed(0)
    tensors = {d: (torch.randn(2, 3) * 50).to(getattr(torch, d)) for d in TORCH_DTYPES}
    tensors["scalar"] = torch.tensor(2.5)
    tensors["empty"] = torch.zeros(0, 3, dtype=torch.int64)
    tensors.update(torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.ReLU()).state_dict())
    storch.save_file(tensors, str(tmp_path / "torch.safetensors"), metadata={"format": "pt"})
    out = _load(mg, tmp_path / "torch.safetensors")
    assert type(out) is OrderedDict and set(out) == set(tensors)
    for key, t in tensors.items():
        assert out[key].detach().numpy().dtype == t.numpy().dtype
        np.testing.assert_array_equal(out[key].detach().numpy(), t.numpy())


@pytest.mark.parity
def test_safetensors_numpy_both_ways(mg, tmp_path):
    sn = require_module("safetensors.numpy")
    arrays = {d: _array(d, (4,)) for d in DTYPES}
    sn.save_file(arrays, str(tmp_path / "np.safetensors"))
    out = _load(mg, tmp_path / "np.safetensors")
    _save(mg, out, tmp_path / "back.safetensors")
    back = sn.load_file(str(tmp_path / "back.safetensors"))
    for key, array in arrays.items():
        np.testing.assert_array_equal(out[key].detach().numpy(), array)
        assert back[key].dtype == array.dtype
        np.testing.assert_array_equal(back[key], array)
