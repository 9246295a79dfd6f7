"""Issue 8's multi-output reproducers: one node for ``unbind``/``split``/``chunk`` and for a
custom Function returning several tensors, its hooks, its in-place rules, ``.grad._version``.

Each entry is a snippet in the style of ``parity_snippets.py`` (``T`` is the module, ``show``
and ``graph`` record what a learner sees, ``graph`` with each edge's ``output_nr``);
``test_multi_output_parity.py`` runs each one in torch and in minigrad and compares.
"""

from __future__ import annotations

MULTI_OUTPUT: dict[str, str] = {
    # -- one node, an output number per output ---------------------------------------------------
    "unbind_is_one_node_with_numbered_outputs": """
        x = T.arange(6.).reshape(3, 2).requires_grad_()
        a, b, c = x.unbind()
        show(a.grad_fn is b.grad_fn, b.grad_fn is c.grad_fn, a.output_nr, b.output_nr, c.output_nr)
        show(a.grad_fn.name(), a._base is x, a.is_leaf)
        y = a * 2 + c
        graph(y)
        y.sum().backward()
        show(x.grad)
        show(a.grad_fn(T.ones(2), None, T.ones(2) * 3))
        show(x.split(2)[0].grad_fn(T.ones(2, 2), T.ones(1, 2)))
        try:
            a.grad_fn(T.ones(2))
        except TypeError as e:
            show(str(e))
        p, q = x.unbind(1)
        show(q.output_nr, q.grad_fn.name())
        show([t.output_nr for t in x], list(x)[0].grad_fn.name())
    """,
    "split_chunk_split_with_sizes_are_one_node": """
        x = T.arange(10.).requires_grad_()
        parts = x.split(3)
        show([p.output_nr for p in parts], parts[0].grad_fn is parts[3].grad_fn)
        show(parts[1].grad_fn.name(), x.chunk(3)[2].grad_fn.name())
        show(x.split([2, 8])[1].grad_fn.name())
        y = (parts[1] * parts[3].sum()).sum() + x.chunk(2)[1].sum() + x.split([2, 8])[0].prod()
        graph(y)
        y.backward()
        show(x.grad)
        show(T.ones(0, requires_grad=True).chunk(3))
        show(T.ones(4, 0, requires_grad=True).split(2, 1))
    """,
    "max_with_dim_values_and_indices": """
        x = T.tensor([[1., 5.], [3., 2.]], requires_grad=True)
        v, i = x.max(0)
        show(v.grad_fn.name(), v.output_nr, i.grad_fn, i.requires_grad, i.output_nr)
        m = T.min(x, 1)
        show(m.values.output_nr, m.indices.output_nr)
    """,
    "backward_of_two_outputs_and_grad_of_an_output": """
        x = T.tensor([1., 2., 3.], requires_grad=True)
        a, b, c = (x * 2).unbind()
        T.autograd.backward([a, c], [T.tensor(1.), T.tensor(10.)], retain_graph=True)
        show(x.grad)
        y = (a * b * c)
        show(T.autograd.grad(y, [b, a], retain_graph=True))
        show(T.autograd.grad(y, [x]))
        s = (x * 1).split(2)
        (s[1].sum() * 3).backward(retain_graph=True)
        (s[1].sum() * 3).backward()
        show(x.grad)
    """,
    # -- hooks -----------------------------------------------------------------------------------
    "hook_on_a_sibling_output_is_called_with_none": """
        x = T.arange(3.).requires_grad_()
        a, b, c = x.unbind()
        b.register_hook(lambda g: show("b", g))
        a.register_hook(lambda g: show("a", g))
        h = c.register_hook(lambda g: show("c", g))
        h.remove()
        b.retain_grad()
        (a * 2).backward()
        show(x.grad, b.grad)
        x = T.arange(3.).requires_grad_()
        a, b, c = x.unbind()
        b.register_hook(lambda g: T.tensor(5.))
        (a * 2).backward()
    """,
    "hook_replaces_the_gradient_of_one_output": """
        x = T.arange(4.).requires_grad_()
        a, b = x.split(2)
        b.register_hook(lambda g: g * 10)
        a.register_hook(lambda g: None)
        (a.sum() + b.sum()).backward()
        show(x.grad)
    """,
    "node_prehook_and_post_hook_beside_tensor_hooks": """
        x = T.ones(2, requires_grad=True)
        y = x * 2
        y.grad_fn.register_prehook(lambda go: show("pre", go) or (go[0] * 10,))
        y.register_hook(lambda g: show("tensor hook", g))
        y.grad_fn.register_hook(lambda gi, go: show("post", gi, go))
        y.sum().backward()
        show(x.grad)
        x = T.arange(3.).requires_grad_()
        a, b, c = x.unbind()
        a.grad_fn.register_prehook(lambda gs: show("pre", gs))
        a.grad_fn.register_hook(lambda gi, go: show("post", gi, go))
        h = a.grad_fn.register_prehook(lambda gs: show("removed"))
        h.remove()
        (a * 2 + c).backward()
        show(x.grad)
    """,
    # -- in-place: refused on outputs that are views of one base ---------------------------------
    "inplace_on_an_output_of_several_views": """
        x = T.ones(3, 2, requires_grad=True) * 1
        for f in (lambda: x.unbind()[0].mul_(2), lambda: x.split(1)[0].zero_(),
                  lambda: x.chunk(3)[2].add_(1), lambda: x.split([1, 2])[1].add_(1),
                  lambda: x.unbind(1)[1].add_(1), lambda: x.unbind()[1][0].add_(1),
                  lambda: x.unbind()[1].view(2).add_(1), lambda: list(x)[0].add_(1)):
            try:
                f()
            except RuntimeError as e:
                show(str(e))
        leaf = T.ones(2, requires_grad=True)
        try:
            leaf.unbind()[0].add_(1)
        except RuntimeError as e:
            show(str(e))
        plain = T.ones(3)
        b = plain.unbind()[0]
        b.add_(1)
        show(plain, b.detach().add_(1))
    """,
    "base_changed_in_place_after_unbind": """
        y = T.ones(3, requires_grad=True) * 1
        a, b, c = y.unbind()
        y.mul_(2)
        show(y.grad_fn.name())
        a.grad_fn
    """,
    # -- custom Functions returning several tensors -----------------------------------------------
    "custom_function_with_two_outputs": """
        class Two(T.autograd.Function):
            @staticmethod
            def forward(ctx, x, y):
                ctx.save_for_backward(x, y)
                return x * 2, y * 3
            @staticmethod
            def backward(ctx, ga, gb):
                show("backward", ga, gb, ctx.needs_input_grad)
                return ga * 2, gb * 3
        x = T.ones(2, requires_grad=True)
        y = T.ones(2)
        a, b = Two.apply(x, y)
        show(a.grad_fn is b.grad_fn, a.output_nr, b.output_nr, a.requires_grad, b.requires_grad)
        graph(a + b)
        a.sum().backward()
        show(x.grad)
    """,
    "custom_function_set_materialize_grads": """
        class NoZeros(T.autograd.Function):
            @staticmethod
            def forward(ctx, x, y):
                ctx.set_materialize_grads(False)
                return x * 2, y * 3
            @staticmethod
            def backward(ctx, ga, gb):
                show("backward", ga, gb)
                return None if ga is None else ga * 2, None if gb is None else gb * 3
        x = T.ones(2, requires_grad=True)
        y = T.ones(2, requires_grad=True)
        a, b = NoZeros.apply(x, y)
        b.sum().backward()
        show(x.grad, y.grad)
    """,
    "custom_function_mark_non_differentiable": """
        class WithIndex(T.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                idx = T.arange(2)
                ctx.mark_non_differentiable(idx)
                return x * 2, idx
            @staticmethod
            def backward(ctx, g, gi):
                show("backward", g, gi)
                return g * 2
        x = T.ones(2, requires_grad=True)
        a, i = WithIndex.apply(x)
        show(i.grad_fn, i.requires_grad, i.is_leaf, a.output_nr)
        a.sum().backward()
        show(x.grad)
        class Masked(T.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                v = x * 2
                ctx.mark_non_differentiable(v)
                return x * 3, v
            @staticmethod
            def backward(ctx, g, gv):
                show("backward", g, gv)
                return g * 3
        a, v = Masked.apply(x)
        show(v.requires_grad, v.grad_fn, v.is_leaf)
        a.sum().backward()
        show(x.grad)
        class OnlyIndex(T.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                out = x.argmax()
                ctx.mark_non_differentiable(out)
                return out
            @staticmethod
            def backward(ctx, g):
                return None
        show(OnlyIndex.apply(x).requires_grad)
    """,
    "custom_function_tuple_with_a_number_list_and_single": """
        class WithNumber(T.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 2, 5
            @staticmethod
            def backward(ctx, a, b):
                show("backward", a, b)
                return a
        x = T.ones(2, requires_grad=True)
        r = WithNumber.apply(x)
        show(r)
        r[0].sum().backward()
        class AsList(T.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return [x * 2, x * 3]
            @staticmethod
            def backward(ctx, a, b):
                return a
        show(AsList.apply(x))
        class One(T.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return (x * 2,)
            @staticmethod
            def backward(ctx, a):
                return a
        show(One.apply(x))
        class Same(T.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x, x * 2
            @staticmethod
            def backward(ctx, a, b):
                return a + b
        p, q = Same.apply(x)
        show(p is x, p.grad_fn.name() == q.grad_fn.name(), p._version)
        (p.sum() + q.sum()).backward()
        show(x.grad)
    """,
    "custom_function_of_a_leaf_view": """
        class Two(T.autograd.Function):
            @staticmethod
            def forward(ctx, a):
                return a * 2, a * 3
            @staticmethod
            def backward(ctx, ga, gb):
                return ga * 2 + gb * 3
        a = T.ones(1, 2).permute(1, 0).requires_grad_()
        p, q = Two.apply(a)
        graph(q)
        q.sum().backward()
        show(a.grad)
    """,
    "custom_function_saves_its_outputs_and_once_differentiable": """
        class SinCos(T.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                s, c = x.sin(), x.cos()
                ctx.save_for_backward(s, c)
                return s, c
            @staticmethod
            def backward(ctx, gs, gc):
                s, c = ctx.saved_tensors
                return gs * c - gc * s
        x = T.tensor([0.5, 1.0], requires_grad=True)
        s, c = SinCos.apply(x)
        (s * c).sum().backward()
        show(x.grad)
        s, c = SinCos.apply(x)
        c.mul_(2)
        try:
            s.sum().backward()
        except RuntimeError as e:
            show(str(e))
        class Once(T.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 2, x * 3
            @staticmethod
            @T.autograd.function.once_differentiable
            def backward(ctx, ga, gb):
                return ga * 2 + gb * 3
        a, b = Once.apply(x)
        (g,) = T.autograd.grad(a.sum() + b.sum(), x, create_graph=True)
        show(g, g.grad_fn)
    """,
    # -- gradients of gradients through unbind and split -------------------------------------------
    "unbind_and_split_double_backward_graph": """
        x = T.tensor([[1., 2.], [3., 4.], [5., 6.]], requires_grad=True)
        a, b, c = x.unbind()
        (g,) = T.autograd.grad((a * a).sum() + (c ** 3).sum(), x, create_graph=True)
        graph(g)
        show(g)
        g.sum().backward()
        show(x.grad)
        a, b = x.split([1, 2])
        (g,) = T.autograd.grad((b * b).sum(), x, create_graph=True)
        graph(g)
        a, b = x.split(2)
        (g,) = T.autograd.grad((b * b).sum(), x, create_graph=True)
        graph(g)
    """,
    # -- .grad._version --------------------------------------------------------------------------
    "grad_version_counts_as_pytorch": """
        w = T.ones(2, requires_grad=True)
        for _ in range(3):
            (w * 2).sum().backward()
            show(w.grad._version)
        w = T.tensor(1., requires_grad=True)
        (w * 2).backward()
        (w * 3).backward()
        show(w.grad._version)
        w = T.ones(2, requires_grad=True)
        w.grad = T.zeros(2)
        (w * 2).sum().backward()
        show(w.grad._version)
        w = T.ones(2, requires_grad=True)
        (g,) = T.autograd.grad((w * 2).sum(), w)
        show(g._version)
    """,
    "grad_version_when_the_first_gradient_is_copied": """
        w = T.ones(2, requires_grad=True)
        g = T.ones(2)
        w.backward(g)
        show(w.grad._version, w.grad is g)
        w.backward(g)
        show(w.grad._version, g._version)
        w = T.ones(2, requires_grad=True)
        held = T.full((2,), 3.)
        w.register_hook(lambda gr: held)
        (w * 2).sum().backward()
        show(w.grad._version, w.grad is held)
        w = T.ones(2, 3, requires_grad=True)
        (w.t() * 1).sum().backward()
        show(w.grad._version)
        w = T.ones(2, requires_grad=True)
        w.expand(3, 2).sum().backward()
        show(w.grad._version)
        w.grad.zero_()
        (w * 2).sum().backward()
        show(w.grad._version)
        w = T.ones(2, requires_grad=True)
        opt = T.optim.SGD([w], lr=0.1)
        for _ in range(2):
            opt.zero_grad()
            (w * 2).sum().backward()
            opt.step()
            show(w.grad._version, w._version)
    """,
    "grad_version_under_create_graph": """
        import warnings
        warnings.simplefilter("ignore")
        w = T.ones(2, requires_grad=True)
        (w * 2).sum().backward(create_graph=True)
        show(w.grad._version)
        (w * 2).sum().backward(create_graph=True)
        show(w.grad._version)
        v = T.ones(2, requires_grad=True)
        (v * v).sum().backward(create_graph=True)
        show(v.grad._version)
    """,
    # -- found by the fuzzer's multi-output entries, in the programs around them ------------------
    "hooks_of_a_node_reached_without_a_gradient_see_none": """
        b = T.tensor([[-4.25], [0.0], [-1.3]], requires_grad=True)
        y = b * 1
        t = T.linalg.vector_norm(y, 0)
        y.register_hook(lambda g: show("y", g))
        y.grad_fn.register_prehook(lambda g: show("pre", g))
        y.grad_fn.register_hook(lambda gi, go: show("post", gi, go))
        b.register_hook(lambda g: show("b", g))
        t.backward()
        show(b.grad)
        b = T.tensor([[-4.25], [0.0], [-1.3]], requires_grad=True)
        b.register_hook(lambda g: T.ones(3, 1))
        T.linalg.vector_norm(b, 0).backward()
    """,
    "inplace_after_an_inplace_op_that_saved_its_result": """
        b = T.ones(2, requires_grad=True)
        t = b.clone().sigmoid_()
        t.sub_(2)
        try:
            t.sum().backward()
        except RuntimeError as e:
            show(str(e))
        t = b.clone().exp_()
        t.mul_(2)
        t.sum().backward()
    """,
    "backward_of_a_view_whose_base_changed": """
        x = T.ones(3, requires_grad=True)
        y = x * 1
        v = y[1:]
        y.mul_(2)
        v.sum().backward()
        show(x.grad)
        a = T.tensor([1., 2.], requires_grad=True)
        u = a.unbind()[0]
        a.detach().mul_(2)
        u.backward()
    """,
    "errors_and_warnings_around_them": """
        import warnings
        for call in (lambda: T.tensor(1.).unbind(-1), lambda: T.tensor(1.).unbind(1),
                     lambda: T.ones(1, 2).split([2, -1], -1), lambda: T.ones(1, 2).split([3], -1),
                     lambda: T.tensor([True]).clamp(max=True),
                     lambda: T.tensor([True]).clamp(min=0),
                     lambda: T.tensor([True]).clamp(True, True)):
            try:
                show(call())
            except (IndexError, RuntimeError, NotImplementedError) as e:
                show(type(e).__name__, str(e))
        a = T.ones(1, 0, 1, 1, dtype=T.int64).expand(3, 0, 3, 4)
        show(T.div(a, T.tensor([2, 0, -3, -4]), rounding_mode='floor').shape)
        show(T.ones(0, 2, 1, requires_grad=True).var(-2))
    """,
}
