"""In-place operations: version counters, the leaf errors, no_grad, and in-place inside the graph.

Expected values and messages are what PyTorch 2.13 gives (``torch.`` read as ``minigrad.``).
"""

from __future__ import annotations

import pytest

import minigrad

LEAF_ERROR = "a leaf Variable that requires grad is being used in an in-place operation."
VIEW_OF_LEAF_ERROR = (
    "a view of a leaf Variable that requires grad is being used in an in-place operation."
)

# name, how to call it on t, the result on [1., 2.]
INPLACE = [
    ("add_", lambda t: t.add_(1), [2.0, 3.0]),
    ("add_alpha", lambda t: t.add_(minigrad.ones(2), alpha=2), [3.0, 4.0]),
    ("sub_", lambda t: t.sub_(0.5), [0.5, 1.5]),
    ("sub_alpha", lambda t: t.sub_(minigrad.ones(2), alpha=2), [-1.0, 0.0]),
    ("mul_", lambda t: t.mul_(2), [2.0, 4.0]),
    ("div_", lambda t: t.div_(4), [0.25, 0.5]),
    ("pow_", lambda t: t.pow_(2), [1.0, 4.0]),
    ("neg_", lambda t: t.neg_(), [-1.0, -2.0]),
    ("zero_", lambda t: t.zero_(), [0.0, 0.0]),
    ("fill_", lambda t: t.fill_(3.0), [3.0, 3.0]),
    ("fill_tensor", lambda t: t.fill_(minigrad.tensor(5.0)), [5.0, 5.0]),
    ("copy_", lambda t: t.copy_(minigrad.tensor([9.0, 8.0])), [9.0, 8.0]),
    ("clamp_", lambda t: t.clamp_(0, 1.5), [1.0, 1.5]),
    ("clip_", lambda t: t.clip_(max=1.5), [1.0, 1.5]),
    ("exp_", lambda t: t.exp_(), [2.718281828459045, 7.38905609893065]),
    ("sigmoid_", lambda t: t.sigmoid_(), [0.7310585786300049, 0.8807970779778823]),
    ("tanh_", lambda t: t.tanh_(), [0.7615941559557649, 0.9640275800758169]),
    ("relu_", lambda t: t.relu_(), [1.0, 2.0]),
    ("abs_", lambda t: t.abs_(), [1.0, 2.0]),
    ("sqrt_", lambda t: t.sqrt_(), [1.0, 2.0**0.5]),
    ("iadd", lambda t: t.__iadd__(1), [2.0, 3.0]),
    ("isub", lambda t: t.__isub__(1), [0.0, 1.0]),
    ("imul", lambda t: t.__imul__(3), [3.0, 6.0]),
    ("itruediv", lambda t: t.__itruediv__(2), [0.5, 1.0]),
    ("setitem", lambda t: t.__setitem__(0, 7.0), [7.0, 2.0]),
    ("setitem_slice", lambda t: t.__setitem__(slice(None), 4.0), [4.0, 4.0]),
    ("setitem_mask", lambda t: t.__setitem__(t > 1, 0.0), [1.0, 0.0]),
]


@pytest.mark.parametrize(("name", "call", "expected"), INPLACE, ids=[c[0] for c in INPLACE])
def test_inplace_changes_values_and_bumps_the_version(name, call, expected) -> None:
    t = minigrad.tensor([1.0, 2.0])
    ptr = t.data_ptr()
    result = call(t)
    assert t.tolist() == pytest.approx(expected)
    assert t._version == 1
    assert t.data_ptr() == ptr  # the same memory
    if not name.startswith("setitem"):
        assert result is t


def test_augmented_assignment_keeps_the_same_object() -> None:
    t = minigrad.tensor([1.0, 2.0])
    alias = t
    t += 1
    t -= 1
    t *= 3
    t /= 3
    assert t is alias and t._version == 4 and t.tolist() == [1.0, 2.0]


def test_each_inplace_op_bumps_the_version_once() -> None:
    x = minigrad.tensor([1.0, 2.0])
    versions = []
    for _, call, _ in INPLACE:
        call(x)
        versions.append(x._version)
    assert versions == list(range(1, len(INPLACE) + 1))


