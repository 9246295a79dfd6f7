"""The C library's float32 erf, expm1, log1p and tanh, as PyTorch's scalar loops call them.

PyTorch's CPU kernels hand a tensor's elements to a vectorised function in blocks of 32
floats and the rest (a small tensor: all of it; a strided one: all of it) to a scalar
function that calls ``std::erf``, ``std::expm1``, ... on a float: the C library's. glibc up
to 2.40 (Debian 12 has 2.36) computes ``erff``, ``expm1f``, ``log1pf`` and ``tanhf`` with
Sun's fdlibm algorithms in float arithmetic, within an ulp of the true value but not always
its correct rounding (``gelu`` of -0.29075384 alone prints ``-0.11212044`` in PyTorch where
the correctly rounded erf gives ``-0.11212043``); from 2.41 on they are CORE-MATH's,
correctly rounded. ``expf`` (ARM's optimized-routines algorithm in every version, within
0.502 ulp) and fdlibm's ``expm1f`` are in ``libm_float.py`` (with ``sinhf``, ``coshf``);
this module has the others and the choice between fdlibm and the correctly rounded ones.
Both redo the library's steps in numpy, float32 operation by float32 operation (no fused
multiply-adds: glibc's generic x86-64 build has none), over whole arrays: each interval's
formula is computed for every element and the right one picked. ``FDLIBM`` says which
library this process runs on (``platform.libc_ver()``): other than glibc before 2.41, the
four functions are the correctly rounded ones.

The algorithms and their constants (the rational approximations' coefficients, the interval
bounds, the argument reductions) are Sun Microsystems' fdlibm (1993, "freely granted"), as
glibc 2.36's ``sysdeps/ieee754/flt-32/s_erff.c``, ``s_log1pf.c`` and ``s_tanhf.c`` carry
them; the code here is written anew for numpy.
"""

from __future__ import annotations

import math
import platform

import numpy as np

from .libm_float import expf
from .libm_float import expm1f as _fdlibm_expm1f

_F32, _F64 = np.float32, np.float64


def _runs_fdlibm() -> bool:
    library, version = platform.libc_ver()
    numbers = tuple(int(part) for part in version.split(".")[:2] if part.isdigit())
    return library == "glibc" and numbers < (2, 41)


#: whether the C library's erff/expm1f/log1pf/tanhf are fdlibm's (glibc < 2.41)
FDLIBM = _runs_fdlibm()
_ERF = np.frompyfunc(math.erf, 1, 1)


def _correctly_rounded(fn, x: np.ndarray) -> np.ndarray:
    """``fn`` computed in float64 and rounded to float32 (CORE-MATH's result)."""
    with np.errstate(all="ignore"):
        return np.asarray(fn(np.asarray(x, _F64)), _F64).astype(_F32)


def _c(bits: int) -> np.float32:
    """A float32 constant from its IEEE bits, as fdlibm's comments give them."""
    return np.uint32(bits).view(_F32)


def _floats(*bits: int) -> list[np.float32]:
    return [_c(b) for b in bits]


def _bits(x: np.ndarray) -> np.ndarray:
    """The IEEE bits of float32 values as int32 (fdlibm's GET_FLOAT_WORD)."""
    return np.ascontiguousarray(x, _F32).view(np.int32)


