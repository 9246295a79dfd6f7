"""``minigrad.nn``: modules, parameters, layers, losses and initialisation, as ``torch.nn``."""

from . import functional, init
from .activation import Flatten, LogSoftmax, ReLU, Sigmoid, Softmax, Tanh
from .container import Sequential
from .linear import Linear
from .loss import BCELoss, BCEWithLogitsLoss, CrossEntropyLoss, L1Loss, MSELoss, NLLLoss
from .module import Module
from .parameter import Parameter

__all__ = [
    "Module",
    "Parameter",
    "Linear",
    "Sequential",
    "ReLU",
    "Tanh",
    "Sigmoid",
    "Softmax",
    "LogSoftmax",
    "Flatten",
    "MSELoss",
    "L1Loss",
    "NLLLoss",
    "CrossEntropyLoss",
    "BCELoss",
    "BCEWithLogitsLoss",
    "functional",
    "init",
]
