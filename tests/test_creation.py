"""Making tensors: tensor(), legacy constructors, factories, random numbers, numpy, dtypes, Size.

Expected values and messages are what PyTorch 2.13 gives (``torch.`` read as ``minigrad.``).
"""

from __future__ import annotations

import numpy as np
import pytest

import minigrad
from minigrad import Size

# -- tensor(): dtype and shape inference -----------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "dtype", "shape"),
    [
        ([1.0, 2.0], minigrad.float32, (2,)),
        ([1, 2], minigrad.int64, (2,)),
        ([True, False], minigrad.bool, (2,)),
        ([1, 2.5, True], minigrad.float32, (3,)),
        ([True, 2], minigrad.int64, (2,)),
        (3.5, minigrad.float32, ()),
        (3, minigrad.int64, ()),
        (True, minigrad.bool, ()),
        ([], minigrad.float32, (0,)),
        ([[], []], minigrad.float32, (2, 0)),
        ([[1, 2], [3, 4]], minigrad.int64, (2, 2)),
        (((1, 2), (3, 4)), minigrad.int64, (2, 2)),
        (range(3), minigrad.int64, (3,)),
        (np.array([1, 2], dtype=np.int32), minigrad.int32, (2,)),
        (np.array([1.5]), minigrad.float64, (1,)),
        (np.array([1.5], dtype=np.float32), minigrad.float32, (1,)),
        (np.float64(2.0), minigrad.float64, ()),
        (np.float32(2.0), minigrad.float32, ()),
        (np.int32(1), minigrad.int32, ()),
        ([np.float64(1.5), 2.0], minigrad.float64, (2,)),
        ([np.float32(1.5), 2], minigrad.float32, (2,)),
        ([np.int32(1), 2], minigrad.int64, (2,)),
        ([np.array([1.0, 2.0]), np.array([3.0, 4.0])], minigrad.float64, (2, 2)),
    ],
)
def test_tensor_infers_dtype_and_shape(data, dtype, shape) -> None:
    t = minigrad.tensor(data)
    assert t.dtype is dtype
    assert t.shape == shape
    assert type(t.shape) is Size


def test_tensor_values_and_explicit_dtype() -> None:
    t = minigrad.tensor([[1, 2], [3, 4]], dtype=minigrad.float64)
    assert t.dtype is minigrad.float64
    assert t.tolist() == [[1.0, 2.0], [3.0, 4.0]]
    assert minigrad.tensor([1.9, -1.9], dtype=minigrad.int64).tolist() == [1, -1]
    assert minigrad.tensor([0, 2], dtype=minigrad.bool).tolist() == [False, True]
    assert minigrad.tensor(3.5, dtype=minigrad.int32).item() == 3


def test_tensor_of_zero_dim_tensors_keeps_their_dtype() -> None:
    t = minigrad.tensor([minigrad.tensor(1.0, dtype=minigrad.float64), 2.0])
    assert t.dtype is minigrad.float64
    assert t.tolist() == [1.0, 2.0]
    assert minigrad.tensor([minigrad.tensor(1), 2.0]).dtype is minigrad.float32


def test_tensor_copies_its_data() -> None:
    n = np.array([1.0, 2.0])
    t = minigrad.tensor(n)
    n[0] = 10
    assert t.tolist() == [1.0, 2.0]
    lst = [1.0, 2.0]
    t = minigrad.tensor(lst)
    lst[0] = 10
    assert t.tolist() == [1.0, 2.0]


def test_tensor_from_tensor_warns_and_copies() -> None:
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    with pytest.warns(UserWarning, match=r"sourceTensor\.detach\(\)\.clone\(\)"):
        y = minigrad.tensor(x)
    assert y.requires_grad is False and y.is_leaf
    assert y.data_ptr() != x.data_ptr()


def test_tensor_requires_grad() -> None:
    t = minigrad.tensor([1.0, 2.0], requires_grad=True)
    assert t.requires_grad and t.is_leaf and t.grad is None and t.grad_fn is None
    assert repr(t) == "tensor([1., 2.], requires_grad=True)"


