"""The C library's float32 ``atan2f`` (glibc's, before 2.41), as PyTorch's scalar loop calls it.

PyTorch's ``atan2`` kernel hands the elements its vector loop does not take (a tensor of
fewer than 16 floats, a strided one, the tail of a row) to ``std::atan2`` on floats: glibc's
``atan2f``, which up to 2.40 is Sun's fdlibm in float arithmetic (every operation rounded to
float32, no fused multiply-add), off the correctly rounded angle for about 1 input in 7. Its
steps:

- the special cases first: nan, ``x == 1`` (``atanf(y)``), a zero ``y`` (``+-0`` or
  ``+-pi`` by the signs), a zero ``x`` (``+-pi/2``), infinities (multiples of ``pi/4``);
- ``z = atanf(|y / x|)`` (``pi/2`` when ``|y/x| > 2**60``, 0 when ``x < 0`` and
  ``|y/x| < 2**-60``), then moved to the quadrant: ``z``, ``-z``, ``pi - (z - pi_lo)``,
  ``(z - pi_lo) - pi``;
- ``atanf(t)``: ``t`` reduced around 0, 0.5, 1, 1.5 or infinity (``(2t - 1) / (2 + t)``,
  ``(t - 1) / (t + 1)``, ``(t - 1.5) / (1 + 1.5t)``, ``-1/t``), then ``atan`` of the
  reduced ``t`` by an odd polynomial of degree 23 split in two halves, added to ``atan``
  of the centre in two parts (``atanhi + atanlo``).

The constants are fdlibm's (1993, "freely granted"), by their IEEE bits as its comments give
them; the code is written anew for numpy, over whole arrays: each branch is computed for
every element and the right one picked. On other C libraries (glibc from 2.41 has
CORE-MATH's correctly rounded ``atan2f``) the correctly rounded value is used.
"""

from __future__ import annotations

import numpy as np

from .libm_float32 import FDLIBM, _bits, _c, _floats

_F32 = np.float32
_ONE = _F32(1)
_PI_O_4 = _c(0x3F490FDB)
_PI_O_2 = _c(0x3FC90FDB)
_PI = _c(0x40490FDB)
_PI_LO = _c(0xB3BBBD2E)
_TINY = _F32(1e-30)
_ATANHI = _floats(0x3EED6338, 0x3F490FDA, 0x3F7B985E, 0x3FC90FDA)
_ATANLO = _floats(0x31AC3769, 0x33222168, 0x33140FB4, 0x33A22168)
_AT = _floats(
    0x3EAAAAAB, 0xBE4CCCCD, 0x3E124925, 0xBDE38E38, 0x3DBA2E6E, 0xBD9D8795,
    0x3D886B35, 0xBD6EF16B, 0x3D4BDA59, 0xBD15A221, 0x3C8569D7,
)  # fmt: skip


def atanf(x: np.ndarray) -> np.ndarray:
    """fdlibm's ``atanf`` of float32 ``x`` (elementwise)."""
    shape = np.shape(x)
    x = np.asarray(x, _F32).ravel()
    hx = _bits(x)
    ix = hx & 0x7FFFFFFF
    a = np.abs(x)
    with np.errstate(all="ignore"):
        reduced = [
            (_F32(2) * a - _ONE) / (_F32(2) + a),
            (a - _ONE) / (a + _ONE),
            (a - _F32(1.5)) / (_ONE + _F32(1.5) * a),
            -_ONE / a,
        ]
        idx = np.select(
            [ix < 0x3EE00000, ix < 0x3F300000, ix < 0x3F980000, ix < 0x401C0000], [-1, 0, 1, 2], 3
        )
        t = np.where(idx < 0, x, np.choose(np.maximum(idx, 0), reduced))
        z = t * t
        w = z * z
        s1 = z * (_AT[0] + w * (_AT[2] + w * (_AT[4] + w * (_AT[6] + w * (_AT[8] + w * _AT[10])))))
        s2 = w * (_AT[1] + w * (_AT[3] + w * (_AT[5] + w * (_AT[7] + w * _AT[9]))))
        near_zero = t - t * (s1 + s2)
        k = np.maximum(idx, 0)
        hi, lo = np.asarray(_ATANHI, _F32)[k], np.asarray(_ATANLO, _F32)[k]
        centred = hi - ((t * (s1 + s2) - lo) - t)
        centred = np.where(hx < 0, -centred, centred)
    out = np.where(idx < 0, near_zero, centred)
    out = np.where(ix < 0x31000000, x, out)  # |x| < 2**-29: x itself
    big = np.where(hx > 0, _ATANHI[3] + _ATANLO[3], -_ATANHI[3] - _ATANLO[3])
    out = np.where(ix >= 0x4C000000, big, out)  # |x| >= 2**25: +-pi/2
    return np.where(ix > 0x7F800000, x + x, out).astype(_F32).reshape(shape)


def atan2f(y, x) -> np.ndarray:
    """glibc's ``atan2f(y, x)`` (fdlibm's before 2.41; correctly rounded after)."""
    y, x = np.broadcast_arrays(np.asarray(y, _F32), np.asarray(x, _F32))
    shape = y.shape
    y, x = y.ravel(), x.ravel()  # 1-d: the IEEE bits are read from contiguous arrays
    if not FDLIBM:
        with np.errstate(all="ignore"):
            exact = np.arctan2(y.astype(np.float64), x.astype(np.float64))
        return exact.astype(_F32).reshape(shape)
    hx, hy = _bits(x), _bits(y)
    ix, iy = hx & 0x7FFFFFFF, hy & 0x7FFFFFFF
    m = ((hy >> 31) & 1) | ((hx >> 30) & 2)  # 2 * sign(x) + sign(y)
    with np.errstate(all="ignore"):
        k = (iy - ix) >> 23
        quotient = atanf(np.abs(y / x))
        z = np.where(k > 60, _PI_O_2 + _F32(0.5) * _PI_LO, quotient)
        z = np.where((k <= 60) & (hx < 0) & (k < -60), _F32(0), z)
        general = np.choose(m, [z, -z, _PI - (z - _PI_LO), (z - _PI_LO) - _PI])
        neg_pi_o_2, pos_pi_o_2 = -_PI_O_2 - _TINY, _PI_O_2 + _TINY
        half = np.where(hy < 0, neg_pi_o_2, pos_pi_o_2)
        both_inf = np.choose(
            m,
            [
                _PI_O_4 + _TINY,
                -_PI_O_4 - _TINY,
                _F32(3) * _PI_O_4 + _TINY,
                _F32(-3) * _PI_O_4 - _TINY,
            ],
        )
        x_inf = np.choose(m, [_F32(0), _F32(-0.0), _PI + _TINY, -_PI - _TINY])
        y_zero = np.choose(m, [y, y, np.full_like(y, _PI + _TINY), np.full_like(y, -_PI - _TINY)])
        out = general
        out = np.where(iy == 0x7F800000, half, out)
        out = np.where(ix == 0x7F800000, np.where(iy == 0x7F800000, both_inf, x_inf), out)
        out = np.where(ix == 0, half, out)
        out = np.where(iy == 0, y_zero, out)
        out = np.where(hx == 0x3F800000, atanf(y), out)
        out = np.where((ix > 0x7F800000) | (iy > 0x7F800000), x + y, out)
    return np.asarray(out, _F32).reshape(shape)
