"""The differentiable operations, one ``ArrayFunction`` each, grouped by kind.

Each op's ``forward`` and ``backward`` sit side by side and work on numpy
arrays; the shared work (edges, saved-value versions, un-broadcasting) is in
``minigrad.autograd.function``. ``minigrad/_tensor_methods.py`` binds them to
Tensor methods and operators.
"""

import warnings

# PyTorch makes inf and nan silently (1 / 0 is inf, log(-1) is nan); numpy warns about them.
# Silence those numpy warnings for minigrad's own code only, at no cost per operation.
warnings.filterwarnings(
    "ignore",
    message=r"(divide by zero|invalid value|overflow|underflow) encountered",
    category=RuntimeWarning,
    module=r"minigrad(\.|$)",
)