@pytest.mark.parametrize(
    ("data", "error", "message"),
    [
        ("abc", TypeError, "new(): invalid data type 'str'"),
        (["a", "b"], ValueError, "too many dimensions 'str'"),
        ([1, "a"], TypeError, "new(): invalid data type 'str'"),
        ([b"a"], TypeError, "new(): invalid data type 'bytes'"),
        (None, RuntimeError, "Could not infer dtype of NoneType"),
        ([1, None], RuntimeError, "Could not infer dtype of NoneType"),
        ([object()], RuntimeError, "Could not infer dtype of object"),
        ({"a": 1}, RuntimeError, "Could not infer dtype of dict"),
        ([[1, 2], [3]], ValueError, "expected sequence of length 2 at dim 1 (got 1)"),
        ([[1, 2], [3, 4, 5]], ValueError, "expected sequence of length 2 at dim 1 (got 3)"),
        ([[1, 2], []], ValueError, "expected sequence of length 2 at dim 1 (got 0)"),
        (
            [[[1, 2]], [[3, 4], [5, 6]]],
            ValueError,
            "expected sequence of length 1 at dim 1 (got 2)",
        ),
        ([[1], 2.5], TypeError, "not a sequence"),
    ],
)
def test_tensor_rejects_bad_data_as_pytorch_does(data, error, message) -> None:
    with pytest.raises(error) as info:
        minigrad.tensor(data)
    assert str(info.value) == message


def test_tensor_of_multi_element_tensors_is_refused() -> None:
    with pytest.raises(ValueError, match="^only one element tensors can be converted to Python"):
        minigrad.tensor([minigrad.tensor([1.0, 2.0]), minigrad.tensor([3.0, 4.0])])


def test_tensor_with_explicit_dtype_rejects_strings() -> None:
    with pytest.raises(TypeError, match="^must be real number, not str$"):
        minigrad.tensor([1, "a"], dtype=minigrad.float32)


@pytest.mark.parametrize("dtype", [minigrad.int64, minigrad.int32, minigrad.bool])
def test_requires_grad_on_integer_tensor(dtype) -> None:
    with pytest.raises(RuntimeError) as info:
        minigrad.tensor([1, 2], dtype=dtype, requires_grad=True)
    assert str(info.value) == (
        "Only Tensors of floating point and complex dtype can require gradients"
    )


@pytest.mark.parametrize("flag", [1, 0, 1.0, None, "yes"])
def test_factories_take_a_real_bool_for_requires_grad(flag) -> None:
    with pytest.raises(TypeError) as info:
        minigrad.ones(2, requires_grad=flag)
    assert str(info.value) == (
        f"ones(): argument 'requires_grad' must be bool, not {type(flag).__name__}"
    )
    with pytest.raises(TypeError, match=r"^tensor\(\): argument 'requires_grad' must be bool"):
        minigrad.tensor([1.0], requires_grad=flag)


# -- the legacy constructors -----------------------------------------------------------------------


def test_float_tensor_from_nested_ints() -> None:
    t = minigrad.FloatTensor([[1, 2], [3, 4]])
    assert type(t) is minigrad.Tensor
    assert t.dtype is minigrad.float32
    assert repr(t) == "tensor([[1., 2.],\n        [3., 4.]])"
    assert t.type() == "minigrad.FloatTensor"


@pytest.mark.parametrize(
    ("ctor", "dtype", "values"),
    [
        (minigrad.Tensor, minigrad.float32, [1.0, 2.0]),
        (minigrad.FloatTensor, minigrad.float32, [1.0, 2.0]),
        (minigrad.DoubleTensor, minigrad.float64, [1.0, 2.0]),
        (minigrad.LongTensor, minigrad.int64, [1, 2]),
        (minigrad.IntTensor, minigrad.int32, [1, 2]),
        (minigrad.BoolTensor, minigrad.bool, [True, True]),
        (minigrad.ByteTensor, minigrad.uint8, [1, 2]),
    ],
)
def test_legacy_constructors_copy_data_into_their_dtype(ctor, dtype, values) -> None:
    t = ctor([1, 2])
    assert t.dtype is dtype
    assert t.tolist() == values
    assert not t.requires_grad


