"""The fast paths of the hot ops give PyTorch's values, gradients, graphs and errors.

``nll_loss`` (and so ``cross_entropy``) has a short path for (N, C) inputs with no class
weights and no target to ignore, and ``x[index]`` one for an integer tensor picking rows
(an embedding lookup ``C[X]``). Hypothesis draws inputs on both sides of each path's
conditions (ignored targets, weights, out-of-range and negative indices, repeated rows,
empty tensors) and every result is compared with PyTorch's; the gradients are also checked
against finite differences.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_gradients_property import check_gradients

import minigrad as mg

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _outcome(fn):
    """(result, None) or (None, (error type name, message)): errors compared as text."""
    try:
        return fn(), None
    except Exception as e:  # noqa: BLE001 - the point is to compare whatever is raised
        return None, (type(e).__name__, str(e).split("\n")[0])


def _names(fn) -> list[str]:
    """The names of a graph's nodes, depth first, as a learner would read them."""
    out, stack = [], [fn]
    while stack:
        node = stack.pop()
        if node is None:
            continue
        out.append(type(node).__name__)
        stack.extend(n for n, _ in node.next_functions)
    return out


@st.composite
def classification(draw):
    n = draw(st.integers(1, 6))
    c = draw(st.integers(1, 5))
    ignore = draw(st.sampled_from([-100, -1, 0, 1, c, 7]))
    low = draw(st.sampled_from([0, 0, 0, -1]))  # mostly valid targets, some negative
    high = draw(st.sampled_from([c, c, c, c + 1]))  # and some past the last class
    target = draw(st.lists(st.integers(low, high - 1), min_size=n, max_size=n))
    seed = draw(st.integers(0, 2**16))
    weight = draw(st.booleans())
    reduction = draw(st.sampled_from(["mean", "sum", "none"]))
    return n, c, ignore, np.array(target, np.int64), seed, weight, reduction


@SETTINGS
@given(case=classification(), name=st.sampled_from(["cross_entropy", "nll_loss"]))
def test_class_index_losses_as_pytorch(case, name, torch):
    n, c, ignore, target, seed, weighted, reduction = case
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, c)).astype(np.float32)
    w = rng.uniform(0.5, 2.0, c).astype(np.float32)

    def run(lib):
        inp = lib.tensor(x, requires_grad=True)
        kwargs = {"ignore_index": ignore, "reduction": reduction}
        if weighted:
            kwargs["weight"] = lib.tensor(w)
        loss = getattr(lib.nn.functional, name)(inp, lib.tensor(target), **kwargs)
        names = _names(loss.grad_fn)
        loss.backward(lib.ones_like(loss))
        return loss.detach().numpy(), inp.grad.numpy(), names

    ours, our_error = _outcome(lambda: run(mg))
    theirs, their_error = _outcome(lambda: run(torch))
    assert our_error == their_error
    if ours is None:
        return
    np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-5, atol=1e-6)
    assert ours[2] == theirs[2]


@SETTINGS
@given(
    st.integers(1, 5), st.integers(1, 4), st.integers(0, 2**16), st.sampled_from(["mean", "sum"])
)
def test_nll_loss_fast_path_gradient(n, c, seed, reduction):
    rng = np.random.default_rng(seed)
    target = mg.tensor(rng.integers(0, c, n))
    check_gradients(
        lambda x: mg.nn.functional.cross_entropy(x, target, reduction=reduction),
        rng.normal(size=(n, c)),
    )


@st.composite
def row_lookup(draw):
    rows = draw(st.integers(0, 5))
    cols = draw(st.sampled_from([(), (3,), (2, 2), (0,)]))  # (0,): nothing read, no bounds
    index_shape = draw(st.sampled_from([(0,), (1,), (4,), (3, 2), (2, 1, 3)]))
    size = int(np.prod(index_shape))
    low, high = draw(st.sampled_from([(0, rows), (-rows, rows), (-rows - 2, rows + 2)]))
    values = draw(st.lists(st.integers(low, max(low, high - 1)), min_size=size, max_size=size))
    dtype = draw(st.sampled_from([np.int64, np.int32, np.int16]))
    return (rows, *cols), np.array(values, dtype).reshape(index_shape)


