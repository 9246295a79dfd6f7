"""Float sums in PyTorch's order of additions (``minigrad/ops/_summation.py``): bit for bit.

Hypothesis draws shapes (0-d to 4-d, dims up to 300 long, size-0 dims), the dims to reduce,
keepdim, float32 or float64, values over twelve orders of magnitude (so that the order of
additions shows in the last bits) and a layout PyTorch can have: C order, a permutation of
it, every other column, or a size-1 dim expanded. PyTorch runs on the same memory
(``as_strided`` on the array's buffer), on one thread.
"""

from __future__ import annotations

import warnings

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import minigrad as mg
from minigrad.ops._summation import float_mean, float_sum
from minigrad.ops.variance import _WELFORD_MAX

_LONG = [7, 8, 9, 15, 16, 17, 31, 33, 64, 65, 129, 300]
_SIZES = st.one_of(st.integers(0, 5), st.sampled_from(_LONG))


@st.composite
def arrays(draw):
    """An array, its layout, and the dims to reduce."""
    shape = tuple(draw(st.lists(_SIZES, min_size=0, max_size=4)))
    while np.prod(shape, dtype=np.int64) > 40_000:
        shape = shape[1:]
    dtype = draw(st.sampled_from([np.float32, np.float64]))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    a = np.asarray(rng.standard_normal(shape) * 10.0 ** rng.uniform(-6, 6, shape)).astype(dtype)
    layout = draw(st.sampled_from(["c", "permuted", "every_other", "expanded"]))
    if layout == "permuted" and a.ndim > 1:
        order = rng.permutation(a.ndim)
        a = np.ascontiguousarray(a.transpose(order)).transpose(np.argsort(order))
    elif layout == "every_other" and a.ndim:
        a = np.repeat(a, 2, axis=-1)[..., ::2]
    elif layout == "expanded" and 1 in shape:
        d = shape.index(1)
        a = np.broadcast_to(a, shape[:d] + (5,) + shape[d + 1 :])
    dims = draw(st.lists(st.integers(0, max(a.ndim - 1, 0)), unique=True, max_size=a.ndim))
    return a, tuple(sorted(dims)) or tuple(range(a.ndim)), draw(st.booleans())


def _same_memory(torch, a: np.ndarray):
    """A PyTorch tensor over ``a``'s own memory, with its strides."""
    base = a
    while base.base is not None and isinstance(base.base, np.ndarray):
        base = base.base
    start = (a.__array_interface__["data"][0] - base.__array_interface__["data"][0]) // a.itemsize
    flat = torch.from_numpy(np.ascontiguousarray(base).reshape(-1))
    return torch.as_strided(flat, a.shape, [s // a.itemsize for s in a.strides], start)


def _bits(x) -> bytes:
    return np.ascontiguousarray(np.asarray(x)).tobytes()


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(arrays())
def test_sum_and_mean_bit_for_bit(torch, case):
    a, dims, keepdim = case
    t = _same_memory(torch, a)
    want = t.sum(dims, keepdim=keepdim) if a.ndim else t.sum()
    got = float_sum(a, dims if a.ndim else (), keepdim and a.ndim > 0)
    assert got.shape == tuple(want.shape)
    assert _bits(got) == _bits(want.numpy())
    if a.size:
        want = t.mean(dims, keepdim=keepdim) if a.ndim else t.mean()
        got = float_mean(a, dims if a.ndim else (), keepdim and a.ndim > 0)
        assert _bits(got) == _bits(want.numpy())


@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(arrays(), st.sampled_from(["var", "std"]), st.integers(0, 1))
def test_var_and_std_bit_for_bit(torch, case, name, correction):
    a, dims, keepdim = case
    if not a.ndim or not a.size or not a.flags.writeable:
        return
    count = int(np.prod([a.shape[d] for d in dims]))
    if a.dtype == np.float64 and len(dims) < a.ndim and count > _WELFORD_MAX:
        return  # documented: longer float64 reductions by dim take the two-pass sum
    t = _same_memory(torch, a)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = getattr(t, name)(dims, correction=correction, keepdim=keepdim).numpy()
        mine = mg.from_numpy(a)  # the same memory and strides as PyTorch's
        got = getattr(mine, name)(dims, correction=correction, keepdim=keepdim).numpy()
    assert _bits(got) == _bits(want)


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    st.integers(1, 600),
    st.integers(1, 5),
    st.booleans(),
    st.booleans(),
    st.sampled_from(["mean", "sum"]),
    st.integers(0, 2**32 - 1),
)
def test_nll_loss_cascade_bit_for_bit(torch, rows, classes, weighted, ignore, reduction, seed):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((rows, classes)) * 10.0 ** rng.uniform(-3, 3, (rows, classes))
    x = x.astype(np.float32)
    target = rng.integers(0, classes, rows)
    weight = rng.uniform(0, 2, classes).astype(np.float32) if weighted else None
    ignore_index = int(rng.integers(0, classes)) if ignore else -100

    def loss(T):
        w = None if weight is None else T.tensor(weight)
        out = T.nn.functional.nll_loss(
            T.tensor(x), T.tensor(target), weight=w, ignore_index=ignore_index, reduction=reduction
        )
        return out.numpy()

    assert _bits(loss(mg)) == _bits(loss(torch))


def test_the_issue_example(torch):
    values = [1.0, 0.4529, -0.57, -1.0, 1.6277, 0.4, -2.32, 1.0, -0.0, 3.3, 2.3, -4.0]
    assert str(mg.tensor(values).mean()) == str(torch.tensor(values).mean()) == "tensor(0.1826)"
