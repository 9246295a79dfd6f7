"""Drawing a ``Graph``: DOT with the ``graphviz`` package, SVG with the system ``dot``.

The look is part of the lesson, so it is decided here once: leaves blue,
the output green, named intermediate tensors grey, backward nodes sand,
``AccumulateGrad`` violet, saved values orange; gradients are red everywhere
(on arrows and in the ``grad`` rows), the colour the browser also uses for the
node being processed. Every box and arrow carries a stable ``id`` and a CSS
class so that ``static/graph_view.js`` can animate the backward pass.

Without the ``dot`` program nothing crashes: ``render_svg`` raises
``DotMissing`` carrying a message that says how to install Graphviz, and
``to_text`` draws the same graph as an indented tree.
"""

from __future__ import annotations

import html
import re
import subprocess

import graphviz

from .fmt import NAME_CHARS, clip, shape_text, short
from .graph import Graph, GraphNode
from .i18n import text
from .walk import Walk, grad_row

__all__ = [
    "to_digraph",
    "render_svg",
    "to_text",
    "DotProblem",
    "DotMissing",
    "DotFailed",
    "INSTALL_HELP",
    "svg_html",
]

FONT = "Helvetica"
MONO = "Courier"
GRAD = "#c0262d"  # gradients, on arrows and in grad rows
COLORS = {  # (fill, border)
    "leaf": ("#dbeafe", "#2563eb"),
    "output": ("#dcfce7", "#15803d"),
    "intermediate": ("#f1f5f9", "#64748b"),
    "op": ("#fdf2d0", "#a16207"),
    "accumulate": ("#ede9fe", "#6d28d9"),
    "saved": ("#ffedd5", "#c2410c"),
    "collapsed": ("#ffffff", "#94a3b8"),
}

INSTALL_HELP = text("dot_missing", "en")
_STDERR_CHARS = 600  # what dot said, enough to see the problem, never a flood


class DotProblem(RuntimeError):
    """``dot`` could not draw the graph: the view shows the text drawing and this message."""


class DotMissing(DotProblem):
    """The ``dot`` program is not installed: the message says how to install it."""

    def __init__(self, detail: str = "", lang: str | None = None) -> None:
        super().__init__(text("dot_missing", lang) + (f"\n({detail})" if detail else ""))


class DotFailed(DotProblem):
    """``dot`` is installed but failed: the message says how (exit code, its stderr)."""

    def __init__(self, returncode: int | None, stderr: str, lang: str | None = None) -> None:
        if returncode is not None and returncode < 0:
            how = text("killed", lang, signal=-returncode)
        else:
            how = text("exit_code", lang, code=returncode)
        said = clip(" ".join(stderr.split()), _STDERR_CHARS) or text("said_nothing", lang)
        super().__init__(text("dot_failed", lang, how=how, said=said))
        self.returncode, self.stderr = returncode, stderr


def _esc(value: str) -> str:
    return html.escape(value, quote=True)


def _tensor_label(
    node: GraphNode, values: bool, grad_text: str | None, width: int, animate: bool, lang: str
) -> str:
    t = node.tensor
    fill, border = COLORS[node.role]
    title = clip(node.title, NAME_CHARS) or (text("output", lang) if node.role == "output" else "")
    head = f"<B>{_esc(title)}</B>  " if title else ""
    kind = shape_text(tuple(t.shape), text("scalar", lang))
    kind += "" if t.requires_grad else "  " + text("no_grad", lang)
    rows = [f'<TR><TD>{head}<FONT POINT-SIZE="10" COLOR="#475569">{_esc(kind)}</FONT></TD></TR>']
    if values:
        data = _esc(short(t.detach().numpy()))
        rows.append(f'<TR><TD><FONT FACE="{MONO}" POINT-SIZE="10">{data}</FONT></TD></TR>')
    if grad_text is not None:
        # The HREF only makes dot emit a <g id=...> around the cell, which the browser
        # needs to swap the text during the animation; render_svg strips the link.
        cell = f' ID="mg_{node.id}_grad" HREF="#"' if animate else ""
        cell += f' WIDTH="{width}"' if width else ""
        rows.append(
            f'<TR><TD{cell}><FONT FACE="{MONO}" POINT-SIZE="10" '
            f'COLOR="{GRAD}">{_esc(grad_text)}</FONT></TD></TR>'
        )
    return (
        f'<<TABLE BORDER="1" CELLBORDER="0" CELLSPACING="0" CELLPADDING="3" STYLE="ROUNDED" '
        f'BGCOLOR="{fill}" COLOR="{border}">{"".join(rows)}</TABLE>>'
    )


