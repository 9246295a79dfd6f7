"""oneDNN's float32 GELU (erf form), forward and backward, as PyTorch's CPU build runs it.

PyTorch hands ``gelu`` of a contiguous float32 tensor of more than one element to oneDNN
(``ideep::eltwise_forward``, ``eltwise_gelu_erf``), whose just-in-time AVX-512 kernel does
not call an erf at all:

- forward: ``erf(x / sqrt 2)`` is a degree-5 polynomial in ``|x|`` picked from a table of
  24 by the exponent and two leading mantissa bits of ``|x|`` (a minimax fit per piece),
  evaluated with fused multiply-adds; then ``x * (1 + erf) * 0.5`` in that order, so
  ``gelu(3e38)`` overflows to inf and ``gelu(inf)`` is nan (the polynomial of inf);
- backward: ``0.5 + 0.5 erf(r) + r exp(-r^2) / sqrt(pi)`` with ``r = x / sqrt 2``, the erf
  of Abramowitz and Stegun (formula 7.1.26) and oneDNN's own exp (``2^n`` times a degree-5
  polynomial, 0 below ln(FLT_MIN)), times the incoming gradient.

Both are redone here in numpy, one float32 rounding per instruction (an fma rounded once,
``_fma.py``). The algorithms and constants (the
polynomial table, the index bias ``0xc21fffff``, the bound ``0x40b15cee``, the A&S and exp
coefficients) are oneDNN's (Intel, Apache-2.0), from
``src/cpu/x64/injectors/jit_uni_eltwise_injector.cpp``; checked bit for bit against
PyTorch 2.13 (oneDNN 3.12) in ``tests/test_activation_rounding.py``, on an AVX-512 CPU (the
reference, ``_cpu_vectors.py``); oneDNN's AVX2 and ARM kernels agree with it within an ulp.
"""

from __future__ import annotations

import numpy as np

from ._fma import fma

_F32 = np.float32


def _c(*bits: int) -> np.ndarray:
    return np.array(bits, np.uint32).view(_F32)


# coefficient of degree d of piece i is _POLY[d][i]; the index is clamped to 1..24 (24: x)
# fmt: off
_POLY = _c(
    0xa6f2cb94, 0x32827792, 0x3381cc0c, 0x34523d4a, 0x351ac44d, 0x35f36d88, 0x36ee8229, 0x37b8a3bb,
    0x3867a213, 0x3940033b, 0x3a2a5a1d, 0x3ae35863, 0x3b7828f2, 0x3c08b14b, 0x3c515ed3, 0xbb503236,
    0xbd8d8e5e, 0xbe8abcd9, 0xbf0c19a2, 0xbeccb328, 0x3e176ced, 0x3f470d99, 0x3f7abb28, 0x3f800000,
    0, 0, 0, 0, 0, 0, 0, 0,
    0x3f4c422a, 0x3f4c421f, 0x3f4c4207, 0x3f4c41cb, 0x3f4c413b, 0x3f4c3fad, 0x3f4c3a2f, 0x3f4c2d40,
    0x3f4c146a, 0x3f4bc341, 0x3f4ad08c, 0x3f48f8cf, 0x3f45fac7, 0x3f404e07, 0x3f3b980f, 0x3f48dff3,
    0x3f78b21b, 0x3fbb0704, 0x40019c32, 0x3fe536d6, 0x3f81331e, 0x3e6c8684, 0x3c98f936, 0,
    0x3f800000, 0, 0, 0, 0, 0, 0, 0,
    0xb62173f4, 0x3735e4cf, 0x37f2ff89, 0x388c23be, 0x3917535c, 0x39ab2ab0, 0x3a60fadb, 0x3af9b960,
    0x3b6e5491, 0x3c0a4ec5, 0x3ca5aa8c, 0x3d2138d9, 0x3d8737d4, 0x3ddfb660, 0x3e0f27ab, 0x3d94004b,
    0xbe0efdeb, 0xbf1d96c3, 0xbf89db58, 0xbf6d9897, 0xbef69fb8, 0xbdc4f8a8, 0xbbde6422, 0,
    0, 0, 0, 0, 0, 0, 0, 0,
    0xbe081a19, 0xbe084570, 0xbe08639b, 0xbe089837, 0xbe08f409, 0xbe09ab95, 0xbe0b66d0, 0xbe0e400a,
    0xbe124df8, 0xbe1bde02, 0xbe2f19c9, 0xbe4931bf, 0xbe685fbc, 0xbe89c95f, 0xbe96cbca, 0xbe8044aa,
    0xbe0550f2, 0x3dcfd6a1, 0x3e94c826, 0x3e79345f, 0x3decec91, 0x3ca46568, 0x3aa1e00a, 0,
    0, 0, 0, 0, 0, 0, 0, 0,
    0xba3d61db, 0x39f097a3, 0x3a5845dc, 0x3ab1fa35, 0x3b0cefb8, 0x3b653ab6, 0x3bcae527, 0x3c221712,
    0x3c6c5840, 0x3cc0a703, 0x3d1dcc19, 0x3d63656d, 0x3d955907, 0x3dbf9910, 0x3dd53f69, 0x3db7dcef,
    0x3d639ebe, 0xba6ede48, 0xbd22be69, 0xbd041cf1, 0xbc64f5ab, 0xbb097a32, 0xb8ebf380, 0,
    0, 0, 0, 0, 0, 0, 0, 0,
    0x3cb7d80c, 0x3c9b6050, 0x3c978d11, 0x3c92e850, 0x3c8d058b, 0x3c848454, 0x3c6cd623, 0x3c4c824b,
    0x3c2a7935, 0x3be0b390, 0x3b0651ac, 0xbb232f53, 0xbbd42fa0, 0xbc2c5366, 0xbc492c9e, 0xbc2a7aa6,
    0xbbd55d04, 0xba823a76, 0x3b102aa8, 0x3ae25a7e, 0x3a31f792, 0x38b84375, 0x3689bb5a, 0,
    0, 0, 0, 0, 0, 0, 0, 0,
).reshape(6, 32)
# fmt: on
_RBOUND = _c(0x40B15CEE)[0]  # past it erf is 1 (piece 23)

