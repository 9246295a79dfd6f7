"""The short paths of the makemore step give exactly what the general paths give.

``cross_entropy`` of (N, C) scores and int64 targets runs both forwards in one pass
(``ops/cross_entropy.py``): its values, nodes, saved values, versions, gradients and errors
must be those of ``log_softmax`` then ``nll_loss`` taken one by one. Hypothesis draws
both sides of its conditions (weights, ignored and bad targets, reductions, dtypes, grad
mode); PyTorch parity of the same cases is in ``test_fast_paths.py``.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_fast_paths import _outcome, classification

import minigrad as mg
from minigrad.ops import cross_entropy as CE

SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
F = mg.nn.functional


def _nodes(loss):
    """The loss's node and the log_softmax node under it."""
    nll = loss.grad_fn
    return nll, nll._next[0]


@SETTINGS
@given(
    case=classification(),
    requires=st.booleans(),
    grad_mode=st.booleans(),
    dtype=st.sampled_from(["f2", "f4", "f8"]),
)
def test_cross_entropy_in_one_pass_is_the_two_ops(case, requires, grad_mode, dtype):
    n, c, ignore, target, seed, weighted, reduction = case
    rng = np.random.default_rng(seed)
    scores = rng.normal(size=(n, c)) * 5
    scores[rng.integers(0, n), rng.integers(0, c)] = rng.choice([np.inf, -np.inf, np.nan, 1.0])
    w = mg.tensor(rng.uniform(0.5, 2.0, c).astype(dtype)) if weighted else None
    x = mg.tensor(scores.astype(dtype), requires_grad=requires)
    y = mg.tensor(target)

    def fused():
        return F.cross_entropy(x, y, weight=w, ignore_index=ignore, reduction=reduction)

    def apart():
        log_probs = F.log_softmax(x, 1)
        return F.nll_loss(log_probs, y, weight=w, ignore_index=ignore, reduction=reduction)

    with mg.set_grad_enabled(grad_mode):
        ours, our_error = _outcome(fused)
        theirs, their_error = _outcome(apart)
    assert our_error == their_error
    if ours is None:
        return
    np.testing.assert_array_equal(ours.detach().numpy(), theirs.detach().numpy())
    assert ours.dtype == theirs.dtype and ours.shape == theirs.shape
    assert ours.requires_grad == theirs.requires_grad
    if theirs.grad_fn is None:
        assert ours.grad_fn is None
        return
    for f, g in zip(_nodes(ours), _nodes(theirs), strict=True):
        assert type(f) is type(g)
        assert f._saved_checks[1:] == g._saved_checks[1:]
        for s, t in zip(f._saved, g._saved, strict=True):
            np.testing.assert_array_equal(s, t)
    (nll, soft), (nll2, soft2) = _nodes(ours), _nodes(theirs)
    assert soft._next == soft2._next  # the input's edge; nll's edge is soft
    assert soft._seq < nll._seq and soft._saved_checks[0] is nll._saved_checks[0]
    assert soft.axis == soft2.axis
    for name in ("shape", "ignore_index", "reduction", "total_weight"):
        assert getattr(nll, name) == getattr(nll2, name)
    assert nll.target is nll2.target
    upstream = np.full(ours.shape, 0.5, dtype)
    with np.errstate(all="ignore"):  # as the engine runs nodes
        grads = [(f._run(upstream)[0], g._run(upstream)[0]) for f, g in [(nll, nll2)]]
        grads.append((soft._run(grads[0][0])[0], soft2._run(grads[0][1])[0]))
    for a, b in grads:
        np.testing.assert_array_equal(a, b)


def test_cross_entropy_in_one_pass_backward_and_versions():
    x = mg.tensor(np.random.default_rng(0).normal(size=(4, 3)), requires_grad=True)
    loss = F.cross_entropy(x, mg.tensor([0, 2, 1, 2]))
    loss.backward()
    expected = mg.tensor(x.detach().numpy(), requires_grad=True)
    F.nll_loss(F.log_softmax(expected, 1), mg.tensor([0, 2, 1, 2])).backward()
    np.testing.assert_array_equal(x.grad.numpy(), expected.grad.numpy())
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        loss.backward()
    loss = F.cross_entropy(x, mg.tensor([0, 2, 1, 2]))
    _, soft = _nodes(loss)
    assert soft._saved_checks[0][0] == 0  # the log-probabilities: a new tensor, version 0


