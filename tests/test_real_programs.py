"""Programs written the way PyTorch's tutorials, d2l and micrograd write them, run unedited with
PyTorch and with ``import torch`` meaning minigrad (``real_programs/as_minigrad.py``): they must
print the same text.

Numbers may differ in their last digits where a long training loop carries float32 rounding
(BLAS adds a 784-long dot product in another order than MKL, SGD amplifies it, and the order
depends on the CPU's vector units): they are compared within 1e-3 relative, which no wrong
formula passes; everything else (shapes, dtypes, grad_fn names, reprs, errors) must be identical.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent / "real_programs"
PROGRAMS = sorted(p.name for p in HERE.glob("*.py") if p.name != "as_minigrad.py")
_NUMBER = re.compile(r"-?\d+\.\d+(?:e[-+]?\d+)?|-?\d+e[-+]?\d+")
_ADDRESS = re.compile(r"0x[0-9a-fA-F]+")


def _run(*args: str) -> str:
    env = dict(os.environ, OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
    root = str(Path(__file__).parent.parent)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, (root, env.get("PYTHONPATH"))))
    done = subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, env=env, timeout=600
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return _ADDRESS.sub("0x?", done.stdout.replace("torch.", "minigrad."))


def _same_but_rounding(a: str, b: str) -> bool:
    """Equal text, numbers within 1e-3 relative (the last digits of a float32 training)."""
    if _NUMBER.sub("#", a) != _NUMBER.sub("#", b):
        return False
    for x, y in zip(_NUMBER.findall(a), _NUMBER.findall(b), strict=True):
        fx, fy = float(x), float(y)
        if abs(fx - fy) > 1e-3 * max(abs(fx), abs(fy)) + 1e-6:
            return False
    return True


@pytest.mark.parity
@pytest.mark.parametrize("program", PROGRAMS)
def test_program_prints_the_same_with_minigrad(torch, program: str) -> None:
    expected = _run(str(HERE / program))
    got = _run(str(HERE / "as_minigrad.py"), str(HERE / program))
    assert _same_but_rounding(expected, got), f"torch:\n{expected}\nminigrad:\n{got}"


def test_the_comparison_can_fail() -> None:
    assert _same_but_rounding("loss 0.12345678 tensor([1.])", "loss 0.12345679 tensor([1.])")
    assert not _same_but_rounding("loss 0.1234 tensor([1.])", "loss 0.1236 tensor([1.])")
    assert not _same_but_rounding("grad_fn=<MulBackward0>", "grad_fn=<DivBackward0>")
