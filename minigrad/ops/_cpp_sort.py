"""The order PyTorch's CPU kernels give equal values: the C++ standard library's algorithms.

``sort`` and ``topk`` only decide the order of values that compare equal (ties, ``0.`` and
``-0.``, two nans) by the algorithm that moves them: ``torch.sort`` calls ``std::sort`` (or
``std::stable_sort`` with ``stable=True``), ``torch.topk`` calls ``std::nth_element`` then
``std::sort`` on the first ``k - 1`` (or ``std::partial_sort`` when ``64 * k <= n``). PyTorch's
Linux wheels are built against GNU libstdc++, whose introsort (quicksort with a median-of-three
pivot, a heapsort below a depth limit, insertion sort for runs of 16 or fewer) is rewritten here
step for step, so that the indices of ties are PyTorch's, not numpy's.

The sorted keys are small integers ``rank`` (equal values share a rank, nan ranks above every
number as in PyTorch's comparators); ``less`` is the comparator. Rows without ties have only
one sorted order: ``order`` hands those to numpy, and only rows with ties take this slow path.
"""

from __future__ import annotations

_THRESHOLD = 16  # libstdc++'s _S_threshold


def _lg(n: int) -> int:
    return n.bit_length() - 1


def _median_to_first(v: list, result: int, a: int, b: int, c: int, less) -> None:
    if less(v[a], v[b]):
        if less(v[b], v[c]):
            v[result], v[b] = v[b], v[result]
        elif less(v[a], v[c]):
            v[result], v[c] = v[c], v[result]
        else:
            v[result], v[a] = v[a], v[result]
    elif less(v[a], v[c]):
        v[result], v[a] = v[a], v[result]
    elif less(v[b], v[c]):
        v[result], v[c] = v[c], v[result]
    else:
        v[result], v[b] = v[b], v[result]


def _partition_pivot(v: list, first: int, last: int, less) -> int:
    """``__unguarded_partition_pivot``: the median of three to ``first``, then partition."""
    mid = first + (last - first) // 2
    _median_to_first(v, first, first + 1, mid, last - 1, less)
    pivot = v[first]
    lo, hi = first + 1, last
    while True:
        while less(v[lo], pivot):
            lo += 1
        hi -= 1
        while less(pivot, v[hi]):
            hi -= 1
        if not lo < hi:
            return lo
        v[lo], v[hi] = v[hi], v[lo]
        lo += 1


def _linear_insert(v: list, last: int, less) -> None:
    val = v[last]
    nxt = last - 1
    while less(val, v[nxt]):
        v[last] = v[nxt]
        last = nxt
        nxt -= 1
    v[last] = val


def _insertion_sort(v: list, first: int, last: int, less) -> None:
    for i in range(first + 1, last):
        if less(v[i], v[first]):
            val = v[i]
            v[first + 1 : i + 1] = v[first:i]
            v[first] = val
        else:
            _linear_insert(v, i, less)


def _adjust_heap(v: list, first: int, hole: int, length: int, value, less) -> None:
    top = hole
    child = hole
    while child < (length - 1) // 2:
        child = 2 * (child + 1)
        if less(v[first + child], v[first + child - 1]):
            child -= 1
        v[first + hole] = v[first + child]
        hole = child
    if length % 2 == 0 and child == (length - 2) // 2:
        child = 2 * (child + 1)
        v[first + hole] = v[first + child - 1]
        hole = child - 1
    parent = (hole - 1) // 2
    while hole > top and less(v[first + parent], value):
        v[first + hole] = v[first + parent]
        hole = parent
        parent = (hole - 1) // 2
    v[first + hole] = value


def _heap_select(v: list, first: int, middle: int, last: int, less) -> None:
    length = middle - first
    if length >= 2:
        for parent in range((length - 2) // 2, -1, -1):
            _adjust_heap(v, first, parent, length, v[first + parent], less)
    for i in range(middle, last):
        if less(v[i], v[first]):
            value = v[i]
            v[i] = v[first]
            _adjust_heap(v, first, 0, length, value, less)


def _sort_heap(v: list, first: int, last: int, less) -> None:
    while last - first > 1:
        last -= 1
        value = v[last]
        v[last] = v[first]
        _adjust_heap(v, first, 0, last - first, value, less)


def partial_sort(v: list, first: int, middle: int, last: int, less) -> None:
    _heap_select(v, first, middle, last, less)
    _sort_heap(v, first, middle, less)


def std_sort(v: list, first: int, last: int, less) -> None:
    """``std::sort``: introsort, then one insertion sort over the nearly sorted whole."""
    if last - first < 2:
        return
    _introsort(v, first, last, 2 * _lg(last - first), less)
    if last - first > _THRESHOLD:
        _insertion_sort(v, first, first + _THRESHOLD, less)
        for i in range(first + _THRESHOLD, last):
            _linear_insert(v, i, less)
    else:
        _insertion_sort(v, first, last, less)


def _introsort(v: list, first: int, last: int, depth: int, less) -> None:
    while last - first > _THRESHOLD:
        if depth == 0:
            partial_sort(v, first, last, last, less)
            return
        depth -= 1
        cut = _partition_pivot(v, first, last, less)
        _introsort(v, cut, last, depth, less)
        last = cut


def nth_element(v: list, first: int, nth: int, last: int, less) -> None:
    """``std::nth_element``: introselect (the side of the partition that holds ``nth``)."""
    if first == last or nth == last:
        return
    depth = 2 * _lg(last - first)
    while last - first > 3:
        if depth == 0:
            _heap_select(v, first, nth + 1, last, less)
            v[first], v[nth] = v[nth], v[first]
            return
        depth -= 1
        cut = _partition_pivot(v, first, last, less)
        if cut <= nth:
            first = cut
        else:
            last = cut
    _insertion_sort(v, first, last, less)
