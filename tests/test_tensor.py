"""The Tensor itself: attributes, conversions, numpy interop, Variable, .data versus .detach().

Expected values and messages are what PyTorch 2.13 gives (``torch.`` read as ``minigrad.``).
"""

from __future__ import annotations

import copy
import pickle
import warnings

import numpy as np
import pytest

import minigrad
from minigrad.autograd import Variable

NUMPY_REFUSAL = (
    "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead."
)


@pytest.fixture
def x() -> minigrad.Tensor:
    return minigrad.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)


# -- attributes ------------------------------------------------------------------------------------


def test_leaf_attributes(x) -> None:
    assert x.requires_grad is True
    assert x.is_leaf is True
    assert x.grad is None and x.grad_fn is None
    assert x.shape == (2, 2) and x.size() == (2, 2)
    assert x.size(0) == 2 and x.size(-1) == 2
    assert x.dtype is minigrad.float32
    assert x.ndim == 2 and x.dim() == 2 and x.ndimension() == 2
    assert x.numel() == 4 and minigrad.numel(x) == 4 and x.nelement() == 4
    assert x._version == 0
    assert len(x) == 2
    assert x.element_size() == 4 and x.is_floating_point()
    assert x.is_contiguous() and not x.is_cuda


def test_device(x) -> None:
    assert repr(x.device) == "device(type='cpu')"
    assert str(x.device) == "cpu"
    assert x.device == minigrad.device("cpu")
    assert x.device.type == "cpu" and x.device.index is None
    assert str(type(x.device)) == "<class 'minigrad.device'>"
    assert x.to("cpu") is x and x.to(minigrad.device("cpu")) is x
    with pytest.raises(AssertionError, match="not compiled with CUDA"):  # torch's, without a GPU
        x.to("cuda")
    with pytest.raises(RuntimeError):
        x.to("tpu")


def test_size_out_of_range(x) -> None:
    with pytest.raises(IndexError) as info:
        x.size(2)
    assert (
        str(info.value) == "Dimension out of range (expected to be in range of [-2, 1], but got 2)"
    )


def test_non_leaf_attributes(x) -> None:
    y = x * 2
    assert y.requires_grad and not y.is_leaf
    assert y.grad_fn.name() == "MulBackward0"
    assert repr(y) == "tensor([[2., 4.],\n        [6., 8.]], grad_fn=<MulBackward0>)"


def test_T_is_permute(x) -> None:
    t = x.T
    assert t.tolist() == [[1.0, 3.0], [2.0, 4.0]]
    assert t.grad_fn.name() == "PermuteBackward0"
    assert x.t().grad_fn.name() == "TBackward0"
    assert t.data_ptr() == x.data_ptr()  # a view
    from minigrad._functions import shape

    shape._WARNED_ONCE.clear()  # PyTorch warns once per process; start afresh
    with pytest.warns(UserWarning, match="The use of `x.T` on tensors of dimension other than 2"):
        assert minigrad.ones(2, 3, 4).T.shape == (4, 3, 2)
    with pytest.warns(UserWarning, match="^Tensor.T is deprecated on 0-D tensors"):
        assert minigrad.tensor(2.0).T.shape == ()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the second time, no warning
        assert minigrad.ones(3).T.shape == (3,) and minigrad.tensor(2.0).T.shape == ()


def test_item_tolist_and_python_numbers(x) -> None:
    assert x[0, 1].item() == 2.0 and type(x[0, 1].item()) is float
    assert minigrad.tensor([3]).item() == 3 and type(minigrad.tensor(3).item()) is int
    assert minigrad.tensor(True).item() is True
    assert x.tolist() == [[1.0, 2.0], [3.0, 4.0]]
    assert minigrad.tensor(2.5).tolist() == 2.5
    assert float(x[1, 1]) == 4.0 and int(x[1, 0]) == 3
    assert [1, 2, 3][minigrad.tensor(1)] == 2  # __index__
    with pytest.raises(RuntimeError) as info:
        x.item()
    assert str(info.value) == "a Tensor with 4 elements cannot be converted to Scalar"
    with pytest.raises(RuntimeError, match="^Boolean value of Tensor with more than one value is "):
        bool(minigrad.tensor([1.0, 2.0]))
    assert bool(minigrad.tensor([1.0])) is True


