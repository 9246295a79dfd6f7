"""The graph behind a tensor, as boxes and arrows a learner can read.

``extract(t)`` walks ``t.grad_fn`` and ``next_functions`` (minigrad's public
graph API, the same as PyTorch's) and returns a ``Graph``: a plain description
that the renderers (``widgets.dot``) and the step recorder (``widgets.walk``)
share. It decides *what* is shown; how it looks lives elsewhere.

What is shown, and why:

- The backward nodes (``MeanBackward0``, ``MulBackward0``) with PyTorch's names,
  and arrows along ``next_functions``: the direction the backward pass walks
  and the gradients flow, so the output is at the top and the leaves at the
  bottom.
- Tensors the learner can name: the output, every leaf, and any intermediate
  tensor bound to a variable (found through its ``grad_fn``). A tensor used
  twice gets two arrows, as ``next_functions`` has two edges.
- On request, the ``AccumulateGrad`` nodes and the values forward saved, with
  their versions (lesson 3's in-place pitfall made visible).

Ids are stable: they come from the walk order (``T0``, ``F0``, ``E0``), never
from ``id()``, so a redraw after ``backward()`` names the same boxes the same
way and the browser can animate them.

A graph with more than ``max_nodes`` backward nodes keeps the ones nearest
the output and folds the rest into one "… more nodes" box, so that ``dot`` and
the browser stay fast (``dot`` needs seconds for a few thousand nodes).

Which tensors can be named, and from where, is ``tensor_names.py``.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from minigrad import Tensor
from minigrad.autograd.graph import AccumulateGrad, Node, SavedValue, saved_values

from .fmt import NAME_CHARS, clip
from .i18n import resolve, text
from .tensor_names import check_tensor, find_names, named_tensors, names_from_mapping

__all__ = ["Graph", "GraphNode", "GraphEdge", "extract", "node_label"]


def node_label(fn: Node) -> str:
    """The short name a box shows: ``MulBackward0``, ``AccumulateGrad``.

    ``fn.name()`` is PyTorch's full name, which for nodes that only exist in C++ carries a
    namespace (``minigrad::autograd::AccumulateGrad``); the picture keeps the type's name.
    """
    return type(fn).__name__


DEFAULT_MAX_NODES = 150


@dataclass
class GraphNode:
    """A box: a tensor (``T``), a backward node (``F``), an ``AccumulateGrad``
    (``A``), a saved value (``S``) or the folded rest of a large graph (``C``)."""

    id: str
    kind: str  # "tensor" | "op" | "accumulate" | "saved" | "collapsed"
    title: str  # tensor: the learner's names; others: what to print in the box
    fn: Node | None = None
    tensor: Tensor | None = None
    role: str = ""  # tensors: "output" | "leaf" | "intermediate"
    saved: SavedValue | None = None
    saved_freed: bool = False  # ops: backward already freed what forward saved
    detail: str = ""


@dataclass
class GraphEdge:
    """An arrow. ``kind``: "grad" (a ``next_functions`` edge), "grad_fn" (tensor to
    the node that made it), "leaf" (AccumulateGrad to its tensor), "saved"."""

    id: str
    src: str
    dst: str
    kind: str


@dataclass
class Graph:
    """What ``extract`` found. The maps let a backward walk be replayed on the boxes."""

    root: Tensor
    nodes: dict[str, GraphNode] = field(default_factory=dict)
    edges: list[GraphEdge] = field(default_factory=list)
    box_of: dict[Node, str] = field(default_factory=dict)  # backward node -> its box
    slot_edge: dict[tuple[Node, int], str] = field(default_factory=dict)  # next_functions[k]
    in_edge: dict[Node, str] = field(default_factory=dict)  # the arrow into a node's box
    leaf_box: dict[Node, str] = field(default_factory=dict)  # AccumulateGrad -> tensor box
    total: int = 0  # backward nodes in the whole graph
    shown: int = 0  # backward nodes drawn
    note: str = ""
    lang: str = "en"  # the language of the notes and of the default titles

    @property
    def collapsed(self) -> bool:
        return self.shown < self.total

    def title_of(self, box: str) -> str:
        node = self.nodes[box]
        if node.kind == "tensor":
            fallback = "output" if node.role == "output" else "a_tensor"
            return clip(node.title, NAME_CHARS) or text(fallback, self.lang)
        return node.title


def _root_node(t: Tensor) -> Node | None:
    if t.grad_fn is not None:
        return t.grad_fn
    if t.requires_grad:
        from minigrad.autograd.graph import execution_order  # creates the leaf's accumulator

        order = execution_order(t)
        return order[0] if order else None
    return None


def _walk(root: Node | None) -> list[Node]:
    """Every backward node under ``root`` in breadth-first order: stable and iterative."""
    if root is None:
        return []
    seen = {root}
    order = [root]
    queue = deque([root])
    while queue:
        node = queue.popleft()
        for fn, _ in node.next_functions:
            if fn is not None and fn not in seen:
                seen.add(fn)
                order.append(fn)
                queue.append(fn)
    return order


def extract(
    t: Tensor,
    names: Mapping[str, Tensor] | None = None,
    *,
    namespace: Mapping[str, Any] | None = None,
    show_accumulate: bool = False,
    show_saved: bool = False,
    max_nodes: int = DEFAULT_MAX_NODES,
    lang: str | None = None,
) -> Graph:
    """The ``Graph`` behind ``t``; names from ``names`` or else from ``namespace``.

    ``lang`` is the language of the notes (default: ``widgets.set_language``'s).
    """
    check_tensor(t, "extract()")
    if names is not None:
        found = names_from_mapping(names)
    else:
        found = find_names(namespace if namespace is not None else {})
    tensors = [v for _, v in named_tensors(namespace or {})]
    if names is not None:
        tensors = list(names.values())
    made_by = {}  # backward node -> a named tensor it produced
    for v in tensors:
        if v.grad_fn is not None and id(v) in found and v is not t:
            made_by.setdefault(v.grad_fn, v)
    for v in tensors:  # a node of several outputs (unbind): arrows reach the node, not a part
        if v.grad_fn is not None and (v.output_nr or getattr(v.grad_fn, "_n_outputs", 1) > 1):
            made_by.pop(v.grad_fn, None)

    g = Graph(root=t, lang=resolve(lang))
    order = _walk(_root_node(t))
    g.total = len(order)
    visible = order[: max(1, max_nodes)]
    g.shown = len(visible)
    counter = {"T": 0, "F": 0, "A": 0, "S": 0, "E": 0}

    def new_id(prefix: str) -> str:
        counter[prefix] += 1
        return f"{prefix}{counter[prefix] - 1}"

    def add_edge(src: str, dst: str, kind: str) -> str:
        edge = GraphEdge(new_id("E"), src, dst, kind)
        g.edges.append(edge)
        return edge.id

    def tensor_box(tensor: Tensor, role: str) -> str:
        box = GraphNode(new_id("T"), "tensor", ", ".join(found.get(id(tensor), [])))
        box.tensor, box.role = tensor, role
        g.nodes[box.id] = box
        return box.id

    root_box = tensor_box(t, "output" if t.grad_fn is not None else "leaf")
    entry: dict[Node, str] = {}  # the box an arrow to this backward node points at
    for fn in visible:
        if isinstance(fn, AccumulateGrad):
            leaf = root_box if fn.variable is t else tensor_box(fn.variable, "leaf")
            g.leaf_box[fn] = leaf
            if show_accumulate:
                box = GraphNode(new_id("A"), "accumulate", node_label(fn), fn=fn)
                g.nodes[box.id] = box
                g.in_edge[fn] = add_edge(box.id, leaf, "leaf")
                g.box_of[fn] = entry[fn] = box.id
            else:
                g.box_of[fn] = entry[fn] = leaf
            continue
        box = GraphNode(new_id("F"), "op", node_label(fn), fn=fn)
        g.nodes[box.id] = box
        g.box_of[fn] = entry[fn] = box.id
        named = t if fn is t.grad_fn else made_by.get(fn)
        if named is not None:
            src = root_box if named is t else tensor_box(named, "intermediate")
            g.in_edge[fn] = add_edge(src, box.id, "grad_fn")
            entry[fn] = src
    if show_saved:
        for box in [n for n in g.nodes.values() if n.kind == "op"]:
            _add_saved(g, box, new_id, add_edge)

    if g.collapsed:
        hidden = order[g.shown :]
        kinds = Counter(node_label(fn) for fn in hidden)
        detail = ", ".join(f"{name} ×{n}" for name, n in kinds.most_common(4))
        if len(kinds) > 4:
            detail += ", …"
        more = GraphNode(
            "C0", "collapsed", text("more_nodes", g.lang, n=len(hidden)), detail=detail
        )
        g.nodes[more.id] = more
        for fn in hidden:
            g.box_of[fn] = entry[fn] = more.id
        g.note = text("folded_note", g.lang, total=g.total, shown=g.shown)

    linked: set[tuple[str, str]] = set()
    for fn in visible:
        src = g.box_of[fn]
        if isinstance(fn, AccumulateGrad):
            continue
        for k, (nxt, _) in enumerate(fn.next_functions):
            if nxt is None:
                continue
            dst = entry[nxt]
            if dst == "C0":  # one arrow per box into the folded part is enough
                if (src, dst) in linked:
                    g.slot_edge[(fn, k)] = next(
                        e.id for e in g.edges if e.src == src and e.dst == dst
                    )
                    continue
                linked.add((src, dst))
            g.slot_edge[(fn, k)] = add_edge(src, dst, "grad")
    if t.grad_fn is None and not t.requires_grad:
        g.note = text("no_graph_note", g.lang)
    return g


def _add_saved(g: Graph, box: GraphNode, new_id, add_edge) -> None:
    """Boxes for what ``box``'s forward saved, named after the tensor they belong to."""
    values = saved_values(box.fn)
    if values is None:
        box.saved_freed = True
        return
    data_names = {
        _data_key(n.tensor): n.title for n in g.nodes.values() if n.kind == "tensor" and n.title
    }
    for value in values:
        s = GraphNode(new_id("S"), "saved", data_names.get(id(value.value), ""))
        s.saved = value
        g.nodes[s.id] = s
        add_edge(box.id, s.id, "saved")


def _data_key(tensor: Tensor) -> int:
    """The identity of a tensor's storage array (what forward saves)."""
    return id(tensor.detach().numpy())
