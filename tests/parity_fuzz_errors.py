"""The fuzzer's error-message findings (issue 8), kept as parity snippets.

Each entry is a minimised program of ``python -m tests.difffuzz --n 20000 --seed 0`` (the
replay id in its comment) where minigrad raised another error than PyTorch, cleaned up by
hand; ``parity_snippets.SNIPPETS`` includes them, as it does ``parity_int_operands``.
"""

from __future__ import annotations

_ATTEMPT = """
    def attempt(f):
        try:
            f()
            show("no error")
        except Exception as e:
            show(type(e).__name__, str(e))
"""

FUZZ_ERRORS: dict[str, str] = {
    # replay 1386, 13057: addmm checks self's dtype against mat2's, then mat1's, then the dims
    "addmm_checks_dtypes_before_dims": _ATTEMPT
    + """
    fl, lo = T.zeros(2, 2), T.zeros(2, 2, dtype=T.long)
    attempt(lambda: T.addmm(T.tensor([2]), T.tensor(0.), fl))
    attempt(lambda: T.addmm(fl, T.zeros(()), lo))
    attempt(lambda: T.addmm(fl, lo, fl))
    attempt(lambda: T.addmm(fl, lo.reshape(4), fl))
    attempt(lambda: T.addmm(lo, fl, lo))
    attempt(lambda: T.addmm(T.zeros(2, 2, dtype=T.float64), lo, fl))
    attempt(lambda: T.addmm(T.zeros(3), T.zeros(()), fl))
    attempt(lambda: T.addmm(T.tensor([2]), T.zeros(()), lo))
    """,
    # replay 95: binary_cross_entropy_with_logits starts with log_sigmoid(input)
    "bce_with_logits_of_integer_input": _ATTEMPT
    + """
    F = T.nn.functional
    for dt in (T.long, T.int32, T.uint8, T.bool):
        attempt(lambda: F.binary_cross_entropy_with_logits(T.ones(2, dtype=dt), T.ones(2)))
    lo = T.ones(2, dtype=T.long)
    attempt(lambda: F.binary_cross_entropy_with_logits(lo, lo))
    attempt(lambda: F.binary_cross_entropy_with_logits(T.ones(2, dtype=T.long), T.ones(3)))
    attempt(lambda: F.binary_cross_entropy_with_logits(T.ones(2), T.ones(2, dtype=T.long)))
    """,
    # replay 13391: add/sub/rsub with alpha check the shapes first, with PyTorch's words
    "alpha_ops_of_shapes_that_do_not_broadcast": _ATTEMPT
    + """
    a, f = T.ones(3, 2, requires_grad=True), T.ones(2, 2)
    attempt(lambda: T.add(a, f, alpha=0.5))
    attempt(lambda: T.sub(a, f, alpha=0.5))
    attempt(lambda: T.rsub(a, f, alpha=0.5))
    attempt(lambda: T.add(T.zeros(3, 2, dtype=T.long), T.zeros(2, 2, dtype=T.long), alpha=0.5))
    attempt(lambda: T.add(T.zeros(3, 2, dtype=T.bool), T.zeros(2, 2, dtype=T.bool), alpha=2))
    attempt(lambda: T.rsub(T.zeros(3, 2, dtype=T.bool), T.zeros(2, 2), alpha=0.5))
    """,
    # replay 4887: MulBackward0 and DivBackward0 unpack other before self, so a version error
    # names other when both were changed in place
    "version_error_of_mul_and_div_names_other_first": """
    def attempt(f):
        try:
            f()
            show("no error")
        except RuntimeError as e:
            show(str(e)[str(e).index("operation:") : str(e).index("expected")])
    def run(op, swap):
        b = T.tensor(2., requires_grad=True)
        v = b * 1
        t = op(b, v) if swap else op(v, b)
        with T.no_grad():
            b.mul_(2)
            v.mul_(2)
        t.backward()
    for op in (T.mul, T.div):
        attempt(lambda: run(op, False))
        attempt(lambda: run(op, True))
    b = T.tensor(-3.85, requires_grad=True)
    t5 = b.squeeze() * b
    with T.no_grad():
        b.mul_(2)
    attempt(t5.backward)
    """,
    # replay 6421: F.linear flattens a contiguous input into one addmm only for a contiguous
    # 1-d bias; a strided bias is matmul then add_ (PyTorch's message, AddBackward0)
    "linear_of_a_strided_bias": _ATTEMPT
    + """
    F = T.nn.functional
    w, b = T.ones(2, 2, requires_grad=True), T.ones(4)[::2]
    for x in (T.ones(1, 4, 3, 2), T.ones(1, 3, 2), T.ones(3, 2)):
        graph(F.linear(x, w, b))
    one = T.ones(2)[::2]
    graph(F.linear(T.ones(1, 3, 2), T.ones(1, 2, requires_grad=True), one))
    attempt(lambda: F.linear(T.ones(0, 4, 3, 2), T.ones(1, 2), b))
    attempt(lambda: F.linear(T.ones(1, 3, 2), T.ones(1, 2), b))
    attempt(lambda: F.linear(T.ones(1, 3, 2), T.ones(1, 2), T.ones(2)))
    """,
    # replay 13961: where saves its condition; changed in place, backward refuses it, naming
    # the bool tensor by its C++ type
    "where_condition_changed_in_place": """
    def attempt(f):
        try:
            show(f())
        except RuntimeError as e:
            show(str(e)[: str(e).index("Hint")])
    def after(i, t, a):
        i.add_(T.tensor(True))
        t.sum().backward()
        return a.grad
    a = T.tensor([-1., 2.], requires_grad=True)
    i = T.tensor([False, True])
    attempt(lambda: after(i, a.where(i, T.tensor(3.)), a))
    i = T.tensor([[False, True]])
    attempt(lambda: after(i, T.where(i[0], a * 2, a), a))
    i = T.tensor(False)
    t = a.where(i, T.tensor(3.)).sum()
    t.backward(retain_graph=True)
    i.add_(T.tensor(True))
    attempt(t.backward)
    """,
}
