"""PyTorch's tutorials "Optimizing Model Parameters" and "Save and Load the Model" on random data
instead of FashionMNIST: train and test loops over DataLoaders, CrossEntropyLoss, SGD, a saved
and reloaded state_dict, a StepLR schedule, Adam.

Written for minigrad's tests; run with PyTorch and through as_minigrad.py, it must print the
same (tests/test_real_programs.py)."""

import os
import tempfile

import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

rng = np.random.default_rng(0)
X_all = torch.tensor(rng.random((300, 1, 8, 8)), dtype=torch.float32)
y_all = torch.tensor(rng.integers(0, 10, 300))
training_data = TensorDataset(X_all[:200], y_all[:200])
test_data = TensorDataset(X_all[200:], y_all[200:])
train_dataloader = DataLoader(training_data, batch_size=64)
test_dataloader = DataLoader(test_data, batch_size=64)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"


class NeuralNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.linear_relu_stack = nn.Sequential(
            nn.Linear(8 * 8, 32),
            nn.ReLU(),
            nn.Linear(32, 32),
            nn.ReLU(),
            nn.Linear(32, 10),
        )

    def forward(self, x):
        x = self.flatten(x)
        logits = self.linear_relu_stack(x)
        return logits


model = NeuralNetwork().to(device)
with torch.no_grad():
    for p in model.parameters():
        p.copy_(torch.tensor(rng.normal(0, 0.2, tuple(p.shape)), dtype=torch.float32))
learning_rate = 1e-1
batch_size = 64
epochs = 3
loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=learning_rate)


def train_loop(dataloader, model, loss_fn, optimizer):
    size = len(dataloader.dataset)
    model.train()
    for batch, (X, y) in enumerate(dataloader):
        pred = model(X)
        loss = loss_fn(pred, y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        if batch % 2 == 0:
            loss, current = loss.item(), batch * batch_size + len(X)
            print(f"loss: {loss:>7f}  [{current:>5d}/{size:>5d}]")


def test_loop(dataloader, model, loss_fn):
    model.eval()
    size = len(dataloader.dataset)
    num_batches = len(dataloader)
    test_loss, correct = 0, 0
    with torch.no_grad():
        for X, y in dataloader:
            pred = model(X)
            test_loss += loss_fn(pred, y).item()
            correct += (pred.argmax(1) == y).type(torch.float).sum().item()
    test_loss /= num_batches
    correct /= size
    print(f"Test Error: \n Accuracy: {(100 * correct):>0.1f}%, Avg loss: {test_loss:>8f} \n")


for t in range(epochs):
    print(f"Epoch {t + 1}\n-------------------------------")
    train_loop(train_dataloader, model, loss_fn, optimizer)
    test_loop(test_dataloader, model, loss_fn)
print("Done!")
model2 = NeuralNetwork()
with tempfile.TemporaryDirectory() as folder:
    path = os.path.join(folder, "model.pth")
    torch.save(model.state_dict(), path)
    model2.load_state_dict(torch.load(path, weights_only=True))
print(model2.eval())
print(list(model2.state_dict().keys()), model2.state_dict()["linear_relu_stack.0.bias"][:3])
x = X_all[:2]
print(torch.equal(model(x), model2(x)), model2(x).argmax(1), x.type(), x.type(torch.int64).dtype)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=1, gamma=0.5)
for t in range(3):
    train_loop(train_dataloader, model, loss_fn, optimizer)
    scheduler.step()
    print(scheduler.get_last_lr(), optimizer.param_groups[0]["lr"])
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
train_loop(train_dataloader, model, loss_fn, opt)
print(opt.state_dict()["param_groups"])
