"""Tests for minigrad._printing: exact strings, and parity with real PyTorch.

The expected strings in the unit tests are what PyTorch 2.13 prints for the same data (with
``torch.`` replaced by ``minigrad.``); the parity tests check the same thing against a live torch.
"""

from __future__ import annotations

import math
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from minigrad._printing import format_tensor, get_printoptions, set_printoptions

DEFAULTS = {"precision": 4, "threshold": 1000, "edgeitems": 3, "linewidth": 80, "sci_mode": None}


@pytest.fixture(autouse=True)
def _reset_printoptions():
    """Every test starts and ends with the default options (also in torch, if it is loaded)."""
    set_printoptions(profile="default")
    yield
    set_printoptions(profile="default")
    torch = sys.modules.get("torch")
    if torch is not None:
        torch.set_printoptions(profile="default")


# --------------------------------------------------------------------------------------------------
# Exact strings for the cases the lessons use.
# --------------------------------------------------------------------------------------------------


def f32(values) -> np.ndarray:
    return np.array(values, dtype=np.float32)


@pytest.mark.parametrize(
    ("array", "suffixes", "expected"),
    [
        (f32([[1, 2], [3, 4]]), (), "tensor([[1., 2.],\n        [3., 4.]])"),
        (
            f32([[1, 2], [3, 4]]),
            ["requires_grad=True"],
            "tensor([[1., 2.],\n        [3., 4.]], requires_grad=True)",
        ),
        (f32(7.5), (), "tensor(7.5000)"),
        (f32(7.5), ["grad_fn=<MeanBackward0>"], "tensor(7.5000, grad_fn=<MeanBackward0>)"),
        (
            f32([[0.5, 1.0], [1.5, 2.0]]),
            (),
            "tensor([[0.5000, 1.0000],\n        [1.5000, 2.0000]])",
        ),
        (f32([-1.5, 2.25]), (), "tensor([-1.5000,  2.2500])"),
        (f32(3), (), "tensor(3.)"),
        (f32(-0.0), (), "tensor(-0.)"),
        (np.array([True, False]), (), "tensor([ True, False])"),
        (np.array([True, True]), (), "tensor([True, True])"),
        (np.array(5), (), "tensor(5)"),
        (np.array([1, -20, 300]), (), "tensor([  1, -20, 300])"),
        (np.array([1, 2], dtype=np.int32), (), "tensor([1, 2], dtype=minigrad.int32)"),
        (np.array([1.5, 2.5]), (), "tensor([1.5000, 2.5000], dtype=minigrad.float64)"),
        (
            np.array([1.5, 2.5]),
            ["grad_fn=<CloneBackward0>"],
            "tensor([1.5000, 2.5000], dtype=minigrad.float64, grad_fn=<CloneBackward0>)",
        ),
        (f32([1e-5, 1.0]), (), "tensor([1.0000e-05, 1.0000e+00])"),
        (f32([1e10, 1.0]), (), "tensor([1.0000e+10, 1.0000e+00])"),
        (f32([0.001, 1.0]), (), "tensor([0.0010, 1.0000])"),
        (f32([0.0001, 1.0]), (), "tensor([1.0000e-04, 1.0000e+00])"),
        (np.array([1e-4, 0.05]), (), "tensor([0.0001, 0.0500], dtype=minigrad.float64)"),
        (f32([1.0, 1000.0]), (), "tensor([   1., 1000.])"),
        (f32([1e8, 1e6]), (), "tensor([100000000.,   1000000.])"),
        (f32([1.5e8, 1e6]), (), "tensor([1.5000e+08, 1.0000e+06])"),
        (f32([0.0, math.inf, math.nan]), (), "tensor([0., inf, nan])"),
        (f32([100.0, math.nan]), (), "tensor([100.,  nan])"),
        (f32([1.0, -math.inf, math.nan]), (), "tensor([1., -inf, nan])"),
        (f32([0.5, math.nan]), (), "tensor([0.5000,    nan])"),
        (f32([]), (), "tensor([])"),
        (np.zeros((0, 3), np.float32), (), "tensor([], size=(0, 3))"),
        (np.zeros((2, 0, 3), np.float32), (), "tensor([], size=(2, 0, 3))"),
        (np.zeros(0, np.int64), (), "tensor([], dtype=minigrad.int64)"),
        (np.zeros(0, bool), (), "tensor([], dtype=minigrad.bool)"),
        (np.zeros((0, 3)), (), "tensor([], size=(0, 3), dtype=minigrad.float64)"),
        (np.arange(2000), (), "tensor([   0,    1,    2,  ..., 1997, 1998, 1999])"),
        (np.ones(1001, np.float32), (), "tensor([1., 1., 1.,  ..., 1., 1., 1.])"),
    ],
)
def test_exact_strings(array, suffixes, expected):
    assert format_tensor(array, suffixes) == expected


