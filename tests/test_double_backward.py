"""Gradients of gradients: create_graph=True, saved Tensors, once_differentiable, gradgradcheck.

The mechanism (minigrad/ops/namespace.py): each op's one backward formula runs on numpy
arrays in an ordinary backward and on Tensors, recording a graph, under create_graph.
These tests check its semantics (PyTorch's); tests/test_gradgrad_property.py checks
every op's second derivatives against finite differences.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import minigrad
from minigrad import autograd
from minigrad.autograd import Function, gradgradcheck
from minigrad.autograd.function import once_differentiable


def leaf(values, dtype=minigrad.float64) -> minigrad.Tensor:
    return minigrad.tensor(values, dtype=dtype, requires_grad=True)


def test_grad_with_create_graph_has_a_grad_fn_and_differentiates_again() -> None:
    x = leaf([0.5, -1.0, 2.0])
    (g,) = autograd.grad((x**3).sum(), x, create_graph=True)
    assert g.grad_fn is not None and g.requires_grad
    np.testing.assert_allclose(g.detach().numpy(), 3 * x.detach().numpy() ** 2)
    (h,) = autograd.grad(g.sum(), x)
    np.testing.assert_allclose(h.numpy(), 6 * x.detach().numpy())
    assert h.grad_fn is None


def test_third_derivative_of_tanh() -> None:
    x = leaf([0.3, -0.5, 1.2])
    (g1,) = autograd.grad(x.tanh().sum(), x, create_graph=True)
    (g2,) = autograd.grad(g1.sum(), x, create_graph=True)
    (g3,) = autograd.grad(g2.sum(), x)
    t = np.tanh(x.detach().numpy())
    d1 = 1 - t * t
    np.testing.assert_allclose(g1.detach().numpy(), d1)
    np.testing.assert_allclose(g2.detach().numpy(), -2 * t * d1)
    np.testing.assert_allclose(g3.numpy(), -2 * d1 * d1 + 4 * t * t * d1)


def test_without_create_graph_gradients_stay_constants() -> None:
    x = leaf([1.0, 2.0])
    (g,) = autograd.grad((x * x).sum(), x)
    assert g.grad_fn is None and not g.requires_grad


def test_retain_graph_defaults_to_create_graph() -> None:
    x = leaf([1.0, 2.0])
    y = (x * x).sum()
    autograd.grad(y, x, create_graph=True)
    (g,) = autograd.grad(y, x)  # the graph was kept: a second pass works
    np.testing.assert_allclose(g.numpy(), [2.0, 4.0])
    with pytest.raises(RuntimeError, match="^Trying to backward through the graph a second time"):
        autograd.grad(y, x)


def test_second_pass_error_and_version_check_under_create_graph() -> None:
    x = leaf([1.0, 2.0])
    y = (x * x).sum()
    autograd.grad(y, x, create_graph=True, retain_graph=False)
    with pytest.raises(RuntimeError, match="^Trying to backward through the graph a second time"):
        autograd.grad(y, x, create_graph=True)
    a = leaf([1.0, 2.0]) * 1
    z = a.sin().sum()
    with minigrad.no_grad():
        a.mul_(2)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        autograd.grad(z, a, create_graph=True)


def test_backward_create_graph_fills_grad_with_a_graph_and_warns() -> None:
    x = leaf([1.0, -2.0])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        minigrad.autograd.backward_api._warned = False
        (x**3).sum().backward(create_graph=True)
    assert any(
        str(w.message).startswith(
            "Using backward() with create_graph=True will create a "
            "reference cycle between the parameter and its gradient"
        )
        for w in caught
    )
    assert (
        x.grad.grad_fn is not None and x.grad.grad_fn.name() == "minigrad::autograd::CopyBackwards"
    )
    g = x.grad
    x.grad = None
    g.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 6 * x.detach().numpy())


def test_grad_outputs_that_require_grad_are_part_of_the_graph() -> None:
    x = leaf([1.0, 2.0])
    v = leaf([3.0, -1.0])
    c = minigrad.tensor([2.0, 5.0], dtype=minigrad.float64)
    (g,) = autograd.grad(x * c, x, v, create_graph=True)
    names = [fn.name() if fn else None for fn, _ in g.grad_fn.next_functions]
    assert g.grad_fn.name() == "MulBackward0"
    assert names == ["minigrad::autograd::AccumulateGrad", None]
    (gv,) = autograd.grad(g.sum(), v)
    np.testing.assert_allclose(gv.numpy(), [2.0, 5.0])
    (g,) = autograd.grad(x * x, x, v, create_graph=True)  # x used twice: AddBackward0
    assert g.grad_fn.name() == "AddBackward0"
    (gv,) = autograd.grad(g.sum(), v)
    np.testing.assert_allclose(gv.numpy(), 2 * x.detach().numpy())


def test_allow_unused_and_materialize_grads() -> None:
    x, y = leaf([1.0]), leaf([2.0])
    with pytest.raises(RuntimeError, match="appears to not have been used in the graph"):
        autograd.grad((x * 2).sum(), (x, y), create_graph=True)
    gx, gy = autograd.grad((x * 2).sum(), (x, y), create_graph=True, allow_unused=True)
    assert gy is None
    gx, gy = autograd.grad((x * x).sum(), (x, y), create_graph=True, materialize_grads=True)
    assert gy.tolist() == [0.0] and gx.grad_fn is not None


def test_any_order_hessian_of_a_two_variable_function() -> None:
    x, y = leaf(1.5), leaf(-0.5)
    f = x * x * y + y.exp() * x
    gx, gy = autograd.grad(f, (x, y), create_graph=True)
    hxx, hxy = autograd.grad(gx, (x, y), retain_graph=True)
    hyx, hyy = autograd.grad(gy, (x, y))
    xv, yv = 1.5, -0.5
    np.testing.assert_allclose([hxx.item(), hxy.item()], [2 * yv, 2 * xv + np.exp(yv)])
    np.testing.assert_allclose([hyx.item(), hyy.item()], [2 * xv + np.exp(yv), np.exp(yv) * xv])


def test_hooks_and_retain_grad_see_tensors_under_create_graph() -> None:
    x = leaf([1.0, 2.0])
    y = x * x
    y.retain_grad()
    seen = []
    y.register_hook(lambda g: seen.append(g))
    (y * y).sum().backward(create_graph=True)
    assert isinstance(seen[0], minigrad.Tensor) and y.grad is not None
    np.testing.assert_allclose(y.grad.detach().numpy(), 2 * y.detach().numpy())


class Cube(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x * x

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * 3 * x * x


class ExpFn(Function):
    @staticmethod
    def forward(ctx, x):
        out = x.exp()
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        (out,) = ctx.saved_tensors
        return grad * out


def test_custom_function_backward_is_differentiated_again() -> None:
    x = leaf([0.5, -1.0])
    (g,) = autograd.grad(Cube.apply(x).sum(), x, create_graph=True)
    (h,) = autograd.grad(g.sum(), x)
    np.testing.assert_allclose(h.numpy(), 6 * x.detach().numpy())
    (g,) = autograd.grad(ExpFn.apply(x).sum(), x, create_graph=True)  # a saved output
    (h,) = autograd.grad(g.sum(), x)
    np.testing.assert_allclose(h.numpy(), np.exp(x.detach().numpy()))
    assert gradgradcheck(Cube.apply, (leaf([0.3, 0.7]),))
    assert gradgradcheck(ExpFn.apply, (leaf([0.3, 0.7]),))


class OnceCube(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x * x

    @staticmethod
    @once_differentiable
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * 3 * x * x


def test_once_differentiable_refuses_a_second_derivative() -> None:
    x = leaf([0.5, -1.0])
    (g,) = autograd.grad(OnceCube.apply(x).sum(), x, create_graph=True)
    assert g.grad_fn is None  # the incoming gradient needs no grad: a constant, as in PyTorch
    v = leaf([1.0, 1.0])
    (g,) = autograd.grad(OnceCube.apply(x), x, v, create_graph=True)
    assert g.grad_fn.name() == "minigrad::autograd::Error"
    with pytest.raises(
        RuntimeError,
        match="^trying to differentiate twice a function that was marked with @once_differentiable",
    ):
        g.sum().backward()
    np.testing.assert_allclose(g.detach().numpy(), 3 * x.detach().numpy() ** 2)


def test_gradgradcheck_catches_a_wrong_second_derivative() -> None:
    class Wrong(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x * x

        @staticmethod
        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            return grad * 3 * x.detach() * x  # half the second derivative is lost

    x = leaf([0.5, 1.5])
    assert autograd.gradcheck(Wrong.apply, (x,))
    assert not gradgradcheck(Wrong.apply, (x,), raise_exception=False)
    with pytest.raises(autograd.gradcheck.__globals__["GradcheckError"]):
        gradgradcheck(Wrong.apply, (x,))


def test_gradcheck_check_grad_dtypes() -> None:
    x = leaf([0.5, 1.5])
    assert autograd.gradcheck(lambda t: t * t, (x,), check_grad_dtypes=True)