def test_legacy_constructors_with_sizes_make_uninitialised_tensors() -> None:
    assert minigrad.Tensor(2, 3).shape == (2, 3)
    assert minigrad.FloatTensor(4).shape == (4,)
    assert minigrad.Tensor(Size([2, 1])).shape == (2, 1)
    assert minigrad.Tensor().shape == (0,)
    assert minigrad.LongTensor(3).dtype is minigrad.int64
    assert minigrad.LongTensor([1.7, -2.2]).tolist() == [1, -2]


def test_legacy_types_check_dtype_with_isinstance() -> None:
    assert isinstance(minigrad.ones(2), minigrad.FloatTensor)
    assert not isinstance(minigrad.ones(2), minigrad.DoubleTensor)
    assert isinstance(minigrad.ones(2, dtype=minigrad.float64), minigrad.DoubleTensor)
    assert isinstance(minigrad.tensor([1]), minigrad.LongTensor)
    assert repr(minigrad.FloatTensor) == "<class 'minigrad.FloatTensor'>"


@pytest.mark.parametrize(
    ("args", "error", "message"),
    [
        ((2.5,), TypeError, "new(): data must be a sequence (got float)"),
        (("abc",), TypeError, "new(): invalid data type 'str'"),
        (([[1, 2], [3]],), ValueError, "expected sequence of length 2 at dim 1 (got 1)"),
    ],
)
def test_legacy_constructor_errors(args, error, message) -> None:
    with pytest.raises(error) as info:
        minigrad.FloatTensor(*args)
    assert str(info.value) == message


# -- factories -------------------------------------------------------------------------------------


@pytest.mark.parametrize("size", [(2, 3), ((2, 3),), ([2, 3],), (Size([2, 3]),)])
def test_ones_zeros_empty_take_sizes_every_way(size) -> None:
    for factory, value in ((minigrad.ones, 1.0), (minigrad.zeros, 0.0)):
        t = factory(*size)
        assert t.shape == (2, 3) and t.dtype is minigrad.float32
        assert t.tolist() == [[value] * 3] * 2
    assert minigrad.empty(*size).shape == (2, 3)


def test_factories_dtype_and_requires_grad() -> None:
    t = minigrad.zeros(2, dtype=minigrad.float64, requires_grad=True)
    assert t.dtype is minigrad.float64 and t.requires_grad and t.is_leaf
    assert minigrad.ones(2, dtype=minigrad.long).tolist() == [1, 1]
    assert minigrad.zeros(2, dtype=minigrad.bool).tolist() == [False, False]
    assert minigrad.ones(()).shape == () and minigrad.ones([]).shape == ()
    assert minigrad.ones(np.int64(2)).shape == (2,)
    assert minigrad.ones(minigrad.tensor(2)).shape == (2,)


def test_full() -> None:
    assert minigrad.full((2, 2), 7.0).tolist() == [[7.0, 7.0], [7.0, 7.0]]
    assert minigrad.full((2,), 7.0).dtype is minigrad.float32
    assert minigrad.full((2,), 3).dtype is minigrad.int64
    assert minigrad.full((1,), True).dtype is minigrad.bool
    assert minigrad.full((2,), 1.5, dtype=minigrad.int64).tolist() == [1, 1]
    with pytest.raises(TypeError) as info:
        minigrad.full(2, 1.5)
    assert str(info.value) == "full(): argument 'size' (position 1) must be tuple of ints, not int"


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda: minigrad.ones(2.5),
            "ones(): argument 'size' (position 1) must be tuple of ints, not float",
        ),
        (
            lambda: minigrad.zeros("a"),
            "zeros(): argument 'size' (position 1) must be tuple of ints, not str",
        ),
        (
            lambda: minigrad.ones(True),
            "ones(): argument 'size' (position 1) must be tuple of ints, not bool",
        ),
        (
            lambda: minigrad.ones([2.5]),
            "ones(): argument 'size' (position 1) must be tuple of "
            "ints, but found element of type float at pos 0",
        ),
        (
            lambda: minigrad.ones(2, "a"),
            "ones(): argument 'size' failed to unpack the object at "
            'pos 2 with error "type must be tuple of ints,but got str"',
        ),
        (
            lambda: minigrad.ones((2, 2.5)),
            "ones(): argument 'size' failed to unpack the object "
            'at pos 2 with error "type must be tuple of ints,but got float"',
        ),
        (
            lambda: minigrad.rand(2.5),
            "rand(): argument 'size' (position 1) must be tuple of ints, not float",
        ),
    ],
)
def test_factory_size_type_errors(call, message) -> None:
    with pytest.raises(TypeError) as info:
        call()
    assert str(info.value) == message


