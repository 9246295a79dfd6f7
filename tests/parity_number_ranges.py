"""A Python number that does not fit where it goes, kept as parity snippets.

``tensor(data, dtype=...)`` checks every number of the data against the dtype (C10's
``checked_convert``: ``[300]`` as int8 raises, ``[-1]`` as uint8 is 255, a float out of range
or nan raises, an int beyond 64 bits raises ValueError); ``full``, ``full_like`` and ``fill_``
check their value through a Scalar (C type names in the message, ``2**63`` an unsigned Scalar);
an op refuses an int beyond 64 bits whatever the tensor's dtype (``float_tensor * 2**64``).
Each snippet runs a list of expressions and shows each result or its exception, so that one
snippet compares many cases. ``parity_snippets.SNIPPETS`` includes these.
"""

from __future__ import annotations


def _tries(*expressions: str) -> str:
    """A snippet showing each expression's value, or its exception's type and message."""
    return "\n".join(
        f"try:\n    show({e})\nexcept Exception as e:\n    show(type(e).__name__, str(e))"
        for e in expressions
    )


NUMBER_RANGES: dict[str, str] = {
    "tensor_int_dtype_range_check": _tries(
        "T.tensor([255], dtype=T.int8)",
        "T.tensor([-1], dtype=T.uint8)",
        "T.tensor([-255, 255], dtype=T.uint8)",
        "T.tensor([-256], dtype=T.uint8)",
        "T.tensor([128], dtype=T.int8)",
        "T.tensor([-129], dtype=T.int8)",
        "T.tensor([40000], dtype=T.int16)",
        "T.tensor([2**31 - 1, -(2**31)], dtype=T.int32)",
        "T.tensor([2**31], dtype=T.int32)",
        "T.tensor([[1], [300]], dtype=T.int8)",
        "T.tensor((300,), dtype=T.int8)",
        "T.tensor(300, dtype=T.int8)",
        "T.tensor([True, 300], dtype=T.uint8)",
        "T.tensor([True, 2], dtype=T.int8)",
        "T.tensor([300, 2**64], dtype=T.int8)",
        "T.tensor([2**64, 300], dtype=T.int8)",
        "T.tensor([], dtype=T.int8)",
        "T.tensor([[]], dtype=T.uint8)",
        "T.tensor([2**63], dtype=T.bool)",
    ),
    "tensor_int_dtype_range_check_floats": _tries(
        "T.tensor([1.5e10], dtype=T.int32)",
        "T.tensor([1.5e20], dtype=T.int64)",
        "T.tensor([2.0**63, 2.0**63 - 1024], dtype=T.int64)",
        "T.tensor([-1.5], dtype=T.uint8)",
        "T.tensor([-0.5], dtype=T.uint8)",
        "T.tensor([255.5], dtype=T.uint8)",
        "T.tensor([127.9, -128.9], dtype=T.int8)",
        "T.tensor([127.5], dtype=T.int8)",
        "T.tensor([float('inf')], dtype=T.int8)",
        "T.tensor([float('nan')], dtype=T.int32)",
        "T.tensor(300.0, dtype=T.int8)",
        "T.tensor([1.5, 3e9], dtype=T.int32)",
        "T.tensor([1, 2.5], dtype=T.int32)",
        "T.tensor([2**62 + 1, 0.5], dtype=T.int64)",
        "T.tensor([2**64, 300.5], dtype=T.int8)",
    ),
    "tensor_int_dtype_range_check_numpy_and_tensors": _tries(
        "T.tensor([np.int64(300)], dtype=T.int8)",
        "T.tensor([np.float64(300)], dtype=T.int8)",
        "T.tensor([np.float32(300)], dtype=T.int8)",
        "T.tensor([np.bool_(True), 3], dtype=T.int8)",
        "T.tensor(np.int64(300), dtype=T.int8)",
        "T.tensor(np.array([300]), dtype=T.int8)",  # an array is cast, not checked
        "T.tensor(np.array(300), dtype=T.int8)",
        "T.tensor([T.tensor(300)], dtype=T.int8)",
        "T.tensor([T.tensor(3.7), 3], dtype=T.int8)",
        "T.as_tensor([300], dtype=T.int8)",
        "T.as_tensor(300, dtype=T.int8)",
        "T.as_tensor([1.5e10], dtype=T.int32)",
        "T.as_tensor(np.array([300]), dtype=T.int8)",
        "T.ByteTensor([300])",
        "T.IntTensor([2**40])",
        "T.LongTensor([2**63])",
    ),
    "tensor_int_beyond_64_bits": _tries(
        "T.tensor([2**63])",
        "T.tensor(2**63)",
        "T.tensor([-(2**63) - 1])",
        "T.tensor([2**63 - 1, -(2**63)])",
        "T.tensor([2**64])",
        "T.tensor([1, 2**63])",
        "T.tensor([[1, 2**63]])",
        "T.tensor([True, 2**63])",
        "T.tensor([np.int64(5), 2**63])",
        "T.tensor([1.0, 2**63], dtype=T.int64)",
        "T.tensor([1.0, 2**63])",
        "T.tensor([2**63, 1.0])",
        "T.tensor([[1.0], [2**63]])",
        "T.tensor([2**63, 2**64], dtype=T.float64)",
        "T.tensor([2**70], dtype=T.float32)",
        "T.tensor([1.0, 2**1100])",
        "T.tensor([2**1100], dtype=T.float64)",
        "T.as_tensor(2**63)",
        "T.as_tensor([2**63])",
    ),
    "full_and_fill_range_check": _tries(
        "T.full((2,), 300, dtype=T.uint8)",
        "T.full((2,), -1, dtype=T.uint8)",
        "T.full((2,), -255, dtype=T.uint8)",
        "T.full((2,), -256, dtype=T.uint8)",
        "T.full((2,), 128, dtype=T.int8)",
        "T.full((2,), 2**15, dtype=T.int16)",
        "T.full((2,), 2**31, dtype=T.int32)",
        "T.full((2,), 2**63)",
        "T.full((2,), -(2**63) - 1)",
        "T.full((2,), 2**64)",
        "T.full((2,), 2**63, dtype=T.float64)",
        "T.full((2,), 2**70, dtype=T.float64)",
        "T.full((2,), 1.5e10, dtype=T.int32)",
        "T.full((2,), 1.5, dtype=T.int32)",
        "T.full((2,), -1.5, dtype=T.uint8)",
        "T.full((2,), float('nan'), dtype=T.int32)",
        "T.full((2,), float('inf'), dtype=T.int32)",
        "T.full((2,), float('inf'))",
        "T.full((2,), 1e300)",
        "T.full((2,), 3.5e38, dtype=T.float32)",
        "T.full((2,), 1e300, dtype=T.float64)",
        "T.full((2,), 70000.0, dtype=T.float16)",
        "T.full((2,), 300, dtype=T.bool)",
        "T.full_like(T.zeros(2, dtype=T.uint8), 300)",
        "T.full_like(T.zeros(2, dtype=T.uint8), -1)",
        "T.full_like(T.ones(2), 2**64)",
        "T.full_like(T.ones(2), 1e300)",
        "T.full_like(T.ones(2, dtype=T.int32), 1.5)",
        "T.zeros(2, dtype=T.int64).fill_(2**63)",
        "T.zeros(2, dtype=T.int64).fill_(2**64)",
        "T.zeros(2, dtype=T.int64).fill_(-(2**63) - 1)",
        "T.zeros(2, dtype=T.uint8).fill_(2**63)",
        "T.zeros(2, dtype=T.bool).fill_(2**63)",
        "T.zeros(2, dtype=T.float32).fill_(2**63)",
        "T.zeros(2, dtype=T.float32).fill_(2**70)",
        "T.zeros(2, dtype=T.float16).fill_(70000)",
    ),
    "float_tensor_with_an_int_beyond_64_bits": _tries(
        "T.ones(2) * 2**63",
        "T.ones(2) * (2**64 - 1)",
        "T.ones(2) * 2**64",
        "T.ones(2) * -(2**64)",
        "T.ones(2) * (-(2**63) - 1)",
        "T.tensor(3.) * 2**64",
        "2**64 / T.ones(2)",
        "2**64 / T.tensor([1, 2])",
        "2**70 / T.tensor([1, 2])",
        "T.tensor([1, 2]) / 2**70",
        "T.tensor([1., 2.]) / 2**64",
        "T.tensor([1., 2.]) - 2**64",
        "2**64 - T.tensor([1., 2.])",
        "T.tensor([1., 2.]) < 2**64",
        "T.ones(2) == 2**70",
        "T.ones(2, dtype=T.int64) == 2**70",
        "T.tensor([1., 2.]) // 2**64",
        "T.tensor([1., 2.]) % 2**64",
        "T.add(T.tensor([1., 2.]), 2**64)",
        "T.tensor([1., 2.]).mul(2**64)",
        "T.tensor([1., 2.]).div(2**64)",
        "T.tensor([1., 2.], dtype=T.float64) * 2**63",
        "T.tensor([1., 2.], requires_grad=True) * 2**70",
        "T.tensor([1., 2.]) + 2**1100",
        "T.tensor([True, False]) * 2**64",
    ),
    "float_tensor_in_place_with_an_int_beyond_64_bits": """
        t = T.tensor([1., 2.])
        t *= 2**63
        show(t)
        t += 2**64
    """,
}
