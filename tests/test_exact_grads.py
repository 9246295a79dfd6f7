"""Ops that declare ``exact_grads`` run their backward without the general wrapper.

The engine calls such a node's ``backward`` directly (``ArrayFunction.exact_grads``), so
it must return what ``_array_node_run`` would: a tuple, each gradient in its input's shape,
the same bits; and, once backward freed the graph, the same error (or none) on a second run.
"""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg
from minigrad.autograd.array_apply import _array_node_run
from minigrad.autograd.function import ArrayFunction

F = mg.nn.functional


def _subclasses(cls):
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


def _cases():
    rng = np.random.default_rng(0)

    def t(shape, requires=True, dtype=np.float32):
        return mg.tensor(rng.normal(size=shape).astype(dtype), requires_grad=requires)

    f64 = np.float64
    x, w, b = t((5, 3)), t((4, 3)), t(4)
    xf = t((5, 3), False)
    return {
        "addmm": lambda: F.linear(x, w, b),
        "addmm, input without grad": lambda: F.linear(xf, w, b),
        "addmm, one output": lambda: F.linear(x, t((1, 3)), t(1)),
        "addmm, float64": lambda: F.linear(t((2, 3), dtype=f64), t((4, 3), dtype=f64)),
        "addmm, 0-d bias": lambda: mg.addmm(t(()), x, w.t()),
        "addmm, broadcast bias": lambda: mg.addmm(t((1, 4)), x, w.t()),
        "mm": lambda: x @ w.t(),
        "mm, weight without grad": lambda: x @ t((3, 4), False),
        "mm, one inner column": lambda: t((5, 1)) @ t((1, 4)),
        "mm, float16": lambda: t((2, 3), dtype=np.float16) @ t((3, 2), dtype=np.float16),
        "t": lambda: w.t(),
        "t, vector": lambda: b.t(),
        "t, 0-d (a numpy scalar gradient)": lambda: t(()).t(),
        "relu": lambda: F.relu(x),
        "relu, 0-d": lambda: F.relu(t(())),
        "mse_loss": lambda: F.mse_loss(x, t((5, 3))),
        "mse_loss, sum": lambda: F.mse_loss(x, t((5, 3), False), reduction="sum"),
        "mse_loss, none": lambda: F.mse_loss(x, t((5, 3)), reduction="none"),
        "mse_loss, target only": lambda: F.mse_loss(t((5, 3), False), t((5, 3))),
        "mse_loss, broadcast": lambda: F.mse_loss(x, t((1, 3))),
        "tanh": lambda: mg.tanh(x),
        "tanh, small float32 (rounded in float64)": lambda: mg.tanh(t((2, 2))),
        "tanh, 0-d": lambda: mg.tanh(t(())),
        "tanh, float64": lambda: mg.tanh(t((40, 30), dtype=f64)),
        "log_softmax": lambda: F.log_softmax(x, 1),
        "log_softmax, dim 0 of 3-d": lambda: F.log_softmax(t((2, 3, 4)), 0),
        "log_softmax, large": lambda: F.log_softmax(t((32, 27)), 1),
        "nll_loss": lambda: F.nll_loss(x, mg.tensor([0, 2, 1, 1, 0])),
        "nll_loss, weights and an ignored target": lambda: F.nll_loss(
            x, mg.tensor([0, 2, -100, 1, 0]), weight=t(3, False), reduction="sum"
        ),
        "nll_loss, none": lambda: F.nll_loss(x, mg.tensor([0, 2, 1, 1, 0]), reduction="none"),
        "nll_loss2d": lambda: F.nll_loss(t((2, 3, 2, 2)), mg.tensor(np.zeros((2, 2, 2), int))),
        "cross_entropy (the fused pass)": lambda: F.cross_entropy(t((32, 27)), mg.tensor([1] * 32)),
        "index, rows": lambda: t((4, 3))[mg.tensor([[0, 3], [3, 3]])],
        "index, a tuple key": lambda: x[mg.tensor([0, 4]), mg.tensor([1, 2])],
        "mean": lambda: mg.mean(x),
        "mean, 0-d": lambda: mg.mean(t(())),
        "mean, float64, large": lambda: mg.mean(t((40, 30), dtype=f64)),
        "mean, empty": lambda: mg.mean(t((0, 3))),
        "mean, of a transposed view": lambda: mg.mean(w.t()),
        "view": lambda: x.view(-1),
        "view, of a view": lambda: x.view(15).view(3, 5),
        "reshape of a strided view (ReshapeAlias)": lambda: x[:, :1].reshape(5),
    }


def test_the_cases_cover_every_op_that_declares_exact_grads() -> None:
    declared = {cls for cls in _subclasses(ArrayFunction) if cls.exact_grads}
    with pytest.warns(UserWarning):  # mse_loss of two shapes warns, as PyTorch
        seen = {type(f()._grad_fn)._function for f in _cases().values()}
    assert declared <= seen, declared - seen


def _run_both(node, grad):
    """The node's direct run and the general wrapper's, each as a result or an error."""
    results = []
    for run in (node._run, lambda g: _array_node_run(node, g)):
        try:
            results.append(run(grad))
        except RuntimeError as e:
            results.append(str(e))
    return results


@pytest.mark.filterwarnings("ignore:Using a target size")
@pytest.mark.parametrize("name", list(_cases()))
def test_direct_backward_gives_what_the_general_wrapper_gives(name) -> None:
    out = _cases()[name]()
    node = out.grad_fn
    assert type(node)._function.exact_grads
    grad = np.ones_like(out._data) * np.asarray(0.5, out._data.dtype)
    direct, general = _run_both(node, grad)
    assert type(direct) is tuple and len(direct) == len(node._next)
    for ours, theirs, fn in zip(direct, general, node._next, strict=True):
        assert (ours is None) == (theirs is None)
        if ours is not None:
            assert ours.shape == theirs.shape and ours.dtype == theirs.dtype
            assert ours.tobytes() == theirs.tobytes()
            if fn is not None and hasattr(fn, "variable"):  # a leaf: its own shape
                assert ours.shape == fn.variable.shape
    # a second backward after the graph was freed: the same error, or the same result
    out.backward(mg.tensor(grad))
    direct, general = _run_both(node, grad)
    assert type(direct) is type(general)
    if isinstance(direct, str):
        assert direct == general and "backward through the graph a second time" in direct
