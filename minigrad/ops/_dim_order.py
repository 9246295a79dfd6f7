"""The sort PyTorch's TensorIterator orders dimensions with (``reorder_dimensions``).

Which dimension a CPU kernel walks innermost decides its order of operations (sums, which
elements take the vector loop, which zero wins a tie, the output's layout), so the modules
that copy those kernels order dimensions as TensorIterator does: an insertion sort, innermost
first, whose comparison may leave a pair undecided; then the dimension is compared with the
next one inward, and a tie leaves it where it is. Each caller brings its own comparison
(what its kernel compares: strides of the operands, of the output, sizes).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

Dim = TypeVar("Dim")


def reorder(dims: list[Dim], should_swap: Callable[[Dim, Dim], int]) -> list[Dim]:
    """Sort ``dims`` (innermost first) in place and return it; ``should_swap(outer, inner)`` is
    1 when ``inner`` must go outside ``outer``, -1 when not, 0 when it cannot tell."""
    for i in range(1, len(dims)):
        j = i
        for k in range(i - 1, -1, -1):
            c = should_swap(dims[k], dims[j])
            if c > 0:
                dims[k], dims[j] = dims[j], dims[k]
                j = k
            elif c < 0:
                break
    return dims