_ONE, _HALF = _F32(1), _F32(0.5)
_ONE_OVER_SQRT_TWO, _ONE_OVER_SQRT_PI, _AS_P = _c(0x3F3504F3, 0x3F106EBA, 0x3EA7BA05)
_AS_POLY = _c(0x3E827906, 0xBE91A98E, 0x3FB5F0E3, 0xBFBA00E3, 0x3F87DC22)
_LOG2E, _LN_FLT_MAX, _LN_FLT_MIN, _LN2 = _c(0x3FB8AA3B, 0x42B17218, 0xC2AEAC50, 0x3F317218)
_EXP_POLY = _c(0x3F7FFFFB, 0x3EFFFEE3, 0x3E2AAD40, 0x3D2B9D0D, 0x3C07CFCE)


def gelu(x: np.ndarray) -> np.ndarray:
    """oneDNN's AVX-512 ``gelu_erf`` forward of a float32 array."""
    bits = np.ascontiguousarray(x, _F32).view(np.uint32).reshape(x.shape) & np.uint32(0x7FFFFFFF)
    x_pos = bits.view(_F32)
    # the index: (bits - 0x3de00001) >> 21 as int32, clamped to 1..24; 23 past the bound
    index = (bits + np.uint32(0xC21FFFFF)).view(np.int32) >> 21
    index = np.where(x_pos > _RBOUND, 23, np.clip(index, 1, 24))
    with np.errstate(all="ignore"):
        pol = _POLY[5][index]
        for degree in range(4, -1, -1):
            pol = fma(pol, x_pos, _POLY[degree][index])
        pol = np.where(np.signbit(x), -pol, pol)
        return (x * (pol + _ONE)) * _HALF


def _exp(v: np.ndarray) -> np.ndarray:
    """oneDNN's exp: ``2 * 2^(n-1) * p(r)``, ``n = floor(v log2 e + 0.5)``, 0 below ln(FLT_MIN)."""
    underflow = v < _LN_FLT_MIN
    v = np.where(np.isnan(v) | (v > _LN_FLT_MAX), _LN_FLT_MAX, v)  # vminps: nan -> the bound
    v = np.maximum(v, _LN_FLT_MIN)
    n = np.floor(v * _LOG2E + _HALF)
    r = fma(-n, _LN2, v)
    scale = ((n - _ONE).astype(np.int32) + 127) << 23
    scale = np.where(underflow, 0, scale).astype(np.uint32).view(_F32)
    p = np.full_like(r, _EXP_POLY[4])
    for c in _EXP_POLY[3::-1]:
        p = fma(p, r, c)
    return fma(p, r, _ONE) * scale * _F32(2)


def gelu_backward(grad: np.ndarray, x: np.ndarray) -> np.ndarray:
    """oneDNN's ``gelu_erf`` backward: ``grad * gelu'(x)``, float32."""
    with np.errstate(all="ignore"):
        r = x * _ONE_OVER_SQRT_TWO
        q = _exp(-(r * r))
        t = (r * _ONE_OVER_SQRT_PI) * q
        w = _ONE / fma(_AS_P, np.abs(r), _ONE)
        p = np.full_like(w, _AS_POLY[4])
        for c in _AS_POLY[3::-1]:
            p = fma(p, w, c)
        erf = fma((-q) * w, p, _ONE)
        erf = np.where(np.signbit(r), -erf, erf)
        return grad * fma(erf, _HALF, t + _HALF)
