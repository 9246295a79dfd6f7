"""PyTorch's CPU softmax arithmetic, step by step in numpy, for the digits a learner sees.

PyTorch's softmax kernels (``aten/src/ATen/native/cpu/SoftMaxKernel.cpp``) do not compute
``exp`` as numpy does: they run on vectors of 16 floats (8 doubles), with SLEEF's vectorised
``exp`` (error up to 1 ulp, not numpy's), sums kept lane by lane and folded at the end, the
last partial vector's elements handled by the scalar ``std::exp``, and multiply-adds fused
into one rounding. Each difference is an ulp, but softmax's outputs are subtracted from one
another (``grad - sum``, ``cross_entropy`` of soft targets) and the ulp shows in the printed
digits, or as 0. against 1e-9. This module redoes those steps exactly:

- ``vector_exp``: SLEEF's float32 ``expf`` (u10): ``q = rint(x / ln 2)``, ``s = x - q ln 2``
  in two parts, a degree-6 polynomial evaluated with fused multiply-adds, ``2**q`` applied
  in two halves; below -104 it is 0., above 100 inf.
- ``lane_sum``: ``vec::reduce_all``: fewer elements than a vector are added one after the
  other; more are added lane-wise (the tail into the first lanes), then the lanes folded in
  halves (8 + 8, 4 + 4, 2 + 2, 1 + 1 for float32).
- ``fma``: a multiply-add rounded once (``_fma``: exact in numpy, float32 and float64).

float64 takes SLEEF's double ``exp`` and an exact fused multiply-add from ``sleef_double``
(numpy's float64 ``exp`` differs from SLEEF's in the last bit for 8 inputs in 100, which
``softmax(x).sum()`` printed), and the scalar tails glibc's ``exp`` (``math.exp``; numpy's
own differs from it for 5 inputs in 100). The emulation costs about 30 numpy calls (float64:
about 150), so the softmax ops use it for tensors of up to ``EXACT_UP_TO`` elements, what a
lesson prints; a training batch keeps numpy's fused ufuncs, within an ulp of PyTorch. The
vectors are AVX-512's (``_cpu_vectors.LANES``): on a CPU where PyTorch runs shorter ones the
lanes fold differently and the values agree within an ulp, not to the bit.
"""

from __future__ import annotations

import math

import numpy as np

from . import libm_float, sleef_double
from ._cpu_vectors import LANES  # lanes of PyTorch's AVX-512 vectors: 16 / 8
from ._fma import fma as exact_fma

_F32, _F64 = np.dtype(np.float32), np.dtype(np.float64)

#: tensors of up to this many elements get PyTorch's exact arithmetic (4 x 4 x 4 x 4)
EXACT_UP_TO = 256

# SLEEF's constants for expf, as float32 values held in float64
_R_LN2 = float(np.float32(1.442695040888963407359924681001892137426645954152985934135449406931))
_L2U = float(np.float32(0.693145751953125))  # ln 2's high part (q * _L2U is exact)
_L2L = float(np.float32(1.428606765330187045e-06))  # and its low part
_POLY = [
    float(np.float32(c))
    for c in (
        0.000198527617612853646278381,
        0.00139304355252534151077271,
        0.00833336077630519866943359,
        0.0416664853692054748535156,
        0.166666671633720397949219,
        0.5,
    )
]


def _round32(x: np.ndarray) -> np.ndarray:
    """float64 values rounded to float32's precision, kept as float64."""
    return x.astype(_F32).astype(_F64)


def fma(a: np.ndarray, b, c) -> np.ndarray:
    """``a * b + c`` rounded once in ``a``'s dtype, float32 or float64 (``_fma``)."""
    return exact_fma(a, b, c)