@SETTINGS
@given(case=row_lookup(), seed=st.integers(0, 2**16))
def test_rows_by_integer_tensor_as_pytorch(case, seed, torch):
    shape, index = case
    x = np.random.default_rng(seed).normal(size=shape).astype(np.float32)

    def run(lib):
        table = lib.tensor(x, requires_grad=True)
        out = table[lib.tensor(index)]
        names = _names(out.grad_fn)
        upstream = np.arange(out.numel(), dtype=np.float32).reshape(tuple(out.shape))
        out.backward(lib.tensor(upstream))
        return out.detach().numpy(), table.grad.numpy(), names

    ours, our_error = _outcome(lambda: run(mg))
    theirs, their_error = _outcome(lambda: run(torch))
    assert our_error == their_error
    if ours is None:
        return
    np.testing.assert_array_equal(ours[0], theirs[0])
    np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-6)
    assert ours[2] == theirs[2]


def test_rows_by_integer_tensor_gradient_adds_repeated_rows():
    index = mg.tensor([[0, 2], [2, 2]])
    check_gradients(lambda c: c[index], np.random.default_rng(0).normal(size=(3, 2)))


@pytest.mark.parametrize(
    "fn",
    [
        lambda lib: lib.ones(3, 4)[lib.tensor([0, 3])],
        lambda lib: lib.ones(3, 4)[lib.tensor([-4])],
        lambda lib: lib.ones(3, 4)[lib.tensor([5, -7])],
        lambda lib: lib.nn.functional.cross_entropy(lib.ones(2, 3), lib.tensor([0, 3])),
        lambda lib: lib.nn.functional.cross_entropy(lib.ones(2, 3), lib.tensor([-1, 0])),
    ],
)
def test_fast_path_errors_as_pytorch(fn, torch):
    assert _outcome(lambda: fn(mg))[1] == _outcome(lambda: fn(torch))[1]


def test_makemore_steps_as_pytorch(torch):
    """The benchmark's makemore loop (C[X], tanh, cross_entropy, SGD) for a few steps, both ways."""

    def losses(lib) -> list[float]:
        rng = np.random.default_rng(0)
        words = rng.integers(0, 27, (200, 4))
        X, Y = lib.tensor(words[:, :3]), lib.tensor(words[:, 3])
        params = [
            lib.tensor(rng.standard_normal(shape).astype(np.float32) * scale, requires_grad=True)
            for shape, scale in (((27, 10), 1.0), ((30, 64), 0.2), ((64,), 0.01), ((64, 27), 0.1))
        ]
        C, W1, b1, W2 = params
        out = []
        for _ in range(5):
            ix = lib.tensor(rng.integers(0, len(words), 32))
            h = lib.tanh(C[X[ix]].view(-1, 30) @ W1 + b1)
            loss = lib.nn.functional.cross_entropy(h @ W2, Y[ix])
            for p in params:
                p.grad = None
            loss.backward()
            for p in params:
                p.data += -0.1 * p.grad
            out.append(loss.item())
        return out

    np.testing.assert_allclose(losses(mg), losses(torch), rtol=1e-5)


