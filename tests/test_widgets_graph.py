"""widgets.draw and the graph behind it: boxes, names, DOT, SVG, no-dot fallback, folding."""

from __future__ import annotations

import re

import numpy as np
import pytest
from conftest import require_program

import minigrad
from minigrad.autograd.graph import saved_values
from widgets import GraphDigraph, draw, extract
from widgets.dot import INSTALL_HELP, DotMissing, render_svg, to_digraph, to_text
from widgets.fmt import shape_text, short


def seed():
    v = minigrad.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    out = minigrad.mean(v * v)
    return v, out


def node_lines(source: str) -> dict[str, str]:
    """DOT node statements by node id."""
    found = {}
    for m in re.finditer(r"^\t(\w+) \[(.*?)\]\n(?=\t|})", source, re.M | re.S):
        if m.group(1) not in ("graph", "node", "edge"):
            found[m.group(1)] = m.group(2)
    return found


def edge_pairs(source: str) -> list[tuple[str, str]]:
    return re.findall(r"^\s*(\w+) -> (\w+)", source, re.M)


# -- the seed example ---------------------------------------------------------------


def test_dot_for_mean_of_squares_has_the_expected_boxes_labels_and_edges():
    v, out = seed()
    source = draw(out, names={"v": v, "out": out}).source
    nodes = node_lines(source)
    assert sorted(nodes) == ["F0", "F1", "T0", "T1"]
    assert "<B>out</B>" in nodes["T0"] and "scalar" in nodes["T0"] and ">7.5<" in nodes["T0"]
    assert "label=MeanBackward0" in nodes["F0"]
    assert "label=MulBackward0" in nodes["F1"]
    assert "<B>v</B>" in nodes["T1"] and "[2, 2]" in nodes["T1"]
    assert "[[1, 2], [3, 4]]" in nodes["T1"] and "grad None" in nodes["T1"]
    assert "mg-leaf" in nodes["T1"] and "mg-output" in nodes["T0"]
    # the output leads to its grad_fn; v is used twice, so two arrows reach it
    assert edge_pairs(source) == [("T0", "F0"), ("F0", "F1"), ("F1", "T1"), ("F1", "T1")]


def test_graph_matches_the_engines_structure():
    v, out = seed()
    g = extract(out, {"v": v})
    mean = out.grad_fn
    mul = mean.next_functions[0][0]
    acc = mul.next_functions[0][0]
    assert acc is mul.next_functions[1][0] and acc.variable is v
    assert g.box_of == {mean: "F0", mul: "F1", acc: "T1"}
    assert g.slot_edge == {(mean, 0): "E1", (mul, 0): "E2", (mul, 1): "E3"}
    assert g.total == g.shown == 3 and not g.collapsed


def test_ids_are_stable_across_extractions_and_backward():
    v, out = seed()
    before = draw(out).source
    again = draw(out).source
    out.backward()
    after = draw(out).source
    assert before == again
    ids = lambda s: [(a, b) for a, b in edge_pairs(s)]  # noqa: E731
    assert ids(before) == ids(after)
    assert sorted(node_lines(before)) == sorted(node_lines(after))
    assert "0x" not in before  # no Python id() anywhere


def test_gradients_shown_are_the_leaves_grad():
    v, out = seed()
    out.backward()
    source = draw(out).source
    assert f"grad {short(v.grad.numpy())}" in node_lines(source)["T1"]
    assert short(v.grad.numpy()) == "[[0.5, 1], [1.5, 2]]"  # x/2


def test_names_are_found_in_the_callers_namespace():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = x * x
    loss = y.sum()
    source = draw(loss).source
    nodes = node_lines(source)
    names = {k: re.search(r"<B>(\w+)</B>", v).group(1) for k, v in nodes.items() if "<B>" in v}
    assert sorted(names.values()) == ["loss", "x", "y"]
    # the named intermediate sits between its consumer and the node that made it
    y_box = next(k for k, v in names.items() if v == "y")
    assert ("F0", y_box) in edge_pairs(source) and (y_box, "F1") in edge_pairs(source)
    del y


