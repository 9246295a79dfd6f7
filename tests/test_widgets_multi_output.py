"""The widgets on a node with several outputs (``unbind``, ``split``): drawn once, stepped once.

PyTorch records ``a, b, c = x.unbind()`` as one UnbindBackward0 node; each consumer's edge is
``(node, output_nr)``. The drawing must show that node once, with an arrow per edge, and
GraphView's step-through must show it as one step that received one gradient per output.
"""

from __future__ import annotations

import re

from conftest import require_program

import minigrad
from minigrad.autograd.graph import execution_order, register_backward_observer
from widgets import GraphView, draw, extract


def unbound():
    x = minigrad.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], requires_grad=True)
    a, b, c = x.unbind()
    out = (a * 2 + c).sum()
    return x, a, c, out


def test_a_multi_output_node_is_one_box_with_an_arrow_per_edge():
    x, a, c, out = unbound()
    g = extract(out, {"x": x, "a": a, "c": c, "out": out})
    unbind = a.grad_fn
    assert unbind is c.grad_fn
    boxes = [fn for fn in g.box_of if fn.name() == "UnbindBackward0"]
    assert boxes == [unbind]
    arrows_in = [e for e in g.edges if e.dst == g.box_of[unbind]]
    assert len(arrows_in) == 2  # from MulBackward0 (output 0) and AddBackward0 (output 2)
    assert unbind not in g.in_edge  # no single tensor (a or c) stands for the node
    source = draw(out, names={"x": x, "a": a, "c": c, "out": out}).source
    assert len(re.findall(r"label=UnbindBackward0", source)) == 1


def test_execution_order_and_observers_see_the_node_once():
    x, a, c, out = unbound()
    order = execution_order(out)
    assert [fn.name() for fn in order].count("UnbindBackward0") == 1

    class Log:
        def __init__(self):
            self.seen = []

        def on_backward_begin(self, roots):
            pass

        def on_node(self, node, grad, outs):
            self.seen.append((node, grad, outs))

        def on_backward_end(self):
            pass

    log = Log()
    handle = register_backward_observer(log)
    try:
        out.backward()
    finally:
        handle.remove()
    assert [n for n, _, _ in log.seen] == order
    (grad,) = [g for n, g, _ in log.seen if n is a.grad_fn]
    assert isinstance(grad, tuple) and grad[1] is None
    assert grad[0].tolist() == [2.0, 2.0] and grad[2].tolist() == [1.0, 1.0]


def test_graph_view_steps_through_a_multi_output_node():
    require_program("dot")
    x, a, c, out = unbound()
    view = GraphView(out)
    view.flush()
    assert [s["label"] for s in view.steps] == [type(fn).__name__ for fn in execution_order(out)]
    out.backward()
    view.flush()
    (step,) = [s for s in view.steps if s["label"] == "UnbindBackward0"]
    assert step["text"] == (
        "UnbindBackward0 received ([2, 2], None, [1, 1]) and sent [[2, 2], [0, 0], [1, 1]] to x"
    )
    assert (
        view.steps[-1]["text"] == "AccumulateGrad: x.grad was None, is now [[2, 2], [0, 0], [1, 1]]"
    )
    view.close()
