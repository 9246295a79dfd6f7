"""Lesson 5 end to end: train a two-layer model, save its state_dict, load it elsewhere.

The model is saved the recommended way, ``minigrad.save(model.state_dict(), path)``,
then loaded into a fresh minigrad model and into real PyTorch (through
``safetensors.torch.load_file`` + ``load_state_dict``), which must give the same
outputs; PyTorch's file comes back into minigrad the same way. A pickle file, the
format of ``torch.save``, is refused without running any of its code.
"""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from conftest import require_module

import minigrad as mg
import minigrad.nn as nn
from minigrad.serialization import UnsafeOrCorruptFileError


class TwoLayerNet(nn.Module):
    """The lesson's model: 2 inputs, a hidden layer of 16, 2 classes."""

    def __init__(self) -> None:
        super().__init__()
        self.fc1 = nn.Linear(2, 16)
        self.fc2 = nn.Linear(16, 2)

    def forward(self, x):
        return self.fc2(mg.relu(self.fc1(x)))


def torch_twin(torch):
    """The same architecture written in PyTorch, as a learner would write it."""

    class TorchTwoLayerNet(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.fc1 = torch.nn.Linear(2, 16)
            self.fc2 = torch.nn.Linear(16, 2)

        def forward(self, x):
            return self.fc2(torch.relu(self.fc1(x)))

    return TorchTwoLayerNet()


def dataset(n: int = 200, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Two noisy interleaved half circles ("moons"): not linearly separable."""
    rng = np.random.default_rng(seed)
    angle = rng.uniform(0, np.pi, n)
    label = rng.integers(0, 2, n)
    x = np.where(label == 0, np.cos(angle), 1 - np.cos(angle))
    y = np.where(label == 0, np.sin(angle), 0.5 - np.sin(angle))
    points = np.stack([x, y], 1) + rng.normal(0, 0.1, (n, 2))
    return points.astype(np.float32), label.astype(np.int64)


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    """Train once; save the state_dict the recommended way."""
    mg.manual_seed(0)
    points, labels = dataset()
    x, y = mg.tensor(points), mg.tensor(labels)
    model = TwoLayerNet()
    optimizer = mg.optim.Adam(model.parameters(), lr=0.05)
    loss_fn = nn.CrossEntropyLoss()
    losses = []
    for _ in range(150):
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    path = tmp_path_factory.mktemp("lesson5") / "model.safetensors"
    mg.save(model.state_dict(), path)
    return model, path, losses, points, labels


def test_the_model_learns(trained):
    model, _, losses, points, labels = trained
    assert losses[-1] < 0.3 * losses[0]
    with mg.no_grad():
        predicted = model(mg.tensor(points)).argmax(1).numpy()
    assert (predicted == labels).mean() > 0.95


def test_load_into_a_fresh_model_gives_the_same_outputs(trained):
    model, path, _, points, _ = trained
    mg.manual_seed(123)
    fresh = TwoLayerNet()
    x = mg.tensor(points)
    assert not mg.equal(fresh(x), model(x))
    state = mg.load(path)
    assert list(state) == ["fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias"]
    assert repr(fresh.load_state_dict(state)) == "<All keys matched successfully>"
    assert mg.equal(fresh(x), model(x))
    assert all(type(p) is nn.Parameter and p.requires_grad for p in fresh.parameters())


def test_loading_into_the_wrong_model_explains_why(trained):
    _, path, _, _, _ = trained
    wider = nn.Sequential(nn.Linear(2, 32), nn.ReLU(), nn.Linear(32, 2))
    with pytest.raises(RuntimeError) as info:
        wider.load_state_dict(mg.load(path))
    assert str(info.value).startswith(
        "Error(s) in loading state_dict for Sequential:\n\tMissing key(s) in state_dict: "
        '"0.weight", "0.bias", "2.weight", "2.bias". \n\tUnexpected key(s) in state_dict: '
        '"fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias". '
    )


def test_checkpoint_with_optimizer_resumes_training(trained, tmp_path):
    _, path, _, points, labels = trained
    x, y = mg.tensor(points), mg.tensor(labels)

    def train(model, optimizer, steps):
        for _ in range(steps):
            optimizer.zero_grad()
            nn.functional.cross_entropy(model(x), y).backward()
            optimizer.step()

    model = TwoLayerNet()
    model.load_state_dict(mg.load(path))
    optimizer = mg.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    train(model, optimizer, 5)
    checkpoint = tmp_path / "checkpoint.safetensors"
    mg.save(
        {"model": model.state_dict(), "optimizer": optimizer.state_dict(), "epoch": 5}, checkpoint
    )
    train(model, optimizer, 5)

    restored = mg.load(checkpoint)
    resumed = TwoLayerNet()
    resumed.load_state_dict(restored["model"])
    resumed_optimizer = mg.optim.SGD(resumed.parameters(), lr=0.1, momentum=0.9)
    resumed_optimizer.load_state_dict(restored["optimizer"])
    assert restored["epoch"] == 5
    train(resumed, resumed_optimizer, 5)
    assert mg.equal(resumed(x), model(x))


def test_a_pickle_file_is_refused_without_running_it(tmp_path):
    """torch.save writes pickles; unpickling can run any code. minigrad.load never unpickles."""
    marker = tmp_path / "pwned"

    class Payload:
        def __reduce__(self):
            return (open, (str(marker), "w"))

    path = tmp_path / "model.pt"
    path.write_bytes(pickle.dumps({"fc1.weight": Payload()}))
    with pytest.raises(UnsafeOrCorruptFileError):
        mg.load(path)
    assert not marker.exists()


@pytest.mark.parity
def test_minigrad_file_loads_into_pytorch_and_back(trained, tmp_path, torch):
    safetensors_torch = require_module("safetensors.torch")
    model, path, _, points, _ = trained
    expected = model(mg.tensor(points)).detach().numpy()

    # minigrad -> file -> PyTorch
    state = safetensors_torch.load_file(str(path))
    twin = torch_twin(torch)
    assert str(twin.load_state_dict(state)) == "<All keys matched successfully>"
    with torch.no_grad():
        theirs = twin(torch.tensor(points)).numpy()
    np.testing.assert_allclose(theirs, expected, rtol=1e-5, atol=1e-6)

    # PyTorch trains on a little, saves with safetensors -> file -> minigrad
    optimizer = torch.optim.SGD(twin.parameters(), lr=0.1)
    loss = torch.nn.functional.cross_entropy(twin(torch.tensor(points)), torch.tensor(dataset()[1]))
    loss.backward()
    optimizer.step()
    back = tmp_path / "from_torch.safetensors"
    safetensors_torch.save_file(twin.state_dict(), str(back))
    fresh = TwoLayerNet()
    assert repr(fresh.load_state_dict(mg.load(back))) == "<All keys matched successfully>"
    with torch.no_grad():
        theirs = twin(torch.tensor(points)).numpy()
    ours = fresh(mg.tensor(points)).detach().numpy()
    np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-6)
    assert not np.allclose(ours, expected)  # it really is PyTorch's updated model


@pytest.mark.parity
def test_pytorch_reads_the_same_names_and_dtypes(trained, torch):
    safetensors_torch = require_module("safetensors.torch")
    model, path, _, _, _ = trained
    state = safetensors_torch.load_file(str(path))
    assert list(state) == list(torch_twin(torch).state_dict())
    for key, value in model.state_dict().items():
        assert state[key].dtype == torch.float32
        np.testing.assert_array_equal(state[key].numpy(), value.numpy())