def test_names_mapping_wins_and_is_checked():
    v, out = seed()
    assert "<B>weights</B>" in draw(out, names={"weights": v}).source
    with pytest.raises(TypeError, match="names= maps variable names to minigrad tensors"):
        draw(out, names={"v": [1, 2]})


def test_underscore_names_are_ignored():
    v, out = seed()
    _ = v  # noqa: F841 - IPython's output history looks like this
    assert "<B>_</B>" not in draw(out).source


def test_show_accumulate_and_saved_with_versions():
    v, out = seed()
    source = draw(out, show_accumulate=True, show_saved=True).source
    nodes = node_lines(source)
    assert "label=AccumulateGrad" in nodes["A0"]
    assert ("F1", "A0") in edge_pairs(source) and ("A0", "T1") in edge_pairs(source)
    saved = [k for k, n in nodes.items() if k.startswith("S")]
    assert len(saved) == 2 and all("saved v" in nodes[k] and "version 0" in nodes[k] for k in saved)

    v.detach().add_(1.0)  # through .detach(): the version counter moves
    source = draw(out, show_saved=True).source
    assert "version 0, now 1: modified in place!" in source

    w = minigrad.tensor([1.0], requires_grad=True)
    o = (w * w).sum()
    o.backward()
    assert "(saved values freed)" in draw(o, show_saved=True).source


def test_saved_values_accessor():
    v, out = seed()
    mul = out.grad_fn.next_functions[0][0]
    values = saved_values(mul)
    assert len(values) == 2 and all(s.value is v.detach().numpy() for s in values)
    assert [(s.version_at_save, s.version_now, s.modified) for s in values] == [(0, 0, False)] * 2
    v.data.add_(1.0)  # through .data: invisible to autograd
    assert not saved_values(mul)[0].modified
    out.backward()
    assert saved_values(mul) is None


def test_leaf_and_no_grad_tensors():
    leaf = minigrad.tensor([1.0, 2.0], requires_grad=True)
    assert sorted(node_lines(draw(leaf).source)) == ["T0"]
    plain = minigrad.tensor([1.0, 2.0])
    d = draw(plain)
    assert sorted(node_lines(d.source)) == ["T0"] and "no grad" in d.source
    assert "recorded no graph" in d.source


@pytest.mark.parametrize("thing", [3.0, [1.0, 2.0], np.ones(2), None])
def test_not_a_tensor_is_a_type_error_that_says_what_is_expected(thing):
    with pytest.raises(TypeError, match=r"draw\(\) expects a minigrad Tensor"):
        draw(thing)


def test_a_grad_fn_node_gets_a_hint():
    _, out = seed()
    with pytest.raises(TypeError, match="pass the tensor it belongs to"):
        draw(out.grad_fn)


def test_short_values():
    assert short(np.float32(7.5)) == "7.5"
    assert short(np.array([[1, 2], [3, 4]], dtype=np.float32)) == "[[1, 2], [3, 4]]"
    assert short(np.arange(100.0).reshape(10, 10)) == "[[0, …, 9], …, [90, …, 99]]"
    assert short(np.array([1 / 3, -0.0, np.nan])) == "[0.3333, 0, nan]"
    assert short(None) == "None"
    assert shape_text(()) == "scalar" and shape_text((2, 3)) == "[2, 3]"


# -- rendering ------------------------------------------------------------------------