@pytest.mark.parametrize(
    "mode", ["anomaly", "inference", "weights", "float_target", "int32_target", "3d"]
)
def test_cross_entropy_other_cases_take_the_general_path(mode):
    x = mg.ones(2, 3, requires_grad=True)
    y = mg.tensor([0, 1])
    if mode == "anomaly":
        with mg.autograd.set_detect_anomaly(True):
            assert CE.log_softmax_nll_loss(x, y, -100, "mean") is None
            loss = F.cross_entropy(x, y)
        assert "traceback_" in loss.grad_fn.metadata
    elif mode == "inference":
        with mg.inference_mode():
            assert CE.log_softmax_nll_loss(x, y, -100, "mean") is None
            assert F.cross_entropy(x, y).is_inference()
    elif mode == "float_target":
        assert CE.log_softmax_nll_loss(x, mg.ones(2, 3), -100, "mean") is None
    elif mode == "int32_target":
        assert CE.log_softmax_nll_loss(x, y.int(), -100, "mean") is None
    elif mode == "3d":
        assert CE.log_softmax_nll_loss(mg.ones(2, 3, 1), y, -100, "mean") is None
    else:  # weights are the caller's to refuse: cross_entropy does not pass them here
        loss = F.cross_entropy(x, y, weight=mg.tensor([1.0, 2.0, 3.0]))
        assert loss.grad_fn._next[0].name() == "LogSoftmaxBackward0"


def _same_node(fast, general):
    """Two results of one op, by the short and the general ``apply``: the same values,
    flags, view bookkeeping, node, edges, saved values and versions."""
    np.testing.assert_array_equal(fast.detach().numpy(), general.detach().numpy())
    assert fast.dtype == general.dtype and fast.requires_grad == general.requires_grad
    assert (fast._base is None) == (general._base is None)
    if fast._base is not None:
        assert fast._base is general._base and fast._vc is general._vc
        assert fast._view_version == general._view_version
    if general.grad_fn is None:
        assert fast.grad_fn is None
        return
    f, g = fast.grad_fn, general.grad_fn
    assert type(f) is type(g) and f._next == g._next
    assert (f._saved is None) == (g._saved is None)
    if g._saved is not None:
        assert f._saved_checks[1:] == g._saved_checks[1:]
        for s, t in zip(f._saved, g._saved, strict=True):
            np.testing.assert_array_equal(s, t)
    upstream = np.random.default_rng(0).normal(size=fast.shape).astype(fast._data.dtype)
    with np.errstate(all="ignore"):
        for a, b in zip(f._run(upstream), g._run(upstream), strict=True):
            np.testing.assert_array_equal(a, b)


@st.composite
def float_tensors(draw):
    shape = draw(st.sampled_from([(), (3,), (2, 5), (4, 3, 2), (0, 3), (40, 30)]))
    dtype = draw(st.sampled_from(["f2", "f4", "f8", "i8"]))
    rng = np.random.default_rng(draw(st.integers(0, 2**16)))
    values = rng.normal(size=shape) * 4
    if values.size:
        values.flat[rng.integers(0, values.size)] = rng.choice([np.nan, np.inf, -0.0, 30.0])
    if dtype == "i8":
        values = np.nan_to_num(values, posinf=7.0)
    requires = draw(st.booleans()) and dtype != "i8"
    return mg.tensor(values.astype(dtype), requires_grad=requires)


@SETTINGS
@given(x=float_tensors(), grad_mode=st.booleans())
def test_tanh_short_path_is_the_general_path(x, grad_mode):
    from minigrad.autograd.array_apply import _apply_unary
    from minigrad.ops import unary as U

    with mg.set_grad_enabled(grad_mode):
        _same_node(U.Tanh.apply(x), _apply_unary(U.Tanh, x))


@SETTINGS
@given(x=float_tensors(), seed=st.integers(0, 2**16))
def test_tanh_gradient_in_place_is_the_formula(x, seed):
    from minigrad.ops.unary import tanh_grad

    out = np.tanh(x.detach().numpy().astype("f4" if x.dtype == mg.int64 else x._data.dtype))
    grad = np.random.default_rng(seed).normal(size=out.shape).astype(out.dtype)
    with np.errstate(all="ignore"):
        expected = grad * (1 - out * out)
        if out.dtype == np.float32 and out.size <= 1000:  # PyTorch's rounding there
            expected = grad * (1 - np.square(out, dtype=np.float64)).astype(np.float32)
        np.testing.assert_array_equal(tanh_grad(grad, out), expected)


@SETTINGS
@given(
    x=float_tensors(),
    shape=st.sampled_from([(-1,), (-1, 2), (3, -1), (2, 3, -1), (5, 7), (-1, -1), ()]),
    transposed=st.booleans(),
    grad_mode=st.booleans(),
)
def test_view_short_path_is_the_general_path(x, shape, transposed, grad_mode):
    from minigrad.autograd.array_apply import _apply_unary
    from minigrad.ops import shape as S

    with mg.set_grad_enabled(grad_mode):
        if transposed and x.ndim == 2:
            x = x.t()  # not C-ordered: the general path, with its error
        ours = _outcome(lambda: S.View.apply(x, shape))
        theirs = _outcome(lambda: _apply_unary(S.View, x, shape))
    assert ours[1] == theirs[1]
    if ours[0] is not None:
        _same_node(ours[0], theirs[0])
        assert ours[0]._base is (x if x._base is None else x._base)


