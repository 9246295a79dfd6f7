"""Property tests for ``F.embedding``, ``unflatten``, ``normalize`` and ``cosine_similarity``
and ``pad``.

The plain lookup is checked against central finite differences; ``padding_idx`` and
``scale_grad_by_freq`` change the gradient on purpose (it is no longer the derivative), so
they are checked against the plain lookup's gradient with the padding row zeroed and each row
divided by how often it was read. Second derivatives through ``EmbeddingDenseBackward`` are
checked with ``gradgradcheck``.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from test_gradients_property import (
    NONEMPTY,
    SETTINGS,
    away_from,
    check_gradients,
    upstream,
    values,
)

import minigrad

F = minigrad.nn.functional


@st.composite
def lookups(draw):
    """A table shape (rows, width) and an index array of 0-3 dims into its rows (repeats)."""
    rows, width = draw(st.integers(1, 5)), draw(st.integers(1, 3))
    shape = tuple(draw(st.lists(st.integers(1, 3), max_size=3)))
    n = int(np.prod(shape))
    flat = draw(st.lists(st.integers(0, rows - 1), min_size=n, max_size=n))
    dtype = draw(st.sampled_from([np.int64, np.int32]))
    return (rows, width), np.array(flat, dtype=dtype).reshape(shape)


@SETTINGS
@given(data=st.data(), lookup=lookups())
def test_embedding_against_finite_differences(data, lookup) -> None:
    (rows, width), idx = lookup
    table = data.draw(values((rows, width)))
    check_gradients(lambda w: F.embedding(minigrad.tensor(idx), w), table)


@SETTINGS
@given(data=st.data(), lookup=lookups(), scale=st.booleans(), pad=st.booleans())
def test_embedding_padding_and_frequency(data, lookup, scale, pad) -> None:
    (rows, width), idx = lookup
    padding_idx = data.draw(st.integers(-rows, rows - 1)) if pad else None
    w = minigrad.tensor(data.draw(values((rows, width))), requires_grad=True)
    out = F.embedding(minigrad.tensor(idx), w, padding_idx, scale_grad_by_freq=scale)
    g = upstream(out.shape)
    (out * minigrad.tensor(g)).sum().backward()
    expected = np.zeros((rows, width))
    np.add.at(expected, idx.reshape(-1), g.reshape(-1, width))
    if scale:
        counts = np.bincount(idx.reshape(-1), minlength=rows)
        expected /= np.maximum(counts, 1).reshape(-1, 1)
    if padding_idx is not None:
        expected[padding_idx] = 0
    np.testing.assert_allclose(out.detach().numpy(), w.detach().numpy()[idx])
    np.testing.assert_allclose(w.grad.numpy(), expected, rtol=1e-6, atol=1e-7)


def test_embedding_second_derivatives() -> None:
    idx = minigrad.tensor([[0, 2], [2, 1]])
    w = minigrad.tensor([[1.0, -2.0], [3.0, 0.5], [0.25, 2.0]], dtype=minigrad.float64)
    w.requires_grad_()
    for kwargs in ({}, {"padding_idx": 1}):
        f = lambda t, kw=kwargs: F.embedding(idx, t, **kw) ** 3  # noqa: E731
        assert minigrad.autograd.gradgradcheck(f, (w,))


def test_embedding_second_derivative_ignores_the_frequency_as_pytorch() -> None:
    """PyTorch's ``embedding_dense_double_backward`` reads the rows back unscaled ("the first
    backward takes care of scaling by frequency"): not the derivative of the scaled gradient,
    so no gradgradcheck, but the same values as PyTorch's (parity snippets)."""
    w = minigrad.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    y = F.embedding(minigrad.tensor([0, 0, 1]), w, scale_grad_by_freq=True)
    gy = minigrad.ones(3, 2, requires_grad=True)
    (g,) = minigrad.autograd.grad(y, w, gy, create_graph=True)
    assert g.tolist() == [[1.0, 1.0], [1.0, 1.0]]
    (h,) = minigrad.autograd.grad(g.sum(), gy)
    assert h.tolist() == [[1.0, 1.0]] * 3


@SETTINGS
@given(data=st.data(), shape=NONEMPTY)
def test_unflatten(data, shape) -> None:
    """A view: its gradient is the output's, viewed back (ViewBackward0)."""
    dim = data.draw(st.integers(-len(shape), len(shape) - 1))
    n = shape[dim]
    sizes = data.draw(st.sampled_from([(n,), (1, n, 1), (-1, 1), (1, -1)]))
    x = data.draw(values(shape))
    check_gradients(lambda t: t.unflatten(dim, sizes), x)
    check_gradients(lambda t: minigrad.nn.Unflatten(dim, sizes)(t * t), x)


@SETTINGS
@given(data=st.data(), shape=NONEMPTY, p=st.sampled_from([1.0, 2.0, 3.0]))
def test_normalize_and_cosine_similarity(data, shape, p) -> None:
    """Away from 0, where the norms have their kinks (and the eps clamps)."""
    dim = data.draw(st.integers(-len(shape), len(shape) - 1))
    x = data.draw(hnp.arrays(np.float64, shape, elements=away_from(-2, 2, 0.0, margin=0.1)))
    y = data.draw(hnp.arrays(np.float64, shape, elements=away_from(-2, 2, 0.0, margin=0.1)))
    check_gradients(lambda t: F.normalize(t, p, dim), x)
    check_gradients(lambda a, b: F.cosine_similarity(a, b, dim), x, y)
    check_gradients(lambda a, b: F.cosine_similarity(a, b[..., :1], dim), x, y)


def test_normalize_second_derivatives() -> None:
    x = minigrad.tensor([[1.0, -2.0], [3.0, 0.5]], dtype=minigrad.float64, requires_grad=True)
    assert minigrad.autograd.gradgradcheck(lambda t: F.normalize(t), (x,))
    assert minigrad.autograd.gradgradcheck(lambda t: F.cosine_similarity(t, t.flip(0)), (x,))


@SETTINGS
@given(data=st.data(), shape=NONEMPTY)
def test_pad(data, shape) -> None:
    """Positive pads add a border (no gradient), negative ones crop (no gradient there either)."""
    n = data.draw(st.integers(1, len(shape)))
    pads = [data.draw(st.integers(-1, 2)) for _ in range(2 * n)]
    for k in range(n):  # never crop a dimension away entirely
        size = shape[len(shape) - 1 - k]
        if size + min(pads[2 * k], 0) + min(pads[2 * k + 1], 0) < 1:
            pads[2 * k], pads[2 * k + 1] = max(pads[2 * k], 0), max(pads[2 * k + 1], 0)
    check_gradients(lambda t: F.pad(t, pads, value=0.5), data.draw(values(shape)))


def test_pad_second_derivatives() -> None:
    x = minigrad.tensor([[1.0, -2.0], [3.0, 0.5]], dtype=minigrad.float64, requires_grad=True)
    assert minigrad.autograd.gradgradcheck(lambda t: F.pad(t, (1, -1, 0, 2)) ** 2, (x,))
