"""The C library's float32 ``erff``, ``expm1f`` and ``log1pf``, as PyTorch's scalar loops call them.

PyTorch's CPU kernels hand a tensor's elements to a vectorised function in blocks of 32
floats and the rest (a small tensor: all of it; a strided one: all of it) to a scalar
function that calls ``std::erf``, ``std::expm1``, ``std::log1p`` on a float: the C library's
``erff``, ``expm1f``, ``log1pf``. glibc (2.36 here, the same through 2.40) computes those
with Sun's fdlibm algorithms in float arithmetic, within an ulp of the true value but not
always its correct rounding; ``gelu(-0.29)`` then prints ``-0.11212044`` in PyTorch where
the correctly rounded erf gives ``-0.11212043``. This module redoes fdlibm's steps in numpy,
float32 operation by float32 operation (no fused multiply-adds: glibc's generic x86-64 build
has none), over whole arrays: each interval's formula is computed for every element and the
right one picked.

The algorithms and their constants (the rational approximations' coefficients, the interval
bounds, the argument reductions) are Sun Microsystems' fdlibm (1993, "freely granted"), as
glibc's ``sysdeps/ieee754/flt-32/s_erff.c``, ``s_expm1f.c`` and ``s_log1pf.c`` carry them;
the code here is written anew for numpy. ``expf`` inside erff is glibc's newer expf, which
computes in double: its result is the correctly rounded exp but for ties no test has met.
"""

from __future__ import annotations

import numpy as np

_F32, _F64 = np.float32, np.float64


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


# glibc's expf (ARM's optimized-routines algorithm): 2^(k/32) from a table of 32 doubles
# (their bits less k << 47) times a cubic in r, all in double, then rounded once to float.
_EXP2F_TAB = np.array(
    [
        0x3FF0000000000000,
        0x3FEFD9B0D3158574,
        0x3FEFB5586CF9890F,
        0x3FEF9301D0125B51,
        0x3FEF72B83C7D517B,
        0x3FEF54873168B9AA,
        0x3FEF387A6E756238,
        0x3FEF1E9DF51FDEE1,
        0x3FEF06FE0A31B715,
        0x3FEEF1A7373AA9CB,
        0x3FEEDEA64C123422,
        0x3FEECE086061892D,
        0x3FEEBFDAD5362A27,
        0x3FEEB42B569D4F82,
        0x3FEEAB07DD485429,
        0x3FEEA47EB03A5585,
        0x3FEEA09E667F3BCD,
        0x3FEE9F75E8EC5F74,
        0x3FEEA11473EB0187,
        0x3FEEA589994CCE13,
        0x3FEEACE5422AA0DB,
        0x3FEEB737B0CDC5E5,
        0x3FEEC49182A3F090,
        0x3FEED503B23E255D,
        0x3FEEE89F995AD3AD,
        0x3FEEFF76F2FB5E47,
        0x3FEF199BDD85529C,
        0x3FEF3720DCEF9069,
        0x3FEF5818DCFBA487,
        0x3FEF7C97337B9B5F,
        0x3FEFA4AFA2A490DA,
        0x3FEFD0765B6E4540,
    ],
    np.uint64,
)
_EXPF_POLY = (
    float.fromhex("0x1.c6af84b912394p-5") / 32**3,
    float.fromhex("0x1.ebfce50fac4f3p-3") / 32**2,
    float.fromhex("0x1.62e42ff0c52d6p-1") / 32,
)
_INV_LN2_32 = float.fromhex("0x1.71547652b82fep+0") * 32
_SHIFT = float.fromhex("0x1.8p+52")


def expf(x: np.ndarray) -> np.ndarray:
    """glibc's ``expf`` of a float32 array (see the comment above): within 0.502 ulp,
    so a few inputs in 10,000 round the other way than the correctly rounded exp."""
    x = np.asarray(x, _F32)
    with np.errstate(all="ignore"):
        xd = x.astype(_F64)
        z = _INV_LN2_32 * xd
        kd = z + _SHIFT
        ki = np.nan_to_num(kd).view(np.uint64)
        kd = kd - _SHIFT
        r = z - kd
        t = _EXP2F_TAB[ki % np.uint64(32)] + (ki << np.uint64(47))
        s = t.view(_F64)
        y = (_EXPF_POLY[0] * r + _EXPF_POLY[1]) * (r * r) + (_EXPF_POLY[2] * r + 1)
        out = (y * s).astype(_F32)
        out = np.where(x > _F32(float.fromhex("0x1.62e42ep6")), _F32(np.inf), out)
        out = np.where(x < _F32(-float.fromhex("0x1.9fe368p6")), _F32(0), out)
    return np.where(np.isnan(x), x, out).astype(_F32)


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


