"""widgets: notebook views of minigrad's live computation graph, and plot helpers.

- ``draw(t)``: the graph behind a tensor, as a ``graphviz.Digraph``;
- ``GraphView(t)``: the same graph, live, with Step / Play / Reset through backward;
- ``SliderView()``: sliders for the entries of ``x`` in ``mean(x*x)``, graph included;
- ``plot_function_and_grad``, ``LossPlot``, ``plot_fit``: matplotlib helpers.

Dependencies point one way: widgets imports minigrad, never the reverse. The
engine's side is ``minigrad.autograd.graph`` (observers, ``execution_order``,
``saved_values``).
"""

from .draw import GraphDigraph, draw
from .graph import Graph, extract
from .graph_view import GraphView
from .plots import LossPlot, plot_fit, plot_function_and_grad
from .sliders import SliderView

__all__ = [
    "draw",
    "GraphDigraph",
    "GraphView",
    "SliderView",
    "Graph",
    "extract",
    "plot_function_and_grad",
    "LossPlot",
    "plot_fit",
]