def test_factory_negative_size() -> None:
    with pytest.raises(RuntimeError) as info:
        minigrad.ones(2, -1)
    assert str(info.value) == "Trying to create tensor with negative dimension -1: [2, -1]"


def test_like_factories_keep_shape_and_dtype() -> None:
    x = minigrad.tensor([[1.0, 2.0]], dtype=minigrad.float64, requires_grad=True)
    for t, value in (
        (minigrad.ones_like(x), 1.0),
        (minigrad.zeros_like(x), 0.0),
        (minigrad.full_like(x, 3.0), 3.0),
    ):
        assert t.shape == (1, 2) and t.dtype is minigrad.float64
        assert t.tolist() == [[value, value]]
        assert not t.requires_grad and t.is_leaf
    assert minigrad.empty_like(x).shape == (1, 2)
    assert minigrad.rand_like(x).dtype is minigrad.float64
    assert minigrad.randn_like(x).shape == (1, 2)
    i = minigrad.tensor([1, 2])
    assert minigrad.full_like(i, 2.7).tolist() == [2, 2]
    assert minigrad.ones_like(i, dtype=minigrad.float32).dtype is minigrad.float32
    assert minigrad.zeros_like(x, requires_grad=True).requires_grad


def test_arange() -> None:
    assert minigrad.arange(5).tolist() == [0, 1, 2, 3, 4]
    assert minigrad.arange(5).dtype is minigrad.int64
    assert minigrad.arange(1, 4).tolist() == [1, 2, 3]
    assert minigrad.arange(0.0, 1.0, 0.25).tolist() == [0.0, 0.25, 0.5, 0.75]
    assert minigrad.arange(0, 1, 0.5).dtype is minigrad.float32
    assert minigrad.arange(5, dtype=minigrad.float64).dtype is minigrad.float64
    assert minigrad.arange(3, 0, -1).tolist() == [3, 2, 1]
    with pytest.raises(RuntimeError, match="^step must be nonzero$"):
        minigrad.arange(0, 1, 0)


def test_linspace_and_eye() -> None:
    assert minigrad.linspace(0, 1, 5).tolist() == [0.0, 0.25, 0.5, 0.75, 1.0]
    assert minigrad.linspace(-1, 1, steps=3).dtype is minigrad.float32
    assert minigrad.eye(2).tolist() == [[1.0, 0.0], [0.0, 1.0]]
    assert minigrad.eye(2, 3).shape == (2, 3)
    assert minigrad.eye(2, dtype=minigrad.int64).dtype is minigrad.int64
    with pytest.raises(RuntimeError, match="^number of steps must be non-negative$"):
        minigrad.linspace(0, 1, -1)


# -- random numbers --------------------------------------------------------------------------------


def test_rand_randn_randint() -> None:
    minigrad.manual_seed(0)
    u = minigrad.rand(2000)
    assert u.dtype is minigrad.float32 and u.shape == (2000,)
    assert 0 <= u.min().item() and u.max().item() < 1
    assert 0.45 < u.mean().item() < 0.55
    n = minigrad.randn(50, 40)
    assert n.shape == (50, 40) and n.dtype is minigrad.float32
    assert abs(n.mean().item()) < 0.1 and 0.9 < n.std().item() < 1.1
    r = minigrad.randint(0, 10, (1000,))
    assert r.dtype is minigrad.int64
    assert set(r.tolist()) == set(range(10))
    assert minigrad.randint(5, (2, 2)).shape == (2, 2)
    assert minigrad.randint(3, 4, (3,)).tolist() == [3, 3, 3]
    assert minigrad.rand(2, dtype=minigrad.float64).dtype is minigrad.float64
    assert minigrad.randn(2, requires_grad=True).requires_grad
    assert minigrad.rand(()).shape == ()


