"""Parity snippets of ``F.embedding`` and ``nn.Embedding`` (and, as they land, ``one_hot``,
``unflatten``, ``normalize``, ``pad``), in the style of ``parity_snippets.py`` (which includes
them): values, printed text, grad_fn names, saved values, graphs and errors as PyTorch's."""

from __future__ import annotations

NN_EMBED: dict[str, str] = {
    "embedding_lookup_gradient_and_graph": """
        F = T.nn.functional
        w = T.tensor([[0.5, 1., -1.], [2., 0., 1.], [1., 1., 1.], [3., -2., .5]])
        w.requires_grad_()
        i = T.tensor([[0, 2], [2, 3]])
        y = F.embedding(i, w)
        show(y, y.is_contiguous(), y._base is None)
        graph(y)
        fn = y.grad_fn
        show(fn._saved_indices, fn._saved_weight_sym_argsize_0, fn._saved_padding_idx)
        show(fn._saved_scale_grad_by_freq, fn._saved_sparse)
        (y * T.arange(12.).view(2, 2, 3)).sum().backward()
        show(w.grad)
        show(F.embedding(T.tensor(1), w), F.embedding(T.tensor([3, 0], dtype=T.int32), w))
        show(F.embedding(T.zeros(2, 0, dtype=T.long), w))
        show(F.embedding(T.tensor([1, 0]), T.arange(6).view(3, 2)))
    """,
    "embedding_padding_idx_and_scale_grad_by_freq": """
        F = T.nn.functional
        w = T.tensor([[0.5, 1.], [2., 0.], [1., 1.]], requires_grad=True)
        i = T.tensor([[0, 2, 2], [1, 2, 0]])
        y = F.embedding(i, w, padding_idx=2)
        show(y, y.grad_fn._saved_padding_idx)
        show(F.embedding(i, w, padding_idx=-1).grad_fn._saved_padding_idx)
        y.sum().backward()
        show(w.grad)
        w.grad = None
        F.embedding(i, w, scale_grad_by_freq=True).pow(2).sum().backward()
        show(w.grad)
        w.grad = None
        F.embedding(i, w, padding_idx=0, scale_grad_by_freq=True).sum().backward()
        show(w.grad)
        show(F.embedding(i, w, padding_idx=T.tensor(-1)).grad_fn._saved_padding_idx)
        for idx in (1.5, -1.5, True, "a"):
            for sparse in (False, True):
                try:
                    F.embedding(i, w, padding_idx=idx, sparse=sparse)
                except (TypeError, NotImplementedError) as e:
                    show(type(e).__name__, str(e))
    """,
    "embedding_max_norm_renormalises_in_place": """
        F = T.nn.functional
        w = T.tensor([[3., 4.], [1., 0.], [0., .5], [2., 2.]], requires_grad=True)
        v = w._version
        y = F.embedding(T.tensor([0, 3, 3]), w, max_norm=1.)
        show(y, w, w._version - v)
        graph(y)
        show(F.embedding(T.tensor([1, 2]), w, max_norm=1.), w._version - v)
        show(F.embedding(T.tensor([1, 2]), w, max_norm=.1, norm_type=1.), w, w._version - v)
        show(F.embedding(T.tensor([[1], [2]]), w, max_norm=.01, norm_type=float('inf')), w)
        y.sum().backward()
        show(w.grad)
    """,
    "embedding_max_norm_of_an_expanded_weight": """
        a = T.tensor([[3., 4.]]).expand(2, 2)
        v = a._version
        show(T.nn.functional.embedding(T.tensor([1, 0]), a, max_norm=1.), a, a._version - v)
        b = T.tensor([[3.], [4.]]).expand(2, 3)
        show(T.nn.functional.embedding(T.tensor([1]), b, max_norm=10.))
        T.nn.functional.embedding(T.tensor([1]), b, max_norm=1.)
    """,
    "embedding_of_empty_tables_and_reshaped_expanded_weights": """
        F = T.nn.functional
        show(F.embedding(T.tensor([0]), T.zeros(2, 0)))
        show(F.embedding(T.tensor([], dtype=T.long), T.zeros(0, 3)))
        a = T.tensor([[-3.0]]).expand(2, 1)
        show(F.embedding(T.tensor([1, 1]), a.reshape(2, -1), max_norm=0.1), a)
        b = T.tensor([[-3.0, 4.]]).t().expand(2, 3).t()
        show(F.embedding(T.tensor([1]), b, max_norm=0.1), b)
    """,
    "embedding_index_out_of_range_of_a_table_without_columns": """
        T.nn.functional.embedding(T.tensor([1, 3, -1]), T.zeros(2, 0))
    """,
    "embedding_of_a_table_without_rows": """
        T.nn.functional.embedding(T.tensor([1]), T.zeros(0, 3))
    """,
    "embedding_create_graph_and_double_backward": """
        F = T.nn.functional
        w = T.tensor([[0.5, 1., -1.], [2., 0., 1.], [1., 1., 1.]], requires_grad=True)
        for p in (1, None):
            y = F.embedding(T.tensor([[0, 1], [1, 2]]), w, padding_idx=p)
            gy = T.ones(2, 2, 3, requires_grad=True)
            (g,) = T.autograd.grad(y, w, gy, create_graph=True)
            show(g, g.grad_fn._saved_indices, g.grad_fn._saved_padding_idx)
            graph(g)
            m = T.arange(9.).view(3, 3).requires_grad_()
            (h,) = T.autograd.grad((g * m).sum(), gy, create_graph=True)
            show(h)
            graph(h)
            (k,) = T.autograd.grad(h, m, T.ones(2, 2, 3, requires_grad=True), create_graph=True)
            show(k)
            graph(k)
    """,
    "embedding_float_indices": """
        T.nn.functional.embedding(T.tensor([0., 1.]), T.ones(3, 2))
    """,
    "embedding_bool_indices": """
        T.nn.functional.embedding(T.tensor([True]), T.ones(3, 2))
    """,
    "embedding_int16_indices_with_max_norm": """
        T.nn.functional.embedding(T.tensor([0, 1], dtype=T.int16), T.ones(3, 2), max_norm=1.)
    """,
    "embedding_index_out_of_range": """
        T.nn.functional.embedding(T.tensor([[0, 3]]), T.ones(3, 2))
    """,
    "embedding_negative_index": """
        T.nn.functional.embedding(T.tensor([0, -1]), T.ones(3, 2))
    """,
    "embedding_index_out_of_range_with_max_norm": """
        T.nn.functional.embedding(T.tensor([0, 7]), T.ones(3, 2), max_norm=1.)
    """,
    "embedding_weight_not_2d": """
        T.nn.functional.embedding(T.tensor([0, 1]), T.ones(3))
    """,
    "embedding_weight_not_2d_with_max_norm": """
        T.nn.functional.embedding(T.tensor([0, 1]), T.ones(3, 2, 2), max_norm=1.)
    """,
    "embedding_integer_weight_with_max_norm": """
        T.nn.functional.embedding(T.tensor([0]), T.ones(3, 2, dtype=T.long), max_norm=.5)
    """,
    "embedding_padding_idx_out_of_range": """
        T.nn.functional.embedding(T.tensor([0, 1]), T.ones(3, 2), padding_idx=3)
    """,
    "embedding_padding_idx_too_negative": """
        T.nn.functional.embedding(T.tensor([0, 1]), T.ones(3, 2), padding_idx=-4)
    """,
    "embedding_indices_a_list": """
        T.nn.functional.embedding([0, 1], T.ones(3, 2))
    """,
    "embedding_weight_an_array": """
        T.nn.functional.embedding(T.tensor([0, 1]), np.ones((3, 2), np.float32))
    """,
    "embedding_second_backward": """
        w = T.ones(3, 2, requires_grad=True)
        y = T.nn.functional.embedding(T.tensor([0, 1]), w).sum()
        y.backward()
        y.backward()
    """,
    "embedding_module_repr_state_dict_and_init": """
        e = T.nn.Embedding(27, 10, padding_idx=0)
        show(e, list(e.state_dict()), e.weight.shape, e.weight.dtype, e.weight.requires_grad)
        show(e.weight[0], e.weight._version, e.padding_idx, e.num_embeddings, e.embedding_dim)
        show(T.nn.Embedding(3, 2, max_norm=1.0, norm_type=1., scale_grad_by_freq=True, sparse=True))
        show(T.nn.Embedding(3, 2, max_norm=1, padding_idx=-1), T.nn.Embedding(3, 2, norm_type=2.))
        show(T.nn.Embedding(4, 3, dtype=T.float64).weight.dtype)
        e = T.nn.Embedding(5, 2)
        y = e(T.tensor([[1, 1, 4]]))
        show(y.shape, y.grad_fn, y.grad_fn.next_functions[0][0].variable is e.weight)
        y.sum().backward()
        show(e.weight.grad)
    """,
    "embedding_from_pretrained": """
        w = T.tensor([[1., 2.], [3., 4.], [5., 6.]])
        e = T.nn.Embedding.from_pretrained(w)
        show(e, e.weight, e.weight.requires_grad, e(T.tensor([2, 0])))
        e = T.nn.Embedding.from_pretrained(w, freeze=False, padding_idx=1)
        show(e, e.weight.requires_grad, e.weight[1])
        w.mul_(2)
        show(e.weight)
        y = e(T.tensor([1, 2, 1]))
        y.sum().backward()
        show(y, e.weight.grad)
    """,
    "embedding_from_pretrained_not_2d": """
        T.nn.Embedding.from_pretrained(T.ones(4))
    """,
    "embedding_weight_of_wrong_shape": """
        T.nn.Embedding(5, 3, _weight=T.ones(4, 3))
    """,
    "embedding_module_padding_idx_out_of_range": """
        T.nn.Embedding(5, 3, padding_idx=-6)
    """,
}

