"""``minigrad.autograd.functional``: Jacobians, Hessians and their products against closed forms.

Parity with PyTorch on the same functions is in ``test_double_backward_parity.py``; here the
values are checked against formulas worked out by hand, with the structure of the results
(a Tensor for a Tensor, tuples for tuples), ``create_graph`` and ``strict``.
"""

from __future__ import annotations

import numpy as np
import pytest

import minigrad
from minigrad.autograd import functional as F


def t(values) -> minigrad.Tensor:
    return minigrad.tensor(values, dtype=minigrad.float64)


X = np.array([0.5, -1.0, 2.0])


def cubes(x):
    return (x**3).sum()


def test_jacobian_of_a_vector_function() -> None:
    J = F.jacobian(lambda x: x.exp() * x.sum(), t(X))
    expected = np.diag(np.exp(X)) * X.sum() + np.exp(X)[:, None]
    np.testing.assert_allclose(J.numpy(), expected)
    assert J.shape == (3, 3) and not J.requires_grad


def test_jacobian_of_several_inputs_and_outputs() -> None:
    a, b = t(X), t([1.5, 0.25])
    (ja, jb), (ka, kb) = F.jacobian(lambda x, y: (x * 2, x.unsqueeze(1) * y), (a, b))
    np.testing.assert_allclose(ja.numpy(), 2 * np.eye(3))
    assert jb.shape == (3, 2) and not jb.numpy().any()  # x * 2 does not depend on y
    assert ka.shape == (3, 2, 3) and kb.shape == (3, 2, 2)
    np.testing.assert_allclose(ka.numpy()[1, 0], [0.0, 1.5, 0.0])
    np.testing.assert_allclose(kb.numpy()[2, 1], [0.0, 2.0])


def test_hessian_and_its_products() -> None:
    H = F.hessian(cubes, t(X))
    np.testing.assert_allclose(H.numpy(), np.diag(6 * X))
    v = t([1.0, 2.0, 3.0])
    out, hv = F.hvp(cubes, t(X), v)
    np.testing.assert_allclose(hv.numpy(), 6 * X * v.numpy())
    assert out.item() == pytest.approx((X**3).sum())
    _, vh = F.vhp(cubes, t(X), v)
    np.testing.assert_allclose(vh.numpy(), 6 * X * v.numpy())


def test_hessian_of_several_inputs() -> None:
    (hxx, hxy), (hyx, hyy) = F.hessian(lambda x, y: (x * x * y).sum(), (t(X), t(X[::-1].copy())))
    y = X[::-1]
    np.testing.assert_allclose(hxx.numpy(), np.diag(2 * y))
    np.testing.assert_allclose(hxy.numpy(), np.diag(2 * X))
    np.testing.assert_allclose(hyx.numpy(), np.diag(2 * X))
    assert not hyy.numpy().any()


def test_vjp_and_jvp() -> None:
    v = t([1.0, -1.0, 0.5])
    out, vj = F.vjp(lambda x: x**2, t(X), v)
    np.testing.assert_allclose(out.numpy(), X**2)
    np.testing.assert_allclose(vj.numpy(), 2 * X * v.numpy())
    out, jv = F.jvp(lambda x: x**2, t(X), v)
    np.testing.assert_allclose(jv.numpy(), 2 * X * v.numpy())
    _, vj = F.vjp(cubes, t(X))  # a scalar output: v may be left out
    np.testing.assert_allclose(vj.numpy(), 3 * X**2)


def test_create_graph_keeps_the_results_differentiable() -> None:
    x = minigrad.tensor(X, dtype=minigrad.float64, requires_grad=True)
    _, hv = F.hvp(cubes, x, t([1.0, 1.0, 1.0]), create_graph=True)
    assert hv.requires_grad and hv.grad_fn is not None
    (g,) = minigrad.autograd.grad(hv.sum(), x)
    np.testing.assert_allclose(g.numpy(), [6.0, 6.0, 6.0])
    _, hv = F.hvp(cubes, x, t([1.0, 1.0, 1.0]))
    assert not hv.requires_grad


def test_strict_mode_and_errors() -> None:
    x = t(X)
    with pytest.raises(RuntimeError, match="^Output 0 of the user-provided function does not"):
        F.vjp(lambda a: t([1.0, 2.0, 3.0]), x, t([1.0, 1.0, 1.0]), strict=True)
    with pytest.raises(RuntimeError, match="independent of input 1. This is not allowed"):
        F.jacobian(lambda a, b: a * 2, (x, t([1.0])), strict=True)
    with pytest.raises(RuntimeError, match="^The vector v can only be None if the user-provided"):
        F.vjp(lambda a: a * 2, x)
    with pytest.raises(RuntimeError, match="^The function given to hessian should return a single"):
        F.hessian(lambda a: (a, a), x)
    with pytest.raises(RuntimeError, match="^The Tensor returned by the function given to hessian"):
        F.hessian(lambda a: a * 2, x)
    with pytest.raises(RuntimeError, match="^v has invalid size: should be"):
        F.hvp(cubes, x, t([1.0]))
    with pytest.raises(TypeError, match="must be either a Tensor or a tuple of Tensors"):
        F.jacobian(cubes, [x])
    assert F.jacobian(lambda a: a * 2, x, vectorize=True).shape == (3, 3)