def test_len_and_iteration(x) -> None:
    rows = list(x)
    assert [r.tolist() for r in rows] == [[1.0, 2.0], [3.0, 4.0]]
    assert all(r.grad_fn.name() == "UnbindBackward0" for r in rows)
    assert rows[0].data_ptr() == x.data_ptr()
    with pytest.raises(TypeError, match="^len\\(\\) of a 0-d tensor$"):
        len(minigrad.tensor(1.0))
    with pytest.raises(TypeError, match="^iteration over a 0-d tensor$"):
        iter(minigrad.tensor(1.0))
    a, b = minigrad.tensor([1.0, 2.0])
    assert (a.item(), b.item()) == (1.0, 2.0)


# -- type conversions ------------------------------------------------------------------------------


def test_type_and_conversions(x) -> None:
    assert x.type() == "minigrad.FloatTensor"
    assert x.double().type() == "minigrad.DoubleTensor"
    assert x.long().type() == "minigrad.LongTensor"
    assert x.int().type() == "minigrad.IntTensor"
    assert (x > 1).type() == "minigrad.BoolTensor"
    assert x.float() is x and x.to(minigrad.float32) is x
    d = x.double()
    assert d.dtype is minigrad.float64 and d.grad_fn.name() == "ToCopyBackward0"
    assert x.to(minigrad.float64).dtype is minigrad.float64
    assert x.to(dtype=minigrad.float64).dtype is minigrad.float64
    assert x.to(minigrad.zeros(1, dtype=minigrad.float64)).dtype is minigrad.float64
    assert x.type(minigrad.DoubleTensor).dtype is minigrad.float64
    assert x.type("minigrad.LongTensor").dtype is minigrad.int64
    assert x.half().dtype is minigrad.float16
    i = minigrad.tensor([1.7, -2.2]).long()
    assert i.tolist() == [1, -2] and not i.requires_grad
    assert x.long().grad_fn is None and not x.long().requires_grad
    assert x.bool().tolist() == [[True, True], [True, True]]


def test_conversion_gradient_flows_back_in_the_original_dtype(x) -> None:
    x.double().sum().backward()
    assert x.grad.dtype is minigrad.float32
    assert x.grad.tolist() == [[1.0, 1.0], [1.0, 1.0]]


def test_clone_and_detach(x) -> None:
    c = x.clone()
    assert c.grad_fn.name() == "CloneBackward0" and c.data_ptr() != x.data_ptr()
    d = x.detach()
    assert d.data_ptr() == x.data_ptr() and not d.requires_grad and d.is_leaf
    (c * 2).sum().backward()
    assert x.grad.tolist() == [[2.0, 2.0], [2.0, 2.0]]


def test_detach_inplace(x) -> None:
    y = x * 2
    z = y.detach_()
    assert z is y
    assert y.grad_fn is None and not y.requires_grad and y.is_leaf
    assert repr(y) == "tensor([[2., 4.],\n        [6., 8.]])"


def test_requires_grad_setters() -> None:
    t = minigrad.ones(2)
    assert t.requires_grad_() is t and t.requires_grad
    assert t.requires_grad_(False) is t and not t.requires_grad
    t.requires_grad = True
    assert t.requires_grad
    y = t * 2
    with pytest.raises(RuntimeError) as info:
        y.requires_grad = False
    assert str(info.value) == (
        "you can only change requires_grad flags of leaf variables. If you want to use a "
        "computed variable in a subgraph that doesn't require differentiation use "
        "var_no_grad = var.detach()."
    )
    with pytest.raises(RuntimeError) as info:
        y.requires_grad = True
    assert str(info.value) == "you can only change requires_grad flags of leaf variables."
    assert y.requires_grad_() is y  # already requires grad: no error, as in PyTorch
    with pytest.raises(RuntimeError, match="^you can only change requires_grad flags of leaf"):
        y.requires_grad_(False)
    i = minigrad.tensor([1, 2])
    with pytest.raises(RuntimeError) as info:
        i.requires_grad = True
    assert str(info.value) == (
        "only Tensors of floating point and complex dtype can require gradients"
    )
    with pytest.raises(RuntimeError) as info:
        i.requires_grad_()
    assert str(info.value) == "only Tensors of floating point dtype can require gradients"


