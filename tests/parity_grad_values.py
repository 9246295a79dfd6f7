"""Gradient values the fuzzer found different (issue 8's "repr/values @ grad" causes), fixed.

Each entry is a minimised fuzzer program in the style of ``parity_snippets.py`` (which includes
them): a backward formula computed in PyTorch's order and dtype, with PyTorch's zeros. The
printed text shows -0. and four digits; the last bits are checked in ``test_grad_values.py``.
"""

from __future__ import annotations

GRAD_VALUES: dict[str, str] = {
    # fuzzer 2106: sign()'s zero gradient through nll_loss is -0.; log_softmax's gradient
    # along a dim that is not the last sums from a zeroed buffer (0.), so it stays -0.
    "log_softmax_gradient_of_negative_zeros_along_a_dim": """
        a = T.tensor([[[[-2.68, -1.8, -2.0, -0.02]]], [[[1.21, -1.9, 4.1, 0.02]]]],
                     requires_grad=True)
        loss = T.nn.CrossEntropyLoss()(a, T.zeros(2, 1, 4, dtype=T.int64))
        (g,) = T.autograd.grad(loss.sign(), a, create_graph=True)
        show(g)
        (h,) = T.autograd.grad((g * a).sum(), a)
        show(h)
        x = T.tensor([[1., 2.], [3., -1.]], requires_grad=True)
        (s,) = T.autograd.grad(T.softmax(x, 0), x, T.tensor([[-0., -0.], [-0., 0.]]))
        show(s)
    """,
    # fuzzer 2551: log_softmax's double backward takes exp(output), which PyTorch rounds once
    # in float32 (as minigrad's exp op); numpy's float32 exp is an ulp off for 1 input in 3
    "cross_entropy_of_soft_targets_differentiated_twice": """
        e = T.tensor((np.random.default_rng(0).standard_normal((3, 4, 4, 4)) * 2).astype("float32"),
                     requires_grad=True)
        (g,) = T.autograd.grad(T.nn.functional.cross_entropy(e, e.softmax(-1).detach()), e,
                               create_graph=True)
        (h,) = T.autograd.grad((g * e).sum(), e)
        show(h)
    """,
    # fuzzer 13594: expand's gradient down to a 0-d tensor is PyTorch's sum_to, a sum even
    # from 0-d: -0. gives 0. (the gradient of max(-1) of a 0-d tensor times its index)
    "expand_of_a_zero_dim_tensor_sums_its_gradient": """
        b = T.tensor(-0.3407, dtype=T.float64, requires_grad=True)
        m = b.expand(()).max(-1)
        show(T.autograd.grad((m.values * m.indices * b).sum(), b))
        show(T.autograd.grad(b.expand(()), b, T.tensor(-0., dtype=T.float64)))
    """,
    # fuzzer 653 and 2462: log_softmax's float64 gradient is one fused multiply-add per element,
    # grad - exp(out) * sum: -0. - 0. stays -0. (the emulated fma gave 0.)
    "log_softmax_gradient_keeps_negative_zero_in_float64": """
        b = T.tensor([-2.12, 1.83], dtype=T.float64, requires_grad=True)
        t = T.nn.MSELoss()(b.log_softmax(-1), T.tensor([0.9, -2.0], dtype=T.float64))
        T.nn.functional.softmax(t, dim=-1).backward()
        show(b.grad)
    """,
    # fuzzer 12622 and 13232: float32 powers (and so their gradients) rounded once from float64
    "float32_power_gradients": """
        a = T.tensor([3.0, -0.5, 2.0, 0.6884, 0.26, 1.0, 3.08, 0.0, 3.51], requires_grad=True)
        (-2.5 ** a).sum().backward()
        show(a.grad)
        c = T.tensor([[2.56, -3.4846], [-0.8, -1.23]], requires_grad=True)
        t = T.nn.functional.mse_loss(c, T.tensor([[-0.7634, -0.59], [-2.99, -1.0302]]))
        (t**t).backward(T.tensor(-2.0))
        show(c.grad)
    """,
    # fuzzer 16415, 8957: sgn's gradient is PyTorch's efficient zeros; kept first in an input
    # buffer they are replaced by the other gradient (its -0. stays), added second they fill
    "sgn_gradient_is_efficient_zeros": """
        x = T.tensor([1., 2.], requires_grad=True)
        y = T.tensor([3., -1.], requires_grad=True)
        z = x - y
        (z.abs() * 0 + z.sgn()).sum().backward()
        show(x.grad, y.grad)
        x.grad = y.grad = None
        z = x - y
        (z.sgn() + z.abs() * 0).sum().backward()
        show(x.grad, y.grad)
        e = T.tensor([[-3.56], [1.5]], requires_grad=True)
        t = T.nn.functional.l1_loss(T.tensor([[-1.59], [-0.5]]), e).tanh().clamp(min=1.5)
        (g,) = T.autograd.grad(t, e, create_graph=True)
        (g * g).sum().backward()
        show(e.grad)
    """,
}
