"""``minigrad.linalg``: the vector norm, as ``torch.linalg.vector_norm``."""

from ._functions.scans import vector_norm

__all__ = ["vector_norm"]
