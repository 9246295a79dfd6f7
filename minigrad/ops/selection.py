"""Picking and repeating elements: gather, masked_fill, repeat, the parts of split/chunk, round.

Each is one Function, forward and backward side by side. ``gather`` and ``masked_fill`` are
what attention masks and label lookups are made of; their gradients go back only to the
elements that were picked (``gather``) or kept (``masked_fill``).
"""

from __future__ import annotations

import numpy as np

from ..autograd.function import ArrayFunction
from ..autograd.multi_function import MultiArrayFunction, zeros_for
from ..tensor import Tensor, wrap_dim
from . import joining as J
from ._common import LEGACY_NAMES
from .arithmetic import MaskedFill as ZeroWhere
from .indexing import Slice  # noqa: F401 - narrow() is SEL.Slice
from .namespace import namespace


def _where_picked(index: np.ndarray, axis: int) -> tuple:
    """The full numpy index of the elements ``gather`` reads: ``index`` along ``axis``."""
    grid = list(np.indices(index.shape, sparse=True))
    grid[axis] = index
    return tuple(grid)


class Gather(ArrayFunction):
    """``out[i][j] = a[i][index[i][j]]`` (dim 1); repeated picks add up their gradients."""

    node_name = "GatherBackward0"
    n_params = 2

    @staticmethod
    def forward(ctx, a, dim, index):
        axis = wrap_dim(dim, a.ndim)
        if index.dtype not in (np.int64, np.int32):
            raise RuntimeError("gather(): Expected dtype int32/int64 for index")
        if index.ndim != a.ndim and not (index.ndim <= 1 and a.ndim <= 1):
            raise RuntimeError(
                "Index tensor must have the same number of dimensions as input tensor"
            )
        for d in range(index.ndim):
            if d != axis and index.shape[d] > a.shape[d]:
                raise RuntimeError(
                    f"Size does not match at dimension {d} expected index {list(index.shape)} to "
                    f"be no larger than self {list(a.shape)} apart from dimension {axis}"
                )
        size = a.shape[axis] if a.ndim else 1
        bad = index[(index < -size) | (index >= size)]
        if bad.size:
            raise RuntimeError(
                f"index {int(bad.flat[0])} is out of bounds for dimension {axis} with size {size}"
            )
        ctx.shape, ctx.axis, ctx.index = a.shape, axis, index
        ctx.save_for_backward(a, index)  # PyTorch's formula reads both: their versions are checked
        if a.ndim == 0:  # a 0-d tensor: every index (0 or -1) reads its one value
            ctx.where = None
            return np.broadcast_to(a, index.shape).copy()
        ctx.where = where = _where_picked(index, axis)
        return a[where]

    @staticmethod
    def backward(ctx, grad):
        ctx.saved_tensors  # noqa: B018 - a changed in place since: PyTorch's error
        zeros = namespace(grad).zeros(ctx.shape, namespace(grad).dtype(grad))
        return ScatterAdd.call(zeros, grad, ctx.where, ctx.axis, ctx.index)


class Scatter(ArrayFunction):
    """``zeros.scatter(dim, index, src)``: ``src`` written where ``index`` points.

    The gradient of max/min along a dim, as PyTorch writes it (``ScatterBackward0``): the
    first input is fresh zeros (a constant, no edge), so only ``src`` has a gradient, which
    is ``gg`` read back at the same places (gather).
    """

    node_name = "ScatterBackward0"
    grad_position = 1
    n_params = 2

    @staticmethod
    def forward(ctx, zeros, src, axis, index):
        ctx.axis, ctx.index = axis, index
        if not zeros.ndim:
            return np.array(src, order="C")
        np.put_along_axis(zeros, index, src, axis)  # fresh zeros, made for this call
        return zeros

    @staticmethod
    def backward(ctx, gg):
        if not ctx.index.ndim:
            return None, gg
        return None, Gather.call(gg, ctx.axis, ctx.index)


class ScatterAdd(ArrayFunction):
    """Gather's gradient: ``grad`` added into zeros where gather read (repeats add up).

    Its own gradient is gather again, so ``create_graph`` can go on through it.
    """

    node_name = "ScatterAddBackward0"
    grad_position = 1
    n_params = 3

    @staticmethod
    def forward(ctx, zeros, grad, where, axis, index):
        """``zeros`` is fresh (PyTorch's ``grad.new_zeros(shape)``: a constant, no edge)."""
        ctx.where, ctx.axis, ctx.index = where, axis, index
        if zeros.ndim:
            np.add.at(zeros, where, grad)
        else:
            zeros += grad.sum()
        return zeros

    @staticmethod
    def backward(ctx, grad):
        return None, Gather.call(grad, ctx.axis, ctx.index)


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


