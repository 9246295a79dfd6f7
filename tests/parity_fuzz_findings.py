"""What the differential fuzzer found and was fixed, kept as parity snippets.

Each entry is the minimised program of a finding in ``tests/difffuzz/FINDINGS.md`` (cleaned up
by hand), in the style of ``parity_snippets.py``; ``parity_snippets.SNIPPETS`` includes them, so
``test_parity.py`` runs each in torch and in minigrad and compares what a learner sees.
"""

from __future__ import annotations

FUZZ_FINDINGS: dict[str, str] = {
    # A4: f-strings of a loss, as every training loop prints it
    "format_of_a_zero_dim_tensor": """
        loss = T.tensor(2.34567, requires_grad=True) * 1
        show(f"{loss:.4f}", f"{loss}", format(loss, ".2e"), f"{T.tensor(3):d}")
        show(format(T.ones(2), ""), f"{T.tensor(True)}")
    """,
    "format_spec_of_a_vector": """
        format(T.ones(2), ".2f")
    """,
    "format_spec_of_a_parameter": """
        format(T.nn.Parameter(T.tensor(2.)), ".2f")
    """,
    # A5: Python scalars from many elements
    "float_of_many_elements": """
        float(T.ones(2))
    """,
    "int_of_no_elements": """
        int(T.ones(0))
    """,
    "complex_of_one_element": """
        show(complex(T.ones(1)), float(T.ones(1, 1)), int(T.tensor([[7]])))
        complex(T.ones(3))
    """,
    "bool_of_no_values": """
        bool(T.ones(0))
    """,
    # A9: dims of a 0-d tensor where PyTorch has none to offer
    "size_of_a_zero_dim_tensor": """
        show(T.tensor(2.).size(), T.tensor(2.).sum(0), T.tensor(2.).sum(-1))
        T.tensor(2.).size(0)
    """,
    "size_minus_one_of_a_zero_dim_tensor": """
        T.tensor(2.).size(-1)
    """,
    "unbind_of_a_zero_dim_tensor": """
        T.tensor(2.).unbind(0)
    """,
    # A1: div with rounding_mode
    "div_rounding_modes": """
        a = T.tensor([7., -7., 0., 1., 5.5, -5.5], requires_grad=True)
        b = T.tensor([2., 2., 0., -0., 2., -2.])
        y = T.div(a, b, rounding_mode="floor")
        z = a.div(b, rounding_mode="trunc")
        show(y, z)
        graph(y)
        (y + z).sum().backward()
        show(a.grad)
        w = T.div(2, a, rounding_mode="floor")
        show(w)
        graph(w)
        graph(T.div(a, 3, rounding_mode="trunc"))
    """,
    "div_rounding_modes_of_integers": """
        i, j = T.tensor([7, -7, 6]), T.tensor([2, 2, -4])
        show(T.div(i, j, rounding_mode="trunc"), T.div(i, j, rounding_mode="floor"))
        show(T.div(i, 2.5, rounding_mode="trunc"))
        show(T.div(i.int(), T.tensor(2), rounding_mode="floor"))
        show(T.div(T.ones(2), T.tensor(2., dtype=T.float64), rounding_mode="floor"))
    """,
    "div_rounding_mode_of_integers_by_zero": """
        T.div(T.tensor([7, -7]), T.tensor([0, 2]), rounding_mode="floor")
    """,
    "div_unknown_rounding_mode": """
        T.div(T.ones(2), 2, rounding_mode="round")
    """,
    # W1: numpy's warnings never reach a learner (the harness records every warning)
    "no_numpy_warnings_forward_and_backward": """
        import warnings
        warnings.simplefilter("always")
        x = T.tensor([0., -1., 3e38, float("nan")], requires_grad=True)
        y = x.log() + x.sqrt() + 1 / x + x * 10 + x ** 0.5
        show(y)
        y.sum().backward()
        show(x.grad, T.tensor([float("nan"), float("inf")]).long().dtype)
    """,
}
