"""A Python int beside an integer or bool tensor, kept as parity snippets.

numpy 2 (NEP 50) raises OverflowError for ``uint8_tensor + -2``; PyTorch casts the number to
the tensor's dtype as C does (keeping the low bits: ``+ -2`` adds 254, ``< 2**40`` compares
with 0 in int32), takes it as a float in a true division, refuses an exponent the dtype cannot
hold, and refuses an int beyond 64 bits. ``parity_snippets.SNIPPETS`` includes these.
"""

from __future__ import annotations

_DTYPES = ("uint8", "int8", "int16", "int32", "int64", "bool")
_NUMBERS = "(-2, 300, -300, 2**40, 2**63 - 1, -(2**63), 2**63)"

INT_OPERANDS: dict[str, str] = {}

for _dt in _DTYPES:
    _t = (
        "T.tensor([True, False, True, False])"
        if _dt == "bool"
        else (f"T.tensor([0, 1, 3, 100, 127], dtype=T.{_dt})")
    )
    _ops = "t + n, n + t, t * n, n * t, t / n, n / t, t < n, n < t, t == n, t >= n, n != t"
    if _dt != "bool":
        _ops += ", t - n, n - t, n ** t"
    INT_OPERANDS[f"int_operand_wraps_{_dt}"] = f"""
        t = {_t}
        for n in {_NUMBERS}:
            if n >= 2**63 and t.dtype == T.bool:
                continue  # torch refuses uint64 promotion: its own snippet
            show(n, {_ops})
    """
    if _dt != "bool":
        _nonzero = "(-2, 300, -300, -(2**63) + 1)" if _dt == "int64" else "(-2, 300, -300)"
        INT_OPERANDS[f"int_operand_divides_{_dt}"] = f"""
            t = {_t}
            for n in {_nonzero}:
                show(n, t // n, t % n, T.floor_divide(t, n), T.remainder(t, n))
        """
        INT_OPERANDS[f"int_operand_in_place_{_dt}"] = f"""
            t = {_t}
            t += 300
            t -= -2
            t *= -3
            show(t)
        """
        INT_OPERANDS[f"int_operand_exponent_out_of_range_{_dt}"] = f"""
            {_t} ** (2**40 if "{_dt}" != "int64" else 2**63)
        """
        INT_OPERANDS[f"int_operand_divisor_wraps_to_zero_{_dt}"] = f"""
            {_t} // (2**64 - 2**63 if "{_dt}" == "int64" else 2**32)
        """

INT_OPERANDS.update(
    {
        "int_operand_beyond_64_bits": """
            T.tensor([1, 2], dtype=T.uint8) + 2**64
        """,
        "int_operand_beyond_64_bits_negative": """
            T.tensor([1, 2], dtype=T.int32) * -(2**64)
        """,
        "int_operand_beyond_64_bits_compare": """
            T.tensor([1, 2]) < 2**70
        """,
        "int_operand_uint64_with_bool": """
            T.tensor([True]) + 2**63
        """,
        "int_operand_true_division_in_place": """
            t = T.tensor([1, 2], dtype=T.uint8)
            t /= 300
        """,
        "int_operand_negative_exponent": """
            T.tensor([1, 2], dtype=T.uint8) ** -300
        """,
        "int_operand_wraps_with_grad_float": """
            x = T.tensor([1., 2.], requires_grad=True)
            y = x * (T.tensor([0, 1], dtype=T.uint8) - 2)
            y.sum().backward()
            show(y, x.grad)
        """,
    }
)

INT_OPERANDS.update(
    {
        "floor_divide_and_remainder_in_place": """
            t = T.tensor([5, 7, 9], dtype=T.uint8)
            v = t[:2]
            t //= 300
            show(t, v, t._version)
            u = T.tensor([5, -7, 9])
            w = u[1:]
            u %= -4
            show(u, w, u._version, u.floor_divide_(2), u.remainder_(T.tensor([3, 2, 5])))
            f = T.tensor([5.5, -7.25])
            f //= T.tensor([2., 3.])
            f %= 1.5
            show(f)
        """,
        "floor_divide_in_place_graph": """
            x = T.tensor([5.5, -7.25], requires_grad=True)
            y = x * 1
            y %= 2
            show(y, y.grad_fn, [f and f.name() for f, _ in y.grad_fn.next_functions])
            y.sum().backward()
            show(x.grad)
            z = x * 1
            z //= 2
            show(z, z.grad_fn)
        """,
        "floor_divide_in_place_on_a_leaf": """
            x = T.tensor([5.5, -7.25], requires_grad=True)
            x //= 2
        """,
        "remainder_in_place_result_type": """
            t = T.tensor([5, 7])
            t %= 2.5
        """,
    }
)

INT_OPERANDS["floor_divide_in_place_backward"] = """
    x = T.tensor([5.5, -7.25], requires_grad=True)
    z = x * 1
    z //= 2
    z.sum().backward()
"""
