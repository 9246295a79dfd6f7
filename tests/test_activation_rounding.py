"""float32 GELU, SiLU, ELU and softplus give PyTorch's bits, forward and backward, any layout (V1).

PyTorch's float32 GELU runs oneDNN's polynomial on a contiguous tensor and ATen's vector and
scalar loops on the others (``minigrad/ops/gelu_kernels.py``); SiLU, ELU and softplus the
vector and scalar loops (``smooth_kernels.py``): SLEEF's functions in blocks of 32 floats,
glibc's ``erff``/``expf``/``expm1f``/``log1pf`` (``libm_float32.py``) for the rest. Each
rounds its own way, and cancellations (``1 + erf`` of a negative input) show it in print.
Compared bit for bit against a live torch over layouts (contiguous, transposed, strided,
expanded, one element, rows longer than a 32-float block) and values including 0, -0., nan,
inf, huge, tiny and denormal numbers.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import minigrad as mg

# compares last bits with PyTorch's AVX-512 kernels (minigrad/ops/_cpu_vectors.py)
pytestmark = pytest.mark.bit_exact

SETTINGS = settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
SPECIAL = np.array(
    [0.0, -0.0, np.nan, np.inf, -np.inf, 3e38, -3e38, 1e-30, -1e-30, 1e-40, -1e-45, 5.9, -5.9],
    np.float32,
)
LAYOUTS = {
    "contiguous": lambda t: t,
    "transposed": lambda t: t.t(),
    "every other column": lambda t: t[:, ::2],
    "every other row": lambda t: t[::2],
    "expanded column": lambda t: t[:, :1].expand(t.shape[0], t.shape[1]),
    "expanded row": lambda t: t[:1].expand(t.shape[0], t.shape[1]),
    "one element": lambda t: t[0, 0],
    # 3-D: TensorIterator merges the inner dims that follow on in memory into one run
    "3-D sliced": lambda t: t.unsqueeze(1).repeat(1, 3, 1)[:, 1:],
    "3-D expanded": lambda t: t.expand(2, t.shape[0], t.shape[1]),
    "expanded permuted": lambda t: t.expand(2, t.shape[0], t.shape[1]).permute(1, 2, 0),
}


@st.composite
def cases(draw):
    shape = (draw(st.integers(1, 6)), draw(st.sampled_from([1, 3, 16, 31, 32, 33, 70])))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    scale = draw(st.sampled_from([0.3, 1.0, 3.0, 30.0]))
    x = np.asarray(rng.standard_normal(shape) * scale, np.float32)
    if draw(st.booleans()):  # sprinkle the edge values
        where = rng.random(shape) < 0.3
        x[where] = rng.choice(SPECIAL, where.sum())
    return x, draw(st.sampled_from(sorted(LAYOUTS))), draw(st.integers(0, 2**32 - 1))


def _run(T, fn, x, layout, seed):
    leaf = T.tensor(x, requires_grad=True)
    a = LAYOUTS[layout](leaf)
    out = fn(T, a)
    g = np.random.default_rng(seed).standard_normal(tuple(out.shape)).astype(np.float32)
    out.backward(T.tensor(g))
    return out.detach().numpy(), leaf.grad.numpy()


def _assert_same_bits(got, want):
    got, want = np.asarray(got, np.float32), np.asarray(want, np.float32)
    same = (got.view(np.uint32) == want.view(np.uint32)) | (np.isnan(got) & np.isnan(want))
    where = np.argwhere(~same)[:5].tolist()
    assert same.all(), f"differ at {where}: {got[~same][:5]} vs {want[~same][:5]}"


ACTIVATIONS = {
    "gelu": lambda T, a: T.nn.functional.gelu(a),
    "gelu tanh": lambda T, a: T.nn.functional.gelu(a, approximate="tanh"),
    "silu": lambda T, a: T.nn.functional.silu(a),
    "elu": lambda T, a: T.nn.functional.elu(a),
    "elu alpha 0.7": lambda T, a: T.nn.functional.elu(a, alpha=0.7),
    "elu in place": lambda T, a: T.nn.functional.elu(a * 1, inplace=True),
    "softplus": lambda T, a: T.nn.functional.softplus(a),
    "softplus beta 2 threshold 3": lambda T, a: T.nn.functional.softplus(a, beta=2, threshold=3),
    "modules": lambda T, a: T.nn.Sequential(T.nn.GELU(), T.nn.SiLU(), T.nn.ELU())(a),
}


@SETTINGS
@given(cases(), st.sampled_from(sorted(ACTIVATIONS)))
def test_activations_are_pytorchs_bits(torch, case, name):
    fn = ACTIVATIONS[name]
    got, got_grad = _run(mg, fn, *case)
    want, want_grad = _run(torch, fn, *case)
    _assert_same_bits(got, want)
    _assert_same_bits(got_grad, want_grad)


def test_gelu_paths_round_differently(torch):
    """The reason for three paths: one value, three layouts, the digits torch prints."""
    x = np.full((2, 40), -0.29075384, np.float32)
    for make in (lambda T: T.tensor(x), lambda T: T.tensor(x)[:, ::2], lambda T: T.tensor(x)[0, 0]):
        want = torch.nn.functional.gelu(make(torch)).numpy()
        _assert_same_bits(mg.nn.functional.gelu(make(mg)).numpy(), want)


def test_large_tensors_keep_numpys_faster_formulas(torch):
    """Above ``EXACT_UP_TO`` elements (off oneDNN's path) the correctly rounded formulas:
    within float32 rounding of PyTorch, not its bits (the emulation would cost 10-70x)."""
    from minigrad.ops.cpu_loop_split import EXACT_UP_TO

    x = np.random.default_rng(0).standard_normal((4, EXACT_UP_TO)).astype(np.float32) * 4
    for name, fn in ACTIVATIONS.items():
        got, got_grad = _run(mg, fn, x, "every other column", 1)
        want, want_grad = _run(torch, fn, x, "every other column", 1)
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6, err_msg=name)
        np.testing.assert_allclose(got_grad, want_grad, rtol=1e-5, atol=1e-6, err_msg=name)