def _shows_grad(node: GraphNode) -> bool:
    t = node.tensor
    return t.is_leaf and t.requires_grad or bool(getattr(t, "retains_grad", False))


def _saved_label(node: GraphNode, lang: str) -> str:
    s = node.saved
    name = text("saved", lang) + (f" {clip(node.title, NAME_CHARS)}" if node.title else "")
    label = f"{name}  {shape_text(s.value.shape, text('scalar', lang))}"
    if s.version_at_save is not None:
        label += "\n" + text("version", lang, v=s.version_at_save)
        if s.modified:
            label += text("modified", lang, now=s.version_now)
    return label


def to_digraph(
    graph: Graph,
    walk: Walk | None = None,
    *,
    values: bool = True,
    grads: bool = True,
    animate: bool = False,
    lang: str | None = None,
) -> graphviz.Digraph:
    """The DOT for ``graph``; with a recorded ``walk``, arrows carry its gradients.

    ``animate`` gives the grad rows the ids that ``GraphView``'s browser side swaps.
    """
    dot = graphviz.Digraph("minigrad", graph_attr=_graph_attrs(graph))
    dot.attr("node", fontname=FONT, fontsize="12", penwidth="1.3")
    dot.attr("edge", color="#475569", arrowsize="0.7", penwidth="1.2", fontname=MONO)
    before = {}
    if walk is not None:
        for step in walk.steps:
            for cell, first, _ in step.get("cells", ()):
                before.setdefault(cell, first)
    for node in graph.nodes.values():
        attrs = {
            "id": f"mg_{node.id}",
            "class": f"mg-{node.kind}" + (f" mg-{node.role}" * bool(node.role)),
        }
        if node.kind == "tensor":
            grad_text = grad_row(_grad_array(node)) if grads and _shows_grad(node) else None
            first = before.get(f"{node.id}_grad", "")
            width = 6 * len(first) + 8 if grad_text and len(first) > len(grad_text) else 0
            label = _tensor_label(node, values, grad_text, width, animate, lang)
            dot.node(node.id, label=label, shape="plaintext", margin="0", **attrs)
            continue
        fill, border = COLORS[node.kind]
        label, style = node.title, "rounded,filled"
        if node.kind == "saved":
            label, style = _saved_label(node, lang), "rounded,filled,dashed"
            if node.saved.modified:
                border = GRAD
        elif node.kind == "collapsed":
            label, style = f"{node.title}\n{node.detail}", "rounded,dashed"
        elif node.saved_freed:
            label = f"{node.title}\n" + text("freed", lang)
        font = "10" if node.kind in ("saved", "collapsed") else "12"
        dot.node(
            node.id, label=label, shape="box", style=style, fillcolor=fill, color=border,
            fontsize=font, **attrs,
        )  # fmt: skip
    texts = walk.edge_text if walk is not None else {}
    for edge in graph.edges:
        attrs = {"id": f"mg_{edge.id}", "class": f"mg-edge mg-{edge.kind}"}
        if edge.kind == "saved":
            attrs.update(style="dotted", arrowhead="none", color=COLORS["saved"][1])
        elif edge.id in texts:
            attrs.update(label=f" {texts[edge.id]} ", fontcolor=GRAD, fontsize="10")
        dot.edge(edge.src, edge.dst, **attrs)
    return dot