# -- expm1f -------------------------------------------------------------------------------

_LN2_HI, _LN2_LO, _INV_LN2 = _c(0x3F317180), _c(0x3717F7D1), _c(0x3FB8AA3B)
_Q = [_ONE, *_floats(0xBD088889, 0x3AD00D01, 0xB8A670CD, 0x36867E54, 0xB457EDBB)]


def _add_exponent(y: np.ndarray, k: np.ndarray) -> np.ndarray:
    """``y * 2**k`` by adding ``k`` to the exponent bits, as fdlibm's SET_FLOAT_WORD does."""
    return _from_bits(_bits(y) + (k << 23).astype(np.int32)).reshape(y.shape)


def expm1f(x: np.ndarray) -> np.ndarray:
    """glibc's ``expm1f`` of a float32 array, bit for bit (see the module docstring)."""
    x = np.asarray(x, _F32)
    hx = _bits(x).reshape(x.shape)
    ax = hx & 0x7FFFFFFF
    negative = hx < 0
    half = _F32(0.5)
    with np.errstate(all="ignore"):
        # argument reduction: x = k ln2 + hi - lo, |hi - lo| <= ln2 / 2
        one_ln2 = ax < 0x3F851592  # |x| < 1.5 ln2: k = +-1
        k_float = (_INV_LN2 * x + np.where(negative, -half, half)).astype(_F32)
        k = np.where(one_ln2, np.where(negative, -1, 1), np.trunc(np.nan_to_num(k_float)))
        k = np.where(ax > 0x3EB17218, k, 0).astype(np.int32)
        t = k.astype(_F32)
        hi = x - t * _LN2_HI  # t * ln2_hi is exact
        lo = t * _LN2_LO
        reduced = k != 0
        xr = np.where(reduced, hi - lo, x)
        c = np.where(reduced, (hi - xr) - lo, _F32(0))
        # x is now in the primary range
        hfx = half * xr
        hxs = xr * hfx
        r1 = _poly(hxs, _Q)
        t = _F32(3) - r1 * hfx
        e = hxs * ((r1 - t) / (_F32(6) - xr * t))
        k0 = xr - (xr * e - hxs)
        e = xr * (e - c) - c
        e = e - hxs
        k_minus1 = half * (xr - e) - half
        k_plus1 = np.where(
            xr < _F32(-0.25), -_F32(2) * (e - (xr + half)), _ONE + _F32(2) * (xr - e)
        )
        far = _add_exponent(_ONE - (e - xr), k) - _ONE  # k <= -2 or k > 56
        kk = np.clip(k, 0, 22)
        one_minus = _from_bits(0x3F800000 - (np.int32(0x1000000) >> kk)).reshape(x.shape)
        below23 = _add_exponent(one_minus - (e - xr), k)
        two_minus_k = _from_bits((0x7F - np.clip(k, 23, 56)) << 23).reshape(x.shape)
        from23 = _add_exponent((xr - (e + two_minus_k)) + _ONE, k)
        out = np.select(
            [k == 0, k == -1, k == 1, (k <= -2) | (k > 56), k < 23],
            [k0, k_minus1, k_plus1, far, below23],
            from23,
        )
        out = np.where(ax < 0x33000000, x, out)  # |x| < 2**-25: x
        out = np.where(negative & (ax >= 0x4195B844), -_ONE, out)  # x <= -27 ln2: -1
        out = np.where(~negative & (x > _c(0x42B17180)), _F32(np.inf), out)
    return np.where(np.isnan(x), x, out).astype(_F32)


# -- log1pf -------------------------------------------------------------------------------

_LP = _floats(0x3F2AAAAB, 0x3ECCCCCD, 0x3E924925, 0x3E638E29, 0x3E3A3325, 0x3E1CD04F, 0x3E178897)


def log1pf(x: np.ndarray) -> np.ndarray:
    """glibc's ``log1pf`` of a float32 array, bit for bit (see the module docstring)."""
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
    x = np.asarray(x, _F32)
    ax = _bits(x).reshape(x.shape) & 0x7FFFFFFF
    two = _F32(2)
    with np.errstate(all="ignore"):
        a = np.abs(x)
        t = expm1f(two * a)
        large = _ONE - two / (t + two)  # |x| >= 1
        t = expm1f(-two * a)
        small = -t / (t + two)
        z = np.where(ax >= 0x3F800000, large, small)
        z = np.where(ax >= 0x41B00000, _ONE, z)  # |x| >= 22: 1 - tiny rounds to 1
        out = np.where(np.signbit(x), -z, z)
        out = np.where(ax < 0x24000000, x * (_ONE + x), out)  # tiny and zero: x
    return np.where(np.isnan(x), x, out).astype(_F32)
