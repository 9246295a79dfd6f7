"""The short paths of a training step (Linear's addmm, its backward, Sequential) change nothing.

``Addmm.apply`` has a path of its own for three tensors of one float dtype and a 1-d bias;
its node must be the general path's node (edges, saved values, their versions), and its
values and gradients PyTorch's; matrix products use ``np.dot`` for float32 and float64,
which must give matmul's bits. Its edges and its backward's bias sum: test_addmm_short_paths.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tensor_kinds import KINDS, of_kind

import minigrad as mg
from minigrad.autograd.function import ArrayFunction
from minigrad.ops import activation as ACT
from minigrad.ops import addmm as AM
from minigrad.ops import linalg as L
from minigrad.ops import loss as LO
from minigrad.ops import shape as S

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def layer(draw):
    rows = draw(st.sampled_from([1, 2, 7, 64, 100]))
    n_in = draw(st.integers(1, 5))
    n_out = draw(st.sampled_from([1, 2, 16, 65]))
    dtype = draw(st.sampled_from([np.float32, np.float64]))
    needs = draw(st.tuples(st.booleans(), st.booleans(), st.booleans()))
    seed = draw(st.integers(0, 2**16))
    return rows, n_in, n_out, dtype, needs, seed


def _arrays(rows, n_in, n_out, dtype, seed):
    rng = np.random.default_rng(seed)
    return (
        rng.normal(size=(rows, n_in)).astype(dtype),
        rng.normal(size=(n_out, n_in)).astype(dtype),
        rng.normal(size=n_out).astype(dtype),
    )


@SETTINGS
@given(case=layer())
def test_linear_as_pytorch(case, torch):
    rows, n_in, n_out, dtype, needs, seed = case
    arrays = _arrays(rows, n_in, n_out, dtype, seed)

    def run(lib):
        x, w, b = (lib.tensor(a, requires_grad=r) for a, r in zip(arrays, needs, strict=True))
        out = lib.nn.functional.linear(x, w, b)
        if out.requires_grad:
            out.backward(lib.ones_like(out))
        grads = [None if t.grad is None else t.grad.numpy() for t in (x, w, b)]
        return out.detach().numpy(), grads, out.grad_fn is None

    ours, theirs = run(mg), run(torch)
    np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-5, atol=1e-5)
    for g, h in zip(ours[1], theirs[1], strict=True):
        assert (g is None) == (h is None)
        if g is not None:
            np.testing.assert_allclose(g, h, rtol=1e-5, atol=1e-4)
    assert ours[2] == theirs[2]


def assert_records_the_general_node(fast, general, upstream: np.ndarray):
    """A short path's result is the general ``apply``'s: its values, and its node's type,
    edges, saved values (the same arrays) and their versions, and the gradients it gives
    ``upstream``. Returns both nodes for further checks (None when nothing was recorded)."""
    np.testing.assert_array_equal(fast.detach().numpy(), general.detach().numpy())
    assert fast.requires_grad == general.requires_grad
    assert fast.dtype == general.dtype and fast.shape == general.shape
    if general.grad_fn is None:
        assert fast.grad_fn is None
        return None
    f, g = fast.grad_fn, general.grad_fn
    assert type(f) is type(g)
    assert f._next == g._next
    assert f._saved_checks == g._saved_checks
    assert all(s is t for s, t in zip(f._saved, g._saved, strict=True))
    for ours, theirs in zip(f._run(upstream), g._run(upstream), strict=True):
        assert (ours is None) == (theirs is None)
        if ours is not None:
            np.testing.assert_array_equal(ours, theirs)
    return f, g


@SETTINGS
@given(case=layer())
def test_addmm_short_path_records_the_general_node(case):
    rows, n_in, n_out, dtype, needs, seed = case
    arrays = _arrays(rows, n_in, n_out, dtype, seed)
    x, w, b = (mg.tensor(a, requires_grad=r) for a, r in zip(arrays, needs, strict=True))
    w_t = S.T.apply(w)
    fast = AM.Addmm.apply(b, x, w_t)
    general = ArrayFunction.apply.__func__(AM.Addmm, b, x, w_t)
    upstream = np.random.default_rng(seed).normal(size=(rows, n_out)).astype(dtype)
    nodes = assert_records_the_general_node(fast, general, upstream)
    if nodes is not None:
        f, g = nodes
        assert (f.bias_shape, f.layout) == (g.bias_shape, g.layout)


@SETTINGS
@given(case=layer(), grad_on=st.booleans())
def test_linear_records_t_and_addmm_as_t_then_the_general_path(case, grad_on):
    """F.linear of a batch records weight.t()'s TBackward0 with its addmm, making no Tensor
    for the view: the graph of ``t()`` then the general addmm, in the same creation order."""
    rows, n_in, n_out, dtype, needs, seed = case
    arrays = _arrays(rows, n_in, n_out, dtype, seed)
    x, w, b = (mg.tensor(a, requires_grad=r) for a, r in zip(arrays, needs, strict=True))
    with mg.set_grad_enabled(grad_on):
        fast = AM.Addmm.of_weight(b, x, w)
        general = ArrayFunction.apply.__func__(AM.Addmm, b, x, S.T.apply(w))
    assert fast.detach().numpy().tobytes() == general.detach().numpy().tobytes()
    assert fast.requires_grad == general.requires_grad
    if general.grad_fn is None:
        assert fast.grad_fn is None
        return
    f, g = fast.grad_fn, general.grad_fn
    assert type(f) is type(g) and f._next[:2] == g._next[:2]
    ft, gt = f._next[2], g._next[2]
    assert type(ft) is type(gt)
    if gt is not None:
        assert ft._next == gt._next and ft._saved is gt._saved is None
        assert ft._seq < f._seq  # made first, as t() before addmm
    assert f._saved_checks == g._saved_checks
    assert (f.bias_shape, f.layout) == (g.bias_shape, g.layout)
    for s, t in zip(f._saved, g._saved, strict=True):
        assert (s is None) == (t is None)
        if s is not None:
            assert s.strides == t.strides and s.tobytes() == t.tobytes()
    upstream = np.random.default_rng(seed).normal(size=(rows, n_out)).astype(dtype)
    for ours, theirs in zip(f._run(upstream), g._run(upstream), strict=True):
        assert (ours is None) == (theirs is None)
        if ours is not None:
            assert ours.strides == theirs.strides and ours.tobytes() == theirs.tobytes()


def test_linear_of_a_batch_falls_back_with_the_general_errors(torch):
    for lib in (mg, torch):
        x = lib.ones(3, 2)
        with pytest.raises(RuntimeError) as ours:
            lib.nn.functional.linear(x, lib.ones(4, 2, dtype=lib.float64), lib.zeros(4))
        with pytest.raises(RuntimeError) as shapes:
            lib.nn.functional.linear(x, lib.ones(4, 3), lib.zeros(4))
        if lib is mg:
            mine = (str(ours.value), str(shapes.value))
    assert mine == (str(ours.value), str(shapes.value))


@SETTINGS
@given(case=layer(), same=st.booleans())
def test_mm_short_path_records_the_general_node(case, same):
    rows, n_in, n_out, dtype, needs, seed = case
    x_array, w_array, _ = _arrays(rows, n_in, n_out, dtype, seed)
    x = mg.tensor(x_array, requires_grad=needs[0])
    w = mg.tensor(w_array, requires_grad=needs[1])
    other = S.T.apply(x) if same else S.T.apply(w)  # x @ x.T: one tensor on both sides
    fast = L.Mm.apply(x, other)
    general = ArrayFunction.apply.__func__(L.Mm, x, other)
    upstream = np.random.default_rng(seed).normal(size=fast.shape).astype(dtype)
    nodes = assert_records_the_general_node(fast, general, upstream)
    if nodes is not None:
        f, g = nodes
        assert f.layout == g.layout


def test_addmm_short_path_catches_in_place_changes():
    x = mg.ones(3, 2, requires_grad=True)
    w = mg.ones(4, 2, requires_grad=True)
    out = mg.nn.functional.linear(x, w, mg.zeros(4))
    with mg.no_grad():
        w.add_(1)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        out.sum().backward()


@SETTINGS
@given(
    n=st.integers(0, 70),
    k=st.integers(1, 40),
    m=st.integers(1, 40),
    dtype=st.sampled_from([np.float16, np.float32, np.float64]),
    layout=st.tuples(st.booleans(), st.booleans()),
    seed=st.integers(0, 2**16),
)
def test_matrix_product_gradients_have_matmul_bits(n, k, m, dtype, layout, seed):
    rng = np.random.default_rng(seed)
    a = rng.normal(size=(k, n) if layout[0] else (n, k)).astype(dtype)
    b = rng.normal(size=(m, k) if layout[1] else (k, m)).astype(dtype)
    a, b = (a.T if layout[0] else a), (b.T if layout[1] else b)
    grad = rng.normal(size=(n, m)).astype(dtype)
    grad_a, grad_b = L.mm_grads(grad, a, b, True, True)
    np.testing.assert_array_equal(grad_a, (b @ grad.T).T if layout[0] else grad @ b.T)
    np.testing.assert_array_equal(grad_b, (grad.T @ a).T if layout[1] else a.T @ grad)
    small = L.small_product(a, b)  # PyTorch's order for small products (V1), else matmul's
    np.testing.assert_array_equal(
        L.Mm.forward(L.Mm._Node(), a, b), a @ b if small is None else small
    )


def test_sequential_calls_a_module_that_overrides_call():
    class Doubled(mg.nn.Module):
        def forward(self, x):
            return x

        def __call__(self, x):
            return self.forward(x) * 2

    model = mg.nn.Sequential(Doubled(), mg.nn.ReLU())
    assert model(mg.ones(2)).tolist() == [2.0, 2.0]


@SETTINGS
@given(
    shape=st.sampled_from([(), (1,), (5,), (100, 1), (3, 4)]),
    dtype=st.sampled_from([np.float32, np.float64]),
    needs=st.tuples(st.booleans(), st.booleans()),
    same=st.booleans(),
    reduction=st.sampled_from(["mean", "sum", "none"]),
    seed=st.integers(0, 2**16),
)
def test_mse_loss_short_path_records_the_general_node(shape, dtype, needs, same, reduction, seed):
    rng = np.random.default_rng(seed)
    x = mg.tensor(rng.normal(size=shape).astype(dtype), requires_grad=needs[0])
    y = x if same else mg.tensor(rng.normal(size=shape).astype(dtype), requires_grad=needs[1])
    fast = LO.MseLoss.apply(x, y, reduction)
    general = ArrayFunction.apply.__func__(LO.MseLoss, x, y, reduction)
    upstream = np.asarray(rng.normal(size=general.shape).astype(dtype))
    assert_records_the_general_node(fast, general, upstream)


@SETTINGS
@given(
    values=st.lists(
        st.sampled_from([0.0, -0.0, 1.5, -2.0, np.nan, np.inf, -np.inf, 1e-40]), min_size=1
    ),
    dtype=st.sampled_from([np.float16, np.float32, np.float64]),
    needs=st.booleans(),
    scalar=st.booleans(),
)
def test_relu_short_path_records_the_general_node(values, dtype, needs, scalar):
    values = values[:1] if scalar else values
    x = mg.tensor(np.array(values[0] if scalar else values, dtype), requires_grad=needs)
    fast = ACT.Relu.apply(x)
    general = ArrayFunction.apply.__func__(ACT.Relu, x)
    assert fast.detach().numpy().tobytes() == general.detach().numpy().tobytes()
    assert fast.dtype == general.dtype
    if general.grad_fn is None:
        assert fast.grad_fn is None
        return
    f, g = fast.grad_fn, general.grad_fn
    assert f._next == g._next
    assert f._saved_checks[1:] == g._saved_checks[1:]
    assert f._saved_checks[0] is fast._vc and g._saved_checks[0] is general._vc
    upstream = np.array(values[0] if scalar else values[::-1], dtype)
    assert f._run(upstream)[0].tobytes() == g._run(upstream)[0].tobytes()


@SETTINGS
@given(
    values=st.lists(st.sampled_from([0.0, -0.0, 1.5, -2.0, np.nan, -np.nan, np.inf, -np.inf])),
    grads=st.lists(st.sampled_from([0.0, -0.0, 3.0, -1.0, np.nan, np.inf]), min_size=1),
    dtype=st.sampled_from([np.float16, np.float32, np.float64]),
    size=st.sampled_from([1, 7, 2048, 2049]),
)
def test_relu_backward_is_threshold_backward_of_its_output(values, grads, dtype, size):
    """relu's backward selects by its output's truth value (out == 0, as out <= 0 for a relu
    output: -0. and nan included), small or large: threshold_backward's bits."""
    x = mg.tensor(np.resize(np.array(values or [1.0], dtype), size), requires_grad=True)
    out = ACT.Relu.apply(x)
    upstream = np.resize(np.array(grads, dtype), size)
    (ours,) = out.grad_fn._run(upstream)
    assert ours.tobytes() == ACT.threshold_backward(upstream, out._data).tobytes()


@pytest.mark.parametrize("kind", KINDS)
def test_relu_finds_the_edge_the_general_path_finds(kind):
    x = of_kind(np.array([1.0, -2.0, 0.0], np.float32), kind)
    fast = ACT.Relu.apply(x)
    general = ArrayFunction.apply.__func__(ACT.Relu, x)
    assert (fast.grad_fn is None) == (general.grad_fn is None)
    if general.grad_fn is not None:
        assert fast.grad_fn._next == general.grad_fn._next


@pytest.mark.parametrize("kinds", [(a, b) for a in KINDS for b in KINDS])
def test_mse_loss_finds_the_edges_the_general_path_finds(kinds):
    input, target = (of_kind(np.array([1.0, -2.0, 0.5], np.float32), k) for k in kinds)
    fast = LO.MseLoss.apply(input, target, "mean")
    general = ArrayFunction.apply.__func__(LO.MseLoss, input, target, "mean")
    assert (fast.grad_fn is None) == (general.grad_fn is None)
    if general.grad_fn is not None:
        assert fast.grad_fn._next == general.grad_fn._next
