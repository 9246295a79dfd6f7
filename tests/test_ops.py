"""The differentiable operations: values, grad_fn names, broadcasting, dtypes and gradients.

Every op is reached the ways a learner reaches it: as a method, an operator (also reflected,
``2 * x``) and a ``minigrad.`` function. Gradients here are checked against hand-computed values;
``test_gradients_property.py`` checks them all against finite differences.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import numpy as np
import pytest

import minigrad

A = np.array([[0.5, -1.0, 2.0], [1.5, 3.0, -0.25]])
B = np.array([2.0, -0.5, 4.0])


def leaf(values, dtype=minigrad.float64) -> minigrad.Tensor:
    return minigrad.tensor(values, dtype=dtype, requires_grad=True)


def close(t: minigrad.Tensor, expected, rtol=1e-6) -> bool:
    return t.shape == np.shape(expected) and np.allclose(t.detach().numpy(), expected, rtol=rtol)


# -- binary arithmetic -----------------------------------------------------------------------------

BINARY = [
    # name, the ways to call it, numpy's answer, grad_fn name
    (
        "add",
        [lambda a, b: a + b, lambda a, b: a.add(b), lambda a, b: minigrad.add(a, b)],
        np.add,
        "AddBackward0",
    ),
    (
        "sub",
        [
            lambda a, b: a - b,
            lambda a, b: a.sub(b),
            lambda a, b: minigrad.sub(a, b),
            lambda a, b: minigrad.subtract(a, b),
        ],
        np.subtract,
        "SubBackward0",
    ),
    (
        "mul",
        [
            lambda a, b: a * b,
            lambda a, b: a.mul(b),
            lambda a, b: minigrad.mul(a, b),
            lambda a, b: minigrad.multiply(a, b),
        ],
        np.multiply,
        "MulBackward0",
    ),
    (
        "div",
        [
            lambda a, b: a / b,
            lambda a, b: a.div(b),
            lambda a, b: minigrad.div(a, b),
            lambda a, b: minigrad.true_divide(a, b),
            lambda a, b: minigrad.divide(a, b),
        ],
        np.divide,
        "DivBackward0",
    ),
    (
        "maximum",
        [
            lambda a, b: minigrad.maximum(a, b),
            lambda a, b: a.maximum(b),
            lambda a, b: minigrad.max(a, b),
        ],
        np.maximum,
        "MaximumBackward0",
    ),
    (
        "minimum",
        [
            lambda a, b: minigrad.minimum(a, b),
            lambda a, b: a.minimum(b),
            lambda a, b: minigrad.min(a, b),
        ],
        np.minimum,
        "MinimumBackward0",
    ),
]


@pytest.mark.parametrize(("name", "calls", "reference", "node"), BINARY, ids=[b[0] for b in BINARY])
def test_binary_ops_broadcast(name, calls, reference, node) -> None:
    for call in calls:
        a, b = leaf(A), leaf(B)
        out = call(a, b)
        assert close(out, reference(A, B)), name
        assert out.grad_fn.name() == node
        assert out.dtype is minigrad.float64
        out.sum().backward()
        assert a.grad.shape == (2, 3) and b.grad.shape == (3,)


def test_binary_gradients_by_hand() -> None:
    a, b = leaf(A), leaf(B)
    (a * b).sum().backward()
    assert close(a.grad, np.broadcast_to(B, A.shape))
    assert close(b.grad, A.sum(0))
    a, b = leaf(A), leaf(B)
    (a / b).sum().backward()
    assert close(a.grad, np.broadcast_to(1 / B, A.shape))
    assert close(b.grad, (-A / B**2).sum(0))
    a, b = leaf(A), leaf(B)
    (a - b).sum().backward()
    assert close(b.grad, np.full(3, -2.0))


@pytest.mark.parametrize(
    ("expr", "expected", "node"),
    [
        (lambda x: x + 1, A + 1, "AddBackward0"),
        (lambda x: 1 + x, 1 + A, "AddBackward0"),
        (lambda x: x - 1, A - 1, "SubBackward0"),
        (lambda x: 1 - x, 1 - A, "RsubBackward1"),
        (lambda x: minigrad.rsub(x, 1), 1 - A, "RsubBackward1"),
        (lambda x: x * 2, A * 2, "MulBackward0"),
        (lambda x: 2 * x, 2 * A, "MulBackward0"),
        (lambda x: x / 2, A / 2, "DivBackward0"),
        (lambda x: 2 / x, 2 / A, "MulBackward0"),
        (lambda x: x**2, A**2, "PowBackward0"),
        (lambda x: x.pow(3), A**3, "PowBackward0"),
        (
            lambda x: minigrad.pow(x, 0.5),
            np.where(A >= 0, np.abs(A) ** 0.5, np.nan),
            "PowBackward0",
        ),
        (lambda x: 2**x, 2**A, "PowBackward2"),
        (lambda x: x ** minigrad.tensor(2.0, dtype=minigrad.float64), A**2, "PowBackward1"),
        (lambda x: -x, -A, "NegBackward0"),
        (lambda x: x.neg(), -A, "NegBackward0"),
        (lambda x: minigrad.negative(x), -A, "NegBackward0"),
        (lambda x: x * np.float64(3.0), A * 3, "MulBackward0"),
        (lambda x: minigrad.add(x, 1, alpha=2), A + 2, "AddBackward0"),
        (lambda x: minigrad.sub(x, 1, alpha=3), A - 3, "SubBackward0"),
        (lambda x: x % 1, np.mod(A, 1), "RemainderBackward0"),
        (lambda x: x // 2, np.floor_divide(A, 2), "minigrad::autograd::NotImplemented"),
    ],
)
def test_scalar_operands_and_reflected_operators(expr, expected, node) -> None:
    x = leaf(A)
    with np.errstate(invalid="ignore"):
        out = expr(x)
    np.testing.assert_allclose(out.detach().numpy(), expected, rtol=1e-6, equal_nan=True)
    assert out.grad_fn.name() == node
    assert out.dtype is minigrad.float64


def test_pos_and_abs_operators() -> None:
    x = leaf(A)
    assert +x is x
    assert close(abs(x), np.abs(A)) and abs(x).grad_fn.name() == "AbsBackward0"


def test_pow_gradients() -> None:
    x = leaf([1.0, 2.0, 3.0])
    (x**2).sum().backward()
    assert x.grad.tolist() == [2.0, 4.0, 6.0]
    x = leaf([1.0, 2.0])
    (2**x).sum().backward()
    assert close(x.grad, 2 ** np.array([1.0, 2.0]) * np.log(2))
    x, e = leaf([2.0, 3.0]), leaf([2.0, 0.5])
    (x**e).sum().backward()
    assert close(x.grad, [4.0, 0.5 * 3**-0.5])
    assert close(e.grad, [4 * np.log(2), 3**0.5 * np.log(3)])
    x = leaf([0.0, 2.0])
    (x**0).sum().backward()
    assert x.grad.tolist() == [0.0, 0.0]


def test_integer_and_mixed_dtypes() -> None:
    i = minigrad.tensor([1, 2, 3])
    f = minigrad.tensor([0.5, 1.5, 2.5])
    d = minigrad.tensor([0.5, 1.5, 2.5], dtype=minigrad.float64)
    assert (i + 1).dtype is minigrad.int64
    assert (i * 2.5).dtype is minigrad.float32
    assert (i / 2).dtype is minigrad.float32 and (i / 2).tolist() == [0.5, 1.0, 1.5]
    assert (i + f).dtype is minigrad.float32
    assert (i * d).dtype is minigrad.float64 and (f + d).dtype is minigrad.float64
    assert (f * 2.0).dtype is minigrad.float32
    assert (i**2).dtype is minigrad.int64 and (2**i).dtype is minigrad.int64
    assert (i // 2).tolist() == [0, 1, 1] and (i % 2).tolist() == [1, 0, 1]
    assert (minigrad.tensor([True, False]) + 1).tolist() == [2, 1]
    assert i.exp().dtype is minigrad.float32 and i.sigmoid().dtype is minigrad.float32
    assert i.sum().dtype is minigrad.int64 and (i > 1).sum().item() == 2


def test_bool_arithmetic_errors() -> None:
    mask = minigrad.tensor([True, False])
    with pytest.raises(RuntimeError, match="^Subtraction, the `-` operator, with a bool tensor"):
        1 - mask
    with pytest.raises(RuntimeError, match="^Subtraction, the `-` operator, with two bool"):
        mask - mask
    with pytest.raises(RuntimeError, match="^Negation, the `-` operator, on a bool tensor"):
        _ = -mask
    assert (~mask).tolist() == [False, True]
    with pytest.raises(RuntimeError, match="^ZeroDivisionError$"):
        minigrad.tensor([1, 2]) // 0


def test_binary_with_unsupported_operands() -> None:
    x = minigrad.ones(2)
    with pytest.raises(
        TypeError, match=r"unsupported operand type\(s\) for \+: 'Tensor' and 'str'"
    ):
        x + "a"
    with pytest.raises(TypeError):
        x * None
    with pytest.raises(TypeError):
        x + [1, 2]


# -- matrix products -------------------------------------------------------------------------------


def test_matmul_family() -> None:
    m = leaf(A)  # 2x3
    n = leaf(A.T.copy())  # 3x2
    v = leaf(B)  # 3
    w = leaf([1.0, -1.0])  # 2
    cases = [
        (m @ n, A @ A.T, "MmBackward0"),
        (m.mm(n), A @ A.T, "MmBackward0"),
        (minigrad.mm(m, n), A @ A.T, "MmBackward0"),
        (minigrad.matmul(m, n), A @ A.T, "MmBackward0"),
        (m.matmul(n), A @ A.T, "MmBackward0"),
        (m @ v, A @ B, "MvBackward0"),
        (m.mv(v), A @ B, "MvBackward0"),
        (minigrad.mv(m, v), A @ B, "MvBackward0"),
        (w @ m, np.array([1.0, -1.0]) @ A, "SqueezeBackward4"),
        (v @ v, B @ B, "DotBackward0"),
        (v.dot(v), B @ B, "DotBackward0"),
        (minigrad.dot(v, v), B @ B, "DotBackward0"),
        (minigrad.addmm(w, n, m[:, :2]), np.array([1.0, -1.0]) + A.T @ A[:, :2], "AddmmBackward0"),
    ]
    for out, expected, node in cases:
        assert close(out, expected) and out.grad_fn.name() == node
    sum(o.sum() for o, _, _ in cases).backward()
    assert m.grad.shape == (2, 3) and v.grad.shape == (3,) and w.grad.shape == (2,)


def test_mm_gradients_by_hand() -> None:
    a = leaf([[1.0, 2.0], [3.0, 4.0]])
    b = leaf([[0.5, -1.0], [2.0, 1.0]])
    (a @ b).sum().backward()
    ones = np.ones((2, 2))
    assert close(a.grad, ones @ b.detach().numpy().T)
    assert close(b.grad, a.detach().numpy().T @ ones)


def test_batched_matmul() -> None:
    a = leaf(np.arange(24.0).reshape(2, 3, 4) / 10)
    b = leaf(np.arange(8.0).reshape(4, 2) / 10)
    out = a @ b
    assert close(out, a.detach().numpy() @ b.detach().numpy())
    assert out.grad_fn.name() == "UnsafeViewBackward0"
    out.sum().backward()
    assert close(b.grad, np.einsum("bij,bik->jk", a.detach().numpy(), np.ones((2, 3, 2))))
    assert close(a.grad, np.ones((2, 3, 2)) @ b.detach().numpy().T)


# -- elementwise functions -------------------------------------------------------------------------

X = np.array([[-1.5, -0.5, 0.25], [0.75, 1.0, 2.0]])
P = np.array([0.5, 1.0, 4.0])


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


UNARY = [
    # name, method call, numpy value, numpy derivative, grad_fn name, input
    ("exp", lambda t: t.exp(), np.exp, np.exp, "ExpBackward0", X),
    ("log", lambda t: t.log(), np.log, lambda x: 1 / x, "LogBackward0", P),
    ("sqrt", lambda t: t.sqrt(), np.sqrt, lambda x: 0.5 / np.sqrt(x), "SqrtBackward0", P),
    ("abs", lambda t: t.abs(), np.abs, np.sign, "AbsBackward0", X),
    ("sin", lambda t: t.sin(), np.sin, np.cos, "SinBackward0", X),
    ("cos", lambda t: t.cos(), np.cos, lambda x: -np.sin(x), "CosBackward0", X),
    ("tanh", lambda t: t.tanh(), np.tanh, lambda x: 1 - np.tanh(x) ** 2, "TanhBackward0", X),
    (
        "sigmoid",
        lambda t: t.sigmoid(),
        _sigmoid,
        lambda x: _sigmoid(x) * (1 - _sigmoid(x)),
        "SigmoidBackward0",
        X,
    ),
    (
        "relu",
        lambda t: t.relu(),
        lambda x: np.maximum(x, 0),
        lambda x: (x > 0) * 1.0,
        "ReluBackward0",
        X,
    ),
    (
        "clamp",
        lambda t: t.clamp(-1, 1),
        lambda x: np.clip(x, -1, 1),
        lambda x: ((x >= -1) & (x <= 1)) * 1.0,
        "ClampBackward1",
        X,
    ),
    (
        "clamp_min",
        lambda t: t.clamp(min=0.5),
        lambda x: np.maximum(x, 0.5),
        lambda x: (x >= 0.5) * 1.0,
        "ClampBackward1",
        X,
    ),
    (
        "clip_max",
        lambda t: t.clip(max=0.5),
        lambda x: np.minimum(x, 0.5),
        lambda x: (x <= 0.5) * 1.0,
        "ClampBackward1",
        X,
    ),
]


@pytest.mark.parametrize(
    ("name", "call", "value", "derivative", "node", "data"), UNARY, ids=[u[0] for u in UNARY]
)
def test_unary_functions(name, call, value, derivative, node, data) -> None:
    x = leaf(data)
    out = call(x)
    assert close(out, value(data)) and out.grad_fn.name() == node
    out.sum().backward()
    assert close(x.grad, derivative(data))
    function = getattr(minigrad, name.split("_")[0])
    kwargs = {
        "clamp": {"min": -1, "max": 1},
        "clamp_min": {"min": 0.5},
        "clip_max": {"max": 0.5},
    }.get(name, {})
    assert close(function(leaf(data), **kwargs), value(data))


def test_unary_float32_stays_float32() -> None:
    x = minigrad.tensor([0.5, 1.0])
    for call in (
        lambda t: t.exp(),
        lambda t: t.log(),
        lambda t: t.sigmoid(),
        lambda t: t.tanh(),
        lambda t: t.sqrt(),
        lambda t: t.relu(),
        lambda t: t.clamp(0, 1),
    ):
        assert call(x).dtype is minigrad.float32


def test_unary_edges_give_inf_and_nan_silently() -> None:
    x = minigrad.tensor([0.0, -1.0, 1.0], requires_grad=True)
    assert repr(x.log()) == "tensor([-inf, nan, 0.], grad_fn=<LogBackward0>)"
    assert repr(x.sqrt()) == "tensor([0., nan, 1.], grad_fn=<SqrtBackward0>)"
    x.log().sum().backward()
    assert repr(x.grad) == "tensor([inf, -1.,  1.])"
    x.grad = None
    x.abs().sum().backward()
    assert x.grad.tolist() == [0.0, -1.0, 1.0]  # the subgradient at 0 is 0
    x.grad = None
    x.relu().sum().backward()
    assert x.grad.tolist() == [0.0, 0.0, 1.0]
    big = minigrad.tensor([-1000.0, 1000.0])
    assert big.sigmoid().tolist() == [0.0, 1.0] and big.exp().tolist()[1] == float("inf")


def test_inf_and_nan_come_without_numpy_warnings() -> None:
    """PyTorch is silent about inf and nan; so is minigrad, even with warnings made errors."""
    code = textwrap.dedent("""
        import minigrad
        x = minigrad.tensor([0.0, -1.0, 1.0, 1000.0], requires_grad=True)
        y = x.log().sum() + x.sqrt().sum() + x.exp().sum() + (1 / x).sum()
        y.backward()
        print(x.grad)
    """)
    result = subprocess.run(
        [sys.executable, "-W", "error", "-c", code], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("tensor([")


def test_clamp_with_tensor_bounds() -> None:
    x = leaf([-2.0, 0.0, 2.0, 0.5])
    lo = leaf([-1.0, 1.0, -1.0, 0.5])
    hi = leaf([0.0, 0.5, 1.5, 0.5])
    out = minigrad.clamp(x, lo, hi)
    assert out.tolist() == [-1.0, 0.5, 1.5, 0.5] and out.grad_fn.name() == "ClampBackward0"
    out.backward(minigrad.tensor([1.0, 2.0, 3.0, 4.0], dtype=minigrad.float64))
    assert x.grad.tolist() == [0.0, 0.0, 0.0, 4.0]
    assert lo.grad.tolist() == [1.0, 0.0, 0.0, 0.0]
    assert hi.grad.tolist() == [0.0, 2.0, 3.0, 0.0]
    assert x.clamp(min=lo).tolist() == [-1.0, 1.0, 2.0, 0.5]
    with pytest.raises(RuntimeError, match="At least one of 'min' or 'max' must not be None"):
        minigrad.clamp(x)


def test_maximum_ties_split_the_gradient() -> None:
    a, b = leaf([1.0, 2.0, 3.0]), leaf([3.0, 2.0, 1.0])
    (minigrad.maximum(a, b) + 2 * minigrad.minimum(a, b)).sum().backward()
    assert a.grad.tolist() == [2.0, 1.5, 1.0]
    assert b.grad.tolist() == [1.0, 1.5, 2.0]


# -- reductions ------------------------------------------------------------------------------------


def test_sum_and_mean() -> None:
    x = leaf(A)
    cases = [
        (x.sum(), A.sum(), "SumBackward0"),
        (minigrad.sum(x), A.sum(), "SumBackward0"),
        (x.sum(0), A.sum(0), "SumBackward1"),
        (x.sum(-1, keepdim=True), A.sum(-1, keepdims=True), "SumBackward1"),
        (x.sum((0, 1)), A.sum(), "SumBackward1"),
        (x.sum(dim=[1]), A.sum(1), "SumBackward1"),
        (x.mean(), A.mean(), "MeanBackward0"),
        (minigrad.mean(x, 0), A.mean(0), "MeanBackward1"),
        (x.mean(1, keepdim=True), A.mean(1, keepdims=True), "MeanBackward1"),
    ]
    for out, expected, node in cases:
        assert close(out, expected) and out.grad_fn.name() == node
    x.mean(1).sum().backward()
    assert close(x.grad, np.full((2, 3), 1 / 3))
    assert minigrad.tensor([1, 2]).sum(dtype=minigrad.float64).dtype is minigrad.float64
    s = minigrad.ones(2, requires_grad=True).sum(dtype=minigrad.float64)
    assert s.grad_fn.name() == "SumBackward0" and s.dtype is minigrad.float64


def test_mean_of_x_squared_is_x_over_two() -> None:
    x = minigrad.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    out = minigrad.mean(x * x)
    assert repr(out) == "tensor(7.5000, grad_fn=<MeanBackward0>)"
    out.backward()
    assert x.grad.equal(x.detach() / 2)


def test_max_min_whole_and_by_dim() -> None:
    x = leaf([[1.0, 5.0, 3.0], [4.0, 2.0, 6.0]])
    assert x.max().item() == 6.0 and x.max().grad_fn.name() == "MaxBackward1"
    assert x.min().item() == 1.0 and x.min().grad_fn.name() == "MinBackward1"
    m = x.max(1)
    assert type(m).__name__ == "max" and m.values.tolist() == [5.0, 6.0]
    assert m.indices.tolist() == [1, 2] and m.indices.dtype is minigrad.int64
    assert m[0] is m.values and m.values.grad_fn.name() == "MaxBackward0"
    values, indices = minigrad.min(x, 0, keepdim=True)
    assert values.tolist() == [[1.0, 2.0, 3.0]] and indices.tolist() == [[0, 1, 0]]
    assert values.grad_fn.name() == "MinBackward0"
    assert repr(m).startswith("minigrad.return_types.max(\nvalues=tensor([5., 6.], dtype=")
    (m.values.sum() + values.sum()).backward()
    assert x.grad.tolist() == [[1.0, 1.0, 1.0], [0.0, 1.0, 1.0]]


def test_max_of_ties_shares_the_gradient() -> None:
    x = leaf([1.0, 3.0, 3.0, 2.0])
    x.max().backward()
    assert x.grad.tolist() == [0.0, 0.5, 0.5, 0.0]


def test_argmax_argmin() -> None:
    x = minigrad.tensor([[1.0, 5.0, 3.0], [4.0, 2.0, 6.0]], requires_grad=True)
    assert x.argmax().item() == 5 and x.argmin().item() == 0
    assert x.argmax(0).tolist() == [1, 0, 1] and x.argmin(1).tolist() == [0, 1]
    assert minigrad.argmax(x, 1, keepdim=True).tolist() == [[1], [2]]
    assert minigrad.argmin(x).dtype is minigrad.int64
    assert not x.argmax().requires_grad and x.argmax().grad_fn is None
    assert minigrad.tensor([2.0, 2.0, 1.0]).argmax().item() == 0  # the first of ties


def test_var_and_std() -> None:
    x = leaf(A)
    assert close(x.var(), A.var(ddof=1)) and x.var().grad_fn.name() == "VarBackward0"
    assert close(x.var(0), A.var(0, ddof=1))
    assert close(x.var(1, keepdim=True), A.var(1, ddof=1, keepdims=True))
    assert close(x.var(unbiased=False), A.var())
    assert close(x.var(1, correction=0), A.var(1))
    assert close(x.std(), A.std(ddof=1)) and x.std().grad_fn.name() == "StdBackward0"
    assert close(minigrad.std(x, 1), A.std(1, ddof=1))
    assert close(x.std(unbiased=False), A.std())
    x.var().backward()
    assert close(x.grad, 2 * (A - A.mean()) / (A.size - 1))
    with pytest.raises(RuntimeError, match="^std and var only support floating point"):
        minigrad.tensor([1, 2, 3]).var()
    with pytest.warns(UserWarning, match=r"^var\(\): degrees of freedom is <= 0"):
        assert np.isnan(minigrad.tensor([2.0]).var().item())


def test_softmax_and_log_softmax() -> None:
    x = leaf([[1.0, 2.0, 3.0], [-1000.0, 0.0, 1000.0]])
    data = x.detach().numpy()
    e = np.exp(data - data.max(1, keepdims=True))
    expected = e / e.sum(1, keepdims=True)
    s = minigrad.softmax(x, dim=1)
    assert close(s, expected) and s.grad_fn.name() == "SoftmaxBackward0"
    ls = x.log_softmax(-1)
    assert np.allclose(ls.detach().numpy()[0], np.log(expected[0]))
    assert ls.grad_fn.name() == "LogSoftmaxBackward0" and np.isfinite(ls.detach().numpy()).all()
    assert close(x.softmax(1).sum(1), [1.0, 1.0])
    w = minigrad.tensor([[1.0, 0.0, 2.0], [0.5, 3.0, 1.0]], dtype=minigrad.float64)
    (s * w).sum().backward()
    wn = w.numpy()
    assert close(x.grad, expected * (wn - (wn * expected).sum(1, keepdims=True)))
    with pytest.raises(TypeError, match="^softmax\\(\\) missing 1 required positional"):
        minigrad.softmax(x)


def test_reduction_errors() -> None:
    with pytest.raises(IndexError) as info:
        minigrad.ones(2, 3).sum(2)
    assert (
        str(info.value) == "Dimension out of range (expected to be in range of [-2, 1], but got 2)"
    )
    with pytest.raises(RuntimeError, match=r"^mean\(\): could not infer output dtype"):
        minigrad.tensor([1, 2]).mean()
    with pytest.raises(RuntimeError, match=r"^max\(\): Expected reduction dim to be specified"):
        minigrad.tensor([]).max()


# -- shapes ----------------------------------------------------------------------------------------


def test_shape_ops() -> None:
    x = leaf(np.arange(24.0).reshape(2, 3, 4))
    cases = [
        (x.view(6, 4), (6, 4), "ViewBackward0"),
        (x.view(-1), (24,), "ViewBackward0"),
        (x.view(minigrad.Size([4, 6])), (4, 6), "ViewBackward0"),
        (x.reshape(4, 6), (4, 6), "ViewBackward0"),
        (minigrad.reshape(x, (3, 8)), (3, 8), "ViewBackward0"),
        (x.transpose(0, 1).reshape(24), (24,), "UnsafeViewBackward0"),
        (x.flatten(), (24,), "ViewBackward0"),
        (x.flatten(1), (2, 12), "ViewBackward0"),
        (minigrad.flatten(x, 0, 1), (6, 4), "ViewBackward0"),
        (x.unsqueeze(0), (1, 2, 3, 4), "UnsqueezeBackward0"),
        (minigrad.unsqueeze(x, -1), (2, 3, 4, 1), "UnsqueezeBackward0"),
        (x[:, :1].squeeze(), (2, 4), "SqueezeBackward0"),
        (x[:, :1].squeeze(1), (2, 4), "SqueezeBackward1"),
        (minigrad.squeeze(x[:1]), (3, 4), "SqueezeBackward0"),
        (x.transpose(0, 2), (4, 3, 2), "TransposeBackward0"),
        (minigrad.transpose(x, -1, -2), (2, 4, 3), "TransposeBackward0"),
        (x[0].t(), (4, 3), "TBackward0"),
        (minigrad.t(x[0]), (4, 3), "TBackward0"),
        (x[0].T, (4, 3), "PermuteBackward0"),
        (x.permute(2, 0, 1), (4, 2, 3), "PermuteBackward0"),
        (minigrad.permute(x, (1, 2, 0)), (3, 4, 2), "PermuteBackward0"),
        (x[:, :1].expand(2, 3, 4), (2, 3, 4), "ExpandBackward0"),
        (x[0, 0].expand(5, -1), (5, 4), "ExpandBackward0"),
        (x[0].expand_as(x), (2, 3, 4), "ExpandBackward0"),
        (x.view_as(x), (2, 3, 4), "ViewBackward0"),
    ]
    for out, shape, node in cases:
        assert out.shape == shape and out.grad_fn.name() == node, node
    assert (
        x.permute(2, 0, 1).detach().numpy().tolist()
        == np.arange(24.0).reshape(2, 3, 4).transpose(2, 0, 1).tolist()
    )
    sum((o * o).sum() for o, _, _ in cases).backward()
    assert x.grad.shape == (2, 3, 4)


def test_expand_gradient_sums_over_the_copies() -> None:
    x = leaf([[1.0], [2.0]])
    x.expand(2, 3).sum().backward()
    assert x.grad.tolist() == [[3.0], [3.0]]


def test_views_share_memory_and_version() -> None:
    x = minigrad.zeros(2, 3)
    views = [
        x.view(3, 2),
        x.t(),
        x[0],
        x.unsqueeze(0),
        x[0].expand(2, 3),
        x.transpose(0, 1),
        x.permute(1, 0),
        x.reshape(6),
        x.flatten(),
        x[:, 1:],
        x.squeeze(),
    ]
    for v in views:
        assert v.data_ptr() >= x.data_ptr() and v._base is x
    views[0].add_(1)
    assert all(v._version == 1 for v in views) and x._version == 1
    assert x.tolist() == [[1.0] * 3] * 2
    not_views = [x.t().reshape(6), x.clone(), x[[0, 1]]]
    assert all(v.data_ptr() != x.data_ptr() for v in not_views)


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda t: t.view(4), RuntimeError, "shape '[4]' is invalid for input of size 6"),
        (lambda t: t.view(-1, -1), RuntimeError, "only one dimension can be inferred"),
        (
            lambda t: t.reshape(5, -1),
            RuntimeError,
            "shape '[5, -1]' is invalid for input of size 6",
        ),
        (
            lambda t: t.t().view(6),
            RuntimeError,
            "view size is not compatible with input tensor's "
            "size and stride (at least one dimension spans across two contiguous subspaces). Use "
            ".reshape(...) instead.",
        ),
        (lambda t: t.permute(0, 0), RuntimeError, "permute(): duplicate dims are not allowed."),
        (
            lambda t: t.transpose(0, 2),
            IndexError,
            "Dimension out of range (expected to be in range of [-2, 1], but got 2)",
        ),
        (
            lambda t: t.unsqueeze(3),
            IndexError,
            "Dimension out of range (expected to be in range of [-3, 2], but got 3)",
        ),
        (
            lambda t: t.expand(2, 4),
            RuntimeError,
            "The expanded size of the tensor (4) must match "
            "the existing size (3) at non-singleton dimension 1.  Target sizes: [2, 4].  Tensor "
            "sizes: [2, 3]",
        ),
        (
            lambda t: t.unsqueeze(0).t(),
            RuntimeError,
            "t() expects a tensor with <= 2 dimensions, but self is 3D",
        ),
        (
            lambda t: t.unsqueeze(0).flatten(2, 1),
            RuntimeError,
            "flatten() has invalid args: start_dim cannot come after end_dim",
        ),
    ],
)
def test_shape_errors(call, error, message) -> None:
    with pytest.raises(error) as info:
        call(minigrad.ones(2, 3))
    assert str(info.value) == message


# -- indexing --------------------------------------------------------------------------------------


def test_indexing_get() -> None:
    data = np.arange(12.0).reshape(3, 4)
    x = leaf(data)
    cases = [
        (x[0], data[0], "SelectBackward0"),
        (x[-1], data[-1], "SelectBackward0"),
        (x[1, 2], data[1, 2], "SelectBackward0"),
        (x[:, 1], data[:, 1], "SelectBackward0"),
        (x[1:], data[1:], "SliceBackward0"),
        (x[:], data, "SliceBackward0"),
        (x[...], data, "AliasBackward0"),
        (x[:2, 1:3], data[:2, 1:3], "SliceBackward0"),
        (x[::2], data[::2], "SliceBackward0"),
        (x[..., 1], data[..., 1], "SelectBackward0"),
        (x[None], data[None], "UnsqueezeBackward0"),
        (x[[0, 2]], data[[0, 2]], "IndexBackward0"),
        (x[minigrad.tensor([2, 0])], data[[2, 0]], "IndexBackward0"),
        (x[x > 5], data[data > 5], "IndexBackward0"),
        (x[[0, 1], [1, 2]], data[[0, 1], [1, 2]], "IndexBackward0"),
        (x[1, [0, 3]], data[1, [0, 3]], "IndexBackward0"),
    ]
    for out, expected, node in cases:
        assert close(out, expected) and out.grad_fn.name() == node, node
    x[[0, 0, 1]].sum().backward()  # repeated indices add up
    assert x.grad.tolist()[0] == [2.0] * 4 and x.grad.tolist()[1] == [1.0] * 4


def test_indexing_mixes_basic_and_advanced_as_pytorch() -> None:
    x = minigrad.ones(2, 3, 4, requires_grad=True)
    y = x[0, :, [0, 1]]
    assert y.shape == (3, 2)  # numpy alone would give (2, 3)
    assert y.grad_fn.name() == "IndexBackward0"
    assert y.grad_fn.next_functions[0][0].name() == "SelectBackward0"


@pytest.mark.parametrize(
    ("index", "error", "message"),
    [
        (3, IndexError, "index 3 is out of bounds for dimension 0 with size 3"),
        ((0, -5), IndexError, "index -5 is out of bounds for dimension 1 with size 4"),
        ((0, 0, 0), IndexError, "too many indices for tensor of dimension 2"),
        ([0, 5], IndexError, "index 5 is out of bounds for dimension 0 with size 3"),
        (
            1.5,
            IndexError,
            "only integers, slices (`:`), ellipsis (`...`), None and long or byte "
            "Variables are valid indices (got float)",
        ),
        (slice(None, None, -1), ValueError, "step must be greater than zero"),
        (
            ([0, 1], [0, 1, 2]),
            IndexError,
            "shape mismatch: indexing tensors could not be broadcast together with shapes [2], [3]",
        ),
    ],
)
def test_indexing_errors(index, error, message) -> None:
    with pytest.raises(error) as info:
        minigrad.ones(3, 4)[index]
    assert str(info.value) == message


def test_indexing_a_0d_tensor() -> None:
    with pytest.raises(IndexError, match="^invalid index of a 0-dim tensor. Use `tensor.item"):
        minigrad.tensor(1.0)[0]


def test_indexing_set_without_grad() -> None:
    x = minigrad.zeros(3, 4)
    x[0] = 1.0
    x[1, 2] = 5
    x[:, 3] = minigrad.tensor([7.0, 8.0, 9.0])
    x[2, :2] = minigrad.tensor([-1.0, -2.0])
    x[x < 0] = 0.0
    x[[0, 2], [0, 1]] = 3.0
    x[..., 1] += 10
    assert x.tolist() == [[3.0, 11.0, 1.0, 7.0], [0.0, 10.0, 5.0, 8.0], [0.0, 13.0, 0.0, 9.0]]
    with pytest.raises(RuntimeError) as info:
        x[0] = minigrad.ones(3)
    assert str(info.value) == (
        "The expanded size of the tensor (4) must match the existing size (3) at non-singleton "
        "dimension 0.  Target sizes: [4].  Tensor sizes: [3]"
    )


# -- joining ---------------------------------------------------------------------------------------


def test_cat_stack_where() -> None:
    a = leaf([[1.0, 2.0]])
    b = leaf([[3.0, 4.0], [5.0, 6.0]])
    c = minigrad.cat([a, b])
    assert c.tolist() == [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]] and c.grad_fn.name() == "CatBackward0"
    assert minigrad.cat((b, b), dim=1).shape == (2, 4)
    assert minigrad.concat([a, a]).shape == (2, 2) and minigrad.cat([a, b], -2).shape == (3, 2)
    s = minigrad.stack([a[0], b[0], b[1]])
    assert s.shape == (3, 2) and s.grad_fn.name() == "StackBackward0"
    assert minigrad.stack([b, b], dim=2).shape == (2, 2, 2)
    w = minigrad.where(b > 3, b, a)
    assert w.tolist() == [[1.0, 4.0], [5.0, 6.0]] and w.grad_fn.name() == "WhereBackward0"
    assert minigrad.where(b > 3, b, 0.0).tolist() == [[0.0, 4.0], [5.0, 6.0]]
    assert b.where(b < 5, minigrad.tensor(-1.0)).tolist() == [[3.0, 4.0], [-1.0, -1.0]]
    (c.sum() + (2 * s).sum() + (3 * w).sum()).backward()
    assert a.grad.tolist() == [[1.0 + 2.0 + 3.0, 1.0 + 2.0]]
    assert b.grad.tolist() == [[3.0, 6.0], [6.0, 6.0]]


def test_cat_dtypes() -> None:
    assert minigrad.cat([minigrad.ones(2), minigrad.ones(2, dtype=minigrad.float64)]).dtype is (
        minigrad.float64
    )
    assert minigrad.cat([minigrad.ones(1, dtype=minigrad.int64), minigrad.ones(1)]).dtype is (
        minigrad.float32
    )


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (
            lambda: minigrad.cat([minigrad.ones(2, 3), minigrad.ones(2, 4)]),
            RuntimeError,
            "Sizes of tensors must match except in dimension 0. Expected size 3 but got size 4 for "
            "tensor number 1 in the list.",
        ),
        (
            lambda: minigrad.cat([minigrad.ones(2, 3), minigrad.ones(3)]),
            RuntimeError,
            "Tensors must have same number of dimensions: got 2 and 1",
        ),
        (
            lambda: minigrad.cat([]),
            ValueError,
            "minigrad.cat(): expected a non-empty list of Tensors",
        ),
        (
            lambda: minigrad.cat([minigrad.tensor(1.0)]),
            RuntimeError,
            "zero-dimensional tensor (at position 0) cannot be concatenated",
        ),
        (
            lambda: minigrad.stack([minigrad.ones(2), minigrad.ones(3)]),
            RuntimeError,
            "stack expects each tensor to be equal size, but got [2] at entry 0 and [3] at entry 1",
        ),
        (lambda: minigrad.stack([]), RuntimeError, "stack expects a non-empty TensorList"),
        (
            lambda: minigrad.where(minigrad.tensor([1.0, 0.0]), minigrad.ones(2), minigrad.ones(2)),
            RuntimeError,
            "where expected condition to be a boolean tensor, but got a tensor with dtype Float",
        ),
        (
            lambda: minigrad.where(minigrad.ones(2) > 0, minigrad.ones(3), minigrad.ones(2)),
            RuntimeError,
            "The size of tensor a (2) must match the size of tensor b (3) at "
            "non-singleton dimension 0",
        ),
    ],
)
def test_joining_errors(call, error, message) -> None:
    with pytest.raises(error) as info:
        call()
    assert str(info.value) == message


# -- comparisons: not differentiable ---------------------------------------------------------------


def test_comparisons() -> None:
    x = minigrad.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = minigrad.tensor([3.0, 2.0, 1.0])
    cases = [
        (x == y, [False, True, False]),
        (x != y, [True, False, True]),
        (x < y, [True, False, False]),
        (x <= y, [True, True, False]),
        (x > y, [False, False, True]),
        (x >= y, [False, True, True]),
        (x > 2, [False, False, True]),
        (2 < x, [False, False, True]),
        (x.eq(y), [False, True, False]),
        (x.ne(2), [True, False, True]),
        (x.lt(y), [True, False, False]),
        (x.le(y), [True, True, False]),
        (x.gt(y), [False, False, True]),
        (x.ge(2), [False, True, True]),
        ((x > 1) & (x < 3), [False, True, False]),
        ((x > 2) | (x < 2), [True, False, True]),
        (~(x > 2), [True, True, False]),
        ((x > 1) ^ (y > 1), [True, False, True]),
    ]
    for out, expected in cases:
        assert out.tolist() == expected and out.dtype is minigrad.bool
        assert not out.requires_grad and out.grad_fn is None
    assert minigrad.isclose(x, x + 1e-9).tolist() == [True] * 3
    assert minigrad.allclose(x, x + 1e-9) and not x.allclose(y)
    with pytest.raises(RuntimeError, match=r"^The size of tensor a \(2\) must match the size of "):
        _ = minigrad.ones(2) < minigrad.ones(3)


# -- requires_grad flows through, grad mode stops it -----------------------------------------------


def test_requires_grad_propagates() -> None:
    a, b = minigrad.ones(2), minigrad.ones(2, requires_grad=True)
    assert not (a + a).requires_grad and (a + a).grad_fn is None
    assert (a + b).requires_grad and not (b * 2).is_leaf
    with minigrad.no_grad():
        assert not (b * 2).requires_grad


def test_argmax_by_dim_of_a_vector_is_a_tensor_that_can_change_in_place():
    """numpy's argmax along the only axis gives a scalar; minigrad keeps a 0-d array, so
    the result can be changed in place (``t.sub_(2)``) as in PyTorch (fuzz program 2339)."""
    b = minigrad.tensor([-1.8, 3.0], requires_grad=True)
    for i, want in ((b.argmax(0), -1), (b.argmin(0), -2), (b.max(0).indices, -1)):
        assert type(i._data) is np.ndarray and i.dtype == minigrad.int64
        assert i.sub_(2).item() == want
