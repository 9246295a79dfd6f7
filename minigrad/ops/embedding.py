"""``embedding``: the rows of a table picked by integer indices, and the ops of its gradients.

An embedding is how a language model turns tokens into vectors (makemore's ``C[X]``): the
forward pass only reads rows, so the gradient of the table is the output's gradient added back
into the rows that were read; a row read twice gets both contributions, a row never read gets
zero. PyTorch names the node ``EmbeddingBackward0`` (not ``IndexBackward0`` as ``C[X]``) and
gives it two options a plain index has not: ``padding_idx`` (that row gets no gradient) and
``scale_grad_by_freq`` (each row's gradient divided by how often it was read).

The gradient is itself an op (``EmbeddingDenseBackward``, PyTorch's
``EmbeddingDenseBackwardBackward0``), so that ``create_graph`` can differentiate it again: its
own gradient reads the rows back (``IndexSelectBackward0``) and views them in the indices'
shape, as PyTorch's ``embedding_dense_double_backward``.
"""

from __future__ import annotations

import numpy as np

from ..autograd.function import ArrayFunction
from ._common import _type_string
from .arithmetic import MaskedFill as ZeroWhere
from .indexing import _add_rows
from .logsumexp import as_unsigned
from .namespace import namespace

__all__ = ["Embedding", "EmbeddingDenseBackward", "IndexSelect", "IndexAdd", "check_indices"]


def check_indices(indices: np.ndarray, position: int, op: str) -> None:
    """PyTorch's ``checkScalarTypes``: indices are int64 or int32."""
    if indices.dtype not in (np.int64, np.int32):
        raise RuntimeError(
            f"Expected tensor for argument #{position} 'indices' to have one of the following "
            f"scalar types: Long, Int; but got {_type_string(indices.dtype)} instead (while "
            f"checking arguments for {op})"
        )


def _rows(indices: np.ndarray, weight: np.ndarray) -> np.ndarray:
    """The indices as one flat int64 vector; PyTorch's ``index_select`` errors if one is out of
    range (a negative index too: an embedding does not count from the end), worded otherwise
    for a table with no rows or no columns."""
    n = weight.shape[0]
    rows = indices.reshape(-1).astype(np.int64, copy=False)
    if rows.size and n == 0:
        raise RuntimeError("index_select(): self indexing axis dim should be positive")
    if rows.size and (rows.min() < 0 or rows.max() >= n):
        if weight.size == 0:
            bad = rows[(rows < 0) | (rows >= n)][0]
            raise RuntimeError(f"INDICES element is out of DATA bounds, id={bad} axis_dim={n}")
        raise IndexError("index out of range in self")
    return rows


class Embedding(ArrayFunction):
    """``weight[indices]``: one row of ``weight`` per index, in the indices' shape.

    PyTorch keeps the indices, the number of rows and the options (``_saved_indices``,
    ``_saved_weight_sym_argsize_0``, ``_saved_padding_idx``: -1 for none, read as uint64).
    """

    node_name = "EmbeddingBackward0"
    saved_names = ("indices",)
    saved_settings = {
        "weight_sym_argsize_0": "num_weights",
        "padding_idx": "saved_padding_idx",
        "scale_grad_by_freq": "scale_grad_by_freq",
        "sparse": "sparse",
    }
    n_params = 3

    @staticmethod
    def forward(ctx, weight, indices, padding_idx, scale_grad_by_freq):
        if weight.ndim != 2:
            raise RuntimeError("'weight' must be 2-D")
        check_indices(indices, 1, "embedding")
        rows = _rows(indices, weight)
        ctx.indices, ctx.num_weights, ctx.padding_idx = indices, weight.shape[0], padding_idx
        ctx.saved_padding_idx, ctx.scale_grad_by_freq, ctx.sparse = (
            as_unsigned(padding_idx),
            scale_grad_by_freq,
            False,
        )
        ctx.save_for_backward(indices)  # PyTorch saves them: a second backward raises
        return weight.take(rows, 0).reshape(indices.shape + weight.shape[1:])

    @staticmethod
    def backward(ctx, grad):
        ctx.saved_tensors  # noqa: B018 - on a freed graph: PyTorch's error
        return EmbeddingDenseBackward.call(
            grad, ctx.indices, ctx.num_weights, ctx.padding_idx, ctx.scale_grad_by_freq
        )