def test_three_dimensional_slices_are_separated_by_a_blank_line():
    expected = (
        "tensor([[[0.0000, 0.2500, 0.5000],\n"
        "         [0.7500, 1.0000, 1.2500]],\n"
        "\n"
        "        [[1.5000, 1.7500, 2.0000],\n"
        "         [2.2500, 2.5000, 2.7500]]])"
    )
    assert format_tensor(np.arange(12, dtype=np.float32).reshape(2, 2, 3) / 4) == expected


def test_summarised_matrix():
    row = "[1., 1., 1.,  ..., 1., 1., 1.]"
    rows = [row] * 3 + ["..."] + [row] * 3
    expected = "tensor([" + ",\n        ".join(rows) + "])"
    assert format_tensor(np.ones((40, 40), np.float32)) == expected


def test_long_rows_wrap_under_the_first_element():
    expected = (
        "tensor([ 0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12, 13, 14, 15, 16, 17,\n"
        "        18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29], dtype=minigrad.int32)"
    )
    assert format_tensor(np.arange(30, dtype=np.int32)) == expected


def test_a_longer_prefix_moves_the_continuation_lines():
    text = format_tensor(np.arange(30), prefix="Parameter(")
    # 17 elements of width 2 + ", " fit in 80 - len("Parameter("); the next line is indented by 11
    assert text.split("\n")[1] == " " * 11 + "17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29])"


def test_suffixes_wrap_onto_a_new_line_when_the_line_is_full():
    values = np.arange(16, dtype=np.float32).reshape(1, 16) * 1000
    text = format_tensor(values, ["grad_fn=<MulBackward0>"])
    assert text.endswith("15000.]],\n       grad_fn=<MulBackward0>)")
    assert format_tensor(f32([1.0]), ["x" * 60]) == "tensor([1.], " + "x" * 60 + ")"
    assert format_tensor(f32([1.0]), ["x" * 70]) == "tensor([1.],\n       " + "x" * 70 + ")"


def test_parameter_prefix_line_composes():
    text = "Parameter containing:\n" + format_tensor(f32([[1, 2], [3, 4]]), ["requires_grad=True"])
    expected = "Parameter containing:\ntensor([[1., 2.],\n        [3., 4.]], requires_grad=True)"
    assert text == expected


def test_printoptions_precision_sci_mode_and_profiles():
    x = f32([1.12345, 22.5])
    set_printoptions(precision=2)
    assert format_tensor(x) == "tensor([ 1.12, 22.50])"
    set_printoptions(precision=2, sci_mode=True)
    assert format_tensor(x) == "tensor([1.12e+00, 2.25e+01])"
    set_printoptions(profile="short")
    expected = "tensor([0.00e+00, 1.43e-01,  ..., 2.85e+02, 2.86e+02])"
    assert format_tensor(np.arange(2000, dtype=np.float32) / 7) == expected
    set_printoptions(profile="default", sci_mode=False)
    assert format_tensor(f32([1e-5, 1e9])) == "tensor([         0.0000, 1000000000.0000])"
    set_printoptions(threshold=5)
    assert format_tensor(np.arange(10)) == "tensor([0, 1, 2,  ..., 7, 8, 9])"


def test_edgeitems_zero_hides_the_values_and_shows_the_size():
    set_printoptions(edgeitems=0)
    assert format_tensor(f32(1)) == "tensor(1., size=())"
    set_printoptions(edgeitems=0, threshold=0)
    assert format_tensor(np.ones((2, 3), np.float32)) == "tensor([...], size=(2, 3))"