def _grad_array(node: GraphNode):
    grad = node.tensor.grad
    return None if grad is None else grad.detach().numpy()


def _graph_attrs(graph: Graph) -> dict[str, str]:
    attrs = {
        "rankdir": "TB",
        "bgcolor": "transparent",
        "nodesep": "0.3",
        "ranksep": "0.35",
        "fontname": FONT,
        "fontsize": "10",
        "fontcolor": "#475569",
        "labelloc": "b",
    }
    if graph.note:
        attrs["label"] = graph.note
    return attrs


_XML_HEAD = re.compile(r"^.*?(?=<svg)", re.S)
_LINK_OPEN = re.compile(r"<a xlink:href=\"#\"[^>]*>")


def render_svg(dot: graphviz.Digraph, lang: str | None = None) -> str:
    """SVG text for ``dot``, ready to inline in HTML.

    ``DotMissing`` without the program (how to install it); ``DotFailed`` when it
    runs and fails (its exit code and what it wrote to stderr: a crash, a graph
    it cannot lay out, a broken installation), which installing will not fix.
    """
    try:
        raw = dot.pipe(format="svg", encoding="utf-8")
    except graphviz.ExecutableNotFound as error:
        raise DotMissing(lang=lang) from error
    except subprocess.CalledProcessError as error:
        stderr = error.stderr or b""
        if isinstance(stderr, bytes):
            stderr = stderr.decode("utf-8", "replace")
        raise DotFailed(error.returncode, stderr, lang) from error
    except OSError as error:  # found but cannot run: not executable, wrong architecture
        raise DotFailed(None, f"{type(error).__name__}: {error}", lang) from error
    svg = _XML_HEAD.sub("", raw, count=1)
    svg = _LINK_OPEN.sub("", svg).replace("</a>\n", "").replace('id="a_mg_', 'id="mg_')
    return svg.replace("<svg ", '<svg class="mg-graph" ', 1)


def svg_html(svg: str, note: str = "") -> str:
    """The SVG in a block that fits the output area (static exports, ``draw``)."""
    extra = f'<div style="font:12px sans-serif;color:#475569">{_esc(note)}</div>' if note else ""
    return (
        '<div class="mg-static" style="max-width:100%;overflow:auto">'
        "<style>.mg-static svg{max-width:100%;height:auto}</style>"
        f"{svg}{extra}</div>"
    )


def to_text(graph: Graph, lang: str | None = None) -> str:
    """The graph as an indented tree; a node met again is marked instead of repeated."""
    children: dict[str, list[str]] = {}
    for edge in graph.edges:
        if edge.kind != "saved":
            children.setdefault(edge.src, []).append(edge.dst)
    lines: list[str] = []
    seen: set[str] = set()
    stack: list[tuple[str, str, str]] = [("T0", "", "")]
    while stack:
        box, lead, branch = stack.pop()
        again = text("see_above", lang) if box in seen else ""
        lines.append(lead + branch + _text_of(graph, box, lang) + again)
        if box in seen:
            continue
        seen.add(box)
        kids = children.get(box, [])
        pad = lead + ("" if not branch else ("│  " if branch == "├─ " else "   "))
        for i, kid in reversed(list(enumerate(kids))):
            stack.append((kid, pad, "└─ " if i == len(kids) - 1 else "├─ "))
    if graph.note:
        lines.append(graph.note)
    return "\n".join(lines)


def _text_of(graph: Graph, box: str, lang: str | None) -> str:
    node = graph.nodes[box]
    if node.kind != "tensor":
        return node.title + (f" ({node.detail})" if node.detail else "")
    t = node.tensor
    name = clip(graph.title_of(box), NAME_CHARS)
    shape = shape_text(tuple(t.shape), text("scalar", lang))
    line = f"{name} {shape} = {short(t.detach().numpy())}"
    if _shows_grad(node):
        line += f", {grad_row(_grad_array(node))}"
    return line
