"""``minigrad.sort``, ``argsort``, ``msort`` and ``topk``: values in order, and their indices.

``sort`` and ``topk`` return ``(values, indices)`` with names, as PyTorch's
``torch.return_types.sort`` and ``torch.return_types.topk``; only ``values`` is in the graph.
"""

from __future__ import annotations

from typing import Any

from .._typename import type_name
from ..ops import sorting as SO
from ..tensor import Tensor, new_tensor
from ._args import _is_int, _overloads
from .reduction import _MinMax

_Sort = type(
    "sort", (_MinMax,), {"__slots__": (), "_name": "sort", "__module__": "minigrad.return_types"}
)
_Topk = type(
    "topk", (_MinMax,), {"__slots__": (), "_name": "topk", "__module__": "minigrad.return_types"}
)

_UNSET: Any = object()  # ``stable`` not given: PyTorch's first overload (SortBackward0)


def _positional(name: str, args: tuple, stable: Any, method: bool) -> tuple:
    """``dim`` and ``descending`` given by position; PyTorch's refusals (its ``stable``
    overload takes them by keyword only)."""
    if len(args) > 2 or (args and stable is not _UNSET and method and len(args) > 1):
        raise TypeError(
            f"{name}() takes from 1 to 0 positional arguments but {len(args)} were given"
        )
    if args and stable is not _UNSET:
        got = ", ".join([type_name(a) for a in args] + [f"stable={type_name(stable)}"])
        tensor, out = ("", "") if method else ("Tensor input, ", ", tuple of Tensors out = None")
        raise _overloads(
            name,
            got if method else f"Tensor, {got}",
            (
                f"({tensor}*, bool stable, int dim = -1, bool descending = False{out})",
                f"({tensor}int dim = -1, bool descending = False"
                + (", *, tuple of Tensors out = None)" if not method else ")")
                + (
                    "\n      didn't match because some of the keywords were incorrect: stable"
                    if method
                    else ""
                ),
            ),
        )
    return args


def sort(
    input: Tensor,
    *args: Any,
    dim: int = -1,
    descending: bool = False,
    stable: Any = _UNSET,
    _method: bool = False,
):
    """Sorted values along ``dim`` and where each came from; ``stable=True`` keeps equal
    values in their order (without it, their order is the one PyTorch's ``std::sort`` gives)."""
    args = _positional("sort", args, stable, _method)
    dim = args[0] if args else dim
    descending = args[1] if len(args) > 1 else descending
    index = SO.sort_indices(input._data, dim, descending, stable is not _UNSET and bool(stable))
    op = SO.Sort if stable is _UNSET else SO.SortStable
    return _Sort((op.apply(input, dim, index), new_tensor(index)))


def _sort_method(self: Tensor, *args: Any, **kwargs: Any):
    return sort(self, *args, _method=True, **kwargs)


def msort(input: Tensor) -> Tensor:
    """``sort(input, dim=0).values``."""
    return sort(input, 0)[0]


def argsort(
    input: Tensor,
    *args: Any,
    dim: int = -1,
    descending: bool = False,
    stable: Any = _UNSET,
    _method: bool = False,
) -> Tensor:
    """The indices that sort ``input`` along ``dim`` (an int64 tensor, not in the graph)."""
    args = _positional("argsort", args, stable, _method)
    dim = args[0] if args else dim
    descending = args[1] if len(args) > 1 else descending
    stable = stable is not _UNSET and bool(stable)
    return new_tensor(SO.sort_indices(input._data, dim, descending, stable))


def _argsort_method(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    return argsort(self, *args, _method=True, **kwargs)


def topk(input: Tensor, k: int, dim: int = -1, largest: bool = True, sorted: bool = True):  # noqa: A002
    """The ``k`` largest (``largest=False``: smallest) values along ``dim``, and their indices."""
    if not _is_int(k):
        raise TypeError(f"topk(): argument 'k' (position 1) must be int, not {type_name(k)}")
    index = SO.topk_indices(input._data, int(k), dim, largest, sorted)
    return _Topk((SO.Topk.apply(input, dim, index), new_tensor(index)))
