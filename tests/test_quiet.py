"""No numpy RuntimeWarning reaches a learner, in forward or backward, whatever the filters.

PyTorch makes inf and nan without a word; minigrad switches numpy's error state off around
its computations (``minigrad/_quiet.py``). These tests set the warning filters to "error"
(as pytest's ``filterwarnings = error`` or a learner's ``simplefilter`` would), before and
after importing minigrad, and check that the user's own numpy code still warns as numpy does.
"""

from __future__ import annotations

import subprocess
import sys
import warnings

import numpy as np
import pytest

import minigrad as T

PROGRAM = """
x = T.tensor([0., -1., 1e30, 2.], requires_grad=True)
outs = [x.log(), x.sqrt(), 1 / x, x / 0, x * 1e30, x.exp() * 1e30, x ** 0.5, x ** -1,
        T.zeros(0).mean(), T.zeros(0, 3).mean(0), x.double() * 1e300, (x * 1e30).float(),
        x % 0., T.tensor([1e30]).to(T.float16), x.log_softmax(0), x.softmax(0), x.var(),
        x.norm(), x.prod(), x.tanh(), x.sigmoid(), x @ (x * 1e30), x - x * float('inf'),
        T.tensor([1., 2.]) // 0., T.maximum(x, x * float('nan')), x.relu() * float('inf')]
for y in outs:
    if y.requires_grad:
        y.sum().backward(retain_graph=True)
text = [repr(y) for y in outs]
"""


@pytest.mark.parametrize("setting", ["error", "always"])
def test_inf_and_nan_are_silent_with_any_filter(setting) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter(setting)
        exec(PROGRAM, {"T": T})
    assert [w for w in caught if issubclass(w.category, RuntimeWarning)] == []


def test_silent_when_filters_are_set_before_the_import() -> None:
    code = "import warnings\nwarnings.simplefilter('error')\nimport minigrad as T\n" + PROGRAM
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_the_users_own_numpy_still_warns() -> None:
    exec(PROGRAM, {"T": T})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(RuntimeWarning, match="divide by zero"):
            np.log(np.zeros(1))
