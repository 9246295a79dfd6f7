"""``GraphView``: the live computation graph, with Step / Play / Reset through backward.

Python does the heavy work once per change: it extracts the graph, renders
the SVG with ``dot`` and turns the recorded backward pass into steps, then
sends the SVG and the list of steps in one message. The browser
(``static/graph_view.js``) replays the steps without asking Python again, so
stepping is instant and works after the kernel has moved on.

Live, and free while nobody looks. The view listens to backward passes
through ``widgets.listen`` (one observer for all views, a dict lookup per
node). A pass through its graph is recorded (copies of the arrays, no text)
and marks the view dirty; the view draws only when it will be seen
(``widgets.frames``): when displayed, when a browser view of it appears, and
then at most about once per ten times a drawing's cost. Each browser view
says when it appears and when it goes (its cell re-run or cleared, the
notebook closed): a view with none left stops listening, and starts again if
it is shown anew. Before any backward has run, Step walks the *predicted*
order (``execution_order``) without values.

Static exports: the view's output also carries the final SVG as ``text/html``
(kept up to date with ``update_display``), so nbconvert without widget state,
and GitHub's viewer, show the graph as it was last drawn.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Mapping
from html import escape
from pathlib import Path
from typing import Any

import anywidget
import traitlets

from minigrad import Tensor
from minigrad.autograd.graph import saved_values

from . import frames
from .dot import DotProblem, render_svg, svg_html, to_digraph, to_text
from .graph import DEFAULT_MAX_NODES, Graph, extract
from .i18n import browser_labels, resolve, text
from .listen import Subscription, subscribe
from .tensor_names import caller_namespace, check_tensor
from .walk import Pass, Walk, predicted_walk, to_walk

__all__ = ["GraphView"]

_STATIC = Path(__file__).parent / "static"


class GraphView(anywidget.AnyWidget):
    """The graph behind ``t``, live, with controls that step through backward.

    ``names`` maps variable names to tensors; without it, names are found in
    the caller's namespace (again at each redraw). ``show_accumulate`` and
    ``show_saved`` add the AccumulateGrad nodes and the saved values (with
    their versions). ``values=False`` hides the tensors' values. Graphs with
    more than ``max_nodes`` backward nodes are drawn folded. ``interval`` is
    the time between two steps of Play, in milliseconds. ``lang`` (``"en"``,
    ``"zh-CN"``) is the language of the view's own text; default: the one
    ``widgets.set_language`` chose.
    """

    # The text, not the path: for a path anywidget watches the file and connects every
    # instance to it with a closure over ``self``, which kept every view ever made alive.
    _esm = (_STATIC / "graph_view.js").read_text(encoding="utf-8")
    _css = (_STATIC / "graph_view.css").read_text(encoding="utf-8")

    svg = traitlets.Unicode("").tag(sync=True)
    text = traitlets.Unicode("").tag(sync=True)  # the text drawing when dot is missing
    steps = traitlets.List().tag(sync=True)
    predicted = traitlets.Bool(True).tag(sync=True)
    caption = traitlets.Unicode("").tag(sync=True)  # what the view says before any Step
    note = traitlets.Unicode("").tag(sync=True)
    error = traitlets.Unicode("").tag(sync=True)
    revision = traitlets.Int(0).tag(sync=True)
    interval = traitlets.Int(700).tag(sync=True)
    labels = traitlets.Dict().tag(sync=True)  # the buttons' and captions' words

    _subscription: Subscription | None = None  # also for a view whose __init__ failed

    def __init__(
        self,
        t: Tensor,
        *,
        names: Mapping[str, Tensor] | None = None,
        show_accumulate: bool = False,
        show_saved: bool = False,
        values: bool = True,
        max_nodes: int = DEFAULT_MAX_NODES,
        interval: int = 700,
        lang: str | None = None,
    ) -> None:
        check_tensor(t, "GraphView()")
        namespace = caller_namespace() if names is None else None
        self.lang = resolve(lang)
        super().__init__(interval=interval, labels=browser_labels(self.lang))
        self._options = {
            "show_accumulate": show_accumulate,
            "show_saved": show_saved,
            "max_nodes": max_nodes,
        }
        self._values = values
        self._display_id: str | None = None
        self._displayed = False  # shown by IPython's display()
        self._frontends: set[str] = set()  # browser views that are on screen
        self._seen_frontend = False  # a browser said so at least once
        self._pass: Pass | None = None  # the last recorded pass, not yet text
        self._walk_cache: Walk | None = None
        self._graph: Graph | None = None
        self._dirty = True
        self._next_draw_at = 0.0
        self._namespace: Mapping[str, Any] | None = namespace
        self._names = names
        self.on_msg(self._on_browser_msg)
        self._set_graph(t)

    # -- public API ------------------------------------------------------------------

    @property
    def tensor(self) -> Tensor:
        """The tensor whose graph is shown."""
        return self._graph.root

    @property
    def graph(self) -> Graph:
        """What is drawn: boxes, arrows and their stable ids (``widgets.graph.Graph``)."""
        return self._graph

    @property
    def walk(self) -> Walk:
        """The steps the controls replay: the last backward pass, or the predicted order."""
        if self._walk_cache is None:
            if self._pass is not None:
                self._walk_cache = to_walk(self._pass, self._graph, self.lang)
            else:
                self._walk_cache = predicted_walk(self._graph, self.lang)
        return self._walk_cache

    @property
    def dot_source(self) -> str:
        """The DOT text of the current drawing."""
        return self._digraph().source

    @property
    def listening(self) -> bool:
        """Whether backward passes through the graph are being recorded."""
        return self._subscription is not None

    @property
    def visible(self) -> bool:
        """Whether anyone will see a redraw: displayed, and (if a browser reports its views)
        at least one browser view still on screen."""
        return bool(self._frontends) or (self._displayed and not self._seen_frontend)

    def show(
        self, t: Tensor, names: Mapping[str, Tensor] | None = None, *, redraw: bool = True
    ) -> None:
        """Show the graph of another tensor (the slider view calls this on every change).

        ``redraw=False`` only starts listening: the ``backward()`` that follows draws
        the graph, with its gradients, in one message instead of two.
        """
        check_tensor(t, "GraphView.show()")
        if names is not None:
            self._names, self._namespace = names, None
        self._set_graph(t, redraw=redraw)

    def refresh(self) -> None:
        """Redraw from the tensors' current values and names (after in-place changes)."""
        self._set_graph(self._graph.root, keep_walk=True)
        self.flush()

    def flush(self) -> bool:
        """Draw now if anything changed since the last drawing; True if it drew."""
        if not self._dirty or self._graph is None:
            return False
        start = time.perf_counter()
        self._draw()
        frames.drew(self, time.perf_counter() - start)
        return True

    def close(self) -> None:
        """Stop listening to backward passes and close the widget."""
        self._stop_listening()
        super().close()

    # -- state -----------------------------------------------------------------------

    def _set_graph(self, t: Tensor, keep_walk: bool = False, redraw: bool = True) -> None:
        graph = extract(
            t,
            self._names,
            namespace=self._namespace if self._names is None else None,
            lang=self.lang,
            **self._options,
        )
        same = self._graph is not None and _layout(self._graph) == _layout(graph)
        if not (keep_walk and same):
            self._pass = None
        self._walk_cache = None
        self._graph = graph
        self._stop_listening()
        if graph.total and (self.visible or not self._seen_frontend):
            self._subscription = subscribe(self, graph)
        if redraw:
            self._changed()

    def _changed(self) -> None:
        self._dirty = True
        if self.visible:
            frames.request(self)

    def _on_pass(self, recorded: Pass) -> None:
        """Called after a backward pass through this graph: no text, no drawing yet."""
        self._pass = recorded
        self._walk_cache = None
        self._changed()

    def _on_error(self, error: BaseException) -> None:
        self.error = text("view_error", self.lang, error=repr(error))

    def _stop_listening(self) -> None:
        if self._subscription is not None:
            self._subscription.remove()
            self._subscription = None

    def _on_browser_msg(self, _widget: Any, content: Any, _buffers: Any) -> None:
        """A browser view appeared or went (its cell re-run or cleared, the page closed)."""
        if not isinstance(content, dict):
            return
        view_id, event = str(content.get("view", "")), content.get("event")
        if event == "mount":
            self._seen_frontend = True
            self._frontends.add(view_id)
            if self._subscription is None and self._graph is not None and self._graph.total:
                self._pass = None  # passes were missed while hidden: say only what is true
                self._walk_cache = None
                self._subscription = subscribe(self, self._graph)
                self._dirty = True
            self.flush()
        elif event == "unmount":
            self._frontends.discard(view_id)
            if not self._frontends:
                self._stop_listening()

    # -- drawing ---------------------------------------------------------------------

    def _digraph(self):
        walk = self.walk if self._pass is not None else None
        return to_digraph(self._graph, walk, values=self._values, animate=True, lang=self.lang)

    def _caption(self, walk: Walk) -> str:
        """What the view says before any Step: true in every state (lesson 0 draws its
        first graph after backward)."""
        n = len(walk.steps)
        if not n:
            return ""
        if not walk.predicted:
            return text("fresh_recorded", self.lang, n=n)
        ops = [node.fn for node in self._graph.nodes.values() if node.kind == "op"]
        if any(saved_values(fn) is None for fn in ops):
            return text("fresh_freed", self.lang, n=n)
        leaves = [fn.variable for fn in self._graph.leaf_box]
        if any(t.grad is not None for t in leaves):
            return text("fresh_had_grads", self.lang, n=n)
        return text("fresh_predicted", self.lang, n=n)

    def _draw(self) -> None:
        self._dirty = False
        if self._names is None and self._pass is not None:  # names may have changed: look again
            graph = extract(
                self._graph.root, None, namespace=self._namespace, lang=self.lang, **self._options
            )
            if _layout(graph) == _layout(self._graph):
                self._graph, self._walk_cache = graph, None
        walk = self.walk
        svg, drawing, note = "", "", self._graph.note
        try:
            svg = render_svg(self._digraph(), self.lang)
        except DotProblem as problem:
            drawing = to_text(self._graph, self.lang)
            note = str(problem) + ("\n" + note if note else "")
        if self._pass is not None and not walk.complete:
            note = (note + "\n" if note else "") + text("outside", self.lang)
        with self.hold_sync():
            self.svg, self.text, self.note = svg, drawing, note
            self.steps, self.predicted = walk.steps, walk.predicted
            self.caption = self._caption(walk)
            self.error = ""
            self.revision += 1
        self._update_static()

    # -- display -----------------------------------------------------------------------

    def _static_html(self) -> str:
        if self.svg:
            return svg_html(self.svg, self.note)
        return f"<pre>{escape(self.note)}\n\n{escape(self.text)}</pre>"

    def _mark_displayed(self) -> None:
        """Someone shows this view: listen again if it was hidden, and draw what is due."""
        self._displayed = True
        if self._subscription is None and self._graph is not None and self._graph.total:
            self._pass = None
            self._walk_cache = None
            self._subscription = subscribe(self, self._graph)
            self._dirty = True
        self.flush()

    def _repr_mimebundle_(self, **kwargs: Any):
        self._mark_displayed()
        bundle = super()._repr_mimebundle_(**kwargs)
        if bundle is None:
            return None
        data, metadata = bundle if isinstance(bundle, tuple) else (bundle, {})
        data = {**data, "text/html": self._static_html()}
        return data, metadata

    def _ipython_display_(self) -> None:
        """Display with a display id, so that later redraws refresh the static copy too."""
        from IPython.display import display

        if self._display_id is None:
            self._display_id = uuid.uuid4().hex
        data, metadata = self._repr_mimebundle_()
        display(data, metadata=metadata, raw=True, display_id=self._display_id)

    def _update_static(self) -> None:
        if self._display_id is None:
            return
        from IPython.display import update_display

        bundle = super()._repr_mimebundle_()
        if bundle is None:
            return
        data, metadata = bundle if isinstance(bundle, tuple) else (bundle, {})
        data = {**data, "text/html": self._static_html()}
        update_display(data, metadata=metadata, raw=True, display_id=self._display_id)


def _layout(graph: Graph) -> list[tuple[str, str, str]]:
    """What decides the boxes and arrows: two graphs with the same layout share ids."""
    return [(e.id, e.src, e.dst) for e in graph.edges] + [
        (n.id, n.kind, n.title) for n in graph.nodes.values()
    ]
