"""Linear's ``addmm`` (``ops/addmm.py``) on its short paths finds what the general path finds.

``Addmm.of_weight`` looks up a layer's edges itself (the weight's and the bias's
AccumulateGrad, the input's node), and its backward on arrays writes ``mm_grads`` and the
bias's ``sum_to_shape`` out: the same edges and nodes, the same gradients bit for bit, for
every kind of tensor a model hands a layer.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tensor_kinds import KINDS, of_kind

import minigrad as mg
from minigrad.autograd.accumulate_grad import sum_to_shape
from minigrad.autograd.function import ArrayFunction
from minigrad.ops import addmm as AM
from minigrad.ops import linalg as L
from minigrad.ops import shape as S

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _arrays(rows, n_in, n_out, dtype, seed):
    rng = np.random.default_rng(seed)
    return tuple(rng.normal(size=s).astype(dtype) for s in ((rows, n_in), (n_out, n_in), n_out))


@pytest.mark.parametrize("kinds", [(x, w, b) for x in KINDS for w in KINDS for b in KINDS])
def test_linear_finds_the_edges_the_general_path_finds(kinds):
    """of_weight finds a weight's and a bias's AccumulateGrad itself: the general path's
    edges, the same nodes, and the nodes it makes (an AccumulateGrad at a leaf's first use)
    made in the same order."""
    arrays = _arrays(3, 2, 4, np.float32, 0)

    def made(record) -> tuple:  # the node, and where each node made by record() is below it
        x, w, b = (of_kind(a, k) for a, k in zip(arrays, kinds, strict=True))
        first = next(mg.autograd.node.sequence)
        node = record(x, w, b).grad_fn
        if node is None:
            return None, (x, w, b), []
        below = [((i,), n) for i, n in enumerate(node._next) if n is not None]
        below += [((i, j), m) for (i,), n in below for j, m in enumerate(n._next) if m]
        new = sorted((n._seq % (1 << 62), path) for path, n in below if n._seq % (1 << 62) > first)
        return node, (x, w, b), [path for _, path in new]

    fast = made(lambda x, w, b: AM.Addmm.of_weight(b, x, w))
    general = made(lambda x, w, b: ArrayFunction.apply.__func__(AM.Addmm, b, x, S.T.apply(w)))
    assert fast[-1] == general[-1]
    if general[0] is None:
        assert fast[0] is None
        return
    # the same tensors again: the same edges, node for node (the weight's through t())
    x, w, b = fast[1]
    f = AM.Addmm.of_weight(b, x, w).grad_fn
    g = ArrayFunction.apply.__func__(AM.Addmm, b, x, S.T.apply(w)).grad_fn
    assert f._next[:2] == g._next[:2]
    assert (f._next[2] is None) == (g._next[2] is None)
    if f._next[2] is not None:
        assert f._next[2]._next == g._next[2]._next


@SETTINGS
@given(
    rows=st.sampled_from([1, 2, 7, 64, 100]),
    n_in=st.integers(1, 5),
    n_out=st.sampled_from([1, 2, 16, 65]),
    needs=st.tuples(st.booleans(), st.booleans(), st.booleans()),
    seed=st.integers(0, 2**16),
    x_cm=st.booleans(),
    bias_shape=st.sampled_from(["row", "one", "full"]),
    dtype=st.sampled_from([np.float16, np.float32, np.float64]),
)
def test_addmm_backward_on_arrays_is_mm_grads_and_sum_to_shape(
    rows, n_in, n_out, needs, seed, x_cm, bias_shape, dtype
):
    """Addmm's backward writes mm_grads and the bias's sum out for arrays: the same gradients,
    bit for bit and in the same layouts, for every layout, bias and edge."""
    x_array, w_array, b_array = _arrays(rows, n_in, n_out, dtype, seed)
    if x_cm:  # a column-major input (a transposed matrix)
        x_array = np.ascontiguousarray(x_array.T).T
    b_array = {"row": b_array, "one": b_array[:1], "full": np.ones((rows, n_out), dtype)}[
        bias_shape
    ]
    x, w, b = (mg.tensor(a, requires_grad=r) for a, r in zip((x_array, w_array, b_array), needs))
    out = AM.Addmm.of_weight(b, x, w)
    if out.grad_fn is None:
        return
    node = out.grad_fn
    upstream = np.random.default_rng(seed).normal(size=(rows, n_out)).astype(dtype)
    a, m = node.saved_tensors
    nb, na, nm = node._next
    expected = (
        None if nb is None else sum_to_shape(upstream, node.bias_shape),
        *L.mm_grads(upstream, a, m, na is not None, nm is not None, node.layout),
    )
    for ours, theirs in zip(node._run(upstream), expected, strict=True):
        assert (ours is None) == (theirs is None)
        if ours is not None:
            assert ours.strides == theirs.strides and ours.tobytes() == theirs.tobytes()


@SETTINGS
@given(rows=st.integers(1, 200), cols=st.integers(1, 80), seed=st.integers(0, 2**16))
def test_bias_gradient_has_sum_to_shape_bits(rows, cols, seed):
    rng = np.random.default_rng(seed)
    x, w, b = (rng.normal(size=s).astype(np.float32) for s in ((rows, 3), (cols, 3), cols))
    node = AM.Addmm.of_weight(mg.tensor(b, requires_grad=True), mg.tensor(x), mg.tensor(w)).grad_fn
    grad = rng.normal(size=(rows, cols)).astype(np.float32)
    np.testing.assert_array_equal(node._run(grad)[0], sum_to_shape(grad, (cols,)))
