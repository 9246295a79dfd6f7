"""``draw(t)``: the graph behind a tensor as a ``graphviz.Digraph``, usable on its own.

The result is an ordinary ``graphviz.Digraph`` (save it, ``.render()`` it,
read ``.source``), with one change: when a notebook displays it and the ``dot``
program is missing, it shows how to install Graphviz and a text drawing of the
graph instead of a traceback. Its HTML form also scales the SVG to the output
area, so a wide graph never overflows.
"""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
from typing import Any

import graphviz

from minigrad import Tensor

from .dot import DotProblem, render_svg, svg_html, to_digraph, to_text
from .graph import DEFAULT_MAX_NODES, Graph, extract
from .tensor_names import caller_namespace, check_tensor

__all__ = ["draw", "GraphDigraph"]


class GraphDigraph(graphviz.Digraph):
    """A ``graphviz.Digraph`` that knows the graph it draws, for a fallback without ``dot``."""

    graph_info: Graph

    def _repr_mimebundle_(self, include=None, exclude=None, **kwargs: Any) -> dict[str, str]:
        lang = self.graph_info.lang
        try:
            svg = render_svg(self, lang)
        except DotProblem as missing:
            text = to_text(self.graph_info, lang)
            html = f"<pre>{escape(str(missing))}\n\n{escape(text)}</pre>"
            return {"text/plain": f"{missing}\n\n{text}", "text/html": html}
        return {"image/svg+xml": svg, "text/html": svg_html(svg)}

    def text(self) -> str:
        """The graph as an indented tree (what is shown without ``dot``)."""
        return to_text(self.graph_info, self.graph_info.lang)


def draw(
    t: Tensor,
    names: Mapping[str, Tensor] | None = None,
    *,
    show_accumulate: bool = False,
    show_saved: bool = False,
    values: bool = True,
    grads: bool = True,
    max_nodes: int = DEFAULT_MAX_NODES,
    lang: str | None = None,
) -> GraphDigraph:
    """The graph behind ``t``: tensors with the learner's names, values and grads,
    and the grad_fn nodes with PyTorch's names.

    ``names`` maps variable names to tensors; without it they are found in the
    caller's namespace. ``show_accumulate`` adds the AccumulateGrad nodes,
    ``show_saved`` what forward saved (with versions). A graph with more than
    ``max_nodes`` backward nodes is drawn folded, with a note. ``lang``: the
    language of the drawing's own words (default: ``widgets.set_language``'s).
    """
    check_tensor(t, "draw()")
    namespace = caller_namespace() if names is None else None
    graph = extract(
        t,
        names,
        namespace=namespace,
        show_accumulate=show_accumulate,
        show_saved=show_saved,
        max_nodes=max_nodes,
        lang=lang,
    )
    plain = to_digraph(graph, values=values, grads=grads, lang=graph.lang)
    result = GraphDigraph(
        plain.name,
        graph_attr=plain.graph_attr,
        node_attr=plain.node_attr,
        edge_attr=plain.edge_attr,
        body=list(plain.body),
    )
    result.graph_info = graph
    return result
