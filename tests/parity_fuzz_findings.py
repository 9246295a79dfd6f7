"""What the differential fuzzer found and was fixed, kept as parity snippets.

Each entry is the minimised program of a finding in ``tests/difffuzz/FINDINGS.md`` (cleaned up
by hand), in the style of ``parity_snippets.py``; ``parity_snippets.SNIPPETS`` includes them, so
``test_parity.py`` runs each in torch and in minigrad and compares what a learner sees.
"""

from __future__ import annotations

FUZZ_FINDINGS: dict[str, str] = {
    # A4: f-strings of a loss, as every training loop prints it
    "format_of_a_zero_dim_tensor": """
        loss = T.tensor(2.34567, requires_grad=True) * 1
        show(f"{loss:.4f}", f"{loss}", format(loss, ".2e"), f"{T.tensor(3):d}")
        show(format(T.ones(2), ""), f"{T.tensor(True)}")
    """,
    "format_spec_of_a_vector": """
        format(T.ones(2), ".2f")
    """,
    "format_spec_of_a_parameter": """
        format(T.nn.Parameter(T.tensor(2.)), ".2f")
    """,
    # A5: Python scalars from many elements
    "float_of_many_elements": """
        float(T.ones(2))
    """,
    "int_of_no_elements": """
        int(T.ones(0))
    """,
    "complex_of_one_element": """
        show(complex(T.ones(1)), float(T.ones(1, 1)), int(T.tensor([[7]])))
        complex(T.ones(3))
    """,
    "bool_of_no_values": """
        bool(T.ones(0))
    """,
    # A9: dims of a 0-d tensor where PyTorch has none to offer
    "size_of_a_zero_dim_tensor": """
        show(T.tensor(2.).size(), T.tensor(2.).sum(0), T.tensor(2.).sum(-1))
        T.tensor(2.).size(0)
    """,
    "size_minus_one_of_a_zero_dim_tensor": """
        T.tensor(2.).size(-1)
    """,
    "unbind_of_a_zero_dim_tensor": """
        T.tensor(2.).unbind(0)
    """,
    # A1: div with rounding_mode
    "div_rounding_modes": """
        a = T.tensor([7., -7., 0., 1., 5.5, -5.5], requires_grad=True)
        b = T.tensor([2., 2., 0., -0., 2., -2.])
        y = T.div(a, b, rounding_mode="floor")
        z = a.div(b, rounding_mode="trunc")
        show(y, z)
        graph(y)
        (y + z).sum().backward()
        show(a.grad)
        w = T.div(2, a, rounding_mode="floor")
        show(w)
        graph(w)
        graph(T.div(a, 3, rounding_mode="trunc"))
    """,
    "div_rounding_modes_of_integers": """
        i, j = T.tensor([7, -7, 6]), T.tensor([2, 2, -4])
        show(T.div(i, j, rounding_mode="trunc"), T.div(i, j, rounding_mode="floor"))
        show(T.div(i, 2.5, rounding_mode="trunc"))
        show(T.div(i.int(), T.tensor(2), rounding_mode="floor"))
        show(T.div(T.ones(2), T.tensor(2., dtype=T.float64), rounding_mode="floor"))
    """,
    "div_rounding_mode_of_integers_by_zero": """
        T.div(T.tensor([7, -7]), T.tensor([0, 2]), rounding_mode="floor")
    """,
    "div_rounding_mode_of_bools": """
        T.div(T.tensor([True]), T.tensor([True]), rounding_mode="trunc")
    """,
    "div_unknown_rounding_mode": """
        T.div(T.ones(2), 2, rounding_mode="round")
    """,
    # W1: numpy's warnings never reach a learner (the harness records every warning)
    "no_numpy_warnings_forward_and_backward": """
        import warnings
        warnings.simplefilter("always")
        x = T.tensor([0., -1., 3e38, float("nan")], requires_grad=True)
        y = x.log() + x.sqrt() + 1 / x + x * 10 + x ** 0.5
        show(y)
        y.sum().backward()
        show(x.grad, T.tensor([float("nan"), float("inf")]).long().dtype)
    """,
    # N1, G1: node names and edges of numbers in arithmetic
    "sub_and_div_of_a_number_and_a_tensor": """
        x = T.tensor([1., 2.], requires_grad=True)
        for y in (T.sub(2, x), T.div(2, x), T.true_divide(2, x), T.sub(2, x, alpha=3), 2 - x):
            show(y)
            graph(y)
        (T.sub(2, x) + T.div(2, x)).sum().backward()
        show(x.grad)
    """,
    "reflected_add_and_mul_put_the_tensor_first": """
        x = T.tensor([1., 2.], requires_grad=True)
        for y in (2 * x, 1 + x, 2.5 * x, True * x, T.mul(2, x), T.add(2, x), x * 2):
            graph(y)
    """,
    "alpha_is_one_node": """
        x = T.tensor([1., 2.], requires_grad=True)
        z = T.tensor([3., 4.], requires_grad=True)
        for y in (T.add(x, z, alpha=2), x.sub(z, alpha=0.5), x.add(x, alpha=2),
                  T.add(2, x, alpha=3), x.clone().add_(z, alpha=2), x.clone().sub_(3, alpha=2)):
            show(y)
            graph(y)
        T.sub(x, z, alpha=-2).sum().backward()
        show(x.grad, z.grad)
    """,
    "alpha_of_bools": """
        d, g = T.tensor([False, True]), T.tensor(True)
        show(T.add(d, g, alpha=3), T.add(d, d, alpha=0), T.add(d, d, alpha=True))
        show(T.add(d, T.tensor([1, 2]), alpha=2))
    """,
    "alpha_true_of_floats": """
        T.add(T.ones(2), T.ones(2), alpha=True)
    """,
    "alpha_true_in_place": """
        T.ones(2).add_(T.ones(2), alpha=True)
    """,
    "alpha_float_of_integers": """
        T.add(T.tensor([1, 2]), T.tensor([1, 2]), alpha=2.5)
    """,
    "sub_of_a_python_bool": """
        T.sub(True, T.ones(2))
    """,
    # G1: F.linear as Linear.cpp records it, for every input rank
    "linear_at_every_rank": """
        w = T.ones(4, 3, requires_grad=True)
        for b in (T.ones(4, requires_grad=True), T.tensor(1., requires_grad=True), None):
            for x in (T.ones(3), T.ones(2, 3), T.ones(2, 2, 3), T.ones(2, 1, 2, 3), T.ones(2, 0, 3),
                      T.ones(3, 2, 2).transpose(0, 2)):
                y = F.linear(x.requires_grad_(), w, b)
                show(y)
                graph(y)
                y.sum().backward()
                show(w.grad)
    """,
    # G1: matmul folds a batch into one mm or mv when PyTorch does
    "matmul_folds_the_batch": """
        cases = [
            ((2, 2, 3), (3, 2), True, True),
            ((2, 2, 3), (3,), True, True),
            ((2, 3), (2, 3, 2), True, False),
            ((3,), (2, 3, 2), True, False),
            ((2, 2, 3), (3, 2), False, True),
            ((2, 1, 2, 3), (3, 2), True, True),
        ]
        for sa, sb, grad_a, grad_b in cases:
            a = T.arange(float(np.prod(sa))).reshape(sa).requires_grad_(grad_a)
            b = T.arange(float(np.prod(sb))).reshape(sb).requires_grad_(grad_b)
            y = a @ b
            show(y)
            graph(y)
            y.sum().backward()
            show(a.grad, b.grad)
    """,
    "matmul_folded_shapes_that_do_not_fit": """
        T.ones(2, 2, 3, requires_grad=True) @ T.ones(2, 2)
    """,
    # V1: relu keeps -0. and passes nan, its gradient is 0 (not -0. or nan) where it is off
    "relu_at_minus_zero_and_nan": """
        x = T.tensor([-0., 0., -1., float("nan"), 2., 3.], requires_grad=True)
        g = T.tensor([-1., -2., float("nan"), 1., float("nan"), -3.])
        y = x.relu()
        show(y, F.relu(x), T.relu(x.detach().double()))
        y.backward(g)
        show(x.grad)
    """,
    # A7: var/std backward with no degrees of freedom left
    "var_gradient_without_degrees_of_freedom": """
        x = T.tensor([[1., 2., 4.]], requires_grad=True)
        for v in (x.var(0), x.var(0, correction=3), x.std(1, correction=3), x.var(1, correction=2)):
            show(v)
            x.grad = None
            v.sum().backward()
            show(x.grad)
    """,
    # D1, G1: sum/mean(dtype=) compute in dtype, in one node
    "sum_and_mean_with_a_dtype": """
        x = T.tensor([1.5, 0., 2.], requires_grad=True)
        m = T.ones(2, 3, requires_grad=True)
        i, b = T.tensor([1, 0, 2]), T.tensor([True, False])
        show(i.sum(dtype=T.bool), x.detach().sum(dtype=T.bool), b.sum(dtype=T.int32))
        show(i.sum(0, dtype=T.bool), i.sum(dtype=T.float32), i.mean(dtype=T.float32))
        for y in (x.sum(dtype=T.float64), x.mean(dtype=T.float64), m.sum(1, True, dtype=T.float64),
                  m.mean((0, 1), dtype=T.float64), m.double().sum(dtype=T.float32)):
            show(y)
            graph(y)
            y.sum().backward()
        show(x.grad, m.grad, T.ones(0, 2).mean(dtype=T.float64), T.ones(0, 2).mean(0))
    """,
    "sum_to_an_integer_dtype_with_grad": """
        T.ones(2, requires_grad=True).sum(dtype=T.int64)
    """,
    "mean_to_an_integer_dtype": """
        T.ones(2).mean(dtype=T.int64)
    """,
    # V1: -0., nan and inf as PyTorch computes them (the exact formulas of FunctionsManual.cpp)
    "rounded_division_has_a_zero_gradient": """
        a = T.tensor([-0., 1., 3.], requires_grad=True)
        b = T.tensor([2., 0., -2.], requires_grad=True)
        T.div(a, b, rounding_mode="floor").backward(T.tensor([-1., float("nan"), float("inf")]))
        T.div(a, b, rounding_mode="trunc").backward(T.tensor([-1., 2., -3.]))
        show(a.grad, b.grad)
    """,
    "cumsum_starts_at_zero_and_sums_back_from_the_end": """
        a = T.tensor([[-0., -0., 1.], [0.1, 0.2, 0.3]], requires_grad=True)
        y = a.cumsum(1)
        show(y, T.tensor(-0.).cumsum(0), T.tensor([[-0.]]).cumsum(1))
        y.backward(T.tensor([[0.1, 0.2, 0.3], [-0., -0., -0.]]))
        show(a.grad, a.grad.tolist())
    """,
    "maximum_minimum_and_clamp_keep_the_first_at_a_tie": """
        a = T.tensor([-0., 0., 1., float("nan")], requires_grad=True)
        b = T.tensor([0., -0., 1., 2.])
        show(T.maximum(a, b), T.minimum(a, b), T.maximum(b, a), T.minimum(b, a))
        show(a.clamp(max=0.), a.clamp(min=0.), a.clamp(-0., 0.), a.clamp(min=b, max=b))
        show(T.maximum(T.tensor([0, 1]), T.tensor([-0., 2.])))
    """,
    "max_and_amax_share_the_gradient_as_pytorch_rounds_it": """
        a = T.tensor([1., 3.3, 3.3, -0., 3.3], requires_grad=True)
        T.div(2, a.max()).backward()
        show(a.grad)
        a.grad = None
        a.amax(0).backward(T.tensor(-1.))
        show(a.grad, a.grad.tolist())
        a.grad = None
        a.min().backward(T.tensor(float("nan")))
        show(a.grad)
    """,
    "var_and_std_without_degrees_of_freedom_are_nan_or_inf": """
        for x in (T.tensor(-0.58, requires_grad=True), T.tensor([1., 2., 2.], requires_grad=True)):
            for v in (T.var(x, correction=3), T.var(x, 0, correction=3), T.std(x, correction=3)):
                x.grad = None
                v.backward(T.tensor(-1.))
                show(x.grad)
    """,
    "std_of_huge_float32_values_is_rooted_before_rounding": """
        b = T.tensor([1e5, -0.35, 3e38, -0., 0.83, 1.], requires_grad=True)
        show(b.std(), b.var(), b.std(0), T.tensor([1e30, 2e30, 1e-30]).std())
    """,
    "vector_norm_overflows_and_underflows_as_float32": """
        a = T.tensor([-0., 1.05, 0.5, -0.33, 3e38, -1.06]).reshape(3, 2).requires_grad_()
        show(a.norm(), a.norm(dim=1), T.linalg.vector_norm(a, 3), T.linalg.vector_norm(a, 1))
        tiny = T.tensor([[1e-30, 1e-30]])
        show(T.tensor([1e-30, 3e-30]).norm(), T.tensor([1e-30]).norm(), tiny.norm(dim=0))
    """,
    "vector_norm_gradients_term_by_term": """
        for o in (2, 1, 3, 0.5, 1.5, float("inf")):
            for v in ([1.5, -2.25, 0., -0., 4.0, -4.0], [0., -0., 0.], [1., float("nan"), -3.]):
                a = T.tensor(v, requires_grad=True)
                T.linalg.vector_norm(a, o).backward(T.tensor(-2.))
                show(o, a.grad)
        a = T.tensor([0., -0.], requires_grad=True)
        a.norm().backward(T.tensor(float("nan")))
        show(a.grad)
    """,
    "zero_to_a_tensor_power_has_no_nan_gradient": """
        b = T.tensor([1.76, 1e30, -2.7, 0., -0., float("nan")], requires_grad=True)
        (0 ** b).sum().backward()
        show(b.grad)
        b.grad = None
        (0. ** b).backward(T.tensor([-1., 2., 3., -4., 5., 6.]))
        show(b.grad)
    """,
    "huber_and_smooth_l1_gradients_as_the_kernels_compute_them": """
        nan, inf, F = float("nan"), float("inf"), T.nn.functional
        x = T.tensor([nan, 0., 0.3, -2., inf, 1.5, 0.2], requires_grad=True)
        y = T.tensor([0., -0., 0.3, 0., 0., -1., 0.], requires_grad=True)
        for reduction in ("mean", "sum", "none"):
            for loss in (F.huber_loss(x, y, reduction=reduction, delta=0.7),
                         F.smooth_l1_loss(x, y, reduction=reduction, beta=0.7),
                         F.smooth_l1_loss(x, y, reduction=reduction)):
                x.grad = y.grad = None
                loss.backward(T.full(loss.shape, -0.37))
                show(x.grad, y.grad)
    """,
    "rounded_division_of_integers_by_float32": """
        m = T.tensor([-4, -3, 3, 4, 5, 1])
        p = T.tensor([0.3, -0.3, 0.3, 0.1, 0.7, 0.1])
        show(T.div(m, p, rounding_mode="trunc"), T.div(m, p, rounding_mode="floor"), m // p)
        show(T.div(p, m, rounding_mode="floor"), T.div(m, p.double(), rounding_mode="trunc"))
    """,
    "add_and_sub_with_alpha_round_once": """
        a = T.tensor([0.4371, -1.93, 2.7, 1e-3, -0.], requires_grad=True)
        b = T.tensor([1.61, 0.77, -3.3, 2e-3, -0.], requires_grad=True)
        for alpha in (1.5, 0.3, -2.7, 3, 0, -0.0, 1):
            y, z = T.add(a, b, alpha=alpha), T.sub(a, b, alpha=alpha)
            a.grad = b.grad = None
            (y + z).backward(T.full((5,), 0.5))
            show(y.tolist(), z.tolist(), b.grad)
        f = T.tensor(-0., dtype=T.float64)
        show(T.sub(f, f, alpha=0), T.add(f, f, alpha=0))
        show(T.sub(T.tensor([1, 2]), T.tensor([3, 4]), alpha=2))
    """,
    "mm_of_one_column_is_an_exact_outer_product": """
        for sa, sb in [((3, 1), (1, 3)), ((1, 1), (1, 3)), ((3, 1), (1, 1)), ((2, 5), (5, 1)),
                       ((1, 5), (5, 3)), ((3, 1), (2, 1, 3)), ((2, 3, 1), (2, 1, 3))]:
            a = T.full(sa, 2.0, requires_grad=True)
            b = T.full(sb, -0.0, requires_grad=True)
            y = a @ b
            y.backward(T.full(y.shape, -0.0))
            show(y.flatten().tolist(), a.grad.flatten().tolist(), b.grad.flatten().tolist())
        show(T.full((1,), 2.) @ T.full((1, 3), -0.), T.full((3, 1), 2.) @ T.full((1,), -0.))
    """,
    "nll_loss_of_a_zero_log_probability_is_zero": """
        F = T.nn.functional
        for x in ([[0., -1.]], [[-0., -1.]], [[0., -1.], [-0., -2.]], [0., -1.], [-0., -1.]):
            a = T.tensor(x)
            t = T.tensor([0] * len(x)) if isinstance(x[0], list) else T.tensor(0)
            show([F.nll_loss(a, t, reduction=r) for r in ("mean", "sum", "none")])
            show(F.nll_loss(a, t, weight=T.tensor([2., 1.])), F.cross_entropy(a * 100, t))
        a = T.tensor([[[0., -1.], [-0., 0.]], [[-1., -0.], [0., -2.]]])
        t = T.tensor([[0, 1], [1, 0]])
        show([F.nll_loss(a, t, reduction=r) for r in ("mean", "sum", "none")])
    """,
    "prod_of_two_zeros_has_a_zero_gradient": """
        inf = float("inf")
        for v in ([1.4, -0., 2., -2.8, 0.], [1., -0., 2.], [3., inf, 0., -0.], [0., 0.], [-0.]):
            a = T.tensor(v, requires_grad=True)
            a.prod().backward(T.tensor(-1.5))
            show(a.grad)
    """,
    "tensor_to_a_number_power_as_pytorch_rounds_it": """
        x = T.tensor([1.7, -2.3, 0.31, 3.9, -0.77, 2.2], requires_grad=True)
        for e in (3, -2, 3.0):
            y = x ** e
            show(y.tolist())
        z = x.abs()
        for e in (-0.5, 1.5, 2.5, 4):
            show((z ** e).tolist())
        show(T.tensor([2, 3]) ** 3, T.tensor([0., -0.]) ** -2, T.tensor([0., -0.]) ** -0.5)
    """,
    "log_sin_cos_of_float32_rounded_once": """
        x = T.tensor([0.3214, 1.7, 2.9, 5.5, 0.06, 1e-3, 12., 1e30], requires_grad=True)
        for y in (x.log(), x.sin(), x.cos()):
            show(y.tolist(), y.double())
        (x.log() + x.sin() + x.cos()).backward(T.full((8,), 0.37))
        show(x.grad.tolist())
    """,
    "sigmoid_and_tanh_round_as_pytorch": """
        x = T.tensor([0.3214, -1.7, 2.9, 5.5, -0.06, 1e-3, 12.], requires_grad=True)
        y, z = x.sigmoid(), x.tanh()
        show(y.tolist(), z.tolist(), y.double(), z.double())
        (y + z).backward(T.tensor([0.7, -1.3, 2.1, 0.5, -0.9, 3.3, 1.1]))
        show(x.grad.tolist())
        w = T.tensor([-200., -90., 0., -0., 90., float("nan"), float("inf")])
        show(w.sigmoid(), w.tanh(), w.double().sigmoid(), T.tensor([1, -3, 100]).sigmoid())
    """,
    # V1: softmax and log_softmax in the steps of PyTorch's kernels (SLEEF's exp, lane-wise
    # sums, 1 / sum, fused multiply-adds): the gradient of sum(softmax) is exactly 0. where the
    # outputs sum to exactly 1, and divisions by small outputs keep PyTorch's digits
    "softmax_rounds_as_pytorch": """
        b = T.tensor([[4.53, -0.64, -2.42], [-0.8, -2.7, -2.63]], requires_grad=True)
        (g,) = T.autograd.grad(b.softmax(-1).sum(), b, create_graph=True)
        show(g.tolist())
        x = T.tensor([[-0.2, 1.36, -0.55, 3.], [0.5, 0.12, -1.22, -4.7]], requires_grad=True)
        y = 2 / F.log_softmax(x, 0) + 2 / x.softmax(0) + 1 / x.log_softmax(-1)
        show(y.tolist())
        y.backward(T.tensor([[0.3, -1.1, 2.0, 0.7], [1.5, 0.2, -0.4, 0.9]]))
        show(x.grad.tolist(), F.cross_entropy(x, x.softmax(-1)).item())
        r = T.linspace(-3, 5, 37)
        show(r.softmax(0).tolist(), r.log_softmax(0).tolist())
    """,
    # V1: _version where PyTorch runs an in-place op of its own: matmul of a vector and a
    # matrix ends with squeeze_(0); clone (and contiguous) of an inference tensor outside
    # inference mode is empty_like + a copy_ that counts
    "version_of_internal_in_place_ops": """
        b, d = T.tensor([-1., -1.85, 1., -2.4], requires_grad=True), T.ones(4, 1)
        show((b @ d)._version, (d.t() @ b)._version, (b @ b)._version, T.ones(3).clone()._version)
        show((T.arange(4, dtype=T.int32) @ T.ones(4, 2, dtype=T.int32))._version)
        a = T.ones(4, 3, requires_grad=True)
        with T.inference_mode():
            i = a * 2
        show(i.clone()._version, i.t().contiguous()._version, i.detach().clone()._version)
        show((i * 1)._version)
    """,
    # N1, G1: x[index] = v in PyTorch's steps: a view for the basic part of the index, then
    # copy_ (fill_ for a 0-d value, after a view and an expand for another shape) or index_put_
    "setitem_records_the_op_it_runs": """
        x = T.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True)
        v = T.tensor([7., 8., 9.], requires_grad=True)
        s = T.tensor(10., requires_grad=True)
        w = T.ones(1, 1, 3, requires_grad=True)
        cases = [
            (0, v), (0, 2.), (0, s), (0, w), (..., v), (..., 2.), (slice(None), s), ((), v),
            ((slice(None), 1), T.ones(1, 2, requires_grad=True)), ([1, 0], 5.), ([1], w),
            (x > 3, s), (x > 3, 0.5), ((0, [2, 0]), v[:2]), ((slice(None), 1), 3),
            (None, v), (True, 2.), (T.tensor(1), v), ((0, slice(-3, None)), s),
        ]
        for index, value in cases:
            y = x * 1
            y[index] = value
            show(y)
            graph(y)
            (y * T.arange(6.).reshape(2, 3)).sum().backward()
            show(x.grad, v.grad, s.grad, w.grad)
    """,
    "setitem_of_a_zero_dim_tensor": """
        a = T.tensor(2., requires_grad=True)
        for index, value in (((), 3.), ((), a * 5), (..., 3.), (None, 4.), (a > 0, 5.), (True, a)):
            y = a * 1
            y[index] = value
            show(y)
            graph(y)
            y.backward(retain_graph=True)
            show(a.grad)
    """,
    "setitem_into_integers": """
        g = T.tensor(-2., requires_grad=True)
        for index in ((), None, 0, ...):
            t = T.tensor([3, 4]) if index == 0 else T.tensor(3)
            t[index] = g
            show(t)
        show(T.zeros(3, dtype=T.bool).copy_(T.ones(3, requires_grad=True)))
        x = T.ones(3, requires_grad=True) * 1
        x[False] = T.ones(5)
        show(x)
    """,
    "setitem_leaf_errors": """
        x = T.ones(3, requires_grad=True)
        for index in (0, ..., slice(None), [0], x > 0):
            try:
                x[index] = 1.
            except RuntimeError as e:
                show(str(e))
    """,
    "index_put_needs_one_dtype": """
        x = T.ones(3) * 1
        x[[0]] = T.tensor([1.], dtype=T.float64)
    """,
    "index_put_shape_without_leading_ones": """
        x = T.ones(3) * 1
        x[[0]] = T.ones(1, 1, 2)
    """,
    "setitem_under_create_graph": """
        x = T.tensor([1., 2., 3.], requires_grad=True)
        y = x * x
        y[1] = x[0] * 3
        y[[2]] = x[1:2] ** 3
        g, = T.autograd.grad(y.sum(), x, create_graph=True)
        show(g)
        g.sum().backward()
        show(x.grad)
    """,
    # G1: x[True] and a 0-d mask are an Unsqueeze, then the index [0] (PyTorch's applySlicing);
    # a slice written as the whole dim is skipped, -n: is not
    "indexing_with_a_zero_dim_bool": """
        a = T.tensor(2., requires_grad=True)
        m = T.ones(2, 3, requires_grad=True)
        for y in (a[a > 0], a[a < 0], a[True], m[T.tensor(True), 1], m[:, -3:][False], m[0, 0:],
                  m[1, -3:], m[:, 0:10], m[0:2, 0:3:1], m[None, True]):
            show(y)
            graph(y)
    """,
    # A8: writes through a view of a base that changed in place add up where the view repeats
    "expanded_view_of_a_base_changed_in_place": """
        l = T.ones(1, requires_grad=True)
        x = l * 1
        v = x.expand(3)
        x.mul_(2)
        y = v * 1
        graph(y)
        y.sum().backward()
        show(l.grad)
    """,
    # A7: a second backward raises exactly where PyTorch's node saved a tensor (a mask, indices,
    # the divisor of a rounded division, sgn's input), not where it saved only sizes or numbers
    "backward_twice_through_nodes_that_saved_a_tensor": """
        x = T.tensor([1., -2., 3.], requires_grad=True)
        y = T.tensor([2., 0.5, -1.], requires_grad=True)
        c, m = T.tensor([2., 0.5, -1.]), T.tensor([True, False, True])
        for f in (lambda: T.where(m, x, c), lambda: T.where(m, x, 2.),
                  lambda: x.masked_fill(m, .5), lambda: x.masked_fill(m, T.tensor(.5)),
                  lambda: x[[0, 2]], lambda: x[m], lambda: x.gather(0, T.tensor([0, 0])),
                  lambda: x.max(0)[0], lambda: x.min(0).values, lambda: x % c, lambda: c % y,
                  lambda: x % 2, lambda: T.div(x, c, rounding_mode="floor"),
                  lambda: T.div(x, 2, rounding_mode="trunc"),
                  lambda: T.div(c, y, rounding_mode="trunc"), lambda: x.sgn(), lambda: x.sign(),
                  lambda: x.round(), lambda: x.cumsum(0), lambda: x.repeat(2),
                  lambda: x[1:] * 2):
            out = f().sum()
            out.backward()
            try:
                out.backward()
                show("no error")
            except RuntimeError as e:
                show(str(e)[:50])
    """,
    # A7: a 0-d gradient (a numpy scalar) through CopySlices; in-place on a leaf expanded only
    # along dimensions of size 1 (no element written twice)
    "inplace_through_a_view_of_a_zero_dim_tensor": """
        b = T.tensor(2.28, requires_grad=True)
        t = b * 1
        t.transpose(0, -1).mul_(-1)
        loss = T.nn.functional.huber_loss(t, T.tensor(-1.63, requires_grad=True))
        loss.backward()
        show(b.grad)
    """,
    "inplace_on_a_leaf_expanded_along_size_one_dims": """
        d = T.tensor([1., 2.92], dtype=T.float64).expand(1, 1, 2).requires_grad_()
        d.detach().mul_(2)
        show(d)
        d.sum().backward()
        show(d.grad)
        T.ones(2, 1).expand(2, 3).mul_(2)
    """,
    # A7: a saved view whose base (or itself) changed in place: PyTorch's message names the
    # history it regenerates for the view (AsStrided); gather checks its input's version; bmm
    # keeps an operand only for the other's gradient
    "version_error_of_a_saved_view": """
        def attempt(f):
            try:
                f()
                show("no error")
            except RuntimeError as e:
                show(str(e)[str(e).index("operation:") : str(e).index("expected")])
        def base_in_no_grad():
            a = T.ones(2, 3, requires_grad=True)
            y = a.permute(1, 0).log()
            with T.no_grad():
                a.mul_(2)
            y.sum().backward()
        def view_itself():
            b = T.ones(2, 3, requires_grad=True) * 1
            v = b.t()
            y = v.log()
            v.mul_(2)
            y.sum().backward()
        def row_through_detach():
            a = T.ones(2, 3, requires_grad=True)
            y = a[0].log()
            a.detach()[1].mul_(2)
            y.sum().backward()
        def gather_input():
            a = T.tensor([4., -0.], requires_grad=True)
            t = a.gather(-1, a.argmax(0, keepdim=True))
            a.detach().mul_(2)
            t.backward()
        def bmm_operand_not_kept():
            d, h = T.ones(2, 3, 3), T.ones(2, 3, 1, requires_grad=True)
            t = T.bmm(d, h)
            h.detach().mul_(2)
            t.sum().backward()
            show(h.grad.sum())
        for f in (base_in_no_grad, view_itself, row_through_detach, gather_input,
                  bmm_operand_not_kept):
            attempt(f)
    """,
    "backward_of_the_mean_of_nothing": """
        g = T.ones(0, 3, requires_grad=True)
        g.mean().backward()
        show(g.grad)
    """,
    "inplace_on_the_data_of_a_zero_dim_log_softmax": """
        d = T.tensor(-1.3073, requires_grad=True)
        t = T.nn.functional.log_softmax(d, 0)
        t.data.mul_(0)
        show(t * 1)
    """,
    # a detach()ed view is no view (PyTorch's _base is None): in-place on it is allowed, and
    # after requires_grad_() it is a leaf of its own
    "detached_view_is_not_a_view": """
        a = T.ones(6, requires_grad=True)
        v = a[::2].detach()
        v.add_(1)
        show(v, a, v._base is None)
        t = T.ones(6, 4, 1)[::2].detach().requires_grad_()
        t.add_(1)
    """,
    # N1: cross_entropy with class probabilities and no elements fills its sum with nan
    "cross_entropy_probabilities_of_no_elements": """
        for shape in ((2, 0), (0, 3)):
            a = T.ones(*shape, requires_grad=True)
            for w in (None, T.ones(shape[1])):
                y = F.cross_entropy(a, a.softmax(-1).detach(), weight=w)
                show(y)
                graph(y)
                y.backward()
                show(a.grad)
    """,
    # G1: nll_loss of a 3-d input: input.contiguous() viewed as (N, C, 1, -1), as PyTorch
    "nll_loss_of_a_3d_input_that_is_not_contiguous": """
        b = T.arange(18.).reshape(6, 3, 1)[::2].requires_grad_()
        y = F.nll_loss(b, T.tensor([[2], [1], [1]]))
        show(y)
        graph(y)
        y.backward()
        show(b.grad)
        y = F.nll_loss(T.ones(0, 3, 2, requires_grad=True), T.ones(0, 2).long(), reduction="none")
        show(y)
        graph(y)
    """,
    # A9: softmax and log_softmax of an empty integer or bool tensor: PyTorch returns it
    # before looking at the dtype
    "softmax_of_an_empty_integer_tensor": """
        for dtype in (T.int64, T.int32, T.bool):
            for shape, dim in (((2, 3, 0), 1), ((0,), 0), ((2, 0), 0)):
                x = T.ones(shape, dtype=dtype)
                show(T.softmax(x, dim), x.log_softmax(dim), T.nn.functional.softmax(x, -1))
        T.ones(2, dtype=T.int64).softmax(0)
    """,
    # A9: no matrix product, power or rounding of bools in PyTorch (an empty product is no
    # error: it never reaches the kernel); x ** True copies, an integer's round() is itself
    "bool_inputs_to_matmul_pow_and_round": """
        b, B = T.tensor([True, False]), T.tensor([[True, False], [False, True]])
        i = T.tensor([1, 2])
        def attempt(f):
            try:
                show(f())
            except (RuntimeError, NotImplementedError) as e:
                show(type(e).__name__, str(e))
        for f in (lambda: b @ b, lambda: B @ B, lambda: B @ b, lambda: T.ones(2, 2, 2).bool() @ B,
                  lambda: T.mm(B, B), lambda: T.addmm(B, B, B), lambda: T.bmm(B[None], B[None]),
                  lambda: T.ones(2, 0).bool() @ T.ones(0, 2).bool(),
                  lambda: T.ones(0, 2).bool() @ b,
                  lambda: b ** b, lambda: True ** b, lambda: b ** T.tensor(True), lambda: b ** 2,
                  lambda: b ** True, lambda: b ** False, lambda: 2 ** b, lambda: b.round(),
                  lambda: i.round(), lambda: i.round(decimals=2), lambda: b.round(decimals=1)):
            attempt(f)
    """,
    # N1: softmax and the reductions along a dim give C-ordered results as PyTorch allocates
    # them, whatever the input's layout: reshape of the result is then a view (ViewBackward0)
    "reshape_after_softmax_and_reductions_of_a_permuted_tensor": """
        x = T.arange(60.).reshape(3, 4, 5).permute(2, 0, 1).requires_grad_()
        m = T.arange(12.).reshape(3, 4).t().requires_grad_()
        for y in (m.softmax(-1), m.log_softmax(0), x.sum(1), x.mean(1, keepdim=True), x.var(1),
                  x.std(1), x.prod(1), x.amax(1), x.norm(dim=1), x.sum(1, dtype=T.float64),
                  x.mean(1, dtype=T.float64), m.cumsum(0), x.max(1)[0], x.var(0)):
            r = y.reshape(-1)
            show(r)
            graph(r)
    """,
    # A6: cross_entropy with a target shaped like the input takes it as class probabilities
    # and checks it as PyTorch does (float, no ignore_index, a class dimension to read)
    "cross_entropy_targets_shaped_like_the_input": """
        F = T.nn.functional
        for i, t, kw in ((T.ones(3), T.tensor([0, 1, 2]), {}), (T.tensor(1.), T.tensor(1.), {}),
                         (T.tensor(1.), T.tensor(1), {}), (T.ones(2, 3), T.ones(2, 3).bool(), {}),
                         (T.ones(2, 3), T.ones(2, 3), {"ignore_index": 1}),
                         (T.ones(2, 3), T.ones(2, 3), {"ignore_index": -1})):
            try:
                show(F.cross_entropy(i, t, **kw))
            except (RuntimeError, IndexError) as e:
                show(type(e).__name__, str(e))
    """,
    "linear_and_mm_of_integer_vectors": """
        show(T.nn.functional.linear(T.tensor([2]), T.tensor([[-5]])))
        show(T.mm(T.ones(3, 1).long(), T.ones(1, 2).long()))
    """,
    # A9: binary_cross_entropy checks every (input, target) pair: nan or a target outside
    # [0, 1] raises, the first bad pair names its side
    "binary_cross_entropy_range_checks": """
        F = T.nn.functional
        for p, t in (([0.5, float("nan")], [0.5, 0.5]), ([0.5, 0.5], [0.5, 1.5]),
                     ([0.5, 2.0], [-1.0, 0.5]), ([0.5, 0.5], [float("nan"), 0.5]),
                     ([0.2, 0.7], [0.0, 1.0])):
            try:
                show(F.binary_cross_entropy(T.tensor(p), T.tensor(t)))
            except RuntimeError as e:
                show(str(e))
    """,
    # A9: expand's -1 in a new leading dimension; clamp_ of an integer or bool tensor with
    # number bounds names the output type as C does
    "expand_and_clamp_errors": """
        def attempt(f):
            try:
                show(f())
            except (RuntimeError, NotImplementedError) as e:
                show(type(e).__name__, str(e))
        a = T.ones(3)
        for sizes in ((-1, 3), (2, -1, 3), (-1, -1, 3), (-1, 4), (-2, 3), (0, 3)):
            attempt(lambda: a.expand(*sizes))
        for x in (T.tensor([True, False]), T.tensor([1, 2]), T.tensor([1, 2], dtype=T.int32)):
            for kw in ({"min": 2.0}, {"max": 1}, {"min": 0, "max": 2.5}, {"min": True},
                       {"min": T.tensor(2.0)}):
                attempt(lambda: x.clone().clamp_(**kw))
                attempt(lambda: x.clamp(**kw))
    """,
    # PyTorch's index error names the index's position in the tuple as its dimension
    "index_error_names_the_position_in_the_index": """
        x = T.ones(2, 3, 1)
        for index in ((..., 2), (None, 5), (T.tensor(True), 5), (0, 0, 4), (slice(0, 1), ..., 7)):
            try:
                x[index]
            except IndexError as e:
                show(str(e))
            try:
                x[index] = 1.
            except IndexError as e:
                show(str(e))
    """,
    # a view of a view made a leaf (x[3:].requires_grad_()) whose memory changed in place is
    # regenerated as AsStridedBackward0 of the root base, which needs no grad (PyTorch's quirk)
    "view_of_a_leaf_view_changed_in_place": """
        x = T.ones(6, 3)
        a = x[3:].requires_grad_()
        t = a[-1, -3:]
        with T.no_grad():
            t.add_(0.5)
        show(t, a)
        graph(t)
        t.sum().backward()
        show(a.grad)
    """,
    # single: t[i] = number and fill_(number) check the range as PyTorch's C conversion does
    "setitem_and_fill_overflow": """
        for dtype in (T.int8, T.uint8, T.int32, T.int64, T.float16, T.float32, T.bool):
            for v in (300, 2**40, 2**70, 1e300, -1, -129, -256, float("nan"), 127.9, -128.5):
                t = T.zeros(2, dtype=dtype)
                for write in (lambda: t.__setitem__(0, v), lambda: t.fill_(v)):
                    try:
                        write()
                        show(t)
                    except (RuntimeError, ValueError, OverflowError) as e:
                        show(type(e).__name__, str(e))
    """,
    # N1: clone() keeps the order of the strides (PyTorch's preserve_format); contiguous() and
    # reshape copy in C order: the reshape of a transposed clone is not a view
    "clone_keeps_the_layout": """
        a = T.arange(12.).reshape(3, 4).permute(1, 0).requires_grad_()
        for y in (a.clone().zero_().reshape(-1, 3), a.clone().contiguous(), a.contiguous(),
                  T.clone(a).reshape(-1), T.ones(1, 3).expand(4, 3).clone().view(-1),
                  a[:, ::2].clone().reshape(-1), a.clone().t().view(-1)):
            show(y)
            graph(y)
        a[:, ::2].clone().view(-1)
    """,
    # A7: addmm with only the bias requiring grad keeps nothing: backward twice is no error
    "backward_twice_through_an_addmm_that_kept_nothing": """
        i, g, j = T.ones(2, requires_grad=True), T.ones(3, 2), T.ones(2, 2)
        loss = T.addmm(i, g, j).sum()
        loss.backward()
        loss.backward()
        show(i.grad)
        T.nn.functional.leaky_relu(T.ones(2, dtype=T.int32))
    """,
    # G1: a batched matmul checks the batches, then the inner sizes, then the dtypes; with
    # nothing to compute (a size-0 dim) PyTorch's bmm checks no dtype (the result takes batch2's)
    "batched_matmul_checks_in_pytorchs_order": """
        a = T.ones(3, 1, 0, dtype=T.float64, requires_grad=True)
        for y in (a @ T.ones(6, 0, 2)[::2], T.ones(3, 2, 1) @ T.ones(3, 1, 0, dtype=T.float64),
                  T.bmm(T.ones(0, 1, 3, dtype=T.float64), T.ones(0, 3, 2))):
            show(y)
            graph(y)
        (a @ T.ones(3, 0, 2)).sum().backward()
        show(a.grad)
        for x, w in ((T.ones(3, 2, 2, 1), T.ones(2, 2, 1, 3, dtype=T.int32)),
                     (T.ones(2, 2, 3), T.ones(2, 2, 1, dtype=T.int32)),
                     (T.ones(2, 1, 3, dtype=T.float64), T.ones(2, 3, 2)),
                     (T.ones(2, 3), T.ones(2, dtype=T.float64)),
                     (T.ones(3, dtype=T.float64), T.ones(1, 1, 3)),
                     (T.ones(3, 2), T.ones(2, dtype=T.float64))):
            try:
                x @ w
            except RuntimeError as e:
                show(str(e))
    """,
    # G1: under create_graph, CopySlices reads the region with as_strided and clones it for the
    # op's backward, then copies the result back (PyTorch's steps); index_put's gradient is an
    # out-of-place index_put (IndexPutBackward0)
    "setitem_gradients_under_create_graph": """
        a = T.tensor(1.41, requires_grad=True)
        t = a * 1
        t[T.tensor(True)] = -1
        v = T.ones_like(t).requires_grad_()
        (g,) = T.autograd.grad(t, a, v, create_graph=True)
        show(g)
        graph(g)
        x = T.tensor([1., 2., 3.], requires_grad=True)
        y = x * x
        y[[0, 2]] = x[1] * 2
        y[1] = x[0] ** 3
        (h,) = T.autograd.grad(y, x, T.ones(3, requires_grad=True), create_graph=True)
        show(h)
        graph(h)
        h.sum().backward()
        show(x.grad)
    """,
    # A6: nll_loss (and cross_entropy) of an integer or bool input, empty ones too
    "nll_loss_of_an_integer_input": """
        F = T.nn.functional
        for shape, tshape in (((3,), ()), ((2, 3), (2,)), ((2, 3, 4), (2, 4)), ((0, 3), (0,)),
                              ((0, 3, 2, 2), (0, 2, 2))):
            for dtype in (T.int64, T.bool):
                try:
                    F.nll_loss(T.zeros(shape, dtype=dtype), T.zeros(tshape, dtype=T.int64))
                except NotImplementedError as e:
                    show(str(e))
        F.cross_entropy(T.ones(0, 2, 3, 3).long(), T.ones(0, 3, 3).long(), reduction="sum")
    """,
    # A10: nll_loss's node saves its class-index target (PyTorch's _saved_target is the
    # target itself): changed in place before backward, it raises the version error
    "nll_loss_target_changed_in_place": """
        F = T.nn.functional
        a = T.tensor([-3.43]).expand(2).requires_grad_()
        d = T.tensor(0)
        loss = F.cross_entropy(a, d)
        show(loss.grad_fn._saved_target is d)
        d.add_(T.tensor(1))
        loss.backward()
    """,
    "nll_loss_saved_target_read_after_a_change": """
        F = T.nn.functional
        x = T.ones(3, 4, requires_grad=True)
        t = T.zeros(3, dtype=T.uint8)
        loss = F.nll_loss(x, t, reduction="none")
        t.fill_(1)
        loss.grad_fn._saved_target
    """,
    "nll_loss2d_target_changed_in_place": """
        F = T.nn.functional
        x = T.ones(2, 3, 5, requires_grad=True)
        t = T.zeros(2, 5, dtype=T.int64)
        loss = F.nll_loss(x, t, reduction="sum")
        show(loss.grad_fn._saved_target.shape, loss.grad_fn._saved_target._version)
        t[0, 1] = 2
        loss.backward()
    """,
    "nll_loss2d_of_a_byte_target": """
        F = T.nn.functional
        show(F.nll_loss(T.ones(2, 3, 0), T.zeros(2, 0, dtype=T.uint8), reduction="sum"))
        F.cross_entropy(T.ones(2, 3, 2, 2), T.zeros(2, 2, 2, dtype=T.uint8))
    """,
    # NEW at d28ae5b: flatten of a tensor with no elements (a -1 would be ambiguous)
    "flatten_of_an_empty_tensor": """
        a = T.zeros(2, 0, 1, 2, requires_grad=True)
        for start, end in ((2, 3), (0, -1), (1, 2), (0, 1), (1, 3)):
            show(T.flatten(a, start, end))
    """,
    # NEW at d28ae5b: copy_ of nan or a float out of range into an integer tensor: no warning
    "copy_of_floats_out_of_range_into_integers": """
        t = T.zeros(3, dtype=T.int64)
        t.copy_(T.tensor([3e38, float("nan"), 2.5], dtype=T.float64))
        u = T.zeros(2, dtype=T.int32).copy_(T.tensor([float("inf"), -2.5]))
        show(t[2], u[1])
    """,
    # G1: expand's gradient to a 0-d tensor is a sum, even from 0-d (PyTorch's sum_to), and
    # l1_loss broadcasts its operands first (ExpandBackward0), as mse_loss and smooth_l1 do
    "expand_to_zero_dim_under_create_graph": """
        x = T.tensor(2., requires_grad=True)
        (g,) = T.autograd.grad(x.expand(()), x, T.tensor(1., requires_grad=True), create_graph=True)
        graph(g)
        show(x.sum_to_size(()), x.sum_to_size(()) is x)
        a = T.tensor([[-6.0, 1.6]])
        k = T.tensor(-1.3, requires_grad=True)
        t = T.nn.functional.smooth_l1_loss(a, k).expand_as(k) ** 2
        (g,) = T.autograd.grad(t, k, create_graph=True)
        (h,) = T.autograd.grad((g * g).sum(), k, create_graph=True)
        show(h)
        graph(h)
    """,
    "l1_loss_broadcasts_its_operands": """
        F = T.nn.functional
        a = T.ones(2, 3, requires_grad=True)
        e = T.tensor(1., requires_grad=True)
        for loss in (F.l1_loss(a, e), F.l1_loss(e, a, reduction="none"), F.l1_loss(a, e * 1)):
            show(loss)
            graph(loss)
    """,
    # G1: prod() of a 0-d tensor: its gradient is the gradient itself (no out / x, no graph)
    "prod_of_a_zero_dim_tensor_under_create_graph": """
        import warnings
        warnings.simplefilter("ignore")  # backward(create_graph=True) warns once per process
        a = T.tensor(2.1, requires_grad=True)
        a.prod().exp().backward(create_graph=True)
        show(a.grad)
        graph(a.grad)
        b = T.tensor(float("inf"), requires_grad=True)
        b.prod().backward()
        show(b.grad)
    """,
    # G1: amax/amin of a 0-d tensor along a dim: PyTorch's gradient has that dim back (size 1),
    # and its engine sums it to 0-d (SumBackward0)
    "amax_of_a_zero_dim_tensor_along_a_dim": """
        a = T.tensor(3., requires_grad=True)
        for kw in ({}, {"dim": -1}, {"dim": (0,)}, {"dim": 0, "keepdim": True}, {"dim": ()}):
            for r in (a.amax(**kw), a.amin(**kw)):
                (g,) = T.autograd.grad(r, a, T.tensor(1., requires_grad=True), create_graph=True)
                show(g)
                graph(g)
    """,
    # G1: an in-place op saves a clone of its input (PyTorch's original self): a gradient's
    # graph reads it through CloneBackward0
    "inplace_op_saves_a_clone_of_its_input": """
        a = T.tensor([1., -2.], requires_grad=True)
        x = a.clone()
        x.abs_()
        show(x.grad_fn._saved_self)
        y = a * 1
        w = T.tensor([3., 4.], requires_grad=True)
        y.mul_(w)
        (g,) = T.autograd.grad(y.sum(), w, create_graph=True)
        graph(g)
        (h,) = T.autograd.grad(x.sigmoid().sum(), a, create_graph=True)
        graph(h)
    """,
    # NEW at d28ae5b: cat's gradient for a 1-d empty input is new zeros (no graph); the others
    # are narrowed (SliceBackward0, even over the whole gradient)
    "cat_with_one_dim_empty_inputs": """
        a = T.zeros(0, requires_grad=True)
        b = T.ones(2, requires_grad=True)
        y = T.cat([a, b])
        g = T.autograd.grad(y, [a, b], T.ones(2, requires_grad=True), create_graph=True)
        show(g)
        graph(g[1])
        y = T.cat([a, T.ones(2, 1, requires_grad=True), a], 1)
        y.sum().backward()
        show(y, a.grad)
        for d in (2, -5, 0):  # only 1-d empty tensors: any dim
            show(T.cat([a, a], d))
        T.cat([T.zeros(0), T.zeros(2, 2)], 3)
    """,
    # NEW at d28ae5b: a float times (or over) an integer or bool tensor is computed, and saved,
    # in the float's dtype, so its gradient stays float32 (numpy: float64; then bmm refused it)
    "mul_of_a_float_and_an_integer_tensor": """
        x = T.tensor([1.1, -2.3, 3e38, 0.1], requires_grad=True)
        i = T.tensor([16777217, 3, 2, -7])
        show(x * i, i * x, x / i, i / x, x * T.tensor([True, False, True, True]))
        seen = []
        m = x * 1
        m.register_hook(lambda g: seen.append(g.dtype))
        (m * i / i).sum().backward()
        show(x.grad, seen)
        b = T.ones(2, 3, 4, requires_grad=True)
        v = (b @ T.ones(2, 4, 1)).norm().max(-1)
        (v.values * v.indices).backward()
        show(b.grad)
    """,
    # G1/N1: a float input of another dtype than its op's result: PyTorch's engine casts its
    # gradient at that node (ToCopyBackward0 under create_graph), so a float32 mm after a
    # float64 add takes a float32 gradient (minigrad cast at the leaf, and mm refused it)
    "gradient_cast_to_the_input_dtype_at_the_node": """
        x = T.tensor([1.5, -2.], requires_grad=True)
        y = T.tensor([0.5, 3.], dtype=T.float64, requires_grad=True)
        z = T.tensor(2., dtype=T.float64, requires_grad=True)
        for r in (x * y, x + y, T.add(x, y, alpha=0.5), x * z, T.where(x > 0, x, y), x / y):
            gs = T.autograd.grad(r.sum(), [x, y, z], create_graph=True, allow_unused=True)
            show(gs)
            for g in gs:
                if g is not None:
                    graph(g)
        seen = []
        h = x * 1
        h.register_hook(lambda g: seen.append(g.dtype))
        (h * y).sum().backward()
        show(seen, x.grad)
        a = T.tensor([[5.1]], requires_grad=True)
        f = T.tensor([[3.0, -1.0]], requires_grad=True)
        t = T.add(T.matmul(a, f), T.tensor([[-1.0, 1.42]], dtype=T.float64), alpha=0.5)
        (g,) = T.autograd.grad(t, a, T.ones_like(t).requires_grad_(), create_graph=True)
        show(g)
        graph(g)
    """,
    "cross_entropy_of_a_batch_target_changed_in_place": """
        x = T.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.5]], requires_grad=True)
        t = T.tensor([2, 0])
        loss = T.nn.functional.cross_entropy(x, t)
        show(loss.grad_fn._saved_target is t, loss.grad_fn._saved_self)
        t[1] = 1
        loss.backward()
    """,
    # NEW: any/all with a dim out of range raise PyTorch's IndexError (numpy: AxisError); a
    # 0-d tensor takes dim 0 and -1
    "any_and_all_with_a_dim": """
        x = T.tensor([[1., 0, 2], [0, 0, 3]])
        show(x.any(1), x.all(0), x.any((0, 1)), x.all(-1, keepdim=True))
        show(T.tensor(1.).any(0), T.tensor(0.).all(-1))
        x.any(2)
    """,
    "bool_to_a_negative_integer_power": """
        T.tensor([False, True]) ** -1
    """,
    # G1: prod over one element that is zero: PyTorch's prod_safe_zeros_backward passes the
    # gradient itself (no graph of the input), viewed as the input
    "prod_of_one_zero_under_create_graph": """
        for shape in ((1, 1, 1), (1,), (1, 1)):
            a = T.zeros(shape, dtype=T.float64, requires_grad=True)
            (g,) = T.autograd.grad(a.prod(), a, create_graph=True)
            show(g)
            (g,) = T.autograd.grad(a.prod(), a, T.tensor(2., dtype=T.float64, requires_grad=True),
                                   create_graph=True)
            graph(g)
        a = T.tensor([[0.], [2.], [0.]], requires_grad=True)
        for d in (1, -1):
            (g,) = T.autograd.grad(a.prod(d).sum(), a, create_graph=True)
            show(g)
            two = T.tensor(2., requires_grad=True)
            (g,) = T.autograd.grad(a.prod(d, keepdim=True).sum(), a, two, create_graph=True)
            graph(g)
    """,
    # NEW (A6's last case): the target of an (N, C, d...) input checked as PyTorch does
    # ("Expected target size", then its 2-d kernel's "size mismatch"), not numpy's IndexError
    "cross_entropy_of_a_spatial_input_with_a_wrong_target": """
        F = T.nn.functional
        for shape, tshape in (((4, 0, 1), (4, 1)), ((2, 3, 4, 5), (2, 4, 4)), ((2, 3, 4), (2, 5)),
                              ((2, 3, 4, 5), (2, 4)), ((2, 3, 4, 5, 2), (2, 4, 5, 3)),
                              ((2, 3, 0), (2, 0)), ((2, 3, 4), (2, 4, 1))):
            for f in (F.cross_entropy, F.nll_loss):
                try:
                    show(f(T.zeros(shape), T.zeros(tshape, dtype=T.int64)))
                except RuntimeError as e:
                    show(str(e))
    """,
    # G1 (--replay 356, 498): prod through zeros under create_graph is PyTorch's
    # prod_safe_zeros_backward, op for op: cat of ones and a narrowed input, cumprod, flip
    "prod_through_zeros_records_cumprods": """
        for values in ([2., 0., 3., 0.5], [0., 0., 0.], [[1.5, 0.], [2., -3.]], [[0.], [2.]]):
            a = T.tensor(values, dtype=T.float64, requires_grad=True)
            for reduce in (lambda t: t.prod(), lambda t: t.prod(0), lambda t: t.prod(-1, True)):
                v = T.ones_like(reduce(a)).requires_grad_()
                (g,) = T.autograd.grad(reduce(a), a, v, create_graph=True)
                show(g)
                graph(g)
                show(T.autograd.grad(g.sum(), [v, a], allow_unused=True))
        b = T.tensor([[1.59, 1.6258, 2.6309], [0.3571, -0., 2.7837]]).t().requires_grad_()
        (g,) = T.autograd.grad(b.repeat(2, 2).prod(), b, create_graph=True)
        show(g)
        graph(g)
        (h,) = T.autograd.grad((g * b).sum(), b, create_graph=True)
        show(h)
        graph(h)
        c = T.tensor([[1.25, 0., -2.], [0.5, 3., 0.]], requires_grad=True)
        c.prod(1).sum().backward()
        show(c.grad)
    """,
    # cumprod (CumprodBackward0): float32 carried in double; the gradient by division without
    # zeros, through the first zero with masks, and under create_graph the omitted products
    "cumprod_and_its_gradients": """
        x = T.tensor([[1.1, -0.7, 3.3, 0.9], [2.5, 0.3, -1.7, 1.01]], requires_grad=True)
        y = x.cumprod(1)
        show(y, T.cumprod(x, dim=0), x.cumprod(-1, dtype=T.float64), T.tensor([2, 3]).cumprod(0),
             T.tensor([True, False]).cumprod(0), T.tensor(3.).cumprod(0), T.ones(0).cumprod(0))
        graph(y)
        show(y.grad_fn._saved_dim, y.grad_fn._saved_self is x)
        y.backward(T.tensor([[0.5, -1., 2., 1.5], [1., 1., -0.25, 3.]]))
        show(x.grad)
        for values in ([2., 0., 3., 0.5, 4.], [0., 2., 0., 3.], [1.5, -2., 0.], [0., 0.]):
            z = T.tensor([values, values[::-1]], requires_grad=True)
            w = T.arange(1., 11.)[: z.numel()].reshape(z.shape)
            z.cumprod(1).backward(w)
            show(z.grad)
            (g,) = T.autograd.grad((z.cumprod(1) * w).sum(), z, create_graph=True)
            show(g)
            graph(g)
            show(T.autograd.grad(g.sum(), z))
        u = T.tensor([0.5, 2., -3.], dtype=T.float64, requires_grad=True)
        (g,) = T.autograd.grad(u.cumprod(0).sum(), u, create_graph=True)
        show(g)
        graph(g)
    """,
    # G1 (--replay 8485, 9146, 15120): a binary op of operands laid out differently is laid
    # out as PyTorch's TensorIterator does (the first operand with an opinion decides; numpy
    # takes C order), which shows through reshape/flatten's node and contiguous()
    "binary_op_layout_follows_the_first_operand": """
        a = T.arange(6.).reshape(2, 3).t().requires_grad_()
        c = T.arange(6.).reshape(3, 2) + 1
        p = T.arange(24.).reshape(2, 3, 4).permute(2, 0, 1)
        q = T.arange(24.).reshape(4, 2, 3) + 1
        for y in (a * c, c * a, a + c, a - 1 - c, c / a, a * c[0], c[:, :1] * a,
                  T.maximum(a, c), p + q, q * p, p * q[:, :1], p[:1] + q, a.where(a > 2, c),
                  T.where(c > 2, c, a), T.nn.functional.l1_loss(a, c, reduction='none')):
            show(y.is_contiguous(), y.flatten(), y.reshape(-1, 2), y.contiguous(), y.view(-1)
                 if y.is_contiguous() else y.transpose(0, -1).is_contiguous())
        # cat and stack allocate in C order (cat: channels-last when every input is), numpy
        # follows the inputs (--replay 18614: an expanded input)
        e = T.tensor([3., -0.25, 0.5]).expand(3, 1, 3).requires_grad_()
        n = T.arange(24.).reshape(1, 2, 3, 4).permute(0, 3, 1, 2)
        for y in (T.cat((e, e)), T.stack((e, e)), T.cat((a, a)), T.cat((a, c.t()), 1),
                  T.stack((a, a), 2), T.cat((n, n)), T.cat((n, n), 1), T.cat((n, n.contiguous()))):
            show(y.is_contiguous(), y.flatten(), y.transpose(0, 1).reshape(-1))
        # ones_like & co keep the layout (preserve_format): the gradient of a transposed output
        # given as ones_like(it) reaches a view's backward as a C-ordered tensor (--replay 15089)
        for like in (T.ones_like, T.zeros_like, T.empty_like, lambda t: T.full_like(t, 2.5)):
            for t in (a, p, e, a[::2], c):
                y = like(t)
                show(y.is_contiguous(), y.transpose(0, 1).is_contiguous(), y.shape)
        y = (a + c).reshape(3, 2).mH
        v = T.ones_like(y).requires_grad_()
        (g,) = T.autograd.grad(y, a, v, create_graph=True)
        show(g)
        graph(g)
    """,
    # G1 (--replay 5897): x %= y and x **= y are in place and save a clone of the old x
    # (CloneBackward0 under the saved self); Python rebound x to x ** y before (no __ipow__)
    "remainder_and_pow_in_place_save_a_clone": """
        a = T.tensor([1.5, 2., -0.], requires_grad=True)
        b = T.tensor([0.7, 0.4, 3.], requires_grad=True)
        for op in ("%", "**"):
            t = a * 1
            u = t
            if op == "%":
                t %= b
            else:
                t **= b
            show(t is u, t._version, t.grad_fn._saved_self.grad_fn)
            (ga, gb) = T.autograd.grad(t.sum(), [a, b], create_graph=True)
            graph(ga)
            graph(gb)
            t = a * 1
            t %= T.tensor([0.7, 0.4, 3.])
            graph(t)
        i = T.tensor([2, 3])
        i **= 2
        show(i)
        i **= -1
    """,
    # mm's gradient for a column-major matrix is mat2.mm(grad.t()).t() (TBackward0): PyTorch's
    # test is strides (1, rows) exactly, so a slice of one is not (checked while looking at
    # --replay 14355, left open: numpy's stride for a size-1 dim of a reshaped view)
    "mm_gradient_of_a_column_major_slice": """
        x = T.arange(12.).reshape(3, 4).t()[:2].requires_grad_()
        w = T.tensor([[2., -1.], [0.5, 1.], [1., 3.]], requires_grad=True)
        c = T.tensor([[0.5], [1.5], [-2.]], requires_grad=True)
        for y in (x @ w, T.mm(x, w), T.addmm(T.ones(2), x, w), T.mm(w.t(), x.t()),
                  c @ T.tensor([[2., -1.]], requires_grad=True)):
            for g in T.autograd.grad(y.sum(), [x, w, c], create_graph=True, allow_unused=True):
                if g is not None:
                    show(g)
                    graph(g)
    """,
    # NEW (--replay 13187): a view of an output of split/unbind inherits PyTorch's multi-output
    # creation meta: saved, with its base changed in place, backward names that view's node
    "saved_view_of_a_split_part_changed_through_its_base": """
        for make in (lambda j: j.split([1, 3], -1)[1] @ T.ones(3, 2),
                     lambda j: j.unbind(0)[1].view(-1) ** 2,
                     lambda j: j.unbind(0)[1].t() * 3.5,
                     lambda j: j.chunk(2, 0)[0][0].exp()):
            j = T.arange(24.).reshape(3, 2, 4).requires_grad_()
            y = make(j)
            with T.no_grad():
                j.mul_(2)
            try:
                y.sum().backward()
                show(j.grad)
            except RuntimeError as e:
                show(str(e))
    """,
    # G1 (--replay 14355): a view's strides for its size-1 dims are PyTorch's (computeStride),
    # which its layout tests read: matmul folds k.mT of (1, 1, 2) into a (2, 1) column-major mm
    "view_strides_of_size_one_dims": """
        a = T.tensor([[-1.0, -0.75, 0.25]]).t().requires_grad_()
        k = T.tensor([[[-0.5, 3.0]]], requires_grad=True)
        (g,) = T.autograd.grad((a @ k).sum(), k, create_graph=True)
        show(g)
        graph(g)
        for shape, perm, new in (((1, 1, 2), (0, 2, 1), (2, 1)), ((1, 4), (1, 0), (2, 2, 1)),
                                 ((3, 1, 4), (2, 1, 0), (4, 1, 3)), ((2, 3), (1, 0), (3, 1, 2))):
            x = T.arange(float(np.prod(shape))).reshape(shape).permute(*perm).requires_grad_()
            y = x.view(new)
            (g,) = T.autograd.grad((y.t() @ T.ones(new[0], 2)).sum() if y.ndim == 2 else y.sum(),
                                   x, create_graph=True)
            show(y.is_contiguous(), y.t().is_contiguous(), g)
            graph(g)
    """,
    # G1 (--replay 12840, 5876): an in-place op through a view, differentiated under
    # create_graph twice: the view's AsStridedBackward0 puts its gradient back as PyTorch's
    # as_strided_backward does (new zeros, copy_ into their region: CopySlices; the region's
    # size-1 dims squeezed first: SqueezeBackward1), not by a setitem (IndexPutBackward0)
    "in_place_through_a_view_under_create_graph_twice": """
        a = T.tensor([2.02, 10.0, -2.0, 1.0861], requires_grad=True)
        s = a.sum()
        t = s.expand(()).add_(s).reciprocal()
        (g,) = T.autograd.grad(t, a, create_graph=True)
        graph(g)
        (h,) = T.autograd.grad((g * g).sum(), a, create_graph=True)
        show(h)
        graph(h)
        b = T.tensor([2.2, -1.5, 0.5]).expand(2, 3).requires_grad_()
        y = b.reshape(-1, 3).var(-2, keepdim=True).transpose(-1, -2)
        y.mul_(-0.5)
        v = T.ones_like(y).requires_grad_()
        (g,) = T.autograd.grad(y, b, v, create_graph=True)
        show(g)
        graph(g)
        show(T.autograd.grad(g.sum(), [v, b], allow_unused=True))
        c = T.arange(6.).reshape(2, 3).requires_grad_()
        d = c * 1
        d[:, 1:2].mul_(c[:, :1])
        (g,) = T.autograd.grad(d.sum(), c, create_graph=True)
        (h,) = T.autograd.grad((g * g).sum(), c, create_graph=True)
        show(g, h)
        graph(h)
    """,
    # (--replay 3552 of 20,000): maximum, minimum and clamp of a permuted tensor with a zero
    # keep its layout, as TensorIterator's output does; matmul then does not fold the batch
    # (BmmBackward0, not MmBackward0), as in PyTorch
    "extremes_of_a_permuted_tensor_with_zeros_keep_its_layout": """
        d = T.tensor([0., -0., 1., 2., 3., -0., 0., 5.] * 2).reshape(2, 2, 4)
        d = d.permute(2, 0, 1).requires_grad_()
        for y in (T.maximum(d, d), T.minimum(d, -d), d.clamp(0, 1), d.clamp(min=0)):
            show(y, y.is_contiguous())
        y = T.maximum(d, d) @ T.ones(2, 3)
        graph(y)
        show(y.grad_fn.next_functions[0][0].name())
    """,
    # The order of leaves' hooks (the fuzzer's hooks_all_leaves endings): PyTorch gives every
    # AccumulateGrad and NotImplemented node the largest sequence number, so leaves made ready
    # together tie in its heap, which orders them (minigrad/autograd/ready_order.py)
    "hooks_of_leaves_made_ready_together": """
        x, b, c, d = (T.tensor([1., 2.], requires_grad=True) for _ in range(4))
        for name, leaf in zip("xbcd", (x, b, c, d)):
            leaf.register_hook(lambda g, name=name: show(name))
        for y in (x + b, x * b + c, x * b + c * d, T.stack([x, b, c, d]), T.cat([x, b, c, d]) * 2,
                  x + b + c + d, (x + b) * (c + d), T.where(x > 1, b, c), T.stack([x, b, c, d, x])):
            show("pass")
            y.sum().backward()
        show(x.grad, b.grad, c.grad, d.grad)
    """,
    "hooks_of_leaves_in_each_walk": """
        x, b, c, d = (T.tensor([1., 2.], requires_grad=True) for _ in range(4))
        for name, leaf in zip("xbcd", (x, b, c, d)):
            leaf.register_hook(lambda g, name=name: show(name))
        y = (T.stack([x, b, c, d]) * T.stack([d, c, b, x])).sum()
        show(T.autograd.grad(y, [x, b, c, d], retain_graph=True))
        show(T.autograd.grad(y, [d, b], retain_graph=True))
        y.backward(create_graph=True)
        T.autograd.backward([(x * b).sum(), (c * d).sum(), (x + d).sum()])
        T.autograd.backward([x, b, c, x], [T.ones(2)] * 4)
        show(x.grad, d.grad)
    """,
    "hooks_of_leaves_with_other_nodes_waiting": """
        x, b, c, d, p, q = (T.tensor([1., 2.], requires_grad=True) for _ in range(6))
        for name, leaf in zip("xbcdpq", (x, b, c, d, p, q)):
            leaf.register_hook(lambda g, name=name: show(name))
        e, f = x.exp(), b.exp()
        y = T.stack([e, x, f, b, c, e * f, d, x * c])
        y.sum().backward()
        u, v = T.stack([x, b]).unbind()
        (T.cat([u, c, v, d]) * T.cat([v, d, u, c])).sum().backward()
        s = p.exp().sum()  # waits in the heap while stack's leaves are ready: 1 node
        (T.stack([x, b, c, d]).sum() + s).backward()
        u, v = T.stack([p.exp(), q.exp()]).unbind()  # unbind waits: 1 node, 2 outputs
        w = T.stack([x, b, c, d]).sum()
        ((u + v).sum() + w).backward()
        u, v = T.stack([p.exp(), q.exp()]).unbind()  # unbind waits for v: not in the heap
        w = T.stack([x, b, c, d]).sum()
        (u.sum() + w + v.sum()).backward()
        u, v = T.stack([p.exp(), q.exp()]).unbind()  # queued once, when v is ready
        T.stack([x, u, b, c, v, d]).sum().backward()
        u, v = T.stack([p.exp(), q.exp()]).unbind()  # ... at u's last edge, after v's
        T.stack([x, u, b, v, c, u, d]).sum().backward()
        u, v = T.stack([p.exp(), q.exp()]).unbind()  # not queued: v's gradient is to come
        sv = v.sum()
        (sv + T.stack([x, u, b, c, d]).sum()).backward()
        show(T.autograd.grad(T.stack([x, b, c, d]).sum() + s, [x, b, d], retain_graph=True))
        e = q.exp().sum()  # not asked for: not queued
        show(T.autograd.grad(T.stack([x, b, c, d]).sum() + e, [x, b, d, c]))
        lin = T.nn.Linear(2, 3)
        lin.weight.register_hook(lambda g: show("weight"))
        lin.bias.register_hook(lambda g: show("bias"))
        lin(T.stack([x, b])).sum().backward()
    """,
    "not_implemented_runs_first_and_raises_without_a_gradient": """
        b = T.tensor([-1.27, 2.6, 1.0, 1.0], requires_grad=True)
        f = T.tensor([-1.4, 1.2, -1.5, -5.6])
        l = T.tensor([1.0, -1.0, -4.9, -1.0], requires_grad=True)
        l.register_hook(lambda g: show("l"))
        for y in (T.cat([l, b // f]), T.cat([b // f, l]), (b // 2) * l):
            try:
                y.sum().backward()
            except RuntimeError as e:
                show(str(e), l.grad)

        class NoGradient(T.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 1

            @staticmethod
            def backward(ctx, g):
                return None

        (NoGradient.apply(b // f) + l).sum().backward()
    """,
    # (--replay 8442 of 20,000): F.linear of a vector (or a 3-d batch) views the input before
    # it transposes the weight, as PyTorch's _flatten_nd_linear: its T is the newer node and
    # runs first, so the weight's hook comes before the input's
    "linear_of_a_vector_views_the_input_before_transposing_the_weight": """
        for shape in ((4,), (2, 2, 4)):
            f = T.ones(shape, requires_grad=True)
            j = T.ones(3, 4, requires_grad=True)
            k = T.ones(3, requires_grad=True)
            for name, leaf in zip("fjk", (f, j, k)):
                leaf.register_hook(lambda g, name=name: show(name))
            y = T.nn.functional.linear(f, j, k)
            graph(y)
            y.sum().backward()
    """,
    # (--replay 1002352 of seed 1): PyTorch's CopySlices releases the op it wraps after a
    # backward pass, even one that saved nothing (t[0] = 3), and refuses a second pass;
    # IndexPutBackward0 saves its indices (t[[0]] = 3)
    "a_second_backward_through_copy_slices_or_index_put": """
        h = T.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
        for index, value in ((0, 3.0), (None, h), ((slice(None), 0), h[1]), ([0], 3.0),
                             (..., h), (slice(None), h)):
            t = h.clone()
            t[index] = value
            graph(t)
            loss = t.sum()
            loss.backward()
            try:
                loss.backward()
            except RuntimeError as e:
                show(str(e))
            show(h.grad)
        t = h.clone()
        t.t().add_(h)
        loss = t.sum()
        loss.backward(retain_graph=True)
        loss.backward()
        show(h.grad)
        loss.backward()
    """,
    # (seed 0: 10787, 11615, 12403; seed 1: 1009229): under create_graph PyTorch's input
    # buffer adds out of place, so sgn's efficient zeros (abs, l1_loss) meeting another
    # gradient give AddBackward0 with a None edge, and the other gradient's values (its -0.)
    "create_graph_adds_sgn_zeros_with_a_recorded_sum": """
        x = T.tensor([1.0, -2.0], requires_grad=True)
        w = T.tensor([-0.0, 0.0], requires_grad=True)
        for y in ((x.sgn() * 1).sum() + (x * w).sum(), (x * w).sum() + x.sgn().sum()):
            (g,) = T.autograd.grad(y, x, create_graph=True)
            show(g)
            graph(g)
        (g,) = T.autograd.grad(x.sgn().sum() + x.sgn().sum(), x, create_graph=True)
        show(g)
        b = T.tensor([6.0, -0.5], requires_grad=True)
        t = T.nn.functional.mse_loss(abs(b), T.tensor([3.36, 1.0]), reduction="sum")
        (g,) = T.autograd.grad(t, b, create_graph=True)
        (h,) = T.autograd.grad((g * g).sum(), b, create_graph=True)
        show(h)
        graph(h)
    """,
    # (--replay 1004571 of seed 1): the gradient of a p-norm with p < 1 (or p > 1) takes
    # |x| ** (p - 1) and norm ** (1 - p) from PyTorch's pow kernel (-0.5 is 1 / sqrt(x)),
    # not numpy's float32 power: 1. where numpy's gave 0.99999994
    "vector_norm_gradient_uses_the_pow_kernel": """
        for values in ([4.5], [4.5, 1.5], [2.0, -3.0, 0.7516]):
            for p in (0.5, 1.5, 3.0):
                a = T.tensor(values, requires_grad=True)
                T.linalg.vector_norm(a, p).backward()
                show(a.grad, a.grad.tolist())
        a = T.tensor([4.5], requires_grad=True)
        T.linalg.vector_norm(a, 0.5).backward()
        show(a.grad.item() == 1.0)
    """,
    # (--replay 1013712 of seed 1): a copy of an expanded tensor (to(dtype), clone()) is laid
    # out as PyTorch's preserve_format: infer_dense_strides, where a stride-0 dim has no say,
    # so flatten() of it is a view (ViewBackward0) and a permuted one keeps its dims' order
    "copy_of_an_expanded_tensor_is_laid_out_as_preserve_format": """
        a = T.tensor([[-0.38, 2.43, 1.5]]).expand(2, 2, 3).requires_grad_()
        for c in (a.to(T.float64), a.double(), a.clone(), a.float()):
            y = c.flatten()
            show(c.is_contiguous(), y.grad_fn)
            graph(y)
        for d in (
            T.ones(2, 1, 3).expand(2, 4, 3).permute(2, 0, 1),
            T.ones(4, 1, 1).expand(4, 2, 3).permute(1, 2, 0),
            T.ones(3, 1).expand(3, 4),
        ):
            for c in (d.clone(), d.double()):
                show(c.is_contiguous(), c.transpose(0, 1).is_contiguous())
    """,
    # (seed 1, --replay 1007552): float32 ** float64: the exponent's gradient takes log of the
    # base in the result's dtype (PyTorch's pow_backward_exponent: self.to(promoted).log())
    "pow_exponent_gradient_logs_the_base_in_the_result_dtype": """
        c = T.tensor([3.0, 0.8832], requires_grad=True)
        j = T.tensor([1.2, 0.7], dtype=T.float64, requires_grad=True)
        (c ** j).sum().backward()
        show(j.grad, c.grad)
        (g,) = T.autograd.grad((c ** j).sum(), j, create_graph=True)
        show(g)
        graph(g)
    """,
    # (seed 2, --replay 2002026): number ** tensor is C-ordered whatever the exponent's layout
    # (PyTorch's pow(Scalar, Tensor) sets its output without strides): reshape is then a view
    "number_to_a_transposed_tensor_is_contiguous": """
        b = T.tensor([[0.1, 2.56], [0.4, -3.0], [1.0, 3.66]]).transpose(1, 0).requires_grad_()
        for y in (2.5 ** b, T.pow(2.5, b), 2 ** b.detach().long(), b ** 2.5):
            show(y.is_contiguous())
        y = (-2.5 ** b).reshape(-1, 3)
        show(y)
        graph(y)
        show(-1 ** T.tensor(-1.2, requires_grad=True), 2 ** T.tensor([[3]]).mT)
    """,
    # (--replay 1017196 of seed 1): add/sub(alpha=) with a broadcast number along the row is
    # not one fused multiply-add everywhere: the row's tail past the first element rounds
    # alpha * b first, 4 floats (2 doubles) at a time (the printed 1.9423 where 1.9424 was)
    "sub_alpha_of_a_broadcast_number_rounds_the_product_in_the_tail": """
        t = T.tensor([[[-0.1, -0.1, 0.9], [-0.9414, 0.0586, -0.9414]],
                      [[2.63, 2.63, 3.63], [-1.99, -0.99, -1.99]]])
        m = T.tensor([-1.9225, -2.0]).reshape(2, 1, 1).requires_grad_()
        y = T.sub(t, m, alpha=1.5)
        bits = {np.float32: np.int32, np.float64: np.int64}
        show(y, y.detach().numpy().view(np.int32).tolist())
        rng = np.random.default_rng(0)
        for dtype in (np.float32, np.float64):
            for shape, other in (((21,), ()), ((2, 9), (2, 1)), ((5, 13), (5, 1)), ((40,), (40,))):
                a = T.tensor(rng.standard_normal(shape).astype(dtype) * 3)
                b = T.tensor(rng.standard_normal(other).astype(dtype) * 3)
                ys = (T.sub(a, b, alpha=1.5), T.add(a, b, alpha=-0.7), a.clone().sub_(b, alpha=1.5))
                for y in ys:
                    show(y.numpy().view(bits[dtype]).tolist())
        # (--replay 1015595): the product is exact in the fused multiply-add: inf - 1.5 * 3e38 is
        # inf, not inf + (-inf) = nan, and 1 - 1.5 * 3e38 is -inf
        show(T.sub(T.tensor([float("inf"), 1.0, -2.0]), T.tensor([3e38, 3e38, 1e38]), alpha=1.5))
    """,
    # (--replay 1015543 of seed 1): an in-place op that saves its old self clones it just after
    # it made its own node (PyTorch's original_self), so that CloneBackward0 is the newer and
    # runs first: sgn's efficient zeros reach the shared input first and take abs's -0.
    "inplace_abs_clone_runs_before_abs_in_a_double_backward": """
        b = T.tensor([3.3, -2.0266], requires_grad=True)
        t = b.clone().abs_()
        order = []
        t.grad_fn.register_hook(lambda gi, go: order.append("abs"))
        t.grad_fn._saved_self.grad_fn.register_hook(lambda gi, go: order.append("clone"))
        y = t.mean().log_softmax(0)
        (g,) = T.autograd.grad(y, b, create_graph=True)
        show(g)
        graph(g)
        (h,) = T.autograd.grad((g * b).sum(), b)
        show(h, order)
        for op, arg in (("mul_", b), ("div_", b), ("pow_", 2)):
            u = b * 1
            getattr(u, op)(arg)
            v = u * u
            order = []
            u.grad_fn.register_hook(lambda gi, go: order.append("op"))
            u.grad_fn._saved_self.grad_fn.register_hook(lambda gi, go: order.append("clone"))
            (g,) = T.autograd.grad(v.sum(), b, create_graph=True)
            g.sum().backward()
            show(b.grad, order)
    """,
    # (--replay 1013133 of seed 1): an output of split, unbind, chunk ... made in grad mode
    # from a tensor that needs no grad (and any view of it) may not change in place with a
    # gradient: PyTorch's MULTI_OUTPUT_NODE creation meta, with no grad_fn to name
    "in_place_with_a_gradient_on_an_output_of_split_that_needs_no_grad": """
        f = T.tensor([0.0, 1.0, 0.7], requires_grad=True)
        for make in (lambda a: a.split([1, 3])[1], lambda a: a.unbind()[0],
                     lambda a: a.chunk(2)[1][0:1], lambda a: a[1:].split(1)[0]):
            a = T.tensor([-0.35, -1.0, 0.7, 3.9])
            part = make(a)
            part.mul_(2)  # no gradient: allowed
            try:
                part.add_(f[: part.numel()].reshape(part.shape))
            except RuntimeError as e:
                show(str(e))
        a = T.tensor([-0.35, -1.0, 0.7, 3.9])
        part = a.split(2)[0]
        a.add_(T.ones(4, requires_grad=True))
        show(part * 1)
    """,
    # (seed 2, --replay 2001957): float32 ** int64 tensor saves its float32 result (numpy's
    # float64 power is cast), so an in-place change of the result is caught as in PyTorch
    "pow_by_an_integer_tensor_watches_its_result": """
        a = T.tensor([[0.17]], requires_grad=True)
        y = a ** T.tensor([[-2]])
        show(y)
        y.add_(T.tensor([[1.0]]))
        y.backward(T.ones(1, 1))
    """,
    # (--replay 1009215 and 1015437 of seed 1): sgn's gradient is PyTorch's efficient zeros,
    # and multiplied or divided (mul, div, log, exp, sqrt, amax's formulas) or viewed they stay
    # efficient zeros: x.grad is 0., not 0 * inf = nan, and a -0. meeting them becomes 0.
    "efficient_zeros_stay_zeros_through_products_and_views": """
        cases = (
            (lambda x: x.log(), [0.0, 1.0]),
            (lambda x: x * T.tensor([float("inf"), 2.0]), [1.0, -1.0]),
            (lambda x: x * float("inf"), [1.0, -1.0]),
            (lambda x: x / T.tensor([0.0, 2.0]), [1.0, -1.0]),
            (lambda x: T.tensor([1.0, -2.0]) / x, [0.0, -1.0]),
            (lambda x: x / 0.0, [1.0, -1.0]),
            (lambda x: x.reshape(2, 1).amax(1), [float("nan"), -1.0]),
            (lambda x: (x - T.tensor([1.0, 1.0])) * float("inf"), [1.0, -1.0]),
            (lambda x: x.view(2, 1) * float("inf"), [1.0, -1.0]),
        )
        for f, values in cases:
            x = T.tensor(values, requires_grad=True)
            (g,) = T.autograd.grad(f(x).abs().sum(), x, create_graph=True)
            g.sum().backward()
            show(x.grad)
        a = T.tensor(-2.42, requires_grad=True)
        n = T.linalg.vector_norm(a.log().view(()), 1)
        v = T.ones_like(n).requires_grad_()
        (g,) = T.autograd.grad(n, a, v, create_graph=True)
        show(g, T.autograd.grad(g.sum(), [v, a]))
        a = T.tensor([[-3.0], [-1.0]], requires_grad=True)
        c = T.tensor([[-0.0], [0.0]], dtype=T.float64, requires_grad=True)
        t = a * 1
        t %= c
        y = T.nn.functional.l1_loss(t.amax(1), T.tensor([-0.18, -0.28]), reduction="sum")
        gs = T.autograd.grad(y, [a, c], create_graph=True)
        sum((x * x).sum() for x in gs).backward()
        show(a.grad, c.grad)
    """,
    # (with seed 1's 1005985): an in-place op whose gradient reads self saves a clone of the
    # old self, made after the op's node (PyTorch's original_self): the newer CloneBackward0
    # runs first in a double backward, so the gradients of the old self are added in its order
    "inplace_op_clones_its_old_self_after_making_its_node": """
        x = T.tensor([0.5, -1.0, 2.0], requires_grad=True)
        y = x.sin()
        y.pow_(3.0)
        y.mul_(x)
        (g,) = T.autograd.grad(y.sum(), x, create_graph=True)
        (h,) = T.autograd.grad((g * g).sum(), x, create_graph=True)
        show(h)
        graph(h)
    """,
    # (seed 1: 1005985): vector_norm's gradient for p other than 0, 1, 2, inf raises |x| to a
    # power in place (PyTorch's norm_backward: self.abs().pow_(p - 2)), so under create_graph
    # the saved base is a clone; its nodes are made in PyTorch's order
    "vector_norm_double_backward_powers_abs_in_place": """
        d = T.tensor([[-0.5, 1.17], [0.0, -1.49], [-2.1, 0.0]], requires_grad=True)
        for p in (0.5, 1.5, 3.0):
            t = T.linalg.vector_norm(d, p, dim=1)
            (g,) = T.autograd.grad(t.sum(), d, create_graph=True)
            graph(g)
            (h,) = T.autograd.grad((g * g).sum(), d, create_graph=True)
            show(h)
            graph(h)
    """,
    # (seed 2, --replay 2011879): an in-place op checks the broadcast shape before it computes
    # (the shape error, not the integer division by zero)
    "in_place_checks_the_shape_before_dividing": """
        t = T.tensor([1, 1, 2, -2], dtype=T.int32) * 1
        for d in (T.zeros(2, 4, dtype=T.int32), T.zeros(3, dtype=T.int32)):
            for op in (t.__imod__, t.__ifloordiv__, t.remainder_, t.floor_divide_):
                try:
                    op(d)
                except RuntimeError as e:
                    show(str(e))
        t %= T.zeros(4, dtype=T.int32)
    """,
    # (seed 3: 3018808): expand gives a new dim PyTorch's stride (that of the dims after it),
    # numpy's is 0: a.expand(1, 1) is column-major, so mm's gradient is computed transposed
    "expand_to_a_new_size_one_dim_keeps_pytorchs_strides": """
        for a in (T.tensor([2.2]).expand(1, 1), T.tensor(2.2).expand(1, 1)):
            a.requires_grad_()
            e = T.tensor([[0.8882]], requires_grad=True)
            (g, h) = T.autograd.grad(T.nn.functional.linear(a, e).sum(), (a, e), create_graph=True)
            show(g, h, a.is_contiguous(), a.contiguous().is_contiguous())
            graph(g)
            graph(h)
    """,
    # (--replay 1015540 of seed 1): PyTorch saves an op's inputs for backward before it runs
    # the op, so an inference tensor it would save is refused before the op's own checks
    # (only where it is saved: sub and add save nothing, remainder keeps other for its own
    # gradient only, addmm never keeps its bias)
    "an_inference_tensor_to_save_is_refused_before_the_shape_checks": """
        with T.inference_mode():
            i4 = T.ones(3, 2, 2, 2)
            i2 = T.ones(2, 3)
            i1 = T.ones(5)
        h = T.ones(3, 2, 2, 3, requires_grad=True)
        h2 = T.ones(4, 4, requires_grad=True)
        h1 = T.ones(3, requires_grad=True)
        for f in (lambda: T.mm(i4, h), lambda: T.mm(i2, h2), lambda: T.mm(h2, i2),
                  lambda: i2 @ h2, lambda: T.bmm(i4[0], h2), lambda: T.mv(h2, i1),
                  lambda: T.dot(i1, h1), lambda: T.addmm(h1, i2, h2), lambda: T.addmm(i1, h2, h2),
                  lambda: i1 * h1, lambda: h1 / i1, lambda: i1 + h1, lambda: h1 - i1,
                  lambda: T.maximum(h1, i1), lambda: h1 ** i1, lambda: i1 % h1, lambda: h1 % i1,
                  lambda: i1 // h1, lambda: T.cat([i2, h2]), lambda: T.clamp(h1, min=i1),
                  lambda: T.clamp(i1, max=h1), lambda: i1 @ h2):
            try:
                f()
            except RuntimeError as e:
                show(str(e))
    """,
    # in-place forms PyTorch has and minigrad lacked: unary ones (PowBackward0 for square_,
    # RoundBackward1 with decimals) and the aliases of mul_, sub_, div_, neg_
    "more_in_place_methods": """
        for name, args in [("log_", ()), ("sin_", ()), ("cos_", ()), ("sign_", ()),
                           ("square_", ()), ("negative_", ()), ("round_", ()),
                           ("multiply_", (3.0,)), ("subtract_", (T.ones(3),)),
                           ("true_divide_", (2.0,))]:
            a = T.tensor([0.5, -1.5, 2.0], requires_grad=True)
            x = a * 1
            show(getattr(x, name)(*args) is x, x, x._version)
            graph(x)
            (x * x).sum().backward()
            show(a.grad)
            (g,) = T.autograd.grad((getattr(a * 1, name)(*args) ** 2).sum(), a, create_graph=True)
            show(g)
            graph(g)
            try:
                getattr(T.tensor([1, -2, 3]), name)(*args)
            except RuntimeError as e:
                show(str(e))
        show(T.tensor([1.26, 2.5]).round_(decimals=1))
        show((T.ones(2) * 1).subtract_(T.ones(2), alpha=2))
        a = T.tensor([0.5, -1.5, 2.0], requires_grad=True)
        a.cos_()
    """,
    # (--replay 1018846 of seed 1): F.linear's W.t() with inner size 4-7 adds the products in
    # order where MKL does (fewer than 4 outputs, or one row for inner size 4), then the bias;
    # one row keeps a -0. sum (a mean of such outputs showed 9.7434e-05 for 9.7752e-05)
    "linear_of_inner_size_four_to_seven_adds_in_order": """
        rng = np.random.default_rng(0)
        bits = {np.float32: np.int32, np.float64: np.int64}
        for dtype in (np.float32, np.float64):
            for rows, inner, cols in ((1, 4, 3), (1, 4, 9), (5, 4, 2), (3, 5, 1), (7, 6, 3),
                                      (2, 7, 2), (1, 2, 3), (1, 5, 2)):
                a = rng.standard_normal((rows, inner)).astype(dtype) * 3
                w = rng.standard_normal((cols, inner)).astype(dtype) * 3
                b = rng.standard_normal(cols).astype(dtype) * 3
                y = T.nn.functional.linear(T.tensor(a), T.tensor(w), T.tensor(b))
                show(y.numpy().view(bits[dtype]).tolist())
                if cols < 4:  # -0. products and bias
                    zeros, bias = T.zeros(cols, inner, dtype=y.dtype), -T.zeros(cols, dtype=y.dtype)
                    show(T.nn.functional.linear(T.tensor(-abs(a)), zeros, bias))
        a = T.tensor([[-2.0, 3.0, 2.8686, -1.6502]], requires_grad=True)
        g = T.tensor([[-1.92, -1.0196, 4.3608, 1.2397], [0.75, -0.3496, -0.54, 0.0],
                      [3.6, 3.0, -1.0, 1.0]])
        h = T.tensor([-0.5679, -3.0, -0.86])
        show(T.mean(T.nn.functional.linear(a, g, h), dim=(1, 0), keepdim=True))
    """,
    # clamp with tensor bounds (ClampBackward0) keeps self, min and max, as PyTorch's
    # _saved_self, _saved_min, _saved_max (None for a bound not given): so an inference bound
    # is refused before the shapes are checked (1015540's class)
    "clamp_with_tensor_bounds_saves_self_min_and_max": """
        h = T.tensor([0.5, -1.0, 3.0], requires_grad=True)
        for kw in (dict(min=T.zeros(3)), dict(max=T.ones(3)),
                   dict(min=T.zeros(3, requires_grad=True), max=T.tensor(2.0))):
            y = T.clamp(h, **kw)
            fn = y.grad_fn
            show(fn._saved_self, fn._saved_min, fn._saved_max)
            y.sum().backward()
            try:
                show(fn._saved_min)
            except RuntimeError as e:
                show(str(e))
    """,
    # (seed 2, --replay 2007395; seed 0 with other tables, 1100): an elementwise op of an
    # expanded tensor is laid out as TensorIterator lays it out (numpy's order for a stride of 0
    # differs): reshape of the result is a view, as in PyTorch
    "elementwise_of_an_expanded_tensor_is_laid_out_as_pytorch": """
        a = T.tensor([[1.5899, -0.5126]]).expand(4, 1, 2).requires_grad_()
        b = T.tensor([[1.5, -0.5, 2.0]]).t().expand(3, 2).t().requires_grad_()
        for x in (a, b, a.transpose(0, 2), b.unsqueeze(1).expand(2, 4, 3)):
            for f in (T.cos, T.sin, T.exp, T.tanh, T.log, T.sigmoid, T.sqrt, T.abs):
                y = f(x)
                show(y.is_contiguous(), y.reshape(-1).grad_fn.name())
        y = T.cos(a).reshape(8)
        graph(y)
        y.sum().backward()
        show(a.grad)
    """,
    # clamp has two overloads in PyTorch, Tensor bounds or number bounds: one of each is
    # refused ("invalid combination of arguments", as given: positional or keyword, function,
    # method or in place)
    "clamp_with_a_tensor_bound_and_a_number_bound_is_refused": """
        h = T.ones(3)
        z = T.zeros(3)
        for f in (lambda: T.clamp(h, z, 2.0), lambda: T.clamp(h, max=2, min=z),
                  lambda: T.clip(h, min=z, max=2), lambda: h.clamp(z, 2.0),
                  lambda: h.clamp(z, max=2.0), lambda: h.clip(min=z, max=2.0),
                  lambda: h.clamp_(1.0, z), lambda: h.clip_(max=2, min=z)):
            try:
                f()
            except TypeError as e:
                show(str(e))
        show(T.clamp(h, z, None), h.clamp(None, z), h.clamp(0, 2), T.clamp(h, max=z))
        show(h.clamp_(max=z), h.clip(min=0.5))
    """,
    # (seed 3, --replay 3004306): gelu, elu, softplus, sinh and cosh of a transposed tensor
    # keep its layout as TensorIterator's output does (their kernels built C order): reshape
    # of the result then copies, as in PyTorch
    "activations_of_a_transposed_tensor_keep_its_layout": """
        a = T.tensor([[-1.0, -1.3, 3.54], [2.3, -1.2, -1.5], [2.6255, -3.77, 3.11]])
        a = a.requires_grad_()
        F = T.nn.functional
        for f in (F.gelu, F.elu, F.softplus, T.sinh, T.cosh, F.silu, T.tanh):
            for x in (a.T, a[:1].expand(3, 3), a.T.expand(2, 3, 3)):
                y = f(x)
                show(y.is_contiguous(), y.reshape(-1).grad_fn.name())
        y = F.softplus(a.T, beta=1.5, threshold=1.5).reshape(9)
        show(y)
        graph(y)
        y.sum().backward()
        show(a.grad)
    """,
    # seed 3, 3011364: x[mask] = v with a one-element v of another dtype is masked_fill_(v.item())
    "setitem_mask_with_one_element_of_another_dtype": """
        a = T.zeros(2, 3, requires_grad=True)
        v = T.tensor([[3.5]], dtype=T.float64, requires_grad=True)
        x = a.clone()
        x[T.tensor([True, False])] = v
        x[:, T.tensor([False, False, True])] = T.tensor([7], dtype=T.int64)
        x[T.tensor([False, True]), 1] = T.tensor(-2.5, dtype=T.float64)
        x[[True, False]] = T.tensor([[1.25]], dtype=T.float64)
        show(x)
        graph(x)
        (x * x).sum().backward()
        show(a.grad, v.grad)
        i = T.zeros(2, 3, dtype=T.int64)
        i[T.tensor([True, False])] = T.tensor(7.9)
        show(i)
        y = T.zeros(3)
        y[T.tensor([True, False, True])] = T.tensor([1.5, 2.5], dtype=T.float64)
    """,
    "setitem_mask_and_index_with_one_element_of_another_dtype": """
        y = T.zeros(2, 3)
        y[T.tensor([True, False]), T.tensor([1])] = T.tensor([7.5], dtype=T.float64)
    """,
    # seed 3, 3002524: a node that gets no gradient at all still runs in PyTorch: its saved
    # values are checked (and freed), and a custom Function's backward is called with zeros
    "a_node_with_no_gradient_still_checks_what_it_saved": """
        b = T.tensor([3.8, 1.9], requires_grad=True)
        y = T.linalg.vector_norm(b.clamp_max(b), 0)
        b.detach().mul_(2)
        y.backward()
    """,
    "a_node_with_no_gradient_is_freed_after_the_pass": """
        b = T.tensor([3.8, 1.9], requires_grad=True)
        z = b.sin()
        T.linalg.vector_norm(z, 0).backward()
        show(b.grad)
        z.sum().backward()
    """,
    "a_custom_function_with_no_gradient_gets_zeros": """
        class Sq(T.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                return x * x

            @staticmethod
            def backward(ctx, g):
                show(g)
                (x,) = ctx.saved_tensors
                return 2 * x * g

        class Two(T.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.set_materialize_grads(False)
                return x * 2, x * 3

            @staticmethod
            def backward(ctx, g1, g2):
                show(g1, g2)
                return None

        b = T.tensor([3.8, 1.9], requires_grad=True)
        T.linalg.vector_norm(Sq.apply(b), 0).backward()
        show(b.grad)
        b.grad = None
        u, v = Two.apply(b)
        T.linalg.vector_norm(u, 0).backward()
        show(b.grad)
        show(T.autograd.grad(T.linalg.vector_norm(Sq.apply(b), 0), b))
        import warnings
        warnings.simplefilter("ignore")  # backward(create_graph=True) warns once per process
        T.linalg.vector_norm(Sq.apply(b), 0).backward(create_graph=True)
        show(b.grad)
        graph(b.grad)
    """,
    # seed 4, 4008791: t[i] = nan tensor into integers is copied without a word (numpy warned)
    "setitem_of_nan_into_integers_is_quiet": """
        t = T.zeros(3, dtype=T.int32)
        t[-1] = T.tensor([float("nan")])
        t[:2] = T.tensor([float("inf"), -1e30])
        show(t)
    """,
    # masked_fill_ (and x[mask] = one element) fill with value.item(): PyTorch's range check
    "masked_fill_with_a_tensor_checks_its_number_fits": """
        for dtype in (T.int64, T.int32, T.float32, T.float16, T.bool, T.uint8, T.int8):
            for v in (T.tensor(float("nan"), dtype=T.float64), T.tensor(1e300, dtype=T.float64),
                      T.tensor(70000.0), T.tensor(300), T.tensor(-3.7), T.tensor(2**40)):
                for how in ("fill", "mask", "none"):
                    x = T.zeros(2, dtype=dtype)
                    m = T.tensor([how != "none", False])
                    try:
                        if how == "fill":
                            x.masked_fill_(m, v)
                        else:
                            x[m] = v.reshape(1)
                        show(x)
                    except RuntimeError as e:
                        show(str(e))
    """,
    # seed 4, 4008491: a view of an output of chunk inherits its creation meta: once the base
    # changed in place, using it raises (named after the view's own node)
    "view_of_a_multi_output_view_after_its_base_changed": """
        for make in ("t.expand(2, 1)", "t.view(1, 1)", "t[0]", "t.unsqueeze(0).t()", "t * 1"):
            b = T.tensor([0.0, -2.0, -1.0], requires_grad=True)
            t = b.chunk(3, -1)[-1]
            v = eval(make)
            with T.no_grad():
                b.mul_(2)
            try:
                v.sum().backward()
                show(b.grad)
            except RuntimeError as e:
                show(str(e))
    """,
    # seed 4, 4011490: a 0-d tensor expanded with -1 (PyTorch takes its sizes as they are)
    "expand_of_a_zero_dim_tensor_with_minus_one": """
        x = T.tensor(1.0, requires_grad=True)
        for sizes in ((2, -3), (-1,), (3,), (2, 2)):
            try:
                show(x.expand(*sizes))
            except RuntimeError as e:
                show(str(e))
        T.tensor([1.0, 2.0])[1:].expand(-1, -1)
    """,
    # seed 4, 4008834: addmm of inner size 1 adds the one product to the bias: a -0. bias over
    # a -0. product stays -0., also for a row or a column (mm of those sums from 0.: 0.)
    "addmm_of_inner_size_one_keeps_a_negative_zero": """
        for n, m in ((1, 2), (3, 1), (2, 3), (1, 500)):
            a = T.zeros(n, 1)
            w = T.full((m, 1), -0.7, requires_grad=True)
            bias = T.full((m,), -0.0, requires_grad=True)
            show(T.addmm(bias, a, w.t()).sum(), T.mm(a, w.t()).sum())
            show(T.nn.functional.linear(a, w, bias)[0, :3], T.mm(a, w.t())[0, :3])
            show(T.nn.functional.linear(a[0], w, bias)[:3], T.addmm(bias, a, w.t())[0, :3])
    """,
    # seed 5, 5011346: a mask that does not fit is named by its first dim that differs
    "mask_shape_error_names_the_mask_dim_and_the_tensor_dim": """
        b = T.zeros(3, 2, 1, 3)
        for idx in ((slice(None), T.tensor([[True, False]])), ([0, 1], None, T.tensor([True])),
                    (None, T.tensor([[True, False]])), (Ellipsis, T.tensor([[True], [False]]))):
            try:
                b[idx]
            except IndexError as e:
                show(str(e))
            try:
                b[idx] = 1.0
            except IndexError as e:
                show(str(e))
    """,
    # seed 5, 5019046: binary_cross_entropy's double backward makes p + eps and 1 - p + eps
    # once in each formula (the input's and the gradient's), not once for both
    "binary_cross_entropy_third_order_graph": """
        a = T.tensor([1.6288, 0.2], dtype=T.float64, requires_grad=True)
        t = T.tensor([0.3, 0.7], dtype=T.float64)
        loss = T.nn.BCELoss()(a.sigmoid(), t)
        (g,) = T.autograd.grad(2 ** loss, a, create_graph=True)
        (h,) = T.autograd.grad((g * g).sum(), a, create_graph=True)
        show(h)
        graph(h)
    """,
    # seed 6, 6019100: cumprod's result is contiguous whatever the input's layout, so a view
    # of it works (as cumsum's)
    "cumprod_of_a_transposed_tensor_can_be_viewed": """
        a = T.tensor([[0, -4, -2], [-3, 5, -5]])
        for x in (a.t(), a.t().float(), a.t() > 0, a.float().t().requires_grad_()):
            show(x.cumprod(1).view(2, 3), x.cumsum(1).view(2, 3))
    """,
    # seed 6, 6001010: float32 ** int64 tensor: the base's gradient b * a ** (b - 1) is float32
    # (it overflows to inf, and 0 * inf is nan), not float64
    "pow_by_an_integer_tensor_gradient_stays_float32": """
        e = T.tensor([[-4.0], [-0.2], [2.9412]], requires_grad=True)
        (e ** T.tensor([[-100]])).backward(T.tensor([[1.0], [0.0], [0.0]]))
        show(e.grad)
        i = T.tensor([[-100], [3], [2]])
        (g,) = T.autograd.grad((e ** i).sum(), e, create_graph=True)
        show(g)
        graph(g)
    """,
    # seed 6, 6000560: abs's gradient of PyTorch's efficient zeros (from sgn) is efficient
    # zeros again (grad * sgn(a)), so no -0. reaches the leaf
    "abs_passes_efficient_zeros_on": """
        a = T.tensor([-1.0, 2.0, -0.5, 0.0], requires_grad=True)
        for f in (lambda a: T.linalg.vector_norm(abs(a), 1), lambda a: abs(abs(a)).sum()):
            a.grad = None
            (g,) = T.autograd.grad(f(a), a, create_graph=True)
            (g * g).sum().backward()
            show(g, a.grad)
    """,
    # sgn's efficient zeros through the ops whose gradient scales grad (sin, cos, cosh, log2,
    # pow ...): zeros again, so the leaf gets 0., not -0.; neg and reciprocal fill them (-0.)
    "efficient_zeros_through_scaling_gradients": """
        for make in ("a.sin()", "a.cos()", "a.square()", "a.sinh()", "a.cosh()",
                     "(a * a + 1).log2()", "(a * a + 1).log10()", "(a * a).log1p()",
                     "(a * a + 1).rsqrt()", "a.expm1()", "a.exp2()", "a ** 3", "-a",
                     "a.reciprocal()", "a.tanh()", "2 / a", "a.relu()",
                     "a.atan2(T.tensor([1.0, -1.0, 2.0]))", "T.tensor([1.0, -1.0, 2.0]).atan2(a)"):
            a = T.tensor([-1.0, 2.0, -0.5], requires_grad=True)
            eval(make).sgn().sum().backward()
            show(make, a.grad)
    """,
    # seed 1, 1003020: a 0-d bool mask is an unsqueeze and an int index in PyTorch, so a
    # one-element value of another dtype is refused (no masked_fill_ for it)
    "setitem_zero_dim_mask_with_another_dtype": """
        for idx in (T.tensor(True), T.tensor(False), T.tensor([True, False, True])):
            for v in (T.tensor(True), T.tensor(5.0, dtype=T.float64), T.tensor([7])):
                a = T.tensor([-3.0, -1.0, 1.0])
                try:
                    a[idx] = v
                    show(a)
                except RuntimeError as e:
                    show(str(e))
    """,
    # seed 0, 19920: a matrix summed along its rows is contiguous (a running sum's last column
    # was a strided view), so reshaping it is a view (ViewBackward0), not ReshapeAliasBackward0
    "row_sums_of_a_matrix_are_contiguous": """
        x = T.ones(2, 8, requires_grad=True)
        for s in (x.sum(1, keepdim=True), x.sum(1), (x * 2).sum(0, keepdim=True)):
            show(s.reshape(-1), s.is_contiguous())
            graph(s.reshape(-1))
        c = T.tensor([-1.0512, -1.97], requires_grad=True)
        loss = T.nn.CrossEntropyLoss()(T.ger(c, T.arange(8.0) - 3), T.tensor([4, 2]))
        (g,) = T.autograd.grad(loss, c, create_graph=True)
        graph(g)
    """,
    # seed 5, 5000278: max_norm scales an inf row by 0. (nan), without numpy's warning
    "embedding_max_norm_of_an_inf_row_is_quiet": """
        w = T.tensor([[float("inf")], [float("nan")], [2.0]])
        show(T.nn.functional.embedding(T.tensor([[0, 1, 2]]), w, max_norm=0.1), w)
    """,
    # seed 2, 2001871: copy_'s node casts the gradient to src's dtype itself; the engine sums
    # it to src's shape afterwards (SumBackward1 on top under create_graph)
    "copy_casts_before_summing": """
        d = T.tensor([4.0], dtype=T.float64).expand(1).requires_grad_()
        t = T.tensor([-3.1362, 1.3]).clone().copy_(d)
        v = T.ones_like(t).requires_grad_()
        (g,) = T.autograd.grad(t, d, v, create_graph=True)
        show(g)
        graph(g)
        d2 = T.tensor([1.0, 2.0], dtype=T.float64, requires_grad=True)
        T.zeros(3, 2).copy_(d2).backward(T.tensor([[0.1, 0.2], [0.3, 0.4], [1e-8, 3.0]]))
        show(d2.grad)
    """,
}
