"""Valid files in dtypes minigrad has no type for: named, never called corrupt, loadable exactly.

Each file is written by the real ``safetensors`` package from real PyTorch tensors. Without
``upcast`` the error names the dtype; with ``upcast=True`` every value (nan, inf, -0.0 and
subnormals included, all 256 bit patterns of each 8-bit float, all 65,536 of bfloat16) equals
what PyTorch's own conversion gives.
"""

from __future__ import annotations

import io
import json
import struct

import numpy as np
import pytest
from conftest import require_module

import minigrad
from minigrad._safetensors import UnsafeOrCorruptFileError

pytestmark = pytest.mark.parity

FLOATS = {  # safetensors code -> torch dtype name
    "BF16": "bfloat16",
    "F8_E4M3": "float8_e4m3fn",
    "F8_E4M3FNUZ": "float8_e4m3fnuz",
    "F8_E5M2": "float8_e5m2",
    "F8_E5M2FNUZ": "float8_e5m2fnuz",
    "F8_E8M0": "float8_e8m0fnu",
}
UNSIGNED = {"U16": ("uint16", "int32"), "U32": ("uint32", "int64"), "U64": ("uint64", "int64")}


@pytest.fixture(scope="module")
def storch():
    return require_module("safetensors.torch")


def _every_bit_pattern(torch, name: str):
    bits = 16 if name == "bfloat16" else 8
    raw = torch.arange(2**bits, dtype=torch.int32)
    raw = raw.to(torch.int16) if bits == 16 else raw.to(torch.uint8)
    return raw.view(getattr(torch, name))


def _save(storch, tmp_path, tensors: dict):
    path = tmp_path / "theirs.safetensors"
    storch.save_file(tensors, str(path))
    return path


@pytest.mark.parametrize("code", FLOATS)
def test_a_float_dtype_minigrad_lacks_is_named_not_called_corrupt(torch, storch, tmp_path, code):
    path = _save(storch, tmp_path, {"w": torch.ones(2, 3).to(getattr(torch, FLOATS[code]))})
    with pytest.raises(UnsafeOrCorruptFileError) as info:
        minigrad.load(path)
    message = str(info.value)
    assert message == (
        f"cannot load {str(path)!r}: {code} is not supported by minigrad: tensor 'w' "
        f"(shape [2, 3]) is {FLOATS[code]}; load it as float32 (exactly) with "
        "minigrad.load(path, upcast=True), or convert it in PyTorch first (e.g. with .float())"
    )
    assert "not a safetensors file" not in message


@pytest.mark.parametrize("code", FLOATS)
def test_upcast_gives_every_value_exactly_as_pytorch_converts_it(torch, storch, tmp_path, code):
    t = _every_bit_pattern(torch, FLOATS[code])
    grid = t[:24].reshape(2, 3, 4).clone()
    path = _save(storch, tmp_path, {"all": t, "grid": grid})
    out = minigrad.load(path, upcast=True)
    for key, source in [("all", t), ("grid", grid)]:
        want = source.float().numpy()
        got = out[key].numpy()
        assert out[key].dtype is minigrad.float32 and got.shape == want.shape
        assert np.array_equal(got, want, equal_nan=True)
        same = ~np.isnan(want)
        assert np.array_equal(np.signbit(got[same]), np.signbit(want[same]))  # -0.0 stays -0.0


@pytest.mark.parametrize("code", UNSIGNED)
def test_unsigned_integers_upcast_to_a_signed_type_that_holds_them(torch, storch, tmp_path, code):
    name, target = UNSIGNED[code]
    top = {"uint16": 2**16 - 1, "uint32": 2**32 - 1, "uint64": 2**63 - 1}[name]
    values = torch.tensor([0, 1, 2**15, top], dtype=getattr(torch, name))
    path = _save(storch, tmp_path, {"idx": values})
    with pytest.raises(UnsafeOrCorruptFileError, match=f"{code} is not supported by minigrad"):
        minigrad.load(path)
    out = minigrad.load(path, upcast=True)["idx"]
    assert str(out.dtype) == f"minigrad.{target}"
    assert out.tolist() == [0, 1, 2**15, top]


def test_a_uint64_that_does_not_fit_int64_names_the_tensor(torch, storch, tmp_path):
    path = _save(storch, tmp_path, {"big": torch.tensor([2**63 + 5], dtype=torch.uint64)})
    with pytest.raises(UnsafeOrCorruptFileError) as info:
        minigrad.load(path, upcast=True)
    assert "tensor 'big': a U64 value (9223372036854775813) does not fit in int64" in str(
        info.value
    )


@pytest.mark.parametrize("name, code", [("complex64", "C64"), ("float4_e2m1fn_x2", "F4")])
def test_types_with_no_exact_minigrad_type_are_named_even_with_upcast(
    torch, storch, tmp_path, name, code
):
    path = _save(storch, tmp_path, {"z": torch.zeros(2, 3, dtype=getattr(torch, name))})
    for upcast in (False, True):
        with pytest.raises(UnsafeOrCorruptFileError) as info:
            minigrad.load(path, upcast=upcast)
        assert f"{code} is not supported by minigrad: tensor 'z'" in str(info.value)
        assert "no type that holds it exactly" in str(info.value)


def test_a_mixed_file_loads_nothing_without_upcast_and_everything_with_it(torch, storch, tmp_path):
    tensors = {"a": torch.arange(4.0), "b": torch.arange(4.0).to(torch.bfloat16)}
    path = _save(storch, tmp_path, tensors)
    with pytest.raises(UnsafeOrCorruptFileError, match="tensor 'b'"):
        minigrad.load(path)
    out = minigrad.load(path, upcast=True)
    assert [t.tolist() for t in out.values()] == [[0.0, 1.0, 2.0, 3.0]] * 2
    minigrad.save(out, tmp_path / "back.safetensors")  # saved again as float32: PyTorch reads it
    back = storch.load_file(str(tmp_path / "back.safetensors"))
    assert back["b"].dtype == torch.float32 and back["b"].tolist() == [0.0, 1.0, 2.0, 3.0]


def test_packed_six_bit_floats_are_sized_in_bits():
    """F6 packs four values in three bytes: a shape whose bits do not fill whole bytes is wrong."""

    def file(shape, nbytes):
        header = json.dumps(
            {"x": {"dtype": "F6_E2M3", "shape": shape, "data_offsets": [0, nbytes]}}
        )
        header += " " * (-len(header) % 8)
        return io.BytesIO(struct.pack("<Q", len(header)) + header.encode() + bytes(nbytes))

    with pytest.raises(UnsafeOrCorruptFileError, match="F6_E2M3 is not supported by minigrad"):
        minigrad.load(file([4], 3))
    with pytest.raises(UnsafeOrCorruptFileError, match="needs 2.25"):
        minigrad.load(file([3], 3))
