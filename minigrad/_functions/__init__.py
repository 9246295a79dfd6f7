"""The functional forms: ``minigrad.add``, ``minigrad.sum``, ``minigrad.cat``, ...

PyTorch has every op twice, as a function (``torch.mul(x, y)``) and as a Tensor
method or operator (``x.mul(y)``, ``x * y``). Here each function is written once,
in one module per kind of op, on top of the ``Function`` classes in
``minigrad/ops``; ``minigrad/_tensor_methods.py`` then binds the same functions
to Tensor methods in its one table, and ``minigrad/__init__.py`` exports them.
A few ``_private`` helpers here exist only for that table (``x.T``, ``x.type()``,
``iter(x)``, the comparison operators), next to the functions they belong with.

Layers: this package imports ``tensor``, ``ops`` and (for ``x.type()``) the legacy
types of ``_legacy``; neither ``ops`` nor ``tensor`` ever imports it.
"""
