"""``outer``/``ger``, ``atan2``, ``fmod``, ``lerp``, ``tensor_split`` and ``erf``/``erfc``/
``erfinv`` as parity snippets: values, dtypes (integers and bools promote as PyTorch does),
the graph (``outer`` is a view times a vector in PyTorch; ``tensor_split``'s parts are
slices), gradients and errors in PyTorch's order. ``parity_snippets.SNIPPETS`` includes these.
"""

from __future__ import annotations

MATH_OPS: dict[str, str] = {
    # -- outer / ger ---------------------------------------------------------------------------
    "outer_graph_and_grads": """
        a = T.tensor([1., 2., 3.], requires_grad=True)
        b = T.tensor([4., 5.], requires_grad=True)
        o = T.outer(a, b)
        show(o, a.outer(b), T.ger(a, b), a.ger(b))
        graph(o)
        o.backward(T.tensor([[1., 2.], [3., 4.], [5., 6.]]))
        show(a.grad, b.grad)
    """,
    "outer_strided_and_constant_side": """
        x = T.arange(6.).requires_grad_()
        o = T.outer(x[::2], T.ones(2))
        show(o)
        graph(o)
        show(T.outer(T.ones(2), x[1:3]))
        graph(T.outer(T.ones(2), x[1:3]))
    """,
    "outer_dtypes": """
        show(T.outer(T.tensor([1, 2]), T.tensor([1.5])))
        show(T.outer(T.tensor([1, 2]), T.tensor([2.5], dtype=T.float64)))
        show(T.outer(T.tensor([True]), T.tensor([True, False])))
        show(T.outer(T.tensor([1, 2], dtype=T.int32), T.tensor([True, False])))
        show(T.outer(T.ones(0), T.ones(3)))
    """,
    "outer_not_1d": """
        T.outer(T.ones(2, 2), T.ones(2))
    """,
    "outer_vec2_not_1d": """
        T.outer(T.ones(2), T.ones(()))
    """,
    "ger_not_1d": """
        T.ger(T.ones(2), T.ones(2, 1))
    """,
    "outer_number": """
        T.outer(T.ones(2), 3)
    """,
    "outer_method_number": """
        T.ones(2).outer(3.5)
    """,
    "outer_number_first": """
        T.outer(2, T.ones(2))
    """,
    # -- atan2 ---------------------------------------------------------------------------------
    "atan2_quadrants_and_zeros": """
        y = T.tensor([1., -1., 0., -0., 2.], requires_grad=True)
        x = T.tensor([[1.], [-1.], [0.], [-0.]], requires_grad=True)
        o = T.atan2(y, x)
        show(o, o.grad_fn._saved_self is y, o.grad_fn._saved_other is x)
        graph(o)
        o.sum().backward()
        show(y.grad, x.grad)
    """,
    "atan2_double_backward": """
        y = T.tensor([0., 1., -2.], requires_grad=True)
        x = T.tensor([0., 3., -0.], requires_grad=True)
        g, h = T.autograd.grad(T.atan2(y, x).sum(), (y, x), create_graph=True)
        show(g, h)
        graph(g)
        graph(h)
        show(T.autograd.grad(g.sum() + h.sum(), (y, x)))
    """,
    "atan2_dtypes": """
        show(T.atan2(T.tensor([1, 2]), T.tensor([3, 4])))
        show(T.atan2(T.tensor([True]), T.tensor([False])))
        show(T.arctan2(T.tensor([1.]), T.tensor([1.], dtype=T.float64)))
        show(T.atan2(T.tensor([1.]), T.tensor(1., dtype=T.float64)))
        show(T.atan2(T.tensor([1]), T.tensor(1., dtype=T.float64)))
        show(T.atan2(T.ones(2, dtype=T.float16), T.ones(2, dtype=T.int64)))
        show(T.tensor([1., 2.]).atan2(T.tensor([1, 2])))
    """,
    "atan2_special_values": """
        inf, nan = float('inf'), float('nan')
        y = T.tensor([nan, inf, -inf, 1e-45, 3e38])
        show(T.atan2(y, T.tensor([1., inf, inf, 1e-45, -1e-38])))
    """,
    "atan2_mixed_dtype_grads": """
        y = T.tensor([1.], requires_grad=True)
        o = T.atan2(T.tensor([2]), y)
        o.sum().backward()
        show(y.grad)
        y.grad = None
        o = T.atan2(T.tensor([2.], dtype=T.float64), y)
        o.backward(T.ones(1, dtype=T.float64))
        show(y.grad)
    """,
    "atan2_integer_self_gradient": """
        x = T.tensor([1.5, -2.], requires_grad=True)
        show(T.autograd.grad(T.atan2(T.tensor([3, 0]), x).sum(), x))
        show(T.autograd.grad(T.atan2(x, T.tensor([True, False])).sum(), x))
    """,
    "atan2_bool_self_gradient": """
        x = T.tensor([1.5, -2.], requires_grad=True)
        T.autograd.grad(T.atan2(T.tensor([True, False]), x).sum(), x)
    """,
    "atan2_0d_operands": """
        x = T.tensor([[1.5, -2.]], requires_grad=True)
        show(T.autograd.grad(T.atan2(T.tensor(3), x).sum(), x))
        show(T.autograd.grad(T.atan2(x, T.tensor(True)).sum(), x))
        y = T.tensor(2., dtype=T.float64, requires_grad=True)
        o = T.atan2(x, y)
        show(o, o.grad_fn._saved_other is y, T.autograd.grad(o.sum(), [x, y]))
        show(T.atan2(T.tensor([1, 2]), T.tensor(3., dtype=T.float64)))
        show(T.atan2(T.tensor(1), T.tensor(3)))
    """,
    "atan2_0d_bool_self_gradient": """
        x = T.tensor([[1.5, -2.]], requires_grad=True)
        T.autograd.grad(T.atan2(T.tensor(True), x).sum(), x)
    """,
    "atan2_inplace": """
        a = T.tensor([1., -2.], requires_grad=True)
        b = a * 1
        b.atan2_(T.tensor([1, 1]))
        show(b, b.grad_fn._saved_self, b.grad_fn._saved_other)
        graph(b)
        b.sum().backward()
        show(a.grad)
        c = T.tensor([1., 2.])
        show(c.arctan2_(T.tensor([2., 1.])), c)
    """,
    "atan2_inplace_integer": """
        T.tensor([1, 2]).atan2_(T.tensor([1., 2.]))
    """,
    "atan2_inplace_broadcast": """
        T.tensor([1., 2.]).atan2_(T.ones(2, 2))
    """,
    "atan2_sizes": """
        T.atan2(T.ones(2), T.ones(3))
    """,
    "atan2_number": """
        T.atan2(T.tensor([1.]), 2)
    """,
    "atan2_method_number": """
        T.tensor([1.]).arctan2(2.5)
    """,
    "atan2_inplace_number": """
        T.tensor([1.]).atan2_(2.5)
    """,
    "atan2_inplace_leaf": """
        T.ones(2, requires_grad=True).atan2_(T.ones(2))
    """,
    # -- fmod ----------------------------------------------------------------------------------
    "fmod_graph_and_grads": """
        a = T.tensor([5., -5., 3.5, -0., 7.], requires_grad=True)
        b = T.tensor([3., 3., -2., 2., -3.], requires_grad=True)
        o = T.fmod(a, b)
        show(o, o.grad_fn._saved_self is a, o.grad_fn._saved_other is b)
        graph(o)
        o.sum().backward()
        show(a.grad, b.grad)
        s = a.fmod(2.5)
        show(s, T.fmod(a, 2))
        graph(s)
    """,
    "fmod_divisor_gradient_graph": """
        x = T.tensor([7., -3.])
        y = T.tensor([2., 2.], requires_grad=True)
        o = T.fmod(x, y)
        show(o.grad_fn._saved_self)
        g, = T.autograd.grad(o.sum(), y, create_graph=True)
        show(g)
        graph(g)
        z = T.tensor([7., -3.], requires_grad=True)
        show(T.fmod(z, T.tensor([2., 2.])).grad_fn._saved_self)
    """,
    "fmod_integers_and_bools": """
        show(T.fmod(T.tensor([5, -5]), T.tensor([3, 3])), T.fmod(T.tensor([5, -5]), 2.5))
        show(T.fmod(T.tensor([5, -5]), 0.), T.fmod(T.tensor([5, -5]), T.tensor(2.5)))
        show(T.fmod(T.tensor([True]), 1), T.fmod(T.tensor([3]), True))
        show(T.fmod(T.tensor([5, -5], dtype=T.uint8), -3))
        show(T.fmod(T.tensor([5, -5], dtype=T.int32), T.tensor([2], dtype=T.int64)))
        show(T.fmod(T.tensor([16777217]), 2.5), T.fmod(T.tensor([16777217]), T.tensor([2.5])))
        show(T.fmod(T.tensor([5, -7], dtype=T.int8), T.tensor(3.)))
        show(T.fmod(T.ones(0, dtype=T.int64), T.zeros(1, dtype=T.int64)))
    """,
    "fmod_floats": """
        inf, nan = float('inf'), float('nan')
        show(T.fmod(T.tensor([5., -5., inf, 1., nan]), T.tensor([0., -0., 2., inf, 1.])))
        show(T.fmod(T.tensor([-1.]), 1e-40), T.fmod(T.tensor([-1.] * 20), 1e-40))
        show(T.fmod(T.tensor([16777217.], dtype=T.float64), T.tensor(2.5)))
        show(T.fmod(T.tensor([5., -7.], dtype=T.float64), T.tensor([2, 3])))
    """,
    "fmod_inplace": """
        a = T.tensor([5., -7.], requires_grad=True)
        b = a * 1
        b.fmod_(T.tensor([2., 3.]))
        show(b)
        graph(b)
        c = a * 1
        c.fmod_(2)
        show(c)
        graph(c)
        d = T.tensor([5, -7])
        d.fmod_(T.tensor(3))
        show(d, T.tensor([5., 3.]).fmod_(T.tensor([2, 2])))
    """,
    "fmod_inplace_bool_by_integer_zeros": """
        T.tensor([True, False]).fmod_(T.tensor([0, 1]))
    """,
    "remainder_inplace_bool_by_integer_zero": """
        b = T.tensor([True, False])
        b %= 0
    """,
    "fmod_integer_by_zero": """
        T.fmod(T.tensor([5, -5]), T.tensor([3, 0]))
    """,
    "fmod_integer_by_number_zero": """
        T.fmod(T.tensor([5, -5]), 0)
    """,
    "fmod_sizes_before_zero": """
        T.fmod(T.ones(2, dtype=T.int64), T.zeros(3, dtype=T.int64))
    """,
    "fmod_bools": """
        T.fmod(T.tensor([True]), T.tensor([True]))
    """,
    "fmod_number_first": """
        T.fmod(5, T.tensor([2]))
    """,
    "fmod_string": """
        T.fmod(T.tensor([2]), 'a')
    """,
    "fmod_method_string": """
        T.tensor([2]).fmod('a')
    """,
    "fmod_inplace_float_into_integer": """
        T.tensor([5, 3]).fmod_(2.5)
    """,
    "fmod_inplace_broadcast": """
        T.ones(2, dtype=T.int64).fmod_(T.zeros(2, 2, dtype=T.int64))
    """,
    # -- lerp ----------------------------------------------------------------------------------
    "lerp_number_weight": """
        a = T.tensor([1., 2., 3.], requires_grad=True)
        b = T.tensor([[10.], [20.]], requires_grad=True)
        o = T.lerp(a, b, 0.3)
        show(o, o.grad_fn._saved_weight, a.lerp(b, 0.7))
        graph(o)
        o.sum().backward()
        show(a.grad, b.grad)
    """,
    "lerp_tensor_weight": """
        a = T.tensor([1., 2., 3.], requires_grad=True)
        b = T.tensor([[10.], [20.]], requires_grad=True)
        w = T.tensor([0.2, 0.7, 0.5], requires_grad=True)
        o = T.lerp(a, b, w)
        show(o, o.grad_fn._saved_self is a, o.grad_fn._saved_end is b, o.grad_fn._saved_weight is w)
        graph(o)
        o.sum().backward()
        show(a.grad, b.grad, w.grad)
        o = T.lerp(T.ones(3), T.zeros(3), w)
        show(o.grad_fn._saved_self, o.grad_fn._saved_end, o.grad_fn._saved_weight)
        o = T.lerp(a, T.zeros(3), T.tensor([0.2, 0.7, 0.5]))
        show(o.grad_fn._saved_self, o.grad_fn._saved_end, o.grad_fn._saved_weight)
    """,
    "lerp_double_backward": """
        x = T.tensor([1., 2.], requires_grad=True)
        e = T.tensor([3., 5.], requires_grad=True)
        w = T.tensor([0.25, 0.75], requires_grad=True)
        gs = T.autograd.grad(T.lerp(x, e, w).sum(), (x, e, w), create_graph=True)
        show(gs)
        for g in gs:
            graph(g)
        gs = T.autograd.grad(T.lerp(x, e, 0.3).sum(), (x, e), create_graph=True)
        show(gs)
    """,
    "lerp_rounding_halves": """
        a = T.tensor([0.1, -3.3, 1e-3, 7.7, 2.5, 1e30])
        b = T.tensor([0.7, 11.1, -4.4, 7.9, -2.5, 1.])
        show(T.lerp(a, b, 0.3), T.lerp(a, b, 0.7), T.lerp(a, b, 1.0), T.lerp(a, b, -0.49))
        show(T.lerp(a, b, T.tensor([0.1, 0.49, 0.5, 0.51, 1.5, -2.])))
        show(T.lerp(a.double(), b.double(), 0.3), T.lerp(a.half(), b.half(), 0.3))
        inf, nan = float('inf'), float('nan')
        show(T.lerp(T.tensor([1., inf]), T.tensor([3., 4.]), 0.25))
        show(T.lerp(T.tensor([1., inf]), T.tensor([3., 4.]), 0.75))
        show(T.lerp(T.tensor([1., 2.]), T.tensor([3., 4.]), nan))
        m = T.zeros(3)
        for i in range(3):
            m.lerp_(T.tensor([1., 2., 3.]), 0.1)
        show(m)
    """,
    "lerp_weight_dtypes": """
        show(T.lerp(T.tensor([1., 2.]), T.tensor([3., 4.]), T.tensor(0.5, dtype=T.float64)))
        show(T.lerp(T.tensor([1., 2.]), T.tensor([3., 4.]), 2), T.lerp(T.ones(2), T.zeros(2), True))
        show(T.lerp(T.tensor([1, 2]), T.tensor([3, 4]), T.tensor(0.5)))
        show(T.lerp(T.tensor([1., 2.]), T.tensor([3., 4.]), T.tensor(True)))
        show(T.lerp(T.tensor([1., 2.]), T.tensor([3., 4.]), T.tensor(2)))
        show(T.lerp(T.tensor(1.), T.tensor(3.), T.tensor([0.5, 2.])))
        x = T.tensor([1., 2.], requires_grad=True)
        w = T.tensor(0.5, dtype=T.float64, requires_grad=True)
        o = T.lerp(x, T.tensor([3., 4.]), w)
        graph(o)
        o.sum().backward()
        show(x.grad, w.grad)
    """,
    "lerp_integer_0d_weight_gradient": """
        b = T.tensor(-2.25, requires_grad=True)
        t = b * 2
        t.register_hook(lambda g: show(g))
        o = t.lerp(t, T.tensor(3))
        o.backward(gradient=T.tensor(-0.0))
        show(b.grad)
    """,
    "lerp_bool_0d_weight_gradient": """
        b = T.tensor(0.0, requires_grad=True)
        o = b.lerp(T.tensor(2.3, requires_grad=True), T.tensor(False))
        show(o)
        T.autograd.grad(o, b)
    """,
    "lerp_inplace": """
        y = T.tensor([1., 2.], requires_grad=True) * 1
        y.lerp_(T.tensor([5., 5.]), T.tensor([0.5, 0.25]))
        show(y, y.grad_fn._saved_self)
        graph(y)
        z = T.tensor([1., 2.], requires_grad=True) * 1
        z.lerp_(T.tensor([5., 5.]), 0.5)
        show(z)
        graph(z)
    """,
    "lerp_integers": """
        T.lerp(T.tensor([1, 2]), T.tensor([3, 4]), 0.5)
    """,
    "lerp_integer_weight_tensor": """
        T.lerp(T.tensor([1, 2]), T.tensor([3, 4]), T.tensor([1, 2]))
    """,
    "lerp_bools": """
        T.lerp(T.tensor([True]), T.tensor([True]), True)
    """,
    "lerp_end_dtype": """
        T.lerp(T.tensor([1., 2.]), T.tensor([3., 4.], dtype=T.float64), 0.5)
    """,
    "lerp_end_integer": """
        T.lerp(T.tensor([1., 2.]), T.tensor([3, 4]), T.tensor([0.5, 0.5], dtype=T.float64))
    """,
    "lerp_weight_dtype": """
        T.lerp(T.tensor([1., 2.]), T.tensor([3., 4.]), T.tensor([0.5], dtype=T.float64))
    """,
    "lerp_sizes": """
        T.lerp(T.tensor([1., 2.]), T.tensor([3., 4., 5.]), 0.5)
    """,
    "lerp_weight_sizes": """
        T.lerp(T.tensor([1., 2.]), T.tensor([3., 4.]), T.ones(3))
    """,
    "lerp_inplace_broadcast": """
        T.tensor([1., 2.]).lerp_(T.tensor([3., 4.]), T.ones(2, 2))
    """,
    "lerp_inplace_0d": """
        T.tensor(1.).lerp_(T.tensor([3., 4.]), 0.25)
    """,
    "lerp_weight_too_large": """
        T.lerp(T.tensor([1., 2.]), T.tensor([3., 4.]), 1e300)
    """,
    "lerp_weight_int_too_large": """
        T.lerp(T.tensor([1., 2.]), T.tensor([3., 4.]), 2**70)
    """,
    "lerp_no_weight": """
        T.lerp(T.tensor([1., 2.]), T.tensor([3., 4.]))
    """,
    "lerp_number_end": """
        T.lerp(T.tensor([1., 2.]), 3., 0.5)
    """,
    "lerp_method_number_end": """
        T.tensor([1., 2.]).lerp(3., 0.5)
    """,
    "lerp_method_string_weight": """
        T.tensor([1., 2.]).lerp_(T.tensor([3., 4.]), 'a')
    """,
    # -- tensor_split --------------------------------------------------------------------------
    "tensor_split_sections_graph": """
        x = T.arange(7.).requires_grad_()
        p = T.tensor_split(x, 3)
        show(p, [q.output_nr for q in p], [q._base is x for q in p])
        for q in p:
            graph(q)
        (p[0].sum() * 2 + p[2].sum()).backward()
        show(x.grad)
        show(T.tensor_split(x, 10), x.tensor_split(1), T.tensor_split(T.ones(0, 3), 3))
    """,
    "tensor_split_indices": """
        x = T.arange(7.).requires_grad_()
        show(x.tensor_split([1, 5]), x.tensor_split((1, 5)), T.tensor_split(x, []))
        show(T.tensor_split(x, [1, 5, 3]), T.tensor_split(x, [-2, 100]))
        show(T.tensor_split(T.arange(10).reshape(2, 5), [1, 3], dim=1))
        show(T.tensor_split(T.ones(2, 5), 2, dim=1), T.tensor_split(T.ones(2, 5), 2, -1))
        show(T.tensor_split(x, T.tensor(3)), T.tensor_split(x, T.tensor([1, 4])))
        show(T.tensor_split(x, sections=2), T.tensor_split(x, indices=[2]))
        show(T.tensor_split(x, tensor_indices_or_sections=T.tensor(2)))
    """,
    "tensor_split_part_in_place": """
        z = T.arange(5.).requires_grad_()
        a = z * 1
        b = T.tensor_split(a, 2)
        b[0].mul_(2)
        show(a, b[0])
        graph(a)
        a.sum().backward()
        show(z.grad)
    """,
    "tensor_split_no_sections": """
        T.tensor_split(T.arange(7.), 0)
    """,
    "tensor_split_0d": """
        T.tensor_split(T.ones(()), 2)
    """,
    "tensor_split_dim_out_of_range": """
        T.tensor_split(T.ones(2, 5), 2, dim=2)
    """,
    "tensor_split_index_tensor_dims": """
        T.tensor_split(T.arange(7.), T.tensor([[1, 4]]))
    """,
    "tensor_split_index_tensor_dtype": """
        T.arange(7.).tensor_split(T.tensor([1., 4.]))
    """,
    "tensor_split_float_sections": """
        T.tensor_split(T.arange(7.), 2.5)
    """,
    "tensor_split_method_float_indices": """
        T.arange(7.).tensor_split([1.5])
    """,
    # -- erf, erfc, erfinv ----------------------------------------------------------------------
    "erf_family_graph_and_grads": """
        x = T.tensor([0.5, -1., 0., 2., -0.], requires_grad=True)
        for fn in ("erf", "erfc", "erfinv"):
            o = getattr(T, fn)(x)
            show(o, o.grad_fn._saved_self is x, getattr(x, fn)())
            graph(o)
            g, = T.autograd.grad(o.sum(), x, create_graph=True)
            show(g)
            graph(g)
            show(T.autograd.grad(g.sum(), x))
    """,
    "erf_family_values": """
        inf, nan = float('inf'), float('nan')
        show(T.erf(T.tensor([-30., 30., 1e-30, inf, -inf, nan, 0.3, -0.])))
        show(T.erfc(T.tensor([-30., 30., 10., inf, -inf, nan, 0.3, -0.])))
        show(T.erfinv(T.tensor([1., -1., 1.5, 0.999, nan, -0., 0., 0.7, -0.71])))
        show(T.erf(T.tensor([1, 2])), T.erf(T.tensor([True])))
        show(T.erfc(T.tensor([0.5], dtype=T.float64)), T.erf(T.tensor([0.5], dtype=T.float16)))
        show(T.erfinv(T.tensor([0.25, -0.9], dtype=T.float64)))
        show(T.erf(T.linspace(-3, 3, 40)), T.erfinv(T.linspace(-0.99, 0.99, 40)))
    """,
    "erfinv_tails_float64": """
        y = T.tensor([0.9999999, -0.99999999999, 1 - 1e-16, 0.75, 0.999, -0.5], dtype=T.float64)
        show(T.erfinv(y), T.erfinv(y).tolist())
    """,
    "erf_family_inplace": """
        a = T.tensor([0.3, -0.2], requires_grad=True) * 1
        a.erfinv_()
        show(a, a.grad_fn._saved_self)
        graph(a)
        b = T.tensor([0.3, -0.2])
        b.erf_()
        show(b, b.erfc_())
    """,
    "erf_inplace_integer": """
        T.tensor([1, 2]).erf_()
    """,
    "erf_number": """
        T.erf(2.)
    """,
}
