"""No numpy RuntimeWarning reaches a learner, whatever the warning filters (PyTorch is silent).

Run with every warning turned into an error, as pytest's ``filterwarnings = error`` or a
learner's ``warnings.simplefilter("error")`` would: minigrad must give inf and nan, not raise.
"""

from __future__ import annotations

import math
import subprocess
import sys
import warnings

import numpy as np
import pytest

import minigrad


@pytest.fixture(autouse=True)
def _every_warning_is_an_error():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        yield


def test_forward_of_log_sqrt_divide_power_and_overflow_is_silent() -> None:
    x = minigrad.tensor([0.0, -1.0, 3e38], requires_grad=True)
    assert minigrad.log(x)[0].item() == -math.inf
    assert math.isnan(x.sqrt()[1].item())
    assert (1 / x)[0].item() == math.inf
    assert (x * 10)[2].item() == math.inf
    assert math.isnan((x**0.5)[1].item())
    assert (x.exp() ** 1e30)[2].item() == math.inf


def test_backward_through_log_and_sqrt_at_zero_is_silent() -> None:
    x = minigrad.tensor([0.0, 4.0], requires_grad=True)
    (x.log() + x.sqrt()).sum().backward()
    assert x.grad[0].item() == math.inf and x.grad[1].item() == pytest.approx(0.5)


def test_cast_of_nan_to_an_integer_is_silent() -> None:
    minigrad.tensor([math.nan, math.inf]).long()


def test_a_number_out_of_the_dtype_range_becomes_inf_silently() -> None:
    assert minigrad.tensor([1e300, -1e300]).tolist() == [math.inf, -math.inf]  # float32
    assert minigrad.tensor(1e300).item() == math.inf
    assert minigrad.tensor([1e5], dtype=minigrad.float16).item() == math.inf
    assert minigrad.as_tensor([1e300]).item() == math.inf


def test_numpy_error_state_of_the_caller_is_left_alone() -> None:
    minigrad.log(minigrad.zeros(1))
    with pytest.raises(RuntimeWarning):
        np.log(np.zeros(1))  # the learner's own numpy still warns


# -- many ops at once, forward and backward, and filters set before minigrad is imported -----

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


def test_many_ops_forward_and_backward_are_silent() -> None:
    exec(PROGRAM, {"T": minigrad})


def test_silent_when_filters_are_set_before_the_import() -> None:
    code = "import warnings\nwarnings.simplefilter('error')\nimport minigrad as T\n" + PROGRAM
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
