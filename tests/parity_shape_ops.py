"""Parity snippets of logsumexp, flip, roll, mT/mH/H, sort, topk, argsort, clamp_min/clamp_max
and squeeze with a tuple of dims, in the style of ``parity_snippets.py`` (which includes them):
values, printed text, grad_fn names, saved values, graphs, errors and warnings as PyTorch's."""

from __future__ import annotations

SHAPE_OPS: dict[str, str] = {
    "logsumexp_values_and_gradient": """
        x = T.tensor([[1., 3., 2.], [1000., 1000., -1.]], requires_grad=True)
        y = x.logsumexp(1)
        show(y, T.logsumexp(x, (0, 1), keepdim=True), x.logsumexp(-1, keepdim=True))
        graph(y)
        fn = y.grad_fn
        show(fn._saved_dim, fn._saved_keepdim, fn._saved_self, fn._saved_result)
        show(x.logsumexp(-1).grad_fn._saved_dim)
        (y * T.tensor([1., 2.])).sum().backward()
        show(x.grad)
    """,
    "logsumexp_of_infinities_nan_and_empty": """
        inf = float("inf")
        x = T.tensor([[-inf, -inf], [inf, 1.], [inf, -inf], [float("nan"), 1.]])
        show(x.logsumexp(1), x.double().logsumexp(0))
        e = T.zeros(0, 3, requires_grad=True)
        show(e.logsumexp(0), e.logsumexp(1), e.logsumexp(()), e.logsumexp((0, 1)))
        s = T.tensor(2., requires_grad=True)
        show(s.logsumexp(0), s.logsumexp(()), s.logsumexp(-1, keepdim=True))
    """,
    "logsumexp_of_integers_and_bools": """
        show(T.tensor([[1, 2], [3, 4]]).logsumexp(0), T.tensor([True, False]).logsumexp(0))
        show(T.tensor([1, 2], dtype=T.int32).logsumexp(0, True))
    """,
    "logsumexp_with_no_dims": """
        T.ones(2, 3).logsumexp(())
    """,
    "logsumexp_repeated_dim": """
        T.ones(2, 3).logsumexp((1, -1))
    """,
    "logsumexp_dim_out_of_range": """
        T.ones(2, 3).logsumexp(2)
    """,
    "logsumexp_without_dim": """
        T.logsumexp(T.ones(2))
    """,
    "logsumexp_float_dim": """
        T.ones(2).logsumexp([0.5])
    """,
    "flip_values_gradient_and_graph": """
        x = T.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True)
        y = x.flip(0)
        z = x.flip(0, 1)
        w = T.flip(x.t(), (-1,))
        show(y, z, w, x.flip([]), y.is_contiguous(), w.is_contiguous(), w.t().is_contiguous())
        show(y.grad_fn._saved_dims, w.grad_fn._saved_dims, y._base is None)
        graph(z)
        (y * T.tensor([[1., 2., 3.], [4., 5., 6.]]) + w.sum()).sum().backward()
        show(x.grad)
        y.mul_(2)
        show(x, y)
    """,
    "flip_of_scalars_bools_and_empty": """
        show(T.tensor(2.).flip(0), T.tensor(2.).flip(()), T.tensor([True, False]).flip(0))
        show(T.zeros(0, 2, requires_grad=True).flip(0))
    """,
    "flip_repeated_dim": """
        T.ones(2, 3).flip([0, -2])
    """,
    "flip_dim_out_of_range": """
        T.ones(2, 3).flip(2)
    """,
    "flip_without_dims": """
        T.ones(2, 3).flip()
    """,
    "flip_function_with_an_int": """
        T.flip(T.ones(2, 3), 0)
    """,
    "roll_values_gradient_and_graph": """
        x = T.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True)
        y = x.roll(1)
        z = x.roll((1, -1), (0, 1))
        w = T.roll(x.t(), -2, 0)
        show(y, z, w, w.is_contiguous(), x.roll(shifts=4, dims=1), x.roll(1, ()))
        fn = z.grad_fn
        show(fn._saved_shifts, fn._saved_dims, y.grad_fn._saved_dims, y.grad_fn._saved_shifts)
        graph(z)
        (y * T.tensor([[1., 2., 3.], [4., 5., 6.]]) + z * 3 + w.sum()).sum().backward()
        show(x.grad)
    """,
    "roll_of_scalars_and_empty": """
        s = T.tensor(2., requires_grad=True)
        show(s.roll(1), s.roll(3, ()), T.zeros(0, 3).roll(1, 0), T.zeros(0, 3).roll(2))
        e = T.zeros(3, 2, 0, requires_grad=True)
        show(e.roll(1, 4), e.roll((1, 2), (4, -7)), T.zeros(0).roll(1, 1))
    """,
    "roll_of_a_scalar_along_a_dim": """
        T.tensor(2.).roll(1, 0)
    """,
    "roll_shifts_and_dims_must_align": """
        T.ones(2, 3).roll((1, 2), 0)
    """,
    "roll_with_no_shifts": """
        T.ones(2, 3).roll(())
    """,
    "roll_float_shift": """
        T.ones(2).roll(1.5, 0)
    """,
    "roll_dim_out_of_range": """
        T.ones(2, 3).roll(1, 2)
    """,
    "matrix_transposes": """
        x = T.arange(12.).reshape(2, 2, 3).requires_grad_()
        y = x.mT
        m = T.ones(2, 3, requires_grad=True)
        show(y, y.shape, y._base is x, x.mH.shape, m.H, m.mT.is_contiguous())
        graph(y)
        show(y.grad_fn._saved_dim0, y.grad_fn._saved_dim1)
        z = x * 1
        z.mT[0, 0, 1] = 100.
        show(z)
        graph(z)
        z.sum().backward()
        show(x.grad)
        s = T.tensor(3., requires_grad=True)
        show(s.mT is s, s.mH is s, s.H is s)
    """,
    "matrix_transpose_of_a_vector": """
        T.ones(3).mT
    """,
    "conjugate_transpose_of_a_vector": """
        T.ones(3).mH
    """,
    "conjugate_transpose_of_a_batch": """
        T.ones(2, 2, 2).H
    """,
    "sort_values_indices_gradient_and_graph": """
        x = T.tensor([[3., 1., 2., 1.], [0., -0., float("nan"), 5.]], requires_grad=True)
        r = x.sort()
        show(r, r.values, r.indices, r[0].grad_fn._saved_dim, r[0].grad_fn._saved_indices)
        show(r.values.grad_fn._saved_self_sym_sizes, r.indices.requires_grad)
        v, i = T.sort(x, 0, True)
        show(v, i, v.grad_fn._saved_dim, x.sort(dim=1, stable=True), x.msort())
        graph(v)
        (v * T.tensor([[1., 2., 3., 4.], [5., 6., 7., 8.]])).sum().backward()
        show(x.grad)
        v.mul_(2)
        show(v)
    """,
    "sort_ties_in_pytorchs_order": """
        a = T.tensor([2, 1, 2, 1, 2, 1, 1, 2, 2, 1, 2, 1, 2, 1, 1, 2, 2, 1, 2, 1, 2, 1, 1, 2])
        show(a.sort(), a.sort(descending=True), a.sort(stable=True), a.argsort())
        show(a.sort(stable=True, descending=True), a.argsort(descending=True, stable=True))
        z = T.zeros(20)
        show(z.sort().indices, T.zeros(1).expand(20).sort().indices, z.argsort(stable=True))
        f = T.tensor([1., float("nan"), 0., float("nan"), -0., 0., float("-inf"), float("inf")])
        show(f.sort(), f.sort(descending=True), f.repeat(3).sort())
        show(f.repeat(3).sort(descending=True))
        show(T.tensor([True, False, True]).sort(descending=True), T.tensor(2.).sort())
        show(T.zeros(0, 3).sort(0), T.tensor([[3, 1], [2, 2]]).argsort(0))
    """,
    "sort_dim_out_of_range": """
        T.ones(2, 3).sort(2)
    """,
    "sort_stable_by_position": """
        T.ones(2, 3).sort(0, stable=True)
    """,
    "sort_function_stable_by_position": """
        T.sort(T.ones(2, 3), 0, True, stable=True)
    """,
    "topk_values_indices_gradient_and_graph": """
        x = T.tensor([[3., 1., 2., 1.], [0., -0., float("nan"), 5.]], requires_grad=True)
        r = x.topk(2)
        show(r, r.values.grad_fn._saved_dim, r.values.grad_fn._saved_indices)
        show(x.topk(3, largest=False), x.topk(1, 0), T.topk(x, 4, sorted=False), x.topk(0))
        graph(r.values)
        (r.values * T.tensor([[1., 2.], [3., 4.]])).sum().backward()
        show(x.grad)
    """,
    "topk_ties_in_pytorchs_order": """
        a = T.tensor([2, 1, 2, 1, 2, 1, 1, 2, 2, 1, 2, 1, 2, 1, 1, 2, 2, 1, 2, 1, 2, 1, 1, 2])
        show(a.topk(5), a.topk(5, largest=False), a.topk(20, sorted=False), a.topk(24))
        b = T.tensor(np.arange(300) % 7)
        show(b.topk(3), b.topk(4, largest=False), b.topk(2, sorted=False))
        f = T.tensor([1., float("nan"), 0., float("nan"), -0., 0., float("-inf"), float("inf")])
        show(f.topk(5), f.topk(5, largest=False), f.topk(5, sorted=False), f.topk(8))
        show(T.zeros(4).topk(2), T.zeros(2, 4).topk(2, 0))
        show(T.tensor(2.).topk(1), T.tensor(2.).topk(0))
        show(T.zeros(0, 3).topk(0), T.zeros(0, 3).topk(1), T.zeros(0, 3).topk(0, 0))
    """,
    "topk_k_out_of_range": """
        T.ones(2, 3).topk(4)
    """,
    "topk_negative_k": """
        T.ones(2, 3).topk(-1)
    """,
    "topk_of_bools": """
        T.tensor([True, False]).topk(1)
    """,
    "topk_float_k": """
        T.ones(3).topk(1.5)
    """,
    "clamp_min_and_max_by_numbers": """
        x = T.tensor([1., -0., 0., float("nan"), 3.], requires_grad=True)
        a, b = x.clamp_min(0), T.clamp_max(x, 1.5)
        show(a, b, x.clamp_min(-0.), a.grad_fn._saved_min, b.grad_fn._saved_max)
        show(a.grad_fn._saved_self)
        graph(a)
        (a * 2 + b * 3).sum().backward()
        show(x.grad)
        i, t = T.tensor([1, 2, 3]), T.tensor([True, False])
        show(i.clamp_min(1.5), i.clamp_min(True), i.clamp_max(2), t.clamp_min(0), t.clamp_max(0.5))
    """,
    "clamp_min_and_max_by_tensors": """
        x = T.tensor([[1., -2., 3.], [0.5, 2., -1.]], requires_grad=True)
        lo = T.tensor([0., 0., 2.5], requires_grad=True)
        hi = T.tensor([[1.], [0.]], requires_grad=True)
        a, b = x.clamp_min(lo), T.clamp_max(x, hi)
        show(a, b, a.grad_fn._saved_min, b.grad_fn._saved_self)
        graph(a)
        graph(b)
        (a * 2 + b * 3).sum().backward()
        show(x.grad, lo.grad, hi.grad)
        i = T.tensor([1, 2, 3])
        show(i.clamp_min(T.tensor(2)), i.clamp_min(T.tensor(2.)), i.clamp_max(T.tensor([2.5])))
        show(x.clamp_min(T.tensor(2., dtype=T.float64)))
        show(x.clamp_max(T.tensor([2.], dtype=T.float64)))
    """,
    "clamp_min_and_max_in_place": """
        x = T.tensor([1., -2., 3.], requires_grad=True)
        y = x * 1
        y.clamp_min_(0)
        show(y, y._version)
        graph(y)
        y.clamp_max_(T.tensor([0.5, 0.5, 2.]))
        show(y)
        graph(y)
        y.sum().backward()
        show(x.grad)
        z = T.tensor([1, 5])
        z.clamp_max_(3)
        show(z)
    """,
    "clamp_min_in_place_of_a_leaf": """
        T.ones(2, requires_grad=True).clamp_min_(1)
    """,
    "clamp_min_in_place_cast": """
        T.tensor([1, 2]).clamp_min_(1.5)
    """,
    "clamp_max_in_place_cast_by_tensor": """
        T.tensor([1, 2]).clamp_max_(T.tensor(1.5))
    """,
    "clamp_min_of_bools_by_a_bool": """
        T.tensor([True]).clamp_min(True)
    """,
    "clamp_min_without_bound": """
        T.ones(2).clamp_min(None)
    """,
    "clamp_max_bound_does_not_broadcast": """
        T.ones(2, 3).clamp_max(T.ones(3, 3))
    """,
    "squeeze_tuple_of_dims": """
        x = T.arange(6.).reshape(2, 1, 3, 1).requires_grad_()
        y = x.squeeze((1, -1))
        z = T.squeeze(x, (0, 1))
        show(y, z.shape, y._base is x, x.squeeze([]).shape)
        show(y.grad_fn._saved_dim, z.grad_fn._saved_dim)
        show(y.grad_fn._saved_self_sym_sizes)
        graph(y)
        w = x * 1
        w.squeeze((1, 3))[0, 1] = 100.
        show(w)
        graph(w)
        w.sum().backward()
        show(x.grad)
        s = T.tensor(2., requires_grad=True)
        show(s.squeeze((0,)), s.squeeze(()), s.squeeze((-1,)))
    """,
    "squeeze_repeated_dims": """
        T.ones(1, 2).squeeze((0, -2))
    """,
    "squeeze_dims_out_of_range": """
        T.ones(1, 2).squeeze((2,))
    """,
    "clamp_by_tensors_keeps_pytorchs_zero_at_ties": """
        a = T.full((40,), -0.)
        z = T.zeros(40)
        show(a.clamp_min(z), a.clamp_min(T.tensor(0.)), z.clamp_max(T.full((17,), -0.)[:1]))
        show(a.double().clamp_min(z.double()), a.clamp(min=z, max=T.ones(1)))
        show(a.clamp(min=T.zeros(1), max=T.zeros(1)), a.reshape(5, 8).clamp_min(T.zeros(8)))
        show(T.full((3, 20), -0.).clamp_min(T.zeros(3, 1)), a.clamp_min(0.), a.clamp(min=0.))
        show(T.maximum(a, z), T.minimum(z, a), T.maximum(a.reshape(5, 8), T.zeros(8)))
        show(T.maximum(a.double(), T.tensor(0., dtype=T.float64)), T.minimum(a[:9], z[:9]))
    """,
    "sort_and_topk_results_laid_out_as_pytorchs": """
        x = T.tensor([[3., 1., 2., 1.], [0., 4., 6., 5.]], requires_grad=True)
        v, i = x.t().sort(1)
        show(v.is_contiguous(), i.is_contiguous(), v.t().view(-1), i.t().reshape(-1))
        show(x.t().argsort(0).is_contiguous(), x.t().topk(1, 0).values.is_contiguous())
        show(x.t().logsumexp(0).is_contiguous())
        show(T.ones(3, 1).expand(3, 4).sort(0)[0].is_contiguous())
        graph((v * i).reshape(-1))
    """,
    "tril_of_a_vector": """
        T.tril(T.ones(3))
    """,
    "tril_triu_values_and_dtypes": """
        show(T.tril(T.ones(2, 3, 3), 1))
        show(T.triu(T.ones(3, 3, dtype=T.int64), diagonal=2))
        show(T.tril(T.ones(3, 3, dtype=T.bool)))
    """,
    "tril_triu_methods_and_diagonals": """
        show(T.ones(3, 3).tril(1))
        show(T.ones(3, 4).triu(-1))
        show(T.tril(T.ones(0, 3)))
        show(T.tril(T.ones(3, 3), diagonal=-5))
    """,
    "tril_float_diagonal": """
        T.tril(T.ones(3, 3), 1.5)
    """,
    "triu_method_bool_diagonal": """
        T.ones(3, 3).triu(True)
    """,
    "tril_layouts": """
        show(T.tril(T.ones(3, 3).t()).is_contiguous(), T.triu(T.ones(3, 3)[:, :2]))
    """,
    "tril_graph_and_gradient": """
        x = T.arange(9.).reshape(3, 3).requires_grad_()
        y = T.tril(x, -1)
        show(y, y.grad_fn, y.grad_fn._saved_diagonal, y.grad_fn.next_functions)
        (y * T.arange(9.).reshape(3, 3)).sum().backward()
        show(x.grad)
    """,
    "triu_gradient_of_gradient": """
        x = T.arange(9.).reshape(3, 3).requires_grad_()
        y = x.triu(1)
        show(y.grad_fn._saved_diagonal)
        g, = T.autograd.grad((y * y).sum(), x, create_graph=True)
        show(g, g.grad_fn)
        g.sum().backward()
        show(x.grad)
    """,
    "causal_mask_from_the_gpt_tutorial": """
        T_ = 4
        tril = T.tril(T.ones(T_, T_))
        wei = T.zeros((T_, T_))
        wei = wei.masked_fill(tril == 0, float('-inf'))
        wei = T.softmax(wei, dim=-1)
        show(wei, wei @ T.arange(8.).reshape(4, 2))
    """,
    "tril_of_a_result": """
        x = T.ones(3, 3, requires_grad=True)
        T.tril(x * 1).sum().backward()
        show(x.grad)
    """,
    "isnan_isinf_isfinite_float32": """
        x = T.tensor([1., float('nan'), float('inf'), -float('inf'), -0.])
        show(T.isnan(x), T.isinf(x), T.isfinite(x), T.isposinf(x), T.isneginf(x))
    """,
    "isnan_methods_float64": """
        x = T.tensor([1., float('nan'), float('inf')], dtype=T.float64)
        show(x.isnan(), x.isinf(), x.isfinite(), x.isposinf(), x.isneginf())
    """,
    "isnan_of_integers_and_bools": """
        show(T.isnan(T.tensor([1, 2])))
        show(T.isinf(T.tensor([True])))
        show(T.isfinite(T.tensor([1, 2])))
        show(T.isposinf(T.tensor([3])))
    """,
    "isnan_of_a_result_and_of_0d_and_empty": """
        x = T.tensor([1., float('nan')], requires_grad=True)
        y = (x * 2).isnan()
        show(y, T.isnan(T.tensor(float('nan'))), T.isinf(T.ones(0, 2)))
    """,
    "isnan_of_a_number": """
        T.isnan(3.)
    """,
    "isnan_layout": """
        x = T.tensor([[1., float('nan'), 3.], [float('inf'), 5., 6.]])
        y = x.t().isnan()
        show(y, y.is_contiguous(), y.t().is_contiguous())
    """,
    "isnan_of_a_loss": """
        loss = T.tensor(float('nan'))
        if T.isnan(loss):
            show("nan loss")
        show(T.isfinite(loss).item())
    """,
}
