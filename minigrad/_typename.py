"""How PyTorch names the type of a wrong argument in its messages.

PyTorch prints the C type name (``tp_name``): ``int``, ``str`` for built-in types, the dotted
name for types of C extensions (``numpy.bool``, ``numpy.int64``), the bare class name for classes
written in Python. ``type(x).__name__`` would say ``bool`` for ``numpy.bool_(True)``, which reads
as if a real bool had been refused.
"""

from __future__ import annotations

from typing import Any

_HEAP_TYPE = 1 << 9  # Py_TPFLAGS_HEAPTYPE: a class made by a class statement


def type_name(value: Any) -> str:
    """``tp_name`` of ``type(value)``, as PyTorch's argument errors show it."""
    cls = type(value)
    if cls.__module__ == "builtins" or cls.__flags__ & _HEAP_TYPE:
        return cls.__name__
    return f"{cls.__module__}.{cls.__qualname__}"
