"""PyTorch's tutorial "Tensors" (Learn the Basics), step by step: creation, attributes, indexing,
joining, arithmetic with out=, the numpy bridge.

Written for minigrad's tests; run with PyTorch and through as_minigrad.py, it must print the
same (tests/test_real_programs.py)."""

import numpy as np
import torch

data = [[1, 2], [3, 4]]
x_data = torch.tensor(data)
np_array = np.array(data)
x_np = torch.from_numpy(np_array)
x_ones = torch.ones_like(x_data)
print(f"Ones Tensor: \n {x_ones} \n")
x_rand = torch.rand_like(x_data, dtype=torch.float)
print(x_rand.shape, x_rand.dtype)
shape = (
    2,
    3,
)
print(torch.ones(shape), torch.zeros(shape), torch.rand(shape).shape)
tensor = torch.rand(3, 4)
print(f"Shape of tensor: {tensor.shape}")
print(f"Datatype of tensor: {tensor.dtype}")
print(f"Device tensor is stored on: {tensor.device}")
if torch.cuda.is_available():
    tensor = tensor.to("cuda")
if torch.accelerator.is_available():
    tensor = tensor.to(torch.accelerator.current_accelerator())
tensor = torch.ones(4, 4)
print(f"First row: {tensor[0]}")
print(f"First column: {tensor[:, 0]}")
print(f"Last column: {tensor[..., -1]}")
tensor[:, 1] = 0
print(tensor)
t1 = torch.cat([tensor, tensor, tensor], dim=1)
print(t1)
y1 = tensor @ tensor.T
y2 = tensor.matmul(tensor.T)
y3 = torch.rand_like(y1)
torch.matmul(tensor, tensor.T, out=y3)
print(y1, y2, y3)
z1 = tensor * tensor
z2 = tensor.mul(tensor)
z3 = torch.rand_like(tensor)
torch.mul(tensor, tensor, out=z3)
print(z3)
agg = tensor.sum()
agg_item = agg.item()
print(agg_item, type(agg_item))
print(f"{tensor} \n")
tensor.add_(5)
print(tensor)
t = torch.ones(5)
print(f"t: {t}")
n = t.numpy()
print(f"n: {n}")
t.add_(1)
print(f"t: {t}")
print(f"n: {n}")
n = np.ones(5)
t = torch.from_numpy(n)
np.add(n, 1, out=n)
print(f"t: {t}")
print(f"n: {n}")
print(
    torch.stack([t, t]).shape,
    torch.tensor(3.5).item(),
    x_np.dtype,
    torch.is_tensor(t),
    t.ndim,
    t.size(),
    t.numel(),
)
print(
    torch.arange(12).reshape(3, 4)[1:, ::2],
    torch.zeros(2, 3, dtype=torch.int32),
    torch.eye(3),
    torch.full((2, 2), 7),
)