def test_equal(x) -> None:
    assert x.equal(minigrad.tensor([[1.0, 2.0], [3.0, 4.0]]))
    assert minigrad.equal(x, x.detach())
    assert not x.equal(x.detach() + 1)
    assert not x.equal(x.reshape(4))
    with pytest.raises(TypeError):
        x.equal([[1.0, 2.0], [3.0, 4.0]])


def test_data_ptr_tells_shared_memory(x) -> None:
    assert x.data.data_ptr() == x.data_ptr() == x.detach().data_ptr() == x.view(4).data_ptr()
    assert x.clone().data_ptr() != x.data_ptr()
    assert x[1].data_ptr() == x.data_ptr() + 2 * 4


# -- getting the eggs out: .numpy(), np.array(), .data ---------------------------------------------


def test_numpy_refused_while_grad_is_required(x) -> None:
    for call in (x.numpy, lambda: np.array(x), lambda: np.asarray(x * 2), x.__array__):
        with pytest.raises(RuntimeError) as info:
            call()
        assert str(info.value) == NUMPY_REFUSAL


def test_numpy_shares_memory(x) -> None:
    a = x.data.numpy()
    b = x.detach().numpy()
    a[0, 0] = 10.0
    assert b[0, 0] == 10.0 and x[0, 0].item() == 10.0
    assert np.shares_memory(a, b)
    assert a.dtype == np.float32


def test_numpy_interop_without_grad() -> None:
    t = minigrad.tensor([1.0, 2.0])
    assert np.shares_memory(np.asarray(t), t.numpy())
    assert np.array(t).tolist() == [1.0, 2.0]
    assert not np.shares_memory(np.array(t), t.numpy())
    assert np.array(t, dtype=np.float64).dtype == np.float64
    assert t.__array__().dtype == np.float32
    assert np.sum(t.numpy()) == 3.0


def test_data_shares_memory_but_not_the_version_counter(x) -> None:
    d, e = x.data, x.detach()
    assert not d.requires_grad and not e.requires_grad
    assert d.is_leaf and e.is_leaf
    e.add_(1)
    assert (x._version, d._version, e._version) == (1, 0, 1)
    d.add_(1)
    assert (x._version, d._version, e._version) == (1, 1, 1)
    assert x.tolist() == [[3.0, 4.0], [5.0, 6.0]]


def test_data_setter(x) -> None:
    x.data = minigrad.tensor([5.0, 6.0, 7.0])
    assert x.shape == (3,) and x.requires_grad and x._version == 0
    assert repr(x) == "tensor([5., 6., 7.], requires_grad=True)"
    with pytest.raises(RuntimeError) as info:
        x.data = minigrad.tensor([1, 2])
    assert str(info.value) == (
        "data set to a tensor that requires gradients must be floating point or complex dtype"
    )
    t = minigrad.ones(2)
    t.data = minigrad.tensor([1, 2])
    assert t.dtype is minigrad.int64


# -- grad ------------------------------------------------------------------------------------------


def test_grad_assignment(x) -> None:
    x.grad = minigrad.ones(2, 2)
    assert x.grad.tolist() == [[1.0, 1.0], [1.0, 1.0]]
    x.sum().backward()
    assert x.grad.tolist() == [[2.0, 2.0], [2.0, 2.0]]
    x.grad = None
    assert x.grad is None
    with pytest.raises(
        RuntimeError, match=r"^attempting to assign a gradient of size '\[3\]' to a"
    ):
        x.grad = minigrad.ones(3)
    with pytest.raises(
        RuntimeError, match=r"^attempting to assign a gradient with dtype 'double' "
    ):
        x.grad = minigrad.ones(2, 2, dtype=minigrad.float64)
    with pytest.raises(TypeError, match="^assigned grad expected to be a Tensor or None but got "):
        x.grad = [[1.0, 1.0], [1.0, 1.0]]
    del x.grad
    assert x.grad is None


def test_grad_of_non_leaf_warns(x) -> None:
    y = x * 2
    y.sum().backward()
    with pytest.warns(UserWarning, match="^The .grad attribute of a Tensor that is not a leaf"):
        assert y.grad is None
    y2 = x * 2
    y2.retain_grad()
    y2.sum().backward()
    assert y2.retains_grad and not x.retains_grad
    assert y2.grad.tolist() == [[1.0, 1.0], [1.0, 1.0]]


