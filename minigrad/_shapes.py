"""Broadcasting, in PyTorch's words: shared by the engine's base and the ops."""

from __future__ import annotations

__all__ = ["broadcast_shapes"]


def broadcast_shapes(*shapes: tuple) -> tuple:
    """The broadcast shape of ``shapes``, or PyTorch's RuntimeError naming the first mismatch.

    Shapes are combined left to right, as PyTorch does: ``a`` is the shape so far, ``b`` the next.
    """
    result = tuple(shapes[0])
    for shape in shapes[1:]:
        n = max(len(result), len(shape))
        pa = (1,) * (n - len(result)) + tuple(result)
        pb = (1,) * (n - len(shape)) + tuple(shape)
        for dim in range(n - 1, -1, -1):  # PyTorch reports the last mismatching dimension
            x, y = pa[dim], pb[dim]
            if x != y and x != 1 and y != 1:
                raise RuntimeError(
                    f"The size of tensor a ({x}) must match the size of tensor b ({y}) "
                    f"at non-singleton dimension {dim}"
                )
        result = tuple(y if x == 1 else x for x, y in zip(pa, pb, strict=True))
    return result
