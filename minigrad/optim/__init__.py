"""``minigrad.optim``: optimizers that update a model's parameters, as ``torch.optim``."""

from .adam import Adam
from .optimizer import Optimizer
from .sgd import SGD

__all__ = ["Optimizer", "SGD", "Adam"]