@pytest.mark.parametrize(("name", "call", "expected"), INPLACE, ids=[c[0] for c in INPLACE])
def test_inplace_on_a_leaf_that_requires_grad_raises(name, call, expected) -> None:
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError) as info:
        call(x)
    # x[0] = v writes into a view of x; x[:] = v and x[mask] = v into x itself (PyTorch)
    assert str(info.value) == (VIEW_OF_LEAF_ERROR if name == "setitem" else LEAF_ERROR)
    assert x._version == 0 and x.tolist() == [1.0, 2.0]


@pytest.mark.parametrize(("name", "call", "expected"), INPLACE, ids=[c[0] for c in INPLACE])
def test_no_grad_allows_inplace_on_a_leaf(name, call, expected) -> None:
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    with minigrad.no_grad():
        call(x)
    assert x.tolist() == pytest.approx(expected)
    assert x._version == 1
    assert x.is_leaf and x.requires_grad and x.grad_fn is None


def test_inplace_on_a_view_of_a_leaf_raises() -> None:
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    for call in (lambda: x[0].mul_(2), lambda: x.view(2).zero_(), lambda: x[:1].add_(1)):
        with pytest.raises(RuntimeError) as info:
            call()
        assert str(info.value) == VIEW_OF_LEAF_ERROR


def test_training_step_under_no_grad() -> None:
    w = minigrad.tensor([1.0, -1.0], requires_grad=True)
    losses = []
    for _ in range(3):
        loss = ((w * 3 - 1) ** 2).sum()
        loss.backward()
        with minigrad.no_grad():
            w -= 0.01 * w.grad
        losses.append(loss.item())
        w.grad.zero_()
    assert losses[0] > losses[1] > losses[2]
    assert w.is_leaf and w.requires_grad and w._version == 3


# -- views share the version counter ---------------------------------------------------------------


def test_views_and_detach_share_the_counter_data_does_not() -> None:
    x = minigrad.zeros(2, 3)
    v, s, d, data = x.view(6), x[0], x.detach(), x.data
    v.add_(1)
    assert (x._version, v._version, s._version, d._version, data._version) == (1, 1, 1, 1, 0)
    s[1] = 5.0
    assert x.tolist() == [[1.0, 5.0, 1.0], [1.0, 1.0, 1.0]] and x._version == 2
    data.mul_(2)
    assert x._version == 2 and data._version == 1 and x[0, 0].item() == 2.0


def test_setitem_on_a_0d_view_writes_through() -> None:
    x = minigrad.tensor([1.0, 2.0])
    y = x[0]
    y.add_(1)
    assert x.tolist() == [2.0, 2.0] and x._version == 1


# -- in-place inside the graph ---------------------------------------------------------------------


def test_inplace_inside_the_graph_replaces_grad_fn() -> None:
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    y.add_(1)
    assert y.grad_fn.name() == "AddBackward0" and y._version == 1
    assert y.grad_fn.next_functions[0][0].name() == "MulBackward0"
    y.mul_(minigrad.tensor([3.0, 5.0]))
    y += 1
    y -= x
    y *= x
    y /= 2
    assert [y.grad_fn.name(), y._version] == ["DivBackward0", 6]
    y.sum().backward()
    # y = ((2x + 1) * c + 1 - x) * x / 2, so dy/dx = ((2c - 1) x + (2x + 1) c + 1 - x) / 2
    expected = [((2 * c - 1) * v + (2 * v + 1) * c + 1 - v) / 2 for v, c in ((1, 3), (2, 5))]
    assert x.grad.tolist() == pytest.approx(expected)


def test_a_saved_value_shared_through_detach_is_caught() -> None:
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    y.mul_(y.detach())  # MulBackward0 saves y's values, which the next line changes
    y += 1
    with pytest.raises(RuntimeError, match="is at version 2; expected version 0 instead"):
        y.sum().backward()