def test_svg_has_one_group_per_box_with_stable_ids():
    require_program("dot")
    v, out = seed()
    out.backward()
    d = draw(out)
    svg = render_svg(d)
    assert svg.startswith("<svg")
    assert re.findall(r'<g id="(mg_[TF]\d)" class="node', svg) == [
        "mg_T0",
        "mg_F0",
        "mg_F1",
        "mg_T1",
    ]
    assert len(re.findall(r'class="edge', svg)) == 4
    assert "grad [[0.5, 1], [1.5, 2]]" in svg
    bundle = d._repr_mimebundle_()
    assert bundle["image/svg+xml"] == svg
    assert "max-width:100%" in bundle["text/html"] and svg in bundle["text/html"]


def test_draw_returns_a_usable_digraph():
    _, out = seed()
    d = draw(out)
    assert isinstance(d, GraphDigraph)
    assert d.source.startswith("digraph minigrad {")
    assert "MeanBackward0" in d.text()


def without_dot(monkeypatch, tmp_path):
    """A PATH with no ``dot`` on it: what a machine without Graphviz looks like."""
    monkeypatch.setenv("PATH", str(tmp_path))


def test_no_dot_gives_install_help_and_a_text_graph_never_a_traceback(monkeypatch, tmp_path):
    v, out = seed()
    out.backward()
    d = draw(out)
    without_dot(monkeypatch, tmp_path)
    with pytest.raises(DotMissing) as missing:
        render_svg(d)
    assert str(missing.value).startswith(INSTALL_HELP)
    bundle = d._repr_mimebundle_()
    assert "image/svg+xml" not in bundle
    for where in ("apt-get install graphviz", "brew install graphviz", "conda install", "winget"):
        assert where in bundle["text/plain"] and where in bundle["text/html"]
    assert "MeanBackward0" in bundle["text/plain"]
    assert "v [2, 2] = [[1, 2], [3, 4]], grad [[0.5, 1], [1.5, 2]]" in bundle["text/plain"]
    assert "(see above)" in bundle["text/plain"]  # v is reached twice, printed once


def test_text_drawing_of_the_seed_example():
    v, out = seed()
    out.backward()
    assert to_text(extract(out, {"v": v, "out": out})) == "\n".join(
        [
            "out scalar = 7.5",
            "└─ MeanBackward0",
            "   └─ MulBackward0",
            "      ├─ v [2, 2] = [[1, 2], [3, 4]], grad [[0.5, 1], [1.5, 2]]",
            "      └─ v [2, 2] = [[1, 2], [3, 4]], grad [[0.5, 1], [1.5, 2]] (see above)",
        ]
    )


# -- large graphs ----------------------------------------------------------------------


def chain(n: int):
    x = minigrad.tensor(1.0, requires_grad=True)
    y = x
    for _ in range(n):
        y = y * 1.001 + 0.5
    return x, y


def test_large_graph_is_folded_with_a_note_and_renders():
    x, y = chain(500)  # 1001 backward nodes
    g = extract(y, {"x": x, "y": y})
    assert g.total == 1001 and g.shown == 150 and g.collapsed
    assert "1001 backward nodes" in g.note and "max_nodes=" in g.note
    assert g.nodes["C0"].title == "… 851 more nodes"
    assert "MulBackward0 ×" in g.nodes["C0"].detail and "AddBackward0 ×" in g.nodes["C0"].detail
    # every backward node has a box (the folded ones share C0), so a walk can be replayed
    assert len(g.box_of) == 1001
    assert sum(1 for n in g.nodes.values() if n.kind != "tensor") <= 151
    source = to_digraph(g).source
    assert "1001 backward nodes" in source
    require_program("dot")
    svg = render_svg(to_digraph(g))  # how fast: bench, not a timed test
    assert svg.count('class="node') == len(g.nodes)


def test_a_100000_op_chain_is_extracted_without_recursion():
    x, y = chain(50_000)
    g = extract(y, {})
    assert g.total == 100_001 and len(g.nodes) == 152


def test_max_nodes_draws_more():
    x, y = chain(100)
    assert not extract(y, {}, max_nodes=300).collapsed
    assert extract(y, {}, max_nodes=20).shown == 20
