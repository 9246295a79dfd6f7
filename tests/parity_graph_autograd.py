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
}