NN_EMBED.update(
    {
        "one_hot_values_and_shapes": """
            F = T.nn.functional
            show(F.one_hot(T.tensor([0, 2, 1])), F.one_hot(T.tensor([[0, 2], [1, 1]]), 4))
            show(F.one_hot(T.tensor(3)), F.one_hot(T.tensor(3), 5))
            show(F.one_hot(T.tensor([], dtype=T.long), 3), F.one_hot(input=T.tensor([0])))
            show(F.one_hot(T.tensor([1, 0]), np.int64(3)), F.one_hot(T.tensor([1, 0]), T.tensor(3)))
            y = F.one_hot(T.tensor([[0, 1], [2, 0]]).t())
            show(y, y.is_contiguous(), y._version, y.requires_grad)
            w = T.ones(3, 2, requires_grad=True)
            z = F.one_hot(T.tensor([0, 2]), 3).float() @ w
            show(z)
            graph(z)
        """,
        "one_hot_of_empty_with_inferred_classes": """
            T.nn.functional.one_hot(T.tensor([], dtype=T.long))
        """,
        "one_hot_of_empty_with_zero_classes": """
            T.nn.functional.one_hot(T.zeros(2, 0, dtype=T.long), 0)
        """,
        "one_hot_value_not_below_num_classes": """
            T.nn.functional.one_hot(T.tensor([0, 3]), 3)
        """,
        "one_hot_zero_classes": """
            T.nn.functional.one_hot(T.tensor([0, 1]), 0)
        """,
        "one_hot_negative_value": """
            T.nn.functional.one_hot(T.tensor([0, -1]), 3)
        """,
        "one_hot_of_int32": """
            T.nn.functional.one_hot(T.tensor([0, 1], dtype=T.int32))
        """,
        "one_hot_of_floats": """
            T.nn.functional.one_hot(T.tensor([0., 1.]))
        """,
        "one_hot_of_bools": """
            T.nn.functional.one_hot(T.tensor([True]))
        """,
        "one_hot_of_a_list": """
            T.nn.functional.one_hot([0, 1])
        """,
        "one_hot_bool_num_classes": """
            T.nn.functional.one_hot(T.tensor([1]), True)
        """,
        "one_hot_float_num_classes": """
            T.nn.functional.one_hot(T.tensor([0, 1]), 2.0)
        """,
        "one_hot_float_tensor_num_classes": """
            T.nn.functional.one_hot(T.tensor([0, 1]), T.tensor(3.))
        """,
    }
)