def test_get_printoptions_reflects_set_printoptions():
    assert get_printoptions() == DEFAULTS
    set_printoptions(precision=2, sci_mode=True)
    assert get_printoptions() == {**DEFAULTS, "precision": 2, "sci_mode": True}
    set_printoptions(linewidth=120)  # sci_mode is always assigned, as in PyTorch
    assert get_printoptions() == {**DEFAULTS, "precision": 2, "linewidth": 120}
    set_printoptions(profile="full")
    assert get_printoptions() == {**DEFAULTS, "threshold": math.inf}
    get_printoptions()["precision"] = 9  # a copy: changing it does not change the options
    assert get_printoptions()["precision"] == 4


def test_a_huge_tensor_prints_quickly():
    text = format_tensor(np.zeros((1000, 1000, 10), np.float32))
    # one "..." between the blocks, one in each of the 6 blocks, one in each of their 6 x 6 rows
    assert text.count("...") == 1 + 6 + 6 * 6


# --------------------------------------------------------------------------------------------------
# Parity with real PyTorch.
# --------------------------------------------------------------------------------------------------

OPTION_SETS = [
    {},
    {"precision": 2},
    {"precision": 0},
    {"precision": 7},
    {"sci_mode": True},
    {"sci_mode": False},
    {"threshold": 5},
    {"threshold": 5, "edgeitems": 1},
    {"threshold": 20, "edgeitems": 2, "linewidth": 40},
    {"linewidth": 120},
    {"linewidth": 10},
    {"edgeitems": 0},
    {"edgeitems": 0, "threshold": 3},
    {"profile": "short"},
    {"profile": "full"},
    {"profile": "short", "sci_mode": True},
]


def torch_repr(torch, array: np.ndarray, extra: str | None) -> tuple[str, list[str]]:
    """PyTorch's repr of the array (as minigrad would name it) and the caller's suffixes."""
    t = torch.from_numpy(array.copy())
    if extra == "requires_grad":
        return repr(t.requires_grad_()), ["requires_grad=True"]
    if extra == "grad_fn":
        return repr(t.requires_grad_().clone()), ["grad_fn=<CloneBackward0>"]
    return repr(t), []


def check_parity(torch, array: np.ndarray, options: dict, extra: str | None = None) -> None:
    torch.set_printoptions(**options)
    set_printoptions(**options)
    try:
        expected, suffixes = torch_repr(torch, array, extra)
        got = format_tensor(array, suffixes)
    finally:
        torch.set_printoptions(profile="default")
        set_printoptions(profile="default")
    assert got == expected.replace("torch.", "minigrad."), f"options={options}"


rng = np.random.default_rng(0)
HAND_PICKED = [
    f32([[1, 2], [3, 4]]),
    f32(7.5),
    f32([-0.0, 1.0]),
    f32([-0.0, 0.5]),
    f32([0.0, 0.0]),
    np.array([1e-100, 1.0]),
    f32([1e-4, 1.0]),
    np.array([1e-4, 0.05]),
    f32([9.99995e-5, 1.0]),
    f32([1.0, 1000.0]),
    f32([1.0, 1000.1]),
    f32([1e8, 1.0]),
    f32([1.0000001e8]),
    f32([9.99995, 0.5]),
    f32([math.nan]),
    f32([math.inf, -math.inf]),
    f32([1e30, math.nan, -math.inf, 0.0]),
    np.array([1e300, 1e-300]),
    np.array([5e-324, 1.0]),
    np.array([3.4e38, -1.0]),
    np.array([123456789.0]),
    f32(rng.standard_normal((3, 4, 5))),
    f32(rng.standard_normal((100, 100))),
    f32(rng.standard_normal((10, 10, 10, 10)) * 1e5),
    f32(rng.standard_normal((2, 1, 2, 1, 3))),
    f32(rng.standard_normal(200)),
    np.arange(2000).reshape(2, 1000),
    np.arange(-500, 500, dtype=np.int32),
    rng.integers(-(2**62), 2**62, (4, 6)),
    rng.integers(0, 2, (5, 400)).astype(bool),
    np.array(False),
    np.zeros((0, 3), np.float32),
    np.zeros((3, 0), np.int32),
    np.zeros(0, np.float64),
    np.zeros((1, 0, 2), bool),
    np.zeros((0,), np.int16),
    np.array([1.5, -2.25, 3], np.float16),
    np.array([65504, 1e-7], np.float16),
    np.array([-128, 127], np.int8),
    np.array([0, 255], np.uint8),
    np.array([[-32768, 5]], np.int16),
]


