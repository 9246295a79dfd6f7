"""micrograd's own test against PyTorch: scalar expressions with relu, powers and division, then
backward.

Written for minigrad's tests; run with PyTorch and through as_minigrad.py, it must print the
same (tests/test_real_programs.py)."""

import torch

x = torch.Tensor([-4.0]).double()
x.requires_grad = True
z = 2 * x + 2 + x
q = z.relu() + z * x
h = (z * z).relu()
y = h + q + q * x
y.backward()
print(y.data.item(), x.grad.item(), y, x.grad)
a = torch.Tensor([-4.0]).double()
b = torch.Tensor([2.0]).double()
a.requires_grad = True
b.requires_grad = True
c = a + b
d = a * b + b**3
c = c + c + 1
c = c + 1 + c + (-a)
d = d + d * 2 + (b + a).relu()
d = d + 3 * d + (b - a).relu()
e = c - d
f = e**2
g = f / 2.0
g = g + 10.0 / f
g.backward()
print(g.data.item(), a.grad.item(), b.grad.item(), g, g.grad_fn.next_functions)
print(torch.Tensor([1, 2]), torch.Tensor(2, 3).shape, torch.Tensor([[1.5]]).dtype)