class EmbeddingDenseBackward(ArrayFunction):
    """The table's gradient: each row of ``grad`` added into the row its index names.

    Added in the order of the indices, as PyTorch's CPU loop adds them (so float32 sums agree);
    the ``padding_idx`` row is skipped, and with ``scale_grad_by_freq`` each contribution is
    divided by how many times its row was read.
    """

    node_name = "EmbeddingDenseBackwardBackward0"
    saved_names = ("indices",)
    saved_settings = {"padding_idx": "saved_padding_idx"}
    n_params = 4

    @staticmethod
    def forward(ctx, grad, indices, num_weights, padding_idx, scale_grad_by_freq):
        ctx.indices, ctx.padding_idx = indices, padding_idx
        ctx.saved_padding_idx = as_unsigned(padding_idx)
        ctx.save_for_backward(indices)
        rows = indices.reshape(-1).astype(np.int64, copy=False)
        width = grad.shape[-1] if grad.ndim else 1
        contributions = np.ascontiguousarray(grad).reshape(rows.size, width)
        if scale_grad_by_freq:
            counts = np.bincount(rows, minlength=num_weights)[rows]
            scale = (1.0 / counts).astype(grad.dtype).reshape(-1, 1)  # add(alpha=1/count)
            contributions = contributions * scale
        if padding_idx >= 0:
            keep = rows != padding_idx
            rows, contributions = rows[keep], contributions[keep]
        return _add_rows(np.zeros((num_weights, width), grad.dtype), contributions, rows)

    @staticmethod
    def backward(ctx, gg):
        """PyTorch's ``embedding_dense_double_backward``: the rows read back, the padding row's
        zeroed, viewed in the indices' shape."""
        ctx.saved_tensors  # noqa: B018
        rows = ctx.indices.reshape(-1).astype(np.int64, copy=False)
        picked = IndexSelect.call(gg, rows)
        if ctx.padding_idx >= 0:
            picked = ZeroWhere.call(picked, (rows == ctx.padding_idx).reshape(-1, 1))
        return namespace(gg).reshape(picked, ctx.indices.shape + (-1,))


class IndexSelect(ArrayFunction):
    """``a.index_select(0, index)``: the rows of ``a`` named by ``index`` (a copy)."""

    node_name = "IndexSelectBackward0"
    saved_names = ("index",)
    saved_settings = {"dim": "dim", "self_sym_sizes": "shape"}
    n_params = 1

    @staticmethod
    def forward(ctx, a, index):
        ctx.dim, ctx.index, ctx.shape = 0, index, a.shape
        ctx.save_for_backward(index)
        return a.take(index, 0)

    @staticmethod
    def backward(ctx, grad):
        """``grad.new_zeros(shape).index_add_(0, index, grad)``, as PyTorch's."""
        ctx.saved_tensors  # noqa: B018
        zeros = np.zeros(ctx.shape, namespace(grad).dtype(grad))
        return IndexAdd.call(zeros, grad, ctx.index)


class IndexAdd(ArrayFunction):
    """``zeros.index_add_(0, index, source)``: rows of ``source`` added where ``index`` points.

    The zeros are a constant (no edge); ``source``'s gradient is the same rows read back.
    """

    node_name = "IndexAddBackward0"
    saved_names = ("index",)
    saved_settings = {"dim": "dim", "alpha": "alpha"}
    grad_position = 1
    n_params = 1

    @staticmethod
    def forward(ctx, zeros, source, index):
        ctx.dim, ctx.alpha, ctx.index = 0, 1, index
        ctx.save_for_backward(index)
        return _add_rows(zeros, source, index)

    @staticmethod
    def backward(ctx, gg):
        ctx.saved_tensors  # noqa: B018
        return None, IndexSelect.call(gg, ctx.index)