@pytest.mark.parametrize(
    ("name", "args", "node", "grad"),
    [
        ("fill_", (1.5,), "FillBackward2", [0.0, 0.0]),
        ("zero_", (), "ZeroBackward0", [0.0, 0.0]),
        ("copy_", (minigrad.tensor([7.0, 8.0]),), "minigrad::autograd::CopyBackwards", [0.0, 0.0]),
        ("clamp_", (0, 4), "ClampBackward1", [3.0, 0.0]),
        ("relu_", (), "ReluBackward0", [3.0, 3.0]),
        ("neg_", (), "NegBackward0", [-3.0, -3.0]),
        ("pow_", (2,), "PowBackward0", [18.0, 36.0]),
        ("mul_", (2,), "MulBackward0", [6.0, 6.0]),
        ("sub_", (1,), "SubBackward0", [3.0, 3.0]),
    ],
)
def test_inplace_in_graph_nodes_and_gradients(name, args, node, grad) -> None:
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = x * 3
    getattr(y, name)(*args)
    assert y.grad_fn.name() == node and y._version == 1
    assert y.grad_fn.next_functions[0][0].name() == "MulBackward0"
    y.sum().backward()
    assert x.grad.tolist() == pytest.approx(grad)


def test_copy_and_fill_pass_the_gradient_to_their_source() -> None:
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    s = minigrad.tensor([5.0, 6.0], requires_grad=True)
    y = x * 1
    y.copy_(s * 2)
    z = x * 1
    z.fill_(s[0])
    (y.sum() + z.sum()).backward()
    assert (
        y.grad_fn.name() == "minigrad::autograd::CopyBackwards"
        and z.grad_fn.name() == "FillBackward3"
    )
    assert x.grad.tolist() == [0.0, 0.0] and s.grad.tolist() == [4.0, 2.0]


def test_setitem_inside_the_graph_is_copy_slices() -> None:
    a = minigrad.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
    b = minigrad.tensor([10.0, 20.0], requires_grad=True)
    y = a * 2
    y[1:3] = b * b
    assert repr(y) == "tensor([  2., 100., 400.,   8.], grad_fn=<CopySlices>)"
    assert [f.name() for f, _ in y.grad_fn.next_functions] == ["MulBackward0", "MulBackward0"]
    (y * y).sum().backward()
    assert a.grad.tolist() == [8.0, 0.0, 0.0, 32.0]
    assert b.grad.tolist() == [4 * 10.0**3, 4 * 20.0**3]


def test_setitem_with_a_value_that_requires_grad_pulls_a_tensor_into_the_graph() -> None:
    w = minigrad.tensor(5.0, requires_grad=True)
    y = minigrad.zeros(3)
    y[0] = w * 2
    assert y.requires_grad and y.grad_fn.name() == "minigrad::autograd::CopySlices"
    y.sum().backward()
    assert w.grad.item() == 2.0


# -- the version-counter pitfall of lesson 3 -------------------------------------------------------


def test_changing_a_saved_tensor_through_detach_makes_backward_raise() -> None:
    a = minigrad.tensor([1.0, 2.0, 3.0], requires_grad=True)
    b = a.sigmoid()
    b.detach().zero_()
    with pytest.raises(RuntimeError) as info:
        b.sum().backward()
    assert str(info.value) == (
        "one of the variables needed for gradient computation has been modified by an inplace "
        "operation: [minigrad.FloatTensor [3]], which is output 0 of Sigmoid, is at "
        "version 1; expected version 0 instead. Hint: enable anomaly detection to find the "
        "operation that failed to compute its gradient, with "
        "minigrad.autograd.set_detect_anomaly(True, check_nan=False)."
    )


def test_changing_a_saved_tensor_through_data_gives_a_silently_wrong_gradient() -> None:
    a = minigrad.tensor([1.0, 2.0, 3.0], requires_grad=True)
    b = a.sigmoid()
    b.data.zero_()
    b.sum().backward()
    assert a.grad.tolist() == [0.0, 0.0, 0.0]  # sigmoid'(a) is not 0: wrong, and no error


def test_changing_a_saved_input_raises_naming_the_tensor() -> None:
    a = minigrad.tensor([1.0, 2.0], requires_grad=True)
    w = minigrad.tensor([3.0, 4.0])
    y = a * w
    w.add_(1)
    with pytest.raises(
        RuntimeError,
        match=r"\[minigrad.FloatTensor \[2\]\] is at version 1; "
        r"expected version 0 instead",
    ):
        y.sum().backward()


def test_changing_a_tensor_that_was_not_saved_is_fine() -> None:
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    a = x + 1
    b = a + 2
    a.mul_(10)
    b.sum().backward()
    assert x.grad.tolist() == [1.0, 1.0]