@SETTINGS
@given(case=row_lookup(), seed=st.integers(0, 2**16), no_grad=st.booleans())
def test_rows_by_integer_tensor_without_a_graph_as_pytorch(case, seed, no_grad, torch):
    """``X[ix]`` of a tensor that records no graph (integer data, or under no_grad) is only
    the copy: the same values, dtype, errors and flags as PyTorch's."""
    shape, index = case
    x = np.random.default_rng(seed).normal(size=shape)

    def run(lib):
        table = lib.tensor(x.astype(np.float32), requires_grad=no_grad)
        ints = lib.tensor(np.rint(x * 10).astype(np.int64))
        with lib.no_grad() if no_grad else lib.enable_grad():
            out, picked = table[lib.tensor(index)], ints[lib.tensor(index)]
        return [
            (t.detach().numpy(), str(t.dtype), t.requires_grad, t.grad_fn is None, t.is_leaf)
            for t in (out, picked)
        ]

    ours, our_error = _outcome(lambda: run(mg))
    theirs, their_error = _outcome(lambda: run(torch))
    assert our_error == their_error
    if ours is None:
        return
    for a, b in zip(ours, theirs):
        np.testing.assert_array_equal(a[0], b[0])
        assert a[1].replace("minigrad", "torch") == b[1] and a[2:] == b[2:]


@SETTINGS
@given(
    st.lists(st.integers(-2, 4), max_size=4),
    st.integers(0, 30),
)
def test_infer_shape_short_path_as_the_checked_one(shape, numel):
    """``view``'s shape: the one-loop path gives what the checked path gives, errors too."""
    from minigrad.ops.shape import _infer_shape_checked, infer_shape

    assert _outcome(lambda: infer_shape(tuple(shape), numel)) == _outcome(
        lambda: _infer_shape_checked(tuple(shape), numel)
    )


@SETTINGS
@given(case=classification(), requires=st.booleans(), dtype=st.sampled_from(["f4", "f8"]))
def test_cross_entropy_short_paths_record_the_general_nodes(case, requires, dtype):
    """LogSoftmax's and NllLoss's own ``apply`` record what the general ``apply`` records:
    the same values, edges, saved values and versions, and the same gradients."""
    from minigrad.autograd.function import ArrayFunction
    from minigrad.ops import classification_loss as NLL
    from minigrad.ops import softmax as SM

    n, c, ignore, target, seed, weighted, reduction = case
    rng = np.random.default_rng(seed)
    x = mg.tensor(rng.normal(size=(n, c)).astype(dtype), requires_grad=requires)
    w = rng.uniform(0.5, 2.0, c).astype(dtype) if weighted else None
    general = ArrayFunction.apply.__func__
    pairs = [(SM.LogSoftmax.apply(x, 1), general(SM.LogSoftmax, x, 1))]
    log_probs = pairs[0][0]
    args = (log_probs, target, w, ignore, reduction)
    fast, slow = (
        _outcome(lambda: NLL.NllLoss.apply(*args)),
        _outcome(lambda: general(NLL.NllLoss, *args)),
    )
    assert fast[1] == slow[1]
    if fast[0] is not None:
        pairs.append((fast[0], slow[0]))
    for ours, theirs in pairs:
        np.testing.assert_array_equal(ours.detach().numpy(), theirs.detach().numpy())
        assert ours.requires_grad == theirs.requires_grad
        if theirs.grad_fn is None:
            assert ours.grad_fn is None
            continue
        f, g = ours.grad_fn, theirs.grad_fn
        assert type(f) is type(g) and f._next == g._next
        assert f._saved_checks[1:] == g._saved_checks[1:]  # the output's counter is its own
        upstream = np.ones(ours.shape, dtype)
        with np.errstate(all="ignore"):  # as the engine runs nodes: every target ignored
            pairs_of_grads = list(zip(f._run(upstream), g._run(upstream), strict=True))
        for a, b in pairs_of_grads:
            np.testing.assert_array_equal(a, b)


def test_cross_entropy_short_paths_catch_in_place_changes():
    x = mg.ones(3, 2, requires_grad=True)
    log_probs = x.log_softmax(1)
    loss = mg.nn.functional.nll_loss(log_probs, mg.tensor([0, 1, 1]))
    with mg.no_grad():
        log_probs.add_(1)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        loss.backward()


