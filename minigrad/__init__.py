"""minigrad: a small numpy autograd engine that behaves like PyTorch 2.x.

Replace ``torch`` with ``minigrad`` in a PyTorch snippet and it prints, computes
and fails the same way. The layers, bottom to top:

- ``_dtypes``, ``_printing``: dtypes, ``Size`` and PyTorch's print format;
- ``tensor``: the Tensor data model (storage, version counter, autograd fields);
- ``autograd``: Function/Node (how ops record themselves), the backward engine;
- ``ops``: one Function per differentiable operation, bound to Tensor methods in
  ``_tensor_methods`` (the one place where ops and Tensor meet);
- ``nn``, ``optim``, ``serialization``: models, optimizers, safe save/load.
"""

from . import autograd, nn, optim
from ._dtypes import (
    Size,
    bool,
    device,
    dtype,
    float16,
    float32,
    float64,
    get_default_dtype,
    int8,
    int16,
    int32,
    int64,
    set_default_dtype,
    uint8,
)
from ._printing import get_printoptions, set_printoptions
from ._tensor_methods import (
    abs,
    add,
    addmm,
    allclose,
    argmax,
    argmin,
    cat,
    clamp,
    clip,
    clone,
    concat,
    cos,
    div,
    dot,
    equal,
    exp,
    flatten,
    floor_divide,
    is_tensor,
    isclose,
    log,
    log_softmax,
    matmul,
    max,
    maximum,
    mean,
    min,
    minimum,
    mm,
    mul,
    mv,
    neg,
    numel,
    permute,
    pow,
    relu,
    remainder,
    reshape,
    rsub,
    sigmoid,
    sin,
    softmax,
    sqrt,
    squeeze,
    stack,
    std,
    sub,
    sum,
    t,
    tanh,
    transpose,
    unbind,
    unsqueeze,
    var,
    where,
)
from .autograd.anomaly_mode import is_anomaly_check_nan_enabled, is_anomaly_enabled
from .autograd.grad_mode import enable_grad, is_grad_enabled, no_grad, set_grad_enabled
from .creation import (
    BoolTensor,
    ByteTensor,
    DoubleTensor,
    FloatTensor,
    IntTensor,
    LongTensor,
    arange,
    as_tensor,
    empty,
    empty_like,
    eye,
    from_numpy,
    full,
    full_like,
    linspace,
    manual_seed,
    ones,
    ones_like,
    rand,
    rand_like,
    randint,
    randn,
    randn_like,
    tensor,
    zeros,
    zeros_like,
)
from .serialization import load, save
from .tensor import Tensor

float = float32  # noqa: A001 - PyTorch's aliases
double = float64
long = int64
int = int32  # noqa: A001
half = float16

multiply = mul
subtract = sub
divide = div
true_divide = div
negative = neg

__version__ = "0.1.0"