class Repeat(ArrayFunction):
    """Tile ``a`` ``sizes`` times; each copy sends its gradient back, and they add up."""

    node_name = "RepeatBackward0"
    n_params = 1

    @staticmethod
    def forward(ctx, a, sizes):
        if len(sizes) < a.ndim:
            raise RuntimeError(
                "Number of dimensions of repeat dims can not be smaller than number of "
                "dimensions of tensor"
            )
        if any(s < 0 for s in sizes):
            raise RuntimeError(
                f"Trying to create tensor with negative dimension {min(sizes)}: {list(sizes)}"
            )
        ctx.shape, ctx.sizes = a.shape, tuple(sizes)
        return np.tile(a.reshape((1,) * (len(sizes) - a.ndim) + a.shape), sizes)

    @staticmethod
    def backward(ctx, grad):
        """PyTorch's repeat_backward: the new leading dims summed one by one, then each
        repeated dim split in (copies, size) and the copies summed, in one sum."""
        xp = namespace(grad)
        if 0 in ctx.sizes:
            return xp.zeros(ctx.shape, xp.dtype(grad))
        lead = len(ctx.sizes) - len(ctx.shape)
        for _ in range(lead):
            grad = xp.sum(grad, 0)
        split, copies = [], []
        for repeat, size in zip(ctx.sizes[lead:], ctx.shape, strict=True):
            if repeat != 1:
                split.append(repeat)
                copies.append(len(split) - 1)
            split.append(size)
        if not copies:
            return grad
        return xp.sum(xp.reshape(grad, tuple(split)), tuple(copies))


class Split(MultiArrayFunction):
    """``split(size)`` and ``chunk(n)``: one node, one output (a view) per part.

    Its backward concatenates the parts' gradients, zeros for those that got none (under
    ``create_graph`` a CatBackward0 with None edges for them, as PyTorch's).
    """

    node_name = "SplitBackward0"
    n_params = 2
    is_view = True

    @staticmethod
    def forward(ctx, a, dim, sizes):
        ctx.axis, ctx.shapes = dim, [a.shape[:dim] + (n,) + a.shape[dim + 1 :] for n in sizes]
        key, parts, start = (slice(None),) * dim, [], 0
        for n in sizes:
            parts.append(a[key + (slice(start, start + n),)])
            start += n
        return tuple(parts)

    @staticmethod
    def backward(ctx, grads):
        grads = zeros_for(grads, ctx.shapes)
        if isinstance(grads[0], Tensor):
            return J.Cat.apply(*grads, ctx.axis)
        return np.concatenate(grads, axis=ctx.axis)


class SplitWithSizes(Split):
    """``split([sizes])``."""

    node_name = "SplitWithSizesBackward0"


class Round(ArrayFunction):
    """Round half to even; the gradient is zero almost everywhere, as PyTorch says."""

    node_name = "RoundBackward0"

    @staticmethod
    def forward(ctx, a):
        if a.dtype == np.bool_:  # integers come back as they are; bools have no kernel
            raise NotImplementedError("\"round_vml_cpu\" not implemented for 'Bool'")
        return np.round(a)

    @staticmethod
    def backward(ctx, grad):
        return namespace(grad).zeros_like(grad)


class RoundDecimals(ArrayFunction):
    node_name = "RoundBackward1"
    n_params = 1

    @staticmethod
    def forward(ctx, a, decimals):
        if a.dtype.kind != "f":
            raise NotImplementedError(
                f"\"round_cpu\" not implemented for '{LEGACY_NAMES[a.dtype]}'"
            )
        scale = np.asarray(10.0**decimals, a.dtype)
        with np.errstate(over="ignore", invalid="ignore"):
            return np.round(a * scale) / scale

    @staticmethod
    def backward(ctx, grad):
        return namespace(grad).zeros_like(grad)


def _sample(mean, std) -> np.ndarray:
    from .._random import default_generator  # noqa: PLC0415 - the generator lives above the ops

    if np.any(np.asarray(std) < 0):
        raise RuntimeError("normal expects all elements of std >= 0.0")
    shape = np.broadcast_shapes(np.shape(mean), np.shape(std))
    dtype = next((x.dtype for x in (mean, std) if isinstance(x, np.ndarray)), None)
    return (mean + std * default_generator().standard_normal(shape)).astype(dtype or np.float32)


class Normal(ArrayFunction):
    """``normal(mean, std)`` of two tensors: a sample; PyTorch gives both a zero gradient."""

    node_name = "NormalBackward3"
    broadcasts = True

    @staticmethod
    def forward(ctx, mean, std):
        return _sample(mean, std)

    @staticmethod
    def backward(ctx, grad):
        xp = namespace(grad)
        return xp.zeros_like(grad), xp.zeros_like(grad)


class NormalMean(ArrayFunction):
    """``normal(mean_tensor, std_number)``."""

    node_name = "NormalBackward1"
    n_params = 1

    @staticmethod
    def forward(ctx, mean, std):
        return _sample(mean, std)

    @staticmethod
    def backward(ctx, grad):
        return namespace(grad).zeros_like(grad)


class NormalStd(ArrayFunction):
    """``normal(mean_number, std_tensor)``."""

    node_name = "NormalBackward2"
    n_params = 1

    @staticmethod
    def forward(ctx, std, mean):
        return _sample(mean, std)

    @staticmethod
    def backward(ctx, grad):
        return namespace(grad).zeros_like(grad)
