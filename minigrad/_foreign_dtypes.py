"""safetensors dtypes that minigrad has no type for, and how to load them exactly if asked.

Real checkpoints are often stored in bfloat16 or an 8-bit float, and index tensors sometimes in
unsigned integers. minigrad holds none of these, so ``minigrad.load`` names the dtype in its
error (``BF16 is not supported by minigrad: ...``) instead of calling a valid file corrupt, and
``minigrad.load(path, upcast=True)`` converts them, always exactly:

* BF16 and the 8-bit floats (F8_E4M3, F8_E4M3FNUZ, F8_E5M2, F8_E5M2FNUZ, F8_E8M0) become
  float32, which holds every one of their values, nan and inf included;
* U16 becomes int32 and U32 becomes int64, which hold every value; U64 becomes int64 when
  every value fits (below 2**63), else the error says which tensor does not fit. float32 is not
  used for unsigned integers: it rounds anything above 2**24, and an index must stay exact.

F4 and the 6-bit floats (packed several to a byte) and C64 (complex) are named but not
converted: minigrad has no type that holds a complex number, and the packed floats are rare
enough that converting them is left to PyTorch (``.float()`` before saving).
"""

from __future__ import annotations

import numpy as np

__all__ = ["FOREIGN", "Foreign", "upcast"]


class Foreign:
    """One safetensors dtype minigrad cannot hold: its width and what ``upcast`` makes of it."""

    __slots__ = ("code", "bits", "description", "target", "decode")

    def __init__(self, code: str, bits: int, description: str, target=None, decode=None) -> None:
        self.code = code
        self.bits = bits  # per element; F4 and F6 pack several elements into a byte
        self.description = description
        self.target = None if target is None else np.dtype(target)
        self.decode = decode  # (raw little-endian bytes as uint8, out array) -> None


def _minifloat_table(exponent_bits: int, mantissa_bits: int, bias: int, style: str) -> np.ndarray:
    """All 256 values of an 8-bit float format, as float32 (each is exactly representable).

    ``style`` is "ieee" (the top exponent is inf/nan), "fn" (no inf; all-ones is nan) or
    "fnuz" (no inf, no negative zero; 0x80 is nan) or "e8m0" (no sign, no zero; 0xFF is nan).
    """
    b = np.arange(256, dtype=np.int64)
    if style == "e8m0":
        table = np.ldexp(1.0, b - bias)
        table[255] = np.nan
        return table.astype(np.float32)
    sign = np.where(b >> 7 == 1, -1.0, 1.0)
    exponent = (b >> mantissa_bits) & ((1 << exponent_bits) - 1)
    mantissa = b & ((1 << mantissa_bits) - 1)
    fraction = mantissa / (1 << mantissa_bits)
    normal = np.ldexp(1.0 + fraction, exponent - bias)
    subnormal = np.ldexp(fraction, 1 - bias)
    table = np.where(exponent == 0, subnormal, normal)
    top = (1 << exponent_bits) - 1
    if style == "ieee":
        table = np.where(exponent == top, np.where(mantissa == 0, np.inf, np.nan), table)
    elif style == "fn":
        table = np.where((exponent == top) & (mantissa == (1 << mantissa_bits) - 1), np.nan, table)
    table = np.copysign(table, sign)
    if style == "fnuz":  # 0x80, the would-be negative zero, is the one nan
        table[0x80] = np.nan
    return table.astype(np.float32)


def _lookup(table: np.ndarray):
    def decode(raw: np.ndarray, out: np.ndarray) -> None:
        np.take(table, raw, out=out.reshape(-1))

    return decode


def _bfloat16(raw: np.ndarray, out: np.ndarray) -> None:
    """bfloat16 is the top half of a float32: shift the 16 bits into place."""
    bits = out.reshape(-1).view(np.uint32)
    bits[...] = raw.view("<u2")
    bits <<= 16


def _widen(source: str):
    def decode(raw: np.ndarray, out: np.ndarray) -> None:
        out.reshape(-1)[...] = raw.view(source)

    return decode


def _uint64(raw: np.ndarray, out: np.ndarray) -> None:
    values = raw.view("<u8")
    if values.size and values.max() >= 2**63:
        raise ValueError(f"a U64 value ({int(values.max())}) does not fit in int64")
    out.reshape(-1)[...] = values


FOREIGN: dict[str, Foreign] = {
    f.code: f
    for f in [
        Foreign("BF16", 16, "bfloat16", np.float32, _bfloat16),
        Foreign(
            "F8_E4M3", 8, "float8_e4m3fn", np.float32, _lookup(_minifloat_table(4, 3, 7, "fn"))
        ),
        Foreign(
            "F8_E4M3FNUZ",
            8,
            "float8_e4m3fnuz",
            np.float32,
            _lookup(_minifloat_table(4, 3, 8, "fnuz")),
        ),
        Foreign(
            "F8_E5M2", 8, "float8_e5m2", np.float32, _lookup(_minifloat_table(5, 2, 15, "ieee"))
        ),
        Foreign(
            "F8_E5M2FNUZ",
            8,
            "float8_e5m2fnuz",
            np.float32,
            _lookup(_minifloat_table(5, 2, 16, "fnuz")),
        ),
        Foreign(
            "F8_E8M0", 8, "float8_e8m0fnu", np.float32, _lookup(_minifloat_table(8, 0, 127, "e8m0"))
        ),
        Foreign("U16", 16, "uint16", np.int32, _widen("<u2")),
        Foreign("U32", 32, "uint32", np.int64, _widen("<u4")),
        Foreign("U64", 64, "uint64", np.int64, _uint64),
        Foreign("C64", 64, "complex64"),
        Foreign("F4", 4, "float4_e2m1 (packed two to a byte)"),
        Foreign("F6_E2M3", 6, "float6_e2m3 (packed four to three bytes)"),
        Foreign("F6_E3M2", 6, "float6_e3m2 (packed four to three bytes)"),
    ]
}


def upcast(code: str, raw: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """The exact wider array for ``raw`` (the tensor's bytes); ValueError if there is none."""
    foreign = FOREIGN[code]
    if foreign.decode is None:
        raise ValueError(f"{code} ({foreign.description}) has no exact minigrad type")
    out = np.empty(shape, foreign.target)
    foreign.decode(raw, out)
    return out
