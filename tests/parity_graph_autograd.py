"""Issue 8's "autograd", "graph" and "gradients at the edges" reproducers, as parity snippets.

Each entry is a snippet in the style of ``parity_snippets.py`` (``T`` is the module, ``show``
and ``graph`` record what a learner sees); ``test_graph_parity.py`` runs each one in torch and
in minigrad and compares. The names say which item of the issue each one closes.
"""

from __future__ import annotations

GRAPH_AUTOGRAD: dict[str, str] = {
    # -- autograd.backward of several roots, one depending on another -----------------------------
    "backward_of_roots_that_depend_on_each_other": """
        x = T.tensor([1., 2.], requires_grad=True)
        y = x * 2
        z = y * 3
        T.autograd.backward([y, z], [T.ones(2), T.ones(2)])
        show(x.grad)
        x.grad = None
        y = x * 2
        T.autograd.backward([y, y.sum(), y.exp()], [T.ones(2), T.tensor(2.), T.ones(2)])
        show(x.grad)
        x.grad = None
        z = (x * 3).exp()
        T.autograd.backward([z.sum(), z], [None, T.ones(2)])
        show(x.grad)
    """,
    # -- autograd.grad runs only what reaches the inputs; it needs inputs ------------------------
    "grad_skips_nodes_that_cannot_reach_the_inputs": """
        a = T.ones(2, requires_grad=True)
        b = T.ones(2, requires_grad=True)
        class Loud(T.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 2
            @staticmethod
            def backward(ctx, g):
                show("Loud.backward ran")
                return g * 2
        h = b * 5
        h.register_hook(lambda g: show("hook on h ran", g))
        out = (Loud.apply(h) + a * 3).sum()
        show(T.autograd.grad(out, [a], retain_graph=True))
        show(T.autograd.grad(out, [b], retain_graph=True))
        out.backward(inputs=[a])
        show(a.grad, b.grad)
    """,
    "grad_refuses_empty_inputs": """
        a = T.ones(2, requires_grad=True)
        out = (a * 2).sum()
        T.autograd.grad(out, [])
    """,
    "grad_refuses_empty_inputs_before_a_freed_graph": """
        a = T.ones(2, requires_grad=True)
        out = (a * a).sum()
        out.backward()
        T.autograd.grad(out, ())
    """,
    # -- grad_fn objects are callable --------------------------------------------------------------
    "grad_fn_is_callable": """
        x = T.tensor([1., 2.], requires_grad=True)
        show(list((x * 3).grad_fn(T.ones(2))), list((1 + x).grad_fn(T.ones(2))))
        show(x.sum().grad_fn(T.tensor(2.)), x.exp().grad_fn(T.ones(2)))
        show(list((x * x).grad_fn(T.ones(2))), x.sum().grad_fn(None))
        with T.no_grad():
            show(x.exp().grad_fn)
        node = (x * x).grad_fn
        with T.no_grad():
            show(list(node(T.ones(2))))
        show(list((x * 2).grad_fn(T.ones(2, dtype=T.float64))))
        acc = (x * 2).grad_fn.next_functions[0][0]
        show(acc(T.ones(2)), x.grad)
        z = (x * x).sum()
        z.backward()
        z.grad_fn.next_functions[0][0](T.ones(2))
    """,
    "grad_fn_call_wants_one_gradient": """
        x = T.tensor([1., 2.], requires_grad=True)
        (x * 3).grad_fn(T.ones(2), T.ones(2))
    """,
    "grad_fn_call_wants_a_tensor": """
        x = T.tensor([1., 2.], requires_grad=True)
        (x * 3).grad_fn([1., 1.])
    """,
    # -- save only what PyTorch saves ----------------------------------------------------------
    "mul_keeps_only_what_the_gradient_needs": """
        x = T.ones(2, requires_grad=True)
        c = T.full((2,), 3.)
        y = x * c
        with T.no_grad():
            x.mul_(2)
        y.sum().backward()
        show(x.grad)
        y = c * x
        z = x / c
        w = x / 2
        with T.no_grad():
            x.add_(1)
        (y + z + w).sum().backward()
        show(x.grad)
        A = T.ones(2, 2, requires_grad=True)
        v = T.ones(2, requires_grad=True)
        M = A @ T.ones(2, 2)
        N = A.t() @ T.ones(2, 2)
        u = T.ones(2, 2) @ v
        d = v @ T.ones(2)
        with T.no_grad():
            A.add_(1)
            v.add_(1)
        (M.sum() + N.sum() + u.sum() + d).backward()
        show(A.grad, v.grad)
    """,
    "mul_keeps_the_other_factor_and_checks_it": """
        x = T.ones(2, requires_grad=True)
        c = T.full((2,), 3.)
        y = x * c
        with T.no_grad():
            c.mul_(2)
        y.sum().backward()
    """,
    "div_keeps_the_divisor_and_checks_it": """
        x = T.ones(2, requires_grad=True)
        y = T.full((2,), 3.) / x
        with T.no_grad():
            x.mul_(2)
        y.sum().backward()
    """,
    # -- saved values under PyTorch's names ---------------------------------------------------
    "saved_values_under_pytorch_names": """
        x = T.tensor([1., 2.], requires_grad=True)
        c = T.tensor([3., 4.])
        n = (x * c).grad_fn
        show(n._saved_self, n._saved_other)
        n = (x * x).grad_fn
        show(n._saved_self is x, n._saved_other is x)
        e = x.exp()
        show(e.grad_fn._saved_result, e.grad_fn._saved_result.grad_fn is e.grad_fn)
        h = x * 2
        show((c * h).grad_fn._saved_self, (h * x).grad_fn._saved_self.grad_fn is h.grad_fn)
        show(h.grad_fn._saved_other, (x * 2.5).grad_fn._saved_other, (x / 2).grad_fn._saved_self)
        show((x / c).grad_fn._saved_self, (x / c).grad_fn._saved_other)
        show((c / x).grad_fn._saved_self, (c / x).grad_fn._saved_other)
        show((x ** 2).grad_fn._saved_exponent, (x ** 2).grad_fn._saved_self)
        show((x ** x).grad_fn._saved_exponent, (x ** x).grad_fn._saved_result)
        show(T.add(x, x, alpha=2).grad_fn._saved_alpha, T.sub(x, c, alpha=3).grad_fn._saved_alpha)
        show(x.sigmoid().grad_fn._saved_result, x.relu().grad_fn._saved_result)
        show(x.tanh().grad_fn._saved_result, x.sqrt().grad_fn._saved_result)
        show(x.log().grad_fn._saved_self, x.sin().grad_fn._saved_self, x.abs().grad_fn._saved_self)
        r = (1 / x).grad_fn.next_functions[0][0]
        show(T.maximum(x, c).grad_fn._saved_other, r._saved_result)
        show((x @ x).grad_fn._saved_self, (x @ c).grad_fn._saved_self)
        show((x @ c).grad_fn._saved_tensor)
        W = T.ones(2, 3, requires_grad=True)
        m = x.reshape(1, 2) @ W
        show(m.grad_fn._saved_self, m.grad_fn._saved_mat2)
        show(x.softmax(0).grad_fn._saved_result, x.max().grad_fn._saved_result)
        show(T.nn.functional.mse_loss(x, c).grad_fn._saved_target)
    """,
    "saved_value_read_after_backward": """
        x = T.tensor([1., 2.], requires_grad=True)
        c = T.tensor([3., 4.])
        y = x * c
        y.sum().backward(retain_graph=True)
        show(y.grad_fn._saved_other, y.grad_fn._saved_self)
        y.sum().backward()
        show(y.grad_fn._saved_self)
        y.grad_fn._saved_other
    """,
    "saved_result_read_after_backward": """
        x = T.tensor([1., 2.], requires_grad=True)
        y = x.exp()
        y.sum().backward()
        y.grad_fn._saved_result
    """,
    "saved_value_read_after_an_in_place_change": """
        x = T.tensor([1., 2.], requires_grad=True)
        c = T.tensor([3., 4.])
        y = x * c
        c.add_(1)
        y.grad_fn._saved_other
    """,
    "saved_value_that_does_not_exist": """
        x = T.tensor([1., 2.], requires_grad=True)
        (x * 2).grad_fn._saved_result
    """,
    # -- gradients at the edges --------------------------------------------------------------------
    "std_and_var_of_constant_data": """
        for f in (lambda x: x.std(), lambda x: x.var(), lambda x: x.std(0),
                  lambda x: x.var(0, keepdim=True), lambda x: x.std(correction=0),
                  lambda x: x.var(unbiased=False)):
            x = T.full((3,), 2., requires_grad=True)
            y = f(x)
            y.sum().backward()
            show(y, x.grad)
    """,
    "nan_through_relu_maximum_minimum": """
        x = T.tensor([float('nan'), 1., -1., 0.], requires_grad=True)
        for f in (lambda x: x.relu(), lambda x: T.maximum(x, T.zeros(4)),
                  lambda x: T.minimum(x, T.zeros(4)), lambda x: T.nn.functional.relu(x),
                  lambda x: T.maximum(x, x), lambda x: T.minimum(T.zeros(4), x),
                  lambda x: x.clamp(min=0), lambda x: x.max(), lambda x: x.min(),
                  lambda x: x.abs()):
            x.grad = None
            y = f(x)
            y.sum().backward()
            show(y, x.grad)
        show(x.sign(), x.sgn(), T.tensor(float('nan')).sign())
        z = T.tensor([float('nan'), 2.], requires_grad=True)
        w = T.tensor([1., float('nan')], requires_grad=True)
        T.maximum(z, w).sum().backward()
        show(z.grad, w.grad)
    """,
    "detach_of_a_leaf_already_used": """
        x = T.ones(2, requires_grad=True)
        y = x * 2
        show(x.detach_(), x.requires_grad, x.is_leaf)
        y.sum().backward()
        show(x.grad)
        a = T.ones(2, requires_grad=True)
        b = a * 2
        show(b.detach_(), b.requires_grad, b.grad_fn, b.is_leaf)
        c = T.ones(2, requires_grad=True)
        d = (c * c).sum()
        c.requires_grad_(False)
        d.backward()
        show(c.grad)
    """,
    # -- the graph: matmul above 2-d, reshape of a non-contiguous view ---------------------------
    "matmul_of_batches_decomposes_as_pytorch": """
        g = np.random.default_rng(0)
        for a, b in (((2, 2, 3), (2, 3, 4)), ((1, 2, 3), (2, 3, 4)), ((2, 2, 3), (1, 3, 4)),
                     ((3,), (2, 3, 4)), ((2, 1, 2, 3), (2, 3, 4)), ((2, 3, 2, 3), (3, 1, 3, 2)),
                     ((2, 0, 3), (2, 3, 4)), ((4, 1, 3), (1, 3, 2)), ((2, 2, 3), (2, 3))):
            for wants in ((True, True), (False, True), (True, False)):
                P = T.tensor(g.standard_normal(a).astype(np.float32), requires_grad=wants[0])
                Q = T.tensor(g.standard_normal(b).astype(np.float32), requires_grad=wants[1])
                if len(b) == 2:
                    Q = Q.t()
                r = P @ Q
                graph(r)
                r.sum().backward()
                show(r, P.grad, Q.grad if Q.is_leaf else None)
        P = T.ones(2, 2, 3, requires_grad=True)
        r = P @ P.transpose(1, 2)
        graph(r)
        T.ones(2, 2, 3) @ T.ones(3, 3, 4)
    """,
    "reshape_of_a_non_contiguous_view": """
        x = T.ones(2, 2, 3, requires_grad=True)
        for y in (x.transpose(1, 2).reshape(2, 3, 2), x[:, :1].reshape(2, 3), x.reshape(4, 3),
                  x.transpose(1, 2).reshape(6, 2), x.expand(2, 2, 2, 3).reshape(8, 3)):
            show(y)
            graph(y)
    """,
    "floor_divide_edges_only_to_inputs_that_require_grad": """
        x = T.ones(2, 3, requires_grad=True)
        for y in (x // 2, x // T.ones(3), T.ones(3) // x, x // x, T.floor_divide(x, T.tensor(2.)),
                  2 // x, x % 2, 2 % x, T.remainder(x, T.ones(3)), T.remainder(T.ones(3), x)):
            show(y)
            graph(y)
        (T.ones(3) // x).sum().backward()
    """,
    "max_of_a_zero_dim_written_into": """
        a = T.tensor(-0.88, requires_grad=True)
        e = T.tensor(-2.1, requires_grad=True)
        t = a.clone()
        t[None] = e
        m = t.max()
        m.backward()
        show(a.grad, e.grad)
    """,
    "linear_and_pow_keep_what_pytorch_keeps": """
        x = T.ones(4, 3)
        W = T.ones(2, 3, requires_grad=True)
        bias = T.ones(2, requires_grad=True)
        out = T.nn.functional.linear(x, W, bias)
        show(out.grad_fn._saved_mat1, out.grad_fn._saved_mat2)
        with T.no_grad():
            W.mul_(2)
        out.sum().backward()
        show(W.grad, bias.grad)
        b = T.ones(2, requires_grad=True)
        y = 3 ** b
        show(y.grad_fn._saved_self, y.grad_fn._saved_exponent is b, y.grad_fn._saved_result)
        b.detach().mul_(2)
        y.sum().backward()
    """,
}
