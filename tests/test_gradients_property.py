"""Property tests: every differentiable op's gradient equals central finite differences.

For random broadcastable shapes and random float64 values (Hypothesis), ``backward`` of
``(f(inputs) * w).sum()`` (``w`` a fixed, non-uniform upstream gradient) must match
``(L(x + eps) - L(x - eps)) / 2 eps`` for every element of every input. Inputs are also used
twice (``f(x, x)``, ``x * g(x)``), where the gradients of the two uses must add up.
Non-smooth ops (abs, relu, clamp, max, maximum ...) are tested away from their kinks.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import minigrad

EPS = 1e-6
SETTINGS = settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


def upstream(shape: tuple) -> np.ndarray:
    """A fixed, non-uniform gradient for the output: 1, 1.1, 1.2, ... (alternating sign)."""
    n = int(np.prod(shape))
    w = 1.0 + 0.1 * np.arange(n)
    w[1::2] *= -1
    return w.reshape(shape)


def check_gradients(f, *arrays: np.ndarray, rtol: float = 1e-5, atol: float = 1e-6) -> None:
    """backward of sum(f(*inputs) * w) against central differences, for every input element."""
    tensors = [minigrad.tensor(a, dtype=minigrad.float64, requires_grad=True) for a in arrays]
    out = f(*tensors)
    w = upstream(out.shape)
    (out * minigrad.tensor(w)).sum().backward()

    def loss(values: list[np.ndarray]) -> float:
        with minigrad.no_grad():
            result = f(*[minigrad.tensor(v, dtype=minigrad.float64) for v in values])
        return float((result.numpy() * w).sum())

    for i, a in enumerate(arrays):
        numerical = np.zeros(a.shape)
        flat = numerical.reshape(-1)
        for k in range(a.size):
            plus = [v.copy() for v in arrays]
            minus = [v.copy() for v in arrays]
            plus[i].reshape(-1)[k] += EPS
            minus[i].reshape(-1)[k] -= EPS
            flat[k] = (loss(plus) - loss(minus)) / (2 * EPS)
        analytical = tensors[i].grad
        assert analytical is not None, f"input {i} got no gradient"
        assert analytical.shape == a.shape and analytical.dtype is minigrad.float64
        np.testing.assert_allclose(
            analytical.numpy(), numerical, rtol=rtol, atol=atol, err_msg=f"gradient of input {i}"
        )


def values(shape, low=-2.0, high=2.0):
    return hnp.arrays(
        np.float64, shape, elements=st.floats(low, high, allow_nan=False, allow_subnormal=False)
    )


def away_from(lo: float, hi: float, *points: float, margin: float = 1e-2):
    """Floats in [lo, hi] at least ``margin`` away from each of ``points`` (the kinks)."""
    return st.floats(lo, hi, allow_nan=False).filter(
        lambda v: all(abs(v - p) > margin for p in points)
    )


def distinct(shape):
    """Values with gaps of at least 0.1: max/min/sort have a unique winner everywhere."""
    n = int(np.prod(shape))
    return st.permutations(list(range(n))).map(
        lambda p: (np.array(p, dtype=np.float64) * 0.3 - 0.3 * n / 2).reshape(shape)
    )


BROADCAST = hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=3, max_side=3)
SHAPES = hnp.array_shapes(min_dims=0, max_dims=3, max_side=3)
NONEMPTY = hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=3)


# -- binary ops, broadcasting ----------------------------------------------------------------------

BINARY = {
    "add": (lambda a, b: a + b, {}),
    "sub": (lambda a, b: a - b, {}),
    "mul": (lambda a, b: a * b, {}),
    "div": (lambda a, b: a / b, {"b": away_from(-2, 2, 0.0, margin=0.3)}),
    "pow": (lambda a, b: a**b, {"a": st.floats(0.3, 2.0)}),
    "maximum": (lambda a, b: minigrad.maximum(a, b), {}),
    "minimum": (lambda a, b: minigrad.minimum(a, b), {}),
    "functional_add_alpha": (lambda a, b: minigrad.add(a, b, alpha=2.5), {}),
    "functional_sub": (lambda a, b: minigrad.sub(a, b), {}),
    "where": (lambda a, b: minigrad.where(a > b, a * 2, b), {}),
    "clamp_tensor_bounds": (lambda a, b: minigrad.clamp(a, min=b), {}),
    "remainder": (lambda a, b: a % b, {"b": st.floats(0.5, 2.0)}),
}


@pytest.mark.parametrize("name", sorted(BINARY))
@SETTINGS
@given(data=st.data(), shapes=BROADCAST)
def test_binary_ops_with_broadcasting(name, data, shapes) -> None:
    f, elements = BINARY[name]
    sa, sb = shapes.input_shapes
    a = data.draw(hnp.arrays(np.float64, sa, elements=elements.get("a", st.floats(-2, 2))))
    b = data.draw(hnp.arrays(np.float64, sb, elements=elements.get("b", st.floats(-2, 2))))
    if name in ("maximum", "minimum", "where", "clamp_tensor_bounds"):
        assume(np.all(np.abs(np.subtract(a, b)) > 1e-2))  # away from ties
    if name == "remainder":
        fraction = np.divide(a, b) % 1
        assume(np.all((fraction > 1e-2) & (fraction < 1 - 1e-2)))  # away from the jumps
    check_gradients(f, a, b)


@pytest.mark.parametrize("name", sorted(BINARY))
@SETTINGS
@given(data=st.data(), shape=SHAPES)
def test_binary_ops_with_a_tensor_used_twice(name, data, shape) -> None:
    f, elements = BINARY[name]
    if name in ("maximum", "minimum", "where", "clamp_tensor_bounds"):
        # f(x, x) sits on the tie; use x and a shifted x instead (still the same tensor twice)
        def f(x, _f=f):  # noqa: F811
            return _f(x, x * 0.5 + 0.75)
    else:

        def f(x, _f=f):  # noqa: F811
            return _f(x, x)

    low = 0.3 if name in ("pow", "div", "remainder") else -2.0
    x = data.draw(values(shape, low, 2.0))
    if name in ("maximum", "minimum", "where", "clamp_tensor_bounds"):
        assume(np.all(np.abs(x - (x * 0.5 + 0.75)) > 1e-2))
    check_gradients(f, x)


# -- a number on one side --------------------------------------------------------------------------

SCALAR = {
    "x_plus_c": (lambda x: x + 1.5, (-2, 2)),
    "c_plus_x": (lambda x: 1.5 + x, (-2, 2)),
    "x_minus_c": (lambda x: x - 1.5, (-2, 2)),
    "c_minus_x": (lambda x: 1.5 - x, (-2, 2)),
    "x_times_c": (lambda x: x * -2.5, (-2, 2)),
    "c_times_x": (lambda x: -2.5 * x, (-2, 2)),
    "x_over_c": (lambda x: x / 4.0, (-2, 2)),
    "c_over_x": (lambda x: 3.0 / x, (0.3, 2)),
    "x_pow_c": (lambda x: x**2.5, (0.3, 2)),
    "x_pow_int": (lambda x: x**3, (-2, 2)),
    "x_pow_0": (lambda x: x**0, (-2, 2)),
    "c_pow_x": (lambda x: 1.7**x, (-2, 2)),
    "x_mod_c": (lambda x: x % 0.7, (0.05, 0.65)),
    "neg": (lambda x: -x, (-2, 2)),
    "rsub": (lambda x: minigrad.rsub(x, 2.0), (-2, 2)),
}


@pytest.mark.parametrize("name", sorted(SCALAR))
@SETTINGS
@given(data=st.data(), shape=SHAPES)
def test_ops_with_a_number(name, data, shape) -> None:
    f, (low, high) = SCALAR[name]
    check_gradients(f, data.draw(values(shape, low, high)))


# -- elementwise functions -------------------------------------------------------------------------

UNARY = {
    "exp": (lambda x: x.exp(), st.floats(-2, 2)),
    "log": (lambda x: x.log(), st.floats(0.2, 3)),
    "sqrt": (lambda x: x.sqrt(), st.floats(0.2, 3)),
    "abs": (lambda x: x.abs(), away_from(-2, 2, 0.0)),
    "sin": (lambda x: x.sin(), st.floats(-3, 3)),
    "cos": (lambda x: x.cos(), st.floats(-3, 3)),
    "tanh": (lambda x: x.tanh(), st.floats(-3, 3)),
    "sigmoid": (lambda x: x.sigmoid(), st.floats(-5, 5)),
    "relu": (lambda x: x.relu(), away_from(-2, 2, 0.0)),
    "clamp": (lambda x: x.clamp(-0.5, 1.0), away_from(-2, 2, -0.5, 1.0)),
    "clamp_min": (lambda x: minigrad.clamp(x, min=0.25), away_from(-2, 2, 0.25)),
    "clamp_max": (lambda x: x.clip(max=0.25), away_from(-2, 2, 0.25)),
    "functional_exp": (lambda x: minigrad.exp(x), st.floats(-2, 2)),
    "functional_tanh": (lambda x: minigrad.tanh(x), st.floats(-2, 2)),
    "to_float64": (lambda x: x.to(minigrad.float64) * 1, st.floats(-2, 2)),
    "clone": (lambda x: x.clone(), st.floats(-2, 2)),
}


@pytest.mark.parametrize("name", sorted(UNARY))
@SETTINGS
@given(data=st.data(), shape=SHAPES)
def test_elementwise_functions(name, data, shape) -> None:
    f, elements = UNARY[name]
    check_gradients(f, data.draw(hnp.arrays(np.float64, shape, elements=elements)))


@pytest.mark.parametrize("name", sorted(UNARY))
@SETTINGS
@given(data=st.data(), shape=SHAPES)
def test_elementwise_functions_times_their_input(name, data, shape) -> None:
    """x * f(x): x is used twice, once through f."""
    f, elements = UNARY[name]
    check_gradients(lambda x: x * f(x), data.draw(hnp.arrays(np.float64, shape, elements=elements)))


# -- reductions ------------------------------------------------------------------------------------


def _dims(shape, data):
    if not shape:
        return None
    return data.draw(st.integers(-len(shape), len(shape) - 1))


REDUCTIONS = {
    "sum": lambda x, d, k: x.sum(),
    "sum_dim": lambda x, d, k: x.sum(d, keepdim=k),
    "mean": lambda x, d, k: x.mean(),
    "mean_dim": lambda x, d, k: x.mean(d, keepdim=k),
    "functional_sum_dims": lambda x, d, k: minigrad.sum(x, (d,), keepdim=k),
    "softmax": lambda x, d, k: minigrad.softmax(x, d),
    "log_softmax": lambda x, d, k: x.log_softmax(d),
    "var_dim": lambda x, d, k: x.var(d, keepdim=k),
    "std_dim": lambda x, d, k: x.std(d, keepdim=k),
    "var_biased": lambda x, d, k: x.var(unbiased=False),
    "var": lambda x, d, k: x.var(),
    "std": lambda x, d, k: x.std(),
}


@pytest.mark.parametrize("name", sorted(REDUCTIONS))
@SETTINGS
@given(data=st.data(), shape=NONEMPTY, keepdim=st.booleans())
def test_reductions(name, data, shape, keepdim) -> None:
    d = _dims(shape, data)
    x = data.draw(values(shape))
    if name.startswith(("var", "std")):
        n = shape[d] if name.endswith("_dim") else x.size
        assume(n >= 2)
        spread = np.std(x, axis=d if name.endswith("_dim") else None)
        assume(np.all(spread > 0.1))
    check_gradients(lambda t: REDUCTIONS[name](t, d, keepdim), x)


EXTREMES = {
    "max": lambda x, d, k: x.max(),
    "min": lambda x, d, k: minigrad.min(x),
    "max_dim": lambda x, d, k: x.max(d, keepdim=k).values,
    "min_dim": lambda x, d, k: x.min(dim=d, keepdim=k)[0],
    "amax": lambda x, d, k: x.amax(d, keepdim=k),
}


@pytest.mark.parametrize("name", sorted(EXTREMES))
@SETTINGS
@given(data=st.data(), shape=NONEMPTY, keepdim=st.booleans())
def test_max_and_min(name, data, shape, keepdim) -> None:
    d = _dims(shape, data)
    x = data.draw(distinct(shape))
    check_gradients(lambda t: EXTREMES[name](t, d, keepdim), x)


# -- matrix products -------------------------------------------------------------------------------


@SETTINGS
@given(
    data=st.data(),
    n=st.integers(1, 3),
    k=st.integers(1, 3),
    m=st.integers(1, 3),
    batch=hnp.array_shapes(min_dims=0, max_dims=2, max_side=2),
)
def test_matmul_family(data, n, k, m, batch) -> None:
    a = data.draw(values((n, k)))
    b = data.draw(values((k, m)))
    v = data.draw(values((k,)))
    bias = data.draw(values((m,)))
    check_gradients(lambda x, y: x @ y, a, b)
    check_gradients(lambda x, y: minigrad.mm(x, y), a, b)
    check_gradients(lambda x, y: x @ y, a, v)
    check_gradients(lambda x, y: x.mv(y), a, v)
    check_gradients(lambda x, y: x @ y, v, b)
    check_gradients(lambda x, y: x.dot(y), v, v * 0.5 + 1)
    check_gradients(lambda c, x, y: minigrad.addmm(c, x, y), bias, a, b)
    check_gradients(lambda x: x @ x.t(), a)  # the same matrix twice
    batched = data.draw(values(batch + (n, k)))
    check_gradients(lambda x, y: x @ y, batched, b)
    check_gradients(lambda x, y: x @ y, v, data.draw(values(batch + (k, m))))


# -- shapes ----------------------------------------------------------------------------------------

SHAPE_OPS = {
    "view": lambda x: x.view(-1),
    "reshape_transposed": lambda x: x.transpose(0, -1).reshape(-1),
    "flatten": lambda x: x.flatten(),
    "unsqueeze": lambda x: x.unsqueeze(0).unsqueeze(-1),
    "squeeze": lambda x: x.unsqueeze(1).squeeze(),
    "squeeze_dim": lambda x: x.unsqueeze(1).squeeze(1),
    "transpose": lambda x: x.transpose(0, -1),
    "permute": lambda x: x.permute(*reversed(range(x.ndim))),
    "T_2d": lambda x: x.reshape(x.shape[0], -1).T,
    "t": lambda x: x.reshape(x.shape[0], -1).t(),
    "expand": lambda x: x.unsqueeze(0).expand(2, *x.shape),
    "select": lambda x: x[0],
    "slice": lambda x: x[1:],
    "step_slice": lambda x: x[::2],
    "negative_index": lambda x: x[-1],
    "advanced_repeated": lambda x: x[[0, 0, -1]],
    "mask": lambda x: x[x > 0],
    "cat": lambda x: minigrad.cat([x, x * 2, x[:1]]),
    "stack": lambda x: minigrad.stack([x, x.sin()], dim=-1),
    "unbind": lambda x: minigrad.stack(list(x)),
}


@pytest.mark.parametrize("name", sorted(SHAPE_OPS))
@SETTINGS
@given(data=st.data(), shape=NONEMPTY)
def test_shape_and_indexing_ops(name, data, shape) -> None:
    x = data.draw(values(shape))
    if name == "mask":
        assume(np.all(np.abs(x) > 1e-2))
    f = SHAPE_OPS[name]
    check_gradients(lambda t: f(t) * 1.5 + f(t) ** 2, x)  # x used twice


@SETTINGS
@given(data=st.data(), shape=NONEMPTY)
def test_setitem_in_the_graph(data, shape) -> None:
    x = data.draw(values(shape))
    v = data.draw(values(shape[1:]))

    def f(a, b):
        y = a * 1.5
        y[0] = b * b
        return y * a

    check_gradients(f, x, v)


@SETTINGS
@given(data=st.data(), shape=NONEMPTY)
def test_inplace_ops_in_the_graph(data, shape) -> None:
    x = data.draw(values(shape, 0.3, 2.0))

    def f(a):
        y = a * 2
        y.add_(a)
        y.mul_(a)
        y.sub_(1)
        y.div_(a + 1)
        y.pow_(2)
        y += a
        return y

    check_gradients(f, x)


# -- the checker itself can fail -------------------------------------------------------------------


def test_checker_catches_a_wrong_gradient() -> None:
    class WrongSin(minigrad.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x.sin()

        @staticmethod
        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            return grad * x.cos() * 1.01

    with pytest.raises(AssertionError, match="gradient of input 0"):
        check_gradients(WrongSin.apply, np.array([0.3, -1.2]))
    check_gradients(lambda x: x.sin(), np.array([0.3, -1.2]))
