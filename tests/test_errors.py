"""The errors a learner meets, word for word as PyTorch 2.13 says them (torch. -> minigrad.).

A learner who moves on to PyTorch should recognise every message, so each one is pinned exactly.
"""

from __future__ import annotations

import pytest

import minigrad


def raises(error: type[Exception], message: str, call) -> None:
    with pytest.raises(error) as info:
        call()
    assert type(info.value) is error
    assert str(info.value) == message


# -- backward --------------------------------------------------------------------------------------


def test_backward_on_a_non_scalar_without_a_gradient() -> None:
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    raises(
        RuntimeError,
        "grad can be implicitly created only for scalar outputs",
        lambda: (x * 2).backward(),
    )


def test_backward_with_a_gradient_of_the_wrong_shape() -> None:
    x = minigrad.ones(2, 3, requires_grad=True)
    raises(
        RuntimeError,
        "Mismatch in shape: grad_output[0] has a shape of minigrad.Size([3, 2]) "
        "and output[0] has a shape of minigrad.Size([2, 3]).",
        lambda: (x * x).backward(minigrad.ones(3, 2)),
    )
    y = minigrad.tensor([1.0, 2.0], requires_grad=True)
    raises(
        RuntimeError,
        "Mismatch in shape: grad_output[0] has a shape of minigrad.Size([3]) and "
        "output[0] has a shape of minigrad.Size([2]).",
        lambda: (y * y).backward(minigrad.ones(3)),
    )


def test_backward_on_something_that_needs_no_grad() -> None:
    x = minigrad.tensor([1.0, 2.0])
    raises(
        RuntimeError,
        "element 0 of tensors does not require grad and does not have a grad_fn",
        lambda: (x * 2).sum().backward(),
    )
    with minigrad.no_grad():
        y = (minigrad.ones(2, requires_grad=True) * 2).sum()
    raises(
        RuntimeError,
        "element 0 of tensors does not require grad and does not have a grad_fn",
        y.backward,
    )


def test_second_backward() -> None:
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    y.backward()
    raises(
        RuntimeError,
        "Trying to backward through the graph a second time (or directly access "
        "saved tensors after they have already been freed). Saved intermediate values of the "
        "graph are freed when you call .backward() or autograd.grad(). Specify "
        "retain_graph=True if you need to backward through the graph a second time or if you "
        "need to access saved tensors after calling backward.",
        y.backward,
    )


def test_grad_of_a_non_leaf_is_a_warning() -> None:
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    y.sum().backward()
    with pytest.warns(UserWarning) as record:
        assert y.grad is None
    assert len(record) == 1
    assert str(record[0].message) == (
        "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
        "attribute won't be populated during autograd.backward(). If you indeed want the .grad "
        "field to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. "
        "If you access the non-leaf Tensor by mistake, make sure you access the leaf Tensor "
        "instead. See github.com/pytorch/pytorch/pull/30531 for more information."
    )
    assert x.grad.tolist() == [2.0, 2.0]


# -- values ----------------------------------------------------------------------------------------


def test_item_on_many_elements() -> None:
    raises(
        RuntimeError,
        "a Tensor with 2 elements cannot be converted to Scalar",
        lambda: minigrad.tensor([1.0, 2.0]).item(),
    )
    raises(
        RuntimeError,
        "a Tensor with 0 elements cannot be converted to Scalar",
        lambda: minigrad.tensor([]).item(),
    )


def test_numpy_on_a_tensor_that_requires_grad() -> None:
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    message = (
        "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead."
    )
    raises(RuntimeError, message, x.numpy)
    raises(RuntimeError, message, (x * 2).numpy)
    assert x.detach().numpy().tolist() == [1.0, 2.0]


def test_requires_grad_on_an_integer_tensor() -> None:
    message = "Only Tensors of floating point and complex dtype can require gradients"
    raises(RuntimeError, message, lambda: minigrad.tensor([1, 2], requires_grad=True))
    raises(RuntimeError, message, lambda: minigrad.arange(5, requires_grad=True))
    raises(
        RuntimeError, message, lambda: minigrad.zeros(2, dtype=minigrad.int64, requires_grad=True)
    )
    t = minigrad.tensor([1, 2])
    raises(
        RuntimeError,
        "only Tensors of floating point and complex dtype can require gradients",
        lambda: setattr(t, "requires_grad", True),
    )


def test_non_numeric_data() -> None:
    raises(ValueError, "too many dimensions 'str'", lambda: minigrad.tensor(["a", "b"]))
    raises(TypeError, "new(): invalid data type 'str'", lambda: minigrad.tensor("abc"))
    raises(TypeError, "new(): invalid data type 'str'", lambda: minigrad.tensor([1, "a"]))
    raises(RuntimeError, "Could not infer dtype of NoneType", lambda: minigrad.tensor(None))
    raises(RuntimeError, "Could not infer dtype of dict", lambda: minigrad.tensor({"a": 1}))
    raises(
        ValueError,
        "expected sequence of length 2 at dim 1 (got 1)",
        lambda: minigrad.tensor([[1, 2], [3]]),
    )
    raises(TypeError, "new(): invalid data type 'str'", lambda: minigrad.FloatTensor("abc"))
    raises(
        TypeError, "new(): data must be a sequence (got float)", lambda: minigrad.FloatTensor(2.5)
    )