@pytest.mark.parity
@pytest.mark.parametrize("options", OPTION_SETS, ids=str)
@pytest.mark.parametrize("index", range(len(HAND_PICKED)))
def test_parity_hand_picked(index, options):
    torch = pytest.importorskip("torch")
    check_parity(torch, HAND_PICKED[index], options)


@pytest.mark.parity
@pytest.mark.parametrize("extra", ["requires_grad", "grad_fn"])
@pytest.mark.parametrize("index", [0, 1, 5, 13, 21, 30, 33])
def test_parity_with_caller_suffixes(index, extra):
    torch = pytest.importorskip("torch")
    array = HAND_PICKED[index].astype(np.float32)
    for options in [{}, {"linewidth": 30}, {"edgeitems": 0}]:
        check_parity(torch, array, options, extra)


@pytest.mark.parity
def test_parity_with_a_longer_prefix():
    torch = pytest.importorskip("torch")

    class MyTensor(torch.Tensor):
        pass

    array = f32(rng.standard_normal((3, 30)))
    expected = repr(torch.from_numpy(array).as_subclass(MyTensor))
    assert format_tensor(array, prefix="MyTensor(") == expected


@pytest.mark.parity
def test_parity_parameter():
    torch = pytest.importorskip("torch")
    array = f32([[1, 2], [3, 4]])
    expected = repr(torch.nn.Parameter(torch.from_numpy(array)))
    assert "Parameter containing:\n" + format_tensor(array, ["requires_grad=True"]) == expected


# Hypothesis sweep: shapes 0-d to 4-d (some empty, some large enough to summarise), every dtype,
# value families from tiny to huge with infs and nans, and every option set.

DTYPES = [np.float32, np.float64, np.float16, np.int64, np.int32, np.int16, np.int8, np.uint8]
DTYPES += [np.bool_]


@st.composite
def shapes(draw) -> tuple[int, ...]:
    ndim = draw(st.integers(0, 4))
    if draw(st.booleans()):  # small, possibly empty
        return tuple(draw(st.lists(st.integers(0, 5), min_size=ndim, max_size=ndim)))
    side = {0: 1, 1: 1500, 2: 45, 3: 13, 4: 7}[ndim]  # up to ~2000 elements: may summarise
    return tuple(draw(st.lists(st.integers(1, side), min_size=ndim, max_size=ndim)))


def float_elements(dtype, family: str):
    """Element strategies for one family of float values."""
    specials = st.sampled_from([0.0, -0.0, math.inf, -math.inf, math.nan])
    width = np.dtype(dtype).itemsize * 8
    if family == "any":
        return hnp.from_dtype(np.dtype(dtype))
    if family == "whole":
        return st.integers(-3000, 3000).map(float)
    if family == "with specials":
        return st.one_of(st.floats(-100, 100, width=width), specials)
    low, high = {"tiny": (1e-9, 1e-3), "huge": (1e6, 1e12), "unit": (1e-3, 10.0)}[family]
    if width == 16 and family == "huge":
        low, high = 1e3, 6e4  # float16 stops at 65504
    magnitude = st.floats(low, high).map(lambda v: float(np.dtype(dtype).type(v)))
    return st.tuples(magnitude, st.booleans()).map(lambda p: -p[0] if p[1] else p[0])


@st.composite
def arrays(draw) -> np.ndarray:
    dtype = draw(st.sampled_from(DTYPES))
    shape = draw(shapes())
    size = math.prod(shape)
    if np.dtype(dtype).kind == "f":
        families = ["any", "whole", "with specials", "tiny", "huge", "unit"]
        elements = float_elements(dtype, draw(st.sampled_from(families)))
    else:
        elements = hnp.from_dtype(np.dtype(dtype))
    if size <= 60:
        return draw(hnp.arrays(dtype, shape, elements=elements))
    # Large arrays: draw a few values and scatter them with a seeded generator (fast).
    pool = np.array(draw(st.lists(elements, min_size=1, max_size=12)), dtype=dtype)
    seed = draw(st.integers(0, 2**32 - 1))
    return np.random.default_rng(seed).choice(pool, size=shape)


@pytest.mark.parity
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    array=arrays(),
    options=st.sampled_from(OPTION_SETS),
    extra=st.sampled_from([None, "requires_grad", "grad_fn"]),
)
def test_parity_sweep(array, options, extra):
    torch = pytest.importorskip("torch")
    if array.dtype.kind != "f":
        extra = None  # only float tensors can require grad
    check_parity(torch, array, options, extra)
