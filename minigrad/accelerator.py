"""``minigrad.accelerator``: PyTorch 2.x's device-neutral check; minigrad has none."""

from __future__ import annotations

__all__ = ["is_available", "current_accelerator", "device_count"]


def is_available() -> bool:
    """False: no accelerator, only the CPU."""
    return False


def current_accelerator(check_available: bool = False) -> None:
    """None: no accelerator."""
    return None


def device_count() -> int:
    """0: no accelerator."""
    return 0
