"""``masked_fill`` and the masked select/scatter pair that is the gradient of its value.

``masked_fill`` is what attention masks are made of: the filled places get no gradient,
the kept ones pass it on unchanged.
"""

from __future__ import annotations

import numpy as np

from ..autograd.function import ArrayFunction
from .arithmetic import MaskedFill as ZeroWhere
from .namespace import namespace
from .number_range import check_number_fits


def _check_mask(mask: np.ndarray) -> None:
    if mask.dtype != np.bool_:
        raise RuntimeError(
            f"masked_fill_ only supports boolean masks, but got mask with dtype "
            f"{np.dtype(mask.dtype).name.replace('int64', 'long int').replace('float32', 'float')}"
        )


class MaskedFill(ArrayFunction):
    """``value`` where ``mask`` is True, ``a`` elsewhere; filled places get no gradient."""

    node_name = "MaskedFillBackward0"
    n_params = 2

    @staticmethod
    def forward(ctx, a, mask, value):
        _check_mask(mask)
        value = check_number_fits(value, a.dtype, filling=True)  # PyTorch's range check
        ctx.shape, ctx.mask = a.shape, mask
        ctx.save_for_backward(mask)  # PyTorch saves it: a second backward raises
        # PyTorch fills a contiguous clone: a C-ordered result, whatever a's layout
        return np.asarray(np.where(mask, np.asarray(value).astype(a.dtype), a), order="C")

    @staticmethod
    def backward(ctx, grad):
        return namespace(grad).sum_to_shape(ZeroWhere.call(grad, ctx.mask), ctx.shape)


class MaskedFillTensor(ArrayFunction):
    """``masked_fill`` with a 0-d tensor: it gets the sum of the gradients of the places filled."""

    node_name = "MaskedFillBackward1"
    n_params = 1

    @staticmethod
    def forward(ctx, a, value, mask):
        _check_mask(mask)
        if value.ndim:
            raise RuntimeError(
                "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                f"{value.ndim} dimension(s)."
            )
        check_number_fits(value.item(), a.dtype, filling=True)  # PyTorch fills with its item
        ctx.shape, ctx.mask = a.shape, mask
        ctx.save_for_backward(mask)  # PyTorch saves it: a second backward raises
        return np.asarray(np.where(mask, value.astype(a.dtype), a), order="C")

    @staticmethod
    def backward(ctx, grad):
        """``grad.masked_fill(mask, 0)`` and ``grad.masked_select(mask).sum()``, as PyTorch."""
        xp = namespace(grad)
        kept = xp.sum_to_shape(ZeroWhere.call(grad, ctx.mask), ctx.shape)
        mask = np.broadcast_to(ctx.mask, xp.data(grad).shape)
        return kept, xp.sum(MaskedSelect.call(grad, mask))


class MaskedSelect(ArrayFunction):
    """``a[mask]`` as one flat vector (``MaskedSelectBackward0``): the gradient of the value
    of ``masked_fill``; its own gradient puts ``gg`` back at the selected places."""

    node_name = "MaskedSelectBackward0"
    n_params = 1

    @staticmethod
    def forward(ctx, a, mask):
        ctx.mask = mask
        return a[mask]

    @staticmethod
    def backward(ctx, gg):
        xp = namespace(gg)
        return MaskedScatter.call(xp.zeros(ctx.mask.shape, xp.dtype(gg)), gg, ctx.mask)


class MaskedScatter(ArrayFunction):
    """``zeros.masked_scatter_(mask, src)`` (``MaskedScatterBackward0``): the zeros are fresh,
    a constant; ``src``'s gradient is ``gg`` selected again."""

    node_name = "MaskedScatterBackward0"
    grad_position = 1
    n_params = 1

    @staticmethod
    def forward(ctx, zeros, src, mask):
        ctx.mask = mask
        zeros[mask] = src
        return zeros

    @staticmethod
    def backward(ctx, gg):
        return None, MaskedSelect.call(gg, ctx.mask)
