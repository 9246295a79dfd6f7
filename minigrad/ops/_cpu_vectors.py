"""The CPU whose kernels minigrad copies to the bit: PyTorch's x86-64 AVX-512 build.

PyTorch compiles its elementwise and softmax kernels several times (default, AVX2, AVX-512,
ARM's NEON/SVE) and picks one when it starts (``torch.backends.cpu.get_cpu_capability()``,
or the ``ATEN_CPU_CAPABILITY`` variable). The choice shows in the last bit: which elements
of a tensor take SLEEF's vector function and which the C library's scalar one, how a
vector's lanes are added, which of ``0.`` and ``-0.`` a vector ``max`` keeps. minigrad's
emulations (``vector_kernels``, ``cpu_loop_split``, ``_simd_ties``,
``onednn_gelu``) follow the AVX-512 kernels, the ones PyTorch runs on a recent x86-64 CPU:

- a vector is 64 bytes: 16 float32 or 8 float64 lanes (``LANES``);
- the unrolled elementwise loop (``cpu_kernel_vec``) takes two vectors a step, 32 float32 or
  16 float64 elements (``BLOCK``); the elements after the last whole block go one by one.

The sum, ``amax``/``amin`` and 2-norm reductions are the exception: an AVX-512 build
registers no kernel of its own for them and runs the AVX2 one, whose vectors are 32 bytes
(``REDUCTION_VECTOR_BYTES``; ``REDUCTION_LANES``: 8 float32, 4 float64), on every x86-64 CPU.

On another CPU (an AVX2-only x86-64, an ARM Mac) PyTorch's vectors are shorter and its
values may differ from minigrad's in the last bit (within an ulp); the bit-for-bit tests
check ``REFERENCE_CAPABILITY`` first (``tests/conftest.py``, marker ``bit_exact``).
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "BLOCK",
    "LANES",
    "REDUCTION_LANES",
    "REDUCTION_VECTOR_BYTES",
    "REFERENCE_CAPABILITY",
    "UNROLL",
    "VECTOR_BYTES",
]

#: what ``torch.backends.cpu.get_cpu_capability()`` says on the CPU minigrad reproduces
REFERENCE_CAPABILITY = "AVX512"

#: bytes of one vector register (AVX-512: 512 bits)
VECTOR_BYTES = 64

#: vectors per step of PyTorch's unrolled elementwise loop (``vectorized_loop`` in Loops.h)
UNROLL = 2

_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))

#: lanes of one vector: float32 16, float64 8
LANES = {dtype: VECTOR_BYTES // dtype.itemsize for dtype in _FLOATS}

#: elements of one unrolled step, the vectorised block: float32 32, float64 16
BLOCK = {dtype: UNROLL * lanes for dtype, lanes in LANES.items()}

#: bytes of the AVX2 vectors the sum, amax/amin and 2-norm reductions use, even on AVX-512
REDUCTION_VECTOR_BYTES = 32

#: lanes of those vectors: float32 8, float64 4
REDUCTION_LANES = {dtype: REDUCTION_VECTOR_BYTES // dtype.itemsize for dtype in _FLOATS}