# -- Variable: the basket of PyTorch 0.3, as PyTorch 2.x keeps it ----------------------------------


def test_variable_returns_a_plain_tensor() -> None:
    t = minigrad.tensor([[1.0, 2.0], [3.0, 4.0]])
    v = Variable(t, requires_grad=True)
    assert type(v) is minigrad.Tensor
    assert str(type(v)) == "<class 'minigrad.Tensor'>"
    assert isinstance(v, Variable) and isinstance(t, Variable) and isinstance(v * 2, Variable)
    assert not isinstance(np.ones(2), Variable)
    assert v.requires_grad and v.is_leaf and v.grad is None and v.grad_fn is None
    assert repr(v) == "tensor([[1., 2.],\n        [3., 4.]], requires_grad=True)"
    assert minigrad.autograd.Variable is Variable


@pytest.mark.parametrize(
    ("flag", "expected"),
    [(True, True), (False, False), (1, True), (2, True), (0, False), (255, True)],
)
def test_variable_reads_requires_grad_as_an_unsigned_byte(flag, expected) -> None:
    assert Variable(minigrad.ones(2), requires_grad=flag).requires_grad is expected


@pytest.mark.parametrize(
    ("flag", "error", "message"),
    [
        (1.0, TypeError, "'float' object cannot be interpreted as an integer"),
        (None, TypeError, "'NoneType' object cannot be interpreted as an integer"),
        ("yes", TypeError, "'str' object cannot be interpreted as an integer"),
        (-3, OverflowError, "unsigned byte integer is less than minimum"),
        (256, OverflowError, "unsigned byte integer is greater than maximum"),
    ],
)
def test_variable_rejects_other_flags(flag, error, message) -> None:
    with pytest.raises(error) as info:
        Variable(minigrad.ones(2), requires_grad=flag)
    assert str(info.value) == message


def test_three_equivalent_definitions_share_storage_and_version_counter() -> None:
    t = minigrad.tensor([1.0, 2.0, 3.0])
    made = [Variable(t), Variable(t, requires_grad=False), Variable(t, requires_grad=True).detach()]
    for v in made:
        assert v is not t and type(v) is minigrad.Tensor
        assert not v.requires_grad and v.is_leaf
        assert v.data_ptr() == t.data_ptr()
    t.add_(1)
    assert [v._version for v in made] == [1, 1, 1]
    assert all(v.tolist() == [2.0, 3.0, 4.0] for v in made)
    made[0].mul_(2)
    assert t._version == 2 and t.tolist() == [4.0, 6.0, 8.0]


def test_variable_of_non_tensor() -> None:
    with pytest.raises(TypeError, match="^Variable data has to be a tensor, but got list$"):
        Variable([1.0, 2.0])


# -- Python protocol -------------------------------------------------------------------------------


def test_print_and_repr(x, capsys) -> None:
    print(x)
    assert capsys.readouterr().out == "tensor([[1., 2.],\n        [3., 4.]], requires_grad=True)\n"
    m = minigrad.mean(x * 3.75)
    assert repr(m) == "tensor(9.3750, grad_fn=<MeanBackward0>)"
    assert str(minigrad.tensor([1, 2], dtype=minigrad.int32)) == (
        "tensor([1, 2], dtype=minigrad.int32)"
    )
    assert repr(x.double().sum()) == "tensor(10., dtype=minigrad.float64, grad_fn=<SumBackward0>)"


def test_hash_is_identity_and_eq_is_elementwise(x) -> None:
    assert hash(x) != hash(x.detach())
    assert {x: 1}[x] == 1
    assert (x == x).tolist() == [[True, True], [True, True]]


def test_pickle_is_refused_but_deepcopy_works(x) -> None:
    with pytest.raises(TypeError, match="cannot be pickled"):
        pickle.dumps(x)
    c = copy.deepcopy(x)
    assert c.tolist() == x.tolist() and c.requires_grad and c.data_ptr() != x.data_ptr()
    with pytest.raises(RuntimeError, match="^Only Tensors created explicitly by the user"):
        copy.deepcopy(x * 2)
