"""``minigrad.cuda``: there is no GPU in minigrad, so tutorials' device checks say "cpu".

``device = "cuda" if minigrad.cuda.is_available() else "cpu"`` is the first line of many
PyTorch tutorials; here it always picks the CPU.
"""

from __future__ import annotations

__all__ = ["is_available", "device_count"]


def is_available() -> bool:
    """False: minigrad computes with numpy on the CPU."""
    return False


def device_count() -> int:
    """0: no GPU."""
    return 0
