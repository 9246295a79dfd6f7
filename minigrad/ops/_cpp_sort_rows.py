"""libstdc++'s ``std::sort`` over many rows at once, in numpy: the order ``torch.sort`` gives ties.

``_cpp_sort.std_sort`` follows the C++ code step by step in Python, a few milliseconds per
thousand elements. This module computes the same order with array operations, from two facts:

- Every partition of the introsort is a Hoare partition around a median-of-three pivot, and its
  result has a closed form. Let ``L`` be the positions (left to right) of the elements not
  less than the pivot and ``R`` those (right to left) not greater: the scans stop exactly at
  ``L[k]`` and ``R[k]``, so the partition swaps ``L[k]`` with ``R[k]`` for every ``k`` with
  ``L[k] < R[k]``, and the cut is where the left scan stops next, ``min(L[k*], R[k*-1])``.
  The pieces a partition leaves are disjoint, so every piece of every row is partitioned at
  once, level by level (the C++ recursion's order does not change what each piece holds).
- The insertion sort that ends ``std::sort`` is stable: its result is the stable order of
  the keys as the introsort left them.

A piece whose depth budget runs out (the heapsort of introsort) is rare; it takes the
step-by-step code.
"""

from __future__ import annotations

import numpy as np

from . import _cpp_sort as cpp

__all__ = ["std_sort_rows"]

_BIG = np.iinfo(np.int64).max  # no position: loses every minimum


def _median_to_first(v: np.ndarray, first: np.ndarray, mid: np.ndarray, last: np.ndarray):
    """``__move_median_to_first(first, first + 1, mid, last - 1)`` of every piece."""
    a, b, c = first + 1, mid, last - 1
    va, vb, vc = v[a], v[b], v[c]
    ab, bc, ac = va < vb, vb < vc, va < vc
    pick = np.where(
        ab,
        np.where(bc, b, np.where(ac, c, a)),
        np.where(ac, a, np.where(bc, c, b)),
    )
    return pick


