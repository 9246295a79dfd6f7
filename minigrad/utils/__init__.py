"""``minigrad.utils``: what ``torch.utils`` offers a training loop; so far ``data``."""

from . import data

__all__ = ["data"]
