"""widgets: notebook views of minigrad's live computation graph, and plot helpers.

- ``draw(t)``: the graph behind a tensor, as a ``graphviz.Digraph``;
- ``GraphView(t)``: the same graph, live, with Step / Play / Reset through backward;
- ``SliderView()``: sliders for the entries of ``x`` in ``mean(x*x)``, graph included;
- ``plot_function_and_grad``, ``LossPlot``, ``plot_fit``: matplotlib helpers;
- ``set_language("zh-CN")``: the widgets' own words in Simplified Chinese.

An open view costs a training loop next to nothing: one observer serves every
view (``listen``), a pass only marks a view dirty, and a view draws when it will
be seen (``frames``).

Dependencies point one way: widgets imports minigrad, never the reverse. The
engine's side is ``minigrad.autograd.graph`` (observers, ``execution_order``,
``saved_values``).
"""

from .draw import GraphDigraph, draw
from .frames import flush_all
from .graph import Graph, extract
from .graph_view import GraphView
from .i18n import get_language, set_language
from .loss_plot import LossPlot
from .plots import plot_fit, plot_function_and_grad
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
    "set_language",
    "get_language",
    "flush_all",
]
