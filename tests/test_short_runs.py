"""The short ``_run`` of a hot node gives what the general wrapper gives.

``AddBackward0`` sums the bias's gradient of ``x @ W + b`` itself (``arithmetic._add_run``)
instead of going through ``array_apply._array_node_run``; every other broadcast (a
column, a leading 1, mixed float dtypes, same shapes) still goes through the wrapper.
Hypothesis draws both kinds, with nan, inf and signed zeros in the gradient, and the two
answers are compared bit for bit.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import minigrad as mg
from minigrad.autograd.array_apply import _array_node_run

SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
_SHAPES = [  # (x, b) pairs: the bias cases first
    ((4, 3), (3,)),
    ((1, 3), (3,)),
    ((4, 1), (1,)),
    ((4, 3), (1,)),
    ((4, 3), (1, 3)),
    ((4, 3), (4, 1)),
    ((3,), (4, 3)),
    ((4, 3), (4, 3)),
    ((2, 4, 3), (3,)),
]


@SETTINGS
@given(
    shapes=st.sampled_from(_SHAPES),
    dtypes=st.sampled_from([("f4", "f4"), ("f8", "f8"), ("f4", "f8"), ("f2", "f4")]),
    requires=st.sampled_from([(True, True), (True, False), (False, True)]),
    swap=st.booleans(),
    seed=st.integers(0, 2**16),
)
def test_add_run_as_the_general_wrapper(shapes, dtypes, requires, swap, seed):
    rng = np.random.default_rng(seed)
    (sx, sb), (dx, db) = shapes, dtypes
    x = mg.tensor(rng.normal(size=sx).astype(dx), requires_grad=requires[0])
    b = mg.tensor(rng.normal(size=sb).astype(db), requires_grad=requires[1])
    out = b + x if swap else x + b
    grad = rng.normal(size=out.shape).astype(out.dtype.numpy)
    grad.reshape(-1)[:2] = [(np.nan, -0.0), (-np.inf, 1.0), (0.0, -0.0), (1.0, 2.0)][seed % 4]
    node = out.grad_fn
    with np.errstate(all="ignore"):
        ours, theirs = node._run(grad), _array_node_run(node, grad)
    assert len(ours) == len(theirs) == 2
    for a, t in zip(ours, theirs):
        assert (a is None) == (t is None)
        if a is not None:
            assert a.dtype == t.dtype and a.shape == t.shape
            assert a.tobytes() == t.tobytes()


def _grads(monkeypatch, told: bool, build):
    """The gradient ``build()`` leaves in its input, with or without nll_loss telling
    log_softmax its row sums (``classification_loss._tell_row_sum``)."""
    from minigrad.ops import classification_loss as CL

    with monkeypatch.context() as m:
        if not told:
            m.setattr(CL, "_tell_row_sum", lambda ctx, out: None)
        x, loss, upstream = build()
        with np.errstate(all="ignore"):
            loss.backward(upstream)
        return x.grad.numpy().tobytes(), x.grad.dtype


@pytest.mark.parametrize("upstream", [1.0, -2.5, 0.0, -0.0, np.nan, np.inf, 1e-45])
@pytest.mark.parametrize(
    "how", ["cross_entropy", "dim 1", "dim 0", "twice", "hook", "retain", "post"]
)
@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    n=st.sampled_from([3, 32, 40]),
    dtype=st.sampled_from(["f2", "f4", "f8"]),
    reduction=st.sampled_from(["mean", "sum", "none"]),
    seed=st.integers(0, 2**16),
)
def test_log_softmax_told_its_row_sums_as_computing_them(
    monkeypatch, n, dtype, reduction, upstream, how, seed
):
    """log_softmax's gradient with the row sums nll_loss's backward tells it is the one it
    computes itself: every reduction, upstream gradient (0, -0., nan, inf), dim, and every
    hook that could change the gradient between the two nodes."""
    rng = np.random.default_rng(seed)
    scores = (rng.normal(size=(n, 27)) * 4).astype(dtype)
    target = rng.integers(0, 27, n)
    F = mg.nn.functional

    def build():
        x = mg.tensor(scores, requires_grad=True)
        y = mg.tensor(target)
        if how == "cross_entropy":
            loss = F.cross_entropy(x, y, reduction=reduction)
        else:
            log_probs = F.log_softmax(x, 0 if how == "dim 0" else 1)
            if how == "hook":  # a tensor hook that changes the gradient in place
                log_probs.register_hook(lambda g: g.mul_(3))
            if how == "retain":
                log_probs.retain_grad()
            loss = F.nll_loss(log_probs, y, reduction=reduction)
            if how == "twice":  # two gradients summed into log_softmax's input buffer
                loss = loss + F.nll_loss(log_probs, y, reduction=reduction)
            if how == "post":  # a hook after nll_loss's node that changes its gradient
                loss.grad_fn.register_hook(lambda inputs, outputs: [inputs[0].mul_(2)] and None)
        grad = np.full(loss.shape, upstream, dtype)
        return x, loss, mg.tensor(grad)

    assert _grads(monkeypatch, True, build) == _grads(monkeypatch, False, build)


@pytest.mark.parametrize("reduction", ["mean", "sum"])
@pytest.mark.parametrize("dtypes", [("f4", "f4"), ("f8", "f8"), ("f4", "f8"), ("f8", "f4")])
@pytest.mark.parametrize("value", [1.0, -0.0, 0.0, 3e-45, -7.5, np.inf, np.nan, -np.nan])
def test_nll_grad_of_a_scalar_as_of_a_0d_array(reduction, dtypes, value):
    """nll_grad reads a reduced loss's 0-d gradient as a scalar: the same bits as dividing
    (or negating) the 0-d array, in every dtype pair, nan's sign and payload included."""
    from minigrad.ops.classification_loss import NllLoss, nll_grad

    log_probs = np.random.default_rng(0).normal(size=(5, 4)).astype(dtypes[0])
    target = np.array([3, 0, 1, 3, 2])
    fwd = NllLoss._Node()
    NllLoss.forward(fwd, log_probs, target, None, -100, reduction)
    assert fwd.rows is not None  # the usual case
    grad = np.array(value, dtypes[1])
    expected = np.zeros(log_probs.shape, grad.dtype)
    expected[np.arange(5), target] = grad / -fwd.total_weight if reduction == "mean" else -grad
    got = nll_grad(grad, fwd)
    assert got.dtype == expected.dtype
    assert got.tobytes() == expected.tobytes()
