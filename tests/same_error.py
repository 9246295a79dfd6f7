"""One check the bit-exact tests share: where PyTorch raises, minigrad raises the same."""

from __future__ import annotations


def assert_raises_the_same(run, module, error: Exception) -> None:
    """``run(module)`` raises what ``run(torch)`` raised: the same type and message."""
    try:
        run(module)
    except Exception as got:  # noqa: BLE001 - any type, compared below
        assert (type(got), str(got)) == (type(error), str(error))
    else:
        raise AssertionError(f"minigrad computed a result where torch raised {error!r}")
