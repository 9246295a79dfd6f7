"""``x @ W + b``'s short apply (``ops/bias_add.py``) records what the general apply records.

``Add.apply`` takes a float32 (N, M) batch plus an (M,) bias itself; the general binary
apply (``array_apply._apply_binary``) is what it must equal: the same values, edges, nodes
made in the same order, broadcast shapes and gradients, bit for bit, for every kind of
tensor a model hands it (``tensor_kinds``), and the same result for what it refuses.
"""

from __future__ import annotations

import numpy as np
import pytest
from tensor_kinds import KINDS, of_kind

import minigrad as mg
from minigrad.autograd.array_apply import _apply_binary
from minigrad.ops import arithmetic as A


def _general(a, b):
    return _apply_binary(A.Add, a, b)


def _made(record, arrays, kinds):
    """What ``record(a, b)`` gives: its values, node, edges, broadcast shapes, the nodes it
    made (by path below it, in creation order) and the gradients of a backward through it."""
    a, b = (of_kind(x, k) for x, k in zip(arrays, kinds, strict=True))
    first = next(mg.autograd.node.sequence)
    out = record(a, b)
    node = out.grad_fn
    data = out.detach().numpy().copy()
    if node is None:
        return data, None, out.requires_grad
    below = [(i, n) for i, n in enumerate(node._next) if n is not None]
    new = sorted((n._seq % (1 << 62), i) for i, n in below if n._seq % (1 << 62) > first)
    new.append((node._seq % (1 << 62), "node"))
    order = [i for _, i in sorted(new)]
    edges = [type(n).__name__ if n is not None else None for n in node._next]
    shapes = node._shapes
    (out * out).sum().backward()
    grads = [None if x._grad is None else x._grad.numpy().copy() for x in (a, b)]
    return data, (node.name(), edges, shapes, order, out.requires_grad), grads


def _same(fast, general) -> None:
    assert fast[0].tobytes() == general[0].tobytes()
    assert fast[1] == general[1]
    if fast[1] is not None:
        for f, g in zip(fast[2], general[2], strict=True):
            assert (f is None) == (g is None)
            assert f is None or f.tobytes() == g.tobytes()


@pytest.mark.parametrize("kinds", [(a, b) for a in KINDS for b in KINDS])
def test_bias_add_records_what_the_general_apply_records(kinds):
    rng = np.random.default_rng(0)
    arrays = rng.normal(size=(5, 3)).astype(np.float32), rng.normal(size=3).astype(np.float32)
    _same(_made(A.Add.apply, arrays, kinds), _made(_general, arrays, kinds))


@pytest.mark.parametrize(
    "shapes",
    [((4, 3), (3,)), ((1, 1), (1,)), ((4, 3), (1,)), ((3,), (4, 3)), ((4, 3), (4, 3))],
)
@pytest.mark.parametrize("dtypes", [(np.float32, np.float32), (np.float64, np.float32)])
@pytest.mark.parametrize("grad", [True, False])
def test_bias_add_shapes_and_dtypes_as_the_general_apply(shapes, dtypes, grad):
    """Its own case and the neighbouring ones it hands on, with and without grad mode; the
    values carry -0., nan and inf (numpy's add, as the general path's)."""
    rng = np.random.default_rng(1)
    arrays = tuple(rng.normal(size=s).astype(d) for s, d in zip(shapes, dtypes, strict=True))
    arrays[0].flat[0], arrays[1].flat[0] = -0.0, -0.0
    arrays[0].flat[-1] = np.nan if arrays[0].size > 1 else np.inf
    kinds = ("fresh leaf", "non-leaf")
    with mg.set_grad_enabled(grad):
        _same(_made(A.Add.apply, arrays, kinds), _made(_general, arrays, kinds))


def test_bias_add_of_strided_tensors_as_the_general_apply():
    x = mg.tensor(np.arange(24, dtype=np.float32).reshape(4, 6), requires_grad=True)
    b = mg.tensor(np.arange(6, dtype=np.float32), requires_grad=True)
    for a, c in ((x.t(), b[:4]), (x[:, ::2], b[::2]), (x[:, :3].detach(), b[:3].detach())):
        fast, general = A.Add.apply(a, c), _general(a, c)
        assert fast.detach().numpy().tobytes() == general.detach().numpy().tobytes()
        assert fast.detach().numpy().strides == general.detach().numpy().strides
        assert type(fast.grad_fn) is type(general.grad_fn)


def test_bias_add_errors_as_the_general_apply():
    x, b = mg.ones(4, 3, requires_grad=True), mg.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError) as fast:
        A.Add.apply(x, b)
    with pytest.raises(RuntimeError) as general:
        _general(x, b)
    assert str(fast.value) == str(general.value)


def test_bias_add_gradient_sums_over_the_batch():
    """The backward of its node (``_add_run``) sums the bias's gradient over the rows."""
    x = mg.tensor(np.ones((3, 2), np.float32), requires_grad=True)
    b = mg.tensor(np.zeros(2, np.float32), requires_grad=True)
    (x + b).backward(mg.tensor(np.arange(6, dtype=np.float32).reshape(3, 2)))
    assert b.grad.tolist() == [6.0, 9.0]
    assert x.grad.tolist() == [[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]]
