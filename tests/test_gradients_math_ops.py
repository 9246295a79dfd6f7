"""Property tests for ``outer``, ``atan2``, ``fmod``, ``lerp``, ``tensor_split`` and ``erf``,
``erfc``, ``erfinv`` (``_functions/two_operand.py``, ``ops/atan2.py``, ...).

Each gradient is checked against central finite differences (``check_gradients`` of
``test_gradients_property.py``), with broadcast operands where the op broadcasts, and the
second derivative with ``gradgradcheck`` where PyTorch's formula is itself differentiable.
``atan2`` is tested away from the origin (its gradient is 0 there by PyTorch's choice, not by
the limit) and from its jump on the negative x axis, ``fmod`` away from its jumps.
"""

from __future__ import annotations

import numpy as np
from hypothesis import assume, given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from test_gradients_property import BROADCAST, NONEMPTY, SETTINGS, check_gradients

import minigrad

_VALUES = st.floats(-2, 2)
THREE = hnp.mutually_broadcastable_shapes(num_shapes=3, max_dims=3, max_side=3)


def _pair(data, shapes, a=_VALUES, b=_VALUES):
    sa, sb = shapes.input_shapes
    return data.draw(hnp.arrays(np.float64, sa, elements=a)), data.draw(
        hnp.arrays(np.float64, sb, elements=b)
    )


@SETTINGS
@given(data=st.data(), n=st.integers(1, 4), m=st.integers(1, 4))
def test_outer(data, n, m) -> None:
    a = data.draw(hnp.arrays(np.float64, (n,), elements=st.floats(-2, 2)))
    b = data.draw(hnp.arrays(np.float64, (m,), elements=st.floats(-2, 2)))
    check_gradients(minigrad.outer, a, b)
    check_gradients(lambda x, y: x.ger(y), a, b)


@SETTINGS
@given(data=st.data(), shapes=BROADCAST)
def test_atan2(data, shapes) -> None:
    y, x = _pair(data, shapes)
    yb, xb = np.broadcast_arrays(y, x)
    assume(np.all(np.hypot(yb, xb) > 0.1))  # away from the origin
    assume(not np.any((xb < 0) & (np.abs(yb) < 0.05)))  # and from the jump from pi to -pi
    check_gradients(minigrad.atan2, y, x)
    ty = minigrad.tensor(y, requires_grad=True)
    tx = minigrad.tensor(x, requires_grad=True)
    assert minigrad.autograd.gradgradcheck(minigrad.atan2, (ty, tx))


def test_atan2_gradient_at_the_origin_is_zero() -> None:
    """PyTorch's choice (the limit does not exist): the reciprocal is filled with 0 there."""
    y = minigrad.zeros(3, requires_grad=True)
    x = minigrad.tensor([0.0, -0.0, 1.0], requires_grad=True)
    minigrad.atan2(y, x).sum().backward()
    assert y.grad.tolist() == [0.0, 0.0, 1.0] and x.grad.tolist() == [0.0, 0.0, 0.0]


@SETTINGS
@given(data=st.data(), shape=NONEMPTY)
def test_atan2_of_a_tensor_with_itself(data, shape) -> None:
    x = data.draw(hnp.arrays(np.float64, shape, elements=st.floats(0.2, 2)))
    check_gradients(lambda t: minigrad.atan2(t, t * 0.5 - 2), x)


@SETTINGS
@given(data=st.data(), shapes=BROADCAST)
def test_fmod(data, shapes) -> None:
    a, b = _pair(data, shapes, b=st.floats(0.5, 2.0) | st.floats(-2.0, -0.5))
    quotient = np.abs(np.divide(*np.broadcast_arrays(a, b))) % 1
    assume(np.all((quotient > 1e-2) & (quotient < 1 - 1e-2)))  # away from the jumps
    check_gradients(minigrad.fmod, a, b)
    by_number = np.abs(a / 1.5) % 1
    if np.all((by_number > 1e-2) & (by_number < 1 - 1e-2)):  # away from its jumps too
        check_gradients(lambda t: t.fmod(-1.5), a)
    ta = minigrad.tensor(a, requires_grad=True)
    tb = minigrad.tensor(b, requires_grad=True)
    assert minigrad.autograd.gradgradcheck(minigrad.fmod, (ta, tb))


@SETTINGS
@given(
    data=st.data(), shapes=hnp.mutually_broadcastable_shapes(num_shapes=3, max_dims=3, max_side=3)
)
def test_lerp(data, shapes) -> None:
    """Both halves of the weight (below and above 0.5), a tensor weight and a number."""
    sa, sb, sw = shapes.input_shapes
    a = data.draw(hnp.arrays(np.float64, sa, elements=st.floats(-2, 2)))
    b = data.draw(hnp.arrays(np.float64, sb, elements=st.floats(-2, 2)))
    w = data.draw(hnp.arrays(np.float64, sw, elements=st.floats(-1, 2)))
    check_gradients(minigrad.lerp, a, b, w)
    number = data.draw(st.floats(-1, 2))
    check_gradients(lambda x, y: x.lerp(y, number), a, b)
    tensors = [minigrad.tensor(v, requires_grad=True) for v in (a, b, w)]
    assert minigrad.autograd.gradgradcheck(minigrad.lerp, tuple(tensors))


@SETTINGS
@given(data=st.data(), shape=NONEMPTY)
def test_tensor_split(data, shape) -> None:
    """Each part a slice: the gradient of a weighted sum of the parts lands where they were."""
    x = data.draw(hnp.arrays(np.float64, shape, elements=st.floats(-2, 2)))
    dim = data.draw(st.integers(-len(shape), len(shape) - 1))
    how = data.draw(st.integers(1, 4) | st.lists(st.integers(-4, 4), max_size=3))

    def parts(t):
        return minigrad.cat([p * (i + 1) for i, p in enumerate(t.tensor_split(how, dim))], dim)

    check_gradients(parts, x)


@SETTINGS
@given(data=st.data(), shape=NONEMPTY)
def test_erf_family(data, shape) -> None:
    x = data.draw(hnp.arrays(np.float64, shape, elements=st.floats(-2, 2)))
    u = data.draw(hnp.arrays(np.float64, shape, elements=st.floats(-0.9, 0.9)))
    check_gradients(minigrad.erf, x)
    check_gradients(lambda t: t.erfc(), x)
    check_gradients(minigrad.erfinv, u)
    for f, v in ((minigrad.erf, x), (minigrad.erfc, x), (minigrad.erfinv, u)):
        assert minigrad.autograd.gradgradcheck(f, (minigrad.tensor(v, requires_grad=True),))


def test_erfinv_inverts_erf_and_erfc() -> None:
    x = np.linspace(-3, 3, 61)
    back = minigrad.erfinv(minigrad.erf(minigrad.tensor(x))).numpy()
    np.testing.assert_allclose(back, x, rtol=1e-9, atol=1e-9)
    # the tail, where erf(x) is 1 to the last bit: erfc tells the x apart (1 - y is exact)
    y = 1.0 - np.logspace(-15, -3, 25)
    x = minigrad.erfinv(minigrad.tensor(y))
    np.testing.assert_allclose(minigrad.erfc(x).numpy(), 1.0 - y, rtol=1e-12)