@SETTINGS
@given(
    rows=st.integers(1, 6),
    index_shape=st.sampled_from([(0,), (4,), (3, 2)]),
    low=st.sampled_from([0, -6, -9]),
    seed=st.integers(0, 2**16),
)
def test_rows_short_path_is_the_general_path(rows, index_shape, low, seed):
    from minigrad.ops import indexing as I

    rng = np.random.default_rng(seed)
    table = mg.tensor(rng.normal(size=(rows, 3)).astype("f4"), requires_grad=True)
    index = rng.integers(low, rows + 1, index_shape)
    ours = _outcome(lambda: I.Index.apply_rows(table, index))
    theirs = _outcome(lambda: I.Index.apply(table, index))
    assert ours[1] == theirs[1]
    if ours[0] is not None:
        _same_node(ours[0], theirs[0])
        assert ours[0].grad_fn.key is index and ours[0].grad_fn.shape == (rows, 3)


@pytest.mark.parametrize("op", ["__iadd__", "__isub__", "__imul__", "add_"])
def test_update_through_data_as_pytorch(op, torch):
    """``p.data += -lr * p.grad`` with grad mode on (makemore's update): one ufunc into
    ``p``'s memory, a new version for the ``.data`` tensor only, as in PyTorch."""

    def run(lib):
        p = lib.tensor([1.0, -2.0, 3.5], requires_grad=True)
        g = lib.tensor([0.25, float("nan"), -1.0])
        data = p.data
        out = getattr(data, op)(-0.1 * g)
        return p.detach().numpy().copy(), p._version, data._version, out is data

    ours, theirs = run(mg), run(torch)
    np.testing.assert_array_equal(ours[0], theirs[0])
    assert ours[1:] == theirs[1:]


@pytest.mark.parametrize("case", ["view_of_leaf", "inference", "float64_into_float32", "leaf"])
def test_update_that_must_be_checked_as_pytorch(case, torch):
    """What the short update leaves to ``check_inplace`` and the general path: a view of a
    leaf that requires grad, an inference tensor, another dtype, a leaf itself."""

    def run(lib):
        w = lib.ones(3, requires_grad=True)
        g = lib.full((3,), 0.5)
        if case == "view_of_leaf":
            with lib.no_grad():
                target = w[:2]
            g = g[:2]
        elif case == "inference":
            with lib.inference_mode():
                target = lib.ones(3)
        elif case == "float64_into_float32":
            target, g = w.detach(), g.double()
        else:
            target = w
        target += g
        return target.detach().numpy().copy(), str(target.dtype).split(".")[1]

    ours, theirs = _outcome(lambda: run(mg)), _outcome(lambda: run(torch))
    if case == "view_of_leaf":  # PyTorch names the view's no_grad origin; minigrad does not yet
        assert ours[1][0] == theirs[1][0] == "RuntimeError"
        return
    assert ours[1] == theirs[1]
    if ours[0] is not None:
        np.testing.assert_array_equal(ours[0][0], theirs[0][0])
        assert ours[0][1] == theirs[0][1]


@pytest.mark.parametrize(
    "fn",
    [
        lambda lib, x: lib.tanh(x).sum(),
        lambda lib, x: lib.nn.functional.log_softmax(x, 1).sum(),
        lambda lib, x: lib.nn.functional.cross_entropy(x, lib.tensor([0, 2])),
        lambda lib, x: x[lib.tensor([1, 1, 0])].sum(),
        lambda lib, x: x.view(-1).sum(),
        lambda lib, x: x.view(3, 2).sum(),
    ],
)
def test_second_backward_through_the_short_paths_as_pytorch(fn, torch):
    """A second backward through a freed graph raises where PyTorch's raises (the node kept
    a value) and runs again where it does not (a view keeps nothing)."""

    def run(lib):
        x = lib.tensor([[0.5, -1.0, 2.0], [1.5, 0.0, -0.5]], requires_grad=True)
        out = fn(lib, x)
        out.backward()
        out.backward()
        return x.grad.numpy()

    ours, theirs = _outcome(lambda: run(mg)), _outcome(lambda: run(torch))
    assert (ours[1] is None) == (theirs[1] is None)
    if ours[1] is not None:
        assert ours[1][0] == theirs[1][0] and "second time" in ours[1][1]
    else:
        np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-6)


@pytest.mark.parametrize("rows", [27, 4096 // 8, 4097])
def test_embedding_gradient_adds_repeated_rows_in_index_order(rows):
    """C[X]'s gradient: the small-table path (flat indices taken from the table of all flat
    indices) and the large-table one (computed) add exactly what ``np.add.at`` adds, row by
    row in index order, negative rows included."""
    rng = np.random.default_rng(rows)
    width = 8 if rows * 8 <= 4096 else 1
    table = mg.tensor(rng.normal(size=(rows, width)).astype("f4"), requires_grad=True)
    index = rng.integers(-rows, rows, (40, 3))
    index[:, 0] = index[0, 0]  # one row picked many times
    grad = (rng.normal(size=(40, 3, width)) * 10.0 ** rng.integers(-8, 8, (40, 3, 1))).astype("f4")
    table[mg.tensor(index)].backward(mg.tensor(grad))
    expected = np.zeros((rows, width), "f4")
    np.add.at(expected, index.reshape(-1), grad.reshape(-1, width))
    assert table.grad.numpy().tobytes() == expected.tobytes()
