"""``nn.Embedding`` and ``F.one_hot`` where PyTorch is not the oracle (parity snippets cover the
rest, in ``parity_nn_embed.py``): the ``sparse=True`` refusal, and a makemore-style model."""

from __future__ import annotations

import pytest

import minigrad
from minigrad import nn

F = nn.functional


def test_sparse_gradients_are_refused_with_the_alternative() -> None:
    e = nn.Embedding(4, 2, sparse=True)
    assert repr(e) == "Embedding(4, 2, sparse=True)"  # made as in PyTorch; refused when used
    with pytest.raises(NotImplementedError, match="use sparse=False"):
        e(minigrad.tensor([1, 2]))
    with pytest.raises(NotImplementedError, match="no sparse tensors"):
        F.embedding(minigrad.tensor([1]), minigrad.ones(3, 2), sparse=True)


def test_a_makemore_model_trains_and_the_padding_row_stays() -> None:
    minigrad.manual_seed(0)
    model = nn.Sequential(nn.Embedding(27, 4, padding_idx=0), nn.Flatten(), nn.Linear(12, 27))
    opt = minigrad.optim.SGD(model.parameters(), lr=0.5)
    x = minigrad.tensor([[0, 5, 13], [5, 13, 13], [13, 13, 1], [0, 0, 5]])
    y = minigrad.tensor([13, 13, 0, 13])
    losses = []
    for _ in range(30):
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    assert losses[-1] < losses[0] / 4
    table = model[0].weight
    assert table[0].tolist() == [0.0] * 4 and table.grad[0].tolist() == [0.0] * 4
    state = model.state_dict()
    assert list(state)[0] == "0.weight"
    again = nn.Sequential(nn.Embedding(27, 4, padding_idx=0), nn.Flatten(), nn.Linear(12, 27))
    again.load_state_dict(state)
    assert again(x).tolist() == model(x).tolist()


def test_one_hot_feeds_a_layer_as_in_makemore() -> None:
    xs = minigrad.tensor([0, 5, 13])
    W = minigrad.randn((27, 27), requires_grad=True)
    logits = F.one_hot(xs, num_classes=27).float() @ W
    assert logits.tolist() == W[xs].tolist()


@pytest.mark.parametrize("mode", ["reflect", "replicate", "circular"])
def test_pad_modes_other_than_constant_say_what_works(mode) -> None:
    x = minigrad.ones(2, 3)
    with pytest.raises(NotImplementedError, match='mode="constant" only'):
        F.pad(x, (1, 1), mode=mode)
    with pytest.raises(NotImplementedError, match='mode="constant" only'):
        F.pad(x, (1, 1), mode=mode, value=0.0)  # a zero value is allowed, as in PyTorch