def test_changing_a_leaf_under_no_grad_after_use_raises_at_backward() -> None:
    a = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = (a * a).sum()
    with minigrad.no_grad():
        a.add_(1)
    with pytest.raises(RuntimeError, match="is at version 1; expected version 0 instead"):
        y.backward()


# -- errors ----------------------------------------------------------------------------------------


def test_inplace_result_must_fit_the_tensor() -> None:
    with pytest.raises(RuntimeError) as info:
        minigrad.ones(2).add_(minigrad.ones(2, 2))
    assert str(info.value) == "output with shape [2] doesn't match the broadcast shape [2, 2]"


def test_inplace_cannot_turn_integers_into_floats() -> None:
    x = minigrad.tensor([1, 2])
    with pytest.raises(RuntimeError) as info:
        x.add_(1.5)
    assert str(info.value) == "result type Float can't be cast to the desired output type Long"
    with pytest.raises(RuntimeError, match="^result type Float can't be cast"):
        x /= 2
    x.mul_(3)
    x += 2
    assert x.tolist() == [5, 8]
    f = minigrad.tensor([1.0, 2.0])
    f.add_(minigrad.tensor([1, 2]))
    f[0] = 5
    assert f.tolist() == [5.0, 4.0]


def test_copy_errors() -> None:
    with pytest.raises(RuntimeError) as info:
        minigrad.ones(2, 3).copy_(minigrad.ones(2))
    assert str(info.value) == (
        "The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 1"
    )
    with pytest.raises(RuntimeError, match=r"^fill_ only supports 0-dimension value tensor"):
        minigrad.ones(2).fill_(minigrad.ones(2))


def test_inplace_through_a_view_rebases_the_base_as_pytorch_does() -> None:
    """The base gets CopySlices, the view AsStridedBackward0; gradients flow through both."""
    x = minigrad.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    y = x * 2
    v = y[0]
    v.mul_(3)
    assert y.tolist() == [[6.0, 12.0, 18.0], [8.0, 10.0, 12.0]]
    assert y.grad_fn.name() == "minigrad::autograd::CopySlices"
    assert v.grad_fn.name() == "AsStridedBackward0"
    assert v.grad_fn.next_functions[0][0] is y.grad_fn
    assert y._version == v._version == 1
    (y.sum() + v.sum()).backward()
    assert x.grad.tolist() == [[12.0, 12.0, 12.0], [2.0, 2.0, 2.0]]


def test_inplace_through_a_transposed_view_and_augmented_index_assignment() -> None:
    x = minigrad.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    y = x * 1
    y.t()[0].add_(10)  # column 0 of y, reached through two views
    assert y.tolist() == [[11.0, 2.0], [13.0, 4.0]]
    z = x * 1
    z[1] += z[0]  # Python: view = z[1]; view += z[0]; z[1] = view
    assert z.tolist() == [[1.0, 2.0], [4.0, 6.0]]
    (y * y).sum().backward()
    assert x.grad.tolist() == [[22.0, 4.0], [26.0, 8.0]]
    x.grad = None
    z.sum().backward()
    assert x.grad.tolist() == [[2.0, 2.0], [1.0, 1.0]]


def test_inplace_through_a_view_pulls_a_plain_base_into_the_graph() -> None:
    w = minigrad.tensor([1.0, 2.0], requires_grad=True)
    buf = minigrad.zeros(3)
    buf[0:2].add_(w)
    assert buf.requires_grad and buf.grad_fn.name() == "minigrad::autograd::CopySlices"
    (buf * minigrad.tensor([3.0, 4.0, 5.0])).sum().backward()
    assert w.grad.tolist() == [3.0, 4.0]


def test_a_view_used_after_its_base_changed_in_place_gets_the_right_gradient() -> None:
    """Without regenerating the view's history this gradient would silently be half."""
    x = minigrad.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 1
    v = y[1:]
    y.mul_(2)
    assert v.tolist() == [4.0, 6.0]
    assert v.grad_fn.name() == "AsStridedBackward0"
    (v * v).sum().backward()
    assert x.grad.tolist() == [0.0, 16.0, 24.0]  # d/dx (2x)^2 = 8x