def _partition(v: np.ndarray, idx: np.ndarray, first: np.ndarray, last: np.ndarray) -> np.ndarray:
    """Partition the pieces ``[first, last)`` of ``v`` (and ``idx`` alongside) as
    ``__unguarded_partition_pivot`` does; return each piece's cut."""
    pick = _median_to_first(v, first, first + (last - first) // 2, last)
    v[first], v[pick] = v[pick], v[first].copy()
    idx[first], idx[pick] = idx[pick], idx[first].copy()
    pivot = v[first]
    sizes = last - first - 1  # the elements after the pivot
    piece = np.repeat(np.arange(len(first)), sizes)
    starts = np.cumsum(sizes) - sizes
    pos = np.arange(int(sizes.sum())) - np.repeat(starts, sizes) + np.repeat(first + 1, sizes)
    values, p = v[pos], pivot[piece]
    ge, le = values >= p, values <= p
    lefts, rights = pos[ge], pos[le]  # L and R of every piece, each left to right
    count = len(first)
    n_left = np.bincount(piece[ge], minlength=count)
    n_right = np.bincount(piece[le], minlength=count)
    left_start = np.cumsum(n_left) - n_left
    right_end = np.cumsum(n_right) - 1  # R[k] is the k-th from its piece's right end
    pairs = np.minimum(n_left, n_right)
    pair_piece = np.repeat(np.arange(count), pairs)
    k = np.arange(int(pairs.sum())) - np.repeat(np.cumsum(pairs) - pairs, pairs)
    lk = lefts[left_start[pair_piece] + k]
    rk = rights[right_end[pair_piece] - k]
    swap = lk < rk
    ls, rs = lk[swap], rk[swap]
    v[ls], v[rs] = v[rs], v[ls].copy()
    idx[ls], idx[rs] = idx[rs], idx[ls].copy()
    # the cut: where the left scan stops after the last swap
    swaps = np.bincount(pair_piece[swap], minlength=count)
    next_left = np.where(
        swaps < n_left, lefts[np.minimum(left_start + swaps, len(lefts) - 1)], _BIG
    )
    # R[k*-1], which now holds a value not less than the pivot
    last_right = np.where(
        swaps > 0, rights[np.minimum(right_end - swaps + 1, len(rights) - 1)], _BIG
    )
    return np.minimum(next_left, last_right)


def _heap_fallback(v: np.ndarray, idx: np.ndarray, first: int, last: int) -> None:
    """A piece out of depth budget: libstdc++'s heapsort, step by step."""
    pairs = [(int(v[i]), int(idx[i])) for i in range(first, last)]
    cpp.partial_sort(pairs, 0, len(pairs), len(pairs), lambda x, y: x[0] < y[0])
    v[first:last] = [p[0] for p in pairs]
    idx[first:last] = [p[1] for p in pairs]


def std_sort_rows(keys: np.ndarray) -> np.ndarray:
    """The order ``std::sort`` puts each row of ``keys`` (integers, compared with ``<``) in:
    for each row, the column of each element of the sorted row."""
    rows, n = keys.shape
    v = np.ascontiguousarray(keys, dtype=np.int64).reshape(-1).copy()
    idx = np.tile(np.arange(n, dtype=np.int64), rows)
    if n > cpp._THRESHOLD:
        first = np.arange(rows, dtype=np.int64) * n
        last = first + n
        depth = np.full(rows, 2 * cpp._lg(n), dtype=np.int64)
        while len(first):
            out = depth == 0
            for f, e in zip(first[out].tolist(), last[out].tolist()):
                _heap_fallback(v, idx, f, e)
            first, last, depth = first[~out], last[~out], depth[~out] - 1
            cut = _partition(v, idx, first, last)
            first = np.concatenate((cut, first))
            last = np.concatenate((last, cut))
            depth = np.concatenate((depth, depth))
            big = last - first > cpp._THRESHOLD
            first, last, depth = first[big], last[big], depth[big]
    v, idx = v.reshape(rows, n), idx.reshape(rows, n)
    final = np.argsort(v, axis=1, kind="stable")  # the closing insertion sort
    return np.take_along_axis(idx, final, axis=1)


def _rows_state(keys: np.ndarray):
    rows, n = keys.shape
    v = np.ascontiguousarray(keys, dtype=np.int64).reshape(-1).copy()
    return v, np.tile(np.arange(n, dtype=np.int64), rows), np.arange(rows, dtype=np.int64) * n


def nth_element_rows(keys: np.ndarray, nth: int) -> np.ndarray:
    """``std::nth_element(first, first + nth, last)`` on every row of ``keys``: introselect
    (the partitions of ``std::sort``, keeping the side that holds ``nth``), then an insertion
    sort of the last three or fewer. Returns each row's columns in the order it leaves them."""
    rows, n = keys.shape
    v, idx, first = _rows_state(keys)
    last, depth = first + n, np.full(rows, 2 * cpp._lg(n), dtype=np.int64)
    target = first + nth
    done = []  # pieces the heap selection finished (no closing insertion sort)
    while True:
        active = last - first > 3
        if not active.any():
            break
        out = active & (depth == 0)
        for r in np.flatnonzero(out).tolist():
            f, e, t = int(first[r]), int(last[r]), int(target[r])
            pairs = [(int(v[i]), int(idx[i])) for i in range(f, e)]
            cpp._heap_select(pairs, 0, t - f + 1, e - f, lambda x, y: x[0] < y[0])
            pairs[0], pairs[t - f] = pairs[t - f], pairs[0]
            v[f:e] = [p[0] for p in pairs]
            idx[f:e] = [p[1] for p in pairs]
            done.append(r)
        first[out] = last[out]  # finished: no piece left
        go = np.flatnonzero(active & ~out)
        if not len(go):
            continue
        depth[go] -= 1
        cut = _partition(v, idx, first[go], last[go])
        right = cut <= target[go]
        first[go[right]] = cut[right]
        last[go[~right]] = cut[~right]
    for r in range(rows):  # the insertion sort (stable) of the piece left, three at most
        f, e = int(first[r]), int(last[r])
        if e - f > 1:
            order = sorted(range(f, e), key=v.__getitem__)
            v[f:e], idx[f:e] = v[order], idx[order]
    return idx.reshape(rows, n)
