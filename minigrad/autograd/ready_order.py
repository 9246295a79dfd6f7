"""The order in which PyTorch runs leaves that become ready together.

PyTorch's engine keeps the ready nodes in a ``std::priority_queue`` ordered by sequence
number, newest first, and gives every ``AccumulateGrad`` the largest one (``UINT64_MAX``), so
that a leaf's gradient is stored as soon as it is complete (its ``NotImplemented`` nodes, which
only raise, have it too, and count as leaves here). Leaves that one node makes ready
together (``x + b``, ``torch.stack([x, b, c, d])``) therefore tie, and the heap's own sifting
decides which runs first: not the edge order, not the creation order, but what libstdc++'s
``push_heap`` and ``pop_heap`` do with equal keys. Their hooks show that order
(``x + b``: x's, then b's; ``stack([x, b, c, d])``: x, c, b, d).

Which leaf comes out next depends only on where the leaves sit in the heap, and that depends
on the heap's size and on which pushes were leaves, never on the other nodes' sequence
numbers: a leaf outranks every other node, so the leaves fill the top of the heap and every
other node only moves below them. ``leaf_order`` replays the heap with two keys (leaf or not)
and is cached: the everyday passes never ask (one leaf at a time, and of two the first
queued always runs first), a graph that does asks for a handful of shapes.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

__all__ = ["leaf_order", "leaves_in_turn"]


def leaves_in_turn(
    edges: Sequence, leaves: list, heap: list, deps: dict, off_heap: int, outputs: bool
) -> list:
    """``leaves``, the AccumulateGrads that one node has just made ready, in PyTorch's order.

    ``edges``: that node's ``_next`` (or the roots of a pass, as given). The walks mark a
    node they queue with ``deps[node] = 0``, so the nodes this one made ready are the edges
    marked so: no search of the queue, whatever its size. ``heap``: the walk's queue (entries
    ``(-seq, node, ...)``), those nodes included; ``off_heap``: how many of them the walk
    keeps off it. Where minigrad's queue differs from PyTorch's (``outputs``: it holds an
    ``OutputEdge``), PyTorch's is counted: a multi-output node is one node there, queued once
    all its outputs are (here one ``OutputEdge`` per output).
    """
    last = {fn: i for i, fn in enumerate(edges) if fn is not None}  # ready at its last edge
    now = [(i, fn) for fn, i in last.items() if deps.get(fn) == 0]
    now.sort(key=lambda item: item[0])
    is_leaf = set(leaves)
    others = [fn for _, fn in now if fn not in is_leaf]
    last_output = {fn._owner: i for i, fn in now if fn._owner is not None}  # sorted: the last
    pending = len(heap) - len(others) + off_heap
    if outputs:  # PyTorch's count of what waited: each owner once, once all its outputs are
        made_now = set(others)
        before = [entry[1] for entry in heap if entry[1] not in made_now]
        owners = {fn._owner for fn in before if fn._owner is not None}
        pending -= sum(1 for fn in before if fn._owner is not None)
        pending += sum(  # (an owner with an output made ready now is queued now, if at all)
            1 for o in owners if o not in last_output and _queued_in_pytorch(o, deps)
        )
    pushed = []
    for i, fn in now:
        if fn in is_leaf:
            pushed.append(fn)
        elif fn._owner is None:
            pushed.append(None)
        elif last_output[fn._owner] == i and _queued_in_pytorch(fn._owner, deps):
            pushed.append(None)  # the owner, at the last of its outputs made ready
    in_queue = [fn for fn in pushed if fn is not None]
    order = leaf_order(pending, tuple([fn is not None for fn in pushed]))
    return [in_queue[i] for i in order]


def _queued_in_pytorch(owner, deps: dict) -> bool:
    """Every output of the multi-output ``owner`` that the pass reaches is ready."""
    outputs = [ref() for ref in owner._edges]
    return all(deps.get(e, 0) == 0 for e in outputs if e is not None)


@lru_cache(maxsize=256)
def leaf_order(pending: int, pushes: tuple[bool, ...]) -> tuple[int, ...]:
    """The order PyTorch pops the leaves of ``pushes``: the nodes one node makes ready, in
    the order of its edges (True for a leaf's AccumulateGrad), pushed onto a heap holding
    ``pending`` other nodes. Answers indices into the leaves alone (0 the first pushed)."""
    heap: list[int] = [-1] * pending  # -1: any node but a leaf; a leaf: its index
    n_leaves = 0
    for is_leaf in pushes:
        if is_leaf:
            _push(heap, n_leaves)
            n_leaves += 1
        else:
            _push(heap, -1)
    return tuple([_pop(heap) for _ in range(n_leaves)])


def _less(a: int, b: int) -> bool:
    """``CompareNodeTaskTime``: a leaf outranks a node, and two leaves tie."""
    return a < 0 <= b


def _push(heap: list, value: int) -> None:
    """``std::push_heap``: the new item climbs while its parent ranks lower."""
    hole = len(heap)
    heap.append(value)
    while hole > 0 and _less(heap[(hole - 1) // 2], value):
        heap[hole] = heap[(hole - 1) // 2]
        hole = (hole - 1) // 2
    heap[hole] = value


def _pop(heap: list) -> int:
    """``std::pop_heap`` as libstdc++ writes it (``__adjust_heap``): the hole left at the top
    sinks to a leaf of the tree along the higher-ranked child (the right one at a tie), then
    the last item climbs back from there."""
    top, value = heap[0], heap.pop()
    size = len(heap)
    if size == 0:
        return top
    hole = child = 0
    while child < (size - 1) // 2:
        child = 2 * (child + 1)
        if _less(heap[child], heap[child - 1]):
            child -= 1
        heap[hole] = heap[child]
        hole = child
    if size % 2 == 0 and child == (size - 2) // 2:
        child = 2 * (child + 1)
        heap[hole] = heap[child - 1]
        hole = child - 1
    while hole > 0 and _less(heap[(hole - 1) // 2], value):
        heap[hole] = heap[(hole - 1) // 2]
        hole = (hole - 1) // 2
    heap[hole] = value
    return top
