"""Issue 8's reproducers: real PyTorch code that minigrad ran differently, now parity snippets.

Each entry is a snippet in the style of ``parity_snippets.py`` (``T`` is the module, ``show``
and ``graph`` record what a learner sees); ``parity_snippets.SNIPPETS`` includes them all, so
``test_parity.py`` runs each one in torch and in minigrad and compares. The names say which
item of the issue each one closes.
"""

from __future__ import annotations

REPRODUCERS: dict[str, str] = {
    # -- a scalar training loop --------------------------------------------------------------------
    "scalar_loop_accumulates_twice": """
        w = T.tensor(1., requires_grad=True)
        (w * 2).backward()
        (w * 3).backward()
        show(w.grad)
        w.register_hook(lambda g: show(g))
        (w * w).backward()
        show(w.grad)
    """,
    # -- requires_grad is a bool -------------------------------------------------------------------
    "requires_grad_attribute_int": """
        t = T.ones(2)
        t.requires_grad = 1
    """,
    "requires_grad_attribute_numpy_bool": """
        t = T.ones(2)
        t.requires_grad = np.bool_(True)
    """,
    "requires_grad_method_refuses_non_bools": """
        t = T.ones(2)
        for value in (1, 2.5, 'yes', np.bool_(True), np.int64(1), None):
            try:
                t.requires_grad_(value)
            except TypeError as e:
                show(str(e))
        show(t.requires_grad_(True).requires_grad, t.requires_grad_(False).requires_grad)
    """,
    "factory_requires_grad_names_numpy_types": """
        for call in (lambda: T.ones(2, requires_grad=np.bool_(True)),
                     lambda: T.tensor([1.], requires_grad=np.int64(1))):
            try:
                call()
            except TypeError as e:
                show(str(e))
    """,
    "view_of_a_float": """
        T.ones(4).view(2.0)
    """,
    "view_with_a_float_inside": """
        T.ones(4).view(2, 2.0)
    """,
    "reshape_of_a_float": """
        T.ones(4).reshape(2.0)
    """,
    "reshape_with_a_float_inside": """
        T.ones(4).reshape((2, 2.0))
    """,
    "sum_over_a_float_dim": """
        T.ones(2, 2).sum(dim=1.0)
    """,
    "mean_over_dims_with_a_float": """
        T.ones(2, 2).mean(dim=(0, 1.0))
    """,
    "variable_without_arguments": """
        from T.autograd import Variable
        show(Variable())
    """,
    "variable_volatile_and_requires_grad": """
        from T.autograd import Variable
        show(Variable(T.ones(2), volatile=True, requires_grad=True))
    """,
    "float_tensor_with_requires_grad": """
        T.FloatTensor([1., 2.], requires_grad=True)
    """,
    # -- dtypes ------------------------------------------------------------------------------------
    "float_functions_of_bools_are_float32": """
        b = T.tensor([True, False])
        i8 = T.tensor([1, 2], dtype=T.int8)
        show(T.exp(b), b.sqrt(), b.sin(), b.cos(), b.tanh(), b.log(), b.sigmoid())
        show(i8.exp(), b * 1.5, b / 2, b + 0.5)
    """,
    "zero_dim_does_not_promote_within_its_category": """
        show(T.ones(2) * T.tensor(2., dtype=T.float64),
             T.ones(2, dtype=T.int32) + T.tensor(3),
             T.ones(2) + T.tensor(3),
             T.ones(2, dtype=T.int64) * T.tensor(2.),
             T.ones(2, dtype=T.int64) * T.tensor(2., dtype=T.float64),
             T.tensor(3) + T.tensor(2., dtype=T.float64),
             T.tensor([True]) + T.tensor(2, dtype=T.int32))
        x = T.ones(2, requires_grad=True)
        y = x * T.tensor(3., dtype=T.float64)
        y.sum().backward()
        show(y, x.grad)
    """,
    "bitwise_operators_on_integers": """
        a = T.tensor([5, 3]); b = T.tensor([3, 6]); m = T.tensor([True, False])
        show(a ^ b, a & b, a | b, ~a, a ^ 1, 1 & a, a & m, m & 1, m ^ T.tensor([False, False]),
             m | True, ~m, a.bitwise_xor(b), T.tensor(3) & a)
    """,
    "bitwise_and_of_floats": """
        T.ones(2) & T.ones(2)
    """,
    "bitwise_or_with_a_python_float": """
        T.tensor([True]) | 1.5
    """,
    "invert_of_floats": """
        ~T.ones(2)
    """,
    "bool_tensor_squared": """
        show(T.tensor([True, False]) ** 2, T.tensor([True, False]) ** 2.5)
    """,
    # -- bool and float inputs of activations ------------------------------------------------------
    "relu_of_bools": """
        T.tensor([True, False]).relu()
    """,
    "abs_of_bools_in_place": """
        T.tensor([True, False]).abs_()
    """,
    "exp_in_place_of_integers": """
        T.tensor([1, 2]).exp_()
    """,
    "sigmoid_in_place_of_bools": """
        T.tensor([True, False]).sigmoid_()
    """,
}
