"""The short ``_run`` of a hot node gives what the general wrapper gives.

``AddBackward0`` sums the bias's gradient of ``x @ W + b`` itself (``arithmetic._add_run``)
instead of going through ``array_apply._array_node_run``; every other broadcast (a
column, a leading 1, mixed float dtypes, same shapes) still goes through the wrapper.
Hypothesis draws both kinds, with nan, inf and signed zeros in the gradient, and the two
answers are compared bit for bit.
"""

from __future__ import annotations

import numpy as np
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
