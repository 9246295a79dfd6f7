"""``minigrad.nn``: modules, parameters, layers, losses and initialisation, as ``torch.nn``."""

from . import functional, init
from .activation import (
    ELU,
    GELU,
    Dropout,
    Flatten,
    LeakyReLU,
    LogSoftmax,
    ReLU,
    Sigmoid,
    SiLU,
    Softmax,
    Softplus,
    Tanh,
    Unflatten,
)
from .container import ModuleDict, ModuleList, Sequential
from .embedding import Embedding
from .linear import LazyLinear, Linear
from .loss import (
    BCELoss,
    BCEWithLogitsLoss,
    CrossEntropyLoss,
    HuberLoss,
    L1Loss,
    MSELoss,
    NLLLoss,
    SmoothL1Loss,
)
from .module import Module
from .parameter import Parameter

__all__ = [
    "Module",
    "Parameter",
    "Linear",
    "Embedding",
    "LazyLinear",
    "Sequential",
    "ModuleList",
    "ModuleDict",
    "LeakyReLU",
    "GELU",
    "SiLU",
    "ELU",
    "Softplus",
    "Dropout",
    "SmoothL1Loss",
    "HuberLoss",
    "ReLU",
    "Tanh",
    "Sigmoid",
    "Softmax",
    "LogSoftmax",
    "Flatten",
    "Unflatten",
    "MSELoss",
    "L1Loss",
    "NLLLoss",
    "CrossEntropyLoss",
    "BCELoss",
    "BCEWithLogitsLoss",
    "functional",
    "init",
]
