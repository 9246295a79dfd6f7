"""``t.new_zeros``, ``new_ones``, ``new_empty``, ``new_full``, ``new_tensor`` and ``type_as``,
kept as parity snippets: the dtype of ``t`` unless ``dtype=`` is given, a new leaf, the
factories' checks with the method's name. ``parity_snippets.SNIPPETS`` includes these.
"""

from __future__ import annotations

NEW_METHODS: dict[str, str] = {
    "new_zeros_sizes": """
        show(T.ones(2, dtype=T.int32).new_zeros(3))
        show(T.ones(2, dtype=T.int32).new_zeros((3, 2)))
        show(T.ones(2, dtype=T.int32).new_zeros([3, 2]))
        show(T.ones(2, dtype=T.int32).new_zeros(3, 2))
        show(T.ones(2, dtype=T.int32).new_zeros(T.Size([3])))
    """,
    "new_zeros_without_a_size": """
        T.ones(2, dtype=T.int32).new_zeros()
    """,
    "new_zeros_dtype_and_requires_grad": """
        show(T.ones(2, dtype=T.int32).new_zeros(()))
        show(T.ones(2).new_zeros(2, dtype=T.float64))
        show(T.ones(2).new_zeros(2, requires_grad=True))
    """,
    "new_zeros_integer_requires_grad": """
        T.ones(2, dtype=T.int32).new_zeros(2, requires_grad=True)
    """,
    "new_zeros_negative_size": """
        T.ones(2).new_zeros(-1)
    """,
    "new_zeros_float_size": """
        T.ones(2).new_zeros(2.5)
    """,
    "new_zeros_str_size": """
        T.ones(2).new_zeros(2, 'a')
    """,
    "new_ones_and_new_full": """
        show(T.ones(2).new_ones(2, 3))
        show(T.ones(2, dtype=T.bool).new_ones(2))
        show(T.ones(2).new_full((2,), 3))
    """,
    "new_full_int_size": """
        T.ones(2).new_full(2, 3)
    """,
    "new_full_values": """
        show(T.ones(2).new_full([2], 3))
        show(T.ones(2, dtype=T.int64).new_full((2,), 2.5))
        show(T.ones(2, dtype=T.uint8).new_full((2,), -1))
    """,
    "new_full_out_of_range": """
        T.ones(2, dtype=T.uint8).new_full((2,), 300)
    """,
    "new_full_float32_out_of_range": """
        T.ones(2).new_full((2,), 1e300)
    """,
    "new_full_dtype_bool_and_tensor_values": """
        show(T.ones(2).new_full((2,), 3, dtype=T.int8))
        show(T.ones(2).new_full((2,), True))
        show(T.ones(2).new_full((2,), T.tensor(3.)))
    """,
    "new_empty": """
        show(T.ones(2).new_empty(2).shape)
        show(T.ones(2).new_empty((2, 3)).dtype)
        show(T.ones(2, dtype=T.int8).new_empty(0))
    """,
    "new_tensor_in_the_dtype": """
        show(T.ones(2).new_tensor([1, 2]))
        show(T.ones(2).new_tensor([1.5, 2]))
        show(T.ones(2, dtype=T.int32).new_tensor([1.5, 2]))
    """,
    "new_tensor_out_of_range": """
        T.ones(2, dtype=T.int8).new_tensor([300])
    """,
    "new_tensor_of_a_tensor_warns": """
        show(T.ones(2).new_tensor(T.tensor([1, 2])))
    """,
    "new_tensor_number_dtype_requires_grad": """
        show(T.ones(2).new_tensor(3))
        show(T.ones(2).new_tensor([1, 2], dtype=T.int64))
        show(T.ones(2).new_tensor([1, 2], requires_grad=True))
    """,
    "new_methods_of_a_result_need_no_grad": """
        x = T.ones(2, requires_grad=True)
        y = x * 2
        show(y.new_zeros(2))
        show(y.new_ones(1, requires_grad=True))
        show(y.new_full((1,), 2.))
        show(y.new_tensor([3.]))
    """,
    "new_tensor_copies_a_numpy_array": """
        a = np.array([1., 2.])
        t = T.ones(2).new_tensor(a)
        a[0] = 5
        show(t)
    """,
    "type_as": """
        show(T.ones(2).type_as(T.ones(1, dtype=T.int64)))
        show(T.ones(2, dtype=T.int8).type_as(T.ones(1)))
    """,
    "type_as_a_number": """
        T.ones(2).type_as(3)
    """,
    "type_as_gradient": """
        x = T.ones(2, requires_grad=True)
        y = x.type_as(T.ones(1, dtype=T.float64))
        y.sum().backward()
        show(y, x.grad)
    """,
    "type_as_same_dtype": """
        x = T.ones(2, requires_grad=True)
        show(x.type_as(x) is x)
    """,
    "new_methods_size_keywords": """
        show(T.ones(2).new_zeros(size=(2,3)), T.ones(2).new_full(size=(2,), fill_value=4))
    """,
}
