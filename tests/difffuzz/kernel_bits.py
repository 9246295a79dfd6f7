"""``python -m tests.difffuzz.kernel_bits``: drawn tensors whose result differs from torch's.

For the transcendental functions whose last bits come from SLEEF, glibc or the kernels'
order (FINDINGS.md, branch v1-sleef): per op and dtype, how many drawn tensors give a
result (and, for softmax/log_softmax, a gradient) that differs from PyTorch's in any bit.
Sizes 1-69, 100, 200, 500, 1000, laid out contiguous, every other element and transposed;
softmax over up to 256 elements along a drawn dim. torch runs on one thread.
"""

from __future__ import annotations

import numpy as np

import minigrad as mg

ELEMENTWISE = ["sinh", "cosh", "expm1", "exp2", "sigmoid"]
SIZES = list(range(1, 70)) + [100, 200, 500, 1000]
LAYOUTS = (
    lambda v, n: v,
    lambda v, n: v[::2],
    lambda v, n: v[: n - n % 3].reshape(-1, 3).T if n >= 3 else v,
)


def _differs(a: np.ndarray, b: np.ndarray) -> bool:
    return bool(((a != b) & ~(np.isnan(a) & np.isnan(b))).any())


def elementwise(torch, op: str, dtype, rng) -> tuple[int, int]:
    bad = total = 0
    for n in SIZES:
        for _ in range(3):
            x = (rng.standard_normal(n) * rng.choice([1, 4, 30])).astype(dtype)
            for view in LAYOUTS:
                want = getattr(torch, op)(view(torch.from_numpy(x), n)).numpy()
                got = getattr(mg, op)(view(mg.tensor(x), n)).numpy()
                total += 1
                bad += _differs(want, got)
    return bad, total


def softmaxes(torch, op: str, dtype, rng) -> tuple[int, int]:
    bad = total = 0
    for _ in range(300):
        ndim = int(rng.integers(1, 4))
        shape = tuple(int(v) for v in rng.integers(1, 6, ndim))
        if rng.random() < 0.4:
            shape = shape[:-1] + (int(rng.integers(8, 30)),)
        if np.prod(shape) > 256:
            continue
        x = (rng.standard_normal(shape) * rng.choice([0.1, 1, 5, 30])).astype(dtype)
        g = rng.standard_normal(shape).astype(dtype)
        dim = int(rng.integers(0, ndim))
        results = []
        for T in (torch, mg):
            t = T.tensor(x, requires_grad=True)
            out = getattr(T, op)(t, dim)
            out.backward(T.tensor(g))
            results.append((out.detach().numpy(), t.grad.numpy()))
        (a, ga), (b, gb) = results
        total += 1
        bad += _differs(a, b) or _differs(ga, gb)
    return bad, total


def main() -> int:
    import torch

    torch.set_num_threads(1)
    rng = np.random.default_rng(123)
    for dtype in (np.float32, np.float64):
        for op in ELEMENTWISE + ["softmax", "log_softmax"]:
            count = elementwise if op in ELEMENTWISE else softmaxes
            bad, total = count(torch, op, dtype, rng)
            print(f"{op:12s} {np.dtype(dtype).name:8s} {bad:4d} / {total}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