@SETTINGS
@given(
    op=st.sampled_from(["add_", "sub_", "mul_", "__iadd__", "__isub__", "__imul__"]),
    n=st.integers(1, 6),
    dtype=st.sampled_from(["f4", "f8"]),
    itself=st.booleans(),
    seed=st.integers(0, 2**16),
)
def test_in_place_update_without_a_graph_as_pytorch(op, n, dtype, itself, seed, torch):
    """``p.data += -lr * p.grad`` and ``p.add_(g)`` under no_grad write one ufunc's result
    into ``p``: PyTorch's values (nan and inf too), and one more version for ``p``."""
    rng = np.random.default_rng(seed)
    a = rng.normal(size=n + 1).astype(dtype)
    a[rng.integers(0, n + 1)] = rng.choice([np.nan, np.inf, -np.inf, 0.0])
    b = rng.normal(size=n + 1).astype(dtype)

    def run(lib):
        p = lib.tensor(a, requires_grad=True)
        g = lib.tensor(b)
        with lib.no_grad():
            target, other = (p, p) if itself else (p, g)
            version = p._version
            out = getattr(target, op)(other)
        data = p.data
        getattr(data, op)(g)
        return p.detach().numpy().copy(), p._version - version, out is target

    ours, theirs = run(mg), run(torch)
    np.testing.assert_array_equal(ours[0], theirs[0])
    assert ours[1:] == theirs[1:]


@SETTINGS
@given(
    op=st.sampled_from(["__add__", "__radd__", "__sub__", "__mul__", "__rmul__"]),
    shape=st.sampled_from([(), (3,), (2, 3)]),
    dtype=st.sampled_from(["f2", "f4", "f8", "i8"]),
    number=st.sampled_from([-0.1, -0.0, 2.5, 1e300, float("nan"), float("-inf")]),
    case=st.sampled_from(
        ["plain", "requires", "no_grad", "view", "late view", "inference", "strided"]
    ),
    seed=st.integers(0, 2**16),
)
def test_tensor_and_number_short_path_as_the_general_one(op, shape, dtype, number, case, seed):
    """``-lr * p.grad`` (a float tensor and a number, no graph: ``number_operand.number_op``) gives
    the general ``apply``'s bits, dtype, layout and flags; the other cases go through it."""
    from minigrad.ops import arithmetic as A

    x = np.random.default_rng(seed).normal(size=shape) * 3
    if dtype != "i8":
        x.reshape(-1)[:1] = [np.nan, np.inf, -0.0, 0.0][seed % 4]
    grad = case in ("requires", "view") and dtype != "i8"
    base = mg.tensor(x.astype(dtype), requires_grad=grad)
    if case in ("view", "late view"):  # late: the base requires grad after the view is made
        t = base[...]
        if case == "late view" and dtype != "i8":
            base.requires_grad_()
    elif case == "strided":
        t = mg.tensor(np.repeat(x.astype(dtype)[..., None], 2, -1))[..., 0]
    else:
        t = base
    general = {"a": A.Add, "s": A.Sub, "m": A.Mul}[op[2 + (op[2] == "r")]].apply
    mode = {"no_grad": mg.no_grad, "inference": mg.inference_mode}.get(case, mg.enable_grad)
    with mode():
        ours, theirs = getattr(t, op)(number), general(t, number)
    assert ours.detach().numpy().tobytes() == theirs.detach().numpy().tobytes()
    assert (ours.dtype, ours.shape, ours._data.strides, ours.requires_grad) == (
        theirs.dtype,
        theirs.shape,
        theirs._data.strides,
        theirs.requires_grad,
    )
    assert ours.is_inference() == theirs.is_inference() == (case == "inference")
    if case != "inference":  # (an inference tensor has no version counter)
        assert ours._version == theirs._version == 0
    assert type(ours.grad_fn) is type(theirs.grad_fn)