NN_EMBED.update(
    {
        "unflatten_values_graph_and_gradient": """
            x = T.arange(12.).requires_grad_()
            y = x.unflatten(0, (3, 4))
            show(y, x.unflatten(0, [2, -1]), x.unflatten(-1, (2, 2, 3)), T.unflatten(x, 0, (3, 4)))
            show(y._base is x, y.is_contiguous(), x.unflatten(0, T.Size([12])))
            graph(y)
            z = x.view(3, 4).t().unflatten(1, (3, 1))
            show(z, z.is_contiguous(), x.view(3, 4).t().unflatten(0, (2, 2)))
            show(T.zeros(0, 3).unflatten(1, (3, 1)), x.unflatten(0, (T.tensor(3), 4)).shape)
            (y * T.arange(12.).view(3, 4)).sum().backward()
            show(x.grad)
            y.mul_(2)
            show(x)
        """,
        "unflatten_sizes_that_do_not_multiply_up": """
            T.arange(12.).unflatten(0, (5, -1))
        """,
        "unflatten_with_no_sizes": """
            T.arange(12.).unflatten(0, ())
        """,
        "unflatten_dim_out_of_range": """
            T.arange(12.).unflatten(1, (3, 4))
        """,
        "unflatten_float_size": """
            T.arange(12.).unflatten(0, (3.0, 4))
        """,
        "unflatten_sizes_an_int": """
            T.arange(12.).unflatten(0, 12)
        """,
        "unflatten_where_no_view_can_read": """
            T.ones(3, 1).expand(3, 4).t().unflatten(1, (3, 1)).mul_(2)
        """,
        "unflatten_of_any_layout_is_a_view": """
            x = T.arange(24.).view(2, 3, 4).permute(2, 0, 1)
            y = x.unflatten(2, (3, 1)).unflatten(0, (2, 2))
            show(y, y.shape, y.is_contiguous(), y._base is x._base)
            z = T.ones(3, 1).expand(3, 4).unflatten(1, (2, 2))
            show(z, z._base is not None)
        """,
        "unflatten_module": """
            u = T.nn.Unflatten(1, (2, 5))
            show(u, T.nn.Unflatten(1, [2, 5]), T.nn.Unflatten(-1, (2, -1))(T.ones(3, 10)).shape)
            show(u.dim, u.unflattened_size)
            show(T.nn.Sequential(T.nn.Flatten(), T.nn.Unflatten(1, (2, 3))))
            x = T.ones(3, 10, requires_grad=True)
            y = u(x)
            show(y.shape, y.grad_fn, list(u.state_dict()))
        """,
        "unflatten_module_size_an_int": """
            T.nn.Unflatten(1, 5)
        """,
        "unflatten_module_float_size": """
            T.nn.Unflatten(1, (2.0, 5))
        """,
    }
)

