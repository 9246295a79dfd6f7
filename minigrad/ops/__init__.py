"""The differentiable operations, one ``ArrayFunction`` each, grouped by kind.

Each op's ``forward`` and ``backward`` sit side by side and work on numpy
arrays; the shared work (edges, saved-value versions, un-broadcasting) is in
``minigrad.autograd.function``. ``minigrad/_tensor_methods.py`` binds them to
Tensor methods and operators.

numpy's inf/nan warnings are silenced where the ops run (``minigrad/_quiet.py``), not by a
warning filter, which a learner's ``simplefilter`` or pytest's ``filterwarnings`` overrides.
"""
