"""``GraphView``: the live computation graph, with Step / Play / Reset through backward.

Python does the heavy work once per change: it extracts the graph, renders
the SVG with ``dot`` and records the backward walk, then sends the SVG and the
list of steps in one message. The browser (``static/graph_view.js``) replays
the steps without asking Python again, so stepping is instant and works after
the kernel has moved on.

Live: the view listens to minigrad's backward observer seam. When a pass runs
through its graph, it redraws with the gradients that pass produced and
replaces the steps. Before any backward has run, Step walks the *predicted*
order (``execution_order``) without values, so a learner can guess what will
happen before calling ``backward()``.

Static exports: the view's output also carries the final SVG as ``text/html``
(kept up to date with ``update_display``), so nbconvert without widget state,
and GitHub's viewer, show the graph as it was last drawn.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import anywidget
import traitlets

from minigrad import Tensor

from .dot import DotMissing, render_svg, svg_html, to_digraph, to_text
from .graph import DEFAULT_MAX_NODES, Graph, caller_namespace, check_tensor, extract
from .walk import Walk, observe, predicted_walk

__all__ = ["GraphView"]

_STATIC = Path(__file__).parent / "static"


class GraphView(anywidget.AnyWidget):
    """The graph behind ``t``, live, with controls that step through backward.

    ``names`` maps variable names to tensors; without it, names are found in
    the caller's namespace (again at each redraw). ``show_accumulate`` and
    ``show_saved`` add the AccumulateGrad nodes and the saved values (with
    their versions). ``values=False`` hides the tensors' values. Graphs with
    more than ``max_nodes`` backward nodes are drawn folded. ``interval`` is
    the time between two steps of Play, in milliseconds.
    """

    _esm = _STATIC / "graph_view.js"
    _css = _STATIC / "graph_view.css"

    svg = traitlets.Unicode("").tag(sync=True)
    text = traitlets.Unicode("").tag(sync=True)  # the text drawing when dot is missing
    steps = traitlets.List().tag(sync=True)
    predicted = traitlets.Bool(True).tag(sync=True)
    note = traitlets.Unicode("").tag(sync=True)
    error = traitlets.Unicode("").tag(sync=True)
    revision = traitlets.Int(0).tag(sync=True)
    interval = traitlets.Int(700).tag(sync=True)

    _observer = None  # also for a view whose __init__ failed: ipywidgets closes it on __del__

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
    ) -> None:
        check_tensor(t, "GraphView()")
        namespace = caller_namespace() if names is None else None
        super().__init__(interval=interval)
        self._options = {
            "show_accumulate": show_accumulate,
            "show_saved": show_saved,
            "max_nodes": max_nodes,
        }
        self._values = values
        self._display_id: str | None = None
        self._walk: Walk | None = None
        self._graph: Graph | None = None
        self._namespace: Mapping[str, Any] | None = namespace
        self._names = names
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
        return self._walk if self._walk is not None else predicted_walk(self._graph)

    @property
    def dot_source(self) -> str:
        """The DOT text of the current drawing."""
        return self._digraph().source

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
        old = self._graph
        self._set_graph(old.root, keep_walk=True)

    def close(self) -> None:
        """Stop listening to backward passes and close the widget."""
        self._stop_observing()
        super().close()

    # -- drawing ---------------------------------------------------------------------

    def _set_graph(self, t: Tensor, keep_walk: bool = False, redraw: bool = True) -> None:
        graph = extract(
            t,
            self._names,
            namespace=self._namespace if self._names is None else None,
            **self._options,
        )
        same = self._graph is not None and _layout(self._graph) == _layout(graph)
        if not (keep_walk and same):
            self._walk = None
        self._graph = graph
        self._stop_observing()
        if graph.total:
            self._observer = observe(self, graph)
        if redraw:
            self._draw()

    def _digraph(self):
        walk = self._walk if self._walk is not None and not self._walk.predicted else None
        return to_digraph(self._graph, walk, values=self._values, animate=True)

    def _draw(self) -> None:
        walk = self.walk
        svg, text, note = "", "", self._graph.note
        try:
            svg = render_svg(self._digraph())
        except DotMissing as missing:
            text = to_text(self._graph)
            note = str(missing) + ("\n" + note if note else "")
        if self._walk is not None and not walk.complete:
            note = (note + "\n" if note else "") + (
                "The last backward pass started outside this graph: only its part here is shown."
            )
        with self.hold_sync():
            self.svg, self.text, self.note = svg, text, note
            self.steps, self.predicted = walk.steps, walk.predicted
            self.error = ""
            self.revision += 1
        self._update_static()

    def _on_walk(self, walk: Walk) -> None:
        """Called by the observer after a backward pass through this graph."""
        self._walk = walk
        if self._names is None:  # names may have changed since: look again
            graph = extract(self._graph.root, None, namespace=self._namespace, **self._options)
            if _layout(graph) == _layout(self._graph):
                self._graph = graph
        self._draw()

    def _on_error(self, error: BaseException) -> None:
        self.error = f"The graph view could not follow this backward pass: {error!r}"

    def _stop_observing(self) -> None:
        if self._observer is not None:
            self._observer.handle.remove()
            self._observer = None

    # -- display -----------------------------------------------------------------------

    def _static_html(self) -> str:
        if self.svg:
            return svg_html(self.svg, self.note)
        from html import escape

        return f"<pre>{escape(self.note)}\n\n{escape(self.text)}</pre>"

    def _repr_mimebundle_(self, **kwargs: Any):
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

        data, metadata = self._repr_mimebundle_()
        update_display(data, metadata=metadata, raw=True, display_id=self._display_id)


def _layout(graph: Graph) -> list[tuple[str, str, str]]:
    """What decides the boxes and arrows: two graphs with the same layout share ids."""
    return [(e.id, e.src, e.dst) for e in graph.edges] + [
        (n.id, n.kind, n.title) for n in graph.nodes.values()
    ]
