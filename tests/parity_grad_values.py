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
}
