"""PyTorch's names of what each op saves for backward: ``y.grad_fn._saved_self``, ...

Lesson 2 and the graph widget read a node's saved values; PyTorch exposes them as
``_saved_<name>`` attributes named in ``tools/autograd/derivatives.yaml`` (``self``, ``other``,
``result``, ``alpha``, ``exponent``). This table gives minigrad's nodes the same names, in
the order each op's ``forward`` passes them to ``save_for_backward``, without touching the ops.

``needed_by`` says which input's gradient needs each saved value: PyTorch saves ``self`` of
``x * c`` only if ``c`` requires grad, so an in-place change of ``x`` afterwards is no error,
and ``_saved_self`` is None.
"""

from __future__ import annotations

from . import arithmetic as A
from . import reduction as R
from . import unary as U

# op: (saved names in order, needed_by or None, settings: PyTorch name -> ctx attribute or getter)
_TABLE = {
    A.Mul: (("self", "other"), (1, 0), {}),
    A.Div: (("self", "other"), (1, None), {}),
    A.PowScalar: (("self",), None, {"exponent": "exponent"}),
    A.Add: ((), None, {"alpha": lambda node: 1}),
    A.Sub: ((), None, {"alpha": lambda node: 1}),
    A.AddAlpha: ((), None, {"alpha": "alpha"}),
    A.SubAlpha: ((), None, {"alpha": "alpha"}),
    U.Exp: (("result",), None, {}),
    U.Tanh: (("result",), None, {}),
    U.Sigmoid: (("result",), None, {}),
    U.Sqrt: (("result",), None, {}),
    U.Relu: (("result",), None, {}),
    U.Log: (("self",), None, {}),
    U.Sin: (("self",), None, {}),
    U.Cos: (("self",), None, {}),
    U.Abs: (("self",), None, {}),
    R.Sum: ((), None, {"self_sym_sizes": lambda node: tuple(node.shape)}),
    R.Mean: (
        (),
        None,
        {
            "self_sym_sizes": lambda node: tuple(node.shape),
            "self_sym_numel": lambda node: node.size,
        },
    ),
}

for _op, (_names, _needed, _settings) in _TABLE.items():
    _op._Node._saved_names = _names
    _op._Node._needed_by = _needed
    _op._Node._saved_settings = _settings
