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
    # -- the API tutorials stop on -----------------------------------------------------------------
    "device_checks_of_tutorials": """
        device = T.device("cuda" if T.cuda.is_available() else "cpu")
        show(T.cuda.is_available(), T.cuda.device_count(), T.accelerator.is_available(), device)
        x = T.ones(2, requires_grad=True)
        show(x.to(device) is x, x.cpu() is x, x.to("cpu") is x, x.to(device).device)
        show(x.to(device, T.float64), x.to(device=device, dtype=T.float64))
        model = T.nn.Linear(2, 1).to(device)
        show(model.weight.device, model.cpu() is model)
    """,
    "to_cuda_without_a_gpu": """
        T.ones(2).to("cuda")
    """,
    "cuda_method_without_a_gpu": """
        T.ones(2).cuda()
    """,
    "module_to_cuda_without_a_gpu": """
        T.nn.Linear(2, 1).to(T.device("cuda:0"))
    """,
    "norm_and_vector_norm": """
        x = T.tensor([[3., 4.], [0., 0.]], requires_grad=True)
        n = x.norm()
        show(n, T.norm(x), x.norm(dim=1), x.norm(p=1), x.norm(2, 1, True), T.norm(x, p="fro"),
             T.linalg.vector_norm(x), T.linalg.vector_norm(x, ord=float("inf")),
             T.linalg.vector_norm(x, 3, dim=0), T.linalg.vector_norm(x, ord=0))
        graph(n)
        n.backward()
        show(x.grad)
        y = T.tensor([[3., 4.], [0., 0.]], requires_grad=True)
        y.norm(dim=1).sum().backward()
        show(y.grad)
        z = T.tensor([1., -2., 2.], requires_grad=True)
        (T.linalg.vector_norm(z, float("inf")) + z.norm(p=1) + z.norm(p=3)).backward()
        show(z.grad)
    """,
    "norm_of_integers": """
        T.tensor([3, 4]).norm()
    """,
    "axis_is_an_alias_of_dim": """
        x = T.tensor([[3., 4.], [1., 2.]])
        show(x.sum(axis=0), x.mean(axis=1), x.max(axis=0), T.sum(x, axis=1), x.argmax(axis=1),
             x.std(axis=0), x.var(axis=1), x.prod(axis=0), x.amax(axis=1), x.cumsum(axis=1))
    """,
    "keepdims_is_an_alias_of_keepdim": """
        x = T.tensor([[3., 4.], [1., 2.]])
        show(x.sum(1, keepdims=True), T.sum(x, 1, keepdims=True), x.mean(axis=1, keepdims=True),
             x.max(1, keepdims=True), T.min(x, axis=0, keepdims=True), x.argmax(1, keepdims=True),
             T.argmin(x, 1, keepdims=True), x.var(1, keepdims=True), T.std(x, 0, keepdims=True),
             x.prod(1, keepdims=True), x.amax(1, keepdims=True), T.amin(x, 0, keepdims=True),
             x.logsumexp(1, keepdims=True), (x > 2).any(1, keepdims=True),
             (x > 2).all(0, keepdims=True), T.linalg.vector_norm(x, dim=1, keepdims=True))
    """,
    "keepdims_in_a_softmax_from_d2l": """
        X = T.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True)
        X_exp = T.exp(X)
        partition = X_exp.sum(1, keepdims=True)
        y = X_exp / partition
        y[:, 0].sum().backward()
        show(y, X.grad, y.grad_fn)
    """,
    "chunk_split_narrow": """
        x = T.arange(10.).reshape(2, 5).requires_grad_()
        parts = x.chunk(3, 1)
        show(parts, T.chunk(x, 2), x.split(2, 1), T.split(x, [1, 4], dim=1), x.narrow(1, 1, 2),
             T.narrow(x, 1, -2, 2))
        graph(parts[1])
        graph(x.split([1, 4], 1)[1])
        graph(x.narrow(1, 1, 2))
        (parts[0].sum() + 2 * parts[2].sum() + x.narrow(0, 1, 1).sum()).backward()
        show(x.grad, parts[0]._version, x.chunk(2, 1)[0].is_leaf)
    """,
    "split_sizes_that_do_not_add_up": """
        T.ones(5).split([1, 2])
    """,
    "narrow_past_the_end": """
        T.ones(5).narrow(0, 3, 4)
    """,
    "cumsum_and_prod": """
        x = T.tensor([[1., 2.], [3., 0.]], requires_grad=True)
        c = x.cumsum(0)
        p = x.prod()
        q = x.prod(1)
        show(c, p, q, T.cumsum(x, dim=1), T.prod(x, 0, keepdim=True), x.cumsum(1, dtype=T.float64))
        graph(c)
        graph(p)
        graph(q)
        (c * T.tensor([[1., 2.], [3., 4.]])).sum().backward()
        show(x.grad)
        x.grad = None
        (p + q.sum()).backward()
        show(x.grad)
        show(T.tensor([[1, 2], [3, 4]]).cumsum(0), T.tensor([True, True]).prod())
        show(T.tensor([2, 3]).prod())
    """,
    "square_and_round": """
        x = T.tensor([1.5, -2.5, 0.46, 2.5], requires_grad=True)
        s = x.square()
        r = x.round()
        d = T.round(x, decimals=1)
        show(s, r, d, T.square(T.tensor([2, 3])), T.tensor([2, 3]).round())
        graph(s)
        graph(r)
        graph(d)
        (s.sum() + r.sum() + d.sum()).backward()
        show(x.grad)
    """,
    "bmm": """
        a = T.arange(12.).reshape(2, 2, 3).requires_grad_()
        b = T.tensor([[[1.], [2.], [3.]], [[-1.], [0.], [1.]]], requires_grad=True)
        y = a.bmm(b)
        show(y, T.bmm(a, b))
        graph(y)
        y.sum().backward()
        show(a.grad, b.grad)
    """,
    "bmm_of_matrices": """
        T.bmm(T.ones(2, 3), T.ones(3, 2))
    """,
    "bmm_with_mismatched_batches": """
        T.bmm(T.ones(2, 2, 3), T.ones(3, 3, 2))
    """,
    "repeat": """
        x = T.tensor([1., 2.], requires_grad=True)
        y = x.repeat(2, 2)
        show(y, x.repeat(3), T.tensor([[1, 2]]).repeat(1, 2, 1))
        graph(y)
        (y * T.arange(8.).reshape(2, 4)).sum().backward()
        show(x.grad)
    """,
    "repeat_with_too_few_sizes": """
        T.ones(2, 2).repeat(2)
    """,
    "gather": """
        x = T.tensor([[1., 2.], [3., 4.]], requires_grad=True)
        index = T.tensor([[0, 0], [1, 0]])
        y = x.gather(1, index)
        show(y, T.gather(x, 0, index), x.gather(1, T.tensor([[1], [0]])))
        graph(y)
        y.sum().backward()
        show(x.grad)
    """,
    "gather_with_int32_index": """
        show(T.ones(2, 2).gather(1, T.tensor([[0, 1]], dtype=T.int32)))
        T.ones(2, 2).gather(1, T.tensor([[0., 1.]]))
    """,
    "gather_out_of_bounds": """
        T.ones(2, 2).gather(1, T.tensor([[0, 5]]))
    """,
    "gather_with_fewer_dims": """
        T.ones(2, 2).gather(1, T.tensor([0, 1]))
    """,
    "amax_and_amin": """
        x = T.tensor([[1., 5.], [5., 4.]], requires_grad=True)
        y = x.amax(0)
        z = T.amin(x, dim=1, keepdim=True)
        w = x.amax()
        show(y, z, w, x.amin((0, 1)), T.amax(T.tensor([[1, 3]]), 1))
        graph(y)
        (y.sum() + z.sum() + w).backward()
        show(x.grad)
    """,
    "masked_fill": """
        x = T.tensor([[1., 5.], [5., 4.]], requires_grad=True)
        y = x.masked_fill(x > 2, 0.)
        v = T.tensor(-1., requires_grad=True)
        z = x.masked_fill(T.tensor([True, False]), v)
        show(y, z, x.masked_fill(x > 2, float("-inf")), T.masked_fill(x, x < 2, 7))
        graph(y)
        graph(z)
        (y.sum() + z.sum()).backward()
        show(x.grad, v.grad)
        a = x.detach().clone()
        a.masked_fill_(a > 4, 9.)
        show(a)
    """,
    "masked_fill_with_a_float_mask": """
        T.ones(2).masked_fill(T.ones(2), 0.)
    """,
    "normal_samples": """
        T.manual_seed(0)
        show(T.normal(0., 1., size=(2, 3)).shape, T.normal(2., 3., (4,)).dtype)
        m = T.zeros(3, requires_grad=True)
        s = T.ones(3, requires_grad=True)
        for y in (T.normal(m, 1.), T.normal(0., s), T.normal(m, s)):
            show(y.shape, y.dtype, y.grad_fn.name(), len(y.grad_fn.next_functions))
            y.sum().backward()
        show(m.grad, s.grad)
    """,
    "leaky_relu": """
        F = T.nn.functional
        x = T.tensor([-1., 0., 2.], requires_grad=True)
        y = F.leaky_relu(x, 0.1)
        show(y, F.leaky_relu(x), T.nn.LeakyReLU(0.2)(x))
        show(T.nn.LeakyReLU(), T.nn.LeakyReLU(0.2, True))
        graph(y)
        y.sum().backward()
        show(x.grad)
    """,
    "dropout_in_train_and_eval": """
        F = T.nn.functional
        x = T.ones(4, requires_grad=True)
        show(F.dropout(x, 0.5, training=False) is x, F.dropout(x, 0.) is x)
        y = F.dropout(x, 1.)
        show(y)
        graph(y)
        d = T.nn.Dropout(0.5)
        show(d, T.nn.Dropout(0.3, inplace=True), d.training)
        z = d(x)
        show(z.shape, sorted(set(z.tolist())) in ([0.], [2.], [0., 2.]), z.grad_fn.name())
        d.eval()
        show(d(x) is x, d.training)
        model = T.nn.Sequential(T.nn.Linear(2, 2), T.nn.Dropout(0.5))
        model.eval()
        show([m.training for m in model])
    """,
    "dropout_probability_out_of_range": """
        T.nn.functional.dropout(T.ones(2), 1.5)
    """,
    "smooth_l1_and_huber_losses": """
        F = T.nn.functional
        x = T.tensor([0.5, 3., -2.], requires_grad=True)
        t = T.tensor([0., 0., 0.5])
        l = F.smooth_l1_loss(x, t)
        h = F.huber_loss(x, t, delta=2.)
        show(l, h, T.nn.SmoothL1Loss()(x, t), T.nn.HuberLoss()(x, t), T.nn.SmoothL1Loss(beta=0.5))
        show(F.smooth_l1_loss(x, t, reduction="sum", beta=0.5))
        show(F.huber_loss(x, t, reduction="none"))
        show(F.smooth_l1_loss(x, t, beta=0.))
        graph(l)
        graph(h)
        (l + h).backward()
        show(x.grad)
    """,
    "module_list_and_module_dict": """
        layers = T.nn.ModuleList([T.nn.Linear(2, 2) for _ in range(3)] + [T.nn.ReLU()])
        show(len(layers), layers, layers[-1], layers[0:1], T.nn.ModuleList())
        layers.append(T.nn.Tanh())
        show([n for n, _ in layers.named_parameters()], len(list(layers.parameters())))
        del layers[0]
        show(layers, list(layers.state_dict()))
        d = T.nn.ModuleDict({"a": T.nn.Linear(1, 1), "b": T.nn.Tanh()})
        d["c"] = T.nn.ReLU()
        show(d, list(d), list(d.keys()), "a" in d, len(d), [n for n, _ in d.named_parameters()])
        layers(1)
    """,
    "lazy_linear": """
        T.manual_seed(0)
        m = T.nn.LazyLinear(3)
        show(m, m.weight, m.in_features)
        y = m(T.ones(2, 4))
        show(y.shape, m.weight.shape, m.in_features, type(m).__name__, m, type(m.weight).__name__)
        show(m.bias.shape, y.grad_fn.name())
    """,
    "indexing_with_a_range": """
        x = T.arange(10.).reshape(5, 2).requires_grad_()
        y = x[range(3)]
        show(y, x[range(1, 5, 2), 1], x[:, range(1)])
        graph(y)
        y.sum().backward()
        show(x.grad)
    """,
    # -- printing, conversions and messages --------------------------------------------------------
    "negative_zero_prints_as_torch_prints_it": """
        show(T.tensor(-0.), T.tensor([-0., 1.]), T.tensor([-0., 1.5]), -T.zeros(2),
             T.tensor(-0., dtype=T.float64), T.tensor([[-0., 2.], [1e-5, -0.]]))
    """,
    "format_of_a_0d_tensor": """
        loss = T.tensor(0.123456, requires_grad=True) * 2
        show(f"{loss:.4f}", format(T.tensor(3.), ".2f"), f"{T.tensor(2)}", f"{T.tensor(7):d}",
             f"{T.tensor(1.5):>8}", "{:.3e}".format(T.tensor(1234.5)), f"{T.ones(2)}")
    """,
    "format_spec_of_a_1d_tensor": """
        f"{T.ones(2):.2f}"
    """,
    "float_of_many_elements": """
        float(T.ones(2))
    """,
    "int_of_many_elements": """
        int(T.ones(2))
    """,
    "size_0_of_a_0d_tensor": """
        T.tensor(1.).size(0)
    """,
    "exp_is_correctly_rounded_in_float32": """
        show(T.exp(T.tensor(12.)), T.exp(T.tensor(12.)).item(), T.tensor([0.5, 3., -7.25]).exp())
    """,
    "version_error_names_the_inplace_node": """
        a = T.ones(2, requires_grad=True)
        b = a * 2
        c = b / 3
        d = c * c
        c.add_(1)
        d.sum().backward()
    """,
    "version_error_names_torch_node_of_a_saved_input": """
        a = T.ones(2, requires_grad=True)
        b = a * 1
        c = a / b
        b.mul_(2)
        c.sum().backward()
    """,
    "version_error_of_a_detached_input_names_no_node": """
        x = T.tensor([1., 2.], requires_grad=True)
        y = x * 2
        y.mul_(y.detach())
        y.add_(1)
        y.sum().backward()
    """,
    "cast_errors_name_bool_and_long": """
        for dtype in (T.bool, T.long):
            try:
                T.ones(2, dtype=dtype).add_(1.5)
            except RuntimeError as e:
                show(str(e))
    """,
    "setitem_on_a_leaf": """
        x = T.ones(2, requires_grad=True)
        x[0] = 2.
    """,
    "inplace_on_a_leaf_made_from_a_view": """
        b = T.tensor([0.5]).expand(1).requires_grad_()
        b.sub_(1)
    """,
    # -- the graph ---------------------------------------------------------------------------------
    "edge_order_alpha_and_reflected_numbers": """
        x = T.tensor([1., -2.], requires_grad=True)
        y = T.tensor([3., 4.], requires_grad=True)
        for z in [2 * x, 1 + x, T.div(2, x), T.sub(2, x), 2 / x, 2 - x, T.add(2, x), T.mul(2, x),
                  T.add(x, y, alpha=2), T.sub(x, y, alpha=2), T.sub(2, x, alpha=3),
                  T.sub(x, 2, alpha=3), x.add(y, alpha=0.5), T.rsub(x, 2), T.rsub(x, y),
                  x // 2, 2 // x, x % 2, 2 % x, x // y, x % y]:
            show(z)
            graph(z)
        (T.add(x, y, alpha=2).sum() + T.sub(2, x, alpha=3).sum() + T.div(2, x).sum()).backward()
        show(x.grad, y.grad)
        a = T.ones(2)
        a.add_(x, alpha=2)
        b = T.ones(2)
        b.sub_(x, alpha=2)
        show(a, b)
        graph(a)
        graph(b)
    """,
    "reductions_with_dtype_are_one_node": """
        x = T.tensor([1., -2.], requires_grad=True)
        for z in [x.sum(dtype=T.float64), x.mean(dtype=T.float64), x.softmax(0, dtype=T.float64),
                  x.sum(0, dtype=T.float64), x.mean(0, keepdim=True, dtype=T.float64),
                  T.sum(x, dtype=T.float64)]:
            show(z)
            graph(z)
        (x.sum(dtype=T.float64) + x.mean(0, dtype=T.float64)).backward()
        show(x.grad)
    """,
    "div_rounding_modes": """
        x = T.tensor([-3.5, 2.5], requires_grad=True)
        y = T.tensor([2., -1.5], requires_grad=True)
        for mode in ["floor", "trunc"]:
            for z in [T.div(x, y, rounding_mode=mode), T.div(x, 2, rounding_mode=mode),
                      T.div(2, x, rounding_mode=mode)]:
                show(z)
                graph(z)
                z.sum().backward(retain_graph=True)
        show(x.grad, y.grad, T.div(T.tensor([7, -7]), 2, rounding_mode="trunc"))
        T.div(x, y, rounding_mode="round")
    """,
    "index_with_a_0d_tensor_is_a_select": """
        x = T.arange(6.).reshape(3, 2).requires_grad_()
        y = x[T.tensor(1)]
        show(y, y._version, x[T.tensor(1), T.tensor([0, 1])], x[:, T.tensor(0)])
        graph(y)
        graph(x[T.tensor(2), 1:])
        y.sum().backward()
        show(x.grad)
    """,
    # -- views, edges, autograd --------------------------------------------------------------------
    "softmax_log_softmax_cross_entropy_of_size_0": """
        F = T.nn.functional
        x = T.ones(0, 3, requires_grad=True)
        s = x.softmax(1)
        show(s, x.log_softmax(0), x.softmax(0), T.ones(2, 0).log_softmax(1))
        show(F.cross_entropy(T.ones(0, 3), T.ones(0, dtype=T.long)))
        (s.sum() + x.log_softmax(0).sum()).backward()
        show(x.grad)
    """,
    "std_and_var_of_constant_data": """
        x = T.ones(3, requires_grad=True)
        x.std().backward()
        y = T.ones(3, requires_grad=True)
        y.var().backward()
        z = T.ones(2, 3, requires_grad=True)
        z.std(1).sum().backward()
        show(x.grad, y.grad, z.grad)
    """,
    "nan_through_relu_maximum_minimum": """
        x = T.tensor([float("nan"), 1., -1., 2.], requires_grad=True)
        y = T.tensor([float("nan"), 0., 2., 2.], requires_grad=True)
        (x.relu().sum() + T.maximum(x, y).sum() + T.minimum(x, y).sum()).backward()
        show(x.grad, y.grad, T.maximum(x, y), T.minimum(x, y), x.relu())
    """,
    "detach_in_place_of_a_used_leaf": """
        x = T.ones(2, requires_grad=True)
        y = (x * x).sum()
        x.detach_()
        show(x, x.requires_grad)
        y.backward()
        show(x.grad)
    """,
    "save_only_what_torch_saves": """
        a = T.ones(2, requires_grad=True)
        b = a * 1
        c = T.tensor([2., 3.])
        y = b * c
        b.add_(1)
        z = a / T.tensor([2., 4.])
        y.sum().backward()
        show(a.grad, y.grad_fn._saved_self, y.grad_fn._saved_other, z.grad_fn._saved_self)
        x = T.ones(2, requires_grad=True)
        w = x * c
        c.add_(1)
        w.sum().backward()
    """,
    "saved_values_by_torch_names": """
        x = T.tensor([1., 2.], requires_grad=True)
        c = T.tensor([2., 4.])
        y, e, p = x * x, x.exp(), x ** 3
        show(y.grad_fn._saved_self, y.grad_fn._saved_self is x, y.grad_fn._saved_other)
        show((x * 3).grad_fn._saved_other, (x * 3).grad_fn._saved_self, (c / x).grad_fn._saved_self)
        show(e.grad_fn._saved_result, p.grad_fn._saved_self, p.grad_fn._saved_exponent)
        show((x + 2).grad_fn._saved_alpha, T.add(x, c, alpha=2).grad_fn._saved_alpha)
        show(x.tanh().grad_fn._saved_result, x.log().grad_fn._saved_self)
        y.sum().backward()
        w = x + 2
        w.sum().backward()
        show(w.grad_fn._saved_alpha)
        y.grad_fn._saved_self
    """,
    "saved_value_that_does_not_exist": """
        x = T.tensor([1., 2.], requires_grad=True)
        (x * x).grad_fn._saved_nothing
    """,
    "backward_of_outputs_that_depend_on_each_other": """
        x = T.ones(2, requires_grad=True)
        y = x * 2
        z = y * 3
        T.autograd.backward([y, z], [T.ones(2), T.tensor([1., 2.])])
        show(x.grad)
    """,
    "autograd_grad_with_no_inputs": """
        x = T.ones(2, requires_grad=True)
        T.autograd.grad((x * 2).sum(), [])
    """,
    "autograd_grad_skips_what_cannot_reach_the_inputs": """
        x = T.ones(2, requires_grad=True)
        w = T.ones(2, requires_grad=True)
        out = (x * 2).sum() + (w * 3).sum()
        show(T.autograd.grad(out, [x]), w.grad)
    """,
    "grad_fn_objects_are_callable": """
        x = T.ones(2, requires_grad=True)
        y = x * 2
        show(y.grad_fn(T.ones(2)))
    """,
    "grad_version_counts": """
        x = T.ones(2, requires_grad=True)
        for _ in range(3):
            (x * 2).sum().backward()
            show(x.grad._version)
    """,
    "no_grad_decorates_a_generator": """
        @T.no_grad()
        def steps(x):
            yield x * 2
            yield x * 3
        x = T.ones(2, requires_grad=True)
        show([t.requires_grad for t in steps(x)], T.is_grad_enabled())
    """,
    # -- a view made before its base's requires_grad_() follows the base -------------------------
    "view_made_before_requires_grad_follows_its_base": """
        b = T.zeros(3)
        v = b[1:]
        b.requires_grad_()
        show(v.requires_grad, v.grad_fn, v.is_leaf, v._base is b, v)
        w = v * 2
        show(w)
        graph(w)
        y = (v.exp() + w).sum()
        graph(y)
        y.backward()
        show(b.grad, v.grad)
        b.requires_grad_(False)
        show(v.requires_grad, (v * 2).requires_grad)
    """,
    "view_made_before_requires_grad_in_the_ops": """
        b = T.tensor([[0., 1, 2], [3, 4, 5]])
        v = b[:, 1:]
        b.requires_grad_()
        F = T.nn.functional
        for r in (T.cat([v, v]), T.where(v > 1, v, 0.), v @ T.ones(2, 2), v.relu(),
                  F.linear(v, T.ones(2, 2), T.ones(2)), v.softmax(1), v[T.tensor([0, 1])],
                  F.cross_entropy(v, T.tensor([0, 1])), F.mse_loss(v, T.ones(2, 2)), v[0],
                  v.t(), v.reshape(4), v.matmul(T.ones(2)), v.mean(0), v.float(), v.clone()):
            show(r)
            graph(r)
        show([(p.requires_grad, p.grad_fn.name()) for p in v.unbind(1)])
        show(v.detach().requires_grad, v[1:].is_leaf)
        x = T.zeros(2, 2)
        x.add_(v)
        graph(x)
        with T.no_grad():
            v.add_(1)
        show(v, b)
    """,
    "view_made_under_no_grad_requires_grad": """
        b = T.ones(3, requires_grad=True)
        with T.no_grad():
            v = b[1:]
        show(v.requires_grad, v.is_leaf, v.grad_fn)
        v.retain_grad()
        v.register_hook(lambda g: g)
        show(T.autograd.grad(v.sum(), [v, b], allow_unused=True))
        v.numpy()
    """,
    "view_made_before_requires_grad_in_place": """
        b = T.zeros(3)
        v = b[1:]
        b.requires_grad_()
        v.mul_(2)
    """,
    "view_made_before_requires_grad_setitem": """
        b = T.zeros(3)
        v = b[1:]
        b.requires_grad_()
        v[0] = 1.
    """,
    "view_made_before_requires_grad_base_changed": """
        b = T.zeros(3)
        v = b[1:]
        b.requires_grad_()
        with T.no_grad():
            b.add_(1)
        show(v.grad_fn, v.is_leaf, v.requires_grad)
        y = (v * v).sum()
        graph(y)
        y.backward()
        show(b.grad)
        v.backward(T.ones(2))
    """,
    "view_made_before_requires_grad_backward": """
        b = T.zeros(3)
        v = b[1:]
        b.requires_grad_()
        v.backward(T.ones(2))
    """,
}