def vector_exp(a: np.ndarray) -> np.ndarray:
    """``exp`` as PyTorch's vectorised CPU code computes it (see the module docstring)."""
    if a.dtype != _F32:
        return sleef_double.exp(a)
    with np.errstate(all="ignore"):
        d = a.astype(_F64)
        q = np.rint(_round32(d * _R_LN2))
        s = _round32((d - q * _L2U) - q * _L2L)  # the first step is exact, the second fused
        u = np.full_like(s, _POLY[0])
        for c in _POLY[1:]:
            u = _round32(u * s + c)
        u = _round32(_round32(s * s) * u + s)
        u = (u + 1.0).astype(_F32)
        qi = np.nan_to_num(q, nan=0.0, posinf=0.0, neginf=0.0).astype(np.int32)
        half = qi >> 1
        one = np.float32(1)
        out = u * np.ldexp(one, half) * np.ldexp(one, qi - half)
    out[a < -104] = 0
    out[a > 100] = np.inf
    out[np.isnan(a)] = np.nan
    return out


def scalar_exp(a: np.ndarray) -> np.ndarray:
    """``std::exp`` of the kernels' scalar tails: glibc's ``expf`` (``libm_float``) and, for
    float64, glibc's ``exp`` itself (``math.exp``), element by element."""
    if a.dtype == _F32:
        return libm_float.expf(a).reshape(a.shape)
    return _glibc_exp(a).reshape(a.shape)


def _exp_or_inf(x: float) -> float:
    try:
        return math.exp(x)
    except OverflowError:
        return math.inf


_glibc_exp = np.vectorize(_exp_or_inf, otypes=[_F64])


def lane_sum(v: np.ndarray, w: np.ndarray | None = None) -> np.ndarray:
    """``vec::reduce_all(+)`` over the last axis of ``v`` (keepdims): PyTorch's order.

    With ``w``, the sum of ``v * w`` as ``map2_reduce_all`` makes it: products rounded and
    added lane-wise, but float32's last partial vector's multiply-add fused into one rounding.
    float64's lanes are folded one after the other (``vec_reduce_all`` has no SIMD fold for
    double), float32's in halves (measured against torch).
    """
    n, lanes = v.shape[-1], LANES[v.dtype]
    if n < lanes:  # one partial vector: its lanes added one after the other
        terms = v if w is None else v * w
        acc = terms[..., :1].copy()
        for j in range(1, n):
            acc += terms[..., j : j + 1]
        return acc
    acc = v[..., :lanes].copy() if w is None else v[..., :lanes] * w[..., :lanes]
    for d in range(lanes, n, lanes):
        k = min(lanes, n - d)
        if w is None:
            acc[..., :k] += v[..., d : d + k]
        elif k == lanes or v.dtype != _F32:
            acc[..., :k] += v[..., d : d + k] * w[..., d : d + k]
        else:  # the compiler fused float's last partial multiply-add (measured; not double's)
            acc[..., :k] = fma(v[..., d : d + k], w[..., d : d + k], acc[..., :k])
    if v.dtype != _F32:  # double's lanes are added one after the other (no SIMD fold)
        out = acc[..., :1].copy()
        for j in range(1, lanes):
            out += acc[..., j : j + 1]
        return out
    half = lanes // 2
    while half:
        acc = acc + acc[..., np.arange(lanes) ^ half]
        half //= 2
    return acc[..., :1]


def split_dim(a: np.ndarray, axis: int) -> np.ndarray:
    """``a`` (C-ordered) seen as (outer, dim, inner), as the kernels index it."""
    outer = int(np.prod(a.shape[:axis], dtype=np.int64))
    return a.reshape(outer, a.shape[axis], -1) if a.size else a.reshape(outer, a.shape[axis], 0)


def exp_by_column(a: np.ndarray) -> np.ndarray:
    """exp of a (outer, dim, inner) array as the kernels along a dim that is not the last
    compute it: whole vectors of ``inner`` positions vectorised, the rest by ``std::exp``."""
    vec = a.shape[2] // LANES[a.dtype] * LANES[a.dtype]
    out = np.empty_like(a)
    out[..., :vec] = vector_exp(a[..., :vec])
    out[..., vec:] = scalar_exp(a[..., vec:])
    return out
