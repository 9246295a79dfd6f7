"""The graph of a gradient (``create_graph=True``) in ``draw`` and ``GraphView``.

A gradient made with ``create_graph=True`` has a graph of its own: nodes made inside
backward (``TanhBackwardBackward0``), nodes it shares with the forward graph
(``TanhBackward0``, reached again through the saved output), and the same leaf reached
along several paths. The view must name them as PyTorch does, find the learner's names
(``x.grad``), and step through a second backward, or a Hessian-vector product that
``autograd.grad`` returns without touching ``.grad``.
"""

from __future__ import annotations

import gc
import warnings
from collections import deque

import numpy as np
import pytest
from conftest import require_program

import minigrad
from minigrad.autograd import engine
from minigrad.autograd.graph import execution_order
from widgets import GraphView, draw, extract
from widgets.fmt import short

X = [0.5, -1.0, 2.0]


@pytest.fixture(autouse=True)
def no_leftover_observers():
    before = len(engine.observers)
    yield
    gc.collect()
    assert len(engine.observers) <= before + 1


def _bfs(root) -> list:
    """The nodes under ``root`` breadth-first, as the widgets walk them (torch or minigrad)."""
    seen, order, queue = {root}, [root], deque([root])
    while queue:
        for fn, _ in queue.popleft().next_functions:
            if fn is not None and fn not in seen:
                seen.add(fn)
                order.append(fn)
                queue.append(fn)
    return order