NN_EMBED.update(
    {
        "normalize_values_graph_and_gradient": """
            F = T.nn.functional
            x = T.tensor([[3., 4.], [0., 0.], [1., -2.]], requires_grad=True)
            y = F.normalize(x)
            show(y, F.normalize(x, dim=0), F.normalize(x, p=1, dim=-1))
            show(F.normalize(x, p=float('inf'), dim=1, eps=0.5), F.normalize(x, 0.5, (0, 1)))
            graph(y)
            (y * T.tensor([[1., 2.], [3., 4.], [5., 6.]])).sum().backward()
            show(x.grad)
            show(F.normalize(T.tensor([3., 4.]), dim=0), F.normalize(T.tensor(3.), dim=0))
            show(F.normalize(T.tensor([[1., 2.]]).double(), dim=1), F.normalize(T.zeros(0, 2)))
            show(F.normalize(T.tensor([[1., 2.]]), p=0, dim=1), F.normalize(T.ones(1, 2), p=-1))
            show(T.zeros(0, 2).norm(2, 1, keepdim=True), T.zeros(2, 0, 3).norm(2, (0, 2)))
            a, b = T.zeros(0, 0, 2), T.zeros(2, 0, 3).permute(1, 2, 0)
            show(T.linalg.vector_norm(a, 2, dim=-1, keepdim=True), b.norm(2, 2))
            show(b.norm(0.5, (0, 1)))
            show(T.linalg.vector_norm(a, 3, dim=(0, 2)))
            show(T.nn.functional.cosine_similarity(a, a, -1))
        """,
        "vector_norm_of_a_scalar_with_a_dim": """
            x = T.tensor(0.87857985496521)
            y = T.tensor([1.4, 2.22]) @ T.tensor([-2., 3.])
            for p in (-1., 3., 0.5, 2., 1.):
                show([T.linalg.vector_norm(x, p, dim=d) for d in (None, 0, -1, (0,), ())])
                show(y.norm(p, 0), y.norm(p), T.nn.functional.normalize(y, p, 0))
        """,
        "normalize_second_derivative": """
            x = T.tensor([[3., 4.], [1., -2.]], requires_grad=True)
            (g,) = T.autograd.grad(T.nn.functional.normalize(x)[:, 0].sum(), x, create_graph=True)
            show(g)
            graph(g)
        """,
        "normalize_dim_out_of_range": """
            T.nn.functional.normalize(T.tensor([3., 4.]))
        """,
        "normalize_of_integers": """
            T.nn.functional.normalize(T.tensor([[1, 2]]), dim=1)
        """,
        "cosine_similarity_values_graph_and_gradient": """
            F = T.nn.functional
            a = T.tensor([[1., 2., 3.], [0., 1., 0.]], requires_grad=True)
            b = T.tensor([[1., 0., 3.], [0., 0., 0.]], requires_grad=True)
            c = F.cosine_similarity(a, b)
            show(c)
            graph(c)
            c.sum().backward()
            show(a.grad, b.grad)
            d = F.cosine_similarity(a, b[0])
            show(d, F.cosine_similarity(a, b, dim=0), F.cosine_similarity(a[0], b[0], dim=0))
            graph(d)
            show(F.cosine_similarity(T.tensor([[1., 2]]), T.tensor([[1, 2]])))
            show(F.cosine_similarity(T.tensor([[1., 2]]), T.tensor([[1., 2]]).double()))
            show(F.cosine_similarity(T.tensor([[1e-10, 0]]), T.tensor([[1., 2]]), eps=1e-8))
            show(F.cosine_similarity(T.tensor(1.), T.tensor(2.), dim=0))
        """,
        "cosine_similarity_create_graph_in_pytorch_order": """
            c = T.tensor([[1., 2.], [3., -1.]], dtype=T.float64, requires_grad=True)
            t = T.nn.functional.cosine_similarity(c, c.flip(0) * 2, 1)
            (g,) = T.autograd.grad(t.sum(), c, create_graph=True)
            show(g)
            graph(g)
            hooks = [c.register_hook(lambda g: show(("c", g)))]
            (g * c).sum().backward()
            show(c.grad)
        """,
        "cosine_similarity_dim_out_of_range": """
            a = T.tensor([1., 2.])
            T.nn.functional.cosine_similarity(a, a)
        """,
        "cosine_similarity_sizes_that_do_not_broadcast": """
            T.nn.functional.cosine_similarity(T.ones(2, 3), T.ones(2, 2))
        """,
        "cosine_similarity_of_integers": """
            T.nn.functional.cosine_similarity(T.tensor([[1, 2]]), T.tensor([[1, 2]]))
        """,
    }
)

