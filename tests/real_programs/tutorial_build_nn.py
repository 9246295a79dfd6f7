"""PyTorch's tutorial "Build the Neural Network": nn.Module, Flatten, Linear, ReLU, Softmax,
named_parameters (fixed weights instead of random ones).

Written for minigrad's tests; run with PyTorch and through as_minigrad.py, it must print the
same (tests/test_real_programs.py)."""

import numpy as np
import torch
from torch import nn

device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
print(f"Using {device} device")


class NeuralNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.linear_relu_stack = nn.Sequential(
            nn.Linear(28 * 28, 512),
            nn.ReLU(),
            nn.Linear(512, 512),
            nn.ReLU(),
            nn.Linear(512, 10),
        )

    def forward(self, x):
        x = self.flatten(x)
        logits = self.linear_relu_stack(x)
        return logits


model = NeuralNetwork().to(device)
print(model)
rng = np.random.default_rng(0)
with torch.no_grad():
    for p in model.parameters():
        p.copy_(torch.tensor(rng.normal(0, 0.05, tuple(p.shape)), dtype=torch.float32))
X = torch.tensor(rng.random((1, 28, 28)), dtype=torch.float32, device=device)
logits = model(X)
pred_probab = nn.Softmax(dim=1)(logits)
y_pred = pred_probab.argmax(1)
print(f"Predicted class: {y_pred}")
input_image = torch.tensor(rng.random((3, 28, 28)), dtype=torch.float32)
print(input_image.size())
flatten = nn.Flatten()
flat_image = flatten(input_image)
print(flat_image.size())
layer1 = nn.Linear(in_features=28 * 28, out_features=20)
with torch.no_grad():
    layer1.weight.copy_(torch.tensor(rng.normal(0, 0.05, (20, 784)), dtype=torch.float32))
    layer1.bias.zero_()
hidden1 = layer1(flat_image)
print(hidden1.size())
print(f"Before ReLU: {hidden1}\n\n")
hidden1 = nn.ReLU()(hidden1)
print(f"After ReLU: {hidden1}")
seq_modules = nn.Sequential(flatten, layer1, nn.ReLU(), nn.Linear(20, 10))
with torch.no_grad():
    seq_modules[3].weight.fill_(0.01)
    seq_modules[3].bias.fill_(0.02)
input_image = torch.tensor(rng.random((3, 28, 28)), dtype=torch.float32)
logits = seq_modules(input_image)
softmax = nn.Softmax(dim=1)
pred_probab = softmax(logits)
print(pred_probab)
print(f"Model structure: {model}\n\n")
for name, param in model.named_parameters():
    print(f"Layer: {name} | Size: {param.size()} | Values : {param[:2]} \n")