def _gradient_programs(lib):
    """Gradients with graphs, the same program in torch and in minigrad."""
    x = lib.tensor(X, requires_grad=True)
    out = {}
    (out["tanh'"],) = lib.autograd.grad(x.tanh().sum(), x, create_graph=True)
    (g,) = lib.autograd.grad((x.tanh() * x).sum(), x, create_graph=True)
    out["(x tanh x)'"] = g
    v = lib.tensor([1.0, 0.0, 2.0])
    (out["hvp"],) = lib.autograd.grad(g, x, grad_outputs=v, create_graph=True)
    s = lib.tensor(1.5, requires_grad=True)
    (d1,) = lib.autograd.grad(s**3 - 2 * s, s, create_graph=True)
    (out["f''"],) = lib.autograd.grad(d1, s, create_graph=True)
    y = lib.tensor(X, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the reference-cycle warning: known, tested elsewhere
        (y.sin() * y).sum().backward(create_graph=True)
    out["y.grad"] = y.grad
    return out


def test_a_gradients_graph_is_drawn_with_pytorchs_node_names(torch):
    ours, theirs = _gradient_programs(minigrad), _gradient_programs(torch)
    for key, g in ours.items():
        graph = extract(g, show_accumulate=True)
        boxes = [graph.nodes[graph.box_of[fn]] for fn in _bfs(g.grad_fn)]
        torch_names = [fn.name().split("::")[-1] for fn in _bfs(theirs[key].grad_fn)]
        assert [box.title for box in boxes] == torch_names, key
        assert all(box.kind in ("op", "accumulate") for box in boxes)


def test_the_gradient_after_backward_create_graph_is_named_x_grad():
    x = minigrad.tensor(X, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        (x * x * x).sum().backward(create_graph=True)
    graph = extract(x.grad, namespace={"x": x})
    root = graph.nodes["T0"]
    assert (root.title, root.role) == ("x.grad", "output")
    assert "x.grad [3]" in draw(x.grad).text()
    model = minigrad.nn.Linear(3, 1)
    model(x).sum().backward()  # an ordinary gradient: a named box, no graph
    graph = extract(model.weight.grad, namespace={"model": model})
    assert graph.nodes["T0"].title == "model.weight.grad"
    assert graph.note  # "does not require grad": true, and said


def test_a_forward_node_shared_with_the_gradients_graph_is_one_box_with_its_name():
    x = minigrad.tensor(X, requires_grad=True)
    t = x.tanh()
    (g,) = minigrad.autograd.grad((t * x).sum(), x, create_graph=True)
    graph = extract(g, namespace={"x": x, "t": t, "g": g})
    titles = [n.title for n in graph.nodes.values()]
    assert titles.count("t") == 1 and titles.count("x") == 1
    assert titles.count("TanhBackward0") == 1 and "TanhBackwardBackward0" in titles
    t_box = next(n.id for n in graph.nodes.values() if n.title == "t")
    into_t = sorted(graph.nodes[e.src].title for e in graph.edges if e.dst == t_box)
    # g = t + x (1 - t^2): MulBackward0 (of t * ones) and TanhBackwardBackward0 both reach t
    assert into_t == ["MulBackward0", "TanhBackwardBackward0"]
    # the learner's g is the root, shown once
    assert graph.nodes["T0"].title == "g" and titles.count("g") == 1


def test_the_view_steps_through_a_second_backward_of_the_gradient():
    require_program("dot")
    x = minigrad.tensor(X, requires_grad=True)
    (g,) = minigrad.autograd.grad((x.tanh() * x).sum(), x, create_graph=True)
    view = GraphView(g, show_accumulate=True)
    view.flush()
    assert view.predicted
    order = execution_order(g)
    assert [s["node"] for s in view.steps] == [view.graph.box_of[fn] for fn in order]
    assert "TanhBackwardBackward0" in view.svg
    g.sum().backward()
    assert view.flush() and not view.predicted
    steps = view.steps
    assert [s["label"] for s in steps] == [type(fn).__name__ for fn in order]
    # the leaf is reached along two paths and accumulated once, with the sum
    acc = [s for s in steps if s["label"] == "AccumulateGrad"]
    assert len(acc) == 1
    arriving = [e for e in view.graph.edges if e.dst == acc[0]["node"]]
    assert len(arriving) == 2
    t = np.tanh(np.array(X, dtype=np.float32))
    second = 2 * (1 - t**2) - 2 * np.array(X, dtype=np.float32) * t * (1 - t**2)
    np.testing.assert_allclose(x.grad.numpy(), second, rtol=1e-5)
    assert acc[0]["cells"][0][1:] == ["grad None", f"grad {short(x.grad)}"]
    assert acc[0]["text"] == f"AccumulateGrad: x.grad was None, is now {short(x.grad)}"
    view.close()


def test_a_hessian_vector_product_is_stepped_and_x_grad_stays():
    require_program("dot")
    x = minigrad.tensor(X, requires_grad=True)
    (g,) = minigrad.autograd.grad((x.tanh() * x).sum(), x, create_graph=True)
    views = {}
    for lang in ("en", "zh-CN"):  # a loop, not a comprehension: names come from this frame
        views[lang] = GraphView(g, lang=lang)
        views[lang].flush()
    v = minigrad.tensor([1.0, 0.0, 2.0])
    (hv,) = minigrad.autograd.grad(g, x, grad_outputs=v)
    assert x.grad is None
    for lang, view in views.items():
        assert view.flush() and not view.predicted
        last = view.steps[-1]
        assert last["label"] == "AccumulateGrad"
        assert last["cells"][0][1:] == ["grad None", "grad None"]
        words = {
            "en": f"AccumulateGrad: {short(hv)} reached x and autograd.grad() returns it; "
            "x.grad stays None",
            "zh-CN": f"AccumulateGrad：{short(hv)} 到达 x，由 autograd.grad() 返回；"
            "x.grad 仍是 None",
        }[lang]
        assert last["text"] == words
        assert view.steps[0]["in_edge"][1] == short(v)  # the vector enters at the root
        view.close()


def test_a_zero_gradient_added_by_backward_is_still_an_addition():
    require_program("dot")
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    x.grad = minigrad.tensor([3.0, 4.0])
    out = (x * 0).sum()
    view = GraphView(out)
    view.flush()
    out.backward()
    view.flush()
    assert view.steps[-1]["text"] == "AccumulateGrad: x.grad was [3, 4], adds [0, 0], is now [3, 4]"
    view.close()


def test_a_third_derivative_graph_draws_and_steps():
    require_program("dot")
    x = minigrad.tensor(X, dtype=minigrad.float64, requires_grad=True)
    (g1,) = minigrad.autograd.grad(x.tanh().sum(), x, create_graph=True)
    (g2,) = minigrad.autograd.grad(g1.sum(), x, create_graph=True)
    view = GraphView(g2)
    view.flush()
    (g3,) = minigrad.autograd.grad(g2.sum(), x, create_graph=True)
    assert view.flush()
    assert len(view.steps) == len(execution_order(g2))
    assert view.steps[-1]["label"] == "AccumulateGrad"
    assert "returns it" in view.steps[-1]["text"]
    assert g3.grad_fn is not None
    view.close()


def test_a_leaf_that_autograd_grad_did_not_ask_for_received_nothing():
    require_program("dot")
    a = minigrad.tensor([1.0, 2.0], requires_grad=True)
    b = minigrad.tensor([3.0, 4.0], requires_grad=True)
    out = (a * b.exp()).sum()
    view = GraphView(out)
    view.flush()
    minigrad.autograd.grad(out, a)
    view.flush()
    said = {s["text"] for s in view.steps if s["label"] == "AccumulateGrad"}
    assert said == {
        "AccumulateGrad: [20.09, 54.6] reached a and autograd.grad() returns it; a.grad stays None",
        "AccumulateGrad received no gradient",
    }
    view.close()