def test_manual_seed_makes_random_numbers_repeatable() -> None:
    minigrad.manual_seed(42)
    a = minigrad.randn(5).tolist(), minigrad.rand(3).tolist(), minigrad.randint(0, 100, (4,))
    minigrad.manual_seed(42)
    b = minigrad.randn(5).tolist(), minigrad.rand(3).tolist(), minigrad.randint(0, 100, (4,))
    assert a[:2] == b[:2] and a[2].tolist() == b[2].tolist()
    minigrad.manual_seed(43)
    assert minigrad.randn(5).tolist() != a[0]


def test_randint_errors() -> None:
    with pytest.raises(RuntimeError) as info:
        minigrad.randint(5, 3, (2,))
    assert str(info.value) == (
        "random_ expects 'from' to be less than 'to', but got from=5 >= to=3"
    )


# -- numpy -----------------------------------------------------------------------------------------


def test_from_numpy_shares_memory() -> None:
    n = np.arange(4, dtype=np.float32).reshape(2, 2)
    t = minigrad.from_numpy(n)
    n[0, 0] = 9
    assert t[0, 0].item() == 9
    t.add_(1)
    assert n[0, 0] == 10
    assert t.numpy() is n or np.shares_memory(t.numpy(), n)
    assert minigrad.from_numpy(np.array([1, 2], dtype=np.int32)).dtype is minigrad.int32


def test_as_tensor_shares_when_it_can() -> None:
    n = np.ones(3)
    assert np.shares_memory(minigrad.as_tensor(n).numpy(), n)
    assert not np.shares_memory(minigrad.as_tensor(n, dtype=minigrad.float32).numpy(), n)
    t = minigrad.ones(2)
    assert minigrad.as_tensor(t) is t
    assert minigrad.as_tensor([1, 2]).dtype is minigrad.int64


def test_from_numpy_errors() -> None:
    with pytest.raises(TypeError, match=r"^expected np\.ndarray \(got list\)$"):
        minigrad.from_numpy([1, 2])
    with pytest.raises(TypeError) as info:
        minigrad.from_numpy(np.array(["a"]))
    assert str(info.value).startswith(
        "can't convert np.ndarray of type numpy.str_. The only "
        "supported types are: float64, float32, float16,"
    )
    with pytest.raises(TypeError, match="numpy.object_"):
        minigrad.tensor(np.array([1], dtype=object))


# -- dtypes and their aliases ----------------------------------------------------------------------


def test_dtype_aliases() -> None:
    assert minigrad.float is minigrad.float32
    assert minigrad.double is minigrad.float64
    assert minigrad.long is minigrad.int64
    assert minigrad.int is minigrad.int32
    assert minigrad.half is minigrad.float16
    assert repr(minigrad.float32) == "minigrad.float32"
    assert repr(minigrad.bool) == "minigrad.bool"
    assert str(type(minigrad.float32)) == "<class 'minigrad.dtype'>"
    assert minigrad.float32.is_floating_point and not minigrad.int64.is_floating_point
    assert minigrad.float64.itemsize == 8


def test_default_dtype() -> None:
    assert minigrad.get_default_dtype() is minigrad.float32
    try:
        minigrad.set_default_dtype(minigrad.float64)
        assert minigrad.tensor([1.5]).dtype is minigrad.float64
        assert minigrad.ones(2).dtype is minigrad.float64
    finally:
        minigrad.set_default_dtype(minigrad.float32)
    assert minigrad.tensor([1.5]).dtype is minigrad.float32
    with pytest.raises(TypeError):
        minigrad.set_default_dtype(minigrad.int64)


# -- Size ------------------------------------------------------------------------------------------


def test_size() -> None:
    s = minigrad.ones(2, 3).shape
    assert repr(s) == str(s) == "minigrad.Size([2, 3])"
    assert str(type(s)) == "<class 'minigrad.Size'>"
    assert s == (2, 3) and s == Size([2, 3]) and isinstance(s, tuple)
    assert s.numel() == 6 and Size([]).numel() == 1
    assert s[0] == 2 and type(s[0]) is int
    assert type(s[1:]) is Size and s[1:] == (3,)
    assert type(s + (4,)) is Size and s + (4,) == (2, 3, 4)
    assert repr(minigrad.tensor(1.0).shape) == "minigrad.Size([])"
    assert list(s) == [2, 3]