# -- shapes ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b", "message"),
    [
        (
            (2, 3),
            (4,),
            "The size of tensor a (3) must match the size of tensor b (4) at "
            "non-singleton dimension 1",
        ),
        (
            (3, 2),
            (4, 2),
            "The size of tensor a (3) must match the size of tensor b (4) at "
            "non-singleton dimension 0",
        ),
        (
            (2, 3, 4),
            (2, 5, 4),
            "The size of tensor a (3) must match the size of tensor b (5) at "
            "non-singleton dimension 1",
        ),
        (
            (5,),
            (2, 3),
            "The size of tensor a (5) must match the size of tensor b (3) at "
            "non-singleton dimension 1",
        ),
    ],
)
@pytest.mark.parametrize("op", ["+", "-", "*", "/", "**", "maximum", "<", "=="])
def test_broadcasting_mismatch_names_both_sizes(a, b, message, op) -> None:
    x, y = minigrad.ones(*a), minigrad.ones(*b)
    call = {
        "+": lambda: x + y,
        "-": lambda: x - y,
        "*": lambda: x * y,
        "/": lambda: x / y,
        "**": lambda: x**y,
        "maximum": lambda: minigrad.maximum(x, y),
        "<": lambda: x < y,
        "==": lambda: x == y,
    }[op]
    raises(RuntimeError, message, call)


@pytest.mark.parametrize(
    ("a", "b", "message"),
    [
        ((2, 3), (2, 3), "mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)"),
        ((2, 3), (4,), "size mismatch, got input (2), mat (2x3), vec (4)"),
        ((4,), (3, 2), "mat1 and mat2 shapes cannot be multiplied (1x4 and 3x2)"),
        (
            (4,),
            (3,),
            "inconsistent tensor size, expected tensor [4] and src [3] to have the same "
            "number of elements, but got 4 and 3 elements respectively",
        ),
        (
            (5, 2, 3),
            (5, 4, 2),
            "Expected size for first two dimensions of batch2 tensor to be: "
            "[5, 3] but got: [5, 4].",
        ),
        (
            (5, 2, 3),
            (4, 3, 2),
            "The size of tensor a (5) must match the size of tensor b (4) at "
            "non-singleton dimension 0",
        ),
        ((2, 3, 2), (3, 3), "mat1 and mat2 shapes cannot be multiplied (6x2 and 3x3)"),
    ],
)
def test_matmul_mismatch_names_both_shapes(a, b, message) -> None:
    raises(RuntimeError, message, lambda: minigrad.ones(*a) @ minigrad.ones(*b))


def test_matmul_other_errors() -> None:
    raises(
        RuntimeError,
        "both arguments to matmul need to be at least 1D, but they are 0D and 1D",
        lambda: minigrad.tensor(2.0) @ minigrad.ones(2),
    )
    raises(
        RuntimeError,
        "self must be a matrix",
        lambda: minigrad.mm(minigrad.ones(2), minigrad.ones(2, 2)),
    )
    raises(
        RuntimeError,
        "1D tensors expected, but got 2D and 1D tensors",
        lambda: minigrad.dot(minigrad.ones(2, 2), minigrad.ones(2)),
    )
    raises(
        RuntimeError,
        "expected m1 and m2 to have the same dtype, but got: float != double",
        lambda: minigrad.ones(2, 2) @ minigrad.ones(2, 2, dtype=minigrad.float64),
    )
    raises(
        RuntimeError,
        "dot : expected both vectors to have same dtype, but found Float and Double",
        lambda: minigrad.ones(2) @ minigrad.ones(2, dtype=minigrad.float64),
    )


def test_view_and_reshape_mismatch() -> None:
    raises(
        RuntimeError,
        "shape '[4]' is invalid for input of size 6",
        lambda: minigrad.ones(2, 3).view(4),
    )
    raises(
        RuntimeError,
        "shape '[5, -1]' is invalid for input of size 6",
        lambda: minigrad.ones(2, 3).reshape(5, -1),
    )


def test_index_out_of_range() -> None:
    raises(
        IndexError,
        "index 3 is out of bounds for dimension 0 with size 3",
        lambda: minigrad.ones(3)[3],
    )
    raises(
        IndexError,
        "Dimension out of range (expected to be in range of [-2, 1], but got 2)",
        lambda: minigrad.ones(2, 3).sum(2),
    )


# -- in-place --------------------------------------------------------------------------------------


def test_inplace_on_a_leaf() -> None:
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    raises(
        RuntimeError,
        "a leaf Variable that requires grad is being used in an in-place operation.",
        lambda: x.add_(1),
    )


def test_inplace_modification_of_a_saved_tensor() -> None:
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = x.exp()
    y.detach().mul_(2)
    raises(
        RuntimeError,
        "one of the variables needed for gradient computation has been modified "
        "by an inplace operation: [minigrad.FloatTensor [2]], which is output 0 of "
        "Exp, is at version 1; expected version 0 instead. Hint: enable anomaly "
        "detection to find the operation that failed to compute its gradient, with "
        "minigrad.autograd.set_detect_anomaly(True, check_nan=False).",
        lambda: y.sum().backward(),
    )


# -- grad modes and Variable -----------------------------------------------------------------------


def test_variable_requires_grad_must_be_a_byte() -> None:
    from minigrad.autograd import Variable

    t = minigrad.ones(2)
    raises(
        TypeError,
        "'float' object cannot be interpreted as an integer",
        lambda: Variable(t, requires_grad=1.0),
    )
    raises(
        OverflowError,
        "unsigned byte integer is less than minimum",
        lambda: Variable(t, requires_grad=-3),
    )
    raises(
        OverflowError,
        "unsigned byte integer is greater than maximum",
        lambda: Variable(t, requires_grad=256),
    )


def test_requires_grad_of_a_non_leaf() -> None:
    y = minigrad.ones(2, requires_grad=True) * 2
    raises(
        RuntimeError,
        "you can only change requires_grad flags of leaf variables. If you want "
        "to use a computed variable in a subgraph that doesn't require differentiation use "
        "var_no_grad = var.detach().",
        lambda: setattr(y, "requires_grad", False),
    )