def _from_bits(i: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(i, np.int32).view(_F32)


def _poly(z: np.ndarray, coefficients) -> np.ndarray:
    """``c0 + z*(c1 + z*(c2 + ...))`` in float32, innermost first (fdlibm's nesting)."""
    acc = np.full_like(z, coefficients[-1])
    for c in coefficients[-2::-1]:
        acc = c + z * acc
    return acc


# -- erff ---------------------------------------------------------------------------------

_ONE = _F32(1)
_ERX = _c(0x3F58560B)
_EFX = _c(0x3E0375D4)
_PP = _floats(0x3E0375D4, 0xBEA66BEB, 0xBCE9528F, 0xBBBD1489, 0xB7C756B1)
_QQ = [_ONE, *_floats(0x3ECBBBCE, 0x3D852A63, 0x3BA68116, 0x390AEE49, 0xB684E21A)]
_PA = _floats(0xBB1ACDC6, 0x3ED46805, 0xBEBE9208, 0x3EA2FE54, 0xBDE31CC2, 0x3D1151B3, 0xBB0DF9C0)
_QA = [_ONE, *_floats(0x3DD9F331, 0x3F0A5785, 0x3D931AE7, 0x3E013307, 0x3C5F6E13, 0x3C445AA3)]
_RA = _floats(
    0xBC21A093, 0xBF31A0B7, 0xC128F022, 0xC2798057, 0xC322658C, 0xC3389AE7, 0xC2A2932B, 0xC11D077E
)
_SA = [_ONE] + _floats(
    0x419D35CE, 0x4309A863, 0x43D9486F, 0x442158C9, 0x43D6810B, 0x42D9451F, 0x40D23F7C, 0xBD777F97
)
_RB = _floats(0xBC21A092, 0xBF4C9DD4, 0xC18E104B, 0xC320A2EA, 0xC41F6441, 0xC480230B, 0xC3F1C275)
_SB = [_ONE] + _floats(
    0x41F2B459, 0x43A2E571, 0x44C01759, 0x4547FDBB, 0x451F90CE, 0x43ED43A7, 0xC1B38712
)


def erff(x: np.ndarray) -> np.ndarray:
    """glibc's ``erff`` of a float32 array, bit for bit (see the module docstring)."""
    if not FDLIBM:
        return _correctly_rounded(lambda v: np.asarray(_ERF(v), _F64), x)
    x = np.asarray(x, _F32)
    hx = _bits(x).reshape(x.shape)
    ix = hx & 0x7FFFFFFF
    negative = hx < 0
    with np.errstate(all="ignore"):
        # |x| < 2**-28: x + efx*x (below 2**-119 scaled by 16 against underflow)
        tiny = np.where(
            ix < 0x04000000,
            _F32(0.0625) * (_F32(16) * x + (_F32(16) * _EFX) * x),
            x + _EFX * x,
        )
        # |x| < 0.84375: x + x * P(x^2)/Q(x^2)
        z = x * x
        small = x + x * (_poly(z, _PP) / _poly(z, _QQ))
        # 0.84375 <= |x| < 1.25: erx + P(s)/Q(s), s = |x| - 1
        s = np.abs(x) - _ONE
        middle = _ERX + _poly(s, _PA) / _poly(s, _QA)
        middle = np.where(negative, -middle, middle)
        # 1.25 <= |x| < 6: 1 - exp(-z^2 - 0.5625) exp((z - a)(z + a) + R/S) / a
        a = np.abs(x)
        s = _ONE / (a * a)
        near = ix < 0x4036DB6E
        ratio = np.where(near, _poly(s, _RA) / _poly(s, _SA), _poly(s, _RB) / _poly(s, _SB))
        z = _from_bits(_bits(a) & np.int32(-4096)).reshape(x.shape)  # low 12 bits cleared
        r = expf(-z * z - _F32(0.5625)) * expf((z - a) * (z + a) + ratio)
        tail = np.where(negative, r / a - _ONE, _ONE - r / a)
        # |x| >= 6: +-1; inf: +-1; nan: nan
        out = np.select(
            [ix < 0x31800000, ix < 0x3F580000, ix < 0x3FA00000, ix < 0x40C00000],
            [tiny, small, middle, tail],
            np.where(negative, -_ONE, _ONE),
        )
    return np.where(np.isnan(x), x, out).astype(_F32)


# -- expm1f: fdlibm's is ``libm_float.expm1f`` ----------------------------------------------


def expm1f(x: np.ndarray) -> np.ndarray:
    """glibc's ``expm1f`` of a float32 array, bit for bit (see the module docstring)."""
    if not FDLIBM:
        return _correctly_rounded(np.expm1, x)
    return _fdlibm_expm1f(np.asarray(x, _F32))


# -- log1pf -------------------------------------------------------------------------------

_LN2_HI, _LN2_LO = _c(0x3F317180), _c(0x3717F7D1)
_LP = _floats(0x3F2AAAAB, 0x3ECCCCCD, 0x3E924925, 0x3E638E29, 0x3E3A3325, 0x3E1CD04F, 0x3E178897)


def log1pf(x: np.ndarray) -> np.ndarray:
    """glibc's ``log1pf`` of a float32 array, bit for bit (see the module docstring)."""
    if not FDLIBM:
        return _correctly_rounded(np.log1p, x)
    x = np.asarray(x, _F32)
    hx = _bits(x).reshape(x.shape)
    ax = hx & 0x7FFFFFFF
    one = _ONE
    with np.errstate(all="ignore"):
        # -0.2929 < x < 0.41422: no reduction (k = 0, f = x)
        direct = (hx < 0x3ED413D7) & ((hx > 0) | (hx <= np.int32(-1097468385)))  # 0xbe95f61f
        u = np.where(hx < 0x5A000000, one + x, x)
        hu = _bits(u).reshape(x.shape)
        k = (hu >> 23) - 127
        c = np.where(k > 0, one - (u - x), x - (u - one)) / u
        c = np.where(hx < 0x5A000000, c, _F32(0))
        hu = hu & 0x007FFFFF
        low = hu < 0x3504F7
        u = _from_bits(np.where(low, hu | 0x3F800000, hu | 0x3F000000)).reshape(x.shape)
        k = np.where(low, k, k + 1)
        hu = np.where(low, hu, (0x00800000 - hu) >> 2)
        f = np.where(direct, x, u - one)
        k = np.where(direct, 0, k)
        hu = np.where(direct, 1, hu)
        kf = k.astype(_F32)
        hfsq = _F32(0.5) * f * f
        # |f| < 2**-20
        tiny_r = hfsq * (one - _F32(0.66666666666666666) * f)
        tiny_f = np.where(
            f == 0,
            np.where(k == 0, _F32(0), kf * _LN2_HI + (c + kf * _LN2_LO)),
            np.where(k == 0, f - tiny_r, kf * _LN2_HI - ((tiny_r - (kf * _LN2_LO + c)) - f)),
        )
        s = f / (_F32(2) + f)
        z = s * s
        r = z * _poly(z, _LP)
        general = np.where(
            k == 0,
            f - (hfsq - s * (hfsq + r)),
            kf * _LN2_HI - ((hfsq - (s * (hfsq + r) + (kf * _LN2_LO + c))) - f),
        )
        out = np.where(hu == 0, tiny_f, general)
        small = ax < 0x31000000  # |x| < 2**-29
        out = np.where(small, np.where(ax < 0x24800000, x, x - x * x * _F32(0.5)), out)
        out = np.where(x == -1, _F32(-np.inf), out)
        out = np.where(x < -1, _F32(np.nan), out)
        out = np.where(hx >= 0x7F800000, x + x, out)
    return np.where(np.isnan(x), x, out).astype(_F32)


# -- tanhf --------------------------------------------------------------------------------


def tanhf(x: np.ndarray) -> np.ndarray:
    """glibc's ``tanhf`` (fdlibm's, through ``expm1f``) of a float32 array, bit for bit."""
    if not FDLIBM:
        return _correctly_rounded(np.tanh, x)
    x = np.asarray(x, _F32)
    ax = _bits(x).reshape(x.shape) & 0x7FFFFFFF
    two = _F32(2)
    with np.errstate(all="ignore"):
        a = np.abs(x)
        t = _fdlibm_expm1f(two * a)
        large = _ONE - two / (t + two)  # |x| >= 1
        t = _fdlibm_expm1f(-two * a)
        small = -t / (t + two)
        z = np.where(ax >= 0x3F800000, large, small)
        z = np.where(ax >= 0x41B00000, _ONE, z)  # |x| >= 22: 1 - tiny rounds to 1
        out = np.where(np.signbit(x), -z, z)
        out = np.where(ax < 0x24000000, x * (_ONE + x), out)  # tiny and zero: x
    return np.where(np.isnan(x), x, out).astype(_F32)
