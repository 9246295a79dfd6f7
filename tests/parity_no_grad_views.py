"""Views made under ``no_grad`` and changed in place with grad mode on, kept as parity snippets.

PyTorch remembers that a view was made under ``no_grad`` (its ``CreationMeta``, inherited by a
view of such a view) and refuses to record an in-place change to it with grad mode on when
anything involved requires grad: "A view was created in no_grad mode and is being modified
inplace with grad mode enabled..." (or "Output 0 of Slice is a view of a view which was
created in no_grad mode..." for a view of one); when its base changed in place instead, the
view's next use says "its base or another view of its base has been modified". minigrad keeps
the same mark (``Tensor._no_grad_view``; ``autograd/views.no_grad_view_error``).
``parity_snippets.SNIPPETS`` includes these.
"""

from __future__ import annotations

NO_GRAD_VIEWS: dict[str, str] = {
    "no_grad_view_of_a_leaf_requires_grad": """
        x = T.tensor([3., 4.], requires_grad=True)
        with T.no_grad():
            v = x[:1]
        show(v.requires_grad, v.is_leaf, v.grad_fn, v._base is x)
    """,
    "no_grad_view_of_a_result": """
        x = T.tensor([3., 4.], requires_grad=True)
        y = x * 1
        with T.no_grad():
            w = y[:1]
        show(w.requires_grad, w.is_leaf, w.grad_fn, (w * 2).requires_grad)
    """,
    "no_grad_view_in_place_under_no_grad_then_grad_fn": """
        x = T.tensor([3., 4.], requires_grad=True)
        y = x * 1
        with T.no_grad():
            w = y[:1]
            w.mul_(2)
        show(w.grad_fn)
    """,
    "no_grad_view_after_its_base_changed_in_place": """
        x = T.tensor([3., 4.], requires_grad=True)
        y = x * 1
        with T.no_grad():
            w = y[:1]
        y.mul_(2)
        show(y.grad_fn)
        show(w.grad_fn)
    """,
    "no_grad_view_used_after_its_base_changed": """
        x = T.tensor([3., 4.], requires_grad=True)
        y = x * 1
        with T.no_grad():
            w = y[:1]
        y.mul_(2)
        show(w.requires_grad)
        w * 2
    """,
    "no_grad_view_of_a_plain_tensor_with_a_grad_operand": """
        z = T.tensor([3., 4.])
        with T.no_grad():
            u = z[:1]
        u.mul_(T.ones(1, requires_grad=True))
    """,
    "no_grad_view_add_tensor": """
        x = T.tensor([3., 4.], requires_grad=True)
        y = x * 1
        with T.no_grad():
            w = y.view(2)
        w.add_(T.ones(2))
    """,
    "no_grad_view_unbind_output": """
        x = T.tensor([3., 4.], requires_grad=True)
        y = x * 1
        with T.no_grad():
            a, b = y.unbind()
        a.mul_(2)
    """,
    "view_of_a_no_grad_view_in_place": """
        x = T.tensor([3., 4.], requires_grad=True)
        y = x * 1
        with T.no_grad():
            w = y[:1]
        w[:1].mul_(2)
    """,
    "view_of_a_no_grad_view_setitem": """
        x = T.tensor([3., 4.], requires_grad=True)
        y = x * 1
        with T.no_grad():
            w = y[:1]
        w[0] = 5.
    """,
    "no_grad_view_requires_grad_": """
        x = T.tensor([3., 4.], requires_grad=True)
        y = x * 1
        with T.no_grad():
            w = y[:1]
        show(w.requires_grad_())
    """,
    "no_grad_view_detach_": """
        x = T.tensor([3., 4.], requires_grad=True)
        y = x * 1
        with T.no_grad():
            w = y[:1]
        w.detach_()
    """,
    "no_grad_view_of_a_leaf_in_place": """
        x = T.tensor([3., 4.], requires_grad=True)
        with T.no_grad():
            v = x[:1]
        v.mul_(2)
    """,
    "no_grad_view_of_a_leaf_backward": """
        x = T.tensor([3., 4.], requires_grad=True)
        with T.no_grad():
            v = x[:1]
        (v * 2).sum().backward()
        show(x.grad, v.grad)
    """,
    "no_grad_view_of_a_result_backward": """
        x = T.tensor([3., 4.], requires_grad=True)
        y = x * 1
        with T.no_grad():
            w = y[:1]
        (w * 2).sum().backward()
        show(x.grad, w.grad)
    """,
    "no_grad_view_setitem_of_a_grad_value": """
        z = T.tensor([3., 4.])
        with T.no_grad():
            u = z[:1]
        u[0] = T.ones((), requires_grad=True)
    """,
    "no_grad_view_of_a_plain_tensor_in_place": """
        z = T.tensor([3., 4.])
        with T.no_grad():
            u = z[:1]
        u.mul_(2)
        u[0] = 7.
        show(u, z)
    """,
    "no_grad_view_in_place_under_no_grad": """
        x = T.tensor([3., 4.], requires_grad=True)
        with T.no_grad():
            v = x.view(2, 1)
        with T.no_grad():
            v.mul_(2)
        show(x, v)
    """,
    "view_of_a_no_grad_view_after_the_base_changed": """
        x = T.tensor([3., 4.], requires_grad=True)
        y = x * 1
        with T.no_grad():
            w = y.t()
            w2 = w[:1]
        show(w2.requires_grad, w2.grad_fn)
        y.add_(1)
        w2.grad_fn
    """,
    "no_grad_unbind_after_the_base_changed": """
        x = T.tensor([[3., 4.], [5., 6.]], requires_grad=True)
        y = x * 1
        with T.no_grad():
            a, b = y.unbind()
        y.add_(1)
        a.grad_fn
    """,
    "no_grad_split_output_in_place": """
        x = T.tensor([[3., 4.], [5., 6.]], requires_grad=True)
        y = x * 1
        with T.no_grad():
            a, b = y.split(1)
        a.mul_(2)
    """,
    "no_grad_view_add_": """
        x = T.tensor([3., 4.], requires_grad=True)
        y = x * 1
        with T.no_grad():
            w = y[:1]
        w.add_(1)
    """,
    "no_grad_view_cloned": """
        x = T.tensor([3., 4.], requires_grad=True)
        y = x * 1
        with T.no_grad():
            w = y[:1]
        with T.enable_grad():
            pass
        y2 = w.clone()
        y2.mul_(2)
        show(y2)
    """,
    "inference_mode_view": """
        x = T.tensor([3., 4.], requires_grad=True)
        y = x * 1
        with T.inference_mode():
            w = y[:1]
        show(w)
    """,
    "no_grad_view_through_data": """
        x = T.tensor([3., 4.], requires_grad=True)
        y = x * 1
        with T.no_grad():
            w = y[:1]
        w.data.mul_(2)
        show(y, w.grad_fn)
    """,
    "no_grad_expand_relu_": """
        x = T.tensor([3., 4.], requires_grad=True)
        y = x * 1
        with T.no_grad():
            w = y.expand(2, 2)
        w.relu_()
    """,
    "no_grad_view_requires_grad_false": """
        x = T.tensor([3., 4.], requires_grad=True)
        y = x * 1
        with T.no_grad():
            w = y.unsqueeze(0)
        w.requires_grad_(False)
        show(w.requires_grad)
    """,
    "no_grad_view_zero_": """
        x = T.tensor([3., 4.], requires_grad=True)
        y = x * 1
        with T.no_grad():
            w = y[:1]
        w.zero_()
    """,
    "no_grad_view_fill_": """
        x = T.tensor([3., 4.], requires_grad=True)
        y = x * 1
        with T.no_grad():
            w = y[:1]
        w.fill_(2.)
    """,
    "no_grad_view_copy_": """
        x = T.tensor([3., 4.], requires_grad=True)
        y = x * 1
        with T.no_grad():
            w = y[:1]
        w.copy_(T.ones(1))
    """,
    "no_grad_view_sigmoid_": """
        x = T.tensor([3., 4.], requires_grad=True)
        y = x * 1
        with T.no_grad():
            w = y[:1]
        w.sigmoid_()
    """,
    "no_grad_view_ifloordiv": """
        x = T.tensor([3., 4.], requires_grad=True)
        y = x * 1
        with T.no_grad():
            w = y[:1]
        w //= 2
    """,
    "no_grad_view_clamp_": """
        x = T.tensor([3., 4.], requires_grad=True)
        y = x * 1
        with T.no_grad():
            w = y[:1]
        w.clamp_(0, 1)
    """,
    "no_grad_view_masked_fill_": """
        x = T.tensor([3., 4.], requires_grad=True)
        y = x * 1
        with T.no_grad():
            w = y[:1]
        w.masked_fill_(T.tensor([True]), 0.)
    """,
    "no_grad_view_made_to_require_grad": """
        x = T.tensor([3., 4.], requires_grad=True)
        y = x * 1
        with T.no_grad():
            w = y[:1]
        w.requires_grad_()
        w.mul_(2)
    """,
    "floor_divide_of_itself_under_create_graph": """
        x = T.tensor([3., 4.], requires_grad=True)
        b = x * 2
        g = T.autograd.grad((b // b + b).sum(), x, create_graph=True)
        show(g, g[0].grad_fn)
        y = b // b
        show(y, y.grad_fn)
        show(T.autograd.grad(y.sum(), x, create_graph=True, allow_unused=True))
    """,
}
