"""PyTorch's tutorials "Automatic Differentiation with torch.autograd" and "A Gentle Introduction
to torch.autograd": grad_fn, backward with a gradient, accumulation, no_grad, detach, frozen
parameters.

Written for minigrad's tests; run with PyTorch and through as_minigrad.py, it must print the
same (tests/test_real_programs.py)."""

import torch

x = torch.ones(5)
y = torch.zeros(3)
w = torch.tensor(
    [[0.1, -0.2, 0.3], [0.4, 0.5, -0.6], [0.7, -0.8, 0.9], [-1.0, 1.1, 1.2], [0.13, 0.14, -0.15]],
    requires_grad=True,
)
b = torch.tensor([0.3, -0.1, 0.2], requires_grad=True)
z = torch.matmul(x, w) + b
loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y)
print(f"Gradient function for z = {z.grad_fn}".split(" object")[0])
print(f"Gradient function for loss = {loss.grad_fn}".split(" object")[0])
loss.backward()
print(w.grad)
print(b.grad)
z = torch.matmul(x, w) + b
print(z.requires_grad)
with torch.no_grad():
    z = torch.matmul(x, w) + b
print(z.requires_grad)
z = torch.matmul(x, w) + b
z_det = z.detach()
print(z_det.requires_grad)
inp = torch.eye(4, 5, requires_grad=True)
out = (inp + 1).pow(2).t()
out.backward(torch.ones_like(out), retain_graph=True)
print(f"First call\n{inp.grad}")
out.backward(torch.ones_like(out), retain_graph=True)
print(f"\nSecond call\n{inp.grad}")
inp.grad.zero_()
out.backward(torch.ones_like(out), retain_graph=True)
print(f"\nCall after zeroing gradients\n{inp.grad}")
a = torch.tensor([2.0, 3.0], requires_grad=True)
b = torch.tensor([6.0, 4.0], requires_grad=True)
Q = 3 * a**3 - b**2
external_grad = torch.tensor([1.0, 1.0])
Q.backward(gradient=external_grad)
print(9 * a**2 == a.grad)
print(-2 * b == b.grad)
x = torch.rand(5, 5)
y = torch.rand(5, 5)
z = torch.rand((5, 5), requires_grad=True)
a = x + y
print(f"Does `a` require gradients?: {a.requires_grad}")
b = x + z
print(f"Does `b` require gradients?: {b.requires_grad}")
model = torch.nn.Linear(3, 2)
for param in model.parameters():
    param.requires_grad = False
model2 = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU(), torch.nn.Linear(4, 2))
model2[2] = torch.nn.Linear(4, 10)
params = [n for n, p in model2.named_parameters() if p.requires_grad]
print(params)
optimizer = torch.optim.SGD(model2.parameters(), lr=1e-2, momentum=0.9)
print(optimizer)
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 2
while y.data.norm() < 1000:
    y = y * 2
print(y)
v = torch.tensor([0.1, 1.0, 0.0001], dtype=torch.float)
y.backward(v)
print(x.grad)
print(x.requires_grad)
print((x**2).requires_grad)
with torch.no_grad():
    print((x**2).requires_grad)
print(x.requires_grad)
y = x.detach()
print(y.requires_grad)
print(x.eq(y).all())