NN_EMBED.update(
    {
        "pad_values_graph_and_gradient": """
            F = T.nn.functional
            x = T.arange(6.).view(2, 3).requires_grad_()
            y = F.pad(x, (1, 2))
            show(y, y.grad_fn._saved_pad)
            graph(y)
            (y * T.arange(12.).view(2, 6)).sum().backward()
            show(x.grad)
            show(F.pad(x, (1, 1, 2, 0), value=-1.5), F.pad(x, [-1, 1]), F.pad(x, (-1, -1)))
            z = F.pad(x, (0, 0))
            show(z, z._base is None, F.pad(x, (-1, 0, 0, -1)), F.pad(x, ()))
            show(F.pad(x.t(), (1, 0)).is_contiguous(), F.pad(x.t(), (0, 0)).is_contiguous())
            show(F.pad(T.zeros(0, 2), (1, 1)), F.pad(x, (T.tensor(1), 1)), F.pad(T.tensor(2.), ()))
            show(F.pad(x, (1, 1), value=float('nan')), F.pad(T.ones(1, 1, 2), (1, 0, 0, 0, 1, 1)))
        """,
        "pad_of_integers_and_bools": """
            F = T.nn.functional
            show(F.pad(T.arange(3), (1, 1), value=2.7), F.pad(T.arange(3), (1, 1), value=True))
            show(F.pad(T.tensor([True]), (1, 1), value=2))
            show(F.pad(T.arange(3, dtype=T.int8), (1, 1), value=-128))
            show(F.pad(T.arange(3, dtype=T.uint8), (1, 1), value=255))
        """,
        "pad_create_graph": """
            x = T.arange(6.).view(2, 3).requires_grad_()
            (g,) = T.autograd.grad(
                T.nn.functional.pad(x, (1, -1, 0, 1)).pow(2).sum(), x, create_graph=True
            )
            show(g, g.grad_fn._saved_pad)
            graph(g)
            (h,) = T.autograd.grad(g.sum(), x)
            show(h)
        """,
        "pad_negative_value_into_uint8": """
            T.nn.functional.pad(T.arange(3, dtype=T.uint8), (1, 1), value=-1)
        """,
        "pad_value_out_of_int64": """
            T.nn.functional.pad(T.arange(3), (1, 1), value=2.0**70)
        """,
        "pad_odd_length": """
            T.nn.functional.pad(T.ones(2, 3), (1,))
        """,
        "pad_longer_than_the_dims": """
            T.nn.functional.pad(T.ones(2, 3), (1, 1, 1, 1, 1, 1))
        """,
        "pad_of_a_scalar": """
            T.nn.functional.pad(T.tensor(2.), (1, 1))
        """,
        "pad_crops_more_than_there_is": """
            T.nn.functional.pad(T.ones(2, 3), (-2, -2))
        """,
        "pad_crops_past_the_start": """
            T.nn.functional.pad(T.ones(2, 3), (-4, 0))
        """,
        "pad_float_pad": """
            T.nn.functional.pad(T.ones(2, 3), (1.0, 1))
        """,
        "pad_int_pad": """
            T.nn.functional.pad(T.ones(2, 3), 1)
        """,
        "pad_unknown_mode": """
            T.nn.functional.pad(T.ones(2, 3), (1, 1), mode="bogus", value=2)
        """,
        "pad_reflect_with_a_value": """
            T.nn.functional.pad(T.ones(2, 3), (1, 1), mode="reflect", value=1.)
        """,
    }
)
