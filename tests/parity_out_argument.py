"""Parity snippets for ``out=`` (``minigrad/_out.py``): PyTorch's tensors tutorial writes
``torch.matmul(t, t.T, out=y3)`` and ``torch.mul(t, t, out=z3)``. Each family of ops has its
own dtype rule and words; ``out`` is resized (with a warning when it had elements), its version
goes up by one, and an argument that requires grad is refused with grad mode on."""

OUT_ARGUMENT: dict[str, str] = {
    "out_argument_of_the_tensors_tutorial": """
        t = T.ones(4, 4)
        t[:, 1] = 0
        y3 = T.rand_like(t)
        r = T.matmul(t, t.T, out=y3)
        show(r is y3, y3, y3._version)
        z3 = T.rand_like(t)
        T.mul(t, t, out=z3)
        show(z3, z3._version)
        T.mul(t, t, out=t)
        show(t, t._version)
    """,
    "out_argument_dtype_rules_of_each_family": """
        x = T.tensor([[1.5, -2.0], [3.0, 4.0]])
        i = T.tensor([[1, -2], [3, 4]])
        v = T.tensor([1.0, 2.0])
        calls = [
            ("add", (x, x)), ("add", (i, 1)), ("div", (i, 2)), ("mul", (x, 2)),
            ("exp", (x,)), ("sqrt", (i,)), ("pow", (x, 2)), ("maximum", (x, x)),
            ("eq", (x, 2)), ("lt", (x, i)), ("abs", (x,)), ("neg", (i,)), ("floor", (x,)),
            ("clamp", (x, 0)), ("sign", (x,)), ("matmul", (x, x)), ("mm", (x, x)),
            ("mv", (x, v)), ("dot", (v, v)), ("outer", (v, v)), ("tril", (x,)),
            ("softmax", (x, 0)), ("argmax", (x, 0)), ("cat", ([x, x],)), ("stack", ([x, x],)),
            ("where", (x > 2, x, x)), ("sum", (x, 0)), ("prod", (x, 0)), ("cumsum", (x, 0)),
            ("mean", (x, 0)), ("std", (x, 0)), ("amax", (x, 0)), ("logsumexp", (x, 0)),
        ]
        for name, args in calls:
            for dtype in (T.float32, T.float64, T.int64, T.bool, T.int32):
                out = T.empty(0, dtype=dtype)
                try:
                    got = getattr(T, name)(*args, out=out)
                    show(name, got is out, out, out._version)
                except (RuntimeError, TypeError) as e:
                    show(name, type(e).__name__, str(e))
    """,
    "out_argument_resizes_with_a_warning": """
        x = T.tensor([[1.5, -2.0], [3.0, 4.0]])
        o = T.zeros(3)
        T.add(x, 1, out=o)
        show(o, o.shape, o._version)
        e = T.empty(0)
        T.cat([x, x], out=e)
        show(e.shape)
        T.sum(x, 1, out=e)
        show(e)
        for code in ("T.mul(x, 2, out=T.zeros(3, dtype=T.float64))", "T.exp(x, out=T.zeros(1))",
                     "T.mul(T.tensor(2), T.tensor(0), out=T.zeros(2))",
                     "T.eq(x, 1, out=T.zeros(2))", "T.sum(x, 0, out=T.zeros(3, dtype=T.float64))",
                     "T.cat([x], out=T.zeros(3, dtype=T.float64))"):
            show(eval(code))
    """,
    "out_argument_refused_with_grad": """
        w = T.ones(2, requires_grad=True)
        o = T.empty(2)
        for f in (lambda: T.mul(w, 2, out=o), lambda: T.exp(w, out=o),
                  lambda: T.add(o, 1, out=T.zeros(2, requires_grad=True)),
                  lambda: T.matmul(w, w, out=T.empty(()))):
            try:
                f()
            except RuntimeError as e:
                show(str(e))
        m = T.ones(2, 2, requires_grad=True)
        calls = [
            ("multiply", (m, 2)), ("divide", (m, 2)), ("negative", (m,)), ("clip", (m, 0)),
            ("concat", ([m, m],)), ("outer", (m[0], m[0])), ("outer", (m, m)),
            ("matmul", (T.tensor(1.0, requires_grad=True), m)), ("matmul", (m, m)),
            ("eq", (m, 2)), ("argmax", (m, 0)),
            ("sign", (m,)), ("tril", (m,)), ("cumsum", (m, 5)), ("sum", (m, 5)),
            ("softmax", (m, 5)), ("mul", (m, T.ones(3))), ("matmul", (m > 0, m)),
            ("matmul", (m[0], T.ones(3))), ("outer", (m[0], T.ones(3, dtype=T.float64))),
        ]
        for name, args in calls:
            out = T.empty(0, dtype=T.int64 if name == "argmax" else T.float32)
            try:
                getattr(T, name)(*args, out=out)
                show(name, out)
            except (RuntimeError, IndexError) as e:
                show(name, type(e).__name__, str(e))
        with T.no_grad():
            show(T.mul(w, 2, out=o), o.requires_grad, o.grad_fn)
        show(T.mul(w.detach(), 3, out=o), o._version)
    """,
    "out_argument_of_this_sessions_ops": """
        x = T.tensor([0.25, -0.5])
        i = T.tensor([1, -2])
        w = T.ones(2, requires_grad=True)
        for name, args in [("erf", (x,)), ("erfc", (x,)), ("erfinv", (x,)), ("erf", (i,)),
                           ("lerp", (x, x * 2, 0.5)), ("lerp", (x, x * 2, x)),
                           ("atan2", (x, x)), ("arctan2", (x, i))]:
            for dtype in (T.float32, T.float64, T.int64, T.bool):
                out = T.zeros(3, dtype=dtype)
                try:
                    show(name, getattr(T, name)(*args, out=out) is out, out, out._version)
                except RuntimeError as e:
                    show(name, str(e))
        for name, args in [("erf", (w,)), ("erfinv", (w,)), ("lerp", (x, w, 0.5)),
                           ("lerp", (x, x, w)), ("arctan2", (w, x))]:
            try:
                getattr(T, name)(*args, out=T.empty(2))
            except RuntimeError as e:
                show(name, str(e))
    """,
    "out_argument_of_mean_std_var_overloads": """
        x = T.tensor([[1.5, -2.0], [3.0, 4.0]])
        calls = [
            ("mean", (x,), {}), ("mean", (x, 0), {}), ("mean", (x,), {"dim": None}),
            ("mean", (x,), {"dtype": T.float64}), ("mean", (x, 1), {"dtype": T.float64}),
            ("std", (x,), {}), ("var", (x, 0), {}),
        ]
        for name, args, kwargs in calls:
            for dtype in (T.float32, T.float64, T.float16, T.int64, T.bool):
                for size in (0, 5):
                    out = T.zeros(size, dtype=dtype)
                    try:
                        show(name, getattr(T, name)(*args, **kwargs, out=out) is out, out)
                    except RuntimeError as e:
                        show(name, str(e))
                    show(out.shape)  # the resize warnings are recorded at the end
    """,
    "out_argument_of_sum_prod_cumsum_with_dtype_or_no_dim": """
        x = T.tensor([[1.5, -2.0], [3.0, 4.0]])
        w = T.ones(2, requires_grad=True)
        calls = [
            ("sum", (x, 0), {"dtype": T.float64}), ("sum", (x, 0), {"dtype": None}),
            ("sum", (x,), {"dim": None, "dtype": T.int64}), ("prod", (x, 1), {"dtype": T.float64}),
            ("cumsum", (x, 0), {"dtype": T.float64}), ("cumprod", (x, 1), {"dtype": T.int64}),
            ("sum", (x,), {}), ("prod", (x,), {}), ("sum", (x,), {"dtype": T.float64}),
            ("prod", (x,), {"keepdim": True}), ("sum", (w,), {}), ("sum", (w,), {"dtype": None}),
            ("sum", (w, 0), {"dtype": T.float64}), ("sum", (x, None), {}),
        ]
        for name, args, kwargs in calls:
            for dtype in (T.float32, T.float64, T.int64):
                out = T.zeros(3, dtype=dtype)
                try:
                    show(name, getattr(T, name)(*args, **kwargs, out=out) is out, out)
                except (RuntimeError, TypeError) as e:
                    show(name, type(e).__name__, str(e))
    """,
}
